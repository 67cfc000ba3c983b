#include "importers/xplane/xplane_space_writer.h"

#include "models/store/ns_range.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>

namespace stepscope {
namespace {

// Line timestamps above this are Unix-epoch ns (after 1973); below, relative to the profile start.
constexpr int64_t kEpochThresholdNs = int64_t(100'000'000'000'000'000);

constexpr std::array<std::string_view, 13> kDerivedLines = {
    "Steps",       "XLA Modules",     "XLA Ops",      "Async XLA Ops", "Framework Ops",
    "Framework Name Scope", "Launch Stats", "Source code", "_counters_",  "Host Offload Ops",
    "XLA TraceMe", "TensorFlow Ops",  "TensorFlow Name Scope"};

// N of "/device:GPU:N" or "/device:TPU:N"; nullopt for other planes.
std::optional<int64_t> deviceIndex(std::string_view plane) {
    for (std::string_view prefix : {"/device:GPU:", "/device:TPU:"}) {
        if (!plane.starts_with(prefix))
            continue;
        int64_t n = 0;
        const char *p = plane.data() + prefix.size();
        const auto res = std::from_chars(p, plane.data() + plane.size(), n);
        if (res.ec == std::errc() && res.ptr != p)
            return n;
    }
    return std::nullopt;
}

std::string lineName(const XLineHeader &line) {
    if (!line.displayName.empty())
        return line.displayName;
    return line.name.empty() ? "line " + std::to_string(line.id) : line.name;
}

} // namespace

XPlaneSpaceWriter::XPlaneSpaceWriter(ImportContext &ctx, XPlaneTokenizer &reader, std::string runName,
                                     std::string host)
    : m_ctx(ctx), m_reader(reader), m_stepRules(StepNameRules::load()), m_stepDetector(m_stepRules),
      m_lineWriter(ctx, m_strings, reader, m_links, m_stepDetector) {
    m_run.name = std::move(runName);
    m_run.host = std::move(host);
}

bool XPlaneSpaceWriter::write(const XSpaceHeader &space) {
    readPlanes(space);  // on malformed bytes: the planes before it
    decideTimeBase();
    describeRun(space);
    if (!writeLines())
        return false;
    if (!m_runId && m_reader.error().failed())
        return true;  // malformed before any event: no empty run left behind
    ensureRun();
    writeFlows();
    writeMemory();
    m_steps = m_stepDetector.write(m_ctx, m_runId, [this](int stepClass) {
        return XPlaneLineWriter::stepClassName(m_stepDetector, stepClass);
    });
    logSummary();
    return !m_ctx.cancelled();
}

bool XPlaneSpaceWriter::readPlanes(const XSpaceHeader &space) {
    for (const WireSpan &span : space.planes) {
        auto plane = std::make_unique<Plane>();
        if (!m_reader.readPlane(span, plane->header) || !plane->index.build(m_reader, plane->header))
            return false;
        const std::string &name = plane->header.name;
        plane->device = deviceIndex(name);
        plane->kind = plane->device             ? PlaneKind::Device
                      : name == "Task Environment" ? PlaneKind::TaskEnvironment
                      : name == "/host:metadata"   ? PlaneKind::Metadata
                      : name.starts_with("/host:") || name == "Host CPUs" || name == "Syscalls" ? PlaneKind::Host
                                                                                               : PlaneKind::Other;
        for (const WireSpan &l : plane->header.lines) {
            XLineHeader line;
            if (!m_reader.readLine(l, line))
                return false;
            plane->lines.push_back(std::move(line));
        }
        if (plane->kind == PlaneKind::TaskEnvironment && !m_anchor)
            m_anchor = plane->index.planeInt(m_reader, plane->header, "profile_start_time");
        m_planes.push_back(std::move(plane));
    }
    return true;
}

void XPlaneSpaceWriter::decideTimeBase() {
    std::optional<int64_t> minEpoch;
    bool relative = false;
    for (const auto &plane : m_planes) {
        if (plane->kind == PlaneKind::TaskEnvironment || plane->kind == PlaneKind::Metadata)
            continue;
        for (const XLineHeader &line : plane->lines) {
            if (line.eventCount == 0)
                continue;
            if (!timeInRange(line.timestampNs))  // its events are dropped (and counted) as out of range
                continue;
            if (line.timestampNs > kEpochThresholdNs)
                minEpoch = std::min(minEpoch.value_or(line.timestampNs), line.timestampNs);
            else
                relative = true;
        }
    }
    if (m_anchor && *m_anchor > kEpochThresholdNs && timeInRange(*m_anchor)) {
        m_run.timeBaseNs = *m_anchor;
        m_run.hasEpoch = true;
        m_epochShift = *m_anchor;
    } else if (minEpoch) {
        m_run.timeBaseNs = *minEpoch;
        m_run.hasEpoch = true;
        m_epochShift = *minEpoch;
        m_mixedTimestamps = relative;
    }
}

int64_t XPlaneSpaceWriter::ensureRun() {
    if (!m_runId)
        m_runId = m_ctx.writer().addRun(m_ctx.sourceId(), m_run);
    return m_runId;
}

int64_t XPlaneSpaceWriter::lineBase(const XLineHeader &line) const {
    // Relative lines count from the profile start, i.e. from the run's time base already.
    return line.timestampNs > kEpochThresholdNs ? line.timestampNs - m_epochShift : line.timestampNs;
}

void XPlaneSpaceWriter::describeRun(const XSpaceHeader &space) {
    if (!space.hostnames.empty() && !space.hostnames.front().empty())
        m_run.host = space.hostnames.front();
    bool tensorflow = false, xla = false;
    int devices = 0;
    for (const auto &plane : m_planes) {
        xla |= plane->kind == PlaneKind::Metadata;
        for (const XLineHeader &line : plane->lines) {
            tensorflow |= line.name.starts_with("tf_");
            xla |= line.name == "XLA Modules" || line.name.starts_with("py_xla_execute");
        }
        if (plane->kind == PlaneKind::Device && !plane->header.lines.empty())
            ++devices;
        if (!plane->header.stats.empty())  // plane-level stats (device properties, …) are kept here
            m_ctx.info(ImportLogCode::PlaneStats, "", "plane \"" + plane->header.name +
                               "\" stats: " + plane->index.planeStatsJson(m_reader, plane->header));
    }
    m_run.framework = tensorflow ? "tensorflow" : xla ? "jax" : "";
    for (const auto &plane : m_planes) {
        if (plane->kind != PlaneKind::Device || plane->header.stats.empty())
            continue;
        auto num = [&](std::string_view n) { return plane->index.planeInt(m_reader, plane->header, n); };
        const std::string vendor = plane->index.planeText(m_reader, plane->header, "device_vendor").value_or("");
        std::string kind = plane->header.name.find("TPU") != std::string::npos ? "TPU" : "GPU";
        std::string text = vendor.empty() ? kind : vendor + " " + kind;
        std::string details;
        auto add = [&](const std::string &part) { details += (details.empty() ? "" : ", ") + part; };
        if (const auto cores = num("core_count"))
            add(std::to_string(*cores) + " cores");
        if (const auto khz = num("clock_rate"))
            add(std::to_string(*khz / 1000) + " MHz");
        if (const auto bytes = num("memory_size")) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.0f GiB", double(*bytes) / double(int64_t(1) << 30));
            add(buf);
        }
        if (const auto major = num("compute_cap_major"))
            add("compute " + std::to_string(*major) + "." + std::to_string(num("compute_cap_minor").value_or(0)));
        m_run.device = details.empty() ? text : text + " (" + details + ")";
        if (devices > 1)
            m_run.device += " ×" + std::to_string(devices);
        break;
    }
}

bool XPlaneSpaceWriter::writeLines() {
    for (size_t pi = 0; pi < m_planes.size(); ++pi) {
        Plane &plane = *m_planes[pi];
        if (plane.kind == PlaneKind::TaskEnvironment || plane.kind == PlaneKind::Metadata)
            continue;
        const int64_t group = plane.kind == PlaneKind::Host     ? 0
                              : plane.kind == PlaneKind::Device ? 1 + *plane.device
                                                                : 1000 + int64_t(pi);
        std::vector<std::pair<int64_t, int64_t>> trackOfLine;  // line id → track (equal ids share one)
        for (size_t li = 0; li < plane.lines.size(); ++li) {
            const XLineHeader &line = plane.lines[li];
            if (line.eventCount == 0)
                continue;
            const std::string name = lineName(line);
            const bool derived = std::find(kDerivedLines.begin(), kDerivedLines.end(), line.name) != kDerivedLines.end();
            XLineKind kind = XLineKind::Derived;
            TrackInfo info;
            info.pid = plane.header.name;
            info.tid = std::to_string(line.id);
            info.sortIndex = int64_t(uint64_t(group) << 32) + int64_t(li);
            if (plane.kind == PlaneKind::Host) {
                kind = XLineKind::HostThread;
                info.kind = TrackKind::HostThread;
                info.name = plane.header.name == "/host:CPU" ? name : name + " (" + plane.header.name + ")";
            } else if (plane.kind == PlaneKind::Device) {
                info.device = plane.device;
                const std::string dev = (plane.header.name.find("TPU") != std::string::npos ? "TPU " : "GPU ") +
                                        std::to_string(*plane.device);
                if (derived) {
                    kind = line.name == "Steps" ? XLineKind::DeviceSteps : XLineKind::Derived;
                    info.kind = TrackKind::Other;
                    info.name = name + " (" + dev + ")";
                } else {
                    kind = XLineKind::DeviceStream;
                    info.kind = TrackKind::GpuStream;
                    info.name = name;
                }
            } else {
                info.kind = TrackKind::Other;
                info.name = name + " (" + plane.header.name + ")";
            }
            auto it = std::find_if(trackOfLine.begin(), trackOfLine.end(), [&](const auto &p) { return p.first == line.id; });
            const int64_t trackId = it != trackOfLine.end() ? it->second : m_ctx.writer().addTrack(ensureRun(), info);
            if (it == trackOfLine.end())
                trackOfLine.emplace_back(line.id, trackId);
            if (!m_lineWriter.write(plane.header.lines[li], plane.index, kind, trackId, lineBase(line), info.name))
                return m_reader.error().failed();  // malformed: stop, keep what was written; else cancelled
            m_reader.release(plane.header.lines[li]);  // lines are read once, in file order
            m_ctx.progress(plane.header.lines[li].offset + plane.header.lines[li].size, m_reader.size());
        }
    }
    return true;
}

void XPlaneSpaceWriter::writeMemory() {
    auto &points = m_links.memory;
    if (points.empty())
        return;
    std::stable_sort(points.begin(), points.end(), [](const auto &a, const auto &b) {
        return a.device != b.device ? a.device < b.device : a.t < b.t;
    });
    SessionWriter &w = m_ctx.writer();
    for (size_t i = 0; i < points.size();) {
        const int device = points[i].device;
        const int64_t series = w.addMetricSeries(m_ctx.sourceId(), m_run.name, "gpu_mem_allocated", device, "B", 0);
        const size_t first = i;
        for (; i < points.size() && points[i].device == device; ++i)
            w.addMetricSample(series, points[i].t + m_run.timeBaseNs, double(points[i].allocated));
        for (const auto &plane : m_planes) {
            if (plane->kind != PlaneKind::Device || plane->device != device) continue;
            if (const auto bytes = plane->index.planeInt(m_reader, plane->header, "memory_size"); bytes && *bytes > 0) {
                const int64_t total = w.addMetricSeries(m_ctx.sourceId(), m_run.name, "gpu_mem_total", device, "B", 0);
                w.addMetricSample(total, points[first].t + m_run.timeBaseNs, double(*bytes));
                w.addMetricSample(total, points[i - 1].t + m_run.timeBaseNs, double(*bytes));
            }
            break;
        }
    }
    m_ctx.info(ImportLogCode::ImportSummary, "", std::to_string(points.size()) + " GPU allocator events read as gpu_mem_allocated");
}

void XPlaneSpaceWriter::writeFlows() {
    const int64_t category = m_strings.storeId(m_ctx.writer(), m_strings.intern("ac2g"));
    std::sort(m_links.device.begin(), m_links.device.end(),
              [](const auto &a, const auto &b) { return a.second < b.second; });
    for (const auto &[correlation, deviceSlice] : m_links.device) {
        const auto it = m_links.hostByCorrelation.find(correlation);
        if (it == m_links.hostByCorrelation.end()) {
            ++m_unlinked;
            continue;
        }
        m_ctx.writer().addFlow(m_runId, it->second.sliceId, deviceSlice, category);
        ++m_flows;
    }
}

void XPlaneSpaceWriter::logSummary() {
    const XPlaneLineCounts &c = m_lineWriter.counts();
    if (c.aggregated > 0)
        m_ctx.info(ImportLogCode::AggregatedEvents, "", std::to_string(c.aggregated) +
                           " aggregated events (num_occurrences, no position in time) counted, not on the timeline");
    if (c.unknownMetadata > 0)
        m_ctx.warn(ImportLogCode::UnknownMetadata, "", std::to_string(c.unknownMetadata) + " events refer to event metadata the plane lacks; named \"event #id\"");
    if (c.negativeDurations > 0)
        m_ctx.warn(ImportLogCode::NegativeDuration, "", std::to_string(c.negativeDurations) + " events have a negative duration_ps; kept as instants");
    if (c.outOfRange > 0)
        m_ctx.warn(ImportLogCode::TimeOutOfRange, "", std::to_string(c.outOfRange) + " events lie beyond ±2^62 ns of the profile's start; dropped");
    if (m_unlinked > 0)
        m_ctx.info(ImportLogCode::UnboundFlow, "", std::to_string(m_unlinked) + " device events carry a correlation_id no host event has; no flow row");
    if (m_mixedTimestamps)
        m_ctx.warn(ImportLogCode::MixedTimeBases, "", "some lines have epoch timestamps and others relative ones, and no Task Environment "
                       "profile_start_time to relate them; relative lines are placed at the run's start");
    if (!m_anchor && !m_run.hasEpoch)
        m_ctx.info(ImportLogCode::RelativeTimes, "", "no Task Environment profile_start_time: times are relative to the profile start");
}

} // namespace stepscope
