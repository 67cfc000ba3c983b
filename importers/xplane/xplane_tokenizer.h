#pragma once
// XPlaneTokenizer walks the containers of an XSpace (space → planes → lines → events) directly on
// the file's bytes with protobuf's CodedInputStream, so a profile is never held twice: a plane or a
// line is a view (offset + size) into the mapped file, and only the small messages (one event, one
// metadata entry) are materialised, each into a reused generated message. Every length is checked
// against what encloses it; the first malformed byte stops the walk with its absolute file offset
// and the reason. Unknown fields are skipped. Called by XPlaneImporter and XPlaneLineWriter.

#include "importers/xplane/xplane.pb.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace stepscope {

// A length-delimited field: bytes [offset, offset + size) of the file.
struct WireSpan {
    int64_t offset = 0;
    int64_t size = 0;
};

struct WireError {
    int64_t offset = -1;  // absolute byte offset in the file; -1 = no error
    std::string reason;
    bool failed() const { return offset >= 0; }
};

struct XSpaceHeader {
    std::vector<WireSpan> planes;
    std::vector<std::string> hostnames, errors, warnings;
};

struct XPlaneHeader {
    int64_t id = 0;
    std::string name;
    std::vector<WireSpan> lines;
    std::vector<WireSpan> eventMetadata;  // map entries: key = 1, value (XEventMetadata) = 2
    std::vector<WireSpan> statMetadata;   // map entries: key = 1, value (XStatMetadata) = 2
    std::vector<WireSpan> stats;          // plane-level XStat
};

// An event's times as they are on the wire, without its stats (forEachEventTiming).
struct XEventTiming {
    int64_t offsetPs = 0, durationPs = 0;
    bool aggregated = false;  // num_occurrences instead of offset_ps: counted, never a slice
    WireSpan event;           // the whole event's bytes, for parse() later
};

struct XLineHeader {
    int64_t id = 0;
    int64_t displayId = 0;
    std::string name;
    std::string displayName;
    int64_t timestampNs = 0;
    int64_t durationPs = 0;
    int64_t eventCount = 0;
};

class XPlaneTokenizer {
public:
    // `data` stays owned by the caller for the reader's lifetime. Sizes up to 2 GiB (protobuf's limit).
    XPlaneTokenizer(const uint8_t *data, int64_t size) : m_data(data), m_size(size) {}

    static constexpr int64_t kMaxSize = int64_t(INT32_MAX);

    bool readSpace(XSpaceHeader &out);
    bool readPlane(const WireSpan &plane, XPlaneHeader &out);
    bool readLine(const WireSpan &line, XLineHeader &out);
    // Calls fn(event, offset) for each event of the line, the event parsed into a reused message.
    // fn returns false to stop early (e.g. on cancel).
    bool forEachEvent(const WireSpan &line, xplane_wire::XEvent &scratch,
                      const std::function<bool(const xplane_wire::XEvent &, int64_t)> &fn);
    // Calls fn(timing) for each event of the line reading only its scalar fields (no message, no
    // allocation). On malformed bytes it returns false and leaves error() as it was: the full walk
    // (forEachEvent) is the one that reports them.
    bool forEachEventTiming(const WireSpan &line, const std::function<bool(const XEventTiming &)> &fn);
    // Parses a small message (an event metadata map entry's value, a stat) from a span.
    bool parseMapEntry(const WireSpan &entry, int64_t &key, google::protobuf::MessageLite &value);
    bool parse(const WireSpan &span, google::protobuf::MessageLite &message);
    // The caller is done with these bytes for good (a line once written): their memory pages go back
    // to the system, so a large file is not resident whole until the end of the import. The bytes
    // must not be read again.
    void release(const WireSpan &span);

    const WireError &error() const { return m_error; }
    int64_t size() const { return m_size; }

private:
    bool fail(int64_t offset, std::string reason);

    const uint8_t *m_data;
    int64_t m_size;
    WireError m_error;
};

} // namespace stepscope
