// Real Chrome traces from ../shared/samples imported with ChromeTraceImporter. The expected counts
// were computed independently with Python's json module (number of X / B / i events, events on GPU
// processes, kernel category, ProfilerStep#N names on host threads, s/f flow pairs), not by
// running this importer. Skips when the samples folder is absent.

#include "importers/chrome/chrome_trace_importer.h"
#include "importers/common/byte_source.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <memory>

using namespace stepscope;
namespace fs = std::filesystem;

class TstSamplesChrome : public QObject {
    Q_OBJECT
private slots:
    void importsWithExactCounts_data();
    void importsWithExactCounts();
    void everyChromeSampleImports();
    void truncatedAndCorruptedCopies();
};

namespace {

using Imported = test::ImportedFile;

Imported runImport(const fs::path &file) {
    ChromeTraceImporter imp;
    return test::importFile(imp, file);
}

QString text(const Imported &imp, const std::string &sql) {
    SqliteStatement st(imp.store->db(), sql);
    return st.step() && !st.columnIsNull(0) ? QString::fromStdString(st.columnText(0)) : QString("NULL");
}

} // namespace

void TstSamplesChrome::importsWithExactCounts_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("slices");
    QTest::addColumn<int>("gpuSlices");
    QTest::addColumn<int>("kernels");
    QTest::addColumn<QString>("steps");
    QTest::addColumn<int>("flows");
    QTest::addColumn<QString>("run");  // name|rank|has_epoch|time_base_ns
    QTest::newRow("resnet50 2021, 0 workers")
        << "kineto_tbplugin_2021legacy/resnet50_profiler_api_num_workers_0/worker0.pt.trace.json.gz" << 54322
        << 10015 << 9564 << "5,6,7,8,9,10" << 9282 << "worker0|NULL|1|1610366662254282000";
    QTest::newRow("resnet50 2021, 4 workers")
        << "kineto_tbplugin_2021legacy/resnet50_profiler_api_num_workers_4/worker0.pt.trace.json.gz" << 48894
        << 9819 << 9456 << "5,6,7,8,9,10" << 9048 << "NULL";
    QTest::newRow("hta ns resolution (2024 Kineto)")
        << "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz" << 45422 << 6110 << 4350
        << "101,102,103,104,105" << 7000 << "rank 0|0|1|1712195495406752797";
    QTest::newRow("ROCm MI300 with baseTimeNanoseconds")
        << "tracelens/traces/mi300/gaunernst_bert-small-uncased__1016001.json.gz" << 2371 << 67 << 60 << "6" << 61
        << "gaunernst_bert-small-uncased__1016001|NULL|1|1751410836000000000";
    QTest::newRow("catapult unclosed B") << "catapult/tracing_test_data/main_thread_has_unclosed_slices.json" << 1684
                                         << 0 << 0 << "NULL" << 0 << "NULL";
    QTest::newRow("catapult gzip without .json") << "catapult/tracing_test_data/simple_trace_gz.gz" << 16 << 0 << 0
                                                 << "NULL" << 0 << "NULL";
    QTest::newRow("catapult flows v1") << "catapult/tracing_test_data/flow_simple.json" << 5 << 0 << 0 << "NULL" << 3
                                       << "NULL";
    QTest::newRow("SageMaker model timeline")
        << "smdebug/1589314018481947000_1234-testhost_model_timeline.json" << 49 << 0 << 0 << "NULL" << 0
        << "1589314018481947000_1234-testhost_model_timeline|NULL|1|1589314018457990000";
    QTest::newRow("Horovod timeline") << "smdebug/horovod_timeline_small.json" << 25 << 0 << 0 << "NULL" << 0 << "NULL";
    // No step markers: the one execution of the Keras training function is step 0.
    QTest::newRow("TensorFlow trace.json.gz")
        << "smdebug/tfprofiler_local_missing_metadata/framework/tensorflow/detailed_profiling/2020080513/000000000/"
           "plugins/profile/2020_08_05_13_37_44/ip-172-31-19-241.trace.json.gz"
        << 256 << 0 << 0 << "0" << 0 << "ip-172-31-19-241|NULL|0|0";
}

void TstSamplesChrome::importsWithExactCounts() {
    STEPSCOPE_REQUIRE_SAMPLES(samples);
    QFETCH(QString, file);
    QFETCH(int, slices);
    QFETCH(int, gpuSlices);
    QFETCH(int, kernels);
    QFETCH(QString, steps);
    QFETCH(int, flows);
    QFETCH(QString, run);
    const auto r = runImport(samples / file.toStdString());
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(text(r, "SELECT COUNT(*) FROM slice").toInt(), slices);
    QCOMPARE(text(r, "SELECT COUNT(*) FROM v_slice WHERE track_kind = 'gpu_stream'").toInt(), gpuSlices);
    QCOMPARE(text(r, "SELECT COUNT(*) FROM v_slice WHERE category IN ('kernel', 'Kernel')").toInt(), kernels);
    QCOMPARE(text(r, "SELECT group_concat(step) FROM (SELECT step FROM v_step ORDER BY step)"), steps);
    QCOMPARE(text(r, "SELECT COUNT(*) FROM flow").toInt(), flows);
    if (run != "NULL")
        QCOMPARE(text(r, "SELECT name || '|' || COALESCE(rank, 'NULL') || '|' || has_epoch || '|' || time_base_ns FROM run"),
                 run);
    // Every slice's parent lies on the same track and encloses it.
    QCOMPARE(text(r, "SELECT COUNT(*) FROM slice c JOIN slice p ON p.id = c.parent_id WHERE p.track_id != c.track_id "
                     "OR p.start_ns > c.start_ns OR p.start_ns + p.dur_ns < c.start_ns + c.dur_ns OR p.depth != c.depth - 1")
                 .toInt(),
             0);
}

void TstSamplesChrome::everyChromeSampleImports() {
    STEPSCOPE_REQUIRE_SAMPLES(samples);
    ChromeTraceImporter imp;
    int imported = 0;
    qlonglong totalSlices = 0;
    for (const auto &entry : fs::recursive_directory_iterator(samples)) {
        if (!entry.is_regular_file())
            continue;
        const std::string head = ByteSource::peek(entry.path(), 8192);
        if (!imp.sniff(entry.path(), head))
            continue;
        const auto r = runImport(entry.path());
        QVERIFY2(r.result.status == SourceStatus::Ok, qPrintable(QString::fromStdString(entry.path().string() + ": " + r.result.message)));
        totalSlices += text(r, "SELECT COUNT(*) FROM slice").toLongLong();
        ++imported;
    }
    qInfo("%d Chrome traces imported, %lld slices", imported, totalSlices);
    QVERIFY2(imported >= 50, qPrintable(QString::number(imported)));
}

void TstSamplesChrome::truncatedAndCorruptedCopies() {
    STEPSCOPE_REQUIRE_SAMPLES(samples);
    const fs::path original = samples / "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz";
    std::string bytes;
    {
        std::ifstream in(original, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    QTemporaryDir dir;
    const fs::path cut = fs::path(dir.path().toStdString()) / "cut.pt.trace.json.gz";
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() * 2 / 3);
    const auto r = runImport(cut);
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
    QVERIFY(QString::fromStdString(r.result.message).contains("cut.pt.trace.json.gz"));
    QVERIFY(QString::fromStdString(r.result.message).contains("truncated gzip"));
    const int kept = text(r, "SELECT COUNT(*) FROM slice").toInt();
    QVERIFY2(kept > 10000 && kept < 45422, qPrintable(QString::number(kept)));

    std::string corrupt = bytes;
    for (size_t i = corrupt.size() / 2; i < corrupt.size() / 2 + 64; ++i)
        corrupt[i] = char(corrupt[i] ^ 0x5A);
    const fs::path bad = fs::path(dir.path().toStdString()) / "bad.pt.trace.json.gz";
    std::ofstream(bad, std::ios::binary) << corrupt;
    const auto b = runImport(bad);
    QVERIFY(b.result.status != SourceStatus::Ok);
    QVERIFY2(QString::fromStdString(b.result.message).contains("byte"), b.result.message.c_str());
}

QTEST_GUILESS_MAIN(TstSamplesChrome)
#include "tst_samples_chrome.moc"
