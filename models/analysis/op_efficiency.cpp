#include "models/analysis/op_efficiency.h"

#include "models/analysis/device_peaks.h"
#include "models/analysis/expert_rules.h"
#include "models/analysis/framework_advice.h"
#include "models/analysis/op_cost.h"
#include "models/analysis/run_analysis.h"
#include "models/analysis/slice_args.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace stepscope {

namespace {

uint64_t opKey(int32_t nameId, int device) { return (uint64_t(uint32_t(nameId)) << 20) | uint64_t(uint32_t(device + 1) & 0xfffffu); }

struct Costed {
    OpCost cost;
    std::string shapes;
    int64_t gpuNs = 0;  // its kernels' time (all launched inside it)
};

// Per op key: the figures summed, and the time by dtype (the peak's dtype is the one with most time).
struct Acc {
    double flops = 0, bytes = 0;
    int64_t ns = 0;
    std::map<std::string, int64_t> dtypeNs;
    std::map<std::string, int64_t> opNs;  // framework op -> time
    std::string shapes;
    double idealNs = 0;   // the time its work takes at the roof (for the parts whose dtype has a peak)
    int64_t ratedNs = 0;  // the actual time of those parts
};

std::string efficiencyText(const char *f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

bool usesTf32(std::string_view kernel) { return kernel.find("tf32") != std::string_view::npos; }

} // namespace

void OpEfficiencyAnalyzer::apply(std::vector<OpStat> &ops, const TraceData &trace, const SessionStore &store, const RunRow &run,
                                 int64_t start, int64_t end) {
    std::string ids;  // the run's names that may carry a cost
    for (const auto &[id, text] : trace.strings)
        if (OpCostModel::recognizes(text)) ids += (ids.empty() ? "" : ",") + std::to_string(id);
    const DevicePeak *peak = DevicePeaks::builtin().find(run.device);
    // The time `flops` and `bytes` take at the roof for `dtype` (-1 when the device or dtype has no peak).
    auto idealNs = [&](double flops, double bytes, const std::string &dtype) {
        if (!peak) return -1.0;
        if (flops > 0) {
            const double roof = bytes > 0 ? peak->attainableTflops(dtype, flops / bytes) : peak->peakTflops(dtype).value_or(0);
            return roof > 0 ? flops / roof / 1e3 : -1.0;
        }
        return bytes > 0 ? bytes / peak->memGbps : -1.0;
    };
    auto rate = [&](Acc &a, double flops, double bytes, const std::string &dtype, int64_t ns) {
        if (const double ideal = idealNs(flops, bytes, dtype); ideal >= 0) {
            a.idealNs += ideal;
            a.ratedNs += ns;
        }
    };
    std::unordered_map<int32_t, Costed> costed;  // slice index -> its cost
    std::unordered_map<uint64_t, Acc> acc;
    if (!ids.empty()) {
        SqliteStatement st(store.db(), "SELECT start_ns, name_id, args FROM slice WHERE track_id = ?1 AND start_ns >= ?2 AND "
                                       "start_ns < ?3 AND args IS NOT NULL AND name_id IN (" + ids + ")");
        for (const TraceTrack &t : trace.tracks) {
            if (t.gpu) continue;
            st.bind(1, t.id);
            st.bind(2, start - run.timeBaseNs);
            st.bind(3, end - run.timeBaseNs);
            const auto begin = trace.slices.begin() + ptrdiff_t(t.first), last = begin + ptrdiff_t(t.count);
            while (st.step()) {
                const int64_t at = st.columnInt(0) + run.timeBaseNs;
                const int32_t name = int32_t(st.columnInt(1));
                const std::string args = st.columnText(2);
                auto it = std::lower_bound(begin, last, at, [](const TraceSlice &s, int64_t v) { return s.start < v; });
                for (; it != last && it->start == at; ++it) {
                    const int32_t i = int32_t(it - trace.slices.begin());
                    if (it->nameId != name || costed.count(i)) continue;
                    if (auto c = OpCostModel::estimate(trace.text(name), args)) {
                        std::string shapes = slice_args::compact(slice_args::value(args, "Input Dims").value_or(""));
                        if (shapes.size() > 160) shapes = shapes.substr(0, 157) + "...";
                        costed.emplace(i, Costed{*c, std::move(shapes), 0});
                    }
                    break;
                }
            }
            st.reset();
        }
    }
    // Kernels by correlation, and the costed ops around each launch (innermost first).
    std::unordered_map<int64_t, std::vector<int32_t>> kernels;
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (s.gpu && s.correlation >= 0 && s.start >= start && s.start < end) kernels[s.correlation].push_back(int32_t(i));
    }
    // Pass 1: each costed op's GPU time (all the kernels launched inside it).
    auto launchesWithKernels = [&](auto &&visit) {
        for (size_t i = 0; i < trace.slices.size(); ++i) {
            const TraceSlice &l = trace.slices[i];
            if (l.gpu || l.correlation < 0) continue;
            if (const auto k = kernels.find(l.correlation); k != kernels.end()) visit(int32_t(i), k->second);
        }
    };
    if (!costed.empty()) {
        launchesWithKernels([&](int32_t launch, const std::vector<int32_t> &ks) {
            int64_t ns = 0;
            for (const int32_t g : ks) ns += trace.slices[size_t(g)].dur();
            for (int32_t p = launch; p >= 0; p = trace.slices[size_t(p)].parent)
                if (const auto c = costed.find(p); c != costed.end()) c->second.gpuNs += ns;
        });
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
        launchesWithKernels([&](int32_t launch, const std::vector<int32_t> &ks) {
            bool innermost = true;
            for (int32_t p = launch; p >= 0; p = trace.slices[size_t(p)].parent) {
                const auto c = costed.find(p);
                if (c == costed.end() || c->second.gpuNs <= 0) continue;
                const std::string named(trace.text(trace.slices[size_t(outermost(p))].nameId));
                for (const int32_t g : ks) {
                    const TraceSlice &k = trace.slices[size_t(g)];
                    const double share = double(k.dur()) / double(c->second.gpuNs);
                    const std::string dtype = c->second.cost.dtype == "fp32" && usesTf32(trace.text(k.nameId)) ? "tf32" : c->second.cost.dtype;
                    auto add = [&](Acc &a, const std::string &op) {
                        a.flops += c->second.cost.flops * share;
                        a.bytes += c->second.cost.bytes * share;
                        a.ns += k.dur();
                        a.dtypeNs[dtype] += k.dur();
                        a.opNs[op] += k.dur();
                        rate(a, c->second.cost.flops * share, c->second.cost.bytes * share, dtype, k.dur());
                        if (a.shapes.empty()) a.shapes = c->second.shapes;
                    };
                    add(acc[opKey(trace.slices[size_t(p)].nameId, -1)], std::string(trace.text(trace.slices[size_t(p)].nameId)));
                    if (innermost) add(acc[opKey(k.nameId, trace.deviceOf(k))], named);
                }
                innermost = false;
            }
        });
    }
    // XLA ops carry their own figures (not looked for in PyTorch runs: a scan of every kernel's args).
    if (run.framework != "pytorch") {
        SqliteStatement st(store.db(), "SELECT start_ns, name_id, args FROM slice WHERE track_id = ?1 AND start_ns >= ?2 AND "
                                       "start_ns < ?3 AND args LIKE '%\"flops\"%'");
        for (const TraceTrack &t : trace.tracks) {
            if (!t.gpu) continue;
            st.bind(1, t.id);
            st.bind(2, start - run.timeBaseNs);
            st.bind(3, end - run.timeBaseNs);
            const auto begin = trace.slices.begin() + ptrdiff_t(t.first), last = begin + ptrdiff_t(t.count);
            while (st.step()) {
                const int64_t at = st.columnInt(0) + run.timeBaseNs;
                const int32_t name = int32_t(st.columnInt(1));
                auto it = std::lower_bound(begin, last, at, [](const TraceSlice &s, int64_t v) { return s.start < v; });
                for (; it != last && it->start == at && it->nameId != name; ++it) {}
                if (it == last || it->start != at || it->dur() <= 0) continue;
                const auto c = OpCostModel::estimate(trace.text(name), st.columnText(2));
                if (!c) continue;
                Acc &a = acc[opKey(name, t.device)];
                a.flops += c->flops;
                a.bytes += c->bytes;
                a.ns += it->dur();
                a.dtypeNs[c->dtype] += it->dur();
                rate(a, c->flops, c->bytes, c->dtype, it->dur());
            }
            st.reset();
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
        e.shapes = a.shapes;
        e.dtype = std::max_element(a.dtypeNs.begin(), a.dtypeNs.end(), [](const auto &x, const auto &y) { return x.second < y.second; })->first;
        if (!a.opNs.empty())
            e.op = std::max_element(a.opNs.begin(), a.opNs.end(), [](const auto &x, const auto &y) { return x.second < y.second; })->first;
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
    const auto &t = ExpertRules::builtinThresholds();
    auto threshold = [&](const char *name, double fallback) {
        const auto it = t.find(name);
        return it != t.end() ? it->second : fallback;
    };
    const double minShare = threshold("inefficient_op_min_device_pct", 5), maxPct = threshold("inefficient_op_max_peak_pct", 25),
                 target = threshold("inefficient_op_target_peak_pct", 60);
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
        f.rule = "inefficient_op";
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
        p.category = "inefficient_op";
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
