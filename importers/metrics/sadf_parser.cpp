#include "importers/metrics/sadf_parser.h"

namespace stepscope::metrics {

namespace {
int findColumn(const std::vector<std::string_view> &cols, std::string_view name) {
    for (size_t i = 0; i < cols.size(); ++i)
        if (cols[i] == name) return int(i);
    return -1;
}

// sda1 when sda is listed, nvme0n1p2 when nvme0n1 is, cciss/c0d0p1 when cciss/c0d0 is.
bool isPartitionOf(std::string_view part, std::string_view disk) {
    if (part.size() <= disk.size() || part.substr(0, disk.size()) != disk) return false;
    std::string_view rest = part.substr(disk.size());
    if (rest.front() == 'p') rest.remove_prefix(1);
    if (rest.empty()) return false;
    for (char c : rest)
        if (c < '0' || c > '9') return false;
    return true;
}

bool isStackedDisk(std::string_view name) {
    return startsWith(name, "dm-") || startsWith(name, "loop") || startsWith(name, "ram") ||
           startsWith(name, "zram") || startsWith(name, "md") || startsWith(name, "sr");
}
} // namespace

SadfParser::Result SadfParser::parseLine(std::string_view line, std::vector<SadfSample> &out, std::string &message) {
    line = trim(line);
    if (line.empty()) return Result::Ignored;
    if (isHeader(line)) {
        flushGroup(out);
        splitFields(line.substr(2), ';', m_fields);
        m_columns = m_fields.size();
        m_colA = m_colB = -1;
        m_scale = 1.0;
        m_block = Block::Other;
        if (findColumn(m_fields, "CPU") == 3 && findColumn(m_fields, "%idle") >= 0) {
            m_block = Block::Cpu;
            m_colA = findColumn(m_fields, "%idle");
            m_colB = findColumn(m_fields, "%iowait");
        } else if (findColumn(m_fields, "kbmemused") >= 0) {
            m_block = Block::Memory;
            m_colA = findColumn(m_fields, "kbmemused");
            m_scale = 1024.0;
        } else if (findColumn(m_fields, "IFACE") == 3 && findColumn(m_fields, "rxkB/s") >= 0) {
            m_block = Block::Network;
            m_colA = findColumn(m_fields, "rxkB/s");
            m_colB = findColumn(m_fields, "txkB/s");
            m_scale = 1024.0;
        } else if (findColumn(m_fields, "DEV") == 3) {
            m_colA = findColumn(m_fields, "rkB/s");
            m_colB = findColumn(m_fields, "wkB/s");
            m_scale = 1024.0;
            if (m_colA < 0 || m_colB < 0) {
                m_colA = findColumn(m_fields, "rd_sec/s");
                m_colB = findColumn(m_fields, "wr_sec/s");
                m_scale = 512.0;
            }
            if (m_colA >= 0 && m_colB >= 0) m_block = Block::Disk;
        }
        return Result::Ignored;
    }
    if (line.front() == '#') return Result::Ignored;
    splitFields(line, ';', m_fields);
    if (m_fields.size() >= 4 && (m_fields[1] == "-1" || startsWith(m_fields[3], "LINUX-RESTART") ||
                                 startsWith(m_fields[3], "COM "))) {
        message = std::string(m_fields[3]) + " at " + std::string(m_fields[2]);
        for (char &c : message)
            if (c == '\t') c = ' ';
        return Result::Info;
    }
    if (m_block == Block::None) { message = "data line before any '# hostname;interval;timestamp;...' header"; return Result::Bad; }
    if (m_block == Block::Other) return Result::Ignored;
    if (m_fields.size() != m_columns) {
        message = "expected " + std::to_string(m_columns) + " fields as in the block header, found " +
                  std::to_string(m_fields.size()) + "; row skipped";
        return Result::Bad;
    }
    int64_t tNs;
    constexpr int64_t kMaxSeconds = INT64_MAX / 1000000000LL;  // seconds that fit in int64 ns
    std::string_view ts = m_fields[2];
    if (auto ct = parseCivilTime(ts)) tNs = m_time.toEpochNs(*ct);
    else if (auto secs = parseInt(ts); secs && *secs > -kMaxSeconds && *secs < kMaxSeconds) tNs = *secs * 1000000000LL;  // sadf -U
    else { message = "timestamp '" + std::string(ts) + "' is not 'YYYY-MM-DD HH:MM:SS UTC'; row skipped"; return Result::Bad; }
    std::string host(m_fields[0]);
    auto num = [&](int col) -> std::optional<double> { return col >= 0 ? parseNumber(m_fields[size_t(col)]) : std::nullopt; };
    auto a = num(m_colA), b = num(m_colB);
    if ((m_colA >= 0 && !a && !isMissing(m_fields[size_t(m_colA)])) ||
        (m_colB >= 0 && !b && !isMissing(m_fields[size_t(m_colB)]))) {
        message = "value is not a number; row skipped";
        return Result::Bad;
    }
    switch (m_block) {
    case Block::Cpu: {
        std::string_view cpu = m_fields[3];
        std::optional<int64_t> device;
        if (cpu != "all" && cpu != "-1") {
            device = parseInt(cpu);
            if (!device || *device < 0) { message = "CPU '" + std::string(cpu) + "' is not a core number; row skipped"; return Result::Bad; }
        }
        if (a) out.push_back({host, "cpu_util", device, "%", tNs, 100.0 - *a});
        if (b) out.push_back({host, "io_wait", device, "%", tNs, *b});
        return Result::Ok;
    }
    case Block::Memory:
        if (a) out.push_back({host, "host_mem_used", std::nullopt, "B", tNs, *a * m_scale});
        return Result::Ok;
    case Block::Network:
    case Block::Disk: {
        std::string key = host + ';' + std::string(ts);
        if (key != m_groupKey) {
            flushGroup(out);
            m_groupKey = key;
            m_groupHost = host;
            m_groupT = tNs;
        }
        m_group.push_back({std::string(m_fields[3]), a.value_or(0.0), b.value_or(0.0)});
        return Result::Ok;
    }
    default:
        return Result::Ignored;
    }
}

void SadfParser::flushGroup(std::vector<SadfSample> &out) {
    if (m_group.empty()) return;
    double sumA = 0, sumB = 0;
    for (const Member &m : m_group) {
        bool skip = false;
        if (m_block == Block::Network) {
            skip = m.name == "lo";
        } else {
            skip = isStackedDisk(m.name);
            for (const Member &other : m_group)
                skip = skip || isPartitionOf(m.name, other.name);
        }
        if (!skip) { sumA += m.a; sumB += m.b; }
    }
    const bool net = m_block == Block::Network;
    out.push_back({m_groupHost, net ? "net_in" : "disk_read", std::nullopt, "B/s", m_groupT, sumA * m_scale});
    out.push_back({m_groupHost, net ? "net_out" : "disk_write", std::nullopt, "B/s", m_groupT, sumB * m_scale});
    m_group.clear();
    m_groupKey.clear();
}

} // namespace stepscope::metrics
