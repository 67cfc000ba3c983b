#include "models/analysis/engine/op_efficiency.h"

#include "models/analysis/engine/device_peaks.h"
#include "models/analysis/rules/finding_rule_book.h"
#include "models/analysis/rules/finding_rule_ids.h"
#include "models/analysis/rules/framework_advice.h"
#include "models/analysis/engine/run_analysis.h"

#include <algorithm>
#include <cstdio>
#include <array>
#include <unordered_map>

namespace stepscope {

namespace {

uint64_t opKey(int32_t nameId, int device) { return (uint64_t(uint32_t(nameId)) << 20) | uint64_t(uint32_t(device + 1) & 0xfffffu); }

// The dtypes slice_cost names, by index (0: unknown), so that per-kernel sums need no strings.
constexpr std::array<std::string_view, 10> kDtypes{"", "fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int32", "int64"};
constexpr int kFp32 = 2, kTf32 = 3;
int dtypeIndex(std::string_view d) {
    for (size_t i = 1; i < kDtypes.size(); ++i)
        if (kDtypes[i] == d) return int(i);
    return 0;
}

struct Costed {
    double flops = 0, bytes = 0;
    std::string shapes;
    int dtype = 0;
    int64_t gpuNs = 0;  // its kernels' time (all launched inside it)
};

// Per op key: the figures summed, and the time by dtype (the peak's dtype is the one with most time).
struct Acc {
    double flops = 0, bytes = 0;
    int64_t ns = 0;
    std::array<int64_t, kDtypes.size()> dtypeNs{};
    std::vector<std::pair<int32_t, int64_t>> opNs;  // framework op's name id -> time
    const std::string *shapes = nullptr;
    double idealNs = 0;   // the time its work takes at the roof (for the parts whose dtype has a peak)
    int64_t ratedNs = 0;  // the actual time of those parts
    void addOp(int32_t name, int64_t t) {
        for (auto &[n, v] : opNs)
            if (n == name) {
                v += t;
                return;
            }
        opNs.emplace_back(name, t);
    }
};

std::string efficiencyText(const char *f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

} // namespace

void OpEfficiencyAnalyzer::apply(std::vector<OpStat> &ops, const TraceData &trace, const SessionStore &store, const RunRow &run,
                                 int64_t start, int64_t end) {
    const DevicePeak *peak = DevicePeaks::builtin().find(run.device);
    std::array<double, kDtypes.size()> peakTflops{};
    if (peak)
        for (size_t d = 1; d < kDtypes.size(); ++d) peakTflops[d] = peak->peakTflops(std::string(kDtypes[d])).value_or(0);
    // The time `flops` and `bytes` take at the roof for `dtype` (-1 when the device or dtype has no peak).
    auto rate = [&](Acc &a, double flops, double bytes, int dtype, int64_t ns) {
        if (!peak) return;
        double ideal = -1;
        if (flops > 0) {
            const double roof = bytes > 0 ? std::min(peakTflops[size_t(dtype)], flops / bytes * peak->memGbps / 1000.0) : peakTflops[size_t(dtype)];
            if (roof > 0) ideal = flops / roof / 1e3;
        } else if (bytes > 0) {
            ideal = bytes / peak->memGbps;
        }
        if (ideal < 0) return;
        a.idealNs += ideal;
        a.ratedNs += ns;
    };
    std::unordered_map<int32_t, Costed> costed;  // host slice index -> its cost
    std::unordered_map<uint64_t, Acc> acc;
    const SessionReader reader(store);
    for (const TraceTrack &t : trace.tracks) {
        const auto begin = trace.slices.begin() + ptrdiff_t(t.first), last = begin + ptrdiff_t(t.count);
        for (SliceCostRow &r : reader.sliceCosts(t.id, start - run.timeBaseNs, end - run.timeBaseNs)) {
            const int64_t at = r.startNs + run.timeBaseNs;
            auto it = std::lower_bound(begin, last, at, [](const TraceSlice &s, int64_t v) { return s.start < v; });
            for (; it != last && it->start == at && it->nameId != int32_t(r.nameId); ++it) {}
            if (it == last || it->start != at) continue;
            const int32_t i = int32_t(it - trace.slices.begin());
            const int dtype = dtypeIndex(r.dtype);
            if (t.gpu) {  // a device op with its own figures (XLA)
                if (it->dur() <= 0) continue;
                Acc &a = acc[opKey(it->nameId, t.device)];
                a.flops += r.flops;
                a.bytes += r.bytes;
                a.ns += it->dur();
                a.dtypeNs[size_t(dtype)] += it->dur();
                rate(a, r.flops, r.bytes, dtype, it->dur());
            } else {
                costed.emplace(i, Costed{r.flops, r.bytes, std::move(r.shapes), dtype, 0});
            }
        }
    }
    if (!costed.empty()) {
        // Kernels by correlation (a graph launch has many), and which kernel names run on TF32.
        std::vector<std::pair<int64_t, int32_t>> kernels;
        for (size_t i = 0; i < trace.slices.size(); ++i) {
            const TraceSlice &s = trace.slices[i];
            if (s.gpu && s.correlation >= 0 && s.start >= start && s.start < end) kernels.emplace_back(s.correlation, int32_t(i));
        }
        std::sort(kernels.begin(), kernels.end());
        std::unordered_map<int32_t, bool> tf32;
        auto usesTf32 = [&](int32_t name) {
            auto [it, fresh] = tf32.emplace(name, false);
            if (fresh) it->second = trace.text(name).find("tf32") != std::string_view::npos;
            return it->second;
        };
        // The launches inside a costed op, with their kernels.
        struct Launch {
            int32_t slice;
            size_t first, last;  // range in `kernels`
        };
        std::vector<Launch> launches;
        for (size_t i = 0; i < trace.slices.size(); ++i) {
            const TraceSlice &l = trace.slices[i];
            if (l.gpu || l.correlation < 0) continue;
            bool inside = false;
            for (int32_t p = l.parent; p >= 0 && !inside; p = trace.slices[size_t(p)].parent) inside = costed.count(p) > 0;
            if (!inside && !costed.count(int32_t(i))) continue;
            const auto range = std::equal_range(kernels.begin(), kernels.end(), std::pair<int64_t, int32_t>{l.correlation, INT32_MIN},
                                                [](const auto &a, const auto &b) { return a.first < b.first; });
            if (range.first != range.second)
                launches.push_back({int32_t(i), size_t(range.first - kernels.begin()), size_t(range.second - kernels.begin())});
        }
        // Pass 1: each costed op's GPU time (all the kernels launched inside it).
        for (const Launch &l : launches) {
            int64_t ns = 0;
            for (size_t k = l.first; k < l.last; ++k) ns += trace.slices[size_t(kernels[k].second)].dur();
            for (int32_t p = l.slice; p >= 0; p = trace.slices[size_t(p)].parent)
                if (const auto c = costed.find(p); c != costed.end()) c->second.gpuNs += ns;
        }
        // The outermost costed op around each costed one names it (aten::conv2d, not aten::cudnn_convolution).
        auto outermost = [&](int32_t i) {
            int32_t best = i;
            for (int32_t p = trace.slices[size_t(i)].parent; p >= 0; p = trace.slices[size_t(p)].parent)
                if (costed.count(p)) best = p;
            return best;
        };
        // Pass 2: a kernel takes its share (by time) of each costed op around its launch: of the innermost
        // for the kernel's own figures, of every one for those ops' figures; its dtype is the op's, or
        // tf32 when fp32 work ran on a TF32 kernel.
        for (const Launch &l : launches) {
            bool innermost = true;
            for (int32_t p = l.slice; p >= 0; p = trace.slices[size_t(p)].parent) {
                const auto c = costed.find(p);
                if (c == costed.end() || c->second.gpuNs <= 0) continue;
                const Costed &op = c->second;
                const int32_t named = trace.slices[size_t(outermost(p))].nameId;
                Acc &framework = acc[opKey(trace.slices[size_t(p)].nameId, -1)];
                for (size_t kk = l.first; kk < l.last; ++kk) {
                    const TraceSlice &k = trace.slices[size_t(kernels[kk].second)];
                    const double share = double(k.dur()) / double(op.gpuNs);
                    const int dtype = op.dtype == kFp32 && usesTf32(k.nameId) ? kTf32 : op.dtype;
                    auto add = [&](Acc &a, int32_t opName) {
                        a.flops += op.flops * share;
                        a.bytes += op.bytes * share;
                        a.ns += k.dur();
                        a.dtypeNs[size_t(dtype)] += k.dur();
                        a.addOp(opName, k.dur());
                        rate(a, op.flops * share, op.bytes * share, dtype, k.dur());
                        if (!a.shapes) a.shapes = &op.shapes;
                    };
                    add(framework, trace.slices[size_t(p)].nameId);
                    if (innermost) add(acc[opKey(k.nameId, trace.deviceOf(k))], named);
                }
                innermost = false;
            }
        }
    }
    for (OpStat &o : ops) {
        const auto it = acc.find(opKey(o.nameId, o.device));
        if (it == acc.end() || it->second.ns <= 0) continue;
        const Acc &a = it->second;
        OpEfficiency e;
        e.flops = a.flops;
        e.bytes = a.bytes;
        e.timeNs = a.ns;
        if (a.shapes) e.shapes = *a.shapes;
        e.dtype = std::string(kDtypes[size_t(std::max_element(a.dtypeNs.begin(), a.dtypeNs.end()) - a.dtypeNs.begin())]);
        if (!a.opNs.empty())
            e.op = std::string(trace.text(std::max_element(a.opNs.begin(), a.opNs.end(), [](const auto &x, const auto &y) { return x.second < y.second; })->first));
        if (peak) {
            e.peakGbps = peak->memGbps;
            e.peakTflops = peak->peakTflops(e.dtype);
            // Over parts of several dtypes and shapes: the time at the roof over the time taken.
            if (a.ratedNs > 0) e.pctOfPeak = 100.0 * a.idealNs / double(a.ratedNs);
            if (e.flops > 0 && e.peakTflops) e.bound = e.intensity() >= peak->ridgeIntensity(e.dtype) ? "compute" : "memory";
            else if (e.flops == 0 && e.bytes > 0) e.bound = "memory";
        }
        o.efficiency = std::move(e);
    }
}

void OpEfficiencyAnalyzer::evaluate(RunAnalysis &ra, const std::string &deviceName, const std::string &framework) {
    if (ra.steps.steps.empty()) return;
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(rule_id::InefficientOp);
    const double minShare = rule.threshold("min_device_pct"), maxPct = rule.threshold("max_peak_pct"),
                 target = rule.threshold("target_peak_pct");
    int64_t gpuNs = 0;
    for (const OpStat &o : ra.ops)
        if (!o.host()) gpuNs += o.totalNs;
    if (gpuNs <= 0) return;
    // What shortening GPU compute is worth: as much of it as lies on the critical path.
    double onPath = 1;
    if (ra.criticalPath) {
        const int dc = ra.categoryType[size_t(Category::DeviceCompute)];
        const int64_t compute = ra.categoryNs(Category::DeviceCompute);
        if (dc >= 0 && compute > 0) onPath = std::clamp(double(ra.criticalPath->totalPerTypeNs[size_t(dc)]) / double(compute), 0.0, 1.0);
    }
    const double steps = double(ra.steps.steps.size());
    const double stepMs = double(ra.steps.totalNs()) / 1e6 / steps;
    struct Candidate {
        const OpStat *op;
        double savedMs;
    };
    std::vector<Candidate> found;
    for (const OpStat &o : ra.ops) {
        if (o.host() || !o.efficiency || !o.efficiency->pctOfPeak) continue;
        const double share = 100.0 * double(o.totalNs) / double(gpuNs), pct = *o.efficiency->pctOfPeak;
        if (share < minShare || pct >= maxPct) continue;
        const double savedMs = double(o.totalNs) * (1 - pct / target) / 1e6 / steps * onPath;
        found.push_back({&o, savedMs});
    }
    std::sort(found.begin(), found.end(), [](const Candidate &a, const Candidate &b) { return a.savedMs > b.savedMs; });
    if (found.size() > 3) found.resize(3);
    const Framework fw = frameworkOf(framework);
    for (const Candidate &c : found) {
        const OpStat &o = *c.op;
        const OpEfficiency &e = *o.efficiency;
        const std::string what = e.op.empty() ? o.name : e.op;
        Finding f;
        f.rule = rule.id;
        f.severity = c.savedMs >= 0.1 * stepMs ? FindingSeverity::High : c.savedMs >= 0.03 * stepMs ? FindingSeverity::Medium : FindingSeverity::Low;
        f.title = "Inefficient GPU op: " + what + " at " + efficiencyText("%.0f", *e.pctOfPeak) + "% of peak";
        f.detail = what + (e.shapes.empty() ? "" : " " + e.shapes) + " runs " + efficiencyText("%.2f", double(o.totalNs) / 1e6 / steps) +
                   " ms per step in " + (o.name.size() > 80 ? o.name.substr(0, 77) + "..." : o.name) + " (" +
                   efficiencyText("%.0f", 100.0 * double(o.totalNs) / double(gpuNs)) + "% of GPU op time), " +
                   (e.flops > 0 ? efficiencyText("%.1f TFLOPS", e.achievedTflops()) + " of the " + deviceName + "'s " + efficiencyText("%.0f", e.peakTflops.value_or(0)) + " " + e.dtype + " peak"
                                : efficiencyText("%.0f GB/s", e.achievedGbps()) + " of its " + efficiencyText("%.0f GB/s", e.peakGbps.value_or(0))) +
                   "; " + e.bound + "-bound (" + efficiencyText("%.0f", e.intensity()) + " FLOP/byte).";
        if (e.flops > 0 && (e.dtype == "fp32" || e.dtype == "fp64"))
            f.recommendation = fw == Framework::PyTorch ? "Run it in bf16 under torch.autocast, or let fp32 use TF32 tensor cores "
                                                          "(torch.backends.cudnn.allow_tf32 / torch.backends.cuda.matmul.allow_tf32 = True); "
                                                          "for convolutions also try torch.backends.cudnn.benchmark = True."
                               : fw == Framework::Jax ? "Compute it in bfloat16 (a bf16 dtype policy), or set jax_default_matmul_precision to allow TF32."
                               : fw == Framework::TensorFlow ? "Use the mixed_bfloat16 / mixed_float16 policy (tf.keras.mixed_precision) so it runs on tensor cores."
                                                            : "Run it in bf16/fp16 or TF32 so it uses tensor cores.";
        else if (e.flops > 0)
            f.recommendation = "Its shapes leave the tensor cores idle: pad dimensions to multiples of 8 (16 for fp8), enlarge the batch, "
                               "or pick another algorithm (cudnn.benchmark / autotuning).";
        else
            f.recommendation = fw == Framework::PyTorch ? "It is memory-bound and slow: fuse it with its neighbours (torch.compile) or use a fused kernel."
                                                        : "It is memory-bound and slow: fuse it with its neighbours (XLA fusion, a fused kernel).";
        Projection p;
        p.category = std::string(rule_id::InefficientOp);
        p.currentStepTimeMs = stepMs;
        p.stepTimeMs = std::max(0.0, stepMs - c.savedMs);
        p.speedup = p.stepTimeMs > 0 ? stepMs / p.stepTimeMs : 1;
        p.method = "op_at_target_efficiency";
        f.detail += " At " + efficiencyText("%.0f", target) + "% of peak it would save about " + efficiencyText("%.2f", c.savedMs) + " ms per step.";
        f.projection = p;
        ra.findings.push_back(std::move(f));
    }
}

} // namespace stepscope
