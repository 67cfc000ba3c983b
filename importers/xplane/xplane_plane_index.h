#pragma once
// XPlaneIndex owns the lookup tables of one plane: stat metadata (id → name, and the few stat names
// the importer acts on), event metadata (id → display name or name, plus its stats pre-rendered as
// JSON members, since they apply to every event using it). It turns an event's stats into the args
// JSON kept on the slice, resolving `ref_value` through the stat names, and pulls out the values the
// importer needs (correlation id, step number, group id). Built per plane by XPlaneImporter; read by
// XPlaneLineWriter for every event.

#include "importers/xplane/xplane_tokenizer.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace stepscope {

// The stats the importer interprets (FORMATS.md §1.6); everything else is only kept as args.
enum class StatRole : uint8_t { None, CorrelationId, StepNum, IterNum, GroupId, StepRoot, MemcpyDetails, BytesAllocated,
                                 AllocatorName };

// Values of the interpreted stats found on one event (event stats override metadata stats).
struct EventFacts {
    std::optional<int64_t> correlation;
    std::optional<int64_t> stepNum;  // step_num, else iter_num
    std::optional<int64_t> groupId;
    bool stepRoot = false;
    bool memcpy = false;
    // MemoryAllocation / MemoryDeallocation: the allocator's total after the event, and the GPU
    // of its allocator_name ("GPU_0_bfc" → 0; nullopt for host allocators).
    std::optional<int64_t> bytesAllocated;
    std::optional<int> allocatorGpu;
};

class XPlaneIndex {
public:
    struct EventMeta {
        std::string name;         // display_name when present, else name
        std::string statsJson;    // `"k":v,...` members (no braces); empty when none
        EventFacts facts;
        mutable int64_t nameId = 0;  // interned by the line writer on first use
    };

    // Reads the plane's metadata maps; false (reader.error() set) on malformed bytes.
    bool build(XPlaneTokenizer &reader, const XPlaneHeader &plane);

    const EventMeta *event(int64_t metadataId) const;
    std::string_view statName(int64_t id) const;
    // Appends the event's own stats as JSON members to `out` and applies them to `facts`.
    void appendStats(const google::protobuf::RepeatedPtrField<xplane_wire::XStat> &stats, std::string &out,
                     EventFacts &facts) const;
    // Plane-level stats as a JSON object, and the numeric/text value of one by name.
    std::string planeStatsJson(XPlaneTokenizer &reader, const XPlaneHeader &plane) const;
    std::optional<int64_t> planeInt(XPlaneTokenizer &reader, const XPlaneHeader &plane, std::string_view name) const;
    std::optional<std::string> planeText(XPlaneTokenizer &reader, const XPlaneHeader &plane,
                                         std::string_view name) const;

private:
    void appendStat(const xplane_wire::XStat &stat, std::string &out, EventFacts &facts) const;
    static std::optional<int64_t> integerOf(const xplane_wire::XStat &stat);
    std::optional<int> allocatorGpu(const xplane_wire::XStat &stat) const;

    std::unordered_map<int64_t, std::string> m_statNames;
    std::unordered_map<int64_t, StatRole> m_roles;
    std::unordered_map<int64_t, EventMeta> m_events;
};

} // namespace stepscope
