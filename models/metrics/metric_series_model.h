#pragma once
// MetricSeriesModel holds every instance-metric series of the open session in memory, with their
// level-of-detail summaries built once when the session opens or changes (clock offset edited,
// re-import). Views ask it for per-pixel buckets over any time range, exact statistics over a
// range, and the value at an instant. Created by MainWindow next to the SessionModel; read by
// UtilizationView; tests and the benchmark fill it directly with setSeries().

#include "models/metrics/metric_series.h"
#include "models/qt/background_job.h"
#include "models/qt/time_range_controller.h"

#include <QObject>

#include <optional>
#include <vector>

namespace stepscope {

class SessionModel;

class MetricSeriesModel : public QObject {
    Q_OBJECT
public:
    // Sessions with more samples than this load as a BackgroundJob (seconds for a week of 100 ms
    // samples): the model is empty and loading() until seriesChanged(). A newer session (or the
    // model's end) cancels the load.
    static constexpr int64_t kBackgroundSamples = 5'000'000;

    explicit MetricSeriesModel(SessionModel *session = nullptr, QObject *parent = nullptr);

    // Reads the session again (done automatically on SessionModel::sessionChanged).
    void reload();
    bool loading() const { return m_loading; }
    void setBackgroundThreshold(int64_t samples) { m_backgroundSamples = samples; }  // tests
    // Replaces the contents (tests, benchmarks); emits seriesChanged().
    void setSeries(std::vector<MetricSeries> series);

    int count() const { return int(m_series.size()); }
    const MetricSeries &series(int i) const { return m_series[size_t(i)]; }
    const std::vector<MetricSeries> &all() const { return m_series; }
    int64_t sampleCount() const;
    size_t memoryBytes() const;
    NsRange extent() const { return m_extent; }  // invalid when there are no samples

    std::vector<MetricBucket> buckets(int i, NsRange range, int width) const {
        return series(i).lod.buckets(range.start, range.end, width);
    }
    // Exact min/mean/max of the samples with range.start <= t < range.end.
    MetricStats stats(int i, NsRange range) const { return series(i).lod.stats(range.start, range.end); }
    // The series' value at instant t: the sample whose period holds t (a sample describes the
    // period before its time stamp), unless the nearest sample is more than three sampling periods
    // away (then the series has a gap there) or t is before the first sample's period.
    std::optional<double> valueAt(int i, int64_t t) const;

signals:
    void seriesChanged();

private:
    SessionModel *m_session;
    std::vector<MetricSeries> m_series;
    NsRange m_extent;
    BackgroundJob m_loader;
    int64_t m_backgroundSamples = kBackgroundSamples;
    bool m_loading = false;
};

} // namespace stepscope
