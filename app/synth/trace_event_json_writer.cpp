#include "app/synth/trace_event_json_writer.h"

#include "app/synth/gzip_file_writer.h"
#include "models/text/json_string.h"

#include <charconv>

namespace stepscope::synth {

namespace {
constexpr size_t kChunk = 1 << 20;
}

TraceEventJsonWriter::TraceEventJsonWriter(GzipFileWriter *sink) : sink_(sink) {
    buf_.reserve(kChunk + (64 << 10));
}

void TraceEventJsonWriter::raw(std::string_view text) {
    buf_.append(text);
}

void TraceEventJsonWriter::appendInt(int64_t v) {
    char tmp[24];
    auto res = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, res.ptr);
}

void TraceEventJsonWriter::appendMicros(std::string &out, int64_t ns) {
    if (ns < 0) {
        out.push_back('-');
        ns = -ns;
    }
    char tmp[32];
    auto res = std::to_chars(tmp, tmp + 24, ns / 1000);
    char *p = res.ptr;
    const int frac = static_cast<int>(ns % 1000);
    *p++ = '.';
    *p++ = static_cast<char>('0' + frac / 100);
    *p++ = static_cast<char>('0' + frac / 10 % 10);
    *p++ = static_cast<char>('0' + frac % 10);
    out.append(tmp, p);
}

void TraceEventJsonWriter::appendCatAndName(std::string_view cat, std::string_view name) {
    if (!cat.empty()) {
        buf_.append(",\"cat\":");
        appendJsonString(buf_, cat);
    }
    buf_.append(",\"name\":");
    appendJsonString(buf_, name);
}

void TraceEventJsonWriter::appendKey(std::string_view key) {
    buf_.append(",\"");
    buf_.append(key);
    buf_.append("\":");
}

TraceEventJsonWriter &TraceEventJsonWriter::begin(char ph, std::string_view cat, std::string_view name, int64_t pid,
                                            int64_t tid, int64_t tsNs) {
    buf_.append(firstEvent_ ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
    firstEvent_ = false;
    buf_.push_back(ph);
    buf_.push_back('"');
    appendCatAndName(cat, name);
    buf_.append(",\"pid\":");
    appendInt(pid);
    buf_.append(",\"tid\":");
    appendInt(tid);
    buf_.append(",\"ts\":");
    appendMicros(buf_, tsNs);
    argsOpen_ = false;
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::begin(char ph, std::string_view cat, std::string_view name, std::string_view pid,
                                            std::string_view tid, int64_t tsNs) {
    buf_.append(firstEvent_ ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
    firstEvent_ = false;
    buf_.push_back(ph);
    buf_.push_back('"');
    appendCatAndName(cat, name);
    buf_.append(",\"pid\":");
    appendJsonString(buf_, pid);
    buf_.append(",\"tid\":");
    appendJsonString(buf_, tid);
    buf_.append(",\"ts\":");
    appendMicros(buf_, tsNs);
    argsOpen_ = false;
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::dur(int64_t ns) {
    buf_.append(",\"dur\":");
    appendMicros(buf_, ns);
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::field(std::string_view key, int64_t value) {
    appendKey(key);
    appendInt(value);
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::field(std::string_view key, std::string_view value) {
    appendKey(key);
    appendJsonString(buf_, value);
    return *this;
}

void TraceEventJsonWriter::openArgs() {
    if (!argsOpen_) {
        buf_.append(",\"args\":{\"");
        argsOpen_ = true;
    } else {
        buf_.append(",\"");
    }
}

TraceEventJsonWriter &TraceEventJsonWriter::arg(std::string_view key, int64_t value) {
    openArgs();
    buf_.append(key);
    buf_.append("\":");
    appendInt(value);
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::arg(std::string_view key, std::string_view value) {
    openArgs();
    buf_.append(key);
    buf_.append("\":");
    appendJsonString(buf_, value);
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::argMilli(std::string_view key, int64_t thousandths) {
    openArgs();
    buf_.append(key);
    buf_.append("\":");
    appendMicros(buf_, thousandths);
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::arg(std::string_view key, const std::array<int, 3> &dims) {
    openArgs();
    buf_.append(key);
    buf_.append("\":[");
    appendInt(dims[0]);
    buf_.push_back(',');
    appendInt(dims[1]);
    buf_.push_back(',');
    appendInt(dims[2]);
    buf_.push_back(']');
    return *this;
}

TraceEventJsonWriter &TraceEventJsonWriter::rawArgs(std::string_view members) {
    if (members.size() < 2 || members.front() != '"') return *this;
    openArgs();  // it has written the first member's opening quote
    buf_.append(members.substr(1));
    return *this;
}

void TraceEventJsonWriter::end() {
    buf_.append(argsOpen_ ? "}}" : "}");
    argsOpen_ = false;
    ++events_;
    if (buf_.size() >= kChunk)
        flush();
}

void TraceEventJsonWriter::flush() {
    bytes_ += static_cast<int64_t>(buf_.size());
    if (sink_)
        sink_->write(buf_);
    buf_.clear();
}

} // namespace stepscope::synth
