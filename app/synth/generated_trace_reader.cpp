#include "app/synth/generated_trace_reader.h"

#include <charconv>
#include <stdexcept>
#include <string>

#include <zlib.h>

namespace stepscope::synth {

int64_t parseInt(std::string_view t) {
    int64_t v = 0;
    std::from_chars(t.data(), t.data() + t.size(), v);
    return v;
}

int64_t parseMicros(std::string_view t) {
    const size_t dot = t.find('.');
    int64_t ns = parseInt(t.substr(0, dot)) * 1000;
    if (dot != std::string_view::npos) {
        int64_t frac = 0, scale = 100;
        for (size_t i = dot + 1; i < t.size() && scale > 0; ++i, scale /= 10)
            frac += (t[i] - '0') * scale;
        ns += frac;
    }
    return ns;
}

bool parseTraceLine(std::string_view text, TraceLine &out) {
    if (!text.starts_with("{\"ph\":\""))
        return false;
    out = TraceLine();
    out.ph = text[7];
    FlatJson json(text);
    std::string_view key;
    JsonValue v;
    while (json.next(key, v)) {
        if (json.lastWasObject()) {
            out.args = v.text;
            continue;
        }
        if (key == "name") out.name = v.text;
        else if (key == "cat") out.cat = v.text;
        else if (key == "pid") { out.numericPid = !v.isString; out.pid = out.numericPid ? parseInt(v.text) : -1; }
        else if (key == "tid") out.tid = v.isString ? 0 : parseInt(v.text);
        else if (key == "ts") out.ts = parseMicros(v.text);
        else if (key == "dur") out.dur = parseMicros(v.text);
    }
    if (out.ph == 'M' && out.name == "thread_name") {
        FlatJson a(out.args);
        while (a.next(key, v))
            if (key == "name") out.threadName = v.text;
    }
    return true;
}

void gzipReadLines(const std::filesystem::path &path, const std::function<void(std::string_view)> &onLine) {
    gzFile f = gzopen(path.string().c_str(), "rb");
    if (!f)
        throw std::runtime_error("cannot read " + path.string());
    std::string buf, line;
    buf.resize(1 << 20);
    int n = 0;
    while ((n = gzread(f, buf.data(), static_cast<unsigned>(buf.size()))) > 0) {
        size_t start = 0;
        for (size_t i = 0; i < size_t(n); ++i) {
            if (buf[i] != '\n')
                continue;
            line.append(buf, start, i - start);
            onLine(std::string_view(line));
            line.clear();
            start = i + 1;
        }
        line.append(buf, start, size_t(n) - start);
    }
    const bool failed = n < 0;
    gzclose(f);
    if (failed)
        throw std::runtime_error("cannot decompress " + path.string());
    if (!line.empty())
        onLine(std::string_view(line));
}

} // namespace stepscope::synth
