#include "importers/tfevents/tfevents_importer.h"

#include "importers/tfevents/tfevent_parser.h"
#include "importers/tfevents/tfrecord_tokenizer.h"

#include <cmath>
#include <unordered_map>

namespace stepscope {
namespace {

std::string recordPosition(const TfRecordTokenizer &r) {
    return "record " + std::to_string(r.recordIndex()) + " (byte " + std::to_string(r.recordOffset()) + ")";
}

} // namespace

std::string TfEventsImporter::runNameFor(const std::filesystem::path &file) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(file, ec).lexically_normal();
    const std::string folder = (ec ? file : abs).parent_path().filename().string();
    return folder.empty() ? file.filename().string() : folder;
}

bool TfEventsImporter::sniff(const std::filesystem::path &, std::string_view head) const {
    // A record whose length CRC verifies, holding an Event that starts with wall_time (field 1, fixed64).
    return TfRecordTokenizer::looksLikeRecord(head) && head.size() > 12 && uint8_t(head[12]) == 0x09;
}

ImportResult TfEventsImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    ImportResult result;
    TfRecordTokenizer reader(file);
    TfEventParser decoder;
    TfEvent event;
    const std::string run = runNameFor(file);
    std::unordered_map<std::string, int64_t> series;
    int64_t records = 0, badRecords = 0, badEvents = 0, skippedValues = 0, nonFinite = 0;
    TfRecordTokenizer::Status status = TfRecordTokenizer::Status::End;
    while (true) {
        status = reader.next();
        if (status == TfRecordTokenizer::Status::End || status == TfRecordTokenizer::Status::Error)
            break;
        if ((reader.recordIndex() & 0x3FF) == 0) {
            if (ctx.cancelled()) {
                result.status = SourceStatus::Failed;
                result.message = file.string() + ": import cancelled";
                return result;
            }
            ctx.progress(reader.recordOffset(), reader.fileSize());
        }
        if (status == TfRecordTokenizer::Status::BadRecord) {
            ++badRecords;
            ctx.warn(ImportLogCode::MalformedRecord, recordPosition(reader), reader.message());
            continue;
        }
        ++records;
        if (!decoder.decode(reader.payload(), event)) {
            ++badEvents;
            ctx.warn(ImportLogCode::MalformedRecord, recordPosition(reader), decoder.error() + "; record skipped");
            continue;
        }
        skippedValues += event.skippedValues;
        if (event.scalars.empty())
            continue;
        if (!std::isfinite(event.wallTime) || std::fabs(event.wallTime) > 9.2e9) {
            ctx.warn(ImportLogCode::TimeOutOfRange, recordPosition(reader), "wall_time out of range; record's scalars skipped");
            continue;
        }
        // Whole seconds and the (exactly computed) fraction apart: wall_time * 1e9 in a double would
        // round to 256 ns at today's epoch.
        const double seconds = std::floor(event.wallTime);
        const int64_t tNs = int64_t(seconds) * 1'000'000'000 + std::llround((event.wallTime - seconds) * 1e9);
        for (const TfScalar &s : event.scalars) {
            if (!std::isfinite(s.value)) {
                ++nonFinite;  // NaN / inf: no sample (a missing value is no row, never a zero)
                continue;
            }
            auto it = series.find(s.tag);
            if (it == series.end())
                it = series.emplace(s.tag, ctx.writer().addMetricSeries(ctx.sourceId(), run, s.tag, std::nullopt, "", 0)).first;
            ctx.writer().addMetricSample(it->second, tNs, s.value);
            ++result.events;
        }
    }
    if (reader.truncated())
        ctx.info(ImportLogCode::TruncatedRecord, "byte " + std::to_string(reader.recordOffset()), reader.message() + " (file still being written?)");
    if (skippedValues > 0)
        ctx.info(ImportLogCode::NotImported, "", std::to_string(skippedValues) + " summary values are not scalars (histograms, images, text, "
                                                     "custom_scalars, …); not imported");
    if (nonFinite > 0)
        ctx.info(ImportLogCode::BadValue, "", std::to_string(nonFinite) + " scalar values are NaN or infinite; no sample for them");
    const bool readError = status == TfRecordTokenizer::Status::Error;
    if (readError) {
        result.message = file.string() + ": " + reader.message();
        ctx.error(ImportLogCode::MalformedRecord, "byte " + std::to_string(reader.recordOffset()), result.message);
    }
    if (records == 0 && !readError && badRecords == 0) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": no TFRecord in it";
        ctx.error(ImportLogCode::EmptyFile, "byte 0", result.message);
        return result;
    }
    if (readError || badRecords > 0 || badEvents > 0) {
        result.status = records > 0 ? SourceStatus::Partial : SourceStatus::Failed;
        if (result.message.empty())
            result.message = file.string() + ": " + std::to_string(badRecords + badEvents) + " bad records skipped";
    }
    return result;
}

} // namespace stepscope
