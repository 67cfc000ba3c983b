#include "models/analysis/engine/memory_headroom.h"

#include "models/analysis/rules/finding_rule_ids.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stepscope {

namespace {

// A memory series as a step function: the value of the last sample at or before t.
struct StepFunction {
    const std::vector<MetricPoint> &points;

    std::optional<double> at(int64_t t) const {
        auto it = std::upper_bound(points.begin(), points.end(), t, [](int64_t x, const MetricPoint &p) { return x < p.t; });
        if (it == points.begin()) return std::nullopt;
        return std::prev(it)->v;
    }
    // Most in [lo, hi): the value carried in at lo and every sample inside.
    std::optional<double> maxIn(int64_t lo, int64_t hi) const {
        std::optional<double> m = at(lo);
        auto it = std::lower_bound(points.begin(), points.end(), lo, [](const MetricPoint &p, int64_t x) { return p.t < x; });
        for (; it != points.end() && it->t < hi; ++it) m = std::max(m.value_or(it->v), it->v);
        return m;
    }
};

const MetricTrack *trackOf(const MetricData &m, const std::string &name, int device) {
    for (const MetricTrack &t : m.tracks(name))
        if (t.device == device && !t.points.empty()) return &t;
    return nullptr;
}

std::optional<int64_t> totalOf(const MetricData &m, int device) {
    for (const char *name : {"gpu_mem_total", "memory.total"})
        if (const MetricTrack *t = trackOf(m, name, device); t && t->unit == "B" && t->points.back().v > 0)
            return int64_t(t->points.back().v);
    return std::nullopt;
}

std::string headroomFmt(const char *f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

// The summary of one device's series over the steps; nullopt when no sample falls in reach of them.
std::optional<MemorySummary> measureDevice(const RunAnalysis &ra, const MetricData &m, const MetricTrack &used,
                                           const std::string &source) {
    const StepFunction f{used.points};
    MemorySummary s;
    s.source = source;
    s.device = std::max(0, used.device);
    std::optional<double> lowest, peak;
    for (const AnalysisStep &step : ra.steps.steps) {
        const auto p = f.maxIn(step.start, step.end);
        s.perStepPeakBytes.push_back(p ? std::optional<int64_t>(int64_t(*p)) : std::nullopt);
        if (p) peak = std::max(peak.value_or(*p), *p);
        if (const auto b = f.at(step.start)) lowest = std::min(lowest.value_or(*b), *b);
    }
    if (!peak) return std::nullopt;
    if (!lowest) {  // no sample before the first step starts: the least seen inside the steps
        for (const MetricPoint &p : used.points)
            if (p.t >= ra.steps.steps.front().start && p.t < ra.steps.steps.back().end) lowest = std::min(lowest.value_or(p.v), p.v);
    }
    s.peakBytes = int64_t(*peak);
    s.staticBytes = std::min(int64_t(lowest.value_or(*peak)), s.peakBytes);
    s.deviceTotalBytes = totalOf(m, used.device);
    if (source == "allocator")
        if (const MetricTrack *r = trackOf(m, "gpu_mem_reserved", used.device)) {
            const StepFunction rf{r->points};
            std::optional<double> most;
            for (const AnalysisStep &step : ra.steps.steps)
                if (const auto v = rf.maxIn(step.start, step.end)) most = std::max(most.value_or(*v), *v);
            if (most) {
                s.peakReservedBytes = int64_t(*most);
                if (s.peakBytes > 0) s.fragmentationPct = std::max(0.0, 100.0 * (*most / double(s.peakBytes) - 1.0));
            }
        }
    // nvidia-smi beside the allocator: what the device holds beyond the allocator's reserve (the CUDA
    // context, library workspaces, other processes) is not there for a bigger batch either.
    if (source == "allocator")
        if (const MetricTrack *smi = trackOf(m, "gpu_mem_used", used.device); smi && smi->unit == "B") {
            const StepFunction sf{smi->points};
            std::optional<double> most;
            for (const AnalysisStep &step : ra.steps.steps)
                if (const auto v = sf.maxIn(step.start, step.end)) most = std::max(most.value_or(*v), *v);
            if (most) s.outsideBytes = std::max<int64_t>(0, int64_t(*most) - s.peakReservedBytes.value_or(s.peakBytes));
        }
    return s;
}

void fillBatch(MemorySummary &s, std::optional<int64_t> batch) {
    s.batchSize = batch;
    s.safetyMarginPct = MemoryHeadroom::kReservePct;
    std::vector<std::string> why;
    if (!s.deviceTotalBytes) why.push_back("the device's memory size is not in the profile");
    if (!batch) why.push_back("the batch size is unknown (set it in the Batch size box, or report --batch-size)");
    const int64_t perStep = s.perStepBytes();
    // Memory that hardly moves within a step (nvidia-smi sees the caching allocator's reserve, which
    // it keeps) says nothing about what the batch costs.
    const double floor = std::max(1024.0 * 1024.0, 0.005 * double(s.peakBytes));
    if (double(perStep) < floor)
        why.push_back(s.source == "nvidia_smi"
                          ? "memory.used does not change within a step (the framework's allocator keeps what it "
                            "reserved), so what one batch costs cannot be told apart; record with profile_memory=True"
                          : "allocated memory does not grow within a step");
    if (!why.empty()) {
        for (size_t i = 0; i < why.size(); ++i) s.note += (i ? "; " : "") + why[i];
        s.note = "no max batch size: " + s.note;
        return;
    }
    const double usable = double(*s.deviceTotalBytes - s.outsideBytes.value_or(0)) * (1.0 - MemoryHeadroom::kReservePct / 100.0) /
                          (1.0 + s.fragmentationPct / 100.0);
    const double fits = std::floor(double(*batch) * (usable - double(s.staticBytes)) / double(perStep));
    s.maxBatchSize = std::max<int64_t>(*batch, int64_t(std::min(fits, 1e15)));
    if (fits < double(*batch)) s.note = "the device is full at this batch size";
}

} // namespace

std::string formatBytes(double bytes) {
    const double a = std::fabs(bytes);
    if (a >= 1024.0 * 1024 * 1024) return headroomFmt(a >= 100.0 * 1024 * 1024 * 1024 ? "%.0f GiB" : "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
    if (a >= 1024.0 * 1024) return headroomFmt("%.0f MiB", bytes / (1024.0 * 1024));
    if (a >= 1024.0) return headroomFmt("%.0f KiB", bytes / 1024.0);
    return headroomFmt("%.0f B", bytes);
}

std::optional<MemorySummary> MemoryHeadroom::measure(const RunAnalysis &ra, const MetricData &metrics) {
    if (ra.steps.steps.empty()) return std::nullopt;
    std::optional<MemorySummary> best;
    double bestShare = -1;
    for (const char *name : {"gpu_mem_allocated", "gpu_mem_used"}) {
        for (const MetricTrack &t : metrics.tracks(name)) {
            if (t.points.empty() || t.unit != "B") continue;
            auto s = measureDevice(ra, metrics, t, name == std::string("gpu_mem_allocated") ? "allocator" : "nvidia_smi");
            if (!s) continue;
            const double share = s->deviceTotalBytes ? double(s->peakBytes) / double(*s->deviceTotalBytes) : 0.0;
            if (!best || share > bestShare) {
                best = std::move(s);
                bestShare = share;
            }
        }
        if (best) break;  // allocator figures, when there are any, are the ones to trust
    }
    if (best) fillBatch(*best, ra.batchSize);
    return best;
}

std::string MemoryHeadroom::describe(const MemorySummary &m) {
    std::string out = (m.batchSize ? "batch " + std::to_string(*m.batchSize) + " takes " : std::string("a step takes ")) +
                      formatBytes(double(m.perStepBytes())) + (m.batchSize ? " per step" : "") + " above the " +
                      formatBytes(double(m.staticBytes)) + " static (peak " + formatBytes(double(m.peakBytes));
    if (m.deviceTotalBytes) out += " of " + formatBytes(double(*m.deviceTotalBytes));
    out += ", GPU " + std::to_string(m.device) + ")";
    if (m.maxBatchSize) {
        out += "; up to ~" + std::to_string(*m.maxBatchSize) + " fit" + (*m.maxBatchSize == 1 ? "s" : "") + " (" +
               headroomFmt("%.0f %% kept free", m.safetyMarginPct);
        if (m.peakReservedBytes) out += ", " + headroomFmt("%.0f %% fragmentation", m.fragmentationPct);
        if (m.outsideBytes && *m.outsideBytes > 0) out += ", " + formatBytes(double(*m.outsideBytes)) + " held outside the allocator";
        out += ")";
    }
    if (!m.note.empty()) out += "; " + m.note;
    return out;
}

void MemoryHeadroom::evaluate(RunAnalysis &ra, const MetricData &metrics) {
    ra.memory = measure(ra, metrics);
    const bool gpuIdle = ra.gpuTraced ? ra.gpuBusyPct < 80 : metrics.has("gpu_util");
    for (Finding &f : ra.findings) {
        if (f.rule != rule_id::PtLowGpuUtilization && f.rule != rule_id::SmBatchSize) continue;
        f.recommendation += ra.memory ? " Memory: " + describe(*ra.memory) + "."
                                      : " No GPU memory data in this profile: record with profile_memory=True (or an "
                                        "nvidia-smi log) to know how large a batch fits.";
    }
    if (!ra.memory || !ra.memory->maxBatchSize || !ra.memory->batchSize) return;
    const MemorySummary &m = *ra.memory;
    if (*m.maxBatchSize < 2 * *m.batchSize || !gpuIdle) return;
    Finding f;
    f.rule = rule_id::MemoryHeadroom;
    // A bigger batch brings more input per step too: worth less while the input is the bottleneck.
    f.severity = *m.maxBatchSize >= 4 * *m.batchSize && ra.bottleneck != "input" ? FindingSeverity::Medium : FindingSeverity::Low;
    f.title = "GPU memory fits a batch of ~" + std::to_string(*m.maxBatchSize) + " (now " + std::to_string(*m.batchSize) + ")";
    std::string d = describe(m);
    d[0] = 'B';
    f.detail = d + ".";
    f.recommendation = "Raise the batch size towards " + std::to_string(*m.maxBatchSize) +
                       " (scale the learning rate, or use fewer gradient-accumulation steps) to give the idle GPU "
                       "more work per step.";
    if (ra.bottleneck == "input")
        f.recommendation = "Fix the input pipeline first: a larger batch needs proportionally more input per step. " +
                           f.recommendation;
    f.startNs = ra.steps.steps.front().start;
    f.endNs = ra.steps.steps.back().end;
    ra.findings.push_back(std::move(f));
}

} // namespace stepscope
