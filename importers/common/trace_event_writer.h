#pragma once
// TraceEventWriter turns a filled TraceEventBuffer into session rows for one run: it picks the
// time base (Kineto baseTimeNanoseconds, SageMaker start time, absolute epoch µs, or none),
// classifies tracks (host thread / GPU stream with its device from process labels or names, or
// other), nests each track with SliceNester (overflow rows counted, never dropped), binds flow
// endpoints to slices, then writes slices, flows, counters, allocator memory series and ProfilerStep#N
// steps (the step rules' names) through the SessionWriter, plus one import_log line per kind of
// problem. Slices are written in arrival order so args read back from ArgsSpill sequentially, each
// with its id (from SessionWriter::firstFreeId) so parents and flows can refer to slices written later.
// Slice and flow rows are built on a producer thread (args read back, flows sorted and paired)
// and handed in batches through a BoundedQueue to the calling thread, which only inserts them
// (BulkRowInserter) and polls cancel / reports progress; the two overlap on two cores.
// Called by ChromeTraceImporter and NsysSqliteImporter inside the caller's transaction, on the caller's thread.

#include "importers/common/bounded_queue.h"
#include "models/store/bulk_row_inserter.h"
#include "importers/common/trace_event.h"
#include "importers/common/trace_event_buffer.h"
#include "importers/common/import_context.h"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace stepscope {

class SliceNester;

class TraceEventWriter {
public:
    TraceEventWriter(ImportContext &ctx, TraceEventBuffer &buffer, const TraceHeader &header,
                      std::string runName);

    // False when cancelled part-way (the caller rolls back). The cancel flag is polled, and the
    // progress function (if set) called with the fraction of the work done, at least every ~50 ms.
    bool write();
    void setProgress(std::function<void(double fraction)> fn) { m_progress = std::move(fn); }
    int64_t slicesWritten() const { return m_slicesWritten; }
    int64_t countersWritten() const { return m_countersWritten; }
    int64_t memorySamplesWritten() const { return m_memoryWritten; }
    int64_t flowsWritten() const { return m_flowsWritten; }
    int64_t stepsWritten() const { return m_stepsWritten; }
    int64_t eventsDropped() const { return m_eventsDropped; }  // events lost to problems (the source is partial)

private:
    struct TrackOut {
        int64_t id = 0;
        TrackKind kind = TrackKind::Other;
        std::string name;
    };

    // One batch of slice or flow rows on its way from the producer thread to the SQLite writer.
    struct PendingRows {
        bool flows = false;
        RowBatch rows;
        int64_t endSlice = 0;  // slices: global index past the batch's last row
        int64_t units = 0;     // work units it stands for (progress)
    };
    using RowQueue = BoundedQueue<PendingRows>;
    // Producer side: hands a full batch to the writer and leaves a fresh one of the same kind in
    // its place. False once the writer has cancelled.
    using EmitRows = std::function<bool(PendingRows &)>;
    static constexpr size_t kBatchRows = 4096;
    static constexpr size_t kQueuedBatches = 4;

    void decideTimeBase();
    void addRun();
    void classifyTracks();
    bool nestTracks();
    bool bindFlows(uint32_t track, const SliceNester &nester, size_t &cursor);  // false once cancelled
    // Slices and flows: producer thread + bulk inserts on this thread (trace_event_writer_rows.cpp).
    bool writeRows();
    void produceRows(RowQueue &ready, RowQueue &spare);
    bool produceSliceRows(const EmitRows &emit, PendingRows &batch);
    bool produceFlowRows(const EmitRows &emit, PendingRows &batch, const std::function<bool()> &keepGoing);
    bool writeCounters();
    bool writeMemory();  // allocator [memory] instants -> metric series (trace_event_writer_memory.cpp)
    bool writeSteps();  // through StepDetector: the step rules' names, else the training function
    void logProblems();
    // Counts `units` of work done; every kPollUnits units checks the clock (progress) and the cancel
    // flag. False once cancelled.
    bool tick(int64_t units = 1) {
        m_unitsDone += units;
        if (m_unitsDone < m_nextPoll)
            return true;
        return poll();
    }
    bool poll();
    static constexpr int64_t kPollUnits = 1024;
    static constexpr size_t kPollEndpoints = size_t(1) << 16;
    // std::stable_sort in pieces (sorted runs, then merges), calling keepGoing between them so a
    // sort of millions of flow endpoints cannot hold up cancel or progress. False once cancelled.
    template <class Array, class Less, class KeepGoing>
    static bool sortPolled(Array &v, Less less, KeepGoing keepGoing) {
        constexpr size_t kRun = size_t(1) << 15;
        const size_t n = v.size();
        for (size_t i = 0; i < n; i += kRun) {
            std::stable_sort(v.begin() + std::ptrdiff_t(i), v.begin() + std::ptrdiff_t(std::min(n, i + kRun)), less);
            if (!keepGoing())
                return false;
        }
        for (size_t width = kRun; width < n; width *= 2)
            for (size_t i = 0; i + width < n; i += 2 * width) {
                std::inplace_merge(v.begin() + std::ptrdiff_t(i), v.begin() + std::ptrdiff_t(i + width),
                                   v.begin() + std::ptrdiff_t(std::min(n, i + 2 * width)), less);
                if (!keepGoing())
                    return false;
            }
        return true;
    }

    ImportContext &m_ctx;
    SessionWriter &m_w;
    TraceEventBuffer &m_buf;
    const TraceHeader &m_header;
    std::string m_runName;
    RunInfo m_run;
    int64_t m_runId = 0;
    int64_t m_shift = 0;  // subtracted from trace ns to get run-relative ns
    std::vector<TrackOut> m_tracks;
    std::vector<TrackInfo> m_trackInfos;  // until the run row exists
    int64_t m_firstSliceId = 0;
    std::vector<int64_t> m_storeIds;  // the buffer's local string ids → the store's (write() fills it)
    std::vector<SliceCostRow> m_costs;  // op costs found while slice rows are produced, written after them
    int64_t m_firstFlowId = 0;
    int64_t m_slicesWritten = 0;
    int64_t m_countersWritten = 0;
    int64_t m_memoryWritten = 0;
    int64_t m_flowsWritten = 0;
    int64_t m_eventsDropped = 0;
    int64_t m_stepsWritten = 0;
    int64_t m_unboundEndpoints = 0;    // written by the producer thread until it is joined
    std::function<void(double)> m_progress;
    std::chrono::steady_clock::time_point m_lastProgress{};
    int64_t m_unitsDone = 0;
    int64_t m_unitsTotal = 1;
    int64_t m_nextPoll = 0;
    bool m_cancelled = false;
};

} // namespace stepscope
