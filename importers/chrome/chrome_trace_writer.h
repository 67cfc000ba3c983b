#pragma once
// ChromeTraceWriter turns a filled ChromeTraceBuffer into session rows for one run: it picks the
// time base (Kineto baseTimeNanoseconds, SageMaker start time, absolute epoch µs, or none),
// classifies tracks (host thread / GPU stream with its device from process labels or names, or
// other), nests each track with SliceNester (overflow rows counted, never dropped), binds flow
// endpoints to slices, then writes slices, flows, counters and ProfilerStep#N steps through the
// SessionWriter, plus one import_log line per kind of problem. Slices are written in arrival order
// so args read back from ArgsSpill sequentially; their ids are predicted (SQLite hands out
// max(rowid)+1) so parents and flows can refer to slices written later.
// Called by ChromeTraceImporter inside the caller's transaction.

#include "importers/chrome/chrome_event.h"
#include "importers/chrome/chrome_trace_buffer.h"
#include "importers/common/import_context.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stepscope {

class SliceNester;

class ChromeTraceWriter {
public:
    ChromeTraceWriter(ImportContext &ctx, ChromeTraceBuffer &buffer, const ChromeTraceHeader &header,
                      std::string runName);

    // False when cancelled part-way (the caller rolls back).
    bool write();
    int64_t slicesWritten() const { return m_slicesWritten; }
    int64_t countersWritten() const { return m_countersWritten; }
    int64_t flowsWritten() const { return m_flowsWritten; }
    int64_t stepsWritten() const { return m_stepsWritten; }

private:
    struct TrackOut {
        int64_t id = 0;
        TrackKind kind = TrackKind::Other;
        std::string name;
    };

    void decideTimeBase();
    void addRun();
    void classifyTracks();
    bool nestTracks();
    void bindFlows(uint32_t track, const SliceNester &nester, size_t &cursor);
    bool writeSlices();
    void writeFlows();
    void writeCounters();
    void writeSteps();
    void logProblems();

    ImportContext &m_ctx;
    SessionWriter &m_w;
    ChromeTraceBuffer &m_buf;
    const ChromeTraceHeader &m_header;
    std::string m_runName;
    RunInfo m_run;
    int64_t m_runId = 0;
    int64_t m_shift = 0;  // subtracted from trace ns to get run-relative ns
    std::vector<TrackOut> m_tracks;
    std::vector<TrackInfo> m_trackInfos;  // until the run row exists
    int64_t m_firstSliceId = 0;
    int64_t m_slicesWritten = 0;
    int64_t m_countersWritten = 0;
    int64_t m_flowsWritten = 0;
    int64_t m_stepsWritten = 0;
    int64_t m_unboundEndpoints = 0;
};

} // namespace stepscope
