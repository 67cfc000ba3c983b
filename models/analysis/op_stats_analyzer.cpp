#include "models/analysis/op_stats_analyzer.h"

#include <algorithm>
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
        a.self += std::max<int64_t>(0, d - s.childNs);
        a.min = std::min(a.min, d);
        a.max = std::max(a.max, d);
    }
    std::vector<OpStat> out;
    out.reserve(acc.size());
    for (const auto &[key, a] : acc) {
        OpStat o;
        o.name = std::string(trace.text(int32_t(key >> 20)));
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

} // namespace stepscope
