#pragma once
// NsysTokenizer turns the event tables of an Nsight Systems export into trace events for
// TraceEventBuffer, so nesting, flows, steps and the store rows are written the one way every trace
// importer writes them (TraceEventWriter). Kernels, memcpys and memsets go to GPU streams per device
// ("GPU N" / "stream S"; launch details, copy kind and bytes in args, as Kineto names them); CUDA
// runtime and driver calls, NVTX ranges and marks (domain in args), OS runtime, cuDNN and cuBLAS
// calls to their host thread (PID/TID from globalTid, names from ThreadNames); CUPTI synchronization
// records to the host thread whose runtime call waited (by correlationId). A runtime call and the GPU
// work it launched share a correlation id (qualified by the process when several processes launched
// work) and a flow. NVTX ranges that the step rules match get the category "step".

#include "importers/common/trace_event_buffer.h"
#include "importers/common/import_context.h"
#include "importers/common/step_name_rules.h"
#include "importers/nsys/nsys_export.h"

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace stepscope {

struct NsysEventCounts {
    int64_t kernels = 0, memcpys = 0, memsets = 0, runtime = 0, driver = 0, syncs = 0, nvtxRanges = 0,
            nvtxMarks = 0, osrt = 0, cudnn = 0, cublas = 0, unplacedSyncs = 0, badRows = 0;
    // Rows whose start or end is not a whole number (text, a real) or lies beyond ±2^62 ns (146
    // years) of the capture: skipped. Rows that end before they start: kept as instants (duration 0).
    int64_t badTimes = 0, endBeforeStart = 0;
    int64_t total() const {
        return kernels + memcpys + memsets + runtime + driver + syncs + nvtxRanges + nvtxMarks + osrt + cudnn + cublas;
    }
};

class NsysTokenizer {
public:
    // progress(rowsDone, rowsEstimate) is called every few thousand rows.
    NsysTokenizer(NsysExport &ex, TraceEventBuffer &buffer, const StepNameRules &steps, ImportContext &ctx,
                    std::function<void(int64_t, int64_t)> progress);

    // Reads every table present; false when cancelled. Throws StoreError on unreadable pages.
    bool read();
    const NsysEventCounts &counts() const { return m_counts; }
    // Tables this export lacks of the ones the reader knows.
    const std::vector<std::string> &absentTables() const { return m_absent; }
    // Processes that launched kernels, when more than one did (their correlation ids are then
    // qualified by the process); 0 or 1 otherwise.
    int64_t kernelProcesses() const { return m_kernelProcesses; }
    // GPUs that ran work (deviceId of kernels, copies and memsets).
    const std::unordered_set<int64_t> &devices() const { return m_seenDevices; }

private:
    struct PendingSync {
        int64_t start = 0, end = 0, correlation = 0, pid = 0, syncType = 0;
    };

    bool readGpuWork(const std::string &table, char kind);  // 'k' kernel, 'c' memcpy, 's' memset
    bool readSyncRecords();
    bool readApiCalls(const std::string &table, const char *category, int64_t &count);
    bool writeSyncs();
    bool readNvtx();
    void decideCorrelationScope();
    int64_t qualified(int64_t correlation, int64_t pid) const;
    void ensureGpuTrack(int64_t device);
    void ensureThread(int64_t globalTid);
    // The event of a host-thread row, in m_event, for the caller to complete and add.
    TraceEvent &hostEvent(char ph, std::string_view name, std::string_view cat, int64_t globalTid, int64_t start,
                           std::optional<int64_t> end, std::string_view args = {});
    bool tick();  // counts a row; polls cancel and reports progress
    // Columns startCol and endCol (endCol < 0: none) of a row as times: false (counted in badTimes)
    // when one is not an integer in range; an end before the start is counted and set to the start.
    bool readTimes(const SqliteStatement &st, int startCol, int endCol, int64_t &start, std::optional<int64_t> &end);

    NsysExport &m_ex;
    TraceEventBuffer &m_buf;
    const StepNameRules &m_steps;
    ImportContext &m_ctx;
    std::function<void(int64_t, int64_t)> m_progress;
    NsysEventCounts m_counts;
    std::vector<std::string> m_absent;
    std::unordered_map<int64_t, std::string> m_threadNames;   // globalTid → name
    std::unordered_map<int64_t, std::string> m_processNames;  // pid → name
    std::unordered_set<int64_t> m_seenThreads, m_seenDevices, m_launched;
    std::unordered_map<int64_t, int64_t> m_syncWaiter;  // qualified correlation → globalTid
    std::vector<PendingSync> m_syncs;
    std::unordered_map<int64_t, std::string> m_apiNames;      // nameId → name without _vNNNN
    std::unordered_map<std::string, bool> m_stepTexts;         // NVTX text → marks a step
    std::map<int64_t, std::string> m_copyKinds, m_memKinds, m_syncKinds;
    bool m_multiProcess = false;
    int64_t m_kernelProcesses = 0;
    int64_t m_rows = 0, m_estimate = 1;
    int64_t m_lastTid = -1;  // m_pid / m_tid are its texts
    TraceEvent m_event;
    std::string m_pid, m_tid, m_args, m_name, m_bind;
};

} // namespace stepscope
