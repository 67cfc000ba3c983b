#pragma once
// UtilizationPanels decides which stacked chart each metric series goes to (GPU utilization per
// GPU, GPU memory, CPU machine/mean/busiest core, host memory, network in/out, disk, I/O wait),
// in which order, with which label and colour. Only panels with data are returned. Pure
// functions over MetricSeriesModel; used by UtilizationView and its tests.

#include "models/metrics/metric_series_model.h"

#include <QColor>
#include <QString>

#include <vector>

namespace stepscope {

struct UtilizationPanel {
    QString key;    // "gpu_util", "network", ... (stable, for tests)
    QString title;  // "GPU utilization"
    QString unit;   // stored unit of its series ("%", "B", "B/s")
    std::vector<int> series;  // indices into the model
    // Constant capacities of the panel's series (nvidia-smi's memory.total): drawn as a dashed
    // horizontal line at their value, not as a chart of their own.
    std::vector<int> limits;
    // The y range reaches the capacities (nvidia-smi's used vs total); false for the allocator's
    // panel, scaled to its data so a step's allocations show, the total named in the legend.
    bool limitsOnScale = true;
};

class UtilizationPanels {
public:
    static std::vector<UtilizationPanel> group(const MetricSeriesModel &model);
    static bool severalRuns(const MetricSeriesModel &model);
    // "GPU 0", "busiest core", "in", ...; prefixed with the run when the session has several.
    static QString seriesLabel(const MetricSeriesInfo &info, bool withRun);
    // Colours follow identity: GPU n has one colour in every panel; in/read vs out/write differ.
    static QColor seriesColor(const MetricSeriesInfo &info, int indexInPanel);
    // "GPU 0 total" for a capacity line.
    static QString limitLabel(const MetricSeriesInfo &info, bool withRun);
};

} // namespace stepscope
