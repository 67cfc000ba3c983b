#include "models/timeline/timeline_model.h"

#include "models/metrics/metric_lod.h"
#include "models/store/session_reader.h"
#include "models/timeline/timeline_item_folder.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace stepscope {

namespace {
// Above this many events in view a track is drawn from the summaries, below from exact slices.
constexpr int64_t kExactBudget = 4000;

QString subgroupTitle(const TrackRow &t) {
    if (t.kind == TrackKind::GpuStream) return t.device ? QStringLiteral("GPU %1").arg(*t.device) : QStringLiteral("GPU");
    if (t.kind == TrackKind::HostThread) return QStringLiteral("Host");
    if (t.kind == TrackKind::Counter) return QStringLiteral("Counters");
    return QStringLiteral("Other");
}
} // namespace

TimelineModel::TimelineModel(QObject *parent) : QObject(parent), m_loader(new TimelineWindowLoader(this)) {
    connect(m_loader, &TimelineWindowLoader::ready, this, [this] {
        installResults();
        emit detailLoaded();
    });
}
TimelineModel::~TimelineModel() = default;

int TimelineModel::trackIndex(int64_t trackId) const {
    auto it = m_trackIndex.find(trackId);
    return it == m_trackIndex.end() ? -1 : it->second;
}

void TimelineModel::load(SessionStore *store) {
    m_loader->close();
    ++m_generation;
    m_requested.clear();
    m_syncOnly.clear();
    m_store = store;
    m_tracks.clear();
    m_groups.clear();
    m_steps.clear();
    m_recordedSteps.clear();
    m_runOffsets.clear();
    m_trackIndex.clear();
    m_values.clear();
    m_counterLods.clear();
    m_names.clear();
    m_colors.clear();
    m_extent = {};
    m_sliceCount = 0;
    m_lod.clear();
    m_slices.setStore(store);
    m_lookup = store ? std::make_unique<SliceLookup>(*store) : nullptr;
    if (store) {
        m_lod.load(*store);
        readTracks();
        if (m_background) m_loader->open(store->path());
    }
    addMetricTracks();
    emit modelReset();
}

void TimelineModel::readTracks() {
    SessionReader reader(*m_store);
    for (const RunRow &run : reader.runs()) {
        const int runGroup = int(m_groups.size());
        m_groups.push_back({QString::fromStdString(run.name.empty() ? run.host : run.name), -1, run.id, run.rank, {}, {}});
        std::map<QString, int> subgroups;  // title -> group index, in first-seen order below
        for (const TrackRow &row : reader.tracks(run.id)) {
            const TrackLod *lod = m_lod.track(row.id);
            std::unique_ptr<MetricLod> counter;
            if (row.kind == TrackKind::Counter) {
                counter = readCounterSamples(row.id, run.timeBaseNs);
                if (!counter) continue;
            } else if (!lod || lod->slices == 0) {
                continue;  // empty tracks: nothing to draw
            }
            const QString title = subgroupTitle(row);
            auto it = subgroups.find(title);
            if (it == subgroups.end()) {
                it = subgroups.emplace(title, int(m_groups.size())).first;
                m_groups[size_t(runGroup)].children.push_back(int(m_groups.size()));
                m_groups.push_back({title, runGroup, run.id, std::nullopt, {}, {}});
            }
            if (counter) {
                addCounterTrack(row, run, it->second, std::move(counter));
                continue;
            }
            TimelineTrack t;
            t.id = row.id;
            t.runId = run.id;
            t.group = it->second;
            t.name = QString::fromStdString(row.name);
            t.kind = QString::fromLatin1(trackKindName(row.kind));
            t.device = row.device;
            t.depthCount = std::clamp(lod->depthCount, 1, kMaxTimelineDepth);
            t.sliceCount = lod->slices;
            t.baseNs = run.timeBaseNs;
            m_trackIndex[t.id] = int(m_tracks.size());
            m_groups[size_t(it->second)].tracks.push_back(int(m_tracks.size()));
            m_tracks.push_back(t);
            m_sliceCount += lod->slices;
            const NsRange r{t.baseNs + lod->startNs, t.baseNs + lod->endNs};
            m_extent = m_extent.valid() ? NsRange{std::min(m_extent.start, r.start), std::max(m_extent.end, r.end)} : r;
        }
        for (const StepRow &s : reader.steps(run.id)) m_steps.push_back({run.id, s.step, s.startNs, s.durNs});
    }
    std::sort(m_steps.begin(), m_steps.end(), [](const TimelineStep &a, const TimelineStep &b) { return a.startNs < b.startNs; });
    m_recordedSteps = m_steps;
}

NsRange TimelineModel::stepRange(int64_t step) const {
    NsRange r;
    for (const TimelineStep &s : m_steps) {
        if (s.step != step) continue;
        const NsRange sr{s.startNs, s.startNs + s.durNs};
        r = r.valid() ? NsRange{std::min(r.start, sr.start), std::max(r.end, sr.end)} : sr;
    }
    return r;
}

void TimelineModel::beginFrame(double loadBudgetMs) {
    m_loadBudgetMs = loadBudgetMs;
    m_incomplete = false;
    m_frameClock.start();
}

void TimelineModel::fetch(int track, NsRange range, double nsPerPixel, std::vector<TimelineItem> &out) {
    if (track < 0 || track >= int(m_tracks.size()) || !range.valid()) return;
    const TimelineTrack &t = m_tracks[size_t(track)];
    if (t.isValueTrack()) return;  // drawn from valueSeries()
    const TrackLod *lod = m_lod.track(t.id);
    if (!lod) return;
    const int64_t t0 = range.start - t.baseNs, t1 = range.end - t.baseNs;
    if (const auto *w = m_slices.cached(t.id, t0, t1)) return fetchExact(t, *w, t0, t1, nsPerPixel, out);
    const bool inFrame = m_frameClock.isValid();
    const bool background = inFrame && m_loader->isOpen() && !m_syncOnly.count(t.id);
    const bool budgetLeft = !inFrame || m_frameClock.nsecsElapsed() < int64_t(m_loadBudgetMs * 1e6);
    if (!lod->summarised()) {
        // Small track: read whole, once (a few thousand rows at most).
        if (background) return requestWindow(t.id, lod, t0, t1, t0, t1);  // drawn when it arrives
        if (!budgetLeft) {
            m_incomplete = true;
            return;
        }
        return fetchExact(t, m_slices.load(t.id, lod, t0, t1), t0, t1, nsPerPixel, out);
    }
    // The coarsest level whose buckets are at most a pixel wide (never finer than what is kept).
    int level = lod->finestLevel;
    while (level < lod->coarsestLevel() && double(lodWidth(level + 1)) <= nsPerPixel) ++level;
    if (lod->estimateCount(t0, t1) <= kExactBudget) {
        // Buffer a quarter span each side for panning, unless that would read too much.
        const int64_t margin = (t1 - t0) / 4;
        const bool wide = lod->estimateCount(t0 - margin, t1 + margin) <= kExactBudget * 3 / 2;
        const int64_t lo = wide ? t0 - margin : t0, hi = (wide ? t1 + margin : t1) + 1;
        if (background) requestWindow(t.id, lod, lo, hi, t0, t1);
        else if (budgetLeft) return fetchExact(t, m_slices.load(t.id, lod, lo, hi), t0, t1, nsPerPixel, out);
        else m_incomplete = true;
    }
    fetchSummary(t, *lod, level, t0, t1, nsPerPixel, out);
}

void TimelineModel::requestWindow(int64_t trackId, const TrackLod *lod, int64_t lo, int64_t hi, int64_t t0, int64_t t1) {
    auto it = m_requested.find(trackId);
    if (it != m_requested.end() && (it->second.whole || (it->second.lo <= t0 && t1 <= it->second.hi))) return;  // on its way
    const TimelineSliceCache::Span span = TimelineSliceCache::span(lod, lo, hi);
    m_requested[trackId] = span;
    m_loader->request({trackId, span.queryFrom(), span.queryTo(), m_generation});
}

void TimelineModel::installResults() {
    for (TimelineWindowLoader::Result &r : m_loader->take()) {
        if (r.request.generation != m_generation) continue;
        const int64_t id = r.request.trackId;
        auto it = m_requested.find(id);
        const bool latest = it != m_requested.end() && it->second.queryFrom() == r.request.lo && it->second.queryTo() == r.request.hi;
        if (r.failed) {
            m_syncOnly[id] = true;  // read it directly from now on
        } else if (latest) {
            m_slices.install(id, m_lod.track(id), it->second, std::move(r.slices), &r.flows);
        }
        if (latest || r.failed) m_requested.erase(id);
    }
}

bool TimelineModel::finishLoading(int timeoutMs) {
    if (m_loader->isOpen()) m_loader->waitIdle(timeoutMs);
    installResults();
    return m_requested.empty();
}

void TimelineModel::fetchExact(const TimelineTrack &t, const TimelineSliceCache::Window &w, int64_t t0, int64_t t1,
                               double nsPerPixel, std::vector<TimelineItem> &out) const {
    TimelineItemFolder folder(t.baseNs, nsPerPixel, out, uint32_t(std::max(1, t.depthCount) - 1));
    for (const RawSlice &s : w.slices) {
        if (s.start > t1) break;
        if (s.start + s.dur < t0) continue;
        folder.addSlice(s.start, s.dur, s.id, s.name, s.depth);
    }
    folder.finish();
}

void TimelineModel::fetchSummary(const TimelineTrack &t, const TrackLod &lod, int level, int64_t t0, int64_t t1,
                                 double nsPerPixel, std::vector<TimelineItem> &out) const {
    const int shift = lodShift(level);
    const int64_t width = lodWidth(level);
    TimelineItemFolder folder(t.baseNs, nsPerPixel, out, uint32_t(std::max(1, t.depthCount) - 1));
    // Long slices that began before the range and cover its start: the last wide cell per depth.
    {
        const auto &finest = lod.levels.front();
        const int64_t before = (t0 >> shift) << shift;
        for (const auto &list : lod.wide) {
            auto it = std::lower_bound(list.begin(), list.end(), before,
                                       [&](uint32_t i, int64_t x) { return finest[i].longStart < x; });
            if (it == list.begin()) continue;
            const LodCell &c = finest[*std::prev(it)];
            if (c.longStart + c.longDur > before) folder.addSlice(c.longStart, c.longDur, -1, c.longName, c.depth);
        }
    }
    const double minWidth = std::max(1.0, nsPerPixel);
    for (const LodCell &c : lod.cells(level, t0 >> shift, t1 >> shift)) {
        const int64_t bucketStart = c.bucket << shift;
        if (c.count == 1) {
            folder.addSlice(c.longStart, c.longDur, -1, c.longName, c.depth);
        } else if (double(c.longDur) >= minWidth) {
            // The longest is drawn as itself; the others in the cell started before it.
            folder.addGroup(bucketStart, std::max(bucketStart, c.longStart), c.count - 1, c.busyNs - c.longDur,
                            c.longName, 0, c.depth);
            folder.addSlice(c.longStart, c.longDur, -1, c.longName, c.depth);
        } else {
            folder.addGroup(bucketStart, bucketStart + width, c.count, c.busyNs, c.longName, c.longDur, c.depth);
        }
    }
    folder.finish();
}

} // namespace stepscope
