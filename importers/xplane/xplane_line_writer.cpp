#include "importers/xplane/xplane_line_writer.h"

#include "importers/common/op_cost.h"

#include "models/store/ns_range.h"

#include <algorithm>
#include <charconv>

namespace stepscope {
namespace {

constexpr int64_t kPsPerNs = 1000;

bool containsAny(std::string_view s, std::string_view a, std::string_view b) {
    return s.find(a) != std::string_view::npos || s.find(b) != std::string_view::npos;
}

std::optional<int64_t> integerName(std::string_view name) {
    int64_t v = 0;
    const auto res = std::from_chars(name.data(), name.data() + name.size(), v);
    if (res.ec == std::errc() && res.ptr == name.data() + name.size())
        return v;
    return std::nullopt;
}

// A host event that roots a step's group (TensorFlow's TraceContext, train…): with a group_id it is
// a step candidate numbered by the group.
bool isStepGroupRootName(std::string_view name) {
    return name == "TraceContext" || name.starts_with("train") || name.starts_with("Train");
}

} // namespace

XPlaneLineWriter::XPlaneLineWriter(ImportContext &ctx, StringInterner &strings, XPlaneTokenizer &reader,
                                   XPlaneLinks &links, StepDetector &steps)
    : m_ctx(ctx), m_strings(strings), m_reader(reader), m_links(links), m_steps(steps) {}

bool XPlaneLineWriter::write(const WireSpan &line, const XPlaneIndex &index, XLineKind kind, int64_t trackId,
                             int64_t baseNs, const std::string &trackName) {
    m_pending.clear();
    m_args.clear();
    m_open.clear();
    const bool streamed = streamable(line, baseNs);
    if (!streamed && gatherTimes(line, baseNs))
        return writeNested(index, kind, trackId, baseNs, trackName);
    bool cancelled = false;
    size_t seen = 0;
    const bool ok = m_reader.forEachEvent(line, m_event, [&](const xplane_wire::XEvent &e, int64_t) {
        if ((++seen & 0xFFFF) == 0 && m_ctx.cancelled()) {
            cancelled = true;
            return false;
        }
        decode(e, index, kind, baseNs);
        if (streamed && !m_pending.empty()) {
            writeStreamed(kind, trackId, m_pending.back());
            m_pending.clear();
            m_args.clear();
        }
        return true;
    });
    flush(kind, trackId, trackName);  // malformed lines; what decoded before the bad event is kept
    return ok && !cancelled;
}

bool XPlaneLineWriter::gatherTimes(const WireSpan &line, int64_t baseNs) {
    m_spans.clear();
    m_eventAt.clear();
    int64_t aggregated = 0, outOfRange = 0;
    const bool ok = m_reader.forEachEventTiming(line, [&](const XEventTiming &t) {
        int64_t start = 0, dur = 0;
        if (t.aggregated) {
            ++aggregated;
        } else if (!eventTime(baseNs, t.offsetPs, t.durationPs, start, dur)) {
            ++outOfRange;
        } else {
            m_spans.push_back({start, dur});
            m_eventAt.push_back(t.event);
        }
        return true;
    });
    if (ok) {  // else the whole decode counts them
        m_counts.aggregated += aggregated;
        m_counts.outOfRange += outOfRange;
    }
    return ok;
}

bool XPlaneLineWriter::writeNested(const XPlaneIndex &index, XLineKind kind, int64_t trackId, int64_t baseNs,
                                   const std::string &trackName) {
    if (!m_nester.nest(m_spans, [this] { return !m_ctx.cancelled(); }))
        return false;
    m_ids.assign(m_spans.size(), 0);
    size_t seen = 0;
    for (const uint32_t i : m_nester.order()) {  // parents come before their children
        if ((++seen & 0xFFFF) == 0 && m_ctx.cancelled())
            return false;
        if (!m_reader.parse(m_eventAt[i], m_event))
            return false;  // malformed inside: the rows written so far are whole (parents first)
        m_pending.clear();
        m_args.clear();
        decode(m_event, index, kind, baseNs);
        if (m_pending.empty())
            continue;  // not reached: gatherTimes kept only events with a time
        const int32_t parent = m_nester.parent(i);
        m_ids[i] = writeRow(kind, trackId, m_pending.front(), m_nester.depth(i),
                            parent != SliceNester::kNone ? std::optional<int64_t>(m_ids[size_t(parent)]) : std::nullopt);
        ++m_counts.slices;
    }
    m_pending.clear();
    m_args.clear();
    reportOverflow(trackName);
    return true;
}

bool XPlaneLineWriter::eventTime(int64_t baseNs, int64_t offsetPs, int64_t durationPs, int64_t &start, int64_t &dur) {
    // start = base + floor(offset_ps / 1000); end = base + floor((offset_ps + duration_ps) / 1000),
    // computed from the sub-ns remainder so nothing overflows (FORMATS.md §1.3).
    int64_t offNs = offsetPs / kPsPerNs;
    int64_t rem = offsetPs % kPsPerNs;
    if (rem < 0) {
        rem += kPsPerNs;
        --offNs;
    }
    const int64_t durPs = std::max<int64_t>(durationPs, 0);
    dur = durPs / kPsPerNs + (rem + durPs % kPsPerNs) / kPsPerNs;
    int64_t end = 0;
    // Within ±2^62 ns (kTimeLimitNs) of the run's time base, so the views' base + time never overflows.
    return !__builtin_add_overflow(baseNs, offNs, &start) && !__builtin_add_overflow(start, dur, &end) &&
           timeInRange(start) && timeInRange(end);
}

bool XPlaneLineWriter::streamable(const WireSpan &line, int64_t baseNs) {
    // The order SliceNester sorts by, and its nesting pass with nothing left over (nestRound).
    m_openEnds.clear();
    bool inOrder = true, first = true;
    int64_t prevStart = 0, prevDur = 0;
    const bool walked = m_reader.forEachEventTiming(line, [&](const XEventTiming &t) {
        int64_t start = 0, dur = 0;
        if (t.aggregated || !eventTime(baseNs, t.offsetPs, t.durationPs, start, dur))
            return true;  // not written either way
        if (!first && (start < prevStart || (start == prevStart && dur > prevDur)))
            return inOrder = false;
        first = false;
        prevStart = start;
        prevDur = dur;
        while (!m_openEnds.empty() && m_openEnds.back() <= start)
            m_openEnds.pop_back();
        if (!m_openEnds.empty() && start + dur > m_openEnds.back())
            return inOrder = false;  // overlaps without nesting: an overflow row, SliceNester's job
        m_openEnds.push_back(start + dur);
        return true;
    });
    return walked && inOrder;
}

bool XPlaneLineWriter::decode(const xplane_wire::XEvent &e, const XPlaneIndex &index, XLineKind kind,
                              int64_t baseNs) {
    if (e.data_case() == xplane_wire::XEvent::kNumOccurrences) {
        ++m_counts.aggregated;
        return true;
    }
    if (e.duration_ps() < 0)
        ++m_counts.negativeDurations;
    Pending p;
    if (!eventTime(baseNs, e.offset_ps(), e.duration_ps(), p.start, p.dur)) {
        ++m_counts.outOfRange;
        return true;
    }
    const XPlaneIndex::EventMeta *meta = index.event(e.metadata_id());
    std::string_view name;
    EventFacts facts;
    m_member.clear();
    if (meta) {
        name = meta->name;
        facts = meta->facts;
        m_member = meta->statsJson;
    } else {
        ++m_counts.unknownMetadata;
    }
    index.appendStats(e.stats(), m_member, facts);
    if (facts.correlation)
        p.correlation = *facts.correlation;
    if (meta && !meta->nameId)
        meta->nameId = storeId(name);
    p.nameId = meta ? meta->nameId : storeId("event #" + std::to_string(e.metadata_id()));
    p.categoryId = categoryFor(kind, facts, name);
    if (!m_member.empty()) {
        p.argsOffset = m_args.size();
        m_args.push_back('{');
        m_args.append(m_member);
        m_args.push_back('}');
        p.argsLength = m_args.size() - p.argsOffset;
    }
    noteStep(kind, p, facts, name);
    if (kind == XLineKind::HostThread && facts.bytesAllocated && *facts.bytesAllocated >= 0 && facts.allocatorGpu &&
        (name == "MemoryAllocation" || name == "MemoryDeallocation"))
        m_links.memory.push_back({p.start, *facts.bytesAllocated, *facts.allocatorGpu});
    m_pending.push_back(p);
    return true;
}

int64_t XPlaneLineWriter::categoryFor(XLineKind kind, const EventFacts &facts, std::string_view name) {
    // XPlane has no categories; these mirror Kineto's so the shared category rules apply.
    auto cached = [&](int64_t &id, std::string_view text) { return id ? id : (id = storeId(text)); };
    if (kind == XLineKind::DeviceStream) {
        if (facts.memcpy || containsAny(name, "Memcpy", "memcpy"))
            return cached(m_memcpy, "gpu_memcpy");
        if (containsAny(name, "Memset", "memset"))
            return cached(m_memset, "gpu_memset");
        return cached(m_kernel, "kernel");
    }
    if (kind == XLineKind::HostThread && facts.correlation)
        return cached(m_runtime, "cuda_runtime");
    return 0;
}

void XPlaneLineWriter::noteStep(XLineKind kind, const Pending &p, const EventFacts &facts, std::string_view name) {
    // Step candidates by class: the profiler's step_num stats before every name rule, the rules of
    // step_ranges.tsv (ProfilerStep#N first), then the device "Steps" line, then group roots.
    if (kind == XLineKind::HostThread) {
        std::optional<StepMatch> match;
        if (!facts.stepNum) {
            auto [it, inserted] = m_stepMatches.try_emplace(p.nameId);
            if (inserted)
                it->second = m_steps.rules().match(name);
            match = it->second;
        }
        if (facts.stepNum) {
            m_steps.addCandidate(kStepNumClass, *facts.stepNum, p.start, p.dur);
        } else if (match && !match->badNumber) {
            m_steps.addCandidate(match->rule, match->number, p.start, p.dur);
        } else if (facts.groupId && (facts.stepRoot || isStepGroupRootName(name))) {
            m_steps.addCandidate(m_steps.classAfterRules(kGroupRootClass), *facts.groupId, p.start, p.dur);
        }
        m_steps.addTrainFunctionSpan(TrainFunctionSteps::roleOf(name), p.start, p.dur);
    } else if (kind == XLineKind::DeviceSteps) {
        std::optional<int64_t> n = facts.stepNum ? facts.stepNum : facts.groupId;
        if (!n)
            n = integerName(name);
        if (n)
            m_steps.addCandidate(m_steps.classAfterRules(kDeviceStepsClass), *n, p.start, p.dur);
    }
}

std::string XPlaneLineWriter::stepClassName(const StepDetector &steps, int stepClass) {
    if (stepClass == kStepNumClass)
        return "host step markers (step_num)";
    if (stepClass == steps.classAfterRules(kDeviceStepsClass))
        return "the device \"Steps\" line";
    if (stepClass == steps.classAfterRules(kGroupRootClass))
        return "host step roots with group_id";
    return "host ranges of step rule " + std::to_string(stepClass + 1) + " (" + steps.rules().origin() + ")";
}

void XPlaneLineWriter::writeStreamed(XLineKind kind, int64_t trackId, const Pending &p) {
    while (!m_open.empty() && m_open.back().end <= p.start)
        m_open.pop_back();
    const int32_t depth = m_open.empty() ? 0 : m_open.back().depth + 1;
    const int64_t id = writeRow(kind, trackId, p, depth, m_open.empty() ? std::nullopt : std::optional<int64_t>(m_open.back().id));
    m_open.push_back({p.start + p.dur, id, depth});
    ++m_counts.slices;
}

int64_t XPlaneLineWriter::writeRow(XLineKind kind, int64_t trackId, const Pending &p, int32_t depth,
                                   std::optional<int64_t> parentId) {
    SliceRow row;
    row.trackId = trackId;
    row.startNs = p.start;
    row.durNs = p.dur;
    row.depth = depth;
    row.parentId = parentId;
    row.nameId = p.nameId;
    if (p.categoryId)
        row.categoryId = p.categoryId;
    if (p.correlation != kNoCorrelation)
        row.correlation = p.correlation;
    if (p.argsLength)
        row.argsJson = std::string_view(m_args).substr(p.argsOffset, p.argsLength);
    const int64_t id = m_ctx.writer().addSlice(row);
    if (!row.argsJson.empty())  // XLA's own figures ("flops", "bytes_accessed") on an op
        if (auto cost = OpCostModel::costRow({}, row.argsJson)) {
            cost->sliceId = id;
            cost->trackId = trackId;
            cost->startNs = p.start;
            cost->nameId = p.nameId;
            m_ctx.writer().addSliceCost(*cost);
        }
    if (p.correlation != kNoCorrelation) {
        if (kind == XLineKind::HostThread) {
            auto [it, inserted] = m_links.hostByCorrelation.emplace(p.correlation, XPlaneLinks::Launch{id, p.dur});
            if (!inserted && p.dur < it->second.dur)
                it->second = {id, p.dur};
        } else if (kind == XLineKind::DeviceStream) {
            m_links.device.emplace_back(p.correlation, id);
        }
    }
    return id;
}

void XPlaneLineWriter::flush(XLineKind kind, int64_t trackId, const std::string &trackName) {
    if (m_pending.empty())
        return;
    m_spans.resize(m_pending.size());
    for (size_t i = 0; i < m_pending.size(); ++i)
        m_spans[i] = {m_pending[i].start, m_pending[i].dur};
    m_nester.nest(m_spans);
    m_ids.assign(m_pending.size(), 0);
    for (const uint32_t i : m_nester.order()) {  // parents come before their children
        const int32_t parent = m_nester.parent(i);
        m_ids[i] = writeRow(kind, trackId, m_pending[i], m_nester.depth(i),
                            parent != SliceNester::kNone ? std::optional<int64_t>(m_ids[size_t(parent)]) : std::nullopt);
    }
    m_counts.slices += int64_t(m_pending.size());
    reportOverflow(trackName);
}

void XPlaneLineWriter::reportOverflow(const std::string &trackName) {
    if (m_nester.overflowCount() > 0) {
        m_counts.overflowSlices += m_nester.overflowCount();
        m_ctx.warn(ImportLogCode::OverlappingSlices, "", std::to_string(m_nester.overflowCount()) + " events on line \"" + trackName +
                           "\" overlap an earlier event without nesting; kept on overflow rows from depth " +
                           std::to_string(m_nester.firstOverflowDepth()) +
                           (m_nester.clippedCount() > 0 ? " (" + std::to_string(m_nester.clippedCount()) +
                                                              " of them share the last overflow row, overlapping)"
                                                        : std::string()));
    }
}

} // namespace stepscope
