#pragma once
// XPlaneLineWriter turns the events of one XLine into slices of one track: it decodes each event
// (name through the plane's metadata, stats into args JSON, time = line base + offset_ps, duration_ps,
// both converted to ns with floor rounding and no int64 overflow), nests the line with SliceNester
// (overflow rows kept and counted), writes the slices parents-first, and hands correlation ids and
// step candidates to the shared XPlaneLinks / StepDetector. Aggregated events (num_occurrences) are
// counted, not written. A line whose events already come in nesting order (by start, the longer first
// on a tie, each inside or after the one open before it: what profilers write) is streamed: a first
// walk over the events' times only checks that, then each event is written as it is decoded, nested
// with a stack, so memory does not grow with the line. Any other line is nested by SliceNester on
// its events' times alone (16 B per event, plus where each event's bytes are), then each event is
// decoded in nesting order and written: the decoded events and their args are never held together.
// Only a line whose bytes are malformed is decoded whole into memory first, so that what comes
// before the bad byte is kept. The rows are the same either way. One writer per import, reused line
// after line; called by XPlaneImporter.

#include "importers/common/import_context.h"
#include "importers/common/slice_nester.h"
#include "importers/common/string_interner.h"
#include "importers/xplane/xplane_plane_index.h"
#include "importers/common/step_detector.h"
#include "importers/xplane/xplane_tokenizer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace stepscope {

// Host launches and device activities that share a correlation id, gathered over the whole file.
struct XPlaneLinks {
    struct Launch {
        int64_t sliceId = 0;
        int64_t dur = 0;
    };
    std::unordered_map<int64_t, Launch> hostByCorrelation;  // the shortest host slice per id
    std::vector<std::pair<int64_t, int64_t>> device;        // (correlation, device slice id)
    struct MemoryPoint {  // a GPU allocator's total after a MemoryAllocation / MemoryDeallocation
        int64_t t = 0;    // run-relative ns
        int64_t allocated = 0;
        int device = 0;
    };
    std::vector<MemoryPoint> memory;
};

// What a line is, which decides categories, step markers and flow ends.
enum class XLineKind { HostThread, DeviceStream, DeviceSteps, Derived };

struct XPlaneLineCounts {
    int64_t slices = 0;
    int64_t aggregated = 0;
    int64_t unknownMetadata = 0;
    int64_t negativeDurations = 0;
    int64_t outOfRange = 0;  // times beyond int64 ns: dropped
    int64_t overflowSlices = 0;
};

class XPlaneLineWriter {
public:
    XPlaneLineWriter(ImportContext &ctx, StringInterner &strings, XPlaneTokenizer &reader, XPlaneLinks &links,
                     StepDetector &steps);

    // baseNs: the line's timestamp_ns already moved onto the run's time base. False when the bytes
    // are malformed (reader.error() says where) or the import was cancelled; slices decoded before
    // a malformed event are still written.
    bool write(const WireSpan &line, const XPlaneIndex &index, XLineKind kind, int64_t trackId, int64_t baseNs,
               const std::string &trackName);

    const XPlaneLineCounts &counts() const { return m_counts; }

    // XPlane's own step candidate classes (StepDetector): step_num stats before every rule, the device
    // "Steps" line and group roots after them; and the words for a class in the import log.
    static constexpr int kStepNumClass = -1;
    static constexpr int kDeviceStepsClass = 0;  // classAfterRules(0)
    static constexpr int kGroupRootClass = 1;    // classAfterRules(1)
    static std::string stepClassName(const StepDetector &steps, int stepClass);

private:
    struct Pending {
        int64_t start = 0;
        int64_t dur = 0;
        int64_t nameId = 0;
        int64_t categoryId = 0;  // 0 = none
        size_t argsOffset = 0;
        size_t argsLength = 0;
        int64_t correlation = kNoCorrelation;  // only this of EventFacts is needed after decoding
    };
    static constexpr int64_t kNoCorrelation = INT64_MIN;

    struct Open {  // a slice the next ones may nest in (streamed lines)
        int64_t end = 0, id = 0;
        int32_t depth = 0;
    };

    // start = base + floor(offset_ps / 1000), end likewise, without overflow; false when out of int64.
    static bool eventTime(int64_t baseNs, int64_t offsetPs, int64_t durationPs, int64_t &start, int64_t &dur);
    // True when the line's events come in nesting order, so SliceNester would keep them as they are.
    bool streamable(const WireSpan &line, int64_t baseNs);
    // The events' times and byte spans (m_spans, m_eventAt); false on malformed bytes.
    bool gatherTimes(const WireSpan &line, int64_t baseNs);
    // Nests the gathered events, then decodes and writes each in nesting order; false on malformed
    // bytes or cancel.
    bool writeNested(const XPlaneIndex &index, XLineKind kind, int64_t trackId, int64_t baseNs,
                     const std::string &trackName);
    void reportOverflow(const std::string &trackName);
    bool decode(const xplane_wire::XEvent &event, const XPlaneIndex &index, XLineKind kind, int64_t baseNs);
    void writeStreamed(XLineKind kind, int64_t trackId, const Pending &p);
    int64_t writeRow(XLineKind kind, int64_t trackId, const Pending &p, int32_t depth, std::optional<int64_t> parentId);
    int64_t categoryFor(XLineKind kind, const EventFacts &facts, std::string_view name);
    int64_t storeId(std::string_view text) { return m_strings.storeId(m_ctx.writer(), m_strings.intern(text)); }
    void flush(XLineKind kind, int64_t trackId, const std::string &trackName);
    void noteStep(XLineKind kind, const Pending &p, const EventFacts &facts, std::string_view name);

    ImportContext &m_ctx;
    StringInterner &m_strings;
    XPlaneTokenizer &m_reader;
    XPlaneLinks &m_links;
    StepDetector &m_steps;
    std::unordered_map<int64_t, std::optional<StepMatch>> m_stepMatches;  // by name id: the step rule it matches
    XPlaneLineCounts m_counts;
    xplane_wire::XEvent m_event;
    std::vector<Pending> m_pending;
    std::vector<SliceNester::Span> m_spans;
    std::vector<WireSpan> m_eventAt;  // writeNested: each event's bytes, by the index m_spans has
    std::vector<int64_t> m_ids;
    std::vector<Open> m_open;
    std::vector<int64_t> m_openEnds;
    std::string m_args;    // args JSON of the line's events, back to back
    std::string m_member;  // scratch for one event's stats
    SliceNester m_nester;
    int64_t m_kernel = 0, m_memcpy = 0, m_memset = 0, m_runtime = 0;
};

} // namespace stepscope
