// Files the user names that are not what they claim to be, from the hostile-input round three
// (issue #36): a rules table that never ends (/dev/zero), is a FIFO or is far too big, and `query` on
// a FIFO. Each is refused at once with the file and the reason; nothing blocks or grows without end.

#include "app/synth/synthetic_profile_generator.h"
#include "importers/common/step_name_rules.h"
#include "models/analysis/rules/category_rules.h"
#include "models/store/foreign_database.h"
#include "models/store/session_store.h"
#include "models/store/small_text_file.h"
#include "tests/child_process.h"
#include "tests/cli/cli_test_support.h"
#include "tests/test_support.h"
#include "views/export/view_exporter.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QtTest>

#include <sys/resource.h>
#include <sys/stat.h>

#include <csignal>
#include <fstream>
#include <random>
#include <set>

using namespace stepscope;

// A full disk, for this process while it lives: files cannot grow past `bytes` (RLIMIT_FSIZE), and a
// write beyond fails with EFBIG instead of raising SIGXFSZ.
class FileSizeLimit {
public:
    explicit FileSizeLimit(rlim_t bytes) : m_handler(std::signal(SIGXFSZ, SIG_IGN)) {
        ::getrlimit(RLIMIT_FSIZE, &m_old);
        struct rlimit small = m_old;
        small.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &small);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &m_old);
        std::signal(SIGXFSZ, m_handler);
    }
    FileSizeLimit(const FileSizeLimit &) = delete;
    FileSizeLimit &operator=(const FileSizeLimit &) = delete;

private:
    void (*m_handler)(int);
    struct rlimit m_old {};
};

class TstHostileFiles : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const std::string &name) const { return m_dir.path().toStdString() + "/" + name; }

    static QString errorOf(const std::function<void()> &f) {
        try {
            f();
        } catch (const std::exception &e) {
            return QString::fromStdString(e.what());
        }
        return {};
    }

    static QByteArray sha256(const std::string &file) {
        QFile f(QString::fromStdString(file));
        if (!f.open(QIODevice::ReadOnly)) return {};
        return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
    }

    static std::set<std::string> scratchFolders() {
        std::set<std::string> out;
        std::error_code ec;
        for (const auto &e : std::filesystem::directory_iterator(std::filesystem::temp_directory_path(), ec))
            if (e.path().filename().string().rfind("stepscope-export-", 0) == 0) out.insert(e.path().string());
        return out;
    }

    std::string trace() {
        const std::string file = path("t.pt.trace.json");
        std::ofstream(file) << R"({"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"aten::mm","cat":"cpu_op","pid":1,"tid":1,"ts":10,"dur":20}]})";
        return file;
    }

private slots:
    void rulesFileThatNeverEndsIsRefused() {
        // Was: 4 GB read, then bad_alloc without naming the file.
        QCOMPARE(errorOf([] { CategoryRules::load("/dev/zero"); }),
                 QStringLiteral("/dev/zero: rules file is a character device, not a regular file"));
        qputenv("STEPSCOPE_STEP_RULES", "/dev/zero");
        const QString stepRules = errorOf([] { StepNameRules::load(); });
        qunsetenv("STEPSCOPE_STEP_RULES");
        QCOMPARE(stepRules, QStringLiteral("/dev/zero: step rules file (STEPSCOPE_STEP_RULES) is a character device, not a regular file"));
        const auto r = test::runCli({"report", trace(), "--rules", "/dev/zero"});
        QVERIFY2(r.code != 0, r.out.c_str());
        QVERIFY2(QString::fromStdString(r.err).contains("/dev/zero: rules file is a character device"), r.err.c_str());
    }

    void rulesFifoAndFolderAreRefusedWithoutBlocking() {
        const std::string fifo = path("rules.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);  // no writer: a plain open would wait forever
        QCOMPARE(errorOf([&] { CategoryRules::load(fifo); }), QString::fromStdString(fifo + ": rules file is a FIFO (named pipe), not a regular file"));
        QCOMPARE(errorOf([&] { CategoryRules::load(m_dir.path().toStdString()); }),
                 QString::fromStdString(m_dir.path().toStdString() + ": rules file is a folder, not a regular file"));
        QVERIFY(errorOf([&] { CategoryRules::load(path("missing.tsv")); }).startsWith(QString::fromStdString(path("missing.tsv") + ": rules file cannot be read: ")));
    }

    void oversizedRulesFileIsRefused() {
        const std::string big = path("big.tsv");
        {
            std::ofstream out(big);
            const std::string line(1023, '#');
            for (int i = 0; i < 5 * 1024; ++i) out << line << '\n';  // 5 MiB of comments
        }
        QCOMPARE(errorOf([&] { readSmallTextFile(big, "rules file"); }),
                 QString::fromStdString(big + ": rules file is 5242880 bytes, over the 4194304-byte limit"));
        // A small one is read whole.
        const std::string small = path("small.tsv");
        std::ofstream(small) << "a\tb\n";
        QCOMPARE(QString::fromStdString(readSmallTextFile(small, "rules file")), QStringLiteral("a\tb\n"));
    }

    void exportNeverWritesTheSessionItIsGiven() {
        // Was: export opened the session read-write and stored its analysis there (the file's hash
        // changed). What it computes now stays in memory.
        const std::string session = path("exported.stepscope");
        QCOMPARE(test::runCli({"import", trace(), "-o", session, "--no-analysis"}).code, 0);
        const QByteArray before = sha256(session);
        QVERIFY(!before.isEmpty());
        for (const char *view : {"timeline", "findings", "window"}) {
            const auto r = test::runCli({"export", session, "--view", view, "--size", "800x500", "-o", path(std::string(view) + ".png")});
            QVERIFY2(r.code == 0, r.err.c_str());
        }
        QCOMPARE(sha256(session), before);
        // Nor is anything left beside it: the -wal and -shm its reading made are removed again (#35).
        for (const char *suffix : {"-wal", "-shm"}) QVERIFY2(!QFileInfo::exists(QString::fromStdString(session + suffix)), suffix);
    }

    void unsupportedPictureFormatIsAUsageError() {
        // Refused before anything is imported: no session, no scratch files, exit 1.
        const auto r = test::runCli({"export", trace(), "--view", "timeline", "-o", path("out.gif")});
        QCOMPARE(r.code, 1);
        QCOMPARE(QString::fromStdString(r.err),
                 QString::fromStdString("stepscope export: " + path("out.gif") +
                                        ": unsupported picture format (the file name must end in .png, .svg, .pdf, .jpg or .jpeg)\n"));
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path("out.gif"))));
    }

    // A WAL-mode export whose last rows sit in its -wal (issue #36: opened immutable, 1,000 of 1,005
    // kernels were read and 5 silently dropped). The rows in the -wal are read; the export and its
    // -wal are left byte for byte as they were, and the scratch copy is gone after.
    void walExportIsReadWhole() {
        const std::string writerFile = path("writer.sqlite"), exportFile = path("export.sqlite");
        sqlite3 *w = nullptr;
        QCOMPARE(sqlite3_open(writerFile.c_str(), &w), SQLITE_OK);
        sqliteExec(w, "PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; CREATE TABLE k(id INTEGER PRIMARY KEY, v)");
        sqliteExec(w, "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) INSERT INTO k(v) SELECT i FROM n");
        sqliteExec(w, "PRAGMA wal_checkpoint(TRUNCATE)");
        sqliteExec(w, "INSERT INTO k(v) VALUES (1),(2),(3),(4),(5)");  // committed, only in the -wal
        // The pair as a killed writer leaves it: copied while the writer still has it open.
        std::filesystem::copy_file(writerFile, exportFile);
        std::filesystem::copy_file(writerFile + "-wal", exportFile + "-wal");
        sqlite3_close(w);
        QVERIFY(std::filesystem::file_size(exportFile + "-wal") > 0);
        const QByteArray db = sha256(exportFile), wal = sha256(exportFile + "-wal");
        const auto scratchBefore = scratchFolders();
        {
            const ForeignDatabase d = ForeignDatabase::open(exportFile, ForeignDatabase::Mode::ReadOnly);
            QVERIFY(d.readThroughCopy());
            SqliteStatement n(d.db(), "SELECT count(*) FROM k");
            QVERIFY(n.step());
            QCOMPARE(n.columnInt(0), int64_t(1005));
        }
        QCOMPARE(sha256(exportFile), db);
        QCOMPARE(sha256(exportFile + "-wal"), wal);
        QVERIFY(!QFileInfo::exists(QString::fromStdString(exportFile + "-shm")));
        QCOMPARE(scratchFolders(), scratchBefore);
        // Without a -wal the file is read in place, immutable, as before.
        std::filesystem::remove(exportFile + "-wal");
        const ForeignDatabase plain = ForeignDatabase::open(exportFile, ForeignDatabase::Mode::ReadOnly);
        QVERIFY(plain.immutable() && !plain.readThroughCopy());
    }

    // query printed text and blobs up to their first NUL byte (issue #36): text is printed whole,
    // a blob as its SQL literal in hex.
    void queryPrintsNulBytesAndBlobsWhole() {
        const std::string session = path("nul.stepscope");
        QCOMPARE(test::runCli({"import", trace(), "-o", session, "--no-analysis"}).code, 0);
        const std::string sql = "SELECT 'a' || char(0) || 'b' AS t, x'00ff10' AS b, zeroblob(2) AS z";
        const auto csv = test::runCli({"query", session, sql});
        QCOMPARE(csv.code, 0);
        QCOMPARE(csv.out, std::string("t,b,z\na\0b,X'00FF10',X'0000'\n", 28));
        const auto json = test::runCli({"query", session, sql, "--format", "json"});
        QCOMPARE(json.code, 0);
        QVERIFY2(json.out.find(R"({"b":"X'00FF10'","t":"a\u0000b","z":"X'0000'"})") != std::string::npos, json.out.c_str());
    }

    // `--run NAME` naming no run of a session was ignored by report and export (issue #36).
    void runThatIsNotThereIsAnError() {
        const std::string session = path("runs.stepscope");
        QCOMPARE(test::runCli({"import", trace(), "-o", session, "--no-analysis"}).code, 0);
        for (const std::vector<std::string> &args :
             {std::vector<std::string>{"report", session, "--run", "nosuchrun"},
              std::vector<std::string>{"export", session, "--run", "nosuchrun", "--view", "timeline", "-o", path("r.png")}}) {
            const auto r = test::runCli(args);
            QCOMPARE(r.code, 1);
            QVERIFY2(QString::fromStdString(r.err).contains(QString::fromStdString("--run nosuchrun: " + session + " holds no run of that name (its runs: ")),
                     r.err.c_str());
        }
        QVERIFY(!QFileInfo::exists(QString::fromStdString(path("r.png"))));
        QCOMPARE(test::runCli({"report", session, "--run", "all"}).code, 0);
    }

    // Silent success on bad input (issue #36): a compare against an empty trace said "100 % faster"
    // with exit 0; a 0-byte rank file in a folder gave exit 0; "no files found" named no folder.
    void emptyInputsAreNotSuccess() {
        const std::string empty = path("empty.pt.trace.json");
        std::ofstream(empty) << R"({"traceEvents":[]})";
        const auto r = test::runCli({"compare", trace(), empty});
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromStdString(r.err).contains(QString::fromStdString("the new side (" + empty + ") has nothing to compare")), r.err.c_str());

        const std::string job = path("job");
        std::filesystem::create_directories(job);
        std::filesystem::copy_file(trace(), job + "/rank-0.pt.trace.json");
        std::ofstream(job + "/rank-1.pt.trace.json");  // 0 bytes
        const auto imported = test::runCli({"import", job, "-o", path("job.stepscope"), "--no-analysis"});
        QCOMPARE(imported.code, 3);  // partial: a rank is missing
        const auto log = test::runCli({"query", path("job.stepscope"), "SELECT severity, message FROM import_log WHERE file LIKE '%rank-1%'"});
        QVERIFY2(QString::fromStdString(log.out).contains("warning,skipped: empty file (0 bytes)"), log.out.c_str());

        const std::string nothing = path("nothing_here");
        std::filesystem::create_directories(nothing);
        const auto none = test::runCli({"import", nothing, "-o", path("none.stepscope")});
        QCOMPARE(none.code, 2);
        QVERIFY2(QString::fromStdString(none.err).contains(QString::fromStdString("no files found in " + nothing)), none.err.c_str());
    }

    // Times near the int64 limit (issue #36): a Kineto baseTimeNanoseconds near 9.22e18 gave
    // floating-point v_slice times; a tampered run.time_base_ns made report print wrapped sums and
    // export run for minutes. The header's base is ignored with a warning; the tampered session is
    // refused naming the run.
    void timesNearTheInt64LimitAreRefused() {
        const std::string file = path("base.pt.trace.json");
        std::ofstream(file) << R"({"baseTimeNanoseconds": 9223372036854775000, "schemaVersion": 1, "traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"aten::mm","cat":"cpu_op","pid":1,"tid":1,"ts":10,"dur":20}]})";
        const std::string session = path("base.stepscope");
        const auto r = test::runCli({"import", file, "-o", session, "--no-analysis"});
        QVERIFY2(r.code == 0 || r.code == 3, r.err.c_str());
        const auto log = test::runCli({"query", session, "SELECT message FROM import_log WHERE position = 'baseTimeNanoseconds'"});
        QVERIFY2(QString::fromStdString(log.out).contains("time base 9223372036854775000 ns is out of range (beyond ±2^62 ns): ignored"),
                 log.out.c_str());
        const auto types = test::runCli({"query", session, "SELECT DISTINCT typeof(start_ns), max(start_ns) FROM v_slice"});
        QCOMPARE(types.out, std::string("typeof(start_ns),max(start_ns)\ninteger,10000\n"));

        // An event at 9.2e18 ns (beyond ±2^62) is no time: skipped with a warning at its position.
        const std::string far = path("far.pt.trace.json");
        std::ofstream(far) << R"({"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"far","cat":"cpu_op","pid":1,"tid":1,"ts":9200000000000000,"dur":20}]})";
        const std::string farSession = path("far.stepscope");
        const auto farImport = test::runCli({"import", far, "-o", farSession, "--no-analysis"});
        // The skipped event makes the import partial (exit 3), as a cut-short file does.
        QVERIFY2(farImport.code == 3 && farImport.out.find("1 warnings") != std::string::npos, farImport.out.c_str());
        const auto farLog = test::runCli({"query", farSession, "SELECT position, message FROM import_log WHERE message LIKE '%valid ts%'"});
        QVERIFY2(QString::fromStdString(farLog.out).contains("events without a valid ts skipped"), farLog.out.c_str());
        QCOMPARE(test::runCli({"query", farSession, "SELECT count(*) FROM v_slice"}).out, std::string("count(*)\n1\n"));

        {   // the session tampered by hand
            SessionStore store(session);
            sqliteExec(store.db(), "UPDATE run SET time_base_ns = 9223372036854775000");
        }
        for (const std::vector<std::string> &args : {std::vector<std::string>{"report", session},
                                                     std::vector<std::string>{"export", session, "--view", "timeline", "-o", path("t.png")}}) {
            const auto refused = test::runCli(args);
            QCOMPARE(refused.code, 2);
            QVERIFY2(QString::fromStdString(refused.err).contains("has the time base 9223372036854775000 ns, beyond ±2^62 ns: the session was altered"),
                     refused.err.c_str());
        }
    }

    // `import -o` at a FIFO answered SQLite's "disk I/O error" (issue #36).
    void importOutputThatIsNoFileIsAUsageError() {
        const std::string fifo = path("out.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const auto r = test::runCli({"import", trace(), "-o", fifo});
        QCOMPARE(r.code, 1);
        QCOMPARE(QString::fromStdString(r.err),
                 QString::fromStdString("stepscope import: -o " + fifo + " is not a regular file (FIFO), not a session file: name a .stepscope file\n"));
        const auto dir = test::runCli({"import", trace(), "-o", m_dir.path().toStdString()});
        QCOMPARE(dir.code, 1);
        QVERIFY2(QString::fromStdString(dir.err).contains(" is a folder, not a session file"), dir.err.c_str());
        // A new session under another program's name (a picture, a report) is refused before any import.
        for (const std::string name : {"run.png", "report.json", "session"}) {
            const auto wrong = test::runCli({"import", trace(), "-o", path(name)});
            QCOMPARE(wrong.code, 1);
            QVERIFY2(wrong.err.find(": a new session's name ends in .stepscope") != std::string::npos, wrong.err.c_str());
            QVERIFY(!std::filesystem::exists(path(name)));
        }
    }

    // SQLite's "unable to open database file" / "attempt to write a readonly database" said nothing
    // of the cause (issue #36): the message now names it.
    void sessionThatCannotBeOpenedSaysWhy() {
        const std::string loop = path("loop_a");
        std::filesystem::create_symlink(path("loop_b"), loop);
        std::filesystem::create_symlink(loop, path("loop_b"));
        std::ofstream(path("plain_file")) << "x";
        const std::vector<std::pair<std::string, std::string>> cases = {
            {path("no_such_folder/s.stepscope"), "unable to open database file (its folder " + path("no_such_folder") + " does not exist)"},
            {loop + "/s.stepscope", "unable to open database file (a symbolic link loop in its path)"},
            {path("plain_file/s.stepscope"), "unable to open database file (" + path("plain_file") + " is not a folder)"}};
        for (const auto &[out, why] : cases) {
            const auto r = test::runCli({"import", trace(), "-o", out});
            QCOMPARE(r.code, 2);
            QVERIFY2(QString::fromStdString(r.err).contains(QString::fromStdString(out + ": cannot open session: " + why)), r.err.c_str());
        }
        // A folder this user may not write (root writes anywhere: the check runs as nobody).
        const std::string locked = path("locked");
        std::filesystem::create_directories(locked);
        const std::string input = trace();
        std::filesystem::permissions(m_dir.path().toStdString(), std::filesystem::perms(0755));
        std::filesystem::permissions(input, std::filesystem::perms(0644));
        std::filesystem::permissions(locked, std::filesystem::perms(0555));
        const auto child = test::runInChild([&](int &) {
            const auto r = test::runCli({"import", input, "-o", locked + "/s.stepscope"});
            return std::to_string(r.code) + "|" + r.err;
        }, true);
        std::filesystem::permissions(locked, std::filesystem::perms(0755));
        if (!child) QSKIP("cannot drop privileges here to check the unwritable folder");
        QVERIFY2(QString::fromStdString(child->out).startsWith("2|"), child->out.c_str());
        QVERIFY2(QString::fromStdString(child->out).contains(QString::fromStdString("(the folder " + locked + " is not writable for this user)")),
                 child->out.c_str());
    }

    // A picture onto a full disk (issue #36): the reason is given and no partial file is left. The
    // file-size limit stands in for the full disk (SIGXFSZ ignored: writes fail with EFBIG).
    void pictureOntoAFullDiskLeavesNoPartialFile() {
        QImage noise(900, 700, QImage::Format_RGB32);  // does not compress: a PNG of about 2 MB
        std::mt19937 rng(7);
        for (int y = 0; y < noise.height(); ++y)
            for (int x = 0; x < noise.width(); ++x) noise.setPixel(x, y, rng());
        QLabel widget;
        widget.setPixmap(QPixmap::fromImage(noise));
        widget.resize(noise.size());
        const QString folder = m_dir.filePath(QStringLiteral("full"));
        QDir().mkpath(folder);
        for (const char *name : {"p.png", "p.pdf", "p.svg"}) {
            const QString file = folder + "/" + name;
            const QString error = [&] {
                const FileSizeLimit full(64 * 1024);
                return ViewExporter::exportWidget(&widget, file);
            }();
            QVERIFY2(error.startsWith(file + ": cannot write ") && error.endsWith("; nothing was written"), qPrintable(error));
            QVERIFY2(QDir(folder).entryList(QDir::Files | QDir::Hidden).isEmpty(), qPrintable(QDir(folder).entryList().join(',')));
        }
        QCOMPARE(ViewExporter::exportWidget(&widget, folder + "/ok.png"), QString());  // with room, written
        QVERIFY(QFileInfo(folder + "/ok.png").size() > 64 * 1024);
    }

    // "database or disk is full" / "disk I/O error" when it is TMPDIR that cannot take the scratch
    // session (issue #36): the message names that folder and what to do. The file-size limit stands
    // in for the full TMPDIR.
    void fullTmpdirIsNamed() {
        const std::string tmp = path("tmpdir");
        std::filesystem::create_directories(tmp);
        synth::SyntheticProfileOptions o;
        o.targetEvents = 60000;
        const std::string big = path("big.pt.trace.json.gz");
        synth::writeTrace(o, big);
        const QByteArray oldTmp = qgetenv("TMPDIR");
        qputenv("TMPDIR", QByteArray::fromStdString(tmp));
        const auto r = [&] {
            const FileSizeLimit full(512 * 1024);
            return test::runCli({"report", big, "--format", "json"});
        }();
        if (oldTmp.isNull()) qunsetenv("TMPDIR");
        else qputenv("TMPDIR", oldTmp);
        QCOMPARE(r.code, 2);
        QVERIFY2(QString::fromStdString(r.err).contains(QString::fromStdString("the temporary folder " + tmp + " — TMPDIR, ")), r.err.c_str());
        QVERIFY2(QString::fromStdString(r.err).contains("set TMPDIR to a folder with room"), r.err.c_str());
        QVERIFY(std::filesystem::is_empty(tmp));  // the scratch session removed
    }

    // A metric value of megabytes of digits or of invalid UTF-8 was dropped with no warning when it
    // was the column's first (issue #36), and quoted whole when it was a later one.
    void brokenMetricValuesAreWarnedBriefly() {
        const std::string csv = path("m.csv"), smi = path("smi.csv");
        std::ofstream(csv, std::ios::binary) << "time,gpu_util,mem,note\n1700000000,5,\xff\xfe,ok\n1700000001,50,3,fine\n"
                                             << "1700000002,51,3,x\n1700000003," << std::string(10 << 20, '9') << ",4,y\n";
        std::ofstream(smi, std::ios::binary) << "timestamp, index, utilization.gpu [%], memory.used [MiB], name\n"
                                             << "2024/01/01 00:00:00.000, 0, 5 %, " << std::string(2048, '7') << "x MiB, NVIDIA H100\n"
                                             << "2024/01/01 00:00:01.000, 0, 50 %, 100 MiB, NVIDIA H100\n";
        for (const auto &[file, expected] : std::vector<std::pair<std::string, QStringList>>{
                 {csv, {"column 'mem' does not start with a number ('\\xff\\xfe'): read as text, not imported",
                        "not a number: gpu_util = '999999999999999999999999999999999999999999999999… (10485760 bytes)'; no sample"}},
                 {smi, {"not a number: memory.used = '777777777777777777777777777777777777777777777777… (2053 bytes)' "
                        "(the column is not imported); no sample"}}}) {
            const std::string session = file + ".stepscope";
            const auto r = test::runCli({"import", file, "-o", session, "--no-analysis"});
            QVERIFY2(r.code == 0 || r.code == 3, r.err.c_str());
            const auto log = test::runCli({"query", session, "SELECT message FROM import_log WHERE severity = 'warning' ORDER BY id", "--format", "json"});
            QStringList messages;
            for (const QJsonValue &row : QJsonDocument::fromJson(QByteArray::fromStdString(log.out)).array())
                messages << row.toObject()["message"].toString();
            QCOMPARE(messages, expected);  // the text column ("note", "name") is no warning
        }
    }

    void queryOnAFifoIsRefused() {
        // Was: blocked forever opening the FIFO to read its header.
        const std::string fifo = path("session.fifo");
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        const auto r = test::runCli({"query", fifo, "SELECT 1"});
        QCOMPARE(r.code, 2);
        QCOMPARE(QString::fromStdString(r.err), QString::fromStdString("stepscope query: " + fifo + ": not a regular file (FIFO), not a session file\n"));
        const auto dir = test::runCli({"query", m_dir.path().toStdString(), "SELECT 1"});
        QCOMPARE(dir.code, 2);
        QVERIFY2(QString::fromStdString(dir.err).contains(": a folder, not a session file"), dir.err.c_str());
        const auto missing = test::runCli({"query", path("nothing.stepscope"), "SELECT 1"});
        QCOMPARE(missing.code, 2);
        QVERIFY2(QString::fromStdString(missing.err).contains("nothing.stepscope: "), missing.err.c_str());
    }
};

QTEST_MAIN(TstHostileFiles)
#include "tst_hostile_files.moc"
