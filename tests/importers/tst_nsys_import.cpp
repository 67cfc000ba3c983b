// The Nsight Systems importer on hand-built exports: NVTX step rules (numbered, unnumbered, the
// best rule wins), marks, ranges left open, domains; an older export that lacks tables and columns;
// files that are not exports (another SQLite database, a Stepscope session) skipped with a reason; a
// damaged or locked export failing with a message naming it; the GPU metric names.

#include "app/cli/input_session.h"
#include "importers/nsys/nsys_gpu_metrics.h"
#include "importers/nsys/nsys_sqlite_importer.h"
#include "models/concurrency/cancel_token.h"
#include "models/text/ascii_case.h"
#include "models/store/foreign_database.h"
#include "tests/importers/import_test_support.h"

#include <QtTest>

#include <clocale>

#include <fstream>
#include <thread>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

constexpr const char *kBase = R"(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, text TEXT,
  globalTid INTEGER, textId INTEGER, domainId INTEGER);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (1700000000000000000);
)";

// (100 << 24) | 7: process 100, thread 7.
constexpr int64_t kTid = (int64_t(100) << 24) | 7;

fs::path makeExport(const QTemporaryDir &dir, const std::string &name, const std::string &sql) {
    const fs::path file = fs::path(dir.path().toStdString()) / name;
    ForeignDatabase db = ForeignDatabase::open(file, ForeignDatabase::Mode::Create);
    sqliteExec(db.db(), sql);
    return file;
}

std::string range(const std::string &text, int64_t start, std::optional<int64_t> end, int type = 59, int domain = 0) {
    return "INSERT INTO NVTX_EVENTS VALUES (" + std::to_string(start) + ", " + (end ? std::to_string(*end) : "NULL") + ", " +
           std::to_string(type) + ", '" + text + "', " + std::to_string(kTid) + ", NULL, " + std::to_string(domain) + ");\n";
}

test::ImportedFile importNsys(const fs::path &file) {
    NsysSqliteImporter importer;
    return test::importFile(importer, file);
}

QStringList rows(const test::ImportedFile &r, const std::string &sql) { return test::queryRows(*r.store, sql); }

} // namespace

class TstNsysImport : public QObject {
    Q_OBJECT
private slots:
    void numberedStepRanges() {
        QTemporaryDir dir;
        std::string sql = kBase;
        for (int i = 0; i < 3; ++i)
            sql += range("Step " + std::to_string(7 + i), 1000 + i * 1000, 1900 + i * 1000);
        sql += range("forward", 1100, 1500);
        const auto r = importNsys(makeExport(dir, "a.sqlite", sql));
        QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
        QCOMPARE(rows(r, "SELECT step, start_ns - 1700000000000000000, dur_ns FROM v_step ORDER BY step"),
                 QStringList({"7|1000|900", "8|2000|900", "9|3000|900"}));
        QCOMPARE(rows(r, "SELECT name, category, depth FROM v_slice ORDER BY start_ns, depth"),
                 QStringList({"Step 7|step|0", "forward|nvtx|1", "Step 8|step|0", "Step 9|step|0"}));
    }

    void unnumberedStepsByTimeAndTheBestRuleWins() {
        QTemporaryDir dir;
        std::string sql = kBase;
        for (int i = 0; i < 3; ++i) {
            sql += range("train_step", 1000 + i * 1000, 1900 + i * 1000);
            // ProfilerStep#N inside train_step: the first rule wins, the loop is not counted twice.
            if (i > 0)
                sql += range("ProfilerStep#" + std::to_string(40 + i), 1010 + i * 1000, 1800 + i * 1000);
        }
        const auto both = importNsys(makeExport(dir, "both.sqlite", sql));
        QCOMPARE(rows(both, "SELECT step FROM v_step ORDER BY step"), QStringList({"41", "42"}));

        std::string only = kBase;
        for (int i = 2; i >= 0; --i)  // rows out of time order
            only += range("train_step", 1000 + i * 1000, 1900 + i * 1000);
        const auto r = importNsys(makeExport(dir, "train.sqlite", only));
        QCOMPARE(rows(r, "SELECT step, start_ns - 1700000000000000000 FROM v_step ORDER BY step"),
                 QStringList({"0|1000", "1|2000", "2|3000"}));
        QVERIFY(test::importLog(*r.store).contains("info|unnumbered_steps||"));
    }

    void stepRulesFromTheEnvironment() {
        QTemporaryDir dir;
        const QString rules = dir.filePath("rules.tsv");
        {
            std::ofstream f(rules.toStdString());
            f << "# mine\nregex\t^epoch [0-9]+ batch ([0-9]+)$\n";
        }
        qputenv("STEPSCOPE_STEP_RULES", rules.toUtf8());
        std::string sql = kBase;
        sql += range("epoch 1 batch 5", 1000, 1900) + range("Step 3", 2000, 2900);
        const auto r = importNsys(makeExport(dir, "env.sqlite", sql));
        qunsetenv("STEPSCOPE_STEP_RULES");
        QCOMPARE(rows(r, "SELECT step FROM v_step"), QStringList({"5"}));  // "Step 3" is no step under these rules
    }

    void marksOpenRangesAndDomains() {
        QTemporaryDir dir;
        std::string sql = kBase;
        sql += "INSERT INTO NVTX_EVENTS VALUES (0, NULL, 75, 'megatron', " + std::to_string(kTid) + ", NULL, 3);\n";
        sql += range("checkpoint", 100, 400, 59, 3) + range("loss spike", 250, std::nullopt, 34) +
               range("eval", 500, std::nullopt, 60);
        sql += "INSERT INTO StringIds VALUES (12, 'from the string table');\n"
               "INSERT INTO NVTX_EVENTS VALUES (600, 700, 59, NULL, " + std::to_string(kTid) + ", 12, 0);\n";
        const auto r = importNsys(makeExport(dir, "m.sqlite", sql));
        QCOMPARE(rows(r, "SELECT s.text, sl.dur_ns, sl.args FROM slice sl JOIN string s ON s.id = sl.name_id ORDER BY sl.start_ns"),
                 QStringList({"checkpoint|300|{\"domain\":\"megatron\"}", "loss spike|0|NULL", "eval|200|NULL",
                              "from the string table|100|NULL"}));  // eval: open, runs to the end of the trace
        QVERIFY(test::importLog(*r.store).contains("warning|unclosed_slice||"));
    }

    void olderExportWithoutTablesAndColumns() {
        QTemporaryDir dir;
        // No NVTX, no runtime, no session start; a kernel table of an old release (no demangledName,
        // no globalPid, no grid or block).
        const auto r = importNsys(makeExport(dir, "old.sqlite", R"(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
INSERT INTO StringIds VALUES (1, 'gemm');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
  correlationId INTEGER, shortName INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 300, 1, 7, 5, 1), (400, 450, 1, 7, 6, 1), (NULL, 10, 1, 7, 7, 1);
INSERT INTO StringIds VALUES (2, 'cudnnConvolutionForward');
CREATE TABLE CUDNN_EVENTS (start INTEGER, end INTEGER, eventClass INTEGER, globalTid INTEGER, nameId INTEGER);
INSERT INTO CUDNN_EVENTS VALUES (120, 130, 0, )" + std::to_string(kTid) + R"(, 2);
)"));
        QCOMPARE(int(r.result.status), int(SourceStatus::Partial));  // a kernel row skipped; no launches
        QCOMPARE(rows(r, "SELECT track_kind, device, track, name, start_ns, dur_ns FROM v_slice ORDER BY start_ns"),
                 QStringList({"gpu_stream|1|stream 7|gemm|100|200", "host_thread|NULL|thread 7|cudnnConvolutionForward|120|10",
                              "gpu_stream|1|stream 7|gemm|400|50"}));
        QCOMPARE(rows(r, "SELECT category FROM v_slice WHERE name = 'cudnnConvolutionForward'"), QStringList({"cudnn"}));
        const QString log = test::importLog(*r.store);
        QVERIFY2(log.contains("info|missing_table|CUPTI_ACTIVITY_KIND_MEMCPY|"), qPrintable(log));
        QVERIFY(log.contains("warning|unlinked_gpu_work|CUPTI_ACTIVITY_KIND_RUNTIME|"));
        QVERIFY(log.contains("info|missing_table|NVTX_EVENTS|"));
        // The missing column is data in the row (which column), checked as such.
        QVERIFY(log.contains("info|missing_table||") && log.contains("CUPTI_ACTIVITY_KIND_KERNEL.demangledName"));
        QVERIFY(log.contains("warning|relative_times|TARGET_INFO_SESSION_START_TIME|"));
        QVERIFY(log.contains("warning|bad_row||"));
    }

    void notAnExportIsSkippedWithAReason() {
        QTemporaryDir dir;
        makeExport(dir, "other.sqlite", "CREATE TABLE t (x); INSERT INTO t VALUES (1);");
        makeExport(dir, "strings.db", "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);");
        { SessionStore session(fs::path(dir.path().toStdString()) / "renamed-session.db"); }  // named as no session
        {
            std::ofstream rep(dir.filePath("run1.nsys-rep").toStdString(), std::ios::binary);
            rep << "\x7fQDSTRM-not-sqlite";  // the report's own container
        }
        const auto s = test::importPaths({fs::path(dir.path().toStdString())});
        QCOMPARE(s.summary.sources.size(), size_t(0));
        QStringList reasons;
        for (const ScannedFile &f : s.summary.skipped)
            reasons << QString::fromStdString(f.path.filename().string() + ": " + f.reason);
        reasons.sort();
        QCOMPARE(reasons, QStringList({"other.sqlite: an SQLite database that is not an Nsight Systems export (no StringIds "
                                       "table with CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS tables)",
                                       "renamed-session.db: a Stepscope session file, not a profile: open it on its own",
                                       "run1.nsys-rep: an Nsight Systems report: Stepscope reads its SQLite export; make it "
                                       "with `nsys export --type sqlite run1.nsys-rep` and open the .sqlite file",
                                       "strings.db: an SQLite database that is not an Nsight Systems export (no StringIds "
                                       "table with CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS tables)"}));
    }

    void whatTheCommandLineOpensAsASession() {
        QTemporaryDir dir;
        const fs::path plain = makeExport(dir, "plain.sqlite", "CREATE TABLE t (x);");
        const fs::path nsys = makeExport(dir, "n.sqlite", std::string(kBase) + range("Step 1", 0, 10));
        const fs::path session = fs::path(dir.path().toStdString()) / "s.db";
        { SessionStore store(session); }
        QVERIFY(cli::isSessionFile(session));  // by its application_id, whatever its name
        QVERIFY(!cli::isSessionFile(nsys));    // imported
        QVERIFY(!cli::isSessionFile(plain));   // refused with the importers' reason, not "not a session"
    }

    void damagedExport() {
        QTemporaryDir dir;
        std::string sql = kBase + std::string("BEGIN;\n");
        for (int i = 0; i < 4000; ++i)
            sql += range("a fairly long range name to fill the pages of the table " + std::to_string(i), i * 10, i * 10 + 5);
        sql += "COMMIT;\n";
        const fs::path file = makeExport(dir, "d.sqlite", sql);
        // Garbage over the last pages: the rows before them are kept, the source is partial.
        {
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(-40000, std::ios::end);
            const std::string junk(30000, '\xA5');
            f.write(junk.data(), std::streamsize(junk.size()));
        }
        const auto r = importNsys(file);
        QVERIFY2(r.result.status == SourceStatus::Partial || r.result.status == SourceStatus::Failed,
                 qPrintable(QString::fromStdString(r.result.message)));
        QVERIFY(QString::fromStdString(r.result.message).contains(QString::fromStdString(file.string())));
        // Garbage over the header page: nothing is read, it fails naming the file.
        {
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            f.seekp(0);
            f.write("not a database at all", 21);
        }
        const auto head = importNsys(file);
        QCOMPARE(int(head.result.status), int(SourceStatus::Failed));
        QVERIFY(QString::fromStdString(head.result.message).startsWith(QString::fromStdString(file.string()) + ":"));
    }

    void lockedExport() {
        QTemporaryDir dir;
        const fs::path file = makeExport(dir, "l.sqlite", std::string(kBase) + range("Step 1", 0, 10));
        ForeignDatabase writer = ForeignDatabase::open(file, ForeignDatabase::Mode::Create);
        sqliteExec(writer.db(), "BEGIN EXCLUSIVE; INSERT INTO StringIds VALUES (99, 'pending');");
        const auto r = importNsys(file);
        sqliteExec(writer.db(), "ROLLBACK");
        QCOMPARE(int(r.result.status), int(SourceStatus::Failed));
        QVERIFY2(QString::fromStdString(r.result.message).contains("locked"), qPrintable(QString::fromStdString(r.result.message)));
        QVERIFY(QString::fromStdString(r.result.message).startsWith(QString::fromStdString(file.string())));
    }

    void twoProcessesKeepTheirLaunchLinks() {
        QTemporaryDir dir;
        // Processes 100 and 200 both use correlation id 5; each launch must link to its own kernel.
        const int64_t p1 = int64_t(100) << 24, p2 = int64_t(200) << 24;
        const auto r = importNsys(makeExport(dir, "two.sqlite", std::string(kBase) + R"(
INSERT INTO StringIds VALUES (1, 'k1'), (2, 'k2'), (3, 'cudaLaunchKernel_v7000');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid INTEGER, correlationId INTEGER, nameId INTEGER);
)" + "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (100, 200, 0, 7, 5, " + std::to_string(p1) + ", 1, 1), (150, 300, 1, 7, 5, " +
                                                       std::to_string(p2) + ", 2, 2);\n" +
                                                       "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (10, 20, " + std::to_string(p1 + 1) +
                                                       ", 5, 3), (30, 40, " + std::to_string(p2 + 2) + ", 5, 3);\n"));
        QCOMPARE(rows(r, "SELECT h.tid, g.text FROM flow f JOIN slice hs ON hs.id = f.from_slice_id JOIN track h ON h.id = hs.track_id "
                         "JOIN slice gs ON gs.id = f.to_slice_id JOIN string g ON g.id = gs.name_id ORDER BY 1"),
                 QStringList({"1|k1", "2|k2"}));
        QVERIFY(test::importLog(*r.store).contains("warning|several_processes|CUPTI_ACTIVITY_KIND_KERNEL|"));
    }

    // Hostile times and names (issue #36): a kernel with start/end near 9.22e18 and text in a time
    // column were imported with 0 warnings; ends before starts were clamped silently; names whose
    // StringIds row is missing came out nameless; a capture start near the int64 limit overflowed.
    void hostileTimesAndNamesAreWarned() {
        QTemporaryDir dir;
        const auto r = importNsys(makeExport(dir, "hostile.sqlite", R"(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER);
INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (9223372036854775000);
INSERT INTO StringIds VALUES (1, 'good_kernel');
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, streamId INTEGER,
  correlationId INTEGER, globalPid INTEGER, demangledName INTEGER, shortName INTEGER);
INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
  (100, 200, 0, 7, 1, 0, 1, 1),
  (9223372036854775000, 9223372036854775800, 0, 7, 2, 0, 1, 1),
  ('150 µs', '170', 0, 7, 3, 0, 1, 1),
  (300, 250, 0, 7, 4, 0, 1, 1),
  (400, 450, 0, 7, 5, 0, 42, 42);
)"));
        QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
        // The good kernel, the one ending before it starts (duration 0), the one with a missing name.
        QCOMPARE(rows(r, "SELECT name, start_ns, dur_ns FROM v_slice ORDER BY start_ns"),
                 QStringList({"good_kernel|100|100", "good_kernel|300|0", "string id 42 (missing from StringIds)|400|50"}));
        const QString log = test::importLog(*r.store);
        QVERIFY2(log.contains("warning|time_base_out_of_range|TARGET_INFO_SESSION_START_TIME|"), qPrintable(log));
        QVERIFY2(log.contains("warning|bad_timestamp||"), qPrintable(log));
        QVERIFY2(log.contains("warning|end_before_begin||"), qPrintable(log));
        QVERIFY2(log.contains("warning|missing_string|StringIds|"), qPrintable(log));
        QCOMPARE(rows(r, "SELECT typeof(start_ns) FROM v_slice GROUP BY 1"), QStringList({"integer"}));
    }

    void cancel() {
        QTemporaryDir dir;
        std::string sql = kBase + std::string("BEGIN;\n");
        for (int i = 0; i < 20000; ++i)  // past the reader's poll interval
            sql += range("r", i * 10, i * 10 + 5);
        sql += "COMMIT;\n";
        const fs::path file = makeExport(dir, "c.sqlite", sql);
        const CancelToken cancelled;
        cancelled.cancel();
        NsysSqliteImporter importer;
        const auto r = test::importFile(importer, file, cancelled);
        QCOMPARE(int(r.result.status), int(SourceStatus::Failed));
        QCOMPARE(QString::fromStdString(r.result.message), QString::fromStdString(file.string() + ": import cancelled"));
    }

    void metricNames() {
        QCOMPARE(nsysMetricSeriesName("SMs Active [Throughput %]"), std::make_pair(std::string("gpu_util"), std::string("%")));
        QCOMPARE(nsysMetricSeriesName("SM Active"), std::make_pair(std::string("gpu_util"), std::string("%")));
        QCOMPARE(nsysMetricSeriesName("DRAM Read Bandwidth [Throughput %]"),
                 std::make_pair(std::string("dram_read_bandwidth"), std::string("%")));
        QCOMPARE(nsysMetricSeriesName("NVLink RX Responses User Data [Throughput %]"),
                 std::make_pair(std::string("nvlink_rx_responses_user_data"), std::string("%")));
        QCOMPARE(nsysMetricSeriesName("GPC Clock Frequency [MHz]"), std::make_pair(std::string("gpc_clock_frequency"), std::string("MHz")));
    }

    // A metric's name does not change with the locale (issue #36: std::tolower under tr_TR turned
    // "PCIe" into "pcIe"). A Turkish single-byte locale shows it where one is installed; the ASCII
    // lower-casing itself is checked everywhere.
    void metricNamesIgnoreTheLocale() {
        QCOMPARE(asciiLower(std::string_view("PCIe RX Throughput ÄÖ")), std::string("pcie rx throughput ÄÖ"));
        for (char c = 'A'; c <= 'Z'; ++c) QCOMPARE(asciiLower(c), char(c + 32));
        QCOMPARE(asciiLower('\xDD'), '\xDD');  // 'İ' in ISO-8859-9: not ASCII, left alone
        const char *turkish = nullptr;
        for (const char *name : {"tr_TR.ISO-8859-9", "tr_TR.iso88599", "tr_TR", "tr_TR.UTF-8"})
            if (std::setlocale(LC_CTYPE, name)) { turkish = name; break; }
        const auto name = nsysMetricSeriesName("PCIe Read Requests to BAR1 [Throughput %]");
        std::setlocale(LC_CTYPE, "C");
        QCOMPARE(name.first, std::string("pcie_read_requests_to_bar1"));
        if (!turkish) qInfo("no Turkish locale installed here: the name was checked in the process's own locale");
    }
};

QTEST_GUILESS_MAIN(TstNsysImport)
#include "tst_nsys_import.moc"
