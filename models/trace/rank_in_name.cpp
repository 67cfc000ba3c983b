#include "models/trace/rank_in_name.h"

#include "models/text/ascii_case.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

namespace stepscope {

std::optional<int64_t> rankInName(std::string_view name) {
    const auto lower = [](char c) { return asciiLower(c); };
    for (size_t at = 0; at + 4 <= name.size(); ++at) {
        if (lower(name[at]) != 'r' || lower(name[at + 1]) != 'a' || lower(name[at + 2]) != 'n' || lower(name[at + 3]) != 'k')
            continue;
        if (at > 0 && std::isalpha(static_cast<unsigned char>(name[at - 1])))
            continue;
        size_t p = at + 4;
        if (p < name.size() && (name[p] == '-' || name[p] == '_'))
            ++p;
        size_t q = p;
        int64_t value = 0;
        while (q < name.size() && q - p < 9 && std::isdigit(static_cast<unsigned char>(name[q])))
            value = value * 10 + (name[q++] - '0');
        if (q > p && (q == name.size() || !std::isdigit(static_cast<unsigned char>(name[q]))))
            return value;
    }
    return std::nullopt;
}

std::optional<int64_t> xplaneHostRank(const std::filesystem::path &file) {
    static constexpr std::string_view kSuffix = ".xplane.pb";
    const std::string name = file.filename().string();
    if (const auto r = rankInName(name))
        return r;
    std::vector<std::string> hosts;
    std::error_code ec;
    for (std::filesystem::directory_iterator it(file.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
        const std::string n = it->path().filename().string();
        if (n.size() > kSuffix.size() && n.ends_with(kSuffix))
            hosts.push_back(n);
        if (hosts.size() > 100'000)
            return std::nullopt;
    }
    if (hosts.size() < 2)
        return std::nullopt;
    std::sort(hosts.begin(), hosts.end());
    const auto it = std::find(hosts.begin(), hosts.end(), name);
    return it == hosts.end() ? std::nullopt : std::optional<int64_t>(it - hosts.begin());
}

} // namespace stepscope
