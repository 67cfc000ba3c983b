#include "importers/metrics/cloudwatch_names.h"

#include "importers/metrics/metric_text.h"

namespace stepscope::metrics {

namespace {
struct Entry {
    const char *metric, *series, *unit;
    bool perPeriod;
};
// Longer names first where one contains another (GPUMemoryUtilization before MemoryUtilization).
const Entry kEntries[] = {
    {"CPUUtilization", "cpu_util", "%", false},
    {"cpu_usage_active", "cpu_util", "%", false},
    {"cpu_usage_iowait", "io_wait", "%", false},
    {"GPUMemoryUtilization", "gpu_mem_util", "%", false},
    {"GPUUtilization", "gpu_util", "%", false},
    {"nvidia_smi_utilization_gpu", "gpu_util", "%", false},
    {"nvidia_smi_utilization_memory", "gpu_mem_util", "%", false},
    {"NetworkIn", "net_in", "B/s", true},
    {"NetworkOut", "net_out", "B/s", true},
    {"DiskReadBytes", "disk_read", "B/s", true},
    {"DiskWriteBytes", "disk_write", "B/s", true},
    {"EBSReadBytes", "disk_read", "B/s", true},
    {"EBSWriteBytes", "disk_write", "B/s", true},
    {"mem_used", "host_mem_used", "B", false},
    {"MemoryUtilization", "MemoryUtilization", "%", false},
    {"mem_used_percent", "mem_used_percent", "%", false},
    {"DiskUtilization", "DiskUtilization", "%", false},
    {"disk_used_percent", "disk_used_percent", "%", false},
};

bool wordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string cleanQualifier(std::string_view rest) {
    std::string out;
    for (char c : rest) {
        if (c == '(' || c == ')' || c == '[' || c == ']' || c == '"') c = ' ';
        if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
        out += c;
    }
    std::string_view t = trim(out);
    while (!t.empty() && (t.front() == '-' || t.front() == ':' || t.front() == ',' || t.front() == '/')) t = trim(t.substr(1));
    while (!t.empty() && (t.back() == '-' || t.back() == ':' || t.back() == ',' || t.back() == '/')) t = trim(t.substr(0, t.size() - 1));
    return std::string(t);
}
} // namespace

std::optional<CloudWatchMetric> matchCloudWatchMetric(std::string_view header) {
    for (const Entry &e : kEntries) {
        std::string_view m(e.metric);
        for (size_t pos = header.find(m); pos != std::string_view::npos; pos = header.find(m, pos + 1)) {
            size_t end = pos + m.size();
            if ((pos > 0 && wordChar(header[pos - 1])) || (end < header.size() && wordChar(header[end]))) continue;
            CloudWatchMetric r{e.metric, e.series, e.unit, e.perPeriod, {}};
            std::string rest = std::string(header.substr(0, pos)) + " " + std::string(header.substr(end));
            r.qualifier = cleanQualifier(rest);
            return r;
        }
    }
    return std::nullopt;
}

} // namespace stepscope::metrics
