#include "app/cli/argument_list.h"

#include <cctype>
#include <charconv>
#include <iterator>

namespace stepscope::cli {

ArgumentList::ArgumentList(const std::vector<std::string> &args, const std::set<std::string> &valueOptions,
                           const std::set<std::string> &flagOptions) {
    bool optionsEnded = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &a = args[i];
        if (!optionsEnded && a == "--") {  // everything after "--" is positional (e.g. SQL starting with "--")
            optionsEnded = true;
            continue;
        }
        if (!optionsEnded && a.size() > 1 && a[0] == '-' && !(a.size() > 1 && (std::isdigit(static_cast<unsigned char>(a[1])) != 0))) {
            std::string name = a, val;
            const auto eq = a.find('=');
            const bool hasEq = eq != std::string::npos && a.rfind("--", 0) == 0;
            if (hasEq) { name = a.substr(0, eq); val = a.substr(eq + 1); }
            if (valueOptions.count(name)) {
                if (!hasEq) {
                    if (i + 1 >= args.size()) { m_error = "option " + name + " needs a value"; return; }
                    val = args[++i];
                }
                if (val.empty()) { m_error = "option " + name + " needs a value, got an empty one"; return; }
                m_values.emplace(name, val);
            } else if (flagOptions.count(name) && !hasEq) {
                m_flags.insert(name);
            } else {
                m_error = "unknown option " + name;
                return;
            }
        } else {
            m_positional.push_back(a);
        }
    }
}

std::optional<std::string> ArgumentList::value(const std::string &name) const {
    auto range = m_values.equal_range(name);
    if (range.first == range.second) return std::nullopt;
    return std::prev(range.second)->second;  // last one wins
}

std::vector<std::string> ArgumentList::values(const std::string &name) const {
    std::vector<std::string> out;
    for (auto [it, end] = m_values.equal_range(name); it != end; ++it) out.push_back(it->second);
    return out;
}

std::optional<int64_t> parseInteger(const std::string &text, int64_t min, int64_t max) {
    int64_t v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || v < min || v > max) return std::nullopt;
    return v;
}

bool parseStepRange(const std::string &text, int64_t &first, int64_t &last) {
    const auto dash = text.find('-', 1);
    const std::string a = text.substr(0, dash);
    const std::string b = dash == std::string::npos ? a : text.substr(dash + 1);
    auto parse = [](const std::string &s, int64_t &v) {
        const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
        return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
    };
    return parse(a, first) && parse(b, last) && first <= last;
}

} // namespace stepscope::cli
