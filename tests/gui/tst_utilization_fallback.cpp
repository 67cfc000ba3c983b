// #35 item 9: an Nsight Systems export whose only instance metric is the GPU's memory size showed a
// "GPU memory total" track on the timeline while Utilization said "No instance metrics in this
// session". Metrics that fit no panel are charted, one panel per name, when nothing else is; the
// usual panels are unchanged (the size stays a limit line on the memory panels).
#include "views/utilization/utilization_panels.h"

#include <QtTest>

using namespace stepscope;

namespace {
MetricSeries series(const std::string &name, const std::string &unit, float value) {
    MetricSeries s;
    s.info.name = name;
    s.info.unit = unit;
    s.info.device = 0;
    s.lod = MetricLod({1'000'000'000, 2'000'000'000}, {value, value});
    return s;
}
} // namespace

class TestUtilizationFallback : public QObject {
    Q_OBJECT
private slots:
    void onlyTheMemorySizeIsCharted() {
        MetricSeriesModel model;
        model.setSeries({series("gpu_mem_total", "B", 8e10f)});
        const auto panels = UtilizationPanels::group(model);
        QCOMPARE(panels.size(), size_t(1));
        QCOMPARE(panels[0].title, QStringLiteral("GPU memory total"));
        QCOMPARE(panels[0].series, std::vector<int>{0});
    }

    void withUsedMemoryTheSizeIsALimit() {
        MetricSeriesModel model;
        model.setSeries({series("gpu_mem_total", "B", 8e10f), series("gpu_mem_used", "B", 1e10f)});
        const auto panels = UtilizationPanels::group(model);
        QCOMPARE(panels.size(), size_t(1));
        QCOMPARE(panels[0].key, QStringLiteral("gpu_mem_used"));
        QCOMPARE(panels[0].limits, std::vector<int>{0});
    }
};

QTEST_MAIN(TestUtilizationFallback)
#include "tst_utilization_fallback.moc"
