#pragma once
// XPlaneSpaceWriter turns a walked XSpace into session rows for one run: it reads every plane's
// header and metadata, classifies planes (host, GPU/TPU device N, Task Environment, metadata,
// other) and lines (thread, stream, derived), decides the run's time base (Task Environment
// profile_start_time, else epoch-like line timestamps, else relative), builds the device text from
// plane stats (kept whole in import_log), writes each line through XPlaneLineWriter, then flows by
// correlation id, steps and one import_log line per kind of problem. Called by XPlaneImporter inside
// the caller's transaction.

#include "importers/common/import_context.h"
#include "importers/common/string_interner.h"
#include "importers/xplane/xplane_line_writer.h"
#include "importers/xplane/xplane_plane_index.h"
#include "importers/xplane/xplane_tokenizer.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

class XPlaneSpaceWriter {
public:
    XPlaneSpaceWriter(ImportContext &ctx, XPlaneTokenizer &reader, std::string runName, std::string host);

    // Writes what the space holds; false when cancelled. reader.error() tells whether the bytes
    // were cut short by malformed input (what came before is written either way).
    bool write(const XSpaceHeader &space);
    // The host's rank in a multi-host capture (rank_in_name.h); call before write().
    void setRank(std::optional<int64_t> rank) { m_run.rank = rank; }

    int64_t slicesWritten() const { return m_lineWriter.counts().slices; }
    int64_t flowsWritten() const { return m_flows; }
    int64_t stepsWritten() const { return m_steps; }

private:
    enum class PlaneKind { Host, Device, TaskEnvironment, Metadata, Other };
    struct Plane {
        XPlaneHeader header;
        XPlaneIndex index;
        PlaneKind kind = PlaneKind::Other;
        std::optional<int64_t> device;
        std::vector<XLineHeader> lines;
    };

    bool readPlanes(const XSpaceHeader &space);
    void decideTimeBase();
    void describeRun(const XSpaceHeader &space);
    bool writeLines();
    void writeFlows();
    void writeMemory();  // GPU allocator totals → gpu_mem_allocated, memory_size → gpu_mem_total
    void logSummary();
    int64_t lineBase(const XLineHeader &line) const;
    int64_t ensureRun();  // the run row is written with the first track (or at the end)

    ImportContext &m_ctx;
    XPlaneTokenizer &m_reader;
    StringInterner m_strings;
    XPlaneLinks m_links;
    StepNameRules m_stepRules;  // step_ranges.tsv (or STEPSCOPE_STEP_RULES)
    StepDetector m_stepDetector;
    XPlaneLineWriter m_lineWriter;
    std::vector<std::unique_ptr<Plane>> m_planes;
    RunInfo m_run;
    int64_t m_runId = 0;
    std::optional<int64_t> m_anchor;  // profile_start_time, epoch ns
    int64_t m_epochShift = 0;         // subtracted from epoch-like line timestamps
    bool m_mixedTimestamps = false;
    int64_t m_flows = 0;
    int64_t m_unlinked = 0;
    int64_t m_steps = 0;
};

} // namespace stepscope
