#include "models/analysis/engine/step_projection.h"

#include "models/analysis/rules/category_rules.h"

#include <algorithm>

namespace stepscope {
namespace {

// Host calls that block until GPU work has finished (CUDA and HIP runtime/driver names).
bool isBlockingSync(std::string_view name) {
    static constexpr std::string_view kNames[] = {
        "cudaStreamSynchronize", "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaMemcpy", "cuStreamSynchronize",
        "cuCtxSynchronize", "cuEventSynchronize", "hipStreamSynchronize", "hipDeviceSynchronize",
        "hipEventSynchronize", "hipMemcpy"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

// One launching thread's removed time inside one step, and how syncs changed its shift.
struct ThreadShift {
    IntervalList removed;                 // the cause's slices on this thread, clipped to the step
    std::vector<int64_t> removedPrefix;   // removed time before removed[i]
    int64_t base = 0;                     // shift inherited from the thread that woke it (see below)
    bool baseSet = false;
    std::vector<std::pair<int64_t, int64_t>> offsetAfter;  // (sync end, shift there minus removed time before)

    bool inside(int64_t t) const {
        auto it = std::upper_bound(removed.begin(), removed.end(), t, [](int64_t v, const Interval &i) { return v < i.start; });
        return it != removed.begin() && t < std::prev(it)->end;
    }
    int64_t removedBefore(int64_t t) const {
        auto it = std::upper_bound(removed.begin(), removed.end(), t, [](int64_t v, const Interval &i) { return v < i.start; });
        if (it == removed.begin()) return 0;
        const size_t i = size_t(it - removed.begin()) - 1;
        return removedPrefix[i] + std::min(t, removed[i].end) - removed[i].start;
    }
    // How much earlier the thread reaches original time t.
    int64_t shift(int64_t t) const {
        auto it = std::upper_bound(offsetAfter.begin(), offsetAfter.end(), t, [](int64_t v, const auto &p) { return v < p.first; });
        return (it == offsetAfter.begin() ? base : std::prev(it)->second) + removedBefore(t);
    }
};

bool contains(const std::vector<int> &v, int x) { return std::find(v.begin(), v.end(), x) != v.end(); }

} // namespace

StepProjector::StepProjector(const RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types)
    : m_ra(ra), m_trace(trace), m_types(types) {
    m_threadOfTrack.assign(trace.tracks.size(), -1);
    for (const TraceSlice &s : trace.slices) {
        if (s.gpu || s.correlation < 0) continue;
        int32_t &thread = m_threadOfTrack[size_t(s.track)];
        if (thread < 0) {
            thread = int32_t(m_launchThreads.size());
            m_launchThreads.push_back(s.track);
        }
        m_launches.emplace(s.correlation, Launch{s.start, thread});
    }
    for (const auto &[id, text] : trace.strings)
        if (isBlockingSync(text)) m_syncNames.insert(id);
}

std::vector<int64_t> StepProjector::project(const std::vector<Category> &causes, std::string &method) const {
    std::vector<int> causeTypes;
    bool hostOnly = true;
    for (Category c : causes) {
        const int t = m_ra.categoryType[size_t(c)];
        if (t >= 0) causeTypes.push_back(t);
        hostOnly = hostOnly && !isDeviceCategory(c) && c != Category::Other;
    }
    if (hostOnly && !causeTypes.empty() && !m_launches.empty() && launchThreadShare(causeTypes) >= 0.5) {
        method = "replay";
        // Launch overhead is removed as time, not as work: the kernels it launched still run.
        const bool ownsWork = !(causes.size() == 1 && causes.front() == Category::KernelLaunch);
        return projectReplay(causeTypes, ownsWork);
    }
    method = "exposed";
    return projectExposed(causes);
}

std::vector<int64_t> StepProjector::projectExposed(const std::vector<Category> &causes) const {
    const auto &steps = m_ra.steps.steps;
    const Breakdown &b = m_ra.breakdown;
    std::vector<int> causeTypes;
    for (Category c : causes)
        if (m_ra.categoryType[size_t(c)] >= 0) causeTypes.push_back(m_ra.categoryType[size_t(c)]);
    // What must still run: the other GPU work, and host work outside the cause's time (host activity
    // during the cause — a thread waiting on a copy, transforms nested in a DataLoader call — goes with it).
    IntervalList cause, others, windows;
    for (int t : causeTypes) cause = intervals::unite(cause, b.unions[size_t(t)]);
    std::vector<char> deviceType(b.unions.size(), 0);
    for (int c = 0; c < kCategoryCount; ++c)
        if (const int t = m_ra.categoryType[size_t(c)]; t >= 0 && isDeviceCategory(Category(c))) deviceType[size_t(t)] = 1;
    for (size_t t = 0; t < b.unions.size(); ++t)
        if (!contains(causeTypes, int(t)))
            others = intervals::unite(others, deviceType[t] ? b.unions[t] : intervals::subtract(b.unions[t], cause));
    for (const AnalysisStep &s : steps) windows.push_back({s.start, s.end});
    const std::vector<int64_t> otherPerStep = intervals::overlapPerWindow(others, windows);
    std::vector<int64_t> out(steps.size());
    for (size_t k = 0; k < steps.size(); ++k) {
        int64_t exposed = 0;
        for (int t : causeTypes)
            if (k < b.perStepNs.size()) exposed += b.perStepNs[k][size_t(t)];
        out[k] = std::min(steps[k].dur(), std::max(steps[k].dur() - exposed, otherPerStep[k]));
    }
    return out;
}

double StepProjector::launchThreadShare(const std::vector<int> &causeTypes) const {
    IntervalList all, onLaunchThreads, windows;
    for (const AnalysisStep &s : m_ra.steps.steps) windows.push_back({s.start, s.end});
    for (int t : causeTypes) all = intervals::unite(all, m_ra.breakdown.unions[size_t(t)]);
    for (int32_t track : m_launchThreads) {
        const TraceTrack &tr = m_trace.tracks[size_t(track)];
        for (size_t i = tr.first; i < tr.first + tr.count; ++i)
            if (contains(causeTypes, m_types[i])) onLaunchThreads.push_back({m_trace.slices[i].start, m_trace.slices[i].end});
    }
    intervals::normalize(onLaunchThreads);
    const int64_t whole = intervals::total(all);
    return whole > 0 ? double(intervals::total(intervals::intersect(onLaunchThreads, windows))) / double(whole) : 0.0;
}

std::vector<int64_t> StepProjector::projectReplay(const std::vector<int> &causeTypes, bool causeOwnsItsGpuWork) const {
    // The run is re-timed as one timeline, not step by step: once a phase that waited on the device
    // is gone (a callback reading values with .item(), a checkpoint copying weights to the host), the
    // host goes on to the next step while the GPU still runs this one, as a real loop does; a step is
    // then bounded by the GPU's own work, not by the GPU's work plus the host's (issue #32).
    const auto &steps = m_ra.steps.steps;
    const auto &slices = m_trace.slices;
    const size_t n = steps.size();
    std::vector<ThreadShift> threads(m_launchThreads.size());
    std::vector<int32_t> primary(n, -1);        // per step: the launching thread that loses the most time
    std::vector<char> removesTime(threads.size(), 0);
    std::vector<std::vector<char>> active(n, std::vector<char>(threads.size(), 0));
    struct Sync { int64_t a, b; int32_t thread; };
    struct Op { int64_t start, end, launch; int32_t thread; int32_t step; bool launched; };
    std::vector<Sync> syncs;
    for (size_t k = 0; k < n; ++k) {
        const int64_t w0 = steps[k].start, w1 = steps[k].end;
        int64_t primaryRemoved = 0;
        for (size_t th = 0; th < threads.size(); ++th) {
            IntervalList removed;
            const TraceTrack &tr = m_trace.tracks[size_t(m_launchThreads[th])];
            const auto first = slices.begin() + ptrdiff_t(tr.first), last = first + ptrdiff_t(tr.count);
            auto it = std::lower_bound(first, last, w0, [](const TraceSlice &x, int64_t v) { return x.start < v; });
            // Slices that began before the step and reach into it are the ancestors of the one before it.
            if (it != first)
                for (int32_t q = int32_t(std::prev(it) - slices.begin()); q >= 0; q = slices[size_t(q)].parent)
                    if (slices[size_t(q)].end > w0 && contains(causeTypes, m_types[size_t(q)]))
                        removed.push_back({w0, std::min(slices[size_t(q)].end, w1)});
            for (; it != last && it->start < w1; ++it) {
                const size_t i = size_t(it - slices.begin());
                if (contains(causeTypes, m_types[i])) removed.push_back({it->start, std::min(it->end, w1)});
                else if (m_syncNames.count(it->nameId)) syncs.push_back({it->start, it->end, int32_t(th)});
            }
            intervals::normalize(removed);
            const int64_t sum = intervals::total(removed);
            if (sum > primaryRemoved) primary[k] = int32_t(th), primaryRemoved = sum;
            if (sum > 0) active[k][th] = removesTime[th] = 1;
            threads[th].removed.insert(threads[th].removed.end(), removed.begin(), removed.end());
        }
    }
    // A step without the cause follows the thread that lost the most time over the run (the loop's
    // own thread): helper threads are woken by it there too.
    int32_t loopThread = -1;
    int64_t loopRemoved = 0;
    for (size_t th = 0; th < threads.size(); ++th)
        if (const int64_t sum = intervals::total(threads[th].removed); sum > loopRemoved) loopThread = int32_t(th), loopRemoved = sum;
    for (int32_t &p : primary)
        if (p < 0) p = loopThread;
    for (ThreadShift &ts : threads) {
        intervals::normalize(ts.removed);
        int64_t sum = 0;
        for (const Interval &iv : ts.removed) ts.removedPrefix.push_back(sum), sum += iv.length();
    }
    std::vector<int64_t> hostStarts;
    for (const AnalysisStep &st : steps) hostStarts.push_back(st.hostStart);
    auto stepOf = [&](int64_t t) -> int32_t {  // the step whose host span holds t, else -1
        const auto pos = std::upper_bound(hostStarts.begin(), hostStarts.end(), t);
        if (pos == hostStarts.begin()) return -1;
        const size_t k = size_t(pos - hostStarts.begin()) - 1;
        return t < std::max(steps[k].hostEnd, steps[k].end) ? int32_t(k) : -1;
    };
    // Syncs inside removed slices go with them; nested syncs (runtime over driver) count once.
    std::sort(syncs.begin(), syncs.end(), [](const Sync &x, const Sync &y) { return x.a < y.a; });
    std::vector<int64_t> lastSyncEnd(threads.size(), INT64_MIN);
    std::erase_if(syncs, [&](const Sync &sy) {
        if ((causeOwnsItsGpuWork && threads[size_t(sy.thread)].inside(sy.a)) || sy.a < lastSyncEnd[size_t(sy.thread)]) return true;
        lastSyncEnd[size_t(sy.thread)] = sy.b;
        return false;
    });
    for (const Sync &sy : syncs)
        if (const int32_t k = stepOf(sy.a); k >= 0) active[size_t(k)][size_t(sy.thread)] = 1;

    const int64_t runStart = steps.front().start, runEnd = steps.back().end;
    std::vector<std::vector<Op>> streams;
    for (const TraceTrack &tr : m_trace.tracks) {
        if (!tr.gpu || tr.count == 0) continue;
        const auto first = slices.begin() + ptrdiff_t(tr.first), last = first + ptrdiff_t(tr.count);
        auto it = std::lower_bound(first, last, runStart, [](const TraceSlice &x, int64_t v) { return x.start < v; });
        std::vector<Op> ops;
        for (; it != last && it->start < runEnd; ++it) {
            // Ops are the GPU slices that count (not the profiler's gpu_user_annotation spans over
            // them); an op nested in another op moves with it.
            const size_t i = size_t(it - slices.begin());
            if (m_types[i] == int8_t(Preset::kIgnore)) continue;
            bool nested = false;
            for (int32_t q = it->parent; q >= 0 && !nested; q = slices[size_t(q)].parent)
                nested = m_types[size_t(q)] != int8_t(Preset::kIgnore);
            if (nested) continue;
            const auto l = it->correlation >= 0 ? m_launches.find(it->correlation) : m_launches.end();
            if (l != m_launches.end()) {
                const int32_t k = stepOf(l->second.hostStart);
                ops.push_back({it->start, it->end, l->second.hostStart, l->second.thread, k, true});
                if (k >= 0) active[size_t(k)][size_t(l->second.thread)] = 1;
            } else {
                ops.push_back({it->start, it->end, it->start, -1, stepOf(it->start), false});
            }
        }
        if (!ops.empty()) streams.push_back(std::move(ops));
    }

    // Re-time stream by stream in launch order; before each sync, every op launched before it.
    std::vector<size_t> cursor(streams.size(), 0);
    std::vector<int64_t> prevEnd(streams.size(), runStart), prevEndNew(streams.size(), runStart);
    std::vector<int64_t> gpuEndNewOfStep(n, INT64_MIN);
    std::vector<int32_t> baseStep(threads.size(), -1);
    int64_t gpuEnd = runStart, gpuEndNew = runStart;  // over the ops handled so far
    auto advance = [&](int64_t before) {
        for (size_t q = 0; q < streams.size(); ++q) {
            for (; cursor[q] < streams[q].size() && streams[q][cursor[q]].launch < before; ++cursor[q]) {
                const Op &op = streams[q][cursor[q]];
                const int64_t queued = op.start - std::max(op.launched ? op.launch : op.start, prevEnd[q]);
                prevEnd[q] = op.end;
                gpuEnd = std::max(gpuEnd, op.end);
                if (op.launched && causeOwnsItsGpuWork && threads[size_t(op.thread)].inside(op.launch)) continue;
                int64_t startNew;
                if (op.launched) {
                    ThreadShift &ts = threads[size_t(op.thread)];
                    // A launching thread without removed time of its own (the autograd thread running
                    // backward) is woken by the step's primary thread: it starts as much earlier as that one.
                    if (op.step >= 0 && baseStep[size_t(op.thread)] != op.step && !removesTime[size_t(op.thread)]) {
                        baseStep[size_t(op.thread)] = op.step;
                        const int32_t p = primary[size_t(op.step)];
                        ts.base = p >= 0 && p != op.thread ? threads[size_t(p)].shift(op.launch) : ts.base;
                    }
                    const int64_t launchNew = op.launch < runStart ? op.launch : op.launch - ts.shift(op.launch);
                    startNew = std::max(launchNew, prevEndNew[q]) + queued;
                } else {
                    startNew = prevEndNew[q] + queued;  // no launch known: it keeps its place behind its stream
                }
                prevEndNew[q] = startNew + (op.end - op.start);
                gpuEndNew = std::max(gpuEndNew, prevEndNew[q]);
                if (op.step >= 0) gpuEndNewOfStep[size_t(op.step)] = std::max(gpuEndNewOfStep[size_t(op.step)], prevEndNew[q]);
            }
        }
    };
    for (const Sync &sy : syncs) {
        advance(sy.a);
        ThreadShift &ts = threads[size_t(sy.thread)];
        const int64_t shiftAtStart = ts.shift(sy.a);
        // A sync that waited for the GPU ends when the (re-timed) GPU work does, plus its own overhead.
        const int64_t endNew = gpuEnd <= sy.b ? std::max(sy.a - shiftAtStart, gpuEndNew) + (sy.b - std::max(sy.a, gpuEnd))
                                              : sy.b - shiftAtStart;
        ts.offsetAfter.emplace_back(sy.b, (sy.b - endNew) - ts.removedBefore(sy.b));
    }
    advance(INT64_MAX);

    // Each step on the new timeline: it starts when the host reaches it (or the previous step ends)
    // and ends at the later of its host end and its last GPU op, as StepTimeline measures steps.
    std::vector<int64_t> out(n);
    int64_t prevNewEnd = INT64_MIN, total = 0, totalNew = 0;
    for (size_t k = 0; k < n; ++k) {
        const AnalysisStep &st = steps[k];
        // The step's own thread is the one that lost the cause's time (the loop that runs the
        // callback, the checkpoint, the input); a helper thread (autograd) only follows it. Without
        // one, the active thread that moved least.
        int64_t shiftStart = -1, shiftEnd = -1;
        for (size_t th = 0; th < threads.size(); ++th) {
            const bool own = primary[k] >= 0 ? int32_t(th) == primary[k] : bool(active[k][th]);
            if (!own) continue;
            const int64_t a = threads[th].shift(st.hostStart), b = threads[th].shift(st.hostEnd);
            shiftStart = shiftStart < 0 ? a : std::min(shiftStart, a);
            shiftEnd = shiftEnd < 0 ? b : std::min(shiftEnd, b);
        }
        const int64_t hostStartNew = st.hostStart - std::max<int64_t>(0, shiftStart);
        const int64_t hostEndNew = st.hostEnd - std::max<int64_t>(0, shiftEnd);
        const int64_t startNew = std::max(prevNewEnd, hostStartNew);
        const int64_t endNew = std::max({startNew, hostEndNew, gpuEndNewOfStep[k]});
        out[k] = endNew - startNew;
        prevNewEnd = endNew;
        total += st.dur();
        totalNew += out[k];
    }
    if (totalNew > total)  // the replay never makes the run slower: keep it as it was
        for (size_t k = 0; k < n; ++k) out[k] = steps[k].dur();
    return out;
}

} // namespace stepscope
