#pragma once
// ClockOffset handles `import --offset SOURCE=±DURATION`: parses the option text (duration syntax
// from DurationText) and finds the session source it names — the exact stored path, the same
// file given by a relative path, a path suffix ("profile/x.json"), or the bare file name. Used by
// runImport; tests call it directly.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stepscope::cli {

struct OffsetSpec {
    std::string source;  // as the user typed it
    int64_t offsetNs = 0;
};

class ClockOffset {
public:
    // "nvidia-smi.csv=+1.5s" → {"nvidia-smi.csv", 1500000000}; nullopt + error on bad syntax.
    static std::optional<OffsetSpec> parse(const std::string &text, std::string &error);
    // The stored source paths `source` names (several when a bare file name is ambiguous).
    static std::vector<std::string> match(const std::vector<std::string> &sourcePaths, const std::string &source);
};

} // namespace stepscope::cli
