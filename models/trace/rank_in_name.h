#pragma once
// Where a trace that does not say its rank (no Kineto distributedInfo) still belongs to a job: the
// rank written in its file name ("rank-3", "rank3", "rank_3", "worker.rank12.pt.trace.json"), and
// for XPlane the host files of one profile run (plugins/profile/<run>/<host>.xplane.pb), each host
// a rank in host-name order. Used by the Chrome and XPlane importers to fill run.rank, and by the
// job analysis to name the rank of a trace that could not be read.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string_view>

namespace stepscope {

// The number after "rank" (any case; one optional '-' or '_' between), when "rank" does not
// continue a longer word ("pagerank7" is no rank).
std::optional<int64_t> rankInName(std::string_view name);

// The rank of one XPlane host file: rankInName of its host name, else its place among the
// *.xplane.pb files of its folder when there are at least two (a multi-host capture).
std::optional<int64_t> xplaneHostRank(const std::filesystem::path &file);

} // namespace stepscope
