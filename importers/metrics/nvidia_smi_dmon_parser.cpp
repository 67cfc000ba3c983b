#include "importers/metrics/nvidia_smi_dmon_parser.h"

namespace stepscope::metrics {

namespace {
void tokensAfterHash(std::string_view line, std::vector<std::string_view> &out) {
    line = trim(line);
    if (!line.empty() && line.front() == '#') line.remove_prefix(1);
    splitWhitespace(line, out);
}
bool hasToken(const std::vector<std::string_view> &t, std::string_view name) {
    for (auto s : t)
        if (s == name) return true;
    return false;
}
} // namespace

bool NvidiaSmiDmonParser::looksLikeDmon(std::string_view head) {
    size_t nl = head.find('\n');
    if (nl == std::string_view::npos) return false;
    std::string_view first = trim(head.substr(0, nl));
    std::string_view rest = head.substr(nl + 1);
    std::string_view second = trim(rest.substr(0, rest.find('\n')));
    if (!startsWith(first, "#") || !startsWith(second, "#")) return false;
    std::vector<std::string_view> a, b;
    tokensAfterHash(first, a);
    tokensAfterHash(second, b);
    return hasToken(a, "gpu") && hasToken(b, "Idx") && a.size() == b.size();
}

void NvidiaSmiDmonParser::setNames(const std::vector<std::string_view> &names) {
    m_columns.clear();
    m_gpuCol = m_dateCol = m_timeCol = -1;
    for (size_t i = 0; i < names.size(); ++i) {
        Column c;
        c.tag = std::string(names[i]);
        c.series = c.tag;
        if (c.tag == "gpu") m_gpuCol = int(i);
        else if (c.tag == "Date") m_dateCol = int(i);
        else if (c.tag == "Time") m_timeCol = int(i);
        else if (c.tag == "sm") c.series = "gpu_util";
        else if (c.tag == "mem") c.series = "gpu_mem_util";
        else if (c.tag == "fb") c.series = "gpu_mem_used";
        m_columns.push_back(std::move(c));
    }
}

void NvidiaSmiDmonParser::setUnits(const std::vector<std::string_view> &units) {
    for (size_t i = 0; i < m_columns.size() && i < units.size(); ++i) {
        Column &c = m_columns[i];
        c.unit = std::string(units[i]);
        if (c.unit == "MB") {  // dmon's MB are MiB
            c.unit = "B";
            c.scale = 1024.0 * 1024.0;
        }
    }
}

NvidiaSmiDmonParser::Result NvidiaSmiDmonParser::parseLine(std::string_view line, Row &row, std::string &error) {
    line = trim(line);
    if (line.empty()) return Result::Ignored;
    if (line.front() == '#') {
        tokensAfterHash(line, m_tokens);
        if (m_expectUnits) {
            m_expectUnits = false;
            setUnits(m_tokens);
            return Result::Header;
        }
        if (hasToken(m_tokens, "gpu")) {
            setNames(m_tokens);
            m_expectUnits = true;
            return Result::Header;
        }
        return Result::Ignored;
    }
    m_expectUnits = false;
    if (m_gpuCol < 0) {
        error = "data before the '# gpu ...' header line";
        return Result::Bad;
    }
    splitWhitespace(line, m_tokens);
    if (m_tokens.size() != m_columns.size()) {
        error = "expected " + std::to_string(m_columns.size()) + " columns as in the header, found " +
                std::to_string(m_tokens.size());
        return Result::Bad;
    }
    auto dev = parseInt(m_tokens[size_t(m_gpuCol)]);
    if (!dev || *dev < 0 || *dev > 4096) {
        error = "GPU index '" + std::string(m_tokens[size_t(m_gpuCol)]) + "' is not a number";
        return Result::Bad;
    }
    row.device = *dev;
    row.tNs.reset();
    if (hasTimestamps()) {
        std::string_view d = m_tokens[size_t(m_dateCol)];
        std::string iso = d.size() == 8 ? std::string(d.substr(0, 4)) + "-" + std::string(d.substr(4, 2)) + "-" +
                                              std::string(d.substr(6, 2))
                                        : std::string(d);
        auto ct = parseCivilTime(iso + " " + std::string(m_tokens[size_t(m_timeCol)]));
        if (!ct) {
            error = "date/time '" + std::string(d) + " " + std::string(m_tokens[size_t(m_timeCol)]) + "' not understood";
            return Result::Bad;
        }
        row.tNs = m_conv.toEpochNs(*ct);
    }
    row.sample = m_counter.sampleFor(row.device);
    row.values.assign(m_columns.size(), std::nullopt);
    for (size_t i = 0; i < m_columns.size(); ++i) {
        if (int(i) == m_gpuCol || int(i) == m_dateCol || int(i) == m_timeCol || isMissing(m_tokens[i])) continue;
        if (auto v = parseNumber(m_tokens[i])) row.values[i] = *v * m_columns[i].scale;
    }
    return Result::Row;
}

} // namespace stepscope::metrics
