#include "models/metrics/metric_series_model.h"

#include "models/metrics/metric_series_loader.h"
#include "models/qt/session_model.h"
#include "models/store/sample_reader.h"

#include <algorithm>
#include <filesystem>

namespace stepscope {

MetricSeriesModel::MetricSeriesModel(SessionModel *session, QObject *parent) : QObject(parent), m_session(session) {
    if (m_session) {
        connect(m_session, &SessionModel::sessionChanged, this, &MetricSeriesModel::reload);
        reload();
    }
}

void MetricSeriesModel::reload() {
    m_loader.cancel();  // the previous session's load, if any
    m_loading = false;
    SessionStore *store = m_session ? m_session->store() : nullptr;
    if (!store) return setSeries({});
    // The largest rowid bounds the sample count without counting them (one index probe).
    int64_t samples = 0;
    try {
        samples = SampleReader(*store).metricSampleBound();
    } catch (const StoreError &) {
        samples = 0;
    }
    std::error_code ec;
    if (samples <= m_backgroundSamples || !std::filesystem::is_regular_file(store->path(), ec)) {
        std::vector<MetricSeries> loaded;
        try {
            loaded = MetricSeriesLoader::load(*store);
        } catch (const std::exception &) {
            loaded.clear();  // an unreadable (or absurdly sized) session shows no metrics; the session view says why
        }
        return setSeries(std::move(loaded));
    }
    m_loading = true;
    setSeries({});  // the previous session's series must not stay on screen meanwhile
    m_loader.start([this, path = store->path()](const CancelToken &cancel) -> BackgroundJob::Deliver {
        std::vector<MetricSeries> loaded;
        try {
            const SessionStore readOnly(path, SessionStore::Mode::ReadOnly);
            loaded = MetricSeriesLoader::load(readOnly, cancel);
        } catch (const std::exception &) {  // StoreError, or bad_alloc from a tampered count: never terminate
            loaded.clear();
        }
        auto result = std::make_shared<std::vector<MetricSeries>>(std::move(loaded));
        return [this, result] {
            m_loading = false;
            setSeries(std::move(*result));
        };
    });
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
    // A series of changes (no period, several samples: allocator totals) holds each value until
    // the next sample, up to its last.
    if (period <= 0 && s.lod.size() > 1) return t <= s.lod.times().back() ? std::optional<double>(s.lod.values()[size_t(*idx)]) : std::nullopt;
    const int64_t age = at - s.lod.times()[size_t(*idx)];
    // A single-sample series (no period) is shown only at its own instant's neighbourhood.
    if (age > 3 * std::max<int64_t>(period, 1'000'000'000)) return std::nullopt;
    return double(s.lod.values()[size_t(*idx)]);
}

} // namespace stepscope
