#include "models/store/session_extents.h"

#include "models/store/session_reader.h"
#include "models/store/sqlite_statement.h"
#include "models/store/timeline_lod_store.h"

#include <algorithm>
#include <map>

namespace stepscope {

std::vector<RunExtent> storedRunExtents(const SessionStore &store) {
    std::vector<RunExtent> out;
    SessionReader reader(store);
    const bool summarised = TimelineLodStore(store).upToDate();
    SqliteStatement fromLod(store.db(), "SELECT min(l.start_ns), max(l.end_ns) FROM timeline_lod_track l "
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

std::optional<NsRange> storedMetricExtent(const SessionStore &store) {
    std::map<int64_t, int64_t> offsets;
    for (const SourceRow &src : SessionReader(store).sources()) offsets[src.id] = src.clockOffsetNs;
    SqliteStatement first(store.db(), "SELECT min(t_ns) FROM metric_sample WHERE series_id = ?1");
    SqliteStatement last(store.db(), "SELECT max(t_ns) FROM metric_sample WHERE series_id = ?1");
    SqliteStatement series(store.db(), "SELECT id, source_id FROM metric_series");
    NsRange out;
    bool any = false;
    while (series.step()) {
        first.reset();
        last.reset();
        first.bind(1, series.columnInt(0));
        last.bind(1, series.columnInt(0));
        if (!first.step() || first.columnIsNull(0) || !last.step()) continue;
        const int64_t offset = offsets[series.columnInt(1)];
        const int64_t lo = first.columnInt(0) + offset, hi = last.columnInt(0) + offset;
        out.start = any ? std::min(out.start, lo) : lo;
        out.end = any ? std::max(out.end, hi) : hi;
        any = true;
    }
    return any ? std::optional<NsRange>(out) : std::nullopt;
}

} // namespace stepscope
