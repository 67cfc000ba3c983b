// Flow binding and flow rows of TraceEventWriter. v1 flows (s/t/f) bind to the slice enclosing
// their timestamp on their thread (f without bp "e": the next slice to start); ac2g flows prefer,
// on that chain, the slice whose correlation equals the flow id, which pins the runtime launch and
// the kernel exactly. v2 flows (bind_id + flow_out/flow_in) are bound to their own slice already.
// Flow rows are built on the writer's producer thread (see trace_event_writer_rows.cpp).
#include "importers/common/trace_event_writer.h"

#include "importers/common/slice_nester.h"

#include <algorithm>
#include <unordered_map>

namespace stepscope {
namespace {

bool isV1(const FlowEndpoint &f) { return f.phase != 'i' && f.phase != 'o'; }

int phaseRank(char phase) {
    switch (phase) {
    case 's': return 0;
    case 't': return 1;
    case 'f': return 2;
    case 'i': return 0;  // v2: at one instant a slice receives before it sends on
    default: return 1;
    }
}

} // namespace

bool TraceEventWriter::bindFlows(uint32_t ti, const SliceNester &nester, size_t &cursor) {
    auto &flows = m_buf.flows();
    const BufferedTrack &t = m_buf.tracks()[ti];
    const auto &slices = m_buf.slices();
    std::unordered_map<int64_t, int32_t> byCorrelation;  // built only if a lookup needs it
    bool built = false;
    for (; cursor < flows.size() && isV1(flows[cursor]) && flows[cursor].ref == ti; ++cursor) {
        if (cursor % kPollEndpoints == kPollEndpoints - 1 && !poll())
            return false;
        FlowEndpoint &f = flows[cursor];
        if (t.slices.empty())
            continue;
        int32_t local = (f.phase == 'f' && f.bp != 'e') ? nester.nextStarting(f.ts) : nester.enclosing(f.ts);
        if (f.byCorrelation && f.id != BufferedSlice::kNoCorrelation) {
            int32_t c = local;
            while (c != SliceNester::kNone && slices[t.slices[size_t(c)]].correlation != f.id)
                c = nester.parent(size_t(c));
            if (c != SliceNester::kNone) {
                local = c;
            } else if (local == SliceNester::kNone) {
                if (!built) {
                    for (size_t k = 0; k < t.slices.size(); ++k)
                        if (slices[t.slices[k]].correlation != BufferedSlice::kNoCorrelation)
                            byCorrelation.emplace(slices[t.slices[k]].correlation, int32_t(k));
                    built = true;
                }
                if (auto it = byCorrelation.find(f.id); it != byCorrelation.end())
                    local = it->second;
            }
        }
        if (local != SliceNester::kNone)
            f.slice = t.slices[size_t(local)];
    }
    return true;
}

bool TraceEventWriter::produceFlowRows(const EmitRows &emit, PendingRows &batch,
                                        const std::function<bool()> &keepGoing) {
    auto &flows = m_buf.flows();
    // seq is unique, so this order is total and the stable sort gives what std::sort would.
    const bool sorted = sortPolled(
        flows,
        [](const FlowEndpoint &a, const FlowEndpoint &b) {
            if (isV1(a) != isV1(b))
                return isV1(a);
            if (a.key != b.key)
                return a.key < b.key;
            if (isV1(a) && phaseRank(a.phase) != phaseRank(b.phase))
                return phaseRank(a.phase) < phaseRank(b.phase);
            if (a.ts != b.ts)
                return a.ts < b.ts;
            if (phaseRank(a.phase) != phaseRank(b.phase))
                return phaseRank(a.phase) < phaseRank(b.phase);
            return a.seq < b.seq;
        },
        keepGoing);
    if (!sorted)
        return false;
    // Flow ids follow the order links are found in (by key), which is random in time; inserting
    // them in that order would scatter the inserts over both slice-id indexes of the flow table.
    // Rows are therefore inserted sorted by from_slice_id (the indexes then fill almost in order)
    // with the id each would have got, so the rows come out exactly as before.
    struct FlowRow {
        int64_t from = 0, to = 0;
        int64_t id = 0;
        int64_t catId = 0;  // the store's id (0: none)
    };
    std::vector<FlowRow> rows;
    auto link = [&](int64_t from, int64_t to, uint32_t catId) {
        if (from == to) {
            ++m_unboundEndpoints;
            return;
        }
        rows.push_back({m_firstSliceId + from, m_firstSliceId + to, m_firstFlowId + int64_t(rows.size()), m_storeIds[catId]});
    };
    size_t i = 0;
    while (i < flows.size()) {
        size_t j = i;
        while (j < flows.size() && flows[j].key == flows[i].key && isV1(flows[j]) == isV1(flows[i]))
            ++j;
        int64_t prev = -1;
        bool linked = false;
        for (size_t k = i; k < j; ++k) {
            const FlowEndpoint &f = flows[k];
            const bool starts = f.phase == 's' || f.phase == 'o';
            if (f.slice < 0) {
                ++m_unboundEndpoints;
                if (starts)
                    prev = -1;
                continue;
            }
            if (starts) {
                if (prev >= 0 && !linked && f.phase == 's')
                    ++m_unboundEndpoints;
                prev = f.slice;
                linked = false;
                continue;
            }
            if (prev < 0) {
                ++m_unboundEndpoints;
                continue;
            }
            link(prev, f.slice, f.catId);
            linked = true;
            if (f.phase == 'f')
                prev = -1;
            else if (f.phase == 't')
                prev = f.slice;
        }
        if (prev >= 0 && !linked && isV1(flows[i]))
            ++m_unboundEndpoints;
        i = j;
    }
    const int64_t units = 2 * int64_t(flows.size());  // progress: two per endpoint
    flows.clear();
    if (!keepGoing() || !sortPolled(rows, [](const FlowRow &a, const FlowRow &b) { return a.from < b.from; }, keepGoing))
        return false;
    enum Column { Id, Run, From, To, Category, Columns };
    for (size_t r = 0; r < rows.size(); ++r) {
        const FlowRow &f = rows[r];
        const int64_t row[Columns] = {f.id, m_runId, f.from, f.to, f.catId};
        batch.rows.add(row, f.catId ? 0u : 1u << Category);
        if (batch.rows.rows() >= kBatchRows || r + 1 == rows.size()) {
            batch.units = units * int64_t(r + 1) / int64_t(rows.size()) - units * int64_t(r + 1 - batch.rows.rows()) / int64_t(rows.size());
            if (!emit(batch))
                return false;
        }
    }
    m_flowsWritten = int64_t(rows.size());
    return true;
}

} // namespace stepscope
