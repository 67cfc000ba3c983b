#include "models/analysis/rules/metric_rules.h"

#include "models/analysis/rules/finding_rule_book.h"
#include "models/analysis/rules/finding_rule_ids.h"
#include "models/analysis/rules/finding_rules.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stepscope {

namespace {

constexpr size_t kPatience = 1000;
constexpr size_t kWindow = 500;

std::vector<MetricPoint> afterPatience(const std::vector<MetricPoint> &p) {
    const size_t skip = std::min(kPatience, p.size() / 10);
    return {p.begin() + ptrdiff_t(skip), p.end()};
}

std::vector<double> lastValues(const std::vector<MetricPoint> &p, size_t n) {
    std::vector<double> v;
    for (size_t i = p.size() > n ? p.size() - n : 0; i < p.size(); ++i) v.push_back(p[i].v);
    return v;
}

std::string num(const char *fmt, double v) {
    char b[64];
    std::snprintf(b, sizeof b, fmt, v);
    return b;
}

Finding metricFinding(std::string_view rule, FindingSeverity severity, const std::string &title,
                      const std::string &detail, const std::string &rec, const std::vector<MetricPoint> &pts) {
    Finding f{std::string(rule), severity, title, detail, rec, {}, 0, 0};
    if (!pts.empty()) {
        f.startNs = pts.front().t;
        f.endNs = pts.back().t;
    }
    return f;
}

void lowGpuUtilization(RunAnalysis &ra, const MetricData &m) {
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(rule_id::SmLowGpuUtilization);
    const double p95Below = rule.threshold("p95_below_pct"), p5Below = rule.threshold("p5_below_pct");
    for (const MetricTrack &t : m.tracks("gpu_util")) {
        const auto pts = afterPatience(t.points);
        if (pts.size() < 10) continue;
        const auto v = lastValues(pts, kWindow);
        const double p95 = percentile(v, 95), p5 = percentile(v, 5);
        const std::string gpu = "GPU " + std::to_string(std::max(0, t.device));
        if (p95 < p95Below)
            ra.findings.push_back(metricFinding(rule.id, FindingSeverity::Medium, gpu + " under-utilized",
                "p95 of GPU utilization is " + num("%.0f%%", p95) + " (SageMaker LowGPUUtilization: p95 < " + num("%.0f%%", p95Below) + ").",
                "Find the bottleneck that starves the GPU (see the breakdown); then consider a larger batch or a "
                "smaller instance.", pts));
        else if (p5 < p5Below)
            ra.findings.push_back(metricFinding(rule.id, FindingSeverity::Medium, gpu + " utilization fluctuates",
                "p95 " + num("%.0f%%", p95) + " but p5 " + num("%.0f%%", p5) + " (SageMaker LowGPUUtilization: p95 > " +
                    num("%.0f%%", p95Below) + " and p5 < " + num("%.0f%%", p5Below) + ").",
                "Look for periodic stalls: checkpoints, evaluation, input hiccups.", pts));
    }
}

// SageMaker's CPU/IO bottleneck: a GPU sample is a snapshot; it is a bottleneck when the GPU is < 10%
// busy and, within one second, some core is > 90% busy (or I/O wait > 50%).
void snapshotRule(RunAnalysis &ra, const MetricData &m, const std::string &series, std::string_view id,
                  const std::string &title, const std::string &rec) {
    if (!m.has("gpu_util") || !m.has(series)) return;
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(id);
    const double gpuBelow = rule.threshold("gpu_below_pct"), limit = rule.threshold("busy_above_pct"),
                 minShare = rule.threshold("min_share_pct");
    size_t snapshots = 0, bottleneck = 0;
    std::vector<MetricPoint> pts;
    for (const MetricTrack &g : m.tracks("gpu_util"))
        for (const MetricPoint &p : afterPatience(g.points)) {
            ++snapshots;
            if (p.v >= gpuBelow) continue;
            bool high = false;
            for (const MetricTrack &c : m.tracks(series)) {
                auto it = std::lower_bound(c.points.begin(), c.points.end(), p.t - 1'000'000'000,
                                           [](const MetricPoint &x, int64_t t) { return x.t < t; });
                for (; it != c.points.end() && it->t <= p.t + 1'000'000'000 && !high; ++it) high = it->v > limit;
            }
            if (high) {
                ++bottleneck;
                pts.push_back(p);
            }
        }
    if (snapshots >= 10 && double(bottleneck) > minShare / 100 * double(snapshots))
        ra.findings.push_back(metricFinding(rule.id, FindingSeverity::High, title,
            std::to_string(bottleneck) + " of " + std::to_string(snapshots) + " samples (" +
                num("%.0f%%", 100.0 * double(bottleneck) / double(snapshots)) + ", threshold " + num("%.0f%%", minShare) +
                ") show the GPU < " + num("%.0f%%", gpuBelow) + " busy while " +
                (series == "cpu_util" ? "a CPU core is > " + num("%.0f%%", limit) + " busy." : "I/O wait is > " + num("%.0f%%", limit) + "."),
            rec, pts));
}

void batchSize(RunAnalysis &ra, const MetricData &m) {
    if (!m.has("cpu_util") || !m.has("gpu_util") || !m.has("gpu_mem_util")) return;
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(rule_id::SmBatchSize);
    const double below = rule.threshold("below_pct");
    const double cpu = percentile(m.values("cpu_util"), 95);
    if (cpu >= below) return;
    for (const MetricTrack &g : m.tracks("gpu_util")) {
        const auto gv = lastValues(afterPatience(g.points), kWindow);
        std::vector<double> mv;
        for (const MetricTrack &t : m.tracks("gpu_mem_util"))
            if (t.device == g.device) mv = lastValues(afterPatience(t.points), kWindow);
        if (gv.size() < 10 || mv.empty()) continue;
        const double gp = percentile(gv, 95), mp = percentile(mv, 95);
        if (gp < below && mp < below)
            ra.findings.push_back(metricFinding(rule.id, FindingSeverity::Medium, "Batch size likely too small",
                "p95 CPU " + num("%.0f%%", cpu) + ", GPU " + num("%.0f%%", gp) + ", GPU memory " + num("%.0f%%", mp) +
                    " (SageMaker BatchSize: all < " + num("%.0f%%", below) + ").",
                "Increase the batch size (scale the learning rate) or use a smaller instance.", g.points));
    }
}

void gpuMemoryIncrease(RunAnalysis &ra, const MetricData &m) {
    // Needs memory use in percent: gpu_mem_used over a total (gpu_mem_total), or a % series.
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(rule_id::SmGpuMemoryIncrease);
    const double rise = rule.threshold("rise_points");
    for (const MetricTrack &t : m.tracks("gpu_mem_used")) {
        double total = t.unit == "%" ? 100.0 : 0.0;
        // nvidia-smi logs carry the total as their own `memory.total` series.
        for (const char *name : {"gpu_mem_total", "memory.total"})
            for (const MetricTrack &x : m.tracks(name))
                if (x.device == t.device && !x.points.empty()) total = x.points.back().v;
        if (total <= 0) continue;
        const auto pts = afterPatience(t.points);
        constexpr size_t w = 10;
        for (size_t end = 2 * w + 1; end <= pts.size(); ++end) {
            double a = 0, b = 0;
            for (size_t i = end - w; i < end; ++i) a += pts[i].v;
            for (size_t i = end - w - 1 - w; i < end - w - 1; ++i) b += pts[i].v;  // preceding window, one sample earlier
            const double inc = (a - b) / double(w) / total * 100.0;
            if (inc > rise) {
                ra.findings.push_back(metricFinding(rule.id, FindingSeverity::Medium,
                    "GPU " + std::to_string(std::max(0, t.device)) + " memory keeps growing",
                    "Memory use rose by " + num("%.1f", inc) + " points between 10-sample windows (SageMaker: > " + num("%g", rise) + ").",
                    "Look for tensors kept across steps (losses appended with graph attached, caches).", pts));
                break;
            }
        }
    }
}

void loadBalancing(RunAnalysis &ra, const MetricData &m) {
    const FindingRuleRecord &rule = FindingRuleBook::builtin().rule(rule_id::SmLoadBalancing);
    const double maxDistance = rule.threshold("max_distance");
    const auto &gpus = m.tracks("gpu_util");
    for (size_t i = 0; i < gpus.size(); ++i)
        for (size_t j = i + 1; j < gpus.size(); ++j) {
            const auto a = lastValues(afterPatience(gpus[i].points), gpus[i].points.size());
            const auto b = lastValues(afterPatience(gpus[j].points), gpus[j].points.size());
            if (a.size() < 10 || b.size() < 10) continue;
            const double d = MetricRules::jensenShannonDistance(a, b);
            if (d > maxDistance)
                ra.findings.push_back(metricFinding(rule.id, FindingSeverity::Medium, "GPU workloads are unbalanced",
                    "GPU " + std::to_string(gpus[i].device) + " and GPU " + std::to_string(gpus[j].device) +
                        " have different utilization profiles (Jensen-Shannon distance " + num("%.2f", d) + " > " + num("%g", maxDistance) + ").",
                    "Check data sharding and per-rank work; stragglers slow every collective.", gpus[i].points));
        }
}

} // namespace

double MetricRules::jensenShannonDistance(const std::vector<double> &a, const std::vector<double> &b) {
    constexpr int bins = 51;  // 0, 2, ..., 100
    std::vector<double> p(bins, 0), q(bins, 0);
    for (double v : a) p[size_t(std::clamp(int(v / 2), 0, bins - 1))] += 1.0 / double(a.size());
    for (double v : b) q[size_t(std::clamp(int(v / 2), 0, bins - 1))] += 1.0 / double(b.size());
    double js = 0;
    for (int i = 0; i < bins; ++i) {
        const double mi = (p[size_t(i)] + q[size_t(i)]) / 2;
        if (p[size_t(i)] > 0) js += 0.5 * p[size_t(i)] * std::log2(p[size_t(i)] / mi);
        if (q[size_t(i)] > 0) js += 0.5 * q[size_t(i)] * std::log2(q[size_t(i)] / mi);
    }
    return std::sqrt(std::max(0.0, js));
}

void MetricRules::evaluate(RunAnalysis &ra, const MetricData &metrics) {
    lowGpuUtilization(ra, metrics);
    snapshotRule(ra, metrics, "cpu_util", rule_id::SmCpuBottleneck, "CPU bottleneck",
                 "The GPU waits while CPU cores are saturated: more DataLoader workers only help with idle cores; move "
                 "preprocessing to the GPU or offline, or pick an instance with more vCPUs per GPU.");
    snapshotRule(ra, metrics, "io_wait", rule_id::SmIoBottleneck, "I/O bottleneck",
                 "The GPU waits on storage: use faster storage (local NVMe, FSx), larger sequential files "
                 "(TFRecord/WebDataset shards), caching and more parallel reads.");
    batchSize(ra, metrics);
    gpuMemoryIncrease(ra, metrics);
    loadBalancing(ra, metrics);
}

} // namespace stepscope
