#pragma once
// SmdebugSystemParser tokenizes SageMaker Debugger system-metrics JSON lines (pure C++, no store):
// one flat JSON object per line with Type, Name, Dimension, Value, Timestamp (epoch seconds) and
// NodeId. It parses just enough JSON for flat objects (strings, numbers, literals; nested values
// are skipped) and maps each record to a canonical v_metric series. Used by SmdebugSystemImporter
// and tests.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace stepscope::metrics {

struct SmdebugRecord {
    std::string type, name, dimension, nodeId;
    double value = 0;
    int64_t tNs = 0;
};

struct SmdebugSeries {
    std::string series;             // canonical or source name
    std::optional<int64_t> device;  // core / GPU index
    std::string unit;
};

class SmdebugSystemParser {
public:
    // Parses one line; false with `error` naming the reason when it is not a complete record.
    static bool parse(std::string_view line, SmdebugRecord &rec, std::string &error);
    // Canonical mapping: CPUUtilization -> cpu_util (per core), I/OWaitPercentage -> io_wait,
    // GPUUtilization -> gpu_util, GPUMemoryUtilization -> gpu_mem_util, network Algorithm
    // Receive/TransmitBytesPerSecond -> net_in/net_out, i/o Read/WriteThroughputInBytesPerSecond
    // -> disk_read/disk_write; anything else keeps its own name.
    static SmdebugSeries map(const SmdebugRecord &rec);
    // Cheap content test for sniffing: a line that looks like such a record.
    static bool looksLikeRecord(std::string_view line);
};

} // namespace stepscope::metrics
