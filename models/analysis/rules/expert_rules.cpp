#include "models/analysis/rules/expert_rules.h"

#include "models/analysis/rules/finding_rule_book.h"
#include "models/analysis/rules/finding_rule_ids.h"
#include "models/analysis/rules/finding_rules.h"
#include "models/analysis/engine/interval_set.h"
#include "models/analysis/engine/type_refinement.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <unordered_map>

namespace stepscope {

namespace {

double kernelPercentile(std::vector<double> v, double p) {
    if (v.empty()) return 0;
    const size_t k = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
    std::nth_element(v.begin(), v.begin() + ptrdiff_t(k), v.end());
    return v[k];
}

// A threshold as the rule's title quotes it: "500 ms".
std::string limitMs(double ms) {
    char b[32];
    std::snprintf(b, sizeof b, "%g ms", ms);
    return b;
}

std::string msText(int64_t ns) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f ms", double(ns) / 1e6);
    return b;
}

// Evidence and a finding for time that lies in the steps: which steps hold it, their range.
Finding inSteps(const RunAnalysis &ra, const IntervalList &where, Finding f) {
    for (const AnalysisStep &s : ra.steps.steps) {
        if (intervals::total(intervals::intersect(where, IntervalList{{s.start, s.end}})) == 0) continue;
        if (f.steps.empty()) f.startNs = s.start;
        f.endNs = s.end;
        f.steps.push_back(s.step);
    }
    return f;
}

FindingSeverity expertSeverity(double pct, double threshold) {
    return pct >= 4 * threshold ? FindingSeverity::High : FindingSeverity::Medium;
}

} // namespace

KernelStats ExpertRules::kernelStats(const RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types,
                                     double shortKernelUs) {
    KernelStats k;
    if (ra.steps.steps.empty()) return k;
    const int64_t w0 = ra.steps.steps.front().start, w1 = ra.steps.steps.back().end;
    const int compute = ra.categoryType[size_t(Category::DeviceCompute)], collective = ra.categoryType[size_t(Category::Collective)];
    std::unordered_map<int64_t, int64_t> launchEnd;  // correlation -> the launch call's end (outermost)
    for (const TraceSlice &s : trace.slices)
        if (!s.gpu && s.correlation >= 0) {
            int64_t &e = launchEnd[s.correlation];
            e = std::max(e, s.end);
        }
    // A graph launch's kernels share its correlation id: its launch delay is that of its first kernel.
    std::unordered_map<int64_t, int64_t> firstStart;
    for (const TraceSlice &s : trace.slices)
        if (s.gpu && s.correlation >= 0 && s.start >= w0 && s.start < w1) {
            auto [it, fresh] = firstStart.emplace(s.correlation, s.start);
            if (!fresh) it->second = std::min(it->second, s.start);
        }
    std::vector<double> durs, delays;
    int64_t shortCount = 0;
    for (const TraceTrack &t : trace.tracks) {
        if (!t.gpu) continue;
        std::vector<std::pair<int64_t, int>> queue;  // (time, +1 launched / -1 started)
        for (size_t i = t.first; i < t.first + t.count; ++i) {
            const TraceSlice &s = trace.slices[i];
            if (s.start < w0 || s.start >= w1 || (types[i] != compute && types[i] != collective) || types[i] < 0) continue;
            durs.push_back(double(s.dur()) / 1e3);
            shortCount += double(s.dur()) < shortKernelUs * 1e3;
            const auto l = s.correlation >= 0 ? launchEnd.find(s.correlation) : launchEnd.end();
            if (l == launchEnd.end()) continue;
            if (firstStart[s.correlation] == s.start) delays.push_back(double(std::max<int64_t>(0, s.start - l->second)) / 1e3);
            if (l->second < s.start) queue.push_back({l->second, +1}), queue.push_back({s.start, -1});
        }
        std::sort(queue.begin(), queue.end());  // at equal times a start (-1) before a launch (+1)
        int64_t depth = 0, most = 0;
        for (const auto &[time, d] : queue) most = std::max(most, depth += d);
        if (most > 0) k.queueDepthMax.push_back({t.name, t.device, most});
    }
    k.count = int64_t(durs.size());
    if (k.count == 0) return k;
    k.medianUs = kernelPercentile(durs, 0.5);
    k.shortPct = 100.0 * double(shortCount) / double(k.count);
    if (!delays.empty()) {
        k.launchDelayP50Us = kernelPercentile(delays, 0.5);
        k.launchDelayP95Us = kernelPercentile(delays, 0.95);
    }
    return k;
}

void ExpertRules::evaluate(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types) {
    if (ra.steps.steps.empty() || !ra.gpuTraced) return;
    const FindingRuleBook &book = FindingRuleBook::builtin();
    auto minPct = [&](std::string_view rule) { return book.rule(rule).threshold("min_step_pct"); };
    const double shortUs = book.rule(rule_id::LaunchBound).threshold("short_kernel_us");
    KernelStats stats = kernelStats(ra, trace, types, shortUs);
    if (stats.count > 0) ra.kernels = stats;

    const IntervalList windows = ra.steps.windows();
    const double stepNs = double(ra.steps.totalNs());
    if (stepNs <= 0) return;
    auto pctOf = [&](const IntervalList &v) { return 100.0 * double(intervals::total(intervals::intersect(v, windows))) / stepNs; };

    // GPU copies, GPU busy time, and each correlation's GPU copy end.
    IntervalList pageable, busy;
    int64_t pageableCount = 0;
    std::unordered_map<int64_t, int64_t> copyEnd;
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (!s.gpu || types[i] < 0) continue;
        busy.push_back({s.start, s.end});
        const std::string_view name = trace.text(s.nameId);
        if (!name.starts_with("Memcpy")) continue;
        if (s.correlation >= 0) copyEnd[s.correlation] = std::max(copyEnd[s.correlation], s.end);
        if (name.find("Pageable") != std::string_view::npos && (name.find("HtoD") != std::string_view::npos ||
                                                               name.find("DtoH") != std::string_view::npos)) {
            pageable.push_back({s.start, s.end});
            ++pageableCount;
        }
    }
    intervals::normalize(pageable);
    intervals::normalize(busy);

    // Host calls: blocking copies and memsets, syncs.
    IntervalList syncCopies, memsets;
    int64_t syncCopyCount = 0, memsetCount = 0;
    struct Sync { int64_t start, end; };
    std::vector<Sync> syncs;
    std::unordered_map<int32_t, int> kindOf;  // name id -> 0 none, 1 copy call, 2 memset, 3 sync
    for (const TraceSlice &s : trace.slices) {
        if (s.gpu) continue;
        auto [it, fresh] = kindOf.emplace(s.nameId, 0);
        if (fresh) {
            const std::string_view name = trace.text(s.nameId);
            it->second = (name.starts_with("cudaMemcpy") || name.starts_with("cuMemcpy") || name.starts_with("hipMemcpy")) ? 1
                         : TypeRefinement::isBlockingMemset(name) ? 2 : TypeRefinement::isSyncApiCall(name) ? 3 : 0;
        }
        if (it->second == 1) {
            const bool blocking = TypeRefinement::isBlockingCopyCall(trace.text(s.nameId));
            const auto c = s.correlation >= 0 ? copyEnd.find(s.correlation) : copyEnd.end();
            // An async call that returns only once its copy has ended waited for it (pageable memory).
            const bool waited = c != copyEnd.end() && s.end >= c->second && s.dur() > 0;
            if (blocking || waited) syncCopies.push_back({s.start, s.end}), ++syncCopyCount;
        } else if (it->second == 2) {
            memsets.push_back({s.start, s.end});
            ++memsetCount;
        } else if (it->second == 3) {
            syncs.push_back({s.start, s.end});
        }
    }
    intervals::normalize(syncCopies);
    intervals::normalize(memsets);

    if (const double pct = pctOf(pageable); pageableCount > 0 && pct >= minPct(rule_id::PageableMemcpy))
        ra.findings.push_back(inSteps(ra, pageable, {std::string(rule_id::PageableMemcpy), expertSeverity(pct, minPct(rule_id::PageableMemcpy)), "Copies from pageable memory",
            std::to_string(pageableCount) + " host<->device copies use pageable memory: " + formatPct(pct) +
                " of step time (Nsight Systems: async memcpy with pageable memory). They are staged through a driver "
                "buffer and cannot overlap with compute.",
            "Copy from pinned memory (DataLoader pin_memory=True, tensor.pin_memory(), cudaHostAlloc) with "
            "non_blocking=True / cudaMemcpyAsync so the copy overlaps with compute.", {}, 0, 0}));
    if (const double pct = pctOf(syncCopies); syncCopyCount > 0 && pct >= minPct(rule_id::SyncMemcpy))
        ra.findings.push_back(inSteps(ra, syncCopies, {std::string(rule_id::SyncMemcpy), expertSeverity(pct, minPct(rule_id::SyncMemcpy)), "Copies that block the host",
            std::to_string(syncCopyCount) + " copy calls hold the host until their copy is done: " + formatPct(pct) +
                " of step time (Nsight Systems: synchronous memcpy).",
            "Use cudaMemcpyAsync / non_blocking=True from pinned memory, and wait only where the data is needed.", {}, 0, 0}));
    if (const double pct = pctOf(memsets); memsetCount > 0 && pct >= minPct(rule_id::SyncMemset))
        ra.findings.push_back(inSteps(ra, memsets, {std::string(rule_id::SyncMemset), FindingSeverity::Medium, "Memsets that block the host",
            std::to_string(memsetCount) + " blocking memset calls: " + formatPct(pct) + " of step time (Nsight Systems: synchronous memset).",
            "Use cudaMemsetAsync (torch.zeros on the device is already asynchronous).", {}, 0, 0}));

    // Syncs: the GPU idle time after each, up to the next GPU work, in steps that sync more than once.
    std::sort(syncs.begin(), syncs.end(), [](const Sync &a, const Sync &b) { return a.start < b.start; });
    IntervalList idleAfter;
    int64_t counted = 0;
    for (const AnalysisStep &st : ra.steps.steps) {
        auto first = std::lower_bound(syncs.begin(), syncs.end(), st.start, [](const Sync &s, int64_t v) { return s.start < v; });
        auto last = std::lower_bound(first, syncs.end(), st.end, [](const Sync &s, int64_t v) { return s.start < v; });
        if (last - first < 2) continue;  // one sync a step is a healthy loop's loss.item()
        for (auto s = first; s < last; ++s) {
            const auto next = std::lower_bound(busy.begin(), busy.end(), s->end, [](const Interval &i, int64_t v) { return i.end <= v; });
            if (next != busy.end() && next->start <= s->end) continue;  // the GPU still works
            const int64_t until = std::min(st.end, next != busy.end() ? next->start : st.end);
            if (until > s->end) idleAfter.push_back({s->end, until}), ++counted;
        }
    }
    intervals::normalize(idleAfter);
    if (const double pct = pctOf(idleAfter); counted > 0 && pct >= book.rule(rule_id::SyncApi).threshold("min_gpu_idle_pct"))
        ra.findings.push_back(inSteps(ra, idleAfter, {std::string(rule_id::SyncApi), expertSeverity(pct, book.rule(rule_id::SyncApi).threshold("min_gpu_idle_pct")), "Synchronizations that leave the GPU idle",
            std::to_string(counted) + " device/stream/event synchronizations (in steps that sync more than once) drain the GPU, "
                "which then idles " + formatPct(pct) + " of step time until the host gives it work (Nsight Systems: "
                "synchronization APIs).",
            "Read results back less often (.item(), .cpu(), cudaStreamSynchronize in the loop), batch them into one "
            "copy per step, or wait on events only where the data is needed.", {}, 0, 0}));

    const double minGapNs = book.rule(rule_id::GpuStarvation).threshold("min_gap_ms") * 1e6;
    int64_t starved = 0, starvedNs = 0;
    for (const GpuGap &g : ra.gaps.top)
        if (double(g.dur) >= minGapNs) ++starved, starvedNs += g.dur;
    if (starved > 0) {
        const GpuGap &g = ra.gaps.top.front();
        Finding f{std::string(rule_id::GpuStarvation), FindingSeverity::High, "GPU starved for " + limitMs(minGapNs / 1e6) + " or more",
                  std::to_string(starved) + " GPU idle gaps of " + msText(int64_t(minGapNs)) + " or more, " + msText(starvedNs) +
                      " in all; the longest " + msText(g.dur) + " while the host was in " + g.hostActivity +
                      " (Nsight Systems: GPU gaps).",
                  "Find what the host does in these gaps (checkpoints, evaluation, data loading) and move it off the "
                  "training loop or make it asynchronous.", {}, g.start, g.start + g.dur};
        for (const AnalysisStep &st : ra.steps.steps)
            if (g.start < st.end && g.start + g.dur > st.start) f.steps.push_back(st.step);
        ra.findings.push_back(std::move(f));
    }

    if (ra.kernels && ra.kernels->shortPct >= book.rule(rule_id::LaunchBound).threshold("min_short_pct") &&
        100.0 - ra.gpuBusyPct >= book.rule(rule_id::LaunchBound).threshold("min_gpu_idle_pct")) {
        const KernelStats &k = *ra.kernels;
        char detail[320];
        std::snprintf(detail, sizeof detail,
                      "%.1f%% of %lld kernels run shorter than %.0f us (median %.1f us) and the GPU is idle %.1f%% of step "
                      "time between them: the host cannot launch them as fast as the GPU runs them.",
                      k.shortPct, static_cast<long long>(k.count), shortUs, k.medianUs, 100.0 - ra.gpuBusyPct);
        ra.findings.push_back({std::string(rule_id::LaunchBound), 100.0 - ra.gpuBusyPct >= 50 ? FindingSeverity::High : FindingSeverity::Medium,
                               "Launch-bound: many short kernels", detail,
                               "Fewer, bigger kernels: a larger batch, fused ops (torch.compile, XLA), CUDA graphs to "
                               "launch a step's kernels at once.",
                               {}, ra.steps.steps.front().start, ra.steps.steps.back().end});
    }
}

} // namespace stepscope
