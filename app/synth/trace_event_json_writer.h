#pragma once
// TraceEventJsonWriter: owns the JSON text of a trace while it is being written - formatting of events,
// commas, microsecond time stamps with nanosecond digits - and hands full chunks to a GzipFileWriter.
// The step simulator calls it once per event; without a sink it only counts (used to size a run).
//
// Usage: w.begin('X', "kernel", name, pid, tid, tsNs).dur(ns).arg("device", 0).end();
// String values (names, categories, string args) are escaped by appendJsonString, the one JSON
// string writer; keys must be JSON-safe already (the generator's own constants).

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace stepscope::synth {

class GzipFileWriter;

class TraceEventJsonWriter {
public:
    explicit TraceEventJsonWriter(GzipFileWriter *sink);

    // Text outside traceEvents (the document head and tail); not counted as events.
    void raw(std::string_view text);
    // Opens an event; pid/tid given as numbers or, with the string overload, as JSON strings. An empty
    // cat is left out (metadata events have none).
    TraceEventJsonWriter &begin(char ph, std::string_view cat, std::string_view name, int64_t pid, int64_t tid,
                             int64_t tsNs);
    TraceEventJsonWriter &begin(char ph, std::string_view cat, std::string_view name, std::string_view pid,
                             std::string_view tid, int64_t tsNs);
    TraceEventJsonWriter &dur(int64_t ns);
    TraceEventJsonWriter &field(std::string_view key, int64_t value);
    TraceEventJsonWriter &field(std::string_view key, std::string_view value);
    TraceEventJsonWriter &arg(std::string_view key, int64_t value);
    TraceEventJsonWriter &arg(std::string_view key, std::string_view value);
    // value / 1000 written with three decimals (e.g. a bandwidth in GB/s from MB/s).
    TraceEventJsonWriter &argMilli(std::string_view key, int64_t thousandths);
    TraceEventJsonWriter &arg(std::string_view key, const std::array<int, 3> &dims);
    // Args members given as JSON text, without braces ("\"Input Dims\": [[1, 2]], ...").
    TraceEventJsonWriter &rawArgs(std::string_view members);
    void end();
    // Hands the rest of the buffer to the sink; called before the sink finishes.
    void flush();

    int64_t events() const { return events_; }
    int64_t bytes() const { return bytes_ + static_cast<int64_t>(buf_.size()); }

    // "1234.567" for 1234567 ns: microseconds with nanosecond resolution, no floating point.
    static void appendMicros(std::string &out, int64_t ns);

private:
    void appendInt(int64_t v);
    void appendKey(std::string_view key);
    void appendCatAndName(std::string_view cat, std::string_view name);
    void openArgs();

    GzipFileWriter *sink_;
    std::string buf_;
    int64_t events_ = 0;
    int64_t bytes_ = 0;
    bool firstEvent_ = true;
    bool argsOpen_ = false;
    bool firstArg_ = true;
};

} // namespace stepscope::synth
