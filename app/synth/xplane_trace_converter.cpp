#include "app/synth/xplane_trace_converter.h"

#include "app/synth/generated_trace_reader.h"
#include "app/synth/step_simulator.h"
#include "app/synth/xplane_wire_encoder.h"

#include <charconv>
#include <cstdio>
#include <stdexcept>

#include <zlib.h>

namespace stepscope::synth {

namespace {

// XSpace / XPlane / XLine / XEvent / XStat field numbers (importers/xplane/xplane.proto).
enum : uint32_t { kSpacePlanes = 1, kSpaceHostnames = 4 };
enum : uint32_t { kPlaneId = 1, kPlaneName = 2, kPlaneLines = 3, kPlaneEventMeta = 4, kPlaneStatMeta = 5, kPlaneStats = 6 };
enum : uint32_t { kLineId = 1, kLineName = 2, kLineTimestamp = 3, kLineEvents = 4, kLineDisplayName = 11 };
enum : uint32_t { kEventMetadataId = 1, kEventOffsetPs = 2, kEventDurationPs = 3, kEventStats = 4 };
enum : uint32_t { kStatMetadataId = 1, kStatDouble = 2, kStatInt64 = 4, kStatStr = 5 };

} // namespace

int64_t XPlaneTraceConverter::Plane::statId(std::string_view text) {
    if (auto it = statIds.find(text); it != statIds.end())
        return it->second;
    const int64_t id = static_cast<int64_t>(statIds.size()) + 1;
    statIds.emplace(std::string(text), id);
    return id;
}

int64_t XPlaneTraceConverter::Plane::eventId(std::string_view text) {
    if (auto it = eventIds.find(text); it != eventIds.end())
        return it->second;
    const int64_t id = static_cast<int64_t>(eventIds.size()) + 1;
    eventIds.emplace(std::string(text), id);
    return id;
}

XPlaneTraceConverter::XPlaneTraceConverter(int64_t profileStartNs, int gpus, std::string host, XPlaneStepMarkers markers)
    : profileStartNs_(profileStartNs), host_(std::move(host)), markers_(markers) {
    hostPlane_.name = "/host:CPU";
    devices_.resize(static_cast<size_t>(gpus));
    for (int g = 0; g < gpus; ++g)
        devices_[static_cast<size_t>(g)].name = "/device:GPU:" + std::to_string(g);
}

void XPlaneTraceConverter::addEvent(std::string_view text) {
    TraceLine event;
    if (!parseTraceLine(text, event))
        return;  // document head and tail
    const char ph = event.ph;
    const std::string_view args = event.args;
    std::string_view name = event.name;
    const int64_t pid = event.pid, tid = event.tid, ts = event.ts, dur = event.dur;
    const bool numericPid = event.numericPid;
    const bool stepRoot = pid == StepSimulator::kPid && name.starts_with("ProfilerStep#");
    const int64_t stepNum = stepRoot ? parseInt(name.substr(13)) : -1;
    if (stepRoot && markers_ == XPlaneStepMarkers::TfTrain)
        name = "train";  // tf.profiler.experimental.Trace("train", step_num=N, _r=1)
    else if (stepRoot && markers_ == XPlaneStepMarkers::None)
        name = "__inference_train_function_7724";  // Keras fit without step markers
    std::string_view key;
    JsonValue v;
    if (ph == 'M' && name == "thread_name" && pid == StepSimulator::kPid) {
        threadNames_[tid] = std::string(event.threadName);
        return;
    }
    if (ph != 'X' || !numericPid)
        return;  // instants, flows (implied by correlation ids) and the capture span stay out
    const bool hostEvent = pid == StepSimulator::kPid;
    if (!hostEvent && (pid < 0 || pid >= static_cast<int64_t>(devices_.size())))
        return;
    Plane &plane = hostEvent ? hostPlane_ : devices_[static_cast<size_t>(pid)];
    Line &line = plane.lines[tid];
    if (line.name.empty())
        line.name = hostEvent ? (threadNames_.count(tid) ? threadNames_[tid] : "thread " + std::to_string(tid))
                              : "Stream #" + std::to_string(tid);
    Event e{ts, dur, plane.eventId(name), static_cast<uint32_t>(line.stats.size()), 0};
    XPlaneWireEncoder out(line.stats);
    std::string stat;
    auto addStat = [&](std::string_view statName, auto writeValue) {
        stat.clear();
        XPlaneWireEncoder s(stat);
        s.int64Field(kStatMetadataId, plane.statId(statName));
        writeValue(s);
        out.bytesField(kEventStats, stat);
    };
    FlatJson a(args);
    while (a.next(key, v)) {
        const std::string_view statName = key == "correlation" ? std::string_view("correlation_id") : key;
        if (v.isString || v.text.starts_with("["))
            addStat(statName, [&](XPlaneWireEncoder &s) { s.bytesField(kStatStr, v.text); });
        else if (v.text.find('.') != std::string_view::npos)
            addStat(statName, [&](XPlaneWireEncoder &s) { s.doubleField(kStatDouble, static_cast<double>(parseMicros(v.text)) / 1000.0); });
        else
            addStat(statName, [&](XPlaneWireEncoder &s) { s.int64Field(kStatInt64, parseInt(v.text)); });
    }
    if (stepRoot && markers_ != XPlaneStepMarkers::None) {  // TF-style step root stats
        addStat("step_num", [&](XPlaneWireEncoder &s) { s.int64Field(kStatInt64, stepNum); });
        addStat("_r", [&](XPlaneWireEncoder &s) { s.int64Field(kStatInt64, 1); });
    }
    e.statsLength = static_cast<uint32_t>(line.stats.size() - e.statsOffset);
    line.events.push_back(e);
    endNs_ = std::max(endNs_, ts + dur);
}

std::string XPlaneTraceConverter::encodePlane(const Plane &plane, int64_t id, const std::string &planeStats) const {
    std::string out, msg, entry;
    XPlaneWireEncoder p(out);
    p.int64Field(kPlaneId, id);
    p.bytesField(kPlaneName, plane.name);
    for (const auto &[lineId, line] : plane.lines) {
        if (line.events.empty())
            continue;
        int64_t base = line.events.front().start;
        for (const Event &e : line.events)
            base = std::min(base, e.start);
        msg.clear();
        XPlaneWireEncoder l(msg);
        l.int64Field(kLineId, lineId);
        l.bytesField(kLineName, line.name);
        l.bytesField(kLineDisplayName, line.name);
        l.int64Field(kLineTimestamp, base);
        for (const Event &e : line.events) {
            entry.clear();
            XPlaneWireEncoder ev(entry);
            ev.int64Field(kEventMetadataId, e.metadataId);
            ev.int64Field(kEventOffsetPs, (e.start - base) * 1000);
            ev.int64Field(kEventDurationPs, e.dur * 1000);
            entry.append(line.stats, e.statsOffset, e.statsLength);
            l.bytesField(kLineEvents, entry);
        }
        p.bytesField(kPlaneLines, msg);
    }
    // map<int64, XEventMetadata> / map<int64, XStatMetadata>: entries {1: key, 2: value}.
    auto mapEntry = [&](uint32_t field, int64_t key, std::string_view name) {
        msg.clear();
        XPlaneWireEncoder v(msg);
        v.int64Field(1, key);
        v.bytesField(2, name);
        entry.clear();
        XPlaneWireEncoder en(entry);
        en.int64Field(1, key);
        en.bytesField(2, msg);
        p.bytesField(field, entry);
    };
    std::map<int64_t, std::string_view> byId;
    for (const auto &[name, eid] : plane.eventIds)
        byId[eid] = name;
    for (const auto &[eid, name] : byId)
        mapEntry(kPlaneEventMeta, eid, name);
    byId.clear();
    for (const auto &[name, sid] : plane.statIds)
        byId[sid] = name;
    for (const auto &[sid, name] : byId)
        mapEntry(kPlaneStatMeta, sid, name);
    out += planeStats;
    return out;
}

XPlaneConversionStats XPlaneTraceConverter::convert(const std::filesystem::path &traceGz,
                                                    const std::filesystem::path &xplanePb) {
    gzipReadLines(traceGz, [&](std::string_view line) { addEvent(line); });
    std::filesystem::create_directories(xplanePb.parent_path());
    std::FILE *f = std::fopen(xplanePb.string().c_str(), "wb");
    if (!f)
        throw std::runtime_error("cannot write " + xplanePb.string());
    std::string space;
    XPlaneWireEncoder s(space);
    auto writePlane = [&](Plane &plane, int64_t id, const std::string &stats) {
        for (const auto &[lid, line] : plane.lines) {
            stats_.events += static_cast<int64_t>(line.events.size());
            stats_.lines += !line.events.empty();
        }
        s.bytesField(kSpacePlanes, encodePlane(plane, id, stats));
        plane.lines.clear();  // free each plane's events once encoded
    };
    // Plane-level stats: device properties (as the GPU planes of real captures carry them).
    auto planeStats = [](Plane &plane, const std::vector<std::pair<std::string, std::string>> &strs,
                         const std::vector<std::pair<std::string, int64_t>> &ints) {
        std::string out, stat;
        XPlaneWireEncoder o(out);
        for (const auto &[k, v] : strs) {
            stat.clear();
            XPlaneWireEncoder st(stat);
            st.int64Field(kStatMetadataId, plane.statId(k));
            st.bytesField(kStatStr, v);
            o.bytesField(kPlaneStats, stat);
        }
        for (const auto &[k, v] : ints) {
            stat.clear();
            XPlaneWireEncoder st(stat);
            st.int64Field(kStatMetadataId, plane.statId(k));
            st.int64Field(kStatInt64, v);
            o.bytesField(kPlaneStats, stat);
        }
        return out;
    };
    writePlane(hostPlane_, 1, {});
    for (size_t g = 0; g < devices_.size(); ++g) {
        const std::string stats = planeStats(devices_[g], {{"device_vendor", "Nvidia"}},
                                             {{"clock_rate", 1980000}, {"core_count", 132},
                                              {"memory_size", 85520809984}, {"compute_cap_major", 9},
                                              {"compute_cap_minor", 0}});
        writePlane(devices_[g], 2 + static_cast<int64_t>(g), stats);
    }
    Plane env;
    env.name = "Task Environment";
    const std::string envStats = planeStats(env, {}, {{"profile_start_time", profileStartNs_},
                                                      {"profile_stop_time", profileStartNs_ + endNs_ + 50'000}});
    writePlane(env, 100, envStats);
    s.bytesField(kSpaceHostnames, host_);
    const bool ok = std::fwrite(space.data(), 1, space.size(), f) == space.size();
    if (std::fclose(f) != 0 || !ok)
        throw std::runtime_error("cannot write " + xplanePb.string());
    stats_.bytes = static_cast<int64_t>(space.size());
    return stats_;
}

} // namespace stepscope::synth
