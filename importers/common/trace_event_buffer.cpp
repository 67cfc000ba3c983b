#include "importers/common/trace_event_buffer.h"

#include "importers/common/json_scan.h"

#include <algorithm>
#include <cstring>

namespace stepscope {
namespace {

uint64_t mix(uint64_t x) {  // splitmix64 finaliser
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

uint64_t idKey(std::string_view id) {
    if (auto n = json::parseInteger(id))
        return uint64_t(*n);
    return std::hash<std::string_view>{}(id) | (uint64_t(1) << 63);
}

bool isGpuCategory(std::string_view cat) {
    return cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "gpu_user_annotation" ||
           cat == "Kernel" || cat == "Memcpy" || cat == "Memset";
}

bool emptyObject(std::string_view args) {
    const char *p = json::skipSpace(args.data() + 1, args.data() + args.size());
    return p < args.data() + args.size() && *p == '}';
}

// Phases of the trace-event format that Stepscope does not show (samples, objects, memory dumps,
// marks, clock sync, contexts, the deprecated async step 'p'): ignored, as valid files may hold them.
bool specPhaseNotShown(char ph) {
    return ph && std::string_view("PNODVvRc()p").find(ph) != std::string_view::npos;
}

constexpr size_t kMaxUnknownPhasesNamed = 20;  // distinct unknown phases logged by name; the rest lumped

} // namespace

std::string TraceEventBuffer::threadKey(std::string_view pid, std::string_view tid) {
    std::string key(pid);
    key.push_back('\x1f');
    key.append(tid);
    return key;
}

void TraceEventBuffer::problem(ImportLogCode code, const std::string &kind, int64_t offset, std::string detail,
                               ProblemEffect effect) {
    ImportProblem &p = m_problems[kind];
    if (p.count++ == 0) {
        p.code = code;
        p.firstOffset = offset;
        p.firstDetail = std::move(detail);
        p.effect = effect;
    }
}

void TraceEventBuffer::seeTime(int64_t start, int64_t end) {
    m_minTs = std::min(m_minTs, start);
    m_maxEnd = std::max(m_maxEnd, end);
}

uint32_t TraceEventBuffer::trackFor(TrackOrigin origin, std::string_view pid, std::string_view tid,
                                     std::string_view extra) {
    if (m_lastTrack != UINT32_MAX && extra.empty()) {
        const BufferedTrack &t = m_tracks[m_lastTrack];
        if (t.origin == origin && t.pid == pid && t.tid == tid)
            return m_lastTrack;
    }
    m_key.clear();
    m_key.push_back(char('0' + int(origin)));
    m_key.append(pid).push_back('\x1f');
    m_key.append(tid).push_back('\x1f');
    m_key.append(extra);
    auto it = m_trackIndex.find(m_key);
    uint32_t index;
    if (it != m_trackIndex.end()) {
        index = it->second;
    } else {
        index = uint32_t(m_tracks.size());
        BufferedTrack t;
        t.origin = origin;
        t.pid = std::string(pid);
        t.tid = std::string(tid);
        m_tracks.push_back(std::move(t));
        m_trackIndex.emplace(m_key, index);
    }
    if (extra.empty())
        m_lastTrack = index;
    return index;
}

uint32_t TraceEventBuffer::addSlice(uint32_t track, const TraceEvent &e, int64_t start, int64_t dur,
                                     uint16_t flags) {
    BufferedSlice s;
    s.start = start;
    s.dur = dur;
    s.flags = flags;
    s.track = track;
    s.nameId = uint32_t(m_strings.intern(e.name));
    s.catId = e.cat.empty() ? 0 : uint32_t(m_strings.intern(e.cat));
    if (e.correlation)
        s.correlation = *e.correlation;
    if (e.args.size() > 2 && e.args.size() < UINT32_MAX && !emptyObject(e.args)) {
        s.argsLen = uint32_t(e.args.size());
        m_args.append(e.args);
    }
    const uint32_t index = uint32_t(m_slices.size());
    m_slices.push_back(s);
    BufferedTrack &t = m_tracks[track];
    t.slices.push_back(index);
    if (!e.cat.empty() && isGpuCategory(e.cat)) {
        t.gpuCategory = true;
        if (!t.deviceArg && e.device)
            t.deviceArg = e.device;
    }
    noteStepName(e, s.nameId);
    return index;
}

void TraceEventBuffer::noteStepName(const TraceEvent &e, uint32_t nameId) {
    // Names are matched once each: a regex rule per event would cost more than the event.
    if (!m_stepRules.cheap() && !m_stepChecked.insert(nameId).second)
        return;
    if (m_stepNames.count(nameId))
        return;
    const auto m = m_stepRules.match(e.name);
    if (!m)
        return;
    if (m->badNumber)
        problem(ImportLogCode::BadStepNumber, "step slices whose step number is not a whole number in 0..2147483647: kept as slices, not as steps",
                e.offset, std::string(e.name));
    else
        m_stepNames.emplace(nameId, StepName{m->rule, m->number});
}

void TraceEventBuffer::add(const TraceEvent &e) {
    ++m_events;
    switch (e.ph) {
    case 'X': addComplete(e); break;
    case 'B': addBegin(e, trackFor(TrackOrigin::Thread, e.pid, e.tid)); break;
    case 'E': addEnd(e, trackFor(TrackOrigin::Thread, e.pid, e.tid)); break;
    case 'i':
    case 'I': addInstant(e); break;
    case 'C': addCounter(e); break;
    case 'M': addMetadata(e); break;
    case 's':
    case 't':
    case 'f': addFlowV1(e); break;
    case 'b':
    case 'e':
    case 'n':
    case 'S':
    case 'F':
    case 'T': addAsync(e); break;
    case 0:
        problem(ImportLogCode::MissingPhase, "events without a phase (ph) ignored", e.offset, {}, ProblemEffect::Note);
        break;
    default:
        if (specPhaseNotShown(e.ph) && e.phText.size() == 1) {
            problem(ImportLogCode::IgnoredPhase, "events of phase '" + std::string(1, e.ph) + "' ignored", e.offset, std::string(e.name), ProblemEffect::Note);
        } else if (m_unknownPhases.size() < kMaxUnknownPhasesNamed || m_unknownPhases.count(std::string(e.phText))) {
            // Not a phase of the format: a writer bug or a damaged file. One warning per distinct phase.
            m_unknownPhases.insert(std::string(e.phText));
            problem(ImportLogCode::UnknownPhase, "events of unknown phase '" + std::string(e.phText.substr(0, 16)) + "' ignored", e.offset,
                    std::string(e.name));
        } else {
            problem(ImportLogCode::UnknownPhase, "events of further unknown phases ignored", e.offset, std::string(e.name));
        }
        break;
    }
}

void TraceEventBuffer::addComplete(const TraceEvent &e) {
    if (!e.tsNs) {
        problem(ImportLogCode::BadTimestamp, "events without a valid ts skipped", e.offset, std::string(e.name), ProblemEffect::Dropped);
        return;
    }
    int64_t dur = 0;
    if (e.durNs && *e.durNs >= 0) {
        dur = *e.durNs;
    } else if (e.durNs) {
        problem(ImportLogCode::NegativeDuration, "negative dur clamped to 0", e.offset, std::string(e.name));
    } else {
        problem(ImportLogCode::MissingDuration, e.durInvalid ? "invalid dur read as 0" : "complete events without dur read as 0", e.offset,
                std::string(e.name));
    }
    if (*e.tsNs > 0 && dur > INT64_MAX - *e.tsNs) {  // ts <= 0: ts + dur cannot overflow
        problem(ImportLogCode::DurationOverflow, "dur past the end of time clamped to 0", e.offset, std::string(e.name));
        dur = 0;
    }
    const uint32_t track = trackFor(TrackOrigin::Thread, e.pid, e.tid);
    const uint32_t index = addSlice(track, e, *e.tsNs, dur, 0);
    seeTime(*e.tsNs, *e.tsNs + dur);
    if (!e.bindId.empty() || e.flowIn || e.flowOut)
        addFlowV2(e, index);
}

void TraceEventBuffer::addBegin(const TraceEvent &e, uint32_t track) {
    if (!e.tsNs) {
        problem(ImportLogCode::BadTimestamp, "events without a valid ts skipped", e.offset, std::string(e.name), ProblemEffect::Dropped);
        return;
    }
    const uint32_t index = addSlice(track, e, *e.tsNs, 0, BufferedSlice::Open);
    m_tracks[track].open.push_back(index);
    seeTime(*e.tsNs, *e.tsNs);
}

void TraceEventBuffer::addEnd(const TraceEvent &e, uint32_t track) {
    if (!e.tsNs) {
        problem(ImportLogCode::BadTimestamp, "events without a valid ts skipped", e.offset, std::string(e.name), ProblemEffect::Dropped);
        return;
    }
    BufferedTrack &t = m_tracks[track];
    // Thread E events close the innermost B; async ends close the innermost begin of their name.
    auto it = t.open.end();
    if (!t.open.empty()) {
        it = t.open.end() - 1;
        if (t.origin == TrackOrigin::Async && !e.name.empty()) {
            const uint32_t nameId = uint32_t(m_strings.intern(e.name));
            for (auto k = t.open.end(); k != t.open.begin();) {
                --k;
                if (m_slices[*k].nameId == nameId) {
                    it = k;
                    break;
                }
            }
        }
    }
    if (it == t.open.end()) {
        if (t.strayEnds++ == 0)
            t.firstStrayEndOffset = e.offset;
        return;  // logged per track by the writer
    }
    BufferedSlice &s = m_slices[*it];
    s.flags = uint16_t(s.flags & ~BufferedSlice::Open);
    s.dur = *e.tsNs - s.start;
    if (s.dur < 0) {
        problem(ImportLogCode::EndBeforeBegin, "end before its begin: duration clamped to 0", e.offset, std::string(e.name));
        s.dur = 0;
    }
    if (s.argsLen == 0 && e.args.size() > 2 && !emptyObject(e.args))
        problem(ImportLogCode::EndArgsDropped, "args of end events not kept (the begin had none)", e.offset, std::string(e.name), ProblemEffect::Note);
    seeTime(s.start, s.start + s.dur);
    t.open.erase(it);
}

void TraceEventBuffer::addInstant(const TraceEvent &e) {
    if (!e.tsNs) {
        problem(ImportLogCode::BadTimestamp, "events without a valid ts skipped", e.offset, std::string(e.name), ProblemEffect::Dropped);
        return;
    }
    uint32_t track;
    if (e.scope == 'g')
        track = trackFor(TrackOrigin::Global, {}, {});
    else if (e.scope == 'p')
        track = trackFor(TrackOrigin::Process, e.pid, {});
    else
        track = trackFor(TrackOrigin::Thread, e.pid, e.tid);
    addSlice(track, e, *e.tsNs, 0, 0);
    seeTime(*e.tsNs, *e.tsNs);
    if (e.name == "[memory]")
        addMemorySample(e);
}

void TraceEventBuffer::addMemorySample(const TraceEvent &e) {
    // Device Type 1 is CUDA (ROCm's HIP devices too), 0 the CPU; other allocators are not tracked.
    const int64_t type = e.memDeviceType.value_or(-1);
    if (type != 0 && type != 1)
        return;
    if (!e.totalAllocated || *e.totalAllocated < 0) {
        problem(ImportLogCode::BadMemoryTotal, "[memory] events without a valid Total Allocated: kept as instants, not as memory samples", e.offset);
        return;
    }
    MemorySample m;
    m.t = *e.tsNs;
    m.allocated = *e.totalAllocated;
    m.reserved = e.totalReserved && *e.totalReserved >= 0 ? *e.totalReserved : -1;
    if (type == 1) {
        const int64_t id = e.memDeviceId.value_or(-1);
        if (id < 0 || id > 65535) {
            problem(ImportLogCode::MemoryWithoutDevice, "[memory] events of a CUDA device with no valid Device Id skipped", e.offset, {}, ProblemEffect::Dropped);
            return;
        }
        m.device = int32_t(id);
    }
    m_memorySamples.push_back(m);
}

void TraceEventBuffer::addCounter(const TraceEvent &e) {
    if (!e.tsNs) {
        problem(ImportLogCode::BadTimestamp, "events without a valid ts skipped", e.offset, std::string(e.name), ProblemEffect::Dropped);
        return;
    }
    seeTime(*e.tsNs, *e.tsNs);
    json::forEachMember(e.args, m_argsScratch, [&](std::string_view key, std::string_view raw) {
        std::string scratch;
        const auto value = json::parseDouble(json::scalarText(raw, scratch));
        if (!value) {
            problem(ImportLogCode::BadCounterValue, "counter values that are not finite numbers skipped", e.offset, std::string(key), ProblemEffect::Dropped);
            return true;
        }
        std::string name(e.name);
        if (!e.id.empty())
            name += " " + std::string(e.id);
        if (key != "value" || name.empty())
            name += (name.empty() ? "" : " ") + std::string(key);
        std::string ckey = std::string(e.pid) + '\x1f' + name;
        auto [it, inserted] = m_counterIndex.emplace(ckey, uint32_t(m_counterTracks.size()));
        if (inserted)
            m_counterTracks.push_back(CounterTrack{std::string(e.pid), name});
        m_counterSamples.push_back(CounterSample{*e.tsNs, *value, it->second});
        return true;
    });
    m_argsScratch.clear();
}

void TraceEventBuffer::addMetadata(const TraceEvent &e) {
    if (e.name == "process_name") {
        if (!e.argName.empty())
            m_processes[std::string(e.pid)].name = std::string(e.argName);
        if (e.startTimeSinceEpochUs && !m_epochStartUs)
            m_epochStartUs = e.startTimeSinceEpochUs;
    } else if (e.name == "process_labels") {
        m_processes[std::string(e.pid)].labels = std::string(e.argLabels);
    } else if (e.name == "process_sort_index") {
        m_processes[std::string(e.pid)].sortIndex = e.sortIndex;
    } else if (e.name == "thread_name") {
        m_threads[threadKey(e.pid, e.tid)].name = std::string(e.argName);  // the last name wins
    } else if (e.name == "thread_sort_index") {
        m_threads[threadKey(e.pid, e.tid)].sortIndex = e.sortIndex;
    }
}

void TraceEventBuffer::addFlowV1(const TraceEvent &e) {
    if (!e.tsNs || e.id.empty()) {
        problem(ImportLogCode::BadFlow, "flow events without ts or id skipped", e.offset, std::string(e.name), ProblemEffect::Dropped);
        return;
    }
    FlowEndpoint f;
    f.ts = *e.tsNs;
    f.catId = e.cat.empty() ? 0 : uint32_t(m_strings.intern(e.cat));
    const uint64_t nameHash = std::hash<std::string_view>{}(e.name);
    f.key = mix(mix(idKey(e.id)) ^ (uint64_t(f.catId) << 1) ^ nameHash);
    f.ref = trackFor(TrackOrigin::Thread, e.pid, e.tid);
    if (auto n = json::parseInteger(e.id))
        f.id = *n;
    f.seq = uint32_t(m_flows.size());
    f.phase = e.ph;
    f.bp = e.bp;
    f.byCorrelation = e.cat == "ac2g" || e.cat == "async" || e.cat == "async_gpu" || e.cat == "async_cpu_to_gpu";
    m_flows.push_back(f);
}

void TraceEventBuffer::addFlowV2(const TraceEvent &e, uint32_t slice) {
    const std::string_view bind = !e.bindId.empty() ? e.bindId : e.id;
    if (bind.empty()) {
        problem(ImportLogCode::BadFlow, "flow_in/flow_out events without bind_id or id ignored", e.offset, std::string(e.name));
        return;
    }
    FlowEndpoint f;
    f.ts = m_slices[slice].start;
    f.key = mix(idKey(bind)) ^ 0x5bd1e995u;
    f.ref = slice;
    f.slice = slice;
    if (e.flowIn) {
        f.phase = 'i';
        f.seq = uint32_t(m_flows.size());
        m_flows.push_back(f);
    }
    if (e.flowOut || (!e.flowIn && !e.bindId.empty())) {
        f.phase = 'o';
        f.seq = uint32_t(m_flows.size());
        m_flows.push_back(f);
    }
}

void TraceEventBuffer::addAsync(const TraceEvent &e) {
    if (e.ph == 'T') {
        problem(ImportLogCode::IgnoredPhase, "legacy async step events (T) ignored", e.offset, std::string(e.name), ProblemEffect::Note);
        return;
    }
    std::string extra(e.cat);
    extra.push_back('\x1f');
    extra.append(e.id);
    const uint32_t track = trackFor(TrackOrigin::Async, e.pid, {}, extra);
    BufferedTrack &t = m_tracks[track];
    if (t.label.empty() && (e.ph == 'b' || e.ph == 'S'))
        t.label = std::string(e.name);
    if (e.ph == 'b' || e.ph == 'S') {
        addBegin(e, track);
    } else if (e.ph == 'e' || e.ph == 'F') {
        addEnd(e, track);
    } else if (e.tsNs) {  // 'n'
        addSlice(track, e, *e.tsNs, 0, 0);
        seeTime(*e.tsNs, *e.tsNs);
    }
}

void TraceEventBuffer::finish() {
    const int64_t end = hasTimes() ? m_maxEnd : 0;
    for (BufferedTrack &t : m_tracks) {
        for (uint32_t i : t.open) {
            BufferedSlice &s = m_slices[i];
            s.dur = std::max<int64_t>(0, end - s.start);
            s.flags = uint16_t((s.flags & ~BufferedSlice::Open) | BufferedSlice::Unclosed);
            ++t.unclosed;
        }
        t.open.clear();
        t.open.shrink_to_fit();
    }
}

} // namespace stepscope
