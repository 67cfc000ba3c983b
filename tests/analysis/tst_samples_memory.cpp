// GPU memory on real profiles: HTA's df_index_resolver sample (PyTorch profile_memory=True, rank 1
// of 2 on 32 GB V100s) and a JAX XPlane with allocator events (../shared/samples). Their allocator
// events become series and give a headroom whose figures hang together (issue #14).

#include "models/store/sqlite_statement.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

using namespace stepscope;

class TestSamplesMemory : public QObject {
    Q_OBJECT
private slots:
    void allocatorSample() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::ImportedSession s({samples / "hta" / "df_index_resolver" / "df_index_resolver.json.gz"});
        SqliteStatement st(s.store->db(),
                           "SELECT count(*), max(value) FROM v_metric WHERE series = 'gpu_mem_allocated' AND device = 1 AND unit = 'B'");
        QVERIFY(st.step());
        QVERIFY(st.columnInt(0) > 1000);
        SqliteStatement total(s.store->db(), "SELECT max(value) FROM v_metric WHERE series = 'gpu_mem_total' AND device = 1");
        QVERIFY(total.step());
        QCOMPARE(total.columnDouble(0), 34089730048.0);  // deviceProperties totalGlobalMem
        const Report r = s.report();
        QCOMPARE(r.runs.size(), size_t(1));
        const RunAnalysis &a = r.runs[0].analysis;
        QVERIFY(a.memory);
        QCOMPARE(a.memory->source, std::string("allocator"));
        QCOMPARE(a.memory->device, 1);
        QCOMPARE(a.memory->deviceTotalBytes, std::optional<int64_t>(34089730048));
        QVERIFY(a.memory->staticBytes > 0);
        QVERIFY(a.memory->peakBytes >= a.memory->staticBytes);
        QVERIFY(double(a.memory->peakBytes) <= st.columnDouble(1));
        QVERIFY(a.memory->peakBytes < *a.memory->deviceTotalBytes);
        QVERIFY(a.memory->peakReservedBytes && *a.memory->peakReservedBytes >= a.memory->peakBytes);
    }

    // XPlane: the host plane's MemoryAllocation / MemoryDeallocation events (TensorFlow/XLA BFC
    // allocator "GPU_0_bfc") and the device plane's memory_size (a JAX run on an MI355X).
    void xplaneAllocatorSample() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::ImportedSession s({samples / "tracelens" / "test_data_jax_te_fused_attn_categorization" / "934987a2fc2f.xplane.pb"});
        SqliteStatement st(s.store->db(),
                           "SELECT count(*), min(value), max(value) FROM v_metric WHERE series = 'gpu_mem_allocated' AND device = 0");
        QVERIFY(st.step());
        QCOMPARE(st.columnInt(0), int64_t(59));  // every MemoryAllocation / MemoryDeallocation of GPU_0_bfc
        QCOMPARE(st.columnDouble(1), 234882560.0);
        QCOMPARE(st.columnDouble(2), 663228416.0);
        const Report r = s.report();
        const RunAnalysis &a = r.runs[0].analysis;
        QVERIFY(a.memory);
        QCOMPARE(a.memory->source, std::string("allocator"));
        QCOMPARE(a.memory->deviceTotalBytes, std::optional<int64_t>(309220868096));  // memory_size
        QVERIFY(a.memory->peakBytes <= 663228416);
        QVERIFY(a.memory->staticBytes >= 234882560 && a.memory->staticBytes <= a.memory->peakBytes);
        QVERIFY(!a.memory->maxBatchSize);  // no batch size in this profile: said, not invented
        QVERIFY(a.memory->note.find("batch size is unknown") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestSamplesMemory)
#include "tst_samples_memory.moc"
