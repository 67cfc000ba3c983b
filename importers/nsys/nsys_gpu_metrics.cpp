#include "importers/nsys/nsys_gpu_metrics.h"

#include "models/text/ascii_case.h"

#include <cctype>
#include <map>

namespace stepscope {

std::pair<std::string, std::string> nsysMetricSeriesName(const std::string &metricName) {
    std::string base = metricName, unit;
    if (const size_t open = metricName.find('['); open != std::string::npos) {
        base = metricName.substr(0, open);
        const size_t close = metricName.find(']', open);
        const std::string inner = metricName.substr(open + 1, close == std::string::npos ? std::string::npos : close - open - 1);
        if (inner.find('%') != std::string::npos)
            unit = "%";
        else if (const size_t space = inner.rfind(' '); space != std::string::npos)
            unit = inner.substr(space + 1);
        else
            unit = inner;
    }
    std::string slug;
    for (const char c : base) {
        if (asciiAlnum(c))
            slug += asciiLower(c);
        else if (!slug.empty() && slug.back() != '_')
            slug += '_';
    }
    while (!slug.empty() && slug.back() == '_')
        slug.pop_back();
    if (slug == "sms_active" || slug == "sm_active")
        return {"gpu_util", "%"};
    return {slug.empty() ? std::string("gpu_metric") : slug, unit};
}

int64_t writeNsysGpuMetrics(NsysExport &ex, ImportContext &ctx, const std::string &runName,
                            std::optional<int64_t> epochNs) {
    if (!ex.hasTable("GPU_METRICS") || !ex.hasTable("TARGET_INFO_GPU_METRICS"))
        return 0;
    struct Series {
        int64_t id = 0;
        int64_t last = -1;
        int64_t period = 0;
    };
    std::map<std::pair<int64_t, int64_t>, std::string> names;  // (typeId, metricId) → metric name
    {
        SqliteStatement st = ex.select("TARGET_INFO_GPU_METRICS", {"typeId", "metricId", "metricName"});
        while (st.step())
            if (!st.columnIsNull(0) && !st.columnIsNull(1))
                names[{st.columnInt(0), st.columnInt(1)}] = st.columnText(2);
    }
    std::map<std::pair<int64_t, int64_t>, Series> series;
    SqliteStatement st = ex.select("GPU_METRICS", {"timestamp", "typeId", "metricId", "value"});
    SessionWriter &w = ctx.writer();
    int64_t samples = 0, unnamed = 0;
    while (st.step()) {
        if ((samples & 4095) == 4095 && ctx.cancelled())
            return -1;
        if (st.columnIsNull(0) || st.columnIsNull(1) || st.columnIsNull(2) || st.columnIsNull(3))
            continue;
        const std::pair<int64_t, int64_t> key{st.columnInt(1), st.columnInt(2)};
        auto it = series.find(key);
        if (it == series.end()) {
            const auto n = names.find(key);
            if (n == names.end()) {
                ++unnamed;
                continue;
            }
            const auto [name, unit] = nsysMetricSeriesName(n->second);
            Series s;
            s.id = w.addMetricSeries(ctx.sourceId(), runName, name, key.first & 0xFF, unit, 0);
            it = series.emplace(key, s).first;
        }
        Series &s = it->second;
        const int64_t t = st.columnInt(0);
        if (s.last >= 0 && t > s.last && (s.period == 0 || t - s.last < s.period))
            s.period = t - s.last;
        s.last = t;
        w.addMetricSample(s.id, t + epochNs.value_or(0), st.columnDouble(3));
        ++samples;
    }
    for (const auto &[key, s] : series)
        if (s.period > 0)
            w.setMetricSeriesPeriod(s.id, s.period);
    if (unnamed > 0)
        ctx.warn(ImportLogCode::UnknownMetric, "GPU_METRICS", std::to_string(unnamed) + " samples of metrics TARGET_INFO_GPU_METRICS does not name: skipped");
    if (samples > 0)
        ctx.info(ImportLogCode::ImportSummary, "GPU_METRICS", std::to_string(samples) + " GPU metric samples in " + std::to_string(series.size()) + " series");
    return samples;
}

} // namespace stepscope
