#include "models/qt/session_model.h"

#include "models/timeline/timeline_lod_writer.h"

#include <algorithm>
#include <map>

namespace stepscope {

void SessionModel::setStore(std::unique_ptr<SessionStore> store, QString previewNote) {
    m_store = std::move(store);
    m_previewNote = m_store ? std::move(previewNote) : QString();
    emit sessionChanged();
}

void SessionModel::close() {
    if (!m_store) return;
    m_store.reset();
    m_previewNote.clear();
    emit sessionChanged();
}

std::vector<SessionModel::RunExtent> SessionModel::runExtents() const {
    std::vector<RunExtent> out;
    if (!m_store) return out;
    SessionReader reader(*m_store);
    // The timeline's summary knows every track's span: a few rows instead of a scan of every slice
    // (2 s at 10 M events). Only when it is current; otherwise the slices are read.
    const bool summarised = TimelineLodWriter(*m_store).upToDate();
    SqliteStatement fromLod(m_store->db(), "SELECT min(l.start_ns), max(l.end_ns) FROM timeline_lod_track l "
                                           "JOIN track t ON t.id = l.track_id WHERE t.run_id = ?1");
    for (const RunRow &run : reader.runs()) {
        if (summarised) {
            fromLod.reset();
            fromLod.bind(1, run.id);
            if (fromLod.step() && !fromLod.columnIsNull(0))
                out.push_back({run.id, {fromLod.columnInt(0) + run.timeBaseNs, fromLod.columnInt(1) + run.timeBaseNs}});
            continue;
        }
        if (const NsRange r = reader.runTimeRange(run.id); r.valid()) out.push_back({run.id, r});
    }
    return out;
}

NsRange SessionModel::extent() const {
    if (!m_store) return {};
    SessionReader reader(*m_store);
    NsRange out;
    bool any = false;
    auto add = [&](int64_t lo, int64_t hi) {
        out.start = any ? std::min(out.start, lo) : lo;
        out.end = any ? std::max(out.end, hi) : hi;
        any = true;
    };
    for (const RunExtent &r : runExtents()) add(r.range.start, r.range.end);
    // Metrics: each series' first and last sample through its (series_id, t_ns) index.
    std::map<int64_t, int64_t> offsets;
    for (const SourceRow &src : reader.sources()) offsets[src.id] = src.clockOffsetNs;
    SqliteStatement first(m_store->db(), "SELECT min(t_ns) FROM metric_sample WHERE series_id = ?1");
    SqliteStatement last(m_store->db(), "SELECT max(t_ns) FROM metric_sample WHERE series_id = ?1");
    SqliteStatement series(m_store->db(), "SELECT id, source_id FROM metric_series");
    while (series.step()) {
        first.reset();
        last.reset();
        first.bind(1, series.columnInt(0));
        last.bind(1, series.columnInt(0));
        if (!first.step() || first.columnIsNull(0) || !last.step()) continue;
        const int64_t offset = offsets[series.columnInt(1)];
        add(first.columnInt(0) + offset, last.columnInt(0) + offset);
    }
    return any ? out : NsRange{};
}

} // namespace stepscope
