// Run, tracks, nesting, counters, steps and the problem summary of TraceEventWriter. Flow binding
// and flow rows are in trace_event_writer_flows.cpp, the slice row pipeline in
// trace_event_writer_rows.cpp.
#include "importers/common/trace_event_writer.h"

#include "importers/common/json_scan.h"
#include "models/store/ns_range.h"
#include "models/trace/rank_in_name.h"
#include "importers/common/slice_nester.h"
#include "importers/common/step_detector.h"

#include <algorithm>
#include <map>

namespace stepscope {
namespace {

constexpr int64_t kEpochThresholdNs = int64_t(1'000'000'000'000'000'000);  // 1e15 µs ≈ year 2001

// "GPU 2", "/device:GPU:0", "GPU:1 stream 7" → the number after "GPU".
std::optional<int64_t> gpuIndexIn(std::string_view text) {
    const size_t at = text.find("GPU");
    if (at == std::string_view::npos)
        return std::nullopt;
    size_t p = at + 3;
    while (p < text.size() && (text[p] == ' ' || text[p] == ':' || text[p] == '#'))
        ++p;
    size_t q = p;
    while (q < text.size() && text[q] >= '0' && text[q] <= '9')
        ++q;
    if (q == p)
        return std::nullopt;
    return json::parseInteger(text.substr(p, q - p));
}

std::string trimmed(std::string s) {
    while (!s.empty() && json::isSpace(s.back()))
        s.pop_back();
    return s;
}

std::string position(int64_t offset) {
    return offset >= 0 ? "byte " + std::to_string(offset) : std::string();
}

} // namespace

TraceEventWriter::TraceEventWriter(ImportContext &ctx, TraceEventBuffer &buffer, const TraceHeader &header,
                                     std::string runName)
    : m_ctx(ctx), m_w(ctx.writer()), m_buf(buffer), m_header(header), m_runName(std::move(runName)) {}

bool TraceEventWriter::poll() {
    m_nextPoll = m_unitsDone + kPollUnits;
    if (m_cancelled || m_ctx.cancelled()) {
        m_cancelled = true;
        return false;
    }
    if (m_progress) {
        const auto t = std::chrono::steady_clock::now();
        if (t - m_lastProgress >= std::chrono::milliseconds(50)) {
            m_lastProgress = t;
            m_progress(std::min(1.0, double(m_unitsDone) / double(m_unitsTotal)));
        }
    }
    return true;
}

bool TraceEventWriter::write() {
    // Work units: nesting (and flow binding) one per slice, writing three per slice (the inserts
    // dominate), one per flow endpoint, counter sample, memory sample and (for steps) slice.
    const int64_t n = int64_t(m_buf.slices().size());
    m_unitsTotal = std::max<int64_t>(1, 5 * n + 2 * int64_t(m_buf.flows().size()) +
                                            int64_t(m_buf.counterSamples().size()) +
                                            int64_t(m_buf.memorySamples().size()));
    if (!poll())
        return false;
    m_storeIds = m_buf.strings().storeIds(m_w);
    decideTimeBase();
    classifyTracks();
    addRun();
    for (size_t i = 0; i < m_tracks.size(); ++i)
        if (!m_buf.tracks()[i].slices.empty())
            m_tracks[i].id = m_w.addTrack(m_runId, m_trackInfos[i]);
    m_trackInfos.clear();
    if (!nestTracks() || !writeRows())
        return false;
    if (!writeCounters() || !writeMemory() || !writeSteps())
        return false;
    logProblems();
    return poll();
}

void TraceEventWriter::decideTimeBase() {
    // A base beyond ±2^62 ns (a tampered or broken header) would overflow every time added to it.
    std::optional<int64_t> base = m_header.baseTimeNs;
    if (base && !timeInRange(*base)) {
        m_ctx.warn(ImportLogCode::TimeBaseOutOfRange, "baseTimeNanoseconds", "time base " + std::to_string(*base) +
                                               " ns is out of range (beyond ±2^62 ns): ignored, times are relative to the trace");
        base.reset();
    }
    std::optional<int64_t> epochStartUs = m_buf.epochStartUs();
    if (epochStartUs && !(*epochStartUs > -kTimeLimitNs / 1000 && *epochStartUs < kTimeLimitNs / 1000)) {
        m_ctx.warn(ImportLogCode::TimeBaseOutOfRange, "", "epoch start " + std::to_string(*epochStartUs) + " µs is out of range (beyond ±2^62 ns): ignored");
        epochStartUs.reset();
    }
    if (base) {  // Kineto ≥ 2024: ts is relative to it
        m_run.timeBaseNs = *base;
        m_run.hasEpoch = true;
    } else if (epochStartUs) {  // SageMaker framework timelines
        m_run.timeBaseNs = *epochStartUs * 1000;
        m_run.hasEpoch = true;
    } else if (m_buf.hasTimes() && m_buf.minTs() > kEpochThresholdNs) {  // absolute epoch µs
        m_shift = m_buf.minTs();
        m_run.timeBaseNs = m_shift;
        m_run.hasEpoch = true;
    }
}

void TraceEventWriter::addRun() {
    // A rank trace without distributedInfo still says its rank in its file name (rank-3.json).
    m_run.rank = m_header.rank ? m_header.rank : rankInName(m_runName);
    m_run.name = m_header.rank ? "rank " + std::to_string(*m_header.rank) : m_runName;
    m_run.host = m_header.hostName;
    bool tensorflow = false;
    for (const auto &[pid, meta] : m_buf.processes())
        tensorflow |= meta.name.rfind("/device:", 0) == 0 || meta.name.rfind("/host:", 0) == 0;
    if (m_header.framework)
        m_run.framework = *m_header.framework;
    else if (m_header.schemaVersion || !m_header.devices.empty() || m_header.baseTimeNs || m_header.rank)
        m_run.framework = "pytorch";
    else if (tensorflow)
        m_run.framework = "tensorflow";
    m_runId = m_w.addRun(m_ctx.sourceId(), m_run);
}

void TraceEventWriter::classifyTracks() {
    auto &tracks = m_buf.tracks();
    m_tracks.resize(tracks.size());
    m_trackInfos.resize(tracks.size());
    std::optional<int64_t> firstDevice;
    for (size_t i = 0; i < tracks.size(); ++i) {
        const BufferedTrack &t = tracks[i];
        TrackOut &out = m_tracks[i];
        if (t.slices.empty())
            continue;  // only flow endpoints or metadata: no row
        TrackInfo &info = m_trackInfos[i];
        info.pid = t.pid;
        info.tid = t.tid;
        const auto pit = m_buf.processes().find(t.pid);
        const ProcessMeta *proc = pit != m_buf.processes().end() ? &pit->second : nullptr;
        const auto tit = m_buf.threads().find(TraceEventBuffer::threadKey(t.pid, t.tid));
        const ThreadMeta *thread = tit != m_buf.threads().end() ? &tit->second : nullptr;
        const std::string processName = proc && !proc->name.empty() ? proc->name : "process " + t.pid;
        int64_t processSort = proc && proc->sortIndex ? *proc->sortIndex : json::parseInteger(t.pid).value_or(0);
        int64_t threadSort = thread && thread->sortIndex ? *thread->sortIndex : json::parseInteger(t.tid).value_or(0);
        if (t.origin == TrackOrigin::Thread) {
            std::optional<int64_t> device;
            if (proc)
                device = proc->labels.empty() ? gpuIndexIn(proc->name) : gpuIndexIn(proc->labels);
            const bool gpu = device || t.gpuCategory || t.tid.rfind("stream", 0) == 0;
            if (gpu) {
                info.kind = TrackKind::GpuStream;
                if (!device)
                    device = t.deviceArg ? t.deviceArg : json::parseInteger(t.pid);
                info.device = device;
                if (!firstDevice)
                    firstDevice = device;
                info.name = thread && !thread->name.empty() ? trimmed(thread->name)
                            : t.tid.rfind("stream", 0) == 0        ? t.tid
                                                                    : "stream " + t.tid;
            } else {
                info.kind = json::parseInteger(t.pid) ? TrackKind::HostThread : TrackKind::Other;
                info.name = thread && !thread->name.empty() ? trimmed(thread->name)
                            : t.tid.empty()                 ? processName
                            : json::parseInteger(t.tid)     ? "thread " + t.tid
                                                            : t.tid;
            }
        } else if (t.origin == TrackOrigin::Async) {
            info.kind = TrackKind::Other;
            info.name = t.label.empty() ? "async" : t.label;
        } else if (t.origin == TrackOrigin::Process) {
            info.kind = TrackKind::Other;
            info.name = processName + " instants";
            threadSort = -1;
        } else {
            info.kind = TrackKind::Other;
            info.name = "global instants";
            processSort = -1;
        }
        info.sortIndex = int64_t(uint64_t(processSort) << 32) + int64_t(uint32_t(threadSort));
        out.kind = info.kind;
        out.name = info.name;
    }
    if (!m_header.devices.empty()) {
        auto dev = std::find_if(m_header.devices.begin(), m_header.devices.end(),
                                [&](const TraceDeviceProperty &d) { return firstDevice && d.id == *firstDevice; });
        // ROCm traces list device 0 while kernels say 2: fall back to the first listed device.
        m_run.device = dev != m_header.devices.end() ? dev->name : m_header.devices.front().name;
    }
}

bool TraceEventWriter::nestTracks() {
    auto &tracks = m_buf.tracks();
    auto &slices = m_buf.slices();
    // Flow endpoints of v1 flows, grouped by track so each track is bound right after nesting.
    auto &flows = m_buf.flows();
    const auto keepGoing = [this] { return poll(); };
    const bool sorted = sortPolled(
        flows,
        [](const FlowEndpoint &a, const FlowEndpoint &b) {
            const bool av1 = a.phase != 'i' && a.phase != 'o';
            const bool bv1 = b.phase != 'i' && b.phase != 'o';
            if (av1 != bv1)
                return av1;  // v1 first; v2 endpoints are already bound to their slice
            return av1 && a.ref < b.ref;
        },
        keepGoing);
    if (!sorted)
        return false;
    size_t cursor = 0;
    SliceNester nester;
    std::vector<SliceNester::Span> spans;
    // The per-slice loops over one track poll every kPollSlices slices: a track may hold millions.
    constexpr size_t kPollSlices = size_t(1) << 16;
    for (uint32_t ti = 0; ti < tracks.size(); ++ti) {
        if (!poll())
            return false;
        BufferedTrack &t = tracks[ti];
        spans.resize(t.slices.size());
        for (size_t k = 0; k < t.slices.size(); ++k) {
            if (k % kPollSlices == kPollSlices - 1 && !poll())
                return false;
            spans[k] = {slices[t.slices[k]].start, slices[t.slices[k]].dur};
        }
        if (!nester.nest(spans, keepGoing) || !tick(int64_t(t.slices.size())))
            return false;
        int64_t deepClamped = 0;
        for (size_t k = 0; k < t.slices.size(); ++k) {
            if (k % kPollSlices == kPollSlices - 1 && !poll())
                return false;
            BufferedSlice &s = slices[t.slices[k]];
            const int32_t depth = nester.depth(k);
            s.depth = uint16_t(std::min<int32_t>(depth, UINT16_MAX));
            deepClamped += depth > UINT16_MAX;
            const int32_t parent = nester.parent(k);
            s.parent = parent == SliceNester::kNone ? 0 : t.slices[size_t(parent)] + 1;
        }
        const std::string where = "track \"" + m_tracks[ti].name + "\" (pid " + t.pid + ", tid " + t.tid + ")";
        if (nester.overflowCount() > 0)
            m_ctx.warn(ImportLogCode::OverlappingSlices, "", std::to_string(nester.overflowCount()) + " slices on " + where +
                               " overlap an earlier slice without nesting; kept on overflow rows from depth " +
                               std::to_string(nester.firstOverflowDepth()));
        if (deepClamped > 0)
            m_ctx.warn(ImportLogCode::NestingTooDeep, "", std::to_string(deepClamped) + " slices on " + where + " nested deeper than 65535");
        if (t.unclosed > 0)
            m_ctx.warn(ImportLogCode::UnclosedSlice, "", std::to_string(t.unclosed) + " begin events on " + where +
                               " never ended; kept with their duration running to the end of the trace");
        if (t.strayEnds > 0)
            m_ctx.warn(ImportLogCode::UnmatchedEnd, position(t.firstStrayEndOffset),
                       std::to_string(t.strayEnds) + " end events on " + where + " had no open begin");
        if (!bindFlows(ti, nester, cursor))
            return false;
    }
    return true;
}

bool TraceEventWriter::writeCounters() {
    const auto &tracks = m_buf.counterTracks();
    std::vector<int64_t> ids(tracks.size());
    for (size_t i = 0; i < tracks.size(); ++i) {
        TrackInfo info;
        info.kind = TrackKind::Counter;
        info.name = tracks[i].name;
        info.pid = tracks[i].pid;
        info.sortIndex = json::parseInteger(tracks[i].pid).value_or(0);
        ids[i] = m_w.addTrack(m_runId, info);
    }
    for (const CounterSample &c : m_buf.counterSamples()) {
        if (!tick())
            return false;
        m_w.addCounterSample(ids[c.track], c.t - m_shift, c.value);
    }
    m_countersWritten = int64_t(m_buf.counterSamples().size());
    return true;
}

bool TraceEventWriter::writeSteps() {
    const auto &names = m_buf.stepNames();
    const auto &slices = m_buf.slices();
    StepDetector steps(m_buf.stepRules());
    std::vector<uint8_t> roles(m_buf.strings().size() + 1, 0);  // by name id: 0 unknown, else Role + 1
    for (size_t i = 0; i < slices.size(); ++i) {
        if (!tick())
            return false;
        const BufferedSlice &s = slices[i];
        // The gpu_user_annotation copy of a step is not the step, nor is GPU work a training function.
        if (m_tracks[s.track].kind == TrackKind::GpuStream || s.nameId == 0)
            continue;
        if (const auto it = names.find(s.nameId); it != names.end()) {
            steps.addCandidate(it->second.rule, it->second.number, s.start - m_shift, s.dur);
            continue;
        }
        uint8_t &role = roles[s.nameId];
        if (role == 0)
            role = uint8_t(TrainFunctionSteps::roleOf(m_buf.strings().text(s.nameId))) + 1;
        steps.addTrainFunctionSpan(TrainFunctionSteps::Role(role - 1), s.start - m_shift, s.dur);
    }
    m_stepsWritten = steps.write(m_ctx, m_runId, {});
    return true;
}

void TraceEventWriter::logProblems() {
    for (const auto &[kind, p] : m_buf.problems()) {
        std::string message = std::to_string(p.count) + " " + kind;
        if (!p.firstDetail.empty())
            message += " (first: \"" + p.firstDetail.substr(0, 120) + "\")";
        if (p.effect == ProblemEffect::Note)
            m_ctx.info(p.code, position(p.firstOffset), message);
        else
            m_ctx.warn(p.code, position(p.firstOffset), message);
        if (p.effect == ProblemEffect::Dropped)
            m_eventsDropped += p.count;
    }
    if (m_unboundEndpoints > 0)
        m_ctx.info(ImportLogCode::UnboundFlow, "", std::to_string(m_unboundEndpoints) +
                           " flow events had no partner or no slice to bind to; no flow row for them");
}

} // namespace stepscope
