#include "importers/metrics/smdebug_system_parser.h"

#include "importers/metrics/metric_text.h"

namespace stepscope::metrics {

namespace {

struct Cursor {
    std::string_view s;
    size_t i = 0;
    void ws() { while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) ++i; }
    bool eat(char c) { ws(); if (i < s.size() && s[i] == c) { ++i; return true; } return false; }
};

bool readString(Cursor &c, std::string &out) {
    if (!c.eat('"')) return false;
    out.clear();
    while (c.i < c.s.size()) {
        char ch = c.s[c.i++];
        if (ch == '"') return true;
        if (ch == '\\') {
            if (c.i >= c.s.size()) return false;
            char e = c.s[c.i++];
            switch (e) {
            case 'n': out += '\n'; break;
            case 't': out += '\t'; break;
            case 'r': out += '\r'; break;
            case 'b': out += '\b'; break;
            case 'f': out += '\f'; break;
            case 'u':
                if (c.i + 4 > c.s.size()) return false;
                c.i += 4;
                out += '?';  // names in these files are ASCII; keep the length sane
                break;
            default: out += e; break;
            }
        } else {
            out += ch;
        }
    }
    return false;  // unterminated
}

// Skips any JSON value; `raw` receives scalar text (numbers/literals) when not a string.
bool readValue(Cursor &c, std::string &str, std::string_view &raw, bool &isString) {
    c.ws();
    if (c.i >= c.s.size()) return false;
    char ch = c.s[c.i];
    isString = false;
    if (ch == '"') { isString = true; return readString(c, str); }
    if (ch == '{' || ch == '[') {
        int depth = 0;
        std::string tmp;
        while (c.i < c.s.size()) {
            char k = c.s[c.i];
            if (k == '"') { if (!readString(c, tmp)) return false; continue; }
            ++c.i;
            if (k == '{' || k == '[') ++depth;
            else if ((k == '}' || k == ']') && --depth == 0) return true;
        }
        return false;
    }
    size_t start = c.i;
    while (c.i < c.s.size() && c.s[c.i] != ',' && c.s[c.i] != '}' && c.s[c.i] != ' ' && c.s[c.i] != '\t') ++c.i;
    raw = c.s.substr(start, c.i - start);
    return !raw.empty();
}

std::optional<int64_t> trailingIndex(std::string_view name) {
    size_t k = name.size();
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9') --k;
    if (k == name.size() || name.size() - k > 6) return std::nullopt;
    return parseInt(name.substr(k));
}

} // namespace

bool SmdebugSystemParser::parse(std::string_view line, SmdebugRecord &rec, std::string &error) {
    rec = SmdebugRecord{};
    Cursor c{trim(line)};
    if (!c.eat('{')) { error = "not a JSON object"; return false; }
    bool haveValue = false, haveTime = false;
    std::string key, str;
    std::string_view raw;
    bool isString = false;
    if (c.eat('}')) { error = "empty JSON object"; return false; }
    while (true) {
        if (!readString(c, key)) { error = "malformed JSON (expected a quoted key)"; return false; }
        if (!c.eat(':')) { error = "malformed JSON (expected ':' after \"" + key + "\")"; return false; }
        if (!readValue(c, str, raw, isString)) { error = "malformed or truncated JSON value for \"" + key + "\""; return false; }
        if (key == "Type" && isString) rec.type = str;
        else if (key == "Name" && isString) rec.name = str;
        else if (key == "Dimension" && isString) rec.dimension = str;
        else if (key == "NodeId" && isString) rec.nodeId = str;
        else if (key == "Value") {
            auto v = isString ? parseNumber(str) : parseNumber(raw);
            if (!v) { error = "Value is not a finite number"; return false; }
            rec.value = *v;
            haveValue = true;
        } else if (key == "Timestamp") {
            auto t = isString ? secondsToNs(str) : secondsToNs(raw);
            if (!t) { error = "Timestamp is not a number of epoch seconds"; return false; }
            rec.tNs = *t;
            haveTime = true;
        }
        if (c.eat(',')) continue;
        if (c.eat('}')) break;
        error = "truncated or malformed JSON object";
        return false;
    }
    c.ws();
    if (c.i != c.s.size()) { error = "unexpected text after the JSON object"; return false; }
    if (!haveValue || !haveTime) {
        error = std::string("record without ") + (!haveValue ? "Value" : "Timestamp");
        return false;
    }
    return true;
}

SmdebugSeries SmdebugSystemParser::map(const SmdebugRecord &rec) {
    SmdebugSeries s;
    const std::string type = toLower(rec.type);
    const std::string &dim = rec.dimension;
    if (type == "cpu" || type == "gpu") s.device = trailingIndex(rec.name);
    if (dim == "CPUUtilization") { s.series = "cpu_util"; s.unit = "%"; }
    else if (dim == "I/OWaitPercentage") { s.series = "io_wait"; s.unit = "%"; }
    else if (dim == "GPUUtilization") { s.series = "gpu_util"; s.unit = "%"; }
    else if (dim == "GPUMemoryUtilization") { s.series = "gpu_mem_util"; s.unit = "%"; }
    else if (type == "network" && (dim == "Algorithm" || dim.empty()) && rec.name == "ReceiveBytesPerSecond") { s.series = "net_in"; s.unit = "B/s"; }
    else if (type == "network" && (dim == "Algorithm" || dim.empty()) && rec.name == "TransmitBytesPerSecond") { s.series = "net_out"; s.unit = "B/s"; }
    else if (rec.name == "ReadThroughputInBytesPerSecond") { s.series = "disk_read"; s.unit = "B/s"; }
    else if (rec.name == "WriteThroughputInBytesPerSecond") { s.series = "disk_write"; s.unit = "B/s"; }
    else {
        // Source-specific: keep its names ("MemoryUsedPercent", "IOPS", "ReceiveBytesPerSecond.Platform").
        if (s.device) s.series = dim.empty() ? rec.type : dim;
        else if (rec.name.empty()) s.series = dim;
        else s.series = dim.empty() ? rec.name : rec.name + "." + dim;
        if (s.series.empty()) s.series = rec.type.empty() ? "value" : rec.type;
        if (icontains(s.series, "Percent") || icontains(s.series, "Utilization")) s.unit = "%";
        else if (icontains(s.series, "BytesPerSecond")) s.unit = "B/s";
    }
    return s;
}

bool SmdebugSystemParser::looksLikeRecord(std::string_view line) {
    line = trim(line);
    return startsWith(line, "{") && line.find("\"Dimension\"") != std::string_view::npos &&
           line.find("\"Value\"") != std::string_view::npos && line.find("\"Type\"") != std::string_view::npos;
}

} // namespace stepscope::metrics
