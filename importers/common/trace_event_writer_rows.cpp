// The slice and flow row pipeline of TraceEventWriter: a producer thread reads args back from
// ArgsSpill and builds slice rows in arrival order, then sorts and pairs flow endpoints into flow
// rows; the calling thread (which owns the SQLite connection) inserts each batch with one
// statement step, reports progress and polls cancel, also while it waits for the next batch.
#include "importers/common/trace_event_writer.h"

#include "importers/common/op_cost.h"
#include "models/concurrency/worker_thread.h"

namespace stepscope {
namespace {

// How long the writer waits for a batch before it polls cancel and progress again.
constexpr std::chrono::milliseconds kPopWait{20};

enum SliceColumn { Id, Track, Start, Dur, Depth, Parent, Name, Category, Correlation, IntColumns, Args = IntColumns };

} // namespace

bool TraceEventWriter::writeRows() {
    // Parents may come later in the file than their children, and flows are inserted out of id
    // order (see produceFlowRows): rows carry their ids, taken from the first free one of each table.
    m_firstSliceId = m_w.firstFreeId(SessionWriter::IdTable::Slice);
    m_firstFlowId = m_w.firstFreeId(SessionWriter::IdTable::Flow);
    const auto slices = m_w.bulkInserter("stepscope_chrome_slice_rows", "slice",
                                         {"id", "track_id", "start_ns", "dur_ns", "depth", "parent_id", "name_id",
                                          "category_id", "correlation", "args"});
    const auto flows =
        m_w.bulkInserter("stepscope_chrome_flow_rows", "flow", {"id", "run_id", "from_slice_id", "to_slice_id", "category_id"});

    // At most kQueuedBatches wait in `ready`, one is being filled and one inserted: `spare` (used
    // batches going back for reuse) never fills up, so handing one back never blocks.
    RowQueue ready(kQueuedBatches);
    RowQueue spare(kQueuedBatches + 2);
    WorkerThread producer([&] {
        struct FinishOnExit {  // also when producing throws: the writer stops waiting
            RowQueue &ready;
            ~FinishOnExit() { ready.finish(); }
        } finish{ready};
        produceRows(ready, spare);
    });
    struct StopOnExit {  // also when an insert throws: the producer stops, and `producer` joins it
        RowQueue &ready;
        const WorkerThread &thread;
        ~StopOnExit() {
            if (thread.joinable()) ready.cancel();
        }
    } stopOnExit{ready, producer};

    PendingRows batch;
    while (true) {
        const RowQueue::Pop got = ready.pop(batch, kPopWait);
        if (got == RowQueue::Pop::Finished)
            break;
        if (got == RowQueue::Pop::TimedOut) {
            if (!poll())
                return false;  // stopOnExit stops the producer
            continue;
        }
        (batch.flows ? flows : slices)->insert(batch.rows);
        const int64_t units = batch.units;
        spare.push(std::move(batch));
        batch = PendingRows{};
        if (!tick(units))
            return false;
    }
    producer.join();  // rethrows what the producer threw
    for (const SliceCostRow &c : m_costs)
        m_w.addSliceCost(c);
    m_costs.clear();
    m_slicesWritten = int64_t(m_buf.slices().size());
    return true;
}

void TraceEventWriter::produceRows(RowQueue &ready, RowQueue &spare) {
    const auto fresh = [&](bool flows) {
        PendingRows batch;
        spare.pop(batch, std::chrono::milliseconds(0));  // reuse a used batch's storage if one is back
        batch.flows = flows;
        batch.rows.reset(flows ? 5 : IntColumns, !flows);
        batch.endSlice = 0;
        batch.units = 0;
        return batch;
    };
    const EmitRows emit = [&](PendingRows &batch) {
        const bool flows = batch.flows;
        if (!ready.push(std::move(batch)))
            return false;
        batch = fresh(flows);
        return true;
    };
    const auto keepGoing = [&] { return !ready.cancelled(); };
    PendingRows batch = fresh(false);
    if (!produceSliceRows(emit, batch) || (!batch.rows.empty() && !emit(batch)))
        return;
    batch = fresh(true);
    produceFlowRows(emit, batch, keepGoing);  // emits its last batch itself
}

bool TraceEventWriter::produceSliceRows(const EmitRows &emit, PendingRows &batch) {
    const auto &slices = m_buf.slices();
    ArgsSpill &args = m_buf.args();
    args.rewind();
    for (size_t i = 0; i < slices.size(); ++i) {
        const BufferedSlice &s = slices[i];
        const int64_t row[IntColumns] = {m_firstSliceId + int64_t(i),
                                         m_tracks[s.track].id,
                                         s.start - m_shift,
                                         s.dur,
                                         s.depth,
                                         s.parent ? m_firstSliceId + int64_t(s.parent - 1) : 0,
                                         m_storeIds[s.nameId],
                                         m_storeIds[s.catId],
                                         s.correlation};
        const std::string_view text = args.next(s.argsLen);
        if (!text.empty() && s.nameId > 0)
            if (auto cost = OpCostModel::costRow(m_buf.strings().text(s.nameId), text)) {
                cost->sliceId = row[Id];
                cost->trackId = row[Track];
                cost->startNs = row[Start];
                cost->nameId = row[Name];
                m_costs.push_back(std::move(*cost));
            }
        uint32_t nulls = 0;
        if (!s.parent)
            nulls |= 1u << Parent;
        if (!s.catId)
            nulls |= 1u << Category;
        if (s.correlation == BufferedSlice::kNoCorrelation)
            nulls |= 1u << Correlation;
        if (text.empty())
            nulls |= 1u << Args;
        batch.rows.add(row, nulls, text);
        batch.units += 3;  // the inserts dominate the import: three units per slice
        if (batch.rows.rows() >= kBatchRows) {
            batch.endSlice = int64_t(i) + 1;
            if (!emit(batch))
                return false;
        }
    }
    batch.endSlice = int64_t(slices.size());
    return true;
}

} // namespace stepscope
