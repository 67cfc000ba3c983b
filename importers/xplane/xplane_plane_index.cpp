#include "importers/xplane/xplane_plane_index.h"

#include "models/text/json_string.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace stepscope {
namespace {

StatRole roleOf(std::string_view name) {
    if (name == "correlation_id") return StatRole::CorrelationId;
    if (name == "step_num") return StatRole::StepNum;
    if (name == "iter_num") return StatRole::IterNum;
    if (name == "group_id") return StatRole::GroupId;
    if (name == "_r") return StatRole::StepRoot;
    if (name == "memcpy_details") return StatRole::MemcpyDetails;
    if (name == "bytes_allocated") return StatRole::BytesAllocated;
    if (name == "allocator_name") return StatRole::AllocatorName;
    return StatRole::None;
}

template <typename T> void appendNumber(std::string &out, T v) {
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, res.ptr);
}

} // namespace

bool XPlaneIndex::build(XPlaneTokenizer &reader, const XPlaneHeader &plane) {
    xplane_wire::XStatMetadata sm;
    for (const WireSpan &entry : plane.statMetadata) {
        int64_t key = 0;
        if (!reader.parseMapEntry(entry, key, sm))
            return false;
        m_statNames[key] = sm.name();
        if (const StatRole role = roleOf(sm.name()); role != StatRole::None)
            m_roles[key] = role;
    }
    xplane_wire::XEventMetadata em;
    for (const WireSpan &entry : plane.eventMetadata) {
        int64_t key = 0;
        if (!reader.parseMapEntry(entry, key, em))
            return false;
        EventMeta meta;
        meta.name = em.display_name().empty() ? em.name() : em.display_name();
        appendStats(em.stats(), meta.statsJson, meta.facts);
        m_events[key] = std::move(meta);
    }
    return true;
}

const XPlaneIndex::EventMeta *XPlaneIndex::event(int64_t metadataId) const {
    const auto it = m_events.find(metadataId);
    return it == m_events.end() ? nullptr : &it->second;
}

std::string_view XPlaneIndex::statName(int64_t id) const {
    const auto it = m_statNames.find(id);
    return it == m_statNames.end() ? std::string_view() : std::string_view(it->second);
}

std::optional<int64_t> XPlaneIndex::integerOf(const xplane_wire::XStat &stat) {
    switch (stat.value_case()) {
    case xplane_wire::XStat::kInt64Value: return stat.int64_value();
    case xplane_wire::XStat::kUint64Value: return int64_t(stat.uint64_value());
    case xplane_wire::XStat::kDoubleValue:
        if (std::isfinite(stat.double_value()) && std::fabs(stat.double_value()) < 9e18)
            return int64_t(stat.double_value());
        return std::nullopt;
    case xplane_wire::XStat::kStrValue: {
        int64_t v = 0;
        const std::string &s = stat.str_value();
        const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
        if (res.ec == std::errc() && res.ptr == s.data() + s.size())
            return v;
        return std::nullopt;
    }
    default: return std::nullopt;
    }
}

std::optional<int> XPlaneIndex::allocatorGpu(const xplane_wire::XStat &stat) const {
    const std::string_view name = stat.value_case() == xplane_wire::XStat::kStrValue   ? std::string_view(stat.str_value())
                                  : stat.value_case() == xplane_wire::XStat::kRefValue ? statName(int64_t(stat.ref_value()))
                                                                                       : std::string_view();
    // TensorFlow's BFC allocators are "GPU_<N>_bfc"; "gpu_host_bfc" and "cpu" are host memory.
    if (!name.starts_with("GPU_")) return std::nullopt;
    int n = 0;
    const auto res = std::from_chars(name.data() + 4, name.data() + name.size(), n);
    if (res.ec != std::errc() || res.ptr == name.data() + 4 || n < 0 || n > 65535) return std::nullopt;
    return n;
}

void XPlaneIndex::appendStat(const xplane_wire::XStat &stat, std::string &out, EventFacts &facts) const {
    const int64_t id = stat.metadata_id();
    if (const auto role = m_roles.find(id); role != m_roles.end()) {
        const auto v = integerOf(stat);
        switch (role->second) {
        case StatRole::CorrelationId: facts.correlation = v; break;
        case StatRole::StepNum: facts.stepNum = v; break;
        case StatRole::IterNum: if (!facts.stepNum) facts.stepNum = v; break;
        case StatRole::GroupId: facts.groupId = v; break;
        case StatRole::StepRoot: facts.stepRoot = true; break;
        case StatRole::MemcpyDetails: facts.memcpy = true; break;
        case StatRole::BytesAllocated: facts.bytesAllocated = v; break;
        case StatRole::AllocatorName: facts.allocatorGpu = allocatorGpu(stat); break;
        case StatRole::None: break;
        }
    }
    if (!out.empty())
        out.push_back(',');
    const std::string_view name = statName(id);
    if (name.empty())
        appendJsonString(out, "stat#" + std::to_string(id));
    else
        appendJsonString(out, name);
    out.push_back(':');
    switch (stat.value_case()) {
    case xplane_wire::XStat::kDoubleValue:
        if (std::isfinite(stat.double_value()))
            appendNumber(out, stat.double_value());
        else
            out.append("null");
        break;
    case xplane_wire::XStat::kUint64Value: appendNumber(out, stat.uint64_value()); break;
    case xplane_wire::XStat::kInt64Value: appendNumber(out, stat.int64_value()); break;
    case xplane_wire::XStat::kStrValue: appendJsonString(out, stat.str_value()); break;
    case xplane_wire::XStat::kBytesValue:
        appendJsonString(out, "<" + std::to_string(stat.bytes_value().size()) + " bytes>");
        break;
    case xplane_wire::XStat::kRefValue: {
        const std::string_view ref = statName(int64_t(stat.ref_value()));
        appendJsonString(out, ref);
        break;
    }
    case xplane_wire::XStat::VALUE_NOT_SET: out.append("null"); break;
    }
}

void XPlaneIndex::appendStats(const google::protobuf::RepeatedPtrField<xplane_wire::XStat> &stats, std::string &out,
                              EventFacts &facts) const {
    for (const auto &stat : stats)
        appendStat(stat, out, facts);
}

std::string XPlaneIndex::planeStatsJson(XPlaneTokenizer &reader, const XPlaneHeader &plane) const {
    std::string members;
    EventFacts facts;
    xplane_wire::XStat stat;
    for (const WireSpan &s : plane.stats)
        if (reader.parse(s, stat))
            appendStat(stat, members, facts);
    return "{" + members + "}";
}

std::optional<int64_t> XPlaneIndex::planeInt(XPlaneTokenizer &reader, const XPlaneHeader &plane,
                                             std::string_view name) const {
    xplane_wire::XStat stat;
    for (const WireSpan &s : plane.stats)
        if (reader.parse(s, stat) && statName(stat.metadata_id()) == name)
            return integerOf(stat);
    return std::nullopt;
}

std::optional<std::string> XPlaneIndex::planeText(XPlaneTokenizer &reader, const XPlaneHeader &plane,
                                                  std::string_view name) const {
    xplane_wire::XStat stat;
    for (const WireSpan &s : plane.stats) {
        if (!reader.parse(s, stat) || statName(stat.metadata_id()) != name)
            continue;
        if (stat.value_case() == xplane_wire::XStat::kStrValue)
            return stat.str_value();
        if (stat.value_case() == xplane_wire::XStat::kRefValue)
            return std::string(statName(int64_t(stat.ref_value())));
    }
    return std::nullopt;
}

} // namespace stepscope
