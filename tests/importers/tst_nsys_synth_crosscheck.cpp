// Cross-check of the Nsight Systems importer through the synthetic generator: one simulated training
// loop written as a Kineto Chrome trace and as an nsys SQLite export (stepscope-synth --format nsys)
// must give the same analysis — steps (from the NVTX "step N" ranges), every category of the step
// breakdown, the verdict, GPU busy time, idle gaps, findings and projections — and the same GPU
// activity to the ns. Also: GPU metrics become gpu_util per GPU, runtime names lose nsys's _vNNNN
// suffix, launches link to their kernels, and the export file is left byte-identical.

#include "app/synth/nsys_export_writer.h"
#include "app/synth/synthetic_profile_generator.h"
#include "tests/analysis/import_helper.h"
#include "tests/importers/import_test_support.h"

#include <QCryptographicHash>
#include <QFile>
#include <QtTest>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

QByteArray sha(const fs::path &file) {
    QFile f(QString::fromStdString(file.string()));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

struct Pair {
    fs::path chrome, nsys;
};

Pair generate(const fs::path &dir, synth::Bottleneck b, int gpus) {
    synth::SyntheticProfileOptions o;
    o.steps = 12;
    o.seed = 5;
    o.gpus = gpus;
    o.bottleneck = b;
    o.kernelsPerStep = b == synth::Bottleneck::KernelLaunch ? 0 : 60;
    Pair p{dir / "t.pt.trace.json.gz", dir / "t.sqlite"};
    synth::SyntheticProfileGenerator(o).generate(p.chrome, {});
    synth::writeNsysExport(o, p.nsys, p.chrome);
    return p;
}

QStringList rows(const test::ImportedSession &s, const std::string &sql) { return test::queryRows(*s.store, sql); }

} // namespace

class TstNsysSynthCrosscheck : public QObject {
    Q_OBJECT
private slots:
    void sameAnalysis_data() {
        QTest::addColumn<QString>("bottleneck");
        QTest::addColumn<int>("gpus");
        QTest::newRow("input") << "input" << 1;
        QTest::newRow("kernel_launch") << "kernel_launch" << 1;
        QTest::newRow("collective, 2 GPUs") << "collective" << 2;
        QTest::newRow("checkpoint") << "checkpoint" << 1;
    }
    void sameAnalysis() {
        QFETCH(QString, bottleneck);
        QFETCH(int, gpus);
        QTemporaryDir dir;
        const Pair p = generate(dir.path().toStdString(), *synth::parseBottleneck(bottleneck.toStdString()), gpus);
        const QByteArray before = sha(p.nsys);
        test::ImportedSession chrome({p.chrome}), nsys({p.nsys});
        QCOMPARE(sha(p.nsys), before);  // read-only: not a byte changed
        QVERIFY(!fs::exists(p.nsys.string() + "-journal") && !fs::exists(p.nsys.string() + "-wal") &&
                !fs::exists(p.nsys.string() + "-shm"));
        QCOMPARE(rows(nsys, "SELECT format, status FROM source"), QStringList({"nsys_sqlite|ok"}));

        const std::string gpu = "SELECT device, name, start_ns, dur_ns FROM v_slice WHERE track_kind = 'gpu_stream' "
                                "AND category <> 'gpu_user_annotation' ORDER BY device, start_ns, name";
        const QStringList chromeGpu = rows(chrome, gpu);
        QVERIFY(chromeGpu.size() > 12 * 60);
        QCOMPARE(rows(nsys, gpu), chromeGpu);
        const std::string steps = "SELECT step, start_ns, dur_ns FROM v_step ORDER BY step";
        QCOMPARE(rows(chrome, steps).size(), 12);
        QCOMPARE(rows(nsys, steps), rows(chrome, steps));

        const Report rc = chrome.report(), rn = nsys.report();
        const RunAnalysis &a = rc.runs.at(0).analysis, &b = rn.runs.at(0).analysis;
        QCOMPARE(QString::fromStdString(b.bottleneck), QString::fromStdString(a.bottleneck));
        QCOMPARE(QString::fromStdString(b.bottleneckDetail), QString::fromStdString(a.bottleneckDetail));
        QCOMPARE(b.steps.steps.size(), a.steps.steps.size());
        // Every category to 1 us per step. An NVTX range cannot tell a framework op (Kineto's cpu_op,
        // charged to kernel_launch when it launches) from a user annotation that launches (Kineto's
        // user_annotation, host compute): both are "nvtx", charged to kernel_launch. So the optimizer
        // annotation's own exposed time may move from host_compute to kernel_launch; their sum holds.
        const int64_t tolerance = int64_t(a.steps.steps.size()) * 1000, stepsNs = a.steps.totalNs();
        const auto ns = [](const RunAnalysis &r, Category c) { return r.categoryNs(c); };
        for (int c = 0; c < kCategoryCount; ++c) {
            const auto cat = Category(c);
            const bool launchOrHost = cat == Category::KernelLaunch || cat == Category::HostCompute;
            QVERIFY2(std::abs(ns(b, cat) - ns(a, cat)) <= (launchOrHost ? stepsNs / 500 : tolerance),
                     qPrintable(QString::fromStdString(std::string(kCategoryNames[size_t(c)])) + ": chrome " +
                                QString::number(ns(a, cat)) + " ns, nsys " + QString::number(ns(b, cat))));
        }
        QVERIFY(std::abs(ns(b, Category::KernelLaunch) + ns(b, Category::HostCompute) - ns(a, Category::KernelLaunch) -
                         ns(a, Category::HostCompute)) <= tolerance);
        QCOMPARE(qRound(b.gpuBusyPct * 100), qRound(a.gpuBusyPct * 100));
        QCOMPARE(b.gaps.device.count, a.gaps.device.count);
        QCOMPARE(b.gaps.device.totalNs, a.gaps.device.totalNs);
        // The same findings, but for those from GPU metrics: the export samples SM activity (the
        // Chrome trace here comes without an nvidia-smi log); and slow_collective, which needs the
        // message sizes that Kineto records and the export does not carry.
        QStringList fa, fb;
        for (const Finding &f : a.findings)
            if (f.rule != "slow_collective") fa << QString::fromStdString(f.rule + " " + findingSeverityName(f.severity));
        QCOMPARE(b.collectives.size(), a.collectives.size());
        for (size_t k = 0; k < a.collectives.size(); ++k) {
            QCOMPARE(b.collectives[k].name, a.collectives[k].name);
            QCOMPARE(b.collectives[k].count, a.collectives[k].count);
            QVERIFY(a.collectives[k].busbwGbps && !b.collectives[k].busbwGbps);
        }
        for (const Finding &f : b.findings)
            if (f.rule.rfind("sm_", 0) != 0)
                fb << QString::fromStdString(f.rule + " " + findingSeverityName(f.severity));
        QCOMPARE(fb, fa);
        QVERIFY(b.gpuMetrics && !a.gpuMetrics);
        QCOMPARE(b.projection.has_value(), a.projection.has_value());
        if (a.projection)
            QVERIFY(std::abs(b.projection->stepTimeMs - a.projection->stepTimeMs) <= a.projection->stepTimeMs / 1000);
    }

    void exportDetails() {
        QTemporaryDir dir;
        const Pair p = generate(dir.path().toStdString(), synth::Bottleneck::Input, 2);
        test::ImportedSession nsys({p.nsys});
        // Runtime API names without the _vNNNN suffix, on the thread ThreadNames names.
        QCOMPARE(rows(nsys, "SELECT count(*) FROM v_slice WHERE name LIKE 'cuda%\\_v%' ESCAPE '\\'"), QStringList({"0"}));
        QVERIFY(rows(nsys, "SELECT DISTINCT track FROM v_slice WHERE name = 'cudaLaunchKernel'").join(",").contains("python"));
        // Every kernel, copy and memset is linked to the call that launched it.
        QCOMPARE(rows(nsys, "SELECT count(*) FROM flow"), rows(nsys, "SELECT count(*) FROM v_slice WHERE track_kind = 'gpu_stream'"));
        // Synchronization records sit on the host thread, inside the synchronize call that waited.
        QVERIFY(rows(nsys, "SELECT count(*) FROM v_slice WHERE category = 'cuda_sync' AND track_kind = 'host_thread'").at(0).toInt() >= 12);
        QCOMPARE(rows(nsys, "SELECT count(*) FROM v_slice WHERE category = 'cuda_sync' AND depth = 0"), QStringList({"0"}));
        // Steps: NVTX "step N" ranges, category step; annotations keep their NVTX domain.
        QCOMPARE(rows(nsys, "SELECT count(*) FROM v_slice WHERE category = 'step'"), QStringList({"24"}));  // 12 per GPU thread
        QVERIFY(rows(nsys, "SELECT count(*) FROM slice WHERE args LIKE '%\"domain\":\"synth\"%'").at(0).toInt() > 0);
        // GPU metrics sampling: SMs Active is gpu_util per GPU; other metrics keep their name.
        QCOMPARE(rows(nsys, "SELECT series, device, unit FROM v_metric GROUP BY 1, 2 ORDER BY 1, 2"),
                 QStringList({"gpu_mem_total|0|B", "gpu_mem_total|1|B", "gpu_util|0|%", "gpu_util|1|%",
                              "pcie_rx_throughput|0|%", "pcie_rx_throughput|1|%"}));
        QCOMPARE(rows(nsys, "SELECT DISTINCT value FROM v_metric WHERE series = 'gpu_mem_total'"), QStringList({"85520809984.0"}));
        // Metric times are on the trace's epoch clock: the samples cover the steps.
        const QStringList span = rows(nsys, "SELECT (SELECT min(t_ns) FROM v_metric WHERE series = 'gpu_util') <= "
                                            "(SELECT min(start_ns) FROM v_step), (SELECT max(t_ns) FROM v_metric "
                                            "WHERE series = 'gpu_util') >= (SELECT max(start_ns) FROM v_step)");
        QCOMPARE(span, QStringList({"1|1"}));
        // The device comes from TARGET_INFO_GPU, the epoch from TARGET_INFO_SESSION_START_TIME.
        QCOMPARE(rows(nsys, "SELECT device, time_base_ns FROM run"), QStringList({"NVIDIA H100 80GB HBM3|1768471200000000000"}));
    }
};

QTEST_GUILESS_MAIN(TstNsysSynthCrosscheck)
#include "tst_nsys_synth_crosscheck.moc"
