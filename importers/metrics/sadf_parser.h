#pragma once
// SadfParser tokenizes `sadf -d` (sysstat) output (pure C++, no store): semicolon-separated
// activity blocks, each under a `# hostname;interval;timestamp;...` header. It keeps the activities
// that map to v_metric's canonical series -- CPU (cpu_util = 100 - %idle, io_wait = %iowait; per
// core, "all"/-1 -> no device), memory (kbmemused -> host_mem_used bytes), network (rxkB/s, txkB/s
// summed over interfaces except lo -> net_in/net_out B/s) and disks (rkB/s, wkB/s or rd_sec/s,
// wr_sec/s summed over whole disks -> disk_read/disk_write B/s) -- and ignores the rest.
// Used by SadfImporter and tests.

#include "importers/metrics/metric_text.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope::metrics {

struct SadfSample {
    std::string host;
    std::string series;
    std::optional<int64_t> device;
    std::string unit;
    int64_t tNs = 0;
    double value = 0;
};

class SadfParser {
public:
    enum class Result { Ok, Ignored, Info, Bad };

    static bool isHeader(std::string_view line) { return startsWith(trim(line), "# hostname;"); }
    // Consumes one line; appends finished samples to `out`. Info/Bad come with `message`.
    Result parseLine(std::string_view line, std::vector<SadfSample> &out, std::string &message);
    // Emits the sums still pending at the end of the data.
    void finish(std::vector<SadfSample> &out) { flushGroup(out); }

private:
    enum class Block { None, Cpu, Memory, Network, Disk, Other };
    struct Member { std::string name; double a = 0, b = 0; };
    void flushGroup(std::vector<SadfSample> &out);

    Block m_block = Block::None;
    size_t m_columns = 0;
    int m_colA = -1, m_colB = -1;  // CPU: %idle/%iowait; memory: kbmemused; net: rx/tx; disk: read/write
    double m_scale = 1.0;          // to bytes
    // Pending group (network/disk rows of one instant).
    std::string m_groupKey, m_groupHost;
    int64_t m_groupT = 0;
    std::vector<Member> m_group;
    std::vector<std::string_view> m_fields;
    CivilTimeConverter m_time;
};

} // namespace stepscope::metrics
