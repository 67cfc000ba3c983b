#include "views/utilization/series_plot_data.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace stepscope {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

SeriesPlotData::Result SeriesPlotData::make(const MetricSeries &series, NsRange range, int widthPx, int64_t originNs,
                                            double divisor) {
    Result r;
    const MetricLod &lod = series.lod;
    if (lod.size() == 0 || !range.valid() || widthPx <= 0) return r;
    const auto &t = lod.times();
    const auto &v = lod.values();
    const auto key = [originNs](int64_t ns) { return double(ns - originNs) / 1e9; };
    const bool holds = series.info.periodNs <= 0 && lod.size() > 1;
    r.holds = holds;
    const int64_t gapNs = holds ? INT64_MAX : 3 * std::max<int64_t>(series.info.periodNs, 1);
    // One sample either side of the range so the line runs to the plot's edges.
    const int64_t first = std::max<int64_t>(lod.lowerIndex(range.start) - 1, 0);
    const int64_t last = std::min<int64_t>(lod.lowerIndex(range.end) + 1, lod.size());

    if (last - first <= int64_t(widthPx)) {
        r.stepped = true;
        r.points.reserve(int((last - first) * 2 + 1));
        for (int64_t i = first; i < last; ++i) {
            if (i > first && series.info.periodNs > 0 && t[size_t(i)] - t[size_t(i - 1)] > gapNs) {
                // Hold the previous value for one period, then break the line.
                r.points.append(QCPGraphData(key(t[size_t(i - 1)] + series.info.periodNs), double(v[size_t(i - 1)]) / divisor));
                r.points.append(QCPGraphData(key(t[size_t(i - 1)] + series.info.periodNs), kNaN));
            }
            r.points.append(QCPGraphData(key(t[size_t(i)]), double(v[size_t(i)]) / divisor));
        }
        // The last sample holds for one period (visible as a step, not a lone dot).
        if (series.info.periodNs > 0 && last == lod.size())
            r.points.append(QCPGraphData(key(t[size_t(last - 1)] + series.info.periodNs), double(v[size_t(last - 1)]) / divisor));
        return r;
    }

    // Dense: min and max per pixel column, placed inside the column so QCustomPlot keeps the
    // order; empty columns longer than the gap threshold break the line.
    const std::vector<MetricBucket> buckets = lod.buckets(range.start, range.end, widthPx);
    const double pxNs = double(range.duration()) / widthPx;
    r.points.reserve(widthPx * 2 + 4);
    if (first < lod.lowerIndex(range.start)) r.points.append(QCPGraphData(key(t[size_t(first)]), double(v[size_t(first)]) / divisor));
    int64_t emptyRunNs = 0;
    std::optional<float> held;  // holds: the value carried across columns without a sample
    if (holds && first < lod.lowerIndex(range.start)) held = v[size_t(first)];
    for (int k = 0; k < widthPx; ++k) {
        const MetricBucket &b = buckets[size_t(k)];
        const double x0 = key(range.start + int64_t(pxNs * k));
        const double dx = pxNs / 1e9;
        if (b.count == 0) {
            if (held) {
                r.points.append(QCPGraphData(x0 + dx * 0.5, double(*held) / divisor));
                continue;
            }
            emptyRunNs += int64_t(pxNs);
            if (emptyRunNs > gapNs && (r.points.isEmpty() || !std::isnan(r.points.back().value)))
                r.points.append(QCPGraphData(x0, kNaN));
            continue;
        }
        emptyRunNs = 0;
        // Two points per column, the extreme nearer the column's first sample first: the line
        // still covers every value in the column (and joins the neighbours) with half the
        // segments of first/min/max/last.
        const bool rising = b.last >= b.first;
        r.points.append(QCPGraphData(x0 + dx * 0.25, double(rising ? b.min : b.max) / divisor));
        r.points.append(QCPGraphData(x0 + dx * 0.75, double(rising ? b.max : b.min) / divisor));
        if (holds) {
            // The column's last value holds into the next: end the column on it.
            r.points.append(QCPGraphData(x0 + dx * 0.95, double(b.last) / divisor));
            held = b.last;
        }
    }
    if (last > lod.lowerIndex(range.end)) r.points.append(QCPGraphData(key(t[size_t(last - 1)]), double(v[size_t(last - 1)]) / divisor));
    return r;
}

SeriesPlotData::Result SeriesPlotData::meanOf(const MetricSeriesModel &model, const std::vector<int> &series, NsRange range,
                                              int widthPx, int64_t originNs, double divisor) {
    Result r;
    if (series.empty() || !range.valid() || widthPx <= 0) return r;
    // Column edges as MetricLod::buckets places them (long double: no overflow for long ranges).
    const long double step = (long double)range.duration() / (long double)widthPx;
    std::vector<int64_t> edges(size_t(widthPx) + 1);
    for (int k = 0; k <= widthPx; ++k) edges[size_t(k)] = k == widthPx ? range.end : range.start + int64_t(step * (long double)k);
    std::vector<double> sum(size_t(widthPx), 0.0);
    std::vector<int> count(size_t(widthPx), 0);
    for (int s : series) {
        const MetricLod &lod = model.series(s).lod;
        const bool dense = lod.lowerIndex(range.end) - lod.lowerIndex(range.start) > int64_t(widthPx);
        // Dense: the columns' means as MetricLod splits the range into buckets (the same edges).
        const std::vector<std::pair<double, int64_t>> means = dense ? lod.bucketMeans(range.start, range.end, widthPx)
                                                                    : std::vector<std::pair<double, int64_t>>{};
        for (size_t k = 0; k < size_t(widthPx); ++k) {
            std::optional<double> v;
            if (dense && means[k].second > 0) v = means[k].first;
            else v = model.valueAt(s, edges[k] + (edges[k + 1] - edges[k]) / 2);
            if (!v) continue;
            sum[k] += *v;
            ++count[k];
        }
    }
    r.points.reserve(widthPx);
    for (size_t k = 0; k < size_t(widthPx); ++k) {
        const int64_t middle = edges[k] + (edges[k + 1] - edges[k]) / 2;
        r.points.append(QCPGraphData(double(middle - originNs) / 1e9, count[k] ? sum[k] / count[k] / divisor : kNaN));
    }
    return r;
}

} // namespace stepscope
