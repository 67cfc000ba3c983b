// The command-line contract of DESIGN.md: exit codes, read-only query, import summary, report shape.

#include "app/cli/command_line.h"
#include "models/store/session_store.h"
#include "tests/cli/cli_test_support.h"
#include "tests/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace stepscope;

namespace {
using Result = test::CliResult;
using test::runCli;
void writeFile(const std::string &path, const std::string &text) {
    std::ofstream(path, std::ios::binary) << text;
}
// A tiny nvidia-smi log: a real format every build reads, with one N/A sample.
const char *kSmiCsv =
    "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
    "2026/01/15 10:00:00.000, 0, NVIDIA H100, 87 %, 1000 MiB\n"
    "2026/01/15 10:00:00.100, 0, NVIDIA H100, N/A, 1001 MiB\n"
    "2026/01/15 10:00:00.200, 0, NVIDIA H100, 91 %, 1002 MiB\n";
} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const std::string &name) { return m_dir.path().toStdString() + "/" + name; }

    std::string makeSession() {
        const std::string session = path("s.stepscope");
        if (!std::filesystem::exists(session)) {
            writeFile(path("smi.csv"), kSmiCsv);
            const Result r = runCli({"import", path("smi.csv"), "-o", session});
            if (r.code != 0) qWarning("import failed: %s", r.err.c_str());
        }
        return session;
    }

private slots:
    void versionAndHelp() {
        Result r = runCli({"--version"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.rfind("stepscope ", 0) == 0);
        r = runCli({"--help"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("stepscope query S.stepscope") != std::string::npos);
    }

    // `stepscope CMD --help` prints that command's usage and exits 0 (issue #36: it was a usage error).
    void eachCommandHasItsHelp() {
        const std::vector<std::string> commands = {"import", "report", "export", "query", "compare"};
        for (const std::string &cmd : commands)
            for (const char *flag : {"--help", "-h"}) {
                const Result r = runCli({cmd, "x.json", flag});
                QVERIFY2(r.code == 0, (cmd + ": " + r.err).c_str());
                QVERIFY2(r.out.rfind("Usage:\n  stepscope " + cmd + " ", 0) == 0, r.out.c_str());
                for (const std::string &other : commands)
                    if (other != cmd) QVERIFY2(r.out.find("  stepscope " + other + " ") == std::string::npos, r.out.c_str());
                QVERIFY2(r.out.find("Exit codes:") != std::string::npos, r.out.c_str());
            }
        // After "--" it is a path, not a request for help.
        QCOMPARE(runCli({"query", "--", "--help", "SELECT 1"}).code, 2);
    }

    void usageErrorsExitOne() {
        QCOMPARE(runCli({}).code, 1);
        QCOMPARE(runCli({"frobnicate"}).code, 1);
        QCOMPARE(runCli({"import", "x"}).code, 1);                       // no -o
        QCOMPARE(runCli({"report", "x", "--format", "yaml"}).code, 1);
        QCOMPARE(runCli({"report", "x", "--steps", "9-3"}).code, 1);
        QCOMPARE(runCli({"report", "x", "--bogus"}).code, 1);
        QCOMPARE(runCli({"query", "only-one-arg"}).code, 1);
    }

    void unreadableInputExitsTwoNamingTheFile() {
        Result r = runCli({"report", path("does-not-exist")});
        QCOMPARE(r.code, 2);
        QVERIFY(r.err.find("does-not-exist") != std::string::npos);
        writeFile(path("garbage.bin"), std::string("\x00\x01\x02garbage", 10));
        r = runCli({"import", path("garbage.bin"), "-o", path("g.stepscope")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("garbage.bin") != std::string::npos, r.err.c_str());
        writeFile(path("empty.json"), "");
        r = runCli({"report", path("empty.json")});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("empty") != std::string::npos, r.err.c_str());
    }

    void importPrintsSummaryAndQueryReadsIt() {
        const std::string session = makeSession();
        Result r = runCli({"query", session, "SELECT series, device, value FROM v_metric WHERE series = 'gpu_util' ORDER BY t_ns"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, std::string("series,device,value\ngpu_util,0,87.0\ngpu_util,0,91.0\n"));
        r = runCli({"query", session, "SELECT count(*) AS n FROM v_metric WHERE series = 'gpu_util'", "--format", "json"});
        QCOMPARE(r.code, 0);
        const QJsonArray rows = QJsonDocument::fromJson(QByteArray::fromStdString(r.out)).array();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows[0].toObject()["n"].toInt(), 2);
    }

    void queryRefusesWritesAndLeavesSessionUnchanged() {
        const std::string session = makeSession();
        for (const char *sql : {"DELETE FROM metric_sample", "DROP TABLE source", "INSERT INTO annotation(start_ns,end_ns,text) VALUES (1,2,'x')",
                                "UPDATE source SET path = 'x'", "PRAGMA user_version = 5", "ATTACH DATABASE 'other.db' AS o",
                                "SELECT 1; DELETE FROM metric_sample"}) {
            const Result r = runCli({"query", session, sql});
            QVERIFY2(r.code == 1, sql);
            QVERIFY2(!r.err.empty(), sql);
        }
        const Result r = runCli({"query", session, "SELECT count(*) FROM metric_sample"});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.out, std::string("count(*)\n5\n"));  // 2 gpu_util (one N/A) + 3 memory.used
        const Result v = runCli({"query", session, "PRAGMA user_version"});
        QCOMPARE(v.out, "user_version\n" + std::to_string(SessionStore::latestSchemaVersion()) + "\n");
    }

    void queryOnNonSessionExitsTwo() {
        writeFile(path("plain.txt"), "hello");
        QCOMPARE(runCli({"query", path("plain.txt"), "SELECT 1"}).code, 2);
    }

    void reportJsonHasTheContractShape() {
        const std::string session = makeSession();
        const Result r = runCli({"report", session, "--format", "json"});
        QCOMPARE(r.code, 0);
        const QJsonObject root = QJsonDocument::fromJson(QByteArray::fromStdString(r.out)).object();
        QCOMPARE(root["stepscope_report"].toInt(), 1);
        const QJsonArray sources = root["sources"].toArray();
        QCOMPARE(sources.size(), 1);
        QCOMPARE(sources[0].toObject()["format"].toString(), QStringLiteral("nvidia_smi_csv"));
        QVERIFY(sources[0].toObject()["events"].toInt() >= 5);
        QVERIFY(root["runs"].isArray());
    }

    void reportWritesToFileWithDashO() {
        const std::string session = makeSession();
        const Result r = runCli({"report", session, "--format", "markdown", "-o", path("r.md")});
        QCOMPARE(r.code, 0);
        std::ifstream in(path("r.md"));
        std::string first;
        std::getline(in, first);
        QCOMPARE(first, std::string("# Stepscope report"));
    }

    void partialImportExitsThree() {
        // One readable file and one the user named that cannot be read: what was read is kept,
        // the problem is named, and the exit code says "partial".
        writeFile(path("smi2.csv"), kSmiCsv);
        writeFile(path("broken.bin"), std::string("\x7f\x45garbage-bytes", 15));
        const Result r = runCli({"import", path("smi2.csv"), path("broken.bin"), "-o", path("p.stepscope")});
        QCOMPARE(r.code, 3);
        QVERIFY2(r.err.find("broken.bin") != std::string::npos, r.err.c_str());
        const Result q = runCli({"query", path("p.stepscope"), "SELECT count(*) FROM source"});
        QCOMPARE(q.out, std::string("count(*)\n1\n"));
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_command_line.moc"
