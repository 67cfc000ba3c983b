#include "models/analysis/rules/bottleneck_rules.h"

#include <cstdio>

namespace stepscope {

namespace {

std::string pct(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", v);
    return b;
}

// Share of the outermost input-wait time that has traced work nested in it.
double inputTracedBusy(const TraceData &trace, const std::vector<int8_t> &types, int inputType, int64_t lo, int64_t hi) {
    int64_t total = 0, busy = 0;
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (s.gpu || types[i] != inputType || s.end <= lo || s.start >= hi) continue;
        if (s.parent >= 0 && types[size_t(s.parent)] == inputType) continue;
        total += s.dur();
        busy += s.dur() - s.selfNs;  // what its children cover
    }
    return total > 0 ? double(busy) / double(total) : -1;
}

// Mean busy % of the CPU: the whole-machine series, else the mean over cores.
std::optional<double> cpuMean(const MetricData &m, int64_t lo, int64_t hi) {
    std::vector<double> v;
    for (const MetricTrack &t : m.tracks("cpu_util"))
        if (t.device < 0)
            for (const MetricPoint &p : t.points)
                if (p.t >= lo && p.t <= hi) v.push_back(p.v);
    if (v.empty()) v = m.values("cpu_util", lo, hi);
    if (v.empty()) return std::nullopt;
    double s = 0;
    for (double x : v) s += x;
    return s / double(v.size());
}

// True when a throughput series sits at its cap: its median within 10% of its maximum while busy.
bool atCap(const MetricData &m, const std::string &name, int64_t lo, int64_t hi) {
    const std::vector<double> v = m.values(name, lo, hi);
    if (v.size() < 3) return false;
    const double med = percentile(v, 50), mx = percentile(v, 100);
    return mx > 0 && med >= 0.9 * mx;
}

} // namespace

void BottleneckRules::decide(RunAnalysis &ra, const TraceData &trace, const std::vector<int8_t> &types,
                             const MetricData &metrics) {
    if (ra.steps.steps.empty()) return;
    const int64_t lo = ra.steps.steps.front().start, hi = ra.steps.steps.back().end;
    if (ra.computeCoveragePct >= kDeviceComputeBoundPct) {
        ra.bottleneck = "device_compute";
        ra.bottleneckEvidence = "non-collective kernels cover " + pct(ra.computeCoveragePct) + " of step time (>= 90%)";
    } else {
        int best = -1;
        for (int c = 1; c < kCategoryCount; ++c)
            if (best < 0 || ra.categoryNs(Category(c)) > ra.categoryNs(Category(best))) best = c;
        ra.bottleneck = std::string(kCategoryNames[size_t(best)]);
        ra.bottleneckEvidence = ra.bottleneck + " takes " + pct(ra.categoryPct(Category(best))) + " of step time" +
                                (ra.gpuTraced ? "; kernels cover " + pct(ra.computeCoveragePct) : std::string());
    }
    const int inputType = ra.categoryType[size_t(Category::Input)];
    if (inputType >= 0) ra.inputTracedBusyFraction = inputTracedBusy(trace, types, inputType, lo, hi);

    if (ra.bottleneck == "input") {
        // Metrics first (SageMaker-style), with a margin of one sampling period around the steps.
        const int64_t margin = 1'000'000'000;
        const auto cpu = cpuMean(metrics, lo - margin, hi + margin);
        const bool netCap = atCap(metrics, "net_in", lo - margin, hi + margin);
        const bool diskCap = atCap(metrics, "disk_read", lo - margin, hi + margin);
        const double traced = ra.inputTracedBusyFraction;
        if (const TfDataStage *stage = ra.tfData.costliestLabelled()) {
            // The pipeline's own spans say where the time goes: the most direct evidence there is.
            ra.bottleneckDetail = stage->label;
            ra.bottleneckEvidence += "; costliest tf.data stage: " + ra.tfData.describe(*stage);
        } else if (cpu && *cpu >= 80) {
            ra.bottleneckDetail = "preprocessing";
            ra.bottleneckEvidence += "; CPU " + pct(*cpu) + " busy while the GPU waits for input";
        } else if (cpu && *cpu < 50 && (netCap || diskCap || traced < 0.5)) {
            ra.bottleneckDetail = "io";
            ra.bottleneckEvidence += std::string("; CPU only ") + pct(*cpu) + " busy" +
                                     (netCap ? ", network-in at its cap" : diskCap ? ", disk reads at their cap" : "");
        } else if (traced >= 0) {
            ra.bottleneckDetail = traced >= 0.5 ? "preprocessing" : "io";
            ra.bottleneckEvidence += "; " + pct(100 * traced) + " of the input wait has traced work nested in it (" +
                                     (traced >= 0.5 ? "transforms run on the training thread" : "the rest is untraced reading/waiting") + ")";
        }
    } else if (ra.bottleneck == "kernel_launch") {
        std::vector<double> kernels;
        const int dc = ra.categoryType[size_t(Category::DeviceCompute)];
        for (size_t i = 0; i < trace.slices.size(); ++i)
            if (trace.slices[i].gpu && types[i] == dc && trace.slices[i].start >= lo && trace.slices[i].start < hi)
                kernels.push_back(double(trace.slices[i].dur()));
        const double median = percentile(kernels, 50);
        ra.bottleneckDetail = median > 0 && median < 10'000 ? "small_kernels" : "launch_overhead";
        ra.bottleneckEvidence += "; median kernel " + std::to_string(int64_t(median / 1000)) + " us";
    } else if (ra.bottleneck == "h2d") {
        bool pageable = false;
        const int h2d = ra.categoryType[size_t(Category::H2D)];
        for (size_t i = 0; i < trace.slices.size() && !pageable; ++i)
            pageable = types[i] == h2d && trace.text(trace.slices[i].nameId).find("Pageable") != std::string_view::npos;
        ra.bottleneckDetail = pageable ? "pageable_memory" : "copy_volume";
    } else if (ra.bottleneck == "checkpoint" || ra.bottleneck == "callback") {
        size_t with = 0;
        for (size_t k = 0; k < ra.steps.steps.size(); ++k)
            with += ra.categoryNs(k, *categoryFromName(ra.bottleneck)) > 0;
        ra.bottleneckDetail = with * 2 < ra.steps.steps.size() ? "periodic" : "every_step";
    } else if (ra.bottleneck == "other") {
        ra.bottleneckDetail = "untraced_host_time";
    }
}

} // namespace stepscope
