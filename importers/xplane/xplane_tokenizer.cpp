#include "importers/xplane/xplane_tokenizer.h"

#include <sys/mman.h>
#include <unistd.h>

#include <google/protobuf/io/coded_stream.h>

namespace stepscope {
namespace {

namespace pbio = google::protobuf::io;

// One field of a message: its number, wire type and value (a varint / fixed value or a span).
struct Field {
    uint32_t number = 0;
    int wireType = 0;
    uint64_t value = 0;
    WireSpan span;
    int64_t offset = 0;  // where the tag starts
};

// Iterates the fields of one message held in [span.offset, span.offset + span.size) of `data`.
class FieldWalker {
public:
    FieldWalker(const uint8_t *data, const WireSpan &span)
        : m_in(data + span.offset, int(span.size)), m_base(span.offset), m_size(span.size) {}

    // False at the end (error empty) or on malformed input (error says why, errorOffset where).
    bool next(Field &f) {
        const int64_t here = m_base + m_in.CurrentPosition();
        if (m_in.CurrentPosition() >= m_size)
            return false;
        f.offset = here;
        uint64_t tag = 0;
        if (!m_in.ReadVarint64(&tag))
            return fail(here, "malformed field tag (varint runs past the end of its message)");
        f.number = uint32_t(tag >> 3);
        f.wireType = int(tag & 7);
        if (f.number == 0 || (tag >> 3) > 0x1FFFFFFF)
            return fail(here, "invalid field number " + std::to_string(tag >> 3));
        switch (f.wireType) {
        case 0:
            if (!m_in.ReadVarint64(&f.value))
                return fail(here, "malformed varint in field " + std::to_string(f.number));
            return true;
        case 1:
            if (!m_in.ReadLittleEndian64(&f.value))
                return fail(here, "fixed64 field " + std::to_string(f.number) + " runs past the end of its message");
            return true;
        case 5: {
            uint32_t v = 0;
            if (!m_in.ReadLittleEndian32(&v))
                return fail(here, "fixed32 field " + std::to_string(f.number) + " runs past the end of its message");
            f.value = v;
            return true;
        }
        case 2: {
            uint64_t len = 0;
            if (!m_in.ReadVarint64(&len))
                return fail(here, "malformed length of field " + std::to_string(f.number));
            const int64_t start = m_in.CurrentPosition();
            if (len > uint64_t(m_size - start))
                return fail(here, "length " + std::to_string(len) + " of field " + std::to_string(f.number) +
                                      " runs past the end of its enclosing message (" +
                                      std::to_string(m_size - start) + " bytes left)");
            f.span = {m_base + start, int64_t(len)};
            m_in.Skip(int(len));
            return true;
        }
        default:
            return fail(here, "wire type " + std::to_string(f.wireType) + " (field " + std::to_string(f.number) +
                                  ") is not valid in an XSpace");
        }
    }

    bool failed() const { return m_errorOffset >= 0; }
    int64_t errorOffset() const { return m_errorOffset; }
    const std::string &errorReason() const { return m_error; }

private:
    bool fail(int64_t offset, std::string reason) {
        m_errorOffset = offset;
        m_error = std::move(reason);
        return false;
    }

    pbio::CodedInputStream m_in;
    int64_t m_base;
    int64_t m_size;
    int64_t m_errorOffset = -1;
    std::string m_error;
};

std::string text(const uint8_t *data, const WireSpan &s) {
    return std::string(reinterpret_cast<const char *>(data + s.offset), size_t(s.size));
}

} // namespace

bool XPlaneTokenizer::fail(int64_t offset, std::string reason) {
    if (!m_error.failed()) {
        m_error.offset = offset;
        m_error.reason = std::move(reason);
    }
    return false;
}

#define STEPSCOPE_WALK_END(walker)                                                                 \
    if ((walker).failed())                                                                         \
        return fail((walker).errorOffset(), (walker).errorReason());                               \
    return true;

bool XPlaneTokenizer::readSpace(XSpaceHeader &out) {
    if (m_size > kMaxSize)
        return fail(0, "file larger than 2 GiB, beyond what a protobuf message can hold");
    FieldWalker w(m_data, {0, m_size});
    Field f;
    while (w.next(f)) {
        if (f.wireType != 2)
            continue;  // unknown scalar field
        switch (f.number) {
        case 1: out.planes.push_back(f.span); break;
        case 2: out.errors.push_back(text(m_data, f.span)); break;
        case 3: out.warnings.push_back(text(m_data, f.span)); break;
        case 4: out.hostnames.push_back(text(m_data, f.span)); break;
        default: break;
        }
    }
    STEPSCOPE_WALK_END(w)
}

bool XPlaneTokenizer::readPlane(const WireSpan &plane, XPlaneHeader &out) {
    FieldWalker w(m_data, plane);
    Field f;
    while (w.next(f)) {
        if (f.number == 1 && f.wireType == 0) {
            out.id = int64_t(f.value);
        } else if (f.wireType == 2) {
            switch (f.number) {
            case 2: out.name = text(m_data, f.span); break;
            case 3: out.lines.push_back(f.span); break;
            case 4: out.eventMetadata.push_back(f.span); break;
            case 5: out.statMetadata.push_back(f.span); break;
            case 6: out.stats.push_back(f.span); break;
            default: break;
            }
        }
    }
    STEPSCOPE_WALK_END(w)
}

bool XPlaneTokenizer::readLine(const WireSpan &line, XLineHeader &out) {
    FieldWalker w(m_data, line);
    Field f;
    while (w.next(f)) {
        if (f.wireType == 0) {
            switch (f.number) {
            case 1: out.id = int64_t(f.value); break;
            case 10: out.displayId = int64_t(f.value); break;
            case 3: out.timestampNs = int64_t(f.value); break;
            case 9: out.durationPs = int64_t(f.value); break;
            default: break;
            }
        } else if (f.wireType == 2) {
            switch (f.number) {
            case 2: out.name = text(m_data, f.span); break;
            case 11: out.displayName = text(m_data, f.span); break;
            case 4: ++out.eventCount; break;
            default: break;
            }
        }
    }
    STEPSCOPE_WALK_END(w)
}

bool XPlaneTokenizer::forEachEvent(const WireSpan &line, xplane_wire::XEvent &scratch,
                                    const std::function<bool(const xplane_wire::XEvent &, int64_t)> &fn) {
    FieldWalker w(m_data, line);
    Field f;
    while (w.next(f)) {
        if (f.number != 4 || f.wireType != 2)
            continue;
        if (!parse(f.span, scratch))
            return false;
        if (!fn(scratch, f.offset))
            return true;
    }
    STEPSCOPE_WALK_END(w)
}

bool XPlaneTokenizer::forEachEventTiming(const WireSpan &line, const std::function<bool(const XEventTiming &)> &fn) {
    FieldWalker w(m_data, line);
    Field f, g;
    while (w.next(f)) {
        if (f.number != 4 || f.wireType != 2)
            continue;
        XEventTiming t;
        t.event = f.span;
        FieldWalker ew(m_data, f.span);
        while (ew.next(g)) {
            if (g.wireType != 0)
                continue;
            if (g.number == 2) {
                t.offsetPs = int64_t(g.value);
                t.aggregated = false;  // a oneof: the last one on the wire counts
            } else if (g.number == 5) {
                t.aggregated = true;
            } else if (g.number == 3) {
                t.durationPs = int64_t(g.value);
            }
        }
        if (ew.failed())
            return false;
        if (!fn(t))
            return true;
    }
    return !w.failed();
}

bool XPlaneTokenizer::parseMapEntry(const WireSpan &entry, int64_t &key, google::protobuf::MessageLite &value) {
    FieldWalker w(m_data, entry);
    Field f;
    key = 0;
    value.Clear();
    while (w.next(f)) {
        if (f.number == 1 && f.wireType == 0)
            key = int64_t(f.value);
        else if (f.number == 2 && f.wireType == 2 && !parse(f.span, value))
            return false;
    }
    STEPSCOPE_WALK_END(w)
}

void XPlaneTokenizer::release(const WireSpan &span) {
    static const uintptr_t page = uintptr_t(sysconf(_SC_PAGESIZE));
    const auto from = reinterpret_cast<uintptr_t>(m_data + span.offset), to = from + uintptr_t(span.size);
    const uintptr_t first = (from + page - 1) & ~(page - 1), last = to & ~(page - 1);  // whole pages inside
    if (last > first)
        madvise(reinterpret_cast<void *>(first), last - first, MADV_DONTNEED);
}

bool XPlaneTokenizer::parse(const WireSpan &span, google::protobuf::MessageLite &message) {
    if (message.ParseFromArray(m_data + span.offset, int(span.size)))
        return true;
    // The generated parser does not say where; walk the fields to find the first bad byte.
    FieldWalker w(m_data, span);
    Field f;
    while (w.next(f)) {
    }
    if (w.failed())
        return fail(w.errorOffset(), w.errorReason());
    return fail(span.offset, std::string("malformed ") + message.GetTypeName() + " message (" +
                                 std::to_string(span.size) + " bytes)");
}

#undef STEPSCOPE_WALK_END

} // namespace stepscope
