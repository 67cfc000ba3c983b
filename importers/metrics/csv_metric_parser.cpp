#include "importers/metrics/csv_metric_parser.h"

#include <algorithm>
#include <cmath>

namespace stepscope::metrics {

namespace {
char detectSeparator(std::string_view header) {
    const size_t commas = size_t(std::count(header.begin(), header.end(), ','));
    const size_t semis = size_t(std::count(header.begin(), header.end(), ';'));
    const size_t tabs = size_t(std::count(header.begin(), header.end(), '\t'));
    if (tabs > commas && tabs >= semis) return '\t';
    if (semis > commas) return ';';
    return ',';
}

bool isTimeName(const std::string &lower) {
    return lower.find("time") != std::string::npos || lower.find("date") != std::string::npos;
}
} // namespace

bool CsvMetricParser::parseHeader(std::string_view line) {
    m_sep = detectSeparator(line);
    splitCsv(line, m_sep, m_fields);
    if (m_fields.size() < 2) return false;
    m_columns.clear();
    m_timeCol = -1;
    for (size_t i = 0; i < m_fields.size(); ++i) {
        Column c;
        c.header = m_fields[i];
        c.name = c.header;
        std::string_view h = trim(c.header);
        if (h.size() > 2 && (h.back() == ']' || h.back() == ')')) {
            char open = h.back() == ']' ? '[' : '(';
            size_t lb = h.rfind(open);
            if (lb != std::string_view::npos && lb > 0) {
                c.unit = std::string(trim(h.substr(lb + 1, h.size() - lb - 2)));
                c.name = std::string(trim(h.substr(0, lb)));
            }
        }
        if (c.name.empty()) c.name = "column" + std::to_string(i + 1);
        if (m_timeCol < 0 && isTimeName(toLower(c.name))) m_timeCol = int(i);
        m_columns.push_back(std::move(c));
    }
    if (m_timeCol < 0) m_timeCol = 0;
    m_columns[size_t(m_timeCol)].isTime = true;
    m_kind = TimeKind::Unknown;
    return true;
}

std::optional<int64_t> CsvMetricParser::parseTime(std::string_view field) {
    field = trim(field);
    if (m_kind == TimeKind::Unknown) {
        if (parseCivilTime(field)) {
            m_kind = TimeKind::Civil;
        } else if (auto v = parseNumber(field)) {
            m_kind = TimeKind::Epoch;
            m_unit = guessEpochUnit(*v);
            m_relative = m_unit == EpochUnit::Seconds && std::fabs(*v) < 1e8;
        } else {
            return std::nullopt;
        }
    }
    if (m_kind == TimeKind::Civil) {
        auto ct = parseCivilTime(field);
        if (!ct) return std::nullopt;
        if (!ct->utcOffsetSeconds) {
            m_zoneless = true;
            if (m_zonelessUtc) ct->utcOffsetSeconds = 0;
        }
        return m_conv.toEpochNs(*ct);
    }
    return epochToNs(field, m_unit);
}

bool CsvMetricParser::parseRow(std::string_view line, int64_t &tNs, std::vector<std::optional<double>> &values,
                               std::string &error, std::vector<std::string> &problems) {
    problems.clear();
    splitCsv(line, m_sep, m_fields);
    if (m_fields.size() != m_columns.size()) {
        error = "expected " + std::to_string(m_columns.size()) + " fields as in the header, found " +
                std::to_string(m_fields.size());
        return false;
    }
    auto t = parseTime(m_fields[size_t(m_timeCol)]);
    if (!t) {
        error = "time '" + m_fields[size_t(m_timeCol)] + "' is not an epoch number or an ISO 8601 date-time";
        return false;
    }
    tNs = *t;
    values.assign(m_columns.size(), std::nullopt);
    for (size_t i = 0; i < m_columns.size(); ++i) {
        Column &c = m_columns[i];
        if (c.isTime || c.isText || isMissing(m_fields[i])) continue;
        auto v = parseNumber(m_fields[i]);
        if (!v) {
            if (!c.sawNumber) c.isText = true, c.textSample = fieldSample(m_fields[i]), c.brokenNumber = looksLikeBrokenNumber(m_fields[i]);
            else problems.push_back(c.header + " = '" + fieldSample(m_fields[i]) + "'");
            continue;
        }
        c.sawNumber = true;
        values[i] = *v;
    }
    return true;
}

bool CsvMetricParser::looksLikeMetricCsv(std::string_view head, std::vector<std::string> *headerOut) {
    if (head.size() >= 3 && (unsigned char)head[0] == 0xEF) head.remove_prefix(3);
    size_t nl = head.find('\n');
    if (nl == std::string_view::npos) return false;
    std::string_view header = head.substr(0, nl);
    size_t nl2 = head.find('\n', nl + 1);
    std::string_view row = head.substr(nl + 1, nl2 == std::string_view::npos ? std::string_view::npos : nl2 - nl - 1);
    if (trim(header).empty() || header.front() == '#' || header.front() == '{' || header.front() == '[') return false;
    CsvMetricParser p;
    if (!p.parseHeader(header)) return false;
    // A header is not data: its time field must not be a time itself.
    if (parseNumber(p.m_fields[size_t(p.m_timeCol)]) || parseCivilTime(p.m_fields[size_t(p.m_timeCol)])) return false;
    int64_t t = 0;
    std::vector<std::optional<double>> values;
    std::string error;
    std::vector<std::string> problems;
    if (!p.parseRow(trim(row), t, values, error, problems)) return false;
    // Without a time-like name, the first column must hold a plausible wall-clock time, so that
    // e.g. amd-smi's "gpu,..." (0, 1, 2) is not read as times.
    if (!isTimeName(toLower(p.m_columns[size_t(p.m_timeCol)].name)) &&
        (p.m_kind != TimeKind::Civil && (p.m_kind != TimeKind::Epoch || p.m_relative)))
        return false;
    bool anyNumber = std::any_of(values.begin(), values.end(), [](const auto &v) { return v.has_value(); });
    if (!anyNumber) return false;
    if (headerOut) {
        headerOut->clear();
        for (const auto &c : p.m_columns) headerOut->push_back(c.header);
    }
    return true;
}

} // namespace stepscope::metrics
