// Top-level state machine of ChromeTraceTokenizer (container forms, header keys, streaming skip).
// The per-event parser lives in chrome_trace_tokenizer_event.cpp.
#include "importers/chrome/chrome_trace_tokenizer.h"

#include "importers/common/json_scan.h"

#include <cstddef>
#include <cstring>

namespace stepscope {

using json::Scan;

void ChromeTraceTokenizer::feed(const char *data, size_t size) {
    if (m_pos > 0) {
        // Drop what was consumed; the tail is at most one partial event or header value.
        m_buf.erase(m_buf.begin(), m_buf.begin() + std::ptrdiff_t(m_pos));
        m_base += int64_t(m_pos);
        m_pos = 0;
    }
    m_buf.insert(m_buf.end(), data, data + size);
}

ChromeTraceTokenizer::Status ChromeTraceTokenizer::fail(const char *at, std::string reason) {
    m_state = State::Failed;
    m_errorOffset = at ? offsetOf(at) : bytesConsumed();
    m_error = std::move(reason);
    return Status::Error;
}

ChromeTraceTokenizer::Status ChromeTraceTokenizer::next(TraceEvent &event) {
    while (true) {
        const char *begin = m_buf.data();
        const char *p = begin + m_pos;
        const char *end = begin + m_buf.size();
        Status s = Status::NeedData;
        switch (m_state) {
        case State::Start: s = stepStart(p, end); break;
        case State::ObjectKey: s = stepObjectKey(p, end); break;
        case State::SkipValue: s = stepSkipValue(p, end); break;
        case State::ArrayValue:
        case State::ArrayComma: s = stepArray(p, end, event); break;
        case State::ObjectComma: {
            p = json::skipSpace(p, end);
            m_pos = size_t(p - begin);
            if (p == end)
                return m_eof ? fail(p, "unexpected end of data: top-level object not closed") : Status::NeedData;
            if (*p == ',') {
                m_pos++;
                m_state = State::ObjectKey;
                continue;
            }
            if (*p == '}') {
                m_pos++;
                m_state = State::Done;
                continue;
            }
            return fail(p, "expected ',' or '}' after a top-level value");
        }
        case State::Done: {
            if (m_ended)
                return Status::End;
            // Only white space may follow the trace; the first other byte is noted, the rest unread.
            p = json::skipSpace(p, end);
            m_pos = size_t(p - begin);
            if (p == end && !m_eof)
                return Status::NeedData;
            if (p != end) {
                m_trailingOffset = offsetOf(p);
                m_trailingIsValue = *p == '{' || *p == '[';
            }
            m_pos = m_buf.size();
            m_ended = true;
            return Status::End;
        }
        case State::Failed:
            return Status::Error;
        }
        if (s != Status::NeedData || m_state == State::Failed)
            return s;
        // NeedData with a state change means "go round again"; without one it means "feed me".
        if (m_stateChanged) {
            m_stateChanged = false;
            continue;
        }
        return Status::NeedData;
    }
}

ChromeTraceTokenizer::Status ChromeTraceTokenizer::stepStart(const char *p, const char *end) {
    const char *begin = m_buf.data();
    p = json::skipSpace(p, end);
    if (end - p >= 3 && std::memcmp(p, "\xEF\xBB\xBF", 3) == 0)  // UTF-8 byte order mark
        p = json::skipSpace(p + 3, end);
    m_pos = size_t(p - begin);
    if (p == end)
        return m_eof ? fail(p, "empty input: no JSON value") : Status::NeedData;
    if (*p == '{') {
        m_header.objectForm = true;
        m_state = State::ObjectKey;
    } else if (*p == '[') {
        m_bareArray = true;
        m_state = State::ArrayValue;
    } else {
        return fail(p, "not a Chrome trace: expected '{' or '['");
    }
    m_pos++;
    m_stateChanged = true;
    return Status::NeedData;
}

ChromeTraceTokenizer::Status ChromeTraceTokenizer::stepObjectKey(const char *p, const char *end) {
    const char *begin = m_buf.data();
    p = json::skipSpace(p, end);
    m_pos = size_t(p - begin);
    auto needMore = [&](const char *at) {
        if (m_eof)
            return fail(at, "unexpected end of data in the top-level object");
        return Status::NeedData;
    };
    if (p == end)
        return needMore(p);
    if (*p == '}' && m_firstKey) {
        m_pos++;
        m_state = State::Done;
        m_stateChanged = true;
        return Status::NeedData;
    }
    if (*p != '"')
        return fail(p, "expected a key in the top-level object");
    const char *q = p;
    std::string_view key;
    m_scratch.clear();
    const Scan ks = json::readString(q, end, key, m_scratch);
    if (ks == Scan::Malformed)
        return fail(p, "bad escape in a top-level key");
    if (ks == Scan::Incomplete) {
        if (size_t(end - p) > kMaxCapturedHeaderBytes)
            return fail(p, "top-level key too long");
        return needMore(end);
    }
    q = json::skipSpace(q, end);
    if (q == end)
        return needMore(end);
    if (*q != ':')
        return fail(q, "expected ':' after a top-level key");
    q = json::skipSpace(q + 1, end);
    if (q == end)
        return needMore(end);
    m_firstKey = false;
    if (key == "traceEvents" && *q == '[') {
        m_header.sawTraceEvents = true;
        m_pos = size_t(q + 1 - begin);
        m_state = State::ArrayValue;
        m_stateChanged = true;
        return Status::NeedData;
    }
    const bool wanted = key == "baseTimeNanoseconds" || key == "displayTimeUnit" || key == "deviceProperties" ||
                        key == "computeProperties" || key == "distributedInfo" || key == "traceName" ||
                        key == "host_name" || key == "schemaVersion";
    if (wanted) {
        const char *v = q;
        const Scan vs = json::skipValue(v, end, m_eof);
        if (vs == Scan::Ok) {
            captureHeader(key, std::string_view(q, size_t(v - q)));
            m_pos = size_t(v - begin);
            m_state = State::ObjectComma;
            m_stateChanged = true;
            return Status::NeedData;
        }
        if (vs == Scan::Malformed)
            return fail(q, "malformed value of top-level key");
        if (size_t(end - p) <= kMaxCapturedHeaderBytes)
            return needMore(end);  // retry from the key once more bytes are in
        // Absurdly large: skip it like an unknown key.
    }
    m_skipper = Skipper{};
    m_pos = size_t(q - begin);
    m_state = State::SkipValue;
    m_stateChanged = true;
    return Status::NeedData;
}

const char *ChromeTraceTokenizer::Skipper::run(const char *p, const char *end) {
    for (; p < end; ++p) {
        const char c = *p;
        if (!started) {
            started = true;
            if (c == '"') {
                inString = true;
                continue;
            }
            if (c != '{' && c != '[') {
                scalar = true;
                continue;
            }
        }
        if (scalar) {
            if (c == ',' || c == '}' || c == ']' || json::isSpace(c))
                return p;
            continue;
        }
        if (inString) {
            if (escape)
                escape = false;
            else if (c == '\\')
                escape = true;
            else if (c == '"') {
                inString = false;
                if (depth == 0)
                    return p + 1;
            }
            continue;
        }
        if (c == '"')
            inString = true;
        else if (c == '{' || c == '[')
            ++depth;
        else if ((c == '}' || c == ']') && --depth == 0)
            return p + 1;
    }
    return nullptr;
}

ChromeTraceTokenizer::Status ChromeTraceTokenizer::stepSkipValue(const char *p, const char *end) {
    const char *begin = m_buf.data();
    const char *done = m_skipper.run(p, end);
    if (!done) {
        m_pos = m_buf.size();
        if (!m_eof)
            return Status::NeedData;
        if (!m_skipper.scalar)
            return fail(end, "unexpected end of data inside a top-level value");
        done = end;  // a number that ends the input; ObjectComma reports the unclosed object
    }
    m_pos = size_t(done - begin);
    m_state = State::ObjectComma;
    m_stateChanged = true;
    return Status::NeedData;
}

ChromeTraceTokenizer::Status ChromeTraceTokenizer::endOfArray(const char *after) {
    m_pos = size_t(after - m_buf.data());
    m_state = m_bareArray ? State::Done : State::ObjectComma;
    m_stateChanged = true;
    return Status::NeedData;
}

ChromeTraceTokenizer::Status ChromeTraceTokenizer::stepArray(const char *p, const char *end, TraceEvent &event) {
    const char *begin = m_buf.data();
    p = json::skipSpace(p, end);
    m_pos = size_t(p - begin);
    if (p == end) {
        if (!m_eof)
            return Status::NeedData;
        if (m_bareArray) {  // the trace-event spec allows a bare array without its ']'
            m_missingBracket = true;
            return endOfArray(p);
        }
        return fail(p, "unexpected end of data: traceEvents array not closed");
    }
    if (m_state == State::ArrayComma) {
        if (*p == ',') {
            m_pos++;
            m_state = State::ArrayValue;
            m_stateChanged = true;
            return Status::NeedData;
        }
        if (*p == ']')
            return endOfArray(p + 1);
        return fail(p, "expected ',' or ']' after an event");
    }
    if (*p == ']')  // empty array, or a trailing comma before ']'
        return endOfArray(p + 1);
    if (*p != '{')
        return fail(p, "expected an event object");
    const char *q = p;
    switch (parseEvent(q, end, event)) {
    case Parse::Ok:
        event.offset = offsetOf(p);
        m_pos = size_t(q - begin);
        m_state = State::ArrayComma;
        return Status::Event;
    case Parse::Incomplete:
        if (m_eof)
            return fail(p, "unexpected end of data inside an event");
        if (size_t(end - p) > kMaxEventBytes)
            return fail(p, "event larger than 64 MiB");
        return Status::NeedData;
    case Parse::Malformed:
        break;
    }
    return fail(m_parseErrorAt ? m_parseErrorAt : p, m_parseError);
}

} // namespace stepscope
