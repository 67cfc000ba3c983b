#include "models/analysis/engine/collective_stats.h"

#include "models/analysis/engine/device_peaks.h"
#include "models/analysis/rules/finding_rule_book.h"
#include "models/analysis/rules/finding_rule_ids.h"
#include "models/analysis/engine/interval_set.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/store/analysis_input_reader.h"
#include "models/store/slice_args.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <unordered_map>

namespace stepscope {

namespace {

// Bytes per element of PyTorch's ScalarType names in "dtype" ("Float", "BFloat16").
double scalarTypeBytes(std::string_view t) {
    if (t == "Float" || t == "Int" || t == "float") return 4;
    if (t == "BFloat16" || t == "Half" || t == "Short") return 2;
    if (t == "Double" || t == "Long" || t == "ComplexFloat") return 8;
    if (t == "Byte" || t == "Char" || t == "Bool" || t.starts_with("Float8")) return 1;
    return 0;
}

struct CallArgs {
    std::string kind;
    double bytes = -1;  // -1: unknown
    int64_t group = 0;  // 0: unknown
};

// What one args object says about a collective call.
CallArgs readArgs(std::string_view json) {
    CallArgs c;
    if (const auto name = slice_args::value(json, "Collective name"); name && name->size() >= 2)
        c.kind = CollectiveStatsAnalyzer::kindOf(name->substr(1, name->size() - 2));
    const auto in = slice_args::number(json, "In msg nelems"), out = slice_args::number(json, "Out msg nelems");
    const auto dtype = slice_args::value(json, "dtype");
    const double size = dtype && dtype->size() >= 2 ? scalarTypeBytes(dtype->substr(1, dtype->size() - 2)) : 0;
    if ((in || out) && size > 0) c.bytes = std::max(in.value_or(0), out.value_or(0)) * size;
    if (const auto g = slice_args::number(json, "Group size"); g && *g >= 1 && *g <= 1e7) c.group = int64_t(*g);
    return c;
}

int64_t overlapNs(const IntervalList &v, int64_t a, int64_t b) {
    int64_t n = 0;
    auto it = std::lower_bound(v.begin(), v.end(), a, [](const Interval &i, int64_t x) { return i.end <= x; });
    for (; it != v.end() && it->start < b; ++it) n += std::min(b, it->end) - std::max(a, it->start);
    return n;
}

std::string text(const char *f, double v) {
    char b[64];
    std::snprintf(b, sizeof b, f, v);
    return b;
}

} // namespace

std::string CollectiveStatsAnalyzer::kindOf(std::string_view t) {
    std::string s;
    for (const char c : t)
        if (c != '_' && c != ' ') s += char(std::tolower(static_cast<unsigned char>(c)));
    // Inside an NCCL kernel name the kind follows "kernel" (ncclDevKernel_AllReduce_Sum_f32_RING_LL).
    if (const size_t k = s.find("kernel"); s.starts_with("nccl") && k != std::string::npos) s = s.substr(k + 6);
    for (const auto &[key, kind] : std::initializer_list<std::pair<std::string_view, std::string_view>>{
             {"allreduce", "all_reduce"}, {"allgather", "all_gather"}, {"reducescatter", "reduce_scatter"},
             {"alltoall", "all_to_all"}, {"broadcast", "broadcast"}, {"sendrecv", "send_recv"}, {"send", "send_recv"},
             {"recv", "send_recv"}, {"reduce", "reduce"}, {"barrier", "barrier"}})
        if (s.starts_with(key)) return std::string(kind);
    return {};
}

double CollectiveStatsAnalyzer::busFactor(const std::string &kind, int64_t n) {
    if (n < 1) return 0;
    const double x = double(n);
    if (kind == "all_reduce") return 2 * (x - 1) / x;
    if (kind == "all_gather" || kind == "reduce_scatter" || kind == "all_to_all") return (x - 1) / x;
    if (kind == "broadcast" || kind == "reduce" || kind == "send_recv") return 1;
    return 0;
}

std::vector<CollectiveStat> CollectiveStatsAnalyzer::analyze(const TraceData &trace, const std::vector<int8_t> &types,
                                                             int collectiveType, int computeType, const SessionStore &store,
                                                             const RunRow &run, int64_t start, int64_t end) {
    if (collectiveType < 0) return {};
    std::vector<int32_t> calls;
    std::unordered_map<int, IntervalList> compute;  // by device
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (!s.gpu || s.start < start || s.start >= end) continue;
        if (types[i] == collectiveType) calls.push_back(int32_t(i));
        else if (types[i] == computeType) compute[trace.deviceOf(s)].push_back({s.start, s.end});
    }
    if (calls.empty()) return {};
    for (auto &[d, v] : compute) intervals::normalize(v);

    // The args of the collective kernels, and of the record_param_comms ops whose launches they are.
    std::unordered_map<int32_t, CallArgs> argsOf;  // slice index -> what its args say
    // The args of the slices named `names` on the host or GPU tracks, matched to the loaded slices by
    // start and name.
    const AnalysisInputReader reader(store);
    auto readArgsOf = [&](bool gpu, const std::vector<int32_t> &names) {
        std::vector<const TraceTrack *> tracks;
        std::vector<int64_t> trackIds;
        for (const TraceTrack &t : trace.tracks)
            if (t.gpu == gpu) tracks.push_back(&t), trackIds.push_back(t.id);
        reader.argsInRange(trackIds, start - run.timeBaseNs, end - run.timeBaseNs, names,
                           [&](size_t ti, int64_t startNs, int32_t name, const std::string &args) {
            const TraceTrack &t = *tracks[ti];
            const int64_t at = startNs + run.timeBaseNs;
            const auto begin = trace.slices.begin() + ptrdiff_t(t.first), last = begin + ptrdiff_t(t.count);
            for (auto it = std::lower_bound(begin, last, at, [](const TraceSlice &s, int64_t v) { return s.start < v; });
                 it != last && it->start == at; ++it)
                if (it->nameId == name) {
                    argsOf.emplace(int32_t(it - trace.slices.begin()), readArgs(args));
                    break;
                }
        });
    };
    std::vector<int32_t> kernelNames, commsNames;
    for (const int32_t i : calls) kernelNames.push_back(trace.slices[size_t(i)].nameId);
    std::sort(kernelNames.begin(), kernelNames.end());
    kernelNames.erase(std::unique(kernelNames.begin(), kernelNames.end()), kernelNames.end());
    for (const auto &[id, s] : trace.strings)
        if (s == "record_param_comms") commsNames.push_back(id);
    readArgsOf(true, kernelNames);
    std::unordered_map<int64_t, int32_t> launches;  // correlation -> host launch call
    if (!commsNames.empty()) {
        readArgsOf(false, commsNames);
        for (size_t i = 0; i < trace.slices.size(); ++i)
            if (!trace.slices[i].gpu && trace.slices[i].correlation >= 0) launches.emplace(trace.slices[i].correlation, int32_t(i));
    }

    std::map<std::string, CollectiveStat> byKind;
    std::map<std::string, std::map<int64_t, int64_t>> groups;  // kind -> group size -> calls
    for (const int32_t i : calls) {
        const TraceSlice &k = trace.slices[size_t(i)];
        CallArgs a;
        if (const auto it = argsOf.find(i); it != argsOf.end()) a = it->second;
        if ((a.kind.empty() || a.bytes < 0 || a.group == 0) && k.correlation >= 0)
            if (const auto l = launches.find(k.correlation); l != launches.end())
                for (int32_t p = l->second; p >= 0; p = trace.slices[size_t(p)].parent)
                    if (const auto h = argsOf.find(p); h != argsOf.end()) {
                        if (a.kind.empty()) a.kind = h->second.kind;
                        if (a.bytes < 0) a.bytes = h->second.bytes;
                        if (a.group == 0) a.group = h->second.group;
                        break;
                    }
        if (a.kind.empty()) a.kind = kindOf(trace.text(k.nameId));
        if (a.kind.empty()) a.kind = "other";
        CollectiveStat &c = byKind[a.kind];
        c.name = a.kind;
        ++c.count;
        c.timeNs += k.dur();
        const auto dev = compute.find(trace.deviceOf(k));
        c.exposedNs += k.dur() - (dev != compute.end() ? overlapNs(dev->second, k.start, k.end) : 0);
        if (a.bytes >= 0) {
            ++c.sized;
            c.bytes += a.bytes;
            c.sizedTimeNs += k.dur();
        }
        if (a.group > 0) ++groups[a.kind][a.group];
    }
    std::vector<CollectiveStat> out;
    for (auto &[kind, c] : byKind) {
        if (const auto g = groups.find(kind); g != groups.end())
            c.groupSize = std::max_element(g->second.begin(), g->second.end(), [](const auto &x, const auto &y) { return x.second < y.second; })->first;
        if (c.sized > 0 && c.sizedTimeNs > 0) {
            c.algbwGbps = c.bytes / double(c.sizedTimeNs);  // bytes per ns = GB/s
            if (c.groupSize) c.busbwGbps = *c.algbwGbps * busFactor(kind, *c.groupSize);
        }
        out.push_back(c);
    }
    std::sort(out.begin(), out.end(), [](const CollectiveStat &a, const CollectiveStat &b) { return a.timeNs > b.timeNs; });
    return out;
}

void CollectiveStatsAnalyzer::evaluate(RunAnalysis &ra, const std::string &deviceName) {
    if (ra.steps.steps.empty() || ra.collectives.empty()) return;
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(rule_id::SlowCollective);
    const DevicePeak *peak = DevicePeaks::builtin().find(deviceName);
    if (!peak || !peak->nvlinkGbps) return;  // no link to compare with
    const double stepNs = double(ra.steps.totalNs());
    for (const CollectiveStat &c : ra.collectives) {
        if (!c.busbwGbps || !c.groupSize || *c.groupSize < 2 || *c.groupSize > 8) continue;  // one NVLink domain
        const double exposedPct = 100.0 * double(c.exposedNs) / stepNs, linkPct = 100.0 * *c.busbwGbps / *peak->nvlinkGbps;
        if (exposedPct < rule.threshold("min_exposed_pct") || linkPct >= rule.threshold("max_link_pct")) continue;
        Finding f;
        f.rule = rule.id;
        f.severity = exposedPct >= 20 ? FindingSeverity::High : FindingSeverity::Medium;
        f.title = "Slow " + c.name + ": " + text("%.0f", *c.busbwGbps) + " GB/s bus bandwidth";
        f.detail = std::to_string(c.count) + " " + c.name + " calls of " + text("%.1f", c.bytes / double(std::max<int64_t>(1, c.sized)) / 1e6) +
                   " MB on average across " + std::to_string(*c.groupSize) + " GPUs reach " + text("%.0f", *c.busbwGbps) +
                   " GB/s bus bandwidth, " + text("%.0f", linkPct) + "% of the " + deviceName + "'s NVLink (" +
                   text("%.0f", *peak->nvlinkGbps) + " GB/s per direction); " + text("%.1f", exposedPct) +
                   "% of step time is spent in them with no compute beside it. A collective also waits inside its kernel "
                   "for the last rank to join: compare the ranks' arrival first (job view).";
        f.recommendation = "If the ranks arrive together: check that NCCL uses NVLink (NCCL_DEBUG=INFO, nvidia-smi topo -m), "
                           "use larger buckets (DDP bucket_cap_mb) and overlap communication with the backward pass.";
        ra.findings.push_back(std::move(f));
    }
}

} // namespace stepscope
