#pragma once
// SeriesPlotData turns one metric series over a visible range into the points a QCPGraph draws,
// within a fixed per-frame budget: when the range holds fewer samples than pixels it returns the
// raw samples (drawn as steps: a value holds until the next sample — a 60 s point is not a 100 ms
// fact), padded with the neighbours just outside so lines reach the edges; otherwise one
// min/max pair per pixel column from the LOD pyramid, so no spike is lost. Gaps longer than
// three sampling periods break the line (series of changes, without a period, hold their value). Called by UtilizationView on every range change;
// meanOf gives a grouped panel's line across ranks the same way, within the same budget.

#include "models/metrics/metric_series_model.h"
#include "models/qt/time_range_controller.h"

#include <qcustomplot.h>

namespace stepscope {

class SeriesPlotData {
public:
    struct Result {
        QVector<QCPGraphData> points;  // key: seconds since origin; value: stored value / divisor
        bool stepped = false;          // raw samples: draw with QCPGraph::lsStepRight
        // A series without a sampling period whose samples are changes (allocator totals): each
        // value holds from its sample until the next — steps drawn with QCPGraph::lsStepLeft, and
        // no gaps.
        bool holds = false;
    };
    static Result make(const MetricSeries &series, NsRange range, int widthPx, int64_t originNs, double divisor);
    // The mean over `series` (model indices) in each pixel column, a point at the column's middle:
    // each series counts with the mean of its samples in the column when it has more samples than
    // columns, else with its value at the middle (MetricSeriesModel::valueAt, which knows periods
    // and gaps); series without a value there are left out, and a column where none has one breaks
    // the line. Its cost is bounded by width x series, whatever the number of samples.
    static Result meanOf(const MetricSeriesModel &model, const std::vector<int> &series, NsRange range, int widthPx,
                         int64_t originNs, double divisor);
};

} // namespace stepscope
