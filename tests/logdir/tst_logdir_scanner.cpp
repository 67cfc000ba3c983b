// Logdir discovery: files are found by content, not by name; unknown files are listed as skipped
// in import_log; hidden folders and our own session files are ignored.

#include "importers/logdir/session_importer.h"
#include "models/concurrency/cancel_token.h"
#include "models/store/session_reader.h"
#include "tests/test_support.h"

#include <QtTest>
#include <zlib.h>

#include <fstream>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {
const char *kTrace = R"({"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"aten::mm","cat":"cpu_op","pid":1,"tid":1,"ts":10,"dur":20}]})";
const char *kSmi = "timestamp, index, utilization.gpu [%]\n2026/01/15 10:00:00.000, 0, 50 %\n";

void write(const fs::path &p, const std::string &text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}
void writeGz(const fs::path &p, const std::string &text) {
    fs::create_directories(p.parent_path());
    gzFile f = gzopen(p.c_str(), "wb");
    gzwrite(f, text.data(), unsigned(text.size()));
    gzclose(f);
}
} // namespace

class TestLogdirScanner : public QObject {
    Q_OBJECT
    QTemporaryDir m_tmp;
    fs::path m_root;

private slots:
    void initTestCase() {
        m_root = fs::path(m_tmp.path().toStdString()) / "logdir";
        writeGz(m_root / "plugins/profile/2026_01_15_10_00_00/host1.pt.trace.json.gz", kTrace);
        write(m_root / "metrics/gpu.log", kSmi);                       // nvidia-smi CSV, odd name
        write(m_root / "misnamed.csv", kTrace);                        // a trace despite its name
        writeGz(m_root / "compressed_without_json_name.gz", kTrace);  // gzip by content
        write(m_root / "notes.txt", "these are my notes about the run\n");
        write(m_root / "empty.json", "");
        write(m_root / ".hidden/secret.json", kTrace);
        write(m_root / "old.stepscope", "SQLite format 3");
    }

    void findsReadableFilesByContent() {
        ImporterRegistry registry;
        const auto files = LogdirScanner(registry).scan({m_root});
        std::map<std::string, std::string> found;  // relative path -> format or "skip: reason"
        for (const ScannedFile &f : files)
            found[fs::relative(f.path, m_root).string()] = f.importer ? f.importer->format() : "skip: " + f.reason;
        QCOMPARE(found.size(), size_t(6));  // hidden folder and .stepscope ignored
        QCOMPARE(QString::fromStdString(found["plugins/profile/2026_01_15_10_00_00/host1.pt.trace.json.gz"]), QStringLiteral("chrome_json"));
        QCOMPARE(QString::fromStdString(found["misnamed.csv"]), QStringLiteral("chrome_json"));
        QCOMPARE(QString::fromStdString(found["compressed_without_json_name.gz"]), QStringLiteral("chrome_json"));
        QCOMPARE(QString::fromStdString(found["metrics/gpu.log"]), QStringLiteral("nvidia_smi_csv"));
        QVERIFY(found["notes.txt"].rfind("skip: ", 0) == 0);
        QVERIFY(found["empty.json"].find("empty") != std::string::npos);
    }

    void skippedFilesAreListedInImportLog() {
        SessionStore store(fs::path(m_tmp.path().toStdString()) / "s.stepscope");
        ImporterRegistry registry;
        const ImportSummary summary = SessionImporter(store, registry).run({m_root});
        QCOMPARE(summary.sources.size(), size_t(4));
        QCOMPARE(summary.skipped.size(), size_t(2));
        SqliteStatement st(store.db(), "SELECT file, code FROM import_log WHERE code = 'file_skipped' ORDER BY file");
        QVERIFY(st.step());
        QVERIFY(st.columnText(0).find("empty.json") != std::string::npos);
        QVERIFY(st.step());
        QVERIFY(st.columnText(0).find("notes.txt") != std::string::npos);
        QVERIFY(!st.step());
        SessionReader reader(store);
        QVERIFY(reader.sliceCount() >= 6);  // three copies of the two-event trace
    }

    void cancelledImportLeavesSessionAsItWas() {
        SessionStore store(fs::path(m_tmp.path().toStdString()) / "c.stepscope");
        ImporterRegistry registry;
        const CancelToken cancel;
        int calls = 0;
        const ImportSummary summary = SessionImporter(store, registry).run({m_root}, cancel, [&](int64_t, int64_t, const std::string &) {
            if (++calls == 1) cancel.cancel();  // cancel as soon as the first file reports progress
        });
        QVERIFY(summary.cancelled);
        SqliteStatement st(store.db(), "SELECT (SELECT count(*) FROM source) + (SELECT count(*) FROM slice) + (SELECT count(*) FROM import_log)");
        QVERIFY(st.step());
        QCOMPARE(st.columnInt(0), int64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestLogdirScanner)
#include "tst_logdir_scanner.moc"
