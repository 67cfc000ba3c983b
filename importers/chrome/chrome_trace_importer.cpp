#include "importers/chrome/chrome_trace_importer.h"

#include "importers/common/trace_event_buffer.h"
#include "importers/chrome/chrome_trace_tokenizer.h"
#include "importers/common/trace_event_writer.h"
#include "importers/common/json_scan.h"
#include "importers/common/byte_prefetcher.h"
#include "importers/common/byte_source.h"
#include "importers/common/importer_registry.h"
#include "importers/common/string_interner.h"

namespace stepscope {
namespace {

std::string runNameFor(const std::filesystem::path &file) {
    std::string name = file.filename().string();
    for (const char *suffix : {".gz", ".json", ".trace", ".pt"})
        if (name.size() > std::string_view(suffix).size() && name.ends_with(suffix))
            name.resize(name.size() - std::string_view(suffix).size());
    return name;
}

// Share of the progress bar given to reading and parsing; nesting and writing get the rest. Measured
// on a 1 M-event trace: reading and parsing take about a quarter of the import (half made the time
// left shown too short by half while the rows were being written).
constexpr double kParseShare = 0.3;

bool contains(std::string_view head, std::string_view what) { return head.find(what) != std::string_view::npos; }

// How far the sniffer walks a top-level object for a "traceEvents" key (decompressed bytes).
constexpr int64_t kDeepSniffBytes = int64_t(1) << 30;

// A top-level object whose "traceEvents" comes after keys too long for the head (a metadata block
// first): streams the file's top-level keys — strings, nesting and escapes tracked, values skipped,
// nothing kept — until "traceEvents": [ (true), the object's end, malformed text or the cap (false).
bool traceEventsKeyAhead(const std::filesystem::path &file) {
    ByteSource source(file);
    std::vector<char> chunk;
    int depth = 0;
    bool inString = false, escape = false, keyString = false, expectKey = false, afterKey = false, wantArray = false;
    std::string key;
    int64_t seen = 0;
    while (source.read(chunk, 1 << 20) && !chunk.empty()) {
        for (const char c : chunk) {
            if (inString) {
                if (escape) escape = false;
                else if (c == '\\') escape = true;
                else if (c == '"') {
                    inString = false;
                    afterKey = keyString;
                } else if (keyString && key.size() < 32) key += c;
                continue;
            }
            if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
            if (wantArray) return c == '[';
            if (c == '"') {
                inString = true;
                keyString = depth == 1 && expectKey;
                if (keyString) key.clear();
                expectKey = false;
            } else if (c == ':' && depth == 1 && afterKey) {
                if (key == "traceEvents") wantArray = true;
                afterKey = false;
            } else if (c == '{' || c == '[') {
                if (++depth == 1) expectKey = c == '{';
                if (depth == 1 && c != '{') return false;
            } else if (c == '}' || c == ']') {
                if (--depth <= 0) return false;  // the top-level object ended without traceEvents
            } else if (c == ',' && depth == 1) {
                expectKey = true;
            }
        }
        seen += int64_t(chunk.size());
        if (seen > kDeepSniffBytes) return false;
    }
    return false;
}

} // namespace

bool ChromeTraceImporter::sniff(const std::filesystem::path &file, std::string_view head) const {
    if (head.starts_with("\xEF\xBB\xBF"))
        head.remove_prefix(3);
    const char *p = json::skipSpace(head.data(), head.data() + head.size());
    const char *end = head.data() + head.size();
    if (p == end)
        return false;
    if (*p == '{') {
        if (contains(head, "\"rocprofiler-sdk-tool\"") || (contains(head, "\"schema\"") && contains(head, "\"nodes\"")))
            return false;  // rocprofv3 JSON, PyTorch execution trace: not timelines
        // Kineto may write kilobytes of deviceProperties and site keys before "traceEvents".
        if (contains(head, "\"traceEvents\"") || contains(head, "\"deviceProperties\"") || contains(head, "\"distributedInfo\""))
            return true;
        // Another key first (a metadata block of any size, as TraceLens writes): walk the file's
        // top-level keys for traceEvents. A head shorter than the sniff size is the whole file.
        return head.size() >= ImporterRegistry::kSniffBytes && traceEventsKeyAhead(file);
    }
    if (*p == '[') {
        p = json::skipSpace(p + 1, end);
        return p < end && *p == '{' && contains(head, "\"ph\"");
    }
    return false;
}

ImportResult ChromeTraceImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    ImportResult result;
    ByteSource source(file);
    if (!source.ok()) {
        result.status = SourceStatus::Failed;
        result.message = source.error();
        ctx.error(source.errorCode(), "", result.message);
        return result;
    }
    StringInterner strings;
    TraceEventBuffer buffer(strings);
    ChromeTraceTokenizer tokenizer;
    TraceEvent event;
    std::vector<char> chunk;
    int64_t events = 0;
    bool cancelled = false;
    {
        BytePrefetcher prefetcher(source);
        while (true) {
            const auto status = tokenizer.next(event);
            if (status == ChromeTraceTokenizer::Status::Event) {
                buffer.add(event);
                // A first picture (ctx.eventLimit()): the prefix is written as if the file ended
                // here; nothing is reported as wrong with it.
                if (++events == ctx.eventLimit())
                    break;
                continue;
            }
            if (status != ChromeTraceTokenizer::Status::NeedData)
                break;
            if (ctx.cancelled()) {
                cancelled = true;
                break;
            }
            if (prefetcher.next(chunk)) {
                tokenizer.feed(chunk.data(), chunk.size());
                ctx.progress(int64_t(double(prefetcher.compressedOffset()) * kParseShare), source.fileSize());
            } else {
                tokenizer.finish();
            }
        }
    }  // joins the reader thread: source's error and offsets are settled from here on
    if (cancelled) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": import cancelled";
        return result;
    }

    std::string readError;
    if (!source.ok())
        readError = source.error();
    if (!tokenizer.error().empty()) {
        std::string json = file.string() + ": malformed JSON at byte " + std::to_string(tokenizer.errorOffset()) +
                           (source.isGzip() ? " of the decompressed data" : "") + ": " + tokenizer.error();
        // A cut-short gzip makes the JSON end early too; the gzip message is the cause.
        readError = readError.empty() ? json : readError + "; " + json;
        ctx.error(source.ok() ? ImportLogCode::MalformedJson : source.errorCode(),
                  "byte " + std::to_string(tokenizer.errorOffset()) +
                      (source.isGzip() ? " (compressed byte " + std::to_string(source.compressedOffset()) + ")" : ""),
                  readError);
    } else if (!readError.empty()) {
        ctx.error(source.errorCode(), "compressed byte " + std::to_string(source.compressedOffset()), readError);
    }
    bool trailingUnread = false;
    if (tokenizer.trailingOffset() >= 0) {
        trailingUnread = true;
        // Kept as read: the trace is complete; what follows it is reported, not guessed at.
        const std::string of = source.isGzip() ? " of the decompressed data" : "";
        ctx.warn(ImportLogCode::TrailingData, "byte " + std::to_string(tokenizer.trailingOffset()),
                 tokenizer.trailingIsValue()
                     ? "a second JSON value follows the trace at byte " + std::to_string(tokenizer.trailingOffset()) + of +
                           " (files concatenated?): it is not read; the events of the first are kept"
                     : "unexpected bytes after the end of the trace at byte " + std::to_string(tokenizer.trailingOffset()) +
                           of + ": ignored; the events before them are kept");
    }
    if (tokenizer.missingClosingBracket())
        ctx.info(ImportLogCode::MissingBracket, "byte " + std::to_string(tokenizer.bytesConsumed()),
                 "trace array has no closing ']' (allowed by the trace-event format)");
    const TraceHeader &header = tokenizer.header();
    if (header.objectForm && !header.sawTraceEvents && events == 0 && readError.empty()) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": a JSON object without \"traceEvents\": not a Chrome trace";
        ctx.error(ImportLogCode::NotThisFormat, "", result.message);
        return result;
    }

    buffer.finish();
    TraceEventWriter writer(ctx, buffer, header, runNameFor(file));
    const int64_t total = source.fileSize();
    writer.setProgress([&](double fraction) {
        ctx.progress(int64_t(double(total) * (kParseShare + (1.0 - kParseShare) * fraction)), total);
    });
    if (!writer.write()) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": import cancelled";
        return result;
    }
    ctx.progress(source.fileSize(), source.fileSize());
    result.events = writer.slicesWritten() + writer.countersWritten();
    if (!readError.empty()) {
        result.status = events > 0 ? SourceStatus::Partial : SourceStatus::Failed;
        result.message = readError;
    } else if (writer.eventsDropped() > 0 || trailingUnread) {
        // What could not be read is lost, as with a cut-short file: the source is partial (exit 3).
        result.status = SourceStatus::Partial;
        result.message = file.string() + ": partly read: " +
                         (writer.eventsDropped() > 0 ? std::to_string(writer.eventsDropped()) + " events skipped"
                                                     : std::string("bytes after the trace not read")) +
                         " (see the import log)";
    }
    return result;
}

} // namespace stepscope
