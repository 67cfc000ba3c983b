// GPU memory and the batch-size headroom (issue #14): PyTorch allocator "[memory]" instants become
// gpu_mem_allocated / gpu_mem_reserved / gpu_mem_total series; MemoryHeadroom finds what stays across
// steps (static), the peak inside a step and the batch that would fill the device; nvidia-smi's
// memory.used serves when that is all there is; missing evidence is said, never invented.

#include "models/analysis/engine/memory_headroom.h"
#include "models/analysis/report/report_formatter.h"
#include "models/store/sqlite_statement.h"
#include "tests/analysis/analysis_fixture.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <fstream>

using namespace stepscope;
using test::kMs;

namespace {

constexpr int64_t kGiB = int64_t(1) << 30;
constexpr int64_t kMiB = int64_t(1) << 20;

std::string memoryEvent(int64_t tsUs, int type, int id, int64_t allocated, int64_t reserved) {
    return R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":)" +
           std::to_string(tsUs) + R"(,"args":{"Device Type":)" + std::to_string(type) + R"(,"Device Id":)" +
           std::to_string(id) + R"(,"Addr":1,"Bytes":1,"Total Allocated":)" + std::to_string(allocated) +
           R"(,"Total Reserved":)" + std::to_string(reserved) + "}},\n";
}

// Four 100 ms steps on a 16 GiB GPU: 1 GiB stays allocated (parameters, optimizer state); each step
// allocates 512 MiB of activations at +20 ms and frees them at +60 ms; the allocator reserves 1.65
// GiB throughout (10 % over the 1.5 GiB peak). One 20 ms kernel per step: the GPU is 20 % busy.
std::filesystem::path writeMemoryTrace(const QTemporaryDir &dir) {
    std::string j = R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"Test GPU","totalGlobalMem":)" +
                    std::to_string(16 * kGiB) + R"(}],"traceEvents":[
{"ph":"M","name":"process_labels","pid":0,"args":{"labels":"GPU 0"}},
{"ph":"M","name":"thread_name","pid":0,"tid":7,"args":{"name":"stream 7"}},
)";
    const int64_t reserved = 1650 * kGiB / 1000;
    j += memoryEvent(1000, 1, 0, kGiB, reserved);
    j += memoryEvent(1000, 0, -1, 4096, 8192);  // the CPU allocator
    j += R"({"ph":"i","name":"[memory]","pid":1,"tid":1,"ts":1500,"args":{"Device Type":1,"Total Allocated":5}},)" "\n";
    for (int n = 1; n <= 4; ++n) {
        const int64_t t0 = 10'000 + int64_t(n - 1) * 100'000;  // µs
        j += R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + std::to_string(n) + R"(","pid":1,"tid":1,"ts":)" +
             std::to_string(t0) + R"(,"dur":100000},)" "\n";
        j += R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":)" + std::to_string(t0 + 20'000) +
             R"(,"dur":20000,"args":{"device":0,"stream":7}},)" "\n";
        j += memoryEvent(t0 + 20'000, 1, 0, kGiB + 512 * kMiB, reserved);
        j += memoryEvent(t0 + 60'000, 1, 0, kGiB, reserved);
    }
    j += R"({"ph":"i","name":"end","pid":1,"tid":1,"ts":500000,"s":"t"}]})";
    const auto path = std::filesystem::path(dir.filePath("mem.pt.trace.json").toStdString());
    std::ofstream(path) << j;
    return path;
}

struct SeriesRow {
    std::optional<int64_t> device;
    std::string unit;
    int64_t samples = 0;
    double maxValue = 0;
};

std::map<std::string, SeriesRow> seriesOf(const SessionStore &store) {
    std::map<std::string, SeriesRow> out;
    SqliteStatement st(store.db(), "SELECT series, device, unit, count(*), max(value) FROM v_metric GROUP BY series, device, unit");
    while (st.step()) {
        SeriesRow r;
        if (!st.columnIsNull(1)) r.device = st.columnInt(1);
        r.unit = st.columnText(2);
        r.samples = st.columnInt(3);
        r.maxValue = st.columnDouble(4);
        out[st.columnText(0)] = r;
    }
    return out;
}

const Finding *findingOf(const RunAnalysis &a, const std::string &rule) {
    for (const Finding &f : a.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

} // namespace

class TestAnalysisMemory : public QObject {
    Q_OBJECT
private slots:
    void allocatorEventsBecomeSeries() {
        QTemporaryDir dir;
        test::ImportedSession s({writeMemoryTrace(dir)});
        const auto series = seriesOf(*s.store);
        QVERIFY(series.count("gpu_mem_allocated"));
        QCOMPARE(series.at("gpu_mem_allocated").device, std::optional<int64_t>(0));
        QCOMPARE(series.at("gpu_mem_allocated").unit, std::string("B"));
        QCOMPARE(series.at("gpu_mem_allocated").samples, int64_t(9));  // the one without a Device Id is skipped
        QCOMPARE(series.at("gpu_mem_allocated").maxValue, double(kGiB + 512 * kMiB));
        QCOMPARE(series.at("gpu_mem_reserved").samples, int64_t(9));
        QCOMPARE(series.at("gpu_mem_total").maxValue, double(16 * kGiB));
        QCOMPARE(series.at("cpu_mem_allocated").device, std::optional<int64_t>());
        QCOMPARE(series.at("cpu_mem_allocated").maxValue, 4096.0);
        SqliteStatement log(s.store->db(), "SELECT count(*) FROM import_log WHERE code = 'memory_without_device'");
        QVERIFY(log.step());
        QCOMPARE(log.columnInt(0), int64_t(1));
        // The instants themselves stay on their thread (Details can show them).
        SqliteStatement inst(s.store->db(), "SELECT count(*) FROM v_slice WHERE name = '[memory]'");
        QVERIFY(inst.step());
        QCOMPARE(inst.columnInt(0), int64_t(11));
    }

    void headroomFromAllocator() {
        QTemporaryDir dir;
        test::ImportedSession s({writeMemoryTrace(dir)});
        ReportOptions o;
        o.batchSize = 8;
        const Report r = s.report(o);
        QCOMPARE(r.runs.size(), size_t(1));
        const RunAnalysis &a = r.runs[0].analysis;
        QVERIFY(a.memory);
        const MemorySummary &m = *a.memory;
        QCOMPARE(m.source, std::string("allocator"));
        QCOMPARE(m.device, 0);
        QCOMPARE(m.deviceTotalBytes, std::optional<int64_t>(16 * kGiB));
        QCOMPARE(m.staticBytes, kGiB);
        QCOMPARE(m.peakBytes, kGiB + 512 * kMiB);
        QCOMPARE(m.peakReservedBytes, std::optional<int64_t>(1650 * kGiB / 1000));
        QVERIFY(std::abs(m.fragmentationPct - 10.0) < 0.01);
        // usable = 16 GiB × 0.95 / 1.10 = 13.818 GiB; (13.818 − 1) / 0.5 × 8 = 205.1
        QCOMPARE(m.maxBatchSize, std::optional<int64_t>(205));
        QCOMPARE(m.perStepPeakBytes.size(), size_t(4));
        for (const auto &p : m.perStepPeakBytes) QCOMPARE(p, std::optional<int64_t>(kGiB + 512 * kMiB));
        const Finding *headroom = findingOf(a, "memory_headroom");
        QVERIFY(headroom);
        QVERIFY2(headroom->detail.find("Batch 8 takes 512 MiB per step above the 1.00 GiB static (peak 1.50 GiB of 16.00 GiB, GPU 0)") != std::string::npos, headroom->detail.c_str());
        QVERIFY(headroom->detail.find("up to ~205 fit") != std::string::npos);
        QCOMPARE(headroom->title, std::string("GPU memory fits a batch of ~205 (now 8)"));
        QVERIFY(!headroom->projection);  // a symptom's remedy, not a cause removed
        const Finding *lowUtil = findingOf(a, "pt_low_gpu_utilization");
        QVERIFY(lowUtil);
        QVERIFY2(lowUtil->recommendation.find("up to ~205 fit") != std::string::npos, lowUtil->recommendation.c_str());

        const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(r))).object();
        const QJsonObject run = json["runs"].toArray()[0].toObject();
        const QJsonObject mem = run["summary"].toObject()["memory"].toObject();
        QCOMPARE(mem["device_total_bytes"].toInteger(), 16 * kGiB);
        QCOMPARE(mem["static_bytes"].toInteger(), kGiB);
        QCOMPARE(mem["peak_bytes"].toInteger(), kGiB + 512 * kMiB);
        QCOMPARE(mem["batch_size"].toInteger(), qint64(8));
        QCOMPARE(mem["max_batch_size"].toInteger(), qint64(205));
        QCOMPARE(mem["source"].toString(), QStringLiteral("allocator"));
        QCOMPARE(run["steps"].toArray()[2].toObject()["memory_peak_bytes"].toInteger(), kGiB + 512 * kMiB);
        const std::string text = ReportFormatter::text(r);
        QVERIFY2(text.find("GPU memory: batch 8 takes 512 MiB per step above the 1.00 GiB static") != std::string::npos, text.c_str());
    }

    void withoutBatchSizeNoMaxBatch() {
        QTemporaryDir dir;
        test::ImportedSession s({writeMemoryTrace(dir)});
        const Report r = s.report();
        const RunAnalysis &a = r.runs[0].analysis;
        QVERIFY(a.memory);
        QVERIFY(!a.memory->batchSize);
        QVERIFY(!a.memory->maxBatchSize);
        QVERIFY2(a.memory->note.find("batch size is unknown") != std::string::npos, a.memory->note.c_str());
        QCOMPARE(a.memory->peakBytes, kGiB + 512 * kMiB);  // what is measured is still said
        QVERIFY(!findingOf(a, "memory_headroom"));
        const QJsonObject json = QJsonDocument::fromJson(QByteArray::fromStdString(ReportFormatter::json(r))).object();
        const QJsonObject mem = json["runs"].toArray()[0].toObject()["summary"].toObject()["memory"].toObject();
        QVERIFY(mem["max_batch_size"].isNull());
        QVERIFY(mem["batch_size"].isNull());
    }

    // nvidia-smi only: memory.used over memory.total, 4 one-second steps, 2 GiB between steps and
    // 6 GiB inside each: 4 GiB per step at batch 16 of 80 GiB → 16 × (76 − 2) / 4 = 296.
    void nvidiaSmiOnly() {
        test::AnalysisFixture f;
        std::vector<std::pair<int64_t, double>> used, total;
        for (int n = 0; n < 4; ++n) {
            const int64_t t0 = int64_t(n) * 1000 * kMs;
            f.step(n + 1, t0, t0 + 1000 * kMs);
            f.slice(f.host, "work", "cpu_op", t0, t0 + 1000 * kMs);
            used.push_back({t0, double(2 * kGiB)});
            used.push_back({t0 + 500 * kMs, double(6 * kGiB)});
            total.push_back({t0, double(80 * kGiB)});
        }
        f.metric("gpu_mem_used", 0, used, "B");
        f.metric("memory.total", 0, total, "B");
        AnalysisOptions o;
        o.batchSize = 16;
        const RunAnalysis a = f.analyze(o);
        QVERIFY(a.memory);
        QCOMPARE(a.memory->source, std::string("nvidia_smi"));
        QCOMPARE(a.memory->deviceTotalBytes, std::optional<int64_t>(80 * kGiB));
        QCOMPARE(a.memory->staticBytes, 2 * kGiB);
        QCOMPARE(a.memory->peakBytes, 6 * kGiB);
        QVERIFY(!a.memory->peakReservedBytes);
        QCOMPARE(a.memory->maxBatchSize, std::optional<int64_t>(296));
    }

    // The allocator's figures with nvidia-smi beside them: 3 GiB held outside the allocator's 1.65 GiB
    // reserve (4.65 GiB used) is not there for a bigger batch: (16 − 3) × 0.95 / 1.10 = 11.23 GiB
    // usable, 8 × (11.23 − 1) / 0.5 = 163.6 → 163.
    void nvidiaSmiBesideTheAllocator() {
        test::AnalysisFixture f;
        std::vector<std::pair<int64_t, double>> alloc, reserved, used, total;
        for (int n = 0; n < 4; ++n) {
            const int64_t t0 = int64_t(n) * 1000 * kMs;
            f.step(n + 1, t0, t0 + 1000 * kMs);
            f.slice(f.host, "work", "cpu_op", t0, t0 + 1000 * kMs);
            alloc.push_back({t0, double(kGiB)});
            alloc.push_back({t0 + 500 * kMs, double(kGiB + 512 * kMiB)});
            reserved.push_back({t0, double(1650 * kGiB / 1000)});
            used.push_back({t0, double(1650 * kGiB / 1000 + 3 * kGiB)});
            total.push_back({t0, double(16 * kGiB)});
        }
        f.metric("gpu_mem_allocated", 0, alloc, "B");
        f.metric("gpu_mem_reserved", 0, reserved, "B");
        f.metric("gpu_mem_used", 0, used, "B");
        f.metric("gpu_mem_total", 0, total, "B");
        AnalysisOptions o;
        o.batchSize = 8;
        const RunAnalysis a = f.analyze(o);
        QVERIFY(a.memory);
        QCOMPARE(a.memory->source, std::string("allocator"));
        QCOMPARE(a.memory->outsideBytes, std::optional<int64_t>(3 * kGiB));
        QCOMPARE(a.memory->maxBatchSize, std::optional<int64_t>(163));
        QVERIFY(MemoryHeadroom::describe(*a.memory).find("3.00 GiB held outside the allocator") != std::string::npos);
    }

    void nvidiaSmiFlatSaysWhy() {
        test::AnalysisFixture f;
        std::vector<std::pair<int64_t, double>> used;
        for (int n = 0; n < 4; ++n) {
            const int64_t t0 = int64_t(n) * 1000 * kMs;
            f.step(n + 1, t0, t0 + 1000 * kMs);
            f.slice(f.host, "work", "cpu_op", t0, t0 + 1000 * kMs);
            used.push_back({t0, double(30 * kGiB)});
            used.push_back({t0 + 500 * kMs, double(30 * kGiB)});
        }
        f.metric("gpu_mem_used", 0, used, "B");
        AnalysisOptions o;
        o.batchSize = 16;
        const RunAnalysis a = f.analyze(o);
        QVERIFY(a.memory);
        QVERIFY(!a.memory->maxBatchSize);
        QVERIFY(!a.memory->deviceTotalBytes);
        QVERIFY2(a.memory->note.find("memory.used does not change within a step") != std::string::npos, a.memory->note.c_str());
        QVERIFY(a.memory->note.find("memory size is not in the profile") != std::string::npos);
    }

    void noMemoryDataSaysSo() {
        test::AnalysisFixture f;
        const int64_t gpu = f.stream(0, "stream 7");
        for (int n = 0; n < 4; ++n) {
            const int64_t t0 = int64_t(n) * 100 * kMs;
            f.step(n + 1, t0, t0 + 100 * kMs);
            f.slice(f.host, "work", "cpu_op", t0, t0 + 100 * kMs);
            f.slice(gpu, "gemm", "kernel", t0 + 10 * kMs, t0 + 20 * kMs);
        }
        const RunAnalysis a = f.analyze();
        QVERIFY(!a.memory);
        const Finding *lowUtil = findingOf(a, "pt_low_gpu_utilization");
        QVERIFY(lowUtil);
        QVERIFY(lowUtil->recommendation.find("No GPU memory data in this profile") != std::string::npos);
    }

    void formatsBytes() {
        QCOMPARE(formatBytes(512.0 * kMiB), std::string("512 MiB"));
        QCOMPARE(formatBytes(1.5 * double(kGiB)), std::string("1.50 GiB"));
        QCOMPARE(formatBytes(141.0 * double(kGiB)), std::string("141 GiB"));
        QCOMPARE(formatBytes(2048), std::string("2 KiB"));
        QCOMPARE(formatBytes(12), std::string("12 B"));
    }
};

QTEST_GUILESS_MAIN(TestAnalysisMemory)
#include "tst_analysis_memory.moc"
