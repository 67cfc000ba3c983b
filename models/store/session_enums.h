#pragma once
// The kinds the session's rows carry — a source's import status, a track's kind, an import_log
// row's severity — as enums on both sides of the store, with the text the session stores for each
// (the schema's CHECK values, what users query) and back: a stored text no value has reads as
// TrackKind::Other / Severity::Error.

#include <string_view>

namespace stepscope {

enum class SourceStatus { Ok, Partial, Failed };
enum class TrackKind { HostThread, GpuStream, Counter, Other };
enum class Severity { Info, Warning, Error };

std::string_view trackKindName(TrackKind kind);
TrackKind trackKindFromName(std::string_view name);
std::string_view severityName(Severity severity);
Severity severityFromName(std::string_view name);

} // namespace stepscope
