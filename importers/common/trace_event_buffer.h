#pragma once
// TraceEventBuffer, the shared event stage of the trace importers, receives the events of one trace
// (from ChromeTraceTokenizer or NsysTokenizer, in file order) and keeps what the store needs in compact form until the whole file is read: one 48-byte
// record per slice (args text goes to ArgsSpill), per-track index lists, B/E and async begin/end
// matching, flow endpoints, counter samples, process/thread metadata and problem counters. Events
// arrive unsorted and the time base is only known at the end, so nothing is written here except
// interned strings. ChromeTraceImporter and NsysSqliteImporter feed it; TraceEventWriter drains it.

#include "importers/common/args_spill.h"
#include "importers/common/trace_event.h"
#include "importers/common/chunked_array.h"
#include "importers/common/step_name_rules.h"
#include "importers/common/string_interner.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace stepscope {

struct BufferedSlice {  // 48 bytes
    static constexpr int64_t kNoCorrelation = std::numeric_limits<int64_t>::min();
    enum Flag : uint16_t { Unclosed = 1, Open = 2 };
    int64_t start = 0;         // trace ns, before the time base is applied
    int64_t dur = 0;
    int64_t correlation = kNoCorrelation;
    uint32_t argsLen = 0;      // bytes in ArgsSpill, in arrival order
    uint32_t nameId = 0;
    uint32_t catId = 0;        // 0 = no category
    uint32_t track = 0;
    uint32_t parent = 0;       // global index + 1 of the parent (set by the writer); 0 = none
    uint16_t depth = 0;        // set by the writer
    uint16_t flags = 0;
};
static_assert(sizeof(BufferedSlice) == 48);

enum class TrackOrigin : uint8_t { Thread, Async, Process, Global };

struct BufferedTrack {
    TrackOrigin origin = TrackOrigin::Thread;
    std::string pid, tid;
    std::string label;                 // async: name of the first begin event
    std::vector<uint32_t> slices;      // global slice indices
    std::vector<uint32_t> open;        // B / b / S still open (global indices)
    std::optional<int64_t> deviceArg;  // first args.device seen on a GPU event
    bool gpuCategory = false;          // carried kernel / memcpy / memset / gpu annotation events
    int64_t strayEnds = 0;             // E / e without an open begin
    int64_t firstStrayEndOffset = -1;
    int64_t unclosed = 0;              // begins still open at the end of the trace
};

struct FlowEndpoint {  // 48 bytes
    int64_t ts = 0;
    int64_t id = BufferedSlice::kNoCorrelation;  // numeric flow id (ac2g: the correlation id)
    uint64_t key = 0;      // (cat, name, id) for v1, bind id for v2
    uint32_t ref = 0;      // v1: track index; v2: global slice index
    uint32_t catId = 0;
    uint32_t seq = 0;      // arrival order, breaks timestamp ties
    char phase = 0;        // 's', 't', 'f' (v1); 'o' out, 'i' in (v2)
    char bp = 0;
    uint8_t byCorrelation = 0;  // ac2g-style flow: its id is the correlation id of both ends
    uint8_t pad = 0;
    int64_t slice = -1;    // resolved global slice index
};

struct CounterSample {
    int64_t t = 0;
    double value = 0;
    uint32_t track = 0;
};

// One PyTorch allocator "[memory]" instant: the allocator's totals on one device after the event.
struct MemorySample {  // 32 bytes
    int64_t t = 0;
    int64_t allocated = 0;
    int64_t reserved = -1;  // -1: not given
    int32_t device = -1;    // GPU index; -1 for the CPU allocator
    int32_t pad = 0;
};

struct CounterTrack {
    std::string pid;
    std::string name;
};

struct ProcessMeta {
    std::string name;
    std::string labels;
    std::optional<int64_t> sortIndex;
};

struct ThreadMeta {
    std::string name;
    std::optional<int64_t> sortIndex;
};

// What a kind of problem does to what is imported: Note is expected in valid files (ignored phases) and
// logged as info; Warning keeps the event with a value changed; Dropped loses events, so the source is
// partial.
enum class ProblemEffect { Note, Warning, Dropped };

struct ImportProblem {  // first occurrence of a kind of problem, logged once with a count
    ImportLogCode code = ImportLogCode::Unspecified;
    ProblemEffect effect = ProblemEffect::Warning;
    int64_t count = 0;
    int64_t firstOffset = -1;
    std::string firstDetail;
};

// A slice name that marks steps: the rule it matched (lower wins) and its number (none: by order).
struct StepName {
    int rule = 0;
    std::optional<int64_t> number;
};

class TraceEventBuffer {
public:
    // `stepRules` decide which slice names are steps (PyTorch: ProfilerStep#N); it must outlive the buffer.
    // Names are interned locally (StringInterner) while the file is read; the writer maps them to
    // the store's ids.
    explicit TraceEventBuffer(StringInterner &strings, const StepNameRules &stepRules = StepNameRules::profilerSteps())
        : m_strings(strings), m_stepRules(stepRules) {}

    void add(const TraceEvent &event);
    // End of input: closes what is still open at the end of the trace (flagged, counted).
    void finish();

    ChunkedArray<BufferedSlice> &slices() { return m_slices; }
    std::vector<BufferedTrack> &tracks() { return m_tracks; }
    ChunkedArray<FlowEndpoint> &flows() { return m_flows; }
    const std::vector<CounterSample> &counterSamples() const { return m_counterSamples; }
    const std::vector<CounterTrack> &counterTracks() const { return m_counterTracks; }
    const std::vector<MemorySample> &memorySamples() const { return m_memorySamples; }
    const std::unordered_map<std::string, ProcessMeta> &processes() const { return m_processes; }
    const std::unordered_map<std::string, ThreadMeta> &threads() const { return m_threads; }
    const std::unordered_map<uint32_t, StepName> &stepNames() const { return m_stepNames; }
    const std::map<std::string, ImportProblem> &problems() const { return m_problems; }
    ArgsSpill &args() { return m_args; }
    const StepNameRules &stepRules() const { return m_stepRules; }
    StringInterner &strings() const { return m_strings; }

    bool hasTimes() const { return m_minTs <= m_maxEnd; }
    int64_t minTs() const { return m_minTs; }
    int64_t maxEnd() const { return m_maxEnd; }
    std::optional<int64_t> epochStartUs() const { return m_epochStartUs; }  // SageMaker timelines
    int64_t eventCount() const { return m_events; }

    static std::string threadKey(std::string_view pid, std::string_view tid);

private:
    uint32_t trackFor(TrackOrigin origin, std::string_view pid, std::string_view tid,
                      std::string_view extra = {});
    uint32_t addSlice(uint32_t track, const TraceEvent &e, int64_t start, int64_t dur, uint16_t flags);
    void addComplete(const TraceEvent &e);
    void addBegin(const TraceEvent &e, uint32_t track);
    void addEnd(const TraceEvent &e, uint32_t track);
    void addInstant(const TraceEvent &e);
    void addCounter(const TraceEvent &e);
    void addMemorySample(const TraceEvent &e);
    void addMetadata(const TraceEvent &e);
    void noteStepName(const TraceEvent &e, uint32_t nameId);
    void addFlowV1(const TraceEvent &e);
    void addFlowV2(const TraceEvent &e, uint32_t slice);
    void addAsync(const TraceEvent &e);
    void problem(ImportLogCode code, const std::string &kind, int64_t offset, std::string detail = {},
                 ProblemEffect effect = ProblemEffect::Warning);
    void seeTime(int64_t start, int64_t end);

    StringInterner &m_strings;
    ArgsSpill m_args;
    ChunkedArray<BufferedSlice> m_slices;  // grows without reallocation pauses
    std::vector<BufferedTrack> m_tracks;
    std::unordered_map<std::string, uint32_t> m_trackIndex;
    uint32_t m_lastTrack = UINT32_MAX;
    std::string m_key;  // scratch for track lookups
    ChunkedArray<FlowEndpoint> m_flows;
    std::vector<CounterSample> m_counterSamples;
    std::vector<CounterTrack> m_counterTracks;
    std::unordered_map<std::string, uint32_t> m_counterIndex;
    std::vector<MemorySample> m_memorySamples;
    std::unordered_map<std::string, ProcessMeta> m_processes;
    std::unordered_map<std::string, ThreadMeta> m_threads;
    const StepNameRules &m_stepRules;
    std::unordered_map<uint32_t, StepName> m_stepNames;  // name id → its step rule and number
    std::unordered_set<uint32_t> m_stepChecked;           // names already matched (regex rules)
    std::map<std::string, ImportProblem> m_problems;
    std::set<std::string> m_unknownPhases;  // distinct unknown "ph" values seen (bounded)
    std::string m_argsScratch;
    int64_t m_minTs = std::numeric_limits<int64_t>::max();
    int64_t m_maxEnd = std::numeric_limits<int64_t>::min();
    std::optional<int64_t> m_epochStartUs;
    int64_t m_events = 0;
};

} // namespace stepscope
