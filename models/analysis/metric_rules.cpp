#include "models/analysis/metric_rules.h"

#include "models/analysis/finding_rules.h"

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

Finding metricFinding(const std::string &rule, FindingSeverity severity, const std::string &title,
                      const std::string &detail, const std::string &rec, const std::vector<MetricPoint> &pts) {
    Finding f{rule, severity, title, detail, rec, {}, 0, 0};
    if (!pts.empty()) {
        f.startNs = pts.front().t;
        f.endNs = pts.back().t;
    }
    return f;
}

void lowGpuUtilization(RunAnalysis &ra, const MetricData &m) {
    for (const MetricTrack &t : m.tracks("gpu_util")) {
        const auto pts = afterPatience(t.points);
        if (pts.size() < 10) continue;
        const auto v = lastValues(pts, kWindow);
        const double p95 = percentile(v, 95), p5 = percentile(v, 5);
        const std::string gpu = "GPU " + std::to_string(std::max(0, t.device));
        if (p95 < 70)
            ra.findings.push_back(metricFinding("sm_low_gpu_utilization", FindingSeverity::Medium, gpu + " under-utilized",
                "p95 of GPU utilization is " + num("%.0f%%", p95) + " (SageMaker LowGPUUtilization: p95 < 70%).",
                "Find the bottleneck that starves the GPU (see the breakdown); then consider a larger batch or a "
                "smaller instance.", pts));
        else if (p5 < 10)
            ra.findings.push_back(metricFinding("sm_low_gpu_utilization", FindingSeverity::Medium, gpu + " utilization fluctuates",
                "p95 " + num("%.0f%%", p95) + " but p5 " + num("%.0f%%", p5) +
                    " (SageMaker LowGPUUtilization: p95 > 70% and p5 < 10%).",
                "Look for periodic stalls: checkpoints, evaluation, input hiccups.", pts));
    }
}

// SageMaker's CPU/IO bottleneck: a GPU sample is a snapshot; it is a bottleneck when the GPU is < 10%
// busy and, within one second, some core is > 90% busy (or I/O wait > 50%).
void snapshotRule(RunAnalysis &ra, const MetricData &m, const std::string &series, double limit, const std::string &rule,
                  const std::string &title, const std::string &rec) {
    if (!m.has("gpu_util") || !m.has(series)) return;
    size_t snapshots = 0, bottleneck = 0;
    std::vector<MetricPoint> pts;
    for (const MetricTrack &g : m.tracks("gpu_util"))
        for (const MetricPoint &p : afterPatience(g.points)) {
            ++snapshots;
            if (p.v >= 10) continue;
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
    if (snapshots >= 10 && double(bottleneck) > 0.5 * double(snapshots))
        ra.findings.push_back(metricFinding(rule, FindingSeverity::High, title,
            std::to_string(bottleneck) + " of " + std::to_string(snapshots) + " samples (" +
                num("%.0f%%", 100.0 * double(bottleneck) / double(snapshots)) + ", threshold 50%) show the GPU < 10% busy "
                "while " + (series == "cpu_util" ? "a CPU core is > 90% busy." : "I/O wait is > 50%."),
            rec, pts));
}

void batchSize(RunAnalysis &ra, const MetricData &m) {
    if (!m.has("cpu_util") || !m.has("gpu_util") || !m.has("gpu_mem_util")) return;
    const double cpu = percentile(m.values("cpu_util"), 95);
    if (cpu >= 70) return;
    for (const MetricTrack &g : m.tracks("gpu_util")) {
        const auto gv = lastValues(afterPatience(g.points), kWindow);
        std::vector<double> mv;
        for (const MetricTrack &t : m.tracks("gpu_mem_util"))
            if (t.device == g.device) mv = lastValues(afterPatience(t.points), kWindow);
        if (gv.size() < 10 || mv.empty()) continue;
        const double gp = percentile(gv, 95), mp = percentile(mv, 95);
        if (gp < 70 && mp < 70)
            ra.findings.push_back(metricFinding("sm_batch_size", FindingSeverity::Medium, "Batch size likely too small",
                "p95 CPU " + num("%.0f%%", cpu) + ", GPU " + num("%.0f%%", gp) + ", GPU memory " + num("%.0f%%", mp) +
                    " (SageMaker BatchSize: all < 70%).",
                "Increase the batch size (scale the learning rate) or use a smaller instance.", g.points));
    }
}

void gpuMemoryIncrease(RunAnalysis &ra, const MetricData &m) {
    // Needs memory use in percent: gpu_mem_used over a total (gpu_mem_total), or a % series.
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
            if (inc > 5) {
                ra.findings.push_back(metricFinding("sm_gpu_memory_increase", FindingSeverity::Medium,
                    "GPU " + std::to_string(std::max(0, t.device)) + " memory keeps growing",
                    "Memory use rose by " + num("%.1f", inc) + " points between 10-sample windows (SageMaker: > 5).",
                    "Look for tensors kept across steps (losses appended with graph attached, caches).", pts));
                break;
            }
        }
    }
}

void loadBalancing(RunAnalysis &ra, const MetricData &m) {
    const auto &gpus = m.tracks("gpu_util");
    for (size_t i = 0; i < gpus.size(); ++i)
        for (size_t j = i + 1; j < gpus.size(); ++j) {
            const auto a = lastValues(afterPatience(gpus[i].points), gpus[i].points.size());
            const auto b = lastValues(afterPatience(gpus[j].points), gpus[j].points.size());
            if (a.size() < 10 || b.size() < 10) continue;
            const double d = MetricRules::jensenShannonDistance(a, b);
            if (d > 0.5)
                ra.findings.push_back(metricFinding("sm_load_balancing", FindingSeverity::Medium, "GPU workloads are unbalanced",
                    "GPU " + std::to_string(gpus[i].device) + " and GPU " + std::to_string(gpus[j].device) +
                        " have different utilization profiles (Jensen-Shannon distance " + num("%.2f", d) + " > 0.5).",
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
    snapshotRule(ra, metrics, "cpu_util", 90, "sm_cpu_bottleneck", "CPU bottleneck",
                 "The GPU waits while CPU cores are saturated: more DataLoader workers only help with idle cores; move "
                 "preprocessing to the GPU or offline, or pick an instance with more vCPUs per GPU.");
    snapshotRule(ra, metrics, "io_wait", 50, "sm_io_bottleneck", "I/O bottleneck",
                 "The GPU waits on storage: use faster storage (local NVMe, FSx), larger sequential files "
                 "(TFRecord/WebDataset shards), caching and more parallel reads.");
    batchSize(ra, metrics);
    gpuMemoryIncrease(ra, metrics);
    loadBalancing(ra, metrics);
}

} // namespace stepscope
