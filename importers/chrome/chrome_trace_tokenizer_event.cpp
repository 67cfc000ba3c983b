// Per-event parsing of ChromeTraceTokenizer: one JSON object → TraceEvent, in a single pass over
// bytes already in the buffer (Incomplete when the object runs past them), plus the few args and
// top-level header values the importer needs.
#include "importers/chrome/chrome_trace_tokenizer.h"

#include "importers/common/json_scan.h"

#include <cstring>

namespace stepscope {

using json::Scan;

namespace {

template <size_t N>
inline bool is(std::string_view key, const char (&lit)[N]) {
    return key.size() == N - 1 && std::memcmp(key.data(), lit, N - 1) == 0;
}

} // namespace

ChromeTraceTokenizer::Parse ChromeTraceTokenizer::parseEvent(const char *&p, const char *end, TraceEvent &ev) {
    ev = TraceEvent{};
    m_scratch.clear();
    if (m_scratch.capacity() < size_t(end - p))
        m_scratch.reserve(size_t(end - p));  // unescaped text never outgrows the raw text
    const char *q = json::skipSpace(p + 1, end);
    auto malformed = [&](const char *at, const char *why) {
        m_parseErrorAt = at;
        m_parseError = why;
        return Parse::Malformed;
    };
    auto scanResult = [&](Scan s, const char *at, const char *why) {
        return s == Scan::Incomplete ? Parse::Incomplete : malformed(at, why);
    };
    if (q == end)
        return Parse::Incomplete;
    if (*q == '}') {
        p = q + 1;
        return Parse::Ok;
    }
    while (true) {
        if (q == end)
            return Parse::Incomplete;
        if (*q != '"')
            return malformed(q, "expected a key in an event");
        std::string_view key;
        if (Scan s = json::readString(q, end, key, m_scratch); s != Scan::Ok)
            return scanResult(s, q, "bad escape in an event key");
        q = json::skipSpace(q, end);
        if (q == end)
            return Parse::Incomplete;
        if (*q != ':')
            return malformed(q, "expected ':' after a key in an event");
        q = json::skipSpace(q + 1, end);
        if (q == end)
            return Parse::Incomplete;

        // Values: a string gives its (unescaped) text; anything else its raw text.
        const char *valueStart = q;
        std::string_view text;
        bool isString = false;
        auto readText = [&]() -> Scan {
            if (*q == '"') {
                isString = true;
                return json::readString(q, end, text, m_scratch);
            }
            if (*q == '{' || *q == '[') {
                const Scan s = json::skipValue(q, end);
                text = std::string_view(valueStart, size_t(q - valueStart));
                return s;
            }
            return json::readNumberText(q, end, text);
        };
        const Scan s = readText();
        if (s != Scan::Ok)
            return scanResult(s, valueStart, "malformed value in an event");

        switch (key.size()) {
        case 1:
            if (key[0] == 's') ev.scope = text.empty() ? 0 : text[0];
            break;
        case 2:
            if (is(key, "ph")) {
                // "XX" is not 'X': a phase is one letter, anything longer is an unknown phase.
                ev.ph = text.empty() ? 0 : text.size() == 1 ? text[0] : '?';
                ev.phText = text;
            } else if (is(key, "ts")) {
                ev.tsNs = json::microsTextToNs(text);
                ev.tsInvalid = !ev.tsNs;
            } else if (is(key, "id") && ev.id.empty()) ev.id = text;
            else if (is(key, "bp")) ev.bp = text.empty() ? 0 : text[0];
            break;
        case 3:
            if (is(key, "pid")) ev.pid = text;
            else if (is(key, "tid")) ev.tid = text;
            else if (is(key, "cat")) ev.cat = text;
            else if (is(key, "dur")) {
                ev.durNs = json::microsTextToNs(text);
                ev.durInvalid = !ev.durNs;
            } else if (is(key, "id2") && ev.id.empty()) ev.id = text;  // {"local": ..} as opaque text
            break;
        case 4:
            if (is(key, "name")) ev.name = text;
            else if (is(key, "args") && !isString && !text.empty() && text[0] == '{') ev.args = text;
            break;
        case 7:
            if (is(key, "bind_id")) ev.bindId = text;
            else if (is(key, "flow_in")) ev.flowIn = text == "true";
            break;
        case 8:
            if (is(key, "flow_out")) ev.flowOut = text == "true";
            break;
        default:
            break;
        }

        q = json::skipSpace(q, end);
        if (q == end)
            return Parse::Incomplete;
        if (*q == ',') {
            q = json::skipSpace(q + 1, end);
            continue;
        }
        if (*q == '}') {
            p = q + 1;
            break;
        }
        return malformed(q, "expected ',' or '}' in an event");
    }
    if (!ev.args.empty())
        extractArgs(ev);
    return Parse::Ok;
}

void ChromeTraceTokenizer::extractArgs(TraceEvent &ev) {
    // Unescaped args text goes to m_scratch too: its capacity covers the whole event.
    json::forEachMember(ev.args, m_scratch, [&](std::string_view key, std::string_view raw) {
        auto asInt = [&]() { return json::parseInteger(json::scalarText(raw, m_argsScratch)); };
        switch (key.size()) {
        case 4:
            if (is(key, "name")) ev.argName = json::scalarText(raw, m_scratch);
            break;
        case 5:
            if (is(key, "bytes")) ev.bytes = asInt();
            break;
        case 6:
            if (is(key, "device") || is(key, "Device")) ev.device = asInt();
            else if (is(key, "stream")) ev.stream = asInt();
            else if (is(key, "labels")) ev.argLabels = json::scalarText(raw, m_scratch);
            break;
        case 9:
            if (is(key, "Device Id")) ev.memDeviceId = asInt();
            break;
        case 10:
            if (is(key, "sort_index")) ev.sortIndex = asInt();
            break;
        case 11:
            if (is(key, "correlation")) ev.correlation = asInt();
            else if (is(key, "External id") || is(key, "external id")) ev.externalId = asInt();
            else if (is(key, "Device Type")) ev.memDeviceType = asInt();
            break;
        case 14:
            if (is(key, "Total Reserved")) ev.totalReserved = asInt();
            break;
        case 15:
            if (is(key, "Total Allocated")) ev.totalAllocated = asInt();
            break;
        case 32:
            if (is(key, "start_time_since_epoch_in_micros")) ev.startTimeSinceEpochUs = asInt();
            break;
        default:
            break;
        }
        m_argsScratch.clear();
        return true;
    });
}

void ChromeTraceTokenizer::captureHeader(std::string_view key, std::string_view value) {
    std::string scratch;
    scratch.reserve(value.size());
    auto text = [&](std::string_view raw) { return std::string(json::scalarText(raw, scratch)); };
    if (key == "baseTimeNanoseconds") {
        m_header.baseTimeNs = json::parseInteger(json::scalarText(value, scratch));
    } else if (key == "displayTimeUnit") {
        m_header.displayTimeUnit = text(value);
    } else if (key == "traceName") {
        m_header.traceName = text(value);
    } else if (key == "host_name") {
        m_header.hostName = text(value);
    } else if (key == "schemaVersion") {
        m_header.schemaVersion = json::parseInteger(json::scalarText(value, scratch));
    } else if (key == "distributedInfo") {
        json::forEachMember(value, scratch, [&](std::string_view k, std::string_view v) {
            std::string s2;
            if (k == "rank") m_header.rank = json::parseInteger(json::scalarText(v, s2));
            else if (k == "world_size") m_header.worldSize = json::parseInteger(json::scalarText(v, s2));
            else if (k == "backend") m_header.backend = std::string(json::scalarText(v, s2));
            return true;
        });
    } else if (key == "deviceProperties" || key == "computeProperties") {
        const char *p = json::skipSpace(value.data(), value.data() + value.size());
        const char *end = value.data() + value.size();
        if (p == end || *p != '[')
            return;
        p = json::skipSpace(p + 1, end);
        while (p < end && *p == '{') {
            const char *start = p;
            if (json::skipValue(p, end) != Scan::Ok)
                return;
            TraceDeviceProperty dev;
            bool hasId = false;
            std::string s2;
            json::forEachMember(std::string_view(start, size_t(p - start)), s2,
                                [&](std::string_view k, std::string_view v) {
                std::string s3;
                if (k == "id") {
                    if (auto id = json::parseInteger(json::scalarText(v, s3))) {
                        dev.id = *id;
                        hasId = true;
                    }
                } else if (k == "name") {
                    dev.name = std::string(json::scalarText(v, s3));
                } else if (k == "totalGlobalMem") {
                    dev.totalGlobalMem = json::parseInteger(json::scalarText(v, s3));
                }
                return true;
            });
            if (!hasId)
                dev.id = int64_t(m_header.devices.size());
            m_header.devices.push_back(std::move(dev));
            p = json::skipSpace(p, end);
            if (p < end && *p == ',')
                p = json::skipSpace(p + 1, end);
        }
    }
}

} // namespace stepscope
