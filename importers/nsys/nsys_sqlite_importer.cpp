#include "importers/nsys/nsys_sqlite_importer.h"

#include "importers/common/trace_event_buffer.h"
#include "importers/common/trace_event_writer.h"
#include "importers/common/string_interner.h"
#include "importers/nsys/nsys_gpu_metrics.h"
#include "importers/nsys/nsys_tokenizer.h"
#include "models/store/ns_range.h"
#include "models/store/session_connection.h"

#include <map>

namespace stepscope {
namespace {

// Share of the progress bar given to reading the tables; nesting and writing get the rest.
constexpr double kReadShare = 0.5;

std::string runNameFor(const std::filesystem::path &file) {
    std::string name = file.filename().string();
    for (const char *suffix : {".sqlite", ".db"})
        if (name.size() > std::string_view(suffix).size() && name.ends_with(suffix))
            name.resize(name.size() - std::string_view(suffix).size());
    return name;
}

std::string joined(const std::vector<std::string> &items) {
    std::string out;
    for (const std::string &s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

// The size of each GPU that ran work (TARGET_INFO_GPU.totalMemory) as a constant gpu_mem_total
// series over the trace, as the Chrome importer writes deviceProperties' totalGlobalMem.
void writeDeviceMemory(ImportContext &ctx, const std::string &run, const TraceHeader &header,
                       const NsysTokenizer &reader, const TraceEventBuffer &buffer) {
    if (!buffer.hasTimes())
        return;
    const int64_t base = header.baseTimeNs.value_or(0);
    for (const TraceDeviceProperty &d : header.devices) {
        if (!d.totalGlobalMem || !reader.devices().count(d.id))
            continue;
        const int64_t series = ctx.writer().addMetricSeries(ctx.sourceId(), run, "gpu_mem_total", d.id, "B", 0);
        ctx.writer().addMetricSample(series, buffer.minTs() + base, double(*d.totalGlobalMem));
        ctx.writer().addMetricSample(series, buffer.maxEnd() + base, double(*d.totalGlobalMem));
    }
}

} // namespace

bool NsysSqliteImporter::sniff(const std::filesystem::path &file, std::string_view head) const {
    if (!ForeignDatabase::looksLikeSqlite(head))
        return false;
    try {
        return NsysExport::isExport(ForeignDatabase::open(file, ForeignDatabase::Mode::ReadOnly));
    } catch (const StoreError &) {
        return true;  // an SQLite file that cannot be opened now (locked, damaged): import says why
    }
}

std::string NsysSqliteImporter::refusal(const std::filesystem::path &file, std::string_view head) const {
    const std::string name = file.filename().string();
    if (name.ends_with(".nsys-rep") || name.ends_with(".qdrep"))  // the name only words the hint
        return "an Nsight Systems report: Stepscope reads its SQLite export; make it with "
               "`nsys export --type sqlite " + name + "` and open the .sqlite file";
    if (!ForeignDatabase::looksLikeSqlite(head))
        return {};
    try {
        const ForeignDatabase db = ForeignDatabase::open(file, ForeignDatabase::Mode::ReadOnly);
        SqliteStatement st(db.db(), "PRAGMA application_id");
        if (st.step() && int32_t(st.columnInt(0)) == kStepscopeApplicationId)
            return "a Stepscope session file, not a profile: open it on its own";
    } catch (const StoreError &) {
    }
    return "an SQLite database that is not an Nsight Systems export (no StringIds table with "
           "CUPTI_ACTIVITY_KIND_* or NVTX_EVENTS tables)";
}

ImportResult NsysSqliteImporter::import(const std::filesystem::path &file, ImportContext &ctx) {
    ImportResult result;
    const auto fail = [&](ImportLogCode code, const std::string &message) {
        result.status = SourceStatus::Failed;
        result.message = message;
        ctx.error(code, "", message);
        return result;
    };
    std::unique_ptr<NsysExport> ex;
    try {
        ex = std::make_unique<NsysExport>(file);
        if (!ex->isExport())
            return fail(ImportLogCode::NotThisFormat, file.string() + ": " + refusal(file, std::string_view("SQLite format 3\0", 16)));
        ex->loadStrings();
    } catch (const StoreError &e) {
        return fail(ImportLogCode::CannotOpen, e.what());
    }
    const StepNameRules steps = StepNameRules::load();
    StringInterner strings;
    TraceEventBuffer buffer(strings, steps);
    int64_t total = 1;
    NsysTokenizer reader(*ex, buffer, steps, ctx, [&](int64_t done, int64_t estimate) {
        total = estimate;
        ctx.progress(int64_t(double(done) * kReadShare), estimate);
    });
    std::string readError;
    try {
        if (!reader.read()) {
            result.status = SourceStatus::Failed;
            result.message = file.string() + ": import cancelled";
            return result;
        }
    } catch (const StoreError &) {
        // Damaged pages part-way: what was read before them is kept and the source marked partial.
        readError = file.string() + ": unreadable part-way, " + ex->db().lastErrorReason() + "; the events read before it are kept";
        ctx.error(ImportLogCode::ReadError, "", readError);
    }
    TraceHeader header;
    std::optional<int64_t> epoch;
    bool partial = false;  // rows were skipped or a table the others need is absent
    try {
        epoch = ex->sessionStartEpochNs();
        if (epoch && !timeInRange(*epoch)) {  // beyond ±2^62 ns, ±146 years
            ctx.warn(ImportLogCode::TimeBaseOutOfRange, "TARGET_INFO_SESSION_START_TIME", "capture start time " + std::to_string(*epoch) +
                                                           " ns is out of range: ignored, times are relative to the capture");
            epoch.reset();
        }
        header.baseTimeNs = epoch;
        for (const NsysGpu &g : ex->gpus())
            header.devices.push_back({g.id, g.name, g.totalMemory});
        header.hostName = ex->hostName();
        if (const std::string version = ex->productVersion(); !version.empty())
            ctx.info(ImportLogCode::FormatVersion, "", "Nsight Systems " + version + " export");
    } catch (const StoreError &) {
        if (readError.empty())
            readError = file.string() + ": " + ex->db().lastErrorReason();
        ctx.error(ImportLogCode::ReadError, "", readError);
    }
    header.framework = std::string();  // nsys does not say which framework ran
    if (!epoch && !ex->sessionStartEpochNs())
        ctx.warn(ImportLogCode::RelativeTimes, "TARGET_INFO_SESSION_START_TIME", "no capture start time: times are relative to the capture");
    // One log row per table the export lacks: what it would have held, and with which nsys option.
    static const std::map<std::string, std::string> kWhat = {
        {"CUPTI_ACTIVITY_KIND_KERNEL", "no kernels (captured without --trace=cuda, or no kernel ran)"},
        {"CUPTI_ACTIVITY_KIND_MEMCPY", "no memcpys"},
        {"CUPTI_ACTIVITY_KIND_MEMSET", "no memsets"},
        {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "no CUDA synchronization records"},
        {"CUPTI_ACTIVITY_KIND_RUNTIME", "no CUDA runtime calls"},
        {"NVTX_EVENTS", "no NVTX ranges, so no step markers (--trace=nvtx)"},
        {"OSRT_API", "no OS runtime calls (--trace=osrt)"},
        {"CUDNN_EVENTS", "no cuDNN calls (--trace=cudnn)"},
        {"CUBLAS_EVENTS", "no cuBLAS calls (--trace=cublas)"}};
    bool gpuWork = !reader.devices().empty();
    for (const std::string &t : reader.absentTables()) {
        const auto what = kWhat.find(t);
        const std::string text = "table " + t + " absent: " + (what != kWhat.end() ? what->second : "not read");
        if (t == "CUPTI_ACTIVITY_KIND_RUNTIME" && gpuWork) {
            // GPU work without the calls that launched it: the launch side of the picture is lost.
            ctx.warn(ImportLogCode::UnlinkedGpuWork, t, text + "; the GPU work cannot be linked to the host");
            partial = true;
        } else {
            ctx.info(ImportLogCode::MissingTable, t, text);
        }
    }
    if (!ex->missingColumns().empty())
        ctx.info(ImportLogCode::MissingTable, "", "columns this export does not have (read as empty): " + joined(ex->missingColumns()));
    if (reader.kernelProcesses() > 1)
        ctx.warn(ImportLogCode::SeveralProcesses, "CUPTI_ACTIVITY_KIND_KERNEL",
                 std::to_string(reader.kernelProcesses()) + " processes launched kernels (ranks of one job?): they are "
                 "imported as one run, each keeping its own threads and launch links; steps repeated by several "
                 "processes are counted once");
    const NsysEventCounts &n = reader.counts();
    if (n.unplacedSyncs > 0)
        ctx.warn(ImportLogCode::UnplacedSync, "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                 std::to_string(n.unplacedSyncs) + " synchronization records without the runtime call that waited: not shown");
    if (n.badRows > 0) {
        ctx.warn(ImportLogCode::BadRow, "", std::to_string(n.badRows) + " rows without a start, thread or device: skipped");
        partial = true;
    }
    if (n.badTimes > 0) {
        ctx.warn(ImportLogCode::BadTimestamp, "", std::to_string(n.badTimes) + " rows whose start or end is not a whole number of ns within ±2^62 "
                     "(text, a real number, or near the int64 limit): skipped");
        partial = true;
    }
    if (n.endBeforeStart > 0)
        ctx.warn(ImportLogCode::EndBeforeBegin, "", std::to_string(n.endBeforeStart) + " rows that end before they start: kept with duration 0");
    if (ex->missingTexts() > 0) {
        ctx.warn(ImportLogCode::MissingString, "StringIds", std::to_string(ex->missingTexts()) + " names refer to string ids that StringIds does not "
                 "hold: shown as 'string id N (missing from StringIds)'");
        partial = true;
    }

    buffer.finish();
    TraceEventWriter writer(ctx, buffer, header, runNameFor(file));
    writer.setProgress([&](double fraction) {
        ctx.progress(int64_t(double(total) * (kReadShare + (1.0 - kReadShare) * fraction)), total);
    });
    if (!writer.write()) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": import cancelled";
        return result;
    }
    writeDeviceMemory(ctx, runNameFor(file), header, reader, buffer);
    int64_t metricSamples = 0;
    try {
        metricSamples = writeNsysGpuMetrics(*ex, ctx, runNameFor(file), epoch);
    } catch (const StoreError &) {
        if (readError.empty())
            readError = file.string() + ": GPU metrics unreadable, " + ex->db().lastErrorReason();
        ctx.error(ImportLogCode::ReadError, "GPU_METRICS", readError);
    }
    if (metricSamples < 0) {
        result.status = SourceStatus::Failed;
        result.message = file.string() + ": import cancelled";
        return result;
    }
    ctx.info(ImportLogCode::ImportSummary, "", std::to_string(n.kernels) + " kernels, " + std::to_string(n.memcpys) + " memcpys, " +
                     std::to_string(n.memsets) + " memsets, " + std::to_string(n.runtime + n.driver) + " CUDA API calls, " +
                     std::to_string(n.syncs) + " synchronizations, " + std::to_string(n.nvtxRanges) + " NVTX ranges, " +
                     std::to_string(n.nvtxMarks) + " NVTX marks, " + std::to_string(n.osrt) + " OS runtime calls, " +
                     std::to_string(n.cudnn + n.cublas) + " cuDNN/cuBLAS calls");
    ctx.progress(total, total);
    result.events = writer.slicesWritten() + metricSamples;
    if (!readError.empty()) {
        result.status = result.events > 0 ? SourceStatus::Partial : SourceStatus::Failed;
        result.message = readError;
    } else if (partial) {
        result.status = SourceStatus::Partial;
        result.message = file.string() + ": partly read (see the import log)";
    }
    return result;
}

} // namespace stepscope
