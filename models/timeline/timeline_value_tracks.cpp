// TimelineModel: counter tracks (Chrome-trace "C" events, read through SampleReader) and metric tracks
// (instance metrics from MetricSeriesModel). Both are drawn from a MetricLod — per-pixel min/max
// buckets at any zoom — so a week of 100 ms samples costs the same per frame as a hundred.
#include "models/timeline/timeline_model.h"

#include "models/metrics/metric_lod.h"
#include "models/metrics/metric_series_model.h"
#include "models/metrics/metric_units.h"
#include "models/store/session_reader.h"
#include "models/store/sample_reader.h"

#include <algorithm>
#include <map>
#include <set>

namespace stepscope {

namespace {
TimelineValueSeries describe(const MetricLod &lod, QString unit, int64_t periodNs) {
    TimelineValueSeries v;
    v.lod = &lod;
    v.unit = std::move(unit);
    v.periodNs = periodNs;
    const MetricStats all = lod.statsOfIndices(0, lod.size());
    v.min = all.min;
    v.max = all.max;
    return v;
}

// Per-core CPU series stay in the utilization view: a 96-core machine would bury the timeline.
bool showAsTrack(const MetricSeriesInfo &info) { return !(info.name == "cpu_util" && info.device && info.id >= 0); }

QString metricTrackName(const MetricSeriesInfo &info) {
    QString name = MetricUnits::seriesTitle(QString::fromStdString(info.name));
    if (!info.label.empty()) name += QStringLiteral(" · ") + QString::fromStdString(info.label);
    return name;
}

// A capacity (nvidia-smi's memory.total, the device size of a PyTorch memory profile) is no track of
// its own: a line on the tracks of what it bounds (GPU memory used, allocated, reserved), whose scale
// then reaches it.
bool isCapacity(const std::string &name) { return name == "memory.total" || name == "gpu_mem_total"; }
bool boundedByCapacity(const std::string &name) {
    return name == "gpu_mem_used" || name == "gpu_mem_allocated" || name == "gpu_mem_reserved";
}

// A series with a device is a GPU's (nvidia-smi's memory.total too), except per-core CPU.
bool onGpu(const MetricSeriesInfo &info) { return info.device && info.name != "cpu_util"; }

// "GPU 0" / "Host", prefixed with the host or file the series came from when there are several.
QString metricSubgroup(const MetricSeriesInfo &info, bool severalRuns) {
    const QString device = onGpu(info) ? QStringLiteral("GPU %1").arg(*info.device) : QStringLiteral("Host");
    return severalRuns && !info.run.empty() ? QString::fromStdString(info.run) + QStringLiteral(" · ") + device : device;
}
} // namespace

std::unique_ptr<MetricLod> TimelineModel::readCounterSamples(int64_t trackId, int64_t baseNs) const {
    std::vector<int64_t> t;
    std::vector<float> v;
    SampleReader(*m_store).forEachCounterSample(trackId, [&](int64_t tNs, double value) {
        t.push_back(baseNs + tNs);
        v.push_back(float(value));
    });
    if (t.empty()) return nullptr;
    return std::make_unique<MetricLod>(std::move(t), std::move(v));
}

void TimelineModel::addCounterTrack(const TrackRow &row, const RunRow &run, int group, std::unique_ptr<MetricLod> samples) {
    TimelineTrack t;
    t.id = row.id;
    t.runId = run.id;
    t.group = group;
    t.name = QString::fromStdString(row.name);
    t.kind = QStringLiteral("counter");
    t.device = row.device;
    t.sliceCount = samples->size();
    t.baseNs = run.timeBaseNs;
    t.valueSeries = int(m_values.size());
    m_values.push_back(describe(*samples, QString(), 0));
    const NsRange r{samples->times().front(), samples->times().back() + 1};
    m_extent = m_extent.valid() ? NsRange{std::min(m_extent.start, r.start), std::max(m_extent.end, r.end)} : r;
    m_counterLods.push_back(std::move(samples));
    m_trackIndex[t.id] = int(m_tracks.size());
    m_groups[size_t(group)].tracks.push_back(int(m_tracks.size()));
    m_tracks.push_back(t);
}

void TimelineModel::setMetricSeries(const MetricSeriesModel *metrics) {
    if (m_metricsConnection) disconnect(m_metricsConnection);
    m_metrics = metrics;
    if (m_metrics) m_metricsConnection = connect(m_metrics, &MetricSeriesModel::seriesChanged, this, &TimelineModel::rebuildMetricTracks);
    rebuildMetricTracks();
}

void TimelineModel::rebuildMetricTracks() {
    for (size_t i = m_metricTracksBegin; i < m_tracks.size(); ++i) m_trackIndex.erase(m_tracks[i].id);
    m_tracks.resize(std::min(m_tracks.size(), m_metricTracksBegin));
    m_groups.resize(std::min(m_groups.size(), m_metricGroupsBegin));
    m_values.resize(std::min(m_values.size(), m_metricValuesBegin));
    addMetricTracks();
    emit modelReset();
}

void TimelineModel::addMetricTracks() {
    m_metricTracksBegin = m_tracks.size();
    m_metricGroupsBegin = m_groups.size();
    m_metricValuesBegin = m_values.size();
    if (!m_metrics || m_metrics->count() == 0) return;
    // GPUs first, then the host; within a sub-group, series in the order they were imported.
    std::vector<int> shown;
    std::set<std::string> runs;
    std::map<int, double> limits;  // series -> the capacity drawn on it
    auto boundSeries = [this](const MetricSeriesInfo &cap) {
        std::vector<int> bound;
        for (int j = 0; isCapacity(cap.name) && j < m_metrics->count(); ++j) {
            const MetricSeriesInfo &o = m_metrics->series(j).info;
            if (boundedByCapacity(o.name) && o.device == cap.device && o.run == cap.run && m_metrics->series(j).lod.size() > 0)
                bound.push_back(j);
        }
        return bound;
    };
    for (int i = 0; i < m_metrics->count(); ++i) {
        const MetricSeries &series = m_metrics->series(i);
        if (!showAsTrack(series.info) || series.lod.size() == 0) continue;
        if (const std::vector<int> bound = boundSeries(series.info); !bound.empty()) {
            for (int j : bound) limits[j] = std::max(limits[j], double(series.lod.statsOfIndices(0, series.lod.size()).max));
            continue;
        }
        shown.push_back(i);
        runs.insert(series.info.run);
    }
    std::map<std::pair<bool, QString>, std::vector<int>> bySubgroup;
    for (int i : shown) {
        const MetricSeriesInfo &info = m_metrics->series(i).info;
        bySubgroup[{!onGpu(info), metricSubgroup(info, runs.size() > 1)}].push_back(i);
    }
    if (bySubgroup.empty()) return;
    const int top = int(m_groups.size());
    m_groups.push_back({tr("Instance metrics"), -1, 0, std::nullopt, {}, {}});
    for (const auto &[key, list] : bySubgroup) {
        const int sub = int(m_groups.size());
        m_groups[size_t(top)].children.push_back(sub);
        m_groups.push_back({key.second, top, 0, std::nullopt, {}, {}});
        for (int i : list) {
            const MetricSeries &series = m_metrics->series(i);
            TimelineTrack t;
            t.id = -1 - int64_t(m_tracks.size());  // no track row: a negative id no slice refers to
            t.group = sub;
            t.name = metricTrackName(series.info);
            t.kind = QStringLiteral("metric");
            t.device = series.info.device;
            t.sliceCount = series.lod.size();
            t.valueSeries = int(m_values.size());
            m_values.push_back(describe(series.lod, QString::fromStdString(series.info.unit), series.info.periodNs));
            if (const auto l = limits.find(i); l != limits.end()) {
                m_values.back().limit = l->second;
                m_values.back().limitOnScale = series.info.name == "gpu_mem_used";
            }
            m_trackIndex[t.id] = int(m_tracks.size());
            m_groups[size_t(sub)].tracks.push_back(int(m_tracks.size()));
            m_tracks.push_back(t);
        }
    }
}

const TimelineValueSeries *TimelineModel::valueSeries(int track) const {
    if (track < 0 || track >= int(m_tracks.size())) return nullptr;
    const int v = m_tracks[size_t(track)].valueSeries;
    return v >= 0 && v < int(m_values.size()) ? &m_values[size_t(v)] : nullptr;
}

std::optional<double> TimelineModel::valueAt(int track, int64_t t) const {
    const TimelineValueSeries *v = valueSeries(track);
    if (!v) return std::nullopt;
    t -= m_tracks[size_t(track)].offsetNs;  // samples are kept as recorded
    // A metric sample stands for the period before it (see ValueTrackPainter): look one period ahead.
    const int64_t at = v->periodNs > 0 ? t + v->periodNs - 1 : t;
    const auto i = v->lod->indexAtOrBefore(at);
    if (!i) return std::nullopt;
    if (v->periodNs > 0 && at - v->lod->times()[size_t(*i)] > 3 * v->periodNs) return std::nullopt;
    return double(v->lod->values()[size_t(*i)]);
}

} // namespace stepscope
