#include "models/analysis/engine/op_stats_analyzer.h"

#include "models/store/analysis_input_reader.h"
#include "models/store/slice_args.h"

#include <algorithm>
#include <array>
#include <unordered_map>

namespace stepscope {

std::vector<OpStat> OpStatsAnalyzer::analyze(const TraceData &trace, const std::vector<int8_t> &types, int64_t start,
                                             int64_t end) {
    struct Acc {
        int64_t count = 0, total = 0, self = 0, min = INT64_MAX, max = 0;
    };
    std::unordered_map<uint64_t, Acc> acc;
    acc.reserve(1024);
    for (size_t i = 0; i < trace.slices.size(); ++i) {
        const TraceSlice &s = trace.slices[i];
        if (types[i] < 0 || s.start < start || s.start >= end) continue;
        const int device = trace.deviceOf(s);
        const uint64_t key = (uint64_t(uint32_t(s.nameId)) << 20) | uint64_t(uint32_t(device + 1) & 0xfffffu);
        Acc &a = acc[key];
        const int64_t d = s.dur();
        ++a.count;
        a.total += d;
        a.self += s.selfNs;
        a.min = std::min(a.min, d);
        a.max = std::max(a.max, d);
    }
    std::vector<OpStat> out;
    out.reserve(acc.size());
    for (const auto &[key, a] : acc) {
        OpStat o;
        o.nameId = int32_t(key >> 20);
        o.name = std::string(trace.text(o.nameId));
        o.device = int(key & 0xfffffu) - 1;
        o.count = a.count;
        o.totalNs = a.total;
        o.selfNs = a.self;
        o.minNs = a.min;
        o.maxNs = a.max;
        out.push_back(std::move(o));
    }
    std::sort(out.begin(), out.end(), [](const OpStat &x, const OpStat &y) {
        return x.totalNs != y.totalNs ? x.totalNs > y.totalNs : (x.name != y.name ? x.name < y.name : x.device < y.device);
    });
    return out;
}

namespace {
constexpr std::array<std::string_view, 4> kKernelKeys{"grid", "block", "registers per thread", "shared memory"};

// Distinct values of one field with their counts; a kernel has few distinct launch configurations.
struct ValueCounts {
    std::vector<std::pair<std::string, int64_t>> values;
    int64_t total = 0;
    void add(std::string_view raw) {
        std::string v = slice_args::compact(raw);
        ++total;
        for (auto &[text, n] : values)
            if (text == v) {
                ++n;
                return;
            }
        values.emplace_back(std::move(v), 1);
    }
    std::string summary() const {
        if (values.empty()) return {};
        const auto best = std::max_element(values.begin(), values.end(), [](const auto &a, const auto &b) { return a.second < b.second; });
        return 2 * best->second > total ? best->first : std::string("varies");
    }
};
} // namespace

void OpStatsAnalyzer::addKernelDetails(std::vector<OpStat> &ops, const TraceData &trace, const SessionStore &store,
                                       const RunRow &run, int64_t start, int64_t end) {
    std::unordered_map<uint64_t, size_t> opIndex;  // (name id, device) -> index in ops
    for (size_t i = 0; i < ops.size(); ++i)
        if (!ops[i].host() && ops[i].nameId >= 0)
            opIndex.emplace((uint64_t(uint32_t(ops[i].nameId)) << 20) | uint64_t(uint32_t(ops[i].device + 1) & 0xfffffu), i);
    if (opIndex.empty()) return;
    std::vector<std::array<ValueCounts, kKernelKeys.size()>> counts(ops.size());
    std::vector<int> devices;
    std::vector<int64_t> trackIds;
    for (const TraceTrack &t : trace.tracks)
        if (t.gpu) trackIds.push_back(t.id), devices.push_back(t.device);
    AnalysisInputReader(store).argsInRange(trackIds, start - run.timeBaseNs, end - run.timeBaseNs, std::nullopt,
                                           [&](size_t ti, int64_t, int32_t name, const std::string &args) {
        const auto it = opIndex.find((uint64_t(uint32_t(name)) << 20) | uint64_t(uint32_t(devices[ti] + 1) & 0xfffffu));
        if (it == opIndex.end()) return;
        for (size_t k = 0; k < kKernelKeys.size(); ++k)
            if (const auto v = slice_args::value(args, kKernelKeys[k])) counts[it->second][k].add(*v);
    });
    for (const auto &[key, i] : opIndex) {
        KernelDetails &d = ops[i].kernel;
        d.grid = counts[i][0].summary();
        d.block = counts[i][1].summary();
        d.registers = counts[i][2].summary();
        d.sharedMemory = counts[i][3].summary();
    }
}

} // namespace stepscope
