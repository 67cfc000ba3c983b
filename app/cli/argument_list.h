#pragma once
// ArgumentList: the small option parser the commands share. Options take their value as the next
// argument or after '='; everything else is a positional PATH, and so is every argument after "--".
// An option given an empty value ("-o ''") is an error: it never means "the default".

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stepscope::cli {

class ArgumentList {
public:
    // valueOptions: options that take a value (e.g. "-o", "--format"); flagOptions take none.
    ArgumentList(const std::vector<std::string> &args, const std::set<std::string> &valueOptions,
                 const std::set<std::string> &flagOptions = {});

    bool ok() const { return m_error.empty(); }
    const std::string &error() const { return m_error; }
    const std::vector<std::string> &positional() const { return m_positional; }
    std::optional<std::string> value(const std::string &name) const;
    std::vector<std::string> values(const std::string &name) const;
    bool flag(const std::string &name) const { return m_flags.count(name) > 0; }

private:
    std::vector<std::string> m_positional;
    std::multimap<std::string, std::string> m_values;
    std::set<std::string> m_flags;
    std::string m_error;
};

// The whole of `text` as a decimal integer in [min, max] ("12abc", "3.7", "1e30" are not).
std::optional<int64_t> parseInteger(const std::string &text, int64_t min, int64_t max);

// "A-B" or "A" → inclusive range; false on bad syntax.
bool parseStepRange(const std::string &text, int64_t &first, int64_t &last);

} // namespace stepscope::cli
