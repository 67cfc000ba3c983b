#pragma once
// UtilizationPanels decides which stacked chart each metric series goes to (GPU utilization per
// GPU, GPU memory, CPU machine/mean/busiest core, host memory, network in/out, disk, I/O wait),
// in which order, with which label and colour, and how a panel of many series from several ranks,
// hosts or GPUs is drawn grouped (one summary per role, one member in colour on demand). Only
// panels with data are returned. Pure functions over MetricSeriesModel; used by UtilizationView
// and its tests.

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

// One role of a grouped panel ("GPU", "GPU allocated", "machine"): the same measure of every
// member (rank, host or GPU), drawn as their mean over the members' thin grey lines.
struct UtilizationGroup {
    QString role;
    std::vector<size_t> series;  // positions in the panel's series
};

// Who a series belongs to in a grouped panel: the run when the grouped series come from several
// runs (the ranks of a job, or hosts), the GPU when they come from several GPUs, both when both.
struct UtilizationMembers {
    bool byRun = false, byDevice = false;
    QString noun() const;  // "rank" or "GPU": the Rank box's label and the legend's words
    QString label(const MetricSeriesInfo &info) const;  // "rank-5", "GPU 3", "rank-1 · GPU 3"
};

class UtilizationPanels {
public:
    // A panel with more series than this, from several members, is drawn grouped.
    static constexpr int kGroupAbove = 4;
    static std::vector<UtilizationPanel> group(const MetricSeriesModel &model);
    static bool severalRuns(const MetricSeriesModel &model);
    // "GPU 0", "busiest core", "in", ...; prefixed with the run when the session has several.
    static QString seriesLabel(const MetricSeriesInfo &info, bool withRun);
    // Colours follow identity: GPU n has one colour in every panel; in/read vs out/write differ.
    static QColor seriesColor(const MetricSeriesInfo &info, int indexInPanel);
    // The line of a grouped panel's mean over the members of `info`'s role: dark grey, and for the
    // allocator's reserve a lighter grey (as each GPU's reserve is its hue, lighter), so the two
    // means of "GPU memory allocated" tell apart.
    static QColor meanColor(const MetricSeriesInfo &info);
    // The panel's series by role when it is drawn grouped; empty when every series is drawn on its
    // own (few series, or all from one member).
    static std::vector<UtilizationGroup> groups(const UtilizationPanel &panel, const MetricSeriesModel &model);
    // How the members of the grouped panels are told apart (from the series of `panels` that are grouped).
    static UtilizationMembers members(const std::vector<UtilizationPanel> &panels, const MetricSeriesModel &model);
    // What a series measures, without whose it is: "GPU", "GPU allocated", "machine", "in".
    static QString roleLabel(const MetricSeriesInfo &info);
    // "GPU 0 total" for a capacity line.
    static QString limitLabel(const MetricSeriesInfo &info, bool withRun);
};

} // namespace stepscope
