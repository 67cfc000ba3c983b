// The command line under abuse (issue: session files and the command line under abuse): outputs that
// are inputs, arguments that overflow or trail junk, failed writes, a missing TMPDIR, interrupted
// runs, damaged sessions and hostile file names. Each case must end in a clear message and the
// documented exit code — never a signal, a wrong answer or a lost file. QApplication-based (export
// renders), hence tst_gui_.

#include "app/cli/command_line.h"
#include "app/cli/temp_session.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/store/session_store.h"
#include "tests/cli/cli_test_support.h"
#include "tests/child_process.h"
#include "tests/test_support.h"

#include <QtTest>

#include <csignal>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {
using Result = test::CliResult;
using test::runCli;
std::string readFile(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}
void writeFile(const fs::path &p, const std::string &text) { std::ofstream(p, std::ios::binary) << text; }
bool contains(const std::string &s, const std::string &what) { return s.find(what) != std::string::npos; }

// A stream buffer that refuses every byte, as /dev/full or a closed pipe does.
struct FailingBuffer : std::streambuf {
    int overflow(int) override { return traits_type::eof(); }
    std::streamsize xsputn(const char *, std::streamsize) override { return 0; }
};
} // namespace

class TestCommandLineAbuse : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_trace, m_session;
    fs::path at(const std::string &name) const { return fs::path(m_dir.path().toStdString()) / name; }

private slots:
    void initTestCase() {
        test::isolateSettings();
        synth::SyntheticProfileOptions o;
        o.steps = 8;
        o.bottleneck = synth::Bottleneck::Input;
        fs::create_directories(at("logdir"));
        m_trace = at("logdir/run.pt.trace.json.gz");
        synth::SyntheticProfileGenerator(o).generate(m_trace, at("logdir/nvidia-smi.csv"));
        m_session = at("s.stepscope");
        const Result r = runCli({"import", at("logdir").string(), "-o", m_session.string()});
        QVERIFY2(r.code == 0, r.err.c_str());
    }

    void outputThatIsAnInputIsRefused() {
        const std::string before = readFile(m_session);
        fs::create_hard_link(m_session, at("hard.stepscope"));
        fs::create_symlink(m_session, at("link.stepscope"));
        for (const fs::path &out : {m_session, at("hard.stepscope"), at("link.stepscope")}) {
            const Result r = runCli({"report", m_session.string(), "-o", out.string()});
            QCOMPARE(r.code, int(cli::Usage));
            QVERIFY2(contains(r.err, "is one of the inputs"), r.err.c_str());
        }
        QVERIFY(readFile(m_session) == before);
        // A file that a folder import read is an input too.
        const std::string trace = readFile(m_trace);
        Result r = runCli({"report", at("logdir").string(), "-o", m_trace.string()});
        QCOMPARE(r.code, int(cli::Usage));
        QVERIFY(readFile(m_trace) == trace);
        r = runCli({"export", m_session.string(), "--view", "steps", "-o", at("link.stepscope").string()});
        QCOMPARE(r.code, int(cli::Usage));
        r = runCli({"import", m_trace.string(), "-o", m_trace.string()});
        QCOMPARE(r.code, int(cli::Usage));
        QVERIFY(readFile(m_trace) == trace);
        QVERIFY(readFile(m_session) == before);
    }

    void badArgumentsAreUsageErrorsNamingTheArgument() {
        const std::string s = m_session.string();
        const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
            {{"report", s, "-o", ""}, "-o"},
            {{"report", s, "--batch-size", "1e30"}, "--batch-size"},
            {{"report", s, "--batch-size", "3.7"}, "--batch-size"},
            {{"report", s, "--batch-size", "12abc"}, "--batch-size"},
            {{"report", s, "--batch-size", "99999999999999999999"}, "--batch-size"},
            {{"report", s, "--steps", "900-999"}, "no steps 900-999 in the session (it has steps 1-8)"},
            {{"export", s, "--view", "steps", "--steps", "900-999", "-o", at("x.png").string()}, "(it has steps 1-8)"},
            {{"import", "-o", s, "--offset", "run=+8900000000s"}, "--offset"},
            {{"export", s, "--view", "steps", "--size", "1600x1000junk", "-o", at("x.png").string()}, "--size"},
            {{"export", s, "--view", "steps", "--scale", "3", "-o", at("x.png").string()}, "--scale"},
            {{"export", s, "--view", "steps", "--scale", "abc", "-o", at("x.png").string()}, "--scale"},
            {{"export", s, "--view", "steps", "--scale", "-1", "-o", at("x.png").string()}, "--scale"},
            {{"export", s, "--view", "steps", "--size", "16384x16384", "--scale", "2", "-o", at("x.png").string()}, "limit"},
            {{"export", s, "--view", "timeline", "--range", "9000000000s:9000000001s", "-o", at("x.png").string()}, "--range"},
            {{"export", s, "--view", "timeline", "--range", "0:99999999999999999999", "-o", at("x.png").string()}, "--range"},
            {{"compre", "a", "b"}, "neither a command"},
        };
        for (const auto &[args, expected] : cases) {
            const Result r = runCli(args);
            QVERIFY2(r.code == cli::Usage, (args[0] + " " + args.back() + ": exit " + std::to_string(r.code)).c_str());
            QVERIFY2(contains(r.err, expected), (expected + " not in: " + r.err).c_str());
        }
        QVERIFY(!fs::exists(at("x.png")));
    }

    void listViewsNamesEveryView() {
        const Result r = runCli({"export", "--list-views"});
        QCOMPARE(r.code, 0);
        QCOMPARE(QString::fromStdString(r.out).split('\n', Qt::SkipEmptyParts),
                 QStringList({"timeline", "steps", "findings", "utilization", "ops", "log", "job", "session", "window"}));  // the window's order (view_registry.cpp)
    }

    void doubleDashEndsOptions() {
        const Result r = runCli({"query", m_session.string(), "--", "-- a comment first\nSELECT count(*) AS n FROM v_step"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.rfind("n\n", 0) == 0, r.out.c_str());
    }

    void queryJsonStreamsValidJson() {
        const Result r = runCli({"query", m_session.string(), "SELECT step, dur_ns FROM v_step ORDER BY step", "--format", "json"});
        QCOMPARE(r.code, 0);
        QJsonParseError error;
        const QJsonArray rows = QJsonDocument::fromJson(QByteArray::fromStdString(r.out), &error).array();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(rows.size(), 8);
        QVERIFY(rows[0].toObject()["dur_ns"].toInteger() > 0);
        const Result none = runCli({"query", m_session.string(), "SELECT 1 WHERE 0", "--format", "json"});
        QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(none.out)).array().size(), 0);
    }

    void failedWritesAreErrors() {
        Result r = runCli({"report", m_session.string(), "-o", "/dev/full"});
        QCOMPARE(r.code, int(cli::Unreadable));
        QVERIFY2(contains(r.err, "/dev/full") && contains(r.err, "No space left"), r.err.c_str());
        FailingBuffer failing;
        std::ostream out(&failing);
        std::ostringstream err;
        const int code = cli::run({"report", m_session.string()}, {out, err, false});
        QCOMPARE(code, int(cli::Unreadable));
        QVERIFY2(contains(err.str(), "cannot write the output"), err.str().c_str());
    }

    void missingTemporaryFolderIsAClearError() {
        const QByteArray old = qgetenv("TMPDIR");
        qputenv("TMPDIR", QByteArray::fromStdString(at("no-such-folder").string()));
        const Result r = runCli({"report", m_trace.string()});
        qputenv("TMPDIR", old);
        if (old.isEmpty()) qunsetenv("TMPDIR");
        QCOMPARE(r.code, int(cli::Unreadable));
        QVERIFY2(contains(r.err, "TMPDIR"), r.err.c_str());
    }

    void unusableOutputFoldersAreErrors() {
        fs::create_symlink(at("loop-b"), at("loop-a"));
        fs::create_symlink(at("loop-a"), at("loop-b"));
        Result r = runCli({"report", m_session.string(), "--format", "markdown", "--screenshots", at("loop-a/shots").string()});
        QCOMPARE(r.code, int(cli::Unreadable));
        QVERIFY2(contains(r.err, "loop-a"), r.err.c_str());
        r = runCli({"export", m_session.string(), "--view", "steps", "-o", at("loop-a/x.png").string()});
        QCOMPARE(r.code, int(cli::Unreadable));
        QVERIFY2(contains(r.err, "loop-a"), r.err.c_str());
    }

    void damagedSessionIsAClearErrorOnEveryPath() {
        const fs::path damaged = at("damaged.stepscope");
        fs::copy_file(m_session, damaged);
        {
            // Garbage over every page after the first: the header still says SQLite.
            std::fstream f(damaged, std::ios::in | std::ios::out | std::ios::binary);
            const auto size = int64_t(fs::file_size(damaged));
            for (int64_t off = 4096; off < size; off += 4096) {
                f.seekp(off + 100);
                const std::string junk(512, '\x5a');
                f.write(junk.data(), std::streamsize(junk.size()));
            }
        }
        for (const std::vector<std::string> &args :
             {std::vector<std::string>{"report", damaged.string()},
              std::vector<std::string>{"report", damaged.string(), "--format", "json"},
              std::vector<std::string>{"export", damaged.string(), "--view", "timeline", "-o", at("d.png").string()},
              std::vector<std::string>{"export", damaged.string(), "--view", "utilization", "-o", at("d.png").string()},
              std::vector<std::string>{"query", damaged.string(), "SELECT count(*) FROM v_slice"}}) {
            const Result r = runCli(args);
            QVERIFY2(r.code == cli::Unreadable, (args[0] + ": exit " + std::to_string(r.code) + " " + r.err).c_str());
            QVERIFY2(contains(r.err, "damaged.stepscope") || contains(r.err, "malformed"), r.err.c_str());
        }
    }

    void hostileFileNamesAreEscapedInMessages() {
        const fs::path odd = at("bad\x1b[31mname\x07.csv");
        fs::copy_file(at("logdir/nvidia-smi.csv"), odd);
        const Result r = runCli({"import", odd.string(), "-o", at("odd.stepscope").string()});
        QCOMPARE(r.code, 0);
        QVERIFY2(!contains(r.out + r.err, "\x1b") && !contains(r.out + r.err, "\x07"), r.out.c_str());
        QVERIFY2(contains(r.out, "bad\\x1b[31mname\\x07.csv"), r.out.c_str());
    }

    void sessionsTheUserCannotWriteStillOpen() {
        // Someone else's session (root's, 0644) in a folder the user cannot write: report and query
        // work read-only, and nothing tries to write it.
        const fs::path dir = at("readonly-folder");
        fs::create_directories(dir);
        fs::copy_file(m_session, dir / "theirs.stepscope");
        fs::permissions(dir, fs::perms(0755));
        fs::permissions(dir / "theirs.stepscope", fs::perms(0644));
        fs::permissions(m_dir.path().toStdString(), fs::perms(0755));
        const std::string before = readFile(dir / "theirs.stepscope");
        const auto child = test::runInChild([&](int &) {
            std::string out;
            const std::string s = (dir / "theirs.stepscope").string();
            out += std::to_string(runCli({"report", s}).code);
            out += std::to_string(runCli({"query", s, "SELECT count(*) FROM v_step"}).code);
            // (export paints, and Qt's raster threads do not survive fork(): checked by hand as
            // an unprivileged user — see the hostile-input table in docs/hostile-input.md.)
            return out;
        }, true);
        if (!child) QSKIP("cannot drop privileges here");
        QCOMPARE(child->out, std::string("00"));
        QVERIFY(readFile(dir / "theirs.stepscope") == before);
    }

    void namedLinksSayWhatIsWrong() {
        fs::create_symlink(at("nowhere.json"), at("dangling.json"));
        Result r = runCli({"report", at("dangling.json").string()});
        QCOMPARE(r.code, int(cli::Unreadable));
        QVERIFY2(contains(r.err, "dangling"), r.err.c_str());
        // The same trace named twice, once through a link: read once, and the summary says so.
        fs::create_symlink(m_trace, at("again.pt.trace.json.gz"));
        r = runCli({"import", m_trace.string(), at("again.pt.trace.json.gz").string(), "-o", at("once.stepscope").string()});
        QVERIFY2(r.code == 0 || r.code == cli::Partial, r.err.c_str());
        QVERIFY2(contains(r.out, "1 path(s) lead to a file or folder already imported"), r.out.c_str());
        QVERIFY2(contains(r.out, "from 1 source(s)"), r.out.c_str());
    }

    void interruptedRunRemovesItsScratchSession() {
        // The child makes its scratch session in a folder of its own, then is ended by SIGTERM.
        const fs::path tmpdir = at("tmp-interrupted");
        fs::create_directories(tmpdir);
        const auto child = test::runInChild([&](int &) {
            ::setenv("TMPDIR", tmpdir.c_str(), 1);
            std::string error;
            const fs::path file = cli::TempSession::create(error);
            writeFile(file, "scratch");
            writeFile(file.string() + "-wal", "wal");
            ::raise(SIGTERM);
            return std::string("not interrupted");
        });
        QVERIFY(child);
        QVERIFY(WIFSIGNALED(child->status) && WTERMSIG(child->status) == SIGTERM);
        QVERIFY2(fs::is_empty(tmpdir), "the scratch session outlived its process");
        int status = 0;
        // A run killed outright (SIGKILL) is cleaned up by the next one.
        const fs::path &tmp = tmpdir;
        const pid_t dead = ::fork();
        if (dead == 0) ::_exit(0);
        ::waitpid(dead, &status, 0);
        const fs::path stale = tmp / ("stepscope-" + std::to_string(dead) + "-1.stepscope");
        writeFile(stale, "left by a killed run");
        writeFile(stale.string() + "-wal", "wal");
        QCOMPARE(cli::TempSession::removeStale(tmp), 2);
        QVERIFY(!fs::exists(stale));
    }

    void fullDiskLeavesNoHalfSession() {
        // RLIMIT_FSIZE makes writes past 256 KiB fail (EFBIG) the way a full disk does.
        const fs::path out = at("full.stepscope");
        const auto child = test::runInChild([&](int &exitCode) {
            ::signal(SIGXFSZ, SIG_IGN);
            rlimit limit{256 * 1024, 256 * 1024};
            ::setrlimit(RLIMIT_FSIZE, &limit);
            std::ostringstream o, e;
            exitCode = cli::run({"import", m_trace.string(), "-o", out.string()}, {o, e, false});
            return e.str();
        });
        QVERIFY(child && WIFEXITED(child->status));
        const std::string &err = child->out;
        QVERIFY2(WEXITSTATUS(child->status) == cli::Unreadable || WEXITSTATUS(child->status) == cli::Usage, err.c_str());
        QVERIFY2(contains(err, "full.stepscope"), err.c_str());
        for (const char *suffix : {"", "-wal", "-shm", "-journal"})
            QVERIFY2(!fs::exists(out.string() + suffix), (out.string() + suffix).c_str());
    }
};

QTEST_MAIN(TestCommandLineAbuse)
#include "tst_gui_command_line_abuse.moc"
