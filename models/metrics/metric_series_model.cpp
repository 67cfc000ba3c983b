#include "models/metrics/metric_series_model.h"

#include "models/metrics/metric_series_loader.h"
#include "models/qt/session_model.h"

#include <algorithm>

namespace stepscope {

MetricSeriesModel::MetricSeriesModel(SessionModel *session, QObject *parent) : QObject(parent), m_session(session) {
    if (m_session) {
        connect(m_session, &SessionModel::sessionChanged, this, &MetricSeriesModel::reload);
        reload();
    }
}

void MetricSeriesModel::reload() {
    std::vector<MetricSeries> loaded;
    if (m_session && m_session->store()) {
        try {
            loaded = MetricSeriesLoader::load(*m_session->store());
        } catch (const StoreError &) {
            loaded.clear();  // an unreadable session shows no metrics; the session view reports why
        }
    }
    setSeries(std::move(loaded));
}

void MetricSeriesModel::setSeries(std::vector<MetricSeries> series) {
    m_series = std::move(series);
    m_extent = {};
    bool any = false;
    for (const MetricSeries &s : m_series) {
        if (s.lod.size() == 0) continue;
        const int64_t lo = s.lod.times().front(), hi = s.lod.times().back();
        m_extent.start = any ? std::min(m_extent.start, lo) : lo;
        m_extent.end = any ? std::max(m_extent.end, hi) : hi;
        any = true;
    }
    emit seriesChanged();
}

int64_t MetricSeriesModel::sampleCount() const {
    int64_t n = 0;
    for (const MetricSeries &s : m_series) n += s.lod.size();
    return n;
}

size_t MetricSeriesModel::memoryBytes() const {
    size_t n = 0;
    for (const MetricSeries &s : m_series) n += s.lod.memoryBytes();
    return n;
}

std::optional<double> MetricSeriesModel::valueAt(int i, int64_t t) const {
    const MetricSeries &s = series(i);
    const int64_t period = s.info.periodNs;
    // A sample describes the period before its time stamp (nvidia-smi: "% of time over the past
    // sample period"): instant t belongs to the first sample at or after it, up to a period ahead.
    const int64_t at = period > 0 ? t + period - 1 : t;
    const auto idx = s.lod.indexAtOrBefore(at);
    if (!idx) return std::nullopt;
    const int64_t age = at - s.lod.times()[size_t(*idx)];
    // A single-sample series (no period) is shown only at its own instant's neighbourhood.
    if (age > 3 * std::max<int64_t>(period, 1'000'000'000)) return std::nullopt;
    return double(s.lod.values()[size_t(*idx)]);
}

} // namespace stepscope
