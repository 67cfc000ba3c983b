#include "importers/metrics/dcgmi_dmon_parser.h"

namespace stepscope::metrics {

namespace {
struct Tag {
    const char *tag, *series, *unit;
    double scale;
};
const Tag kTags[] = {
    {"GPUTL", "gpu_util", "%", 1.0},       {"MCUTL", "gpu_mem_util", "%", 1.0},
    {"FBUSD", "gpu_mem_used", "B", 1048576.0}, {"FBFRE", "FBFRE", "B", 1048576.0},
    {"FBTTL", "FBTTL", "B", 1048576.0},    {"POWER", "POWER", "W", 1.0},
    {"TMPTR", "TMPTR", "C", 1.0},          {"GTEMP", "GTEMP", "C", 1.0},
    {"SMCLK", "SMCLK", "MHz", 1.0},        {"MMCLK", "MMCLK", "MHz", 1.0},
    {"PCITX", "PCITX", "B/s", 1.0},        {"PCIRX", "PCIRX", "B/s", 1.0},
    {"NVLTX", "NVLTX", "B/s", 1.0},        {"NVLRX", "NVLRX", "B/s", 1.0},
};
} // namespace

DcgmiDmonParser::Result DcgmiDmonParser::parseLine(std::string_view line, Row &row, std::string &error) {
    line = trim(line);
    if (line.empty()) return Result::Ignored;
    splitWhitespace(line, m_tokens);
    if (m_tokens[0] == "#Entity" || (m_tokens[0] == "#" && m_tokens.size() > 1 && m_tokens[1] == "Entity")) {
        size_t first = m_tokens[0] == "#Entity" ? 1 : 2;
        m_columns.clear();
        bool hasGputl = false;
        for (size_t i = first; i < m_tokens.size(); ++i) hasGputl = hasGputl || m_tokens[i] == "GPUTL";
        for (size_t i = first; i < m_tokens.size(); ++i) {
            Column c{std::string(m_tokens[i]), std::string(m_tokens[i]), "ratio", 1.0};
            for (const Tag &t : kTags)
                if (c.tag == t.tag) c = {t.tag, t.series, t.unit, t.scale};
            if (c.tag == "GRACT" && !hasGputl) c = {"GRACT", "gpu_util", "%", 100.0};
            m_columns.push_back(std::move(c));
        }
        return Result::Header;
    }
    if (m_tokens[0] == "ID" || line.front() == '#') return Result::Ignored;
    if (m_columns.empty()) {
        error = "data before the '#Entity ...' header line";
        return Result::Bad;
    }
    if (m_tokens.size() != m_columns.size() + 2) {
        error = "expected entity, id and " + std::to_string(m_columns.size()) + " values, found " +
                std::to_string(m_tokens.size()) + " fields";
        return Result::Bad;
    }
    if (m_tokens[0] != "GPU") return Result::Skipped;
    auto dev = parseInt(m_tokens[1]);
    if (!dev || *dev < 0 || *dev > 4096) {
        error = "GPU id '" + std::string(m_tokens[1]) + "' is not a number";
        return Result::Bad;
    }
    row.device = *dev;
    row.sample = m_counter.sampleFor(row.device);
    row.values.assign(m_columns.size(), std::nullopt);
    for (size_t i = 0; i < m_columns.size(); ++i) {
        std::string_view f = m_tokens[i + 2];
        if (isMissing(f)) continue;
        if (auto v = parseNumber(f)) row.values[i] = *v * m_columns[i].scale;
    }
    return Result::Row;
}

} // namespace stepscope::metrics
