// A first picture (ImportOptions::previewEvents): each Chrome trace is read only up to the limit, as
// if it ended there, with nothing reported as wrong; a large file of a format that cannot stop early
// is left for the import proper; no input fingerprint is stored, so the import proper reads all.

#include "importers/logdir/session_importer.h"
#include "tests/importers/import_test_support.h"

#include <QtTest>

#include <cstdio>
#include <fstream>

using namespace stepscope;

namespace {
// A Chrome trace of `n` complete events on one thread, 10 us each, one after another.
void writeTrace(const std::filesystem::path &file, int n) {
    std::ofstream out(file);
    out << "{\"traceEvents\":[";
    for (int i = 0; i < n; ++i)
        out << (i ? "," : "") << "{\"ph\":\"X\",\"name\":\"op" << i % 7 << "\",\"pid\":1,\"tid\":1,\"ts\":" << i * 10
            << ",\"dur\":10}";
    out << "]}";
}

ImportSummary runImport(SessionStore &store, const std::filesystem::path &input, int64_t previewEvents) {
    ImporterRegistry registry;
    ImportOptions options;
    options.previewEvents = previewEvents;
    return SessionImporter(store, registry).run({input}, {}, {}, options);
}
} // namespace

class TestSessionImportPreview : public QObject {
    Q_OBJECT

private slots:
    void readsTheFirstEventsOfATrace() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        writeTrace(root / "t.json", 5000);
        SessionStore store(root / "s.stepscope");
        const ImportSummary sum = runImport(store, root / "t.json", 1200);
        QCOMPARE(int(sum.sources.size()), 1);
        QCOMPARE(sum.sources[0].status, SourceStatus::Ok);  // a prefix, not a damaged file
        QCOMPARE(sum.sources[0].events, 1200);
        // The first 1200 events in file order, nothing after them.
        QCOMPARE(test::queryRows(store, "SELECT count(*), min(start_ns), max(start_ns) FROM slice"),
                 QStringList{"1200|0|11990000"});
        QCOMPARE(test::queryRows(store, "SELECT count(*) FROM import_log WHERE severity <> 'info'"), QStringList{"0"});
        // The import proper must read the file again: no fingerprint says it is in.
        QVERIFY(store.setting(kInputFingerprintSetting).empty());
    }

    void aLimitAboveTheTraceReadsItAll() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        writeTrace(root / "t.json", 300);
        SessionStore store(root / "s.stepscope");
        const ImportSummary sum = runImport(store, root / "t.json", 1000);
        QCOMPARE(sum.sources.at(0).events, 300);
        QCOMPARE(sum.sources.at(0).status, SourceStatus::Ok);
    }

    void withoutALimitTheWholeTraceAndItsFingerprint() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        writeTrace(root / "t.json", 5000);
        SessionStore store(root / "s.stepscope");
        QCOMPARE(runImport(store, root / "t.json", 0).sources.at(0).events, 5000);
        QVERIFY(!store.setting(kInputFingerprintSetting).empty());
    }

    void largeFilesThatCannotStopEarlyWaitForTheImport() {
        QTemporaryDir dir;
        const std::filesystem::path root = dir.path().toStdString();
        std::filesystem::create_directories(root / "logdir");
        writeTrace(root / "logdir" / "t.json", 100);
        // An nvidia-smi log past the size a first picture reads whole, and a small one.
        auto writeSmi = [](const std::filesystem::path &file, int64_t rows) {
            std::ofstream out(file);
            out << "timestamp, name, index, utilization.gpu [%]\n";
            char line[128];
            for (int64_t i = 0; i < rows; ++i) {
                const int64_t ms = i * 100;  // a sample every 100 ms
                std::snprintf(line, sizeof line, "2024/01/01 %02d:%02d:%02d.%03d, NVIDIA H100 80GB HBM3, 0, %d %%\n",
                              int(ms / 3'600'000), int(ms / 60'000 % 60), int(ms / 1000 % 60), int(ms % 1000), int(i % 100));
                out << line;
            }
        };
        writeSmi(root / "logdir" / "big-smi.csv", ImportOptions::kPreviewWholeFileBytes / 50 + 1000);
        writeSmi(root / "logdir" / "small-smi.csv", 100);
        QVERIFY(std::filesystem::file_size(root / "logdir" / "big-smi.csv") >= uint64_t(ImportOptions::kPreviewWholeFileBytes));
        SessionStore store(root / "s.stepscope");
        const ImportSummary sum = runImport(store, root / "logdir", 50);
        QStringList read;
        for (const SourceSummary &s : sum.sources) read << QString::fromStdString(std::filesystem::path(s.path).filename().string());
        read.sort();
        QCOMPARE(read, (QStringList{"small-smi.csv", "t.json"}));
        bool bigLeft = false;
        for (const ScannedFile &f : sum.skipped)
            bigLeft = bigLeft || (f.path.filename() == "big-smi.csv" && f.reason.find("first picture") != std::string::npos);
        QVERIFY(bigLeft);
    }
};

QTEST_MAIN(TestSessionImportPreview)
#include "tst_session_import_preview.moc"
