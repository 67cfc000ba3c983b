#pragma once
// Reading back the generator's own Kineto-style trace (.json.gz, one event per line, names without
// escapes), for the converters that write the same training loop in other formats (XPlane,
// Nsight Systems SQLite): FlatJson walks one line's fields, gzipReadLines feeds the lines.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string_view>

namespace stepscope::synth {

struct JsonValue {
    std::string_view text;  // string contents (no quotes) or raw number / array text
    bool isString = false;
};

// One field of the generator's flat JSON: "key":value, where value is a string, number, array or
// (for args) an object whose members are returned through `members`.
class FlatJson {
public:
    explicit FlatJson(std::string_view s) : s_(s) {}
    bool next(std::string_view &key, JsonValue &value) {
        while (p_ < s_.size() && s_[p_] != '"')
            ++p_;
        if (p_ >= s_.size())
            return false;
        const size_t k = ++p_;
        p_ = s_.find('"', k);
        if (p_ == std::string_view::npos)
            return false;
        key = s_.substr(k, p_ - k);
        p_ += 2;  // closing quote and colon
        if (p_ >= s_.size())
            return false;
        if (s_[p_] == '"') {
            const size_t v = ++p_;
            p_ = s_.find('"', v);
            value = {s_.substr(v, p_ - v), true};
            ++p_;
        } else if (s_[p_] == '{') {
            size_t close = s_.find('}', p_);  // args hold no nested objects
            if (close == std::string_view::npos)
                close = s_.size();
            value = {s_.substr(p_ + 1, close - p_ - 1), false};
            p_ = close + 1;
            isObject_ = true;
        } else {
            const size_t v = p_;
            if (s_[p_] == '[')
                p_ = s_.find(']', p_) + 1;
            else
                while (p_ < s_.size() && s_[p_] != ',' && s_[p_] != '}')
                    ++p_;
            value = {s_.substr(v, p_ - v), false};
        }
        return true;
    }
    bool lastWasObject() {
        const bool o = isObject_;
        isObject_ = false;
        return o;
    }

private:
    std::string_view s_;
    size_t p_ = 0;
    bool isObject_ = false;
};

// One event line of the generator's trace: the fields the converters use (views into the line).
struct TraceLine {
    char ph = 0;
    std::string_view name, cat, args;  // args: the object's members, without braces
    int64_t pid = -1, tid = 0, ts = 0, dur = 0;  // ts, dur in ns
    bool numericPid = true;
    std::string_view threadName;  // of a "thread_name" metadata event
};
// False for the document's head and tail (lines that are not an event).
bool parseTraceLine(std::string_view text, TraceLine &out);

int64_t parseInt(std::string_view t);
// "1234.567" µs → 1234567 ns, exactly (the generator always writes three decimals).
int64_t parseMicros(std::string_view t);
// Calls onLine for each line of the gzip file; throws std::runtime_error naming it.
void gzipReadLines(const std::filesystem::path &path, const std::function<void(std::string_view)> &onLine);

} // namespace stepscope::synth
