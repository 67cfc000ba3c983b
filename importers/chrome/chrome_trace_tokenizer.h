#pragma once
// ChromeTraceTokenizer turns the bytes of a Chrome trace-event JSON file into one TraceEvent at a
// time. It is fed chunks (from ByteSource, already un-gzipped) and never holds more than the
// unconsumed tail of the input: memory is bounded by the largest single event, not the file.
// Handles the object form {"traceEvents":[...], other keys before and after} and the bare array
// form (a missing final ']' is tolerated); unknown top-level keys are skipped while streaming, so
// a huge one costs nothing. What follows the top-level value is checked up to its first non-space
// byte (trailingOffset), never parsed. Malformed input stops it with a reason and the decompressed byte
// offset; everything handed out before stays valid. Pure C++: no store, no Qt.
// Called by ChromeTraceImporter; tests drive it directly.

#include "importers/common/trace_event.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

class ChromeTraceTokenizer {
public:
    enum class Status { Event, NeedData, End, Error };

    static constexpr size_t kMaxEventBytes = size_t(64) << 20;         // a single event
    static constexpr size_t kMaxCapturedHeaderBytes = size_t(16) << 20; // deviceProperties etc.

    // Appends the next chunk of decompressed input.
    void feed(const char *data, size_t size);
    void feed(std::string_view text) { feed(text.data(), text.size()); }
    // No more input will come: an unfinished value is then an error (or, for a bare array that
    // lacks its ']', the normal end).
    void finish() { m_eof = true; }

    // Next event (Event), or NeedData (feed more / finish), End, or Error (see error()).
    Status next(TraceEvent &event);

    const TraceHeader &header() const { return m_header; }
    const std::string &error() const { return m_error; }
    int64_t errorOffset() const { return m_errorOffset; }
    bool missingClosingBracket() const { return m_missingBracket; }
    // Something other than white space after the top-level value (-1: nothing). It is not read: a
    // second JSON value (trailingIsValue) or garbage; the importer warns, the events stay.
    int64_t trailingOffset() const { return m_trailingOffset; }
    bool trailingIsValue() const { return m_trailingIsValue; }
    int64_t bytesConsumed() const { return m_base + int64_t(m_pos); }

private:
    enum class State { Start, ObjectKey, ObjectComma, ArrayValue, ArrayComma, SkipValue, Done, Failed };
    enum class Parse { Ok, Incomplete, Malformed };

    Status fail(const char *at, std::string reason);
    Status endOfArray(const char *after);
    Status stepStart(const char *p, const char *end);
    Status stepObjectKey(const char *p, const char *end);
    Status stepSkipValue(const char *p, const char *end);
    Status stepArray(const char *p, const char *end, TraceEvent &event);
    Parse parseEvent(const char *&p, const char *end, TraceEvent &event);
    void extractArgs(TraceEvent &event);
    void captureHeader(std::string_view key, std::string_view value);
    int64_t offsetOf(const char *at) const { return m_base + int64_t(at - m_buf.data()); }

    // Streaming skip of an unknown top-level value that may span many chunks.
    struct Skipper {
        int depth = 0;
        bool inString = false;
        bool escape = false;
        bool scalar = false;
        bool started = false;
        // Consumes bytes; returns the position just past the value, or nullptr when more is needed.
        const char *run(const char *p, const char *end);
    };

    std::vector<char> m_buf;
    size_t m_pos = 0;       // first unconsumed byte in m_buf
    int64_t m_base = 0;     // input offset of m_buf[0]
    bool m_eof = false;
    bool m_bareArray = false;
    bool m_firstKey = true;
    bool m_missingBracket = false;
    bool m_stateChanged = false;  // a step moved on without producing anything
    State m_state = State::Start;
    Skipper m_skipper;
    TraceHeader m_header;
    std::string m_parseError;   // reason set by parseEvent on Malformed
    const char *m_parseErrorAt = nullptr;
    std::string m_scratch;      // unescaped strings of the current event
    std::string m_argsScratch;
    std::string m_error;
    int64_t m_errorOffset = -1;
    int64_t m_trailingOffset = -1;
    bool m_trailingIsValue = false;
    bool m_ended = false;
};

} // namespace stepscope
