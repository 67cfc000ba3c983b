#include "app/cli/clock_offset.h"

#include "models/text/duration_text.h"

#include <filesystem>

namespace stepscope::cli {

namespace fs = std::filesystem;

std::optional<OffsetSpec> ClockOffset::parse(const std::string &text, std::string &error) {
    const auto eq = text.rfind('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
        error = "--offset '" + text + "': expected SOURCE=±DURATION (e.g. nvidia-smi.csv=+1.5s)";
        return std::nullopt;
    }
    std::string why;
    const auto ns = DurationText::parse(text.substr(eq + 1), &why);
    if (!ns) {
        error = "--offset " + why;
        return std::nullopt;
    }
    // Session times are int64 ns on the Unix-epoch axis (~1.8e18 today): an offset beyond a century
    // would overflow them, and no clock is that far off.
    constexpr int64_t kMaxOffsetNs = 100LL * 365 * 86'400 * 1'000'000'000;
    if (*ns > kMaxOffsetNs || *ns < -kMaxOffsetNs) {
        error = "--offset '" + text + "': " + DurationText::format(*ns) + " is beyond ±100 years; no clock is that far off";
        return std::nullopt;
    }
    return OffsetSpec{text.substr(0, eq), *ns};
}

std::vector<std::string> ClockOffset::match(const std::vector<std::string> &sourcePaths, const std::string &source) {
    // Most specific first: exact path, then the same file by absolute path, then a suffix match on
    // whole path components, then the file name.
    std::error_code ec;
    const std::string abs = fs::absolute(source, ec).lexically_normal().string();
    for (const std::string &p : sourcePaths)
        if (p == source || (!ec && p == abs)) return {p};
    std::vector<std::string> out;
    const std::string suffix = "/" + fs::path(source).lexically_normal().generic_string();
    for (const std::string &p : sourcePaths) {
        const std::string g = fs::path(p).generic_string();
        if (g.size() >= suffix.size() && g.compare(g.size() - suffix.size(), suffix.size(), suffix) == 0) out.push_back(p);
    }
    return out;
}

} // namespace stepscope::cli
