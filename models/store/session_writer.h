#pragma once
// SessionWriter is the only way importers put rows into a session. One writer = one import
// transaction: everything written between begin() and commit() appears at once, and rollback()
// (or destruction without commit, e.g. on cancel) leaves the session exactly as it was.
// Statements are prepared once and reused; strings are interned through an in-memory cache.
// Times given to addSlice/addStep/addCounterSample are relative to the run's time_base_ns.

#include "models/store/bulk_row_inserter.h"
#include "models/store/import_log_code.h"
#include "models/store/session_enums.h"
#include "models/store/slice_cost.h"
#include "models/store/session_store.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stepscope {


// What another profiler concluded about a run, as its analysis file says (tool_verdict table).
struct ToolVerdictInfo {
    std::string tool, kind;  // tensorflow_profiler; overview_page, input_pipeline, ...
    std::optional<double> inputPct;
    std::string verdict, deviceType;
    int64_t steps = 0;
    std::string topOpsJson = "[]";
};

struct RunInfo {
    std::string name;       // shown to the user; unique enough to tell runs apart (e.g. host or rank)
    std::string host;
    std::string framework;  // "pytorch", "tensorflow", "jax", ...
    std::string device;     // e.g. "NVIDIA H100 80GB HBM3"
    std::optional<int64_t> rank;
    int64_t timeBaseNs = 0; // Unix epoch ns of the run's zero when hasEpoch, else the raw trace zero
    bool hasEpoch = false;
};

struct TrackInfo {
    TrackKind kind = TrackKind::HostThread;
    std::optional<int64_t> device;  // GPU index for GPU streams
    std::string name;
    std::string pid;                // raw keys from the file, kept as text
    std::string tid;
    int64_t sortIndex = 0;
};

struct SliceRow {
    int64_t trackId = 0;
    int64_t startNs = 0;
    int64_t durNs = 0;
    int64_t depth = 0;
    std::optional<int64_t> parentId;
    int64_t nameId = 0;                  // from intern()
    std::optional<int64_t> categoryId;   // from intern()
    std::optional<int64_t> correlation;
    std::string_view argsJson;           // empty = no args
};

class SessionWriter {
public:
    explicit SessionWriter(SessionStore &store);
    ~SessionWriter();  // rolls back when neither commit() nor rollback() was called
    SessionWriter(const SessionWriter &) = delete;
    SessionWriter &operator=(const SessionWriter &) = delete;

    // begin() raises SQLite's page cache for the transaction (big imports touch many index pages);
    // commit()/rollback() restore the previous size.
    void begin();
    void commit();
    void rollback();
    bool active() const { return m_active; }
    // An importer whose rows arrive in index order (track by track, each in time order: XPlane) gains
    // nothing from the large cache; it uses a small one while it writes, and leaves the large one
    // to the next importer of the transaction.
    void useSmallCache(bool small);

    // Replaces any earlier import of the same path (its runs, slices, metrics, log rows go;
    // user data such as annotations and clock offsets stays).
    int64_t addSource(const std::string &path, const std::string &format, int64_t sizeBytes);
    void finishSource(int64_t sourceId, int64_t events, int64_t warnings, SourceStatus status);

    int64_t addRun(int64_t sourceId, const RunInfo &run);
    int64_t addTrack(int64_t runId, const TrackInfo &track);
    int64_t intern(std::string_view text);
    int64_t addSlice(const SliceRow &row);
    void addSliceCost(const SliceCostRow &row);
    void addFlow(int64_t runId, int64_t fromSliceId, int64_t toSliceId, std::optional<int64_t> categoryId);
    void addCounterSample(int64_t trackId, int64_t tNs, double value);
    void addStep(int64_t runId, int64_t step, int64_t startNs, int64_t durNs);
    // Where the run's steps came from (run.step_source); a run's default is markers.
    void setStepSource(int64_t runId, StepSource source);
    void addToolVerdict(int64_t sourceId, const ToolVerdictInfo &verdict);

    // Metric times are absolute Unix-epoch ns.
    int64_t addMetricSeries(int64_t sourceId, const std::string &run, const std::string &name,
                            std::optional<int64_t> device, const std::string &unit, int64_t periodNs);
    void setMetricSeriesPeriod(int64_t seriesId, int64_t periodNs);
    void addMetricSample(int64_t seriesId, int64_t tNs, double value);

    // Bulk rows (bulk_row_inserter.h) go into a table with one statement per batch. Rows carry
    // their ids: the first free id of the table, then the next ones (nothing else may insert into
    // the table while the caller's inserter is in use). `module` must be unique per connection.
    enum class IdTable { Slice, Flow };
    int64_t firstFreeId(IdTable table);
    std::unique_ptr<BulkRowInserter> bulkInserter(const std::string &module, std::string_view table,
                                                  const std::vector<std::string> &columns);

    // code: what happened, stable (import_log_code.h); position: byte offset, "line N" or
    // "record N" — whatever lets the user find the spot; message: the same for people.
    void log(std::optional<int64_t> sourceId, Severity severity, ImportLogCode code, const std::string &file,
             const std::string &position, const std::string &message);

    SessionStore &store() { return m_store; }

private:
    void prepare();
    void restoreCacheSize();

    SessionStore &m_store;
    bool m_active = false;
    std::optional<int64_t> m_savedCacheSize;
    std::unordered_map<std::string, int64_t> m_strings;
    SqliteStatement m_insertString, m_selectString, m_insertSlice, m_insertFlow, m_insertCounter,
        m_insertStep, m_insertMetricSample, m_insertTrack, m_insertRun, m_insertLog, m_insertCost;
};

} // namespace stepscope
