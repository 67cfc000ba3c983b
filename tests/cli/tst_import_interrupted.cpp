// `stepscope import -o NEW.stepscope` ended by a signal part-way (SIGTERM, SIGINT, SIGHUP): the new
// session is removed whole, with its -wal and -shm (was: a 4 KB session and a 109 MB -wal that
// `report` then called "not an Nsight Systems export"). An existing session interrupted the same way
// keeps what it held before.

#include "app/cli/command_line.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/store/session_store.h"
#include "tests/test_support.h"

#include <QtTest>

#include <csignal>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace stepscope;
namespace fs = std::filesystem;

class TstImportInterrupted : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path m_trace;

    fs::path at(const std::string &name) const { return fs::path(m_dir.path().toStdString()) / name; }

    static int64_t fileSize(const fs::path &p) {
        std::error_code ec;
        const auto n = fs::file_size(p, ec);
        return ec ? -1 : int64_t(n);
    }

    // Runs the import in a child process and sends `sig` once the session's -wal has grown past
    // 1 MB (the import is writing slices). Returns the child's wait status; -1 if it finished first.
    int importAndSignal(const fs::path &out, int sig) {
        const pid_t pid = ::fork();
        if (pid == 0) {
            for (int s : {SIGTERM, SIGINT, SIGHUP}) ::signal(s, SIG_DFL);  // as in a user's shell (not nohup's)
            std::ostringstream o, e;
            const int code = cli::run({"import", m_trace.string(), "-o", out.string(), "--no-analysis"}, {o, e, false});
            ::_exit(code);
        }
        const fs::path wal = out.string() + "-wal";
        QElapsedTimer t;
        t.start();
        int status = 0;
        while (t.elapsed() < 60000) {
            if (::waitpid(pid, &status, WNOHANG) == pid) return -1;  // finished before the signal
            if (fileSize(wal) > (1 << 20)) break;
            ::usleep(2000);
        }
        ::kill(pid, sig);
        ::waitpid(pid, &status, 0);
        return status;
    }

private slots:
    void initTestCase() {
        synth::SyntheticProfileOptions o;
        o.targetEvents = 600000;  // about a second of import: long enough to be interrupted
        m_trace = at("big.pt.trace.json.gz");
        synth::writeTrace(o, m_trace);
    }

    void newSessionIsRemovedWhole_data() {
        QTest::addColumn<int>("sig");
        QTest::newRow("SIGTERM") << int(SIGTERM);
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGHUP") << int(SIGHUP);
    }
    void newSessionIsRemovedWhole() {
        QFETCH(int, sig);
        const fs::path out = at("new-" + std::to_string(sig) + ".stepscope");
        const int status = importAndSignal(out, sig);
        if (status == -1) QSKIP("the import finished before the signal could be sent");
        QVERIFY2(WIFSIGNALED(status) && WTERMSIG(status) == sig, qPrintable(QString::number(status)));
        for (const char *suffix : {"", "-wal", "-shm", "-journal"})
            QVERIFY2(!fs::exists(out.string() + suffix), (out.string() + suffix).c_str());
    }

    void existingSessionKeepsItsData() {
        const fs::path out = at("existing.stepscope");
        {
            std::ostringstream o, e;
            synth::SyntheticProfileOptions small;
            small.targetEvents = 2000;
            const fs::path first = at("first.pt.trace.json.gz");
            synth::writeTrace(small, first);
            QCOMPARE(cli::run({"import", first.string(), "-o", out.string(), "--no-analysis"}, {o, e, false}), 0);
        }
        const int status = importAndSignal(out, SIGTERM);
        if (status == -1) QSKIP("the import finished before the signal could be sent");
        QVERIFY(WIFSIGNALED(status));
        QVERIFY(fs::exists(out));
        SessionStore store(out.string(), SessionStore::Mode::ReadOnly);
        SqliteStatement sources(store.db(), "SELECT count(*) FROM source");
        QVERIFY(sources.step());
        QCOMPARE(sources.columnInt(0), int64_t(1));  // the first import, whole; the interrupted one rolled back
        SqliteStatement slices(store.db(), "SELECT count(*) FROM slice");
        QVERIFY(slices.step());
        QVERIFY(slices.columnInt(0) > 500);
    }
};

QTEST_GUILESS_MAIN(TstImportInterrupted)
#include "tst_import_interrupted.moc"
