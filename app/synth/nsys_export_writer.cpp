#include "app/synth/nsys_export_writer.h"

#include "app/synth/generated_trace_reader.h"
#include "app/synth/step_simulator.h"
#include "models/store/foreign_database.h"

#include <algorithm>
#include <array>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace stepscope::synth {
namespace {

constexpr int64_t kMetricPeriodNs = 1'000'000;
constexpr int64_t kTypeIdBase = 0x10000;  // GPU_METRICS.typeId: the GPU in its low byte

constexpr const char *kSchema = R"(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT, totalMemory INTEGER, smCount INTEGER);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUDA_MEM_KIND (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE ENUM_CUPTI_SYNC_TYPE (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL, blockX INTEGER NOT NULL,
  blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL, staticSharedMemory INTEGER NOT NULL,
  dynamicSharedMemory INTEGER NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, srcKind INTEGER, dstKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  value INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER NOT NULL,
  globalTid INTEGER, correlationId INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL, rangeId INTEGER,
  category INTEGER, color INTEGER, text TEXT, globalTid INTEGER, endGlobalTid INTEGER, textId INTEGER,
  domainId INTEGER);
CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER NOT NULL, sourceId INTEGER NOT NULL, typeName TEXT NOT NULL,
  metricId INTEGER NOT NULL, metricName TEXT NOT NULL);
CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER NOT NULL, metricId INTEGER NOT NULL, value INTEGER NOT NULL);
INSERT INTO META_DATA_EXPORT VALUES ('EXPORT_PRODUCT_NAME', 'NVIDIA Nsight Systems'),
  ('EXPORT_PRODUCT_VERSION', 'stepscope-synth'), ('EXPORT_SCHEMA_VERSION', '3.13.2');
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (0, 'CUDA_MEMCPY_KIND_UNKNOWN', 'Unknown'),
  (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'), (2, 'CUDA_MEMCPY_KIND_DTOH', 'Device-to-Host'),
  (8, 'CUDA_MEMCPY_KIND_DTOD', 'Device-to-Device'), (10, 'CUDA_MEMCPY_KIND_PTOP', 'Peer-to-Peer');
INSERT INTO ENUM_CUDA_MEM_KIND VALUES (0, 'CUDA_MEMOPR_MEMORY_KIND_PAGEABLE', 'Pageable'),
  (1, 'CUDA_MEMOPR_MEMORY_KIND_PINNED', 'Pinned'), (2, 'CUDA_MEMOPR_MEMORY_KIND_DEVICE', 'Device');
INSERT INTO ENUM_CUPTI_SYNC_TYPE VALUES (0, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN', 'Unknown'),
  (1, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE', 'Event sync'),
  (2, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT', 'Stream wait event'),
  (3, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE', 'Stream sync'),
  (4, 'CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE', 'Context sync');
)";

constexpr int64_t kNvtxPushPop = 59, kNvtxDomainCreate = 75, kSynthDomain = 1;

int64_t memKind(std::string_view text) { return text == "Pinned" ? 1 : text == "Device" ? 2 : 0; }

// "[16,4,1]" → {16, 4, 1}
std::array<int64_t, 3> dims(std::string_view t) {
    std::array<int64_t, 3> out{1, 1, 1};
    size_t k = 0, p = t.find_first_of("0123456789");
    while (p != std::string_view::npos && k < 3) {
        const size_t q = t.find_first_not_of("0123456789", p);
        out[k++] = parseInt(t.substr(p, q - p));
        p = q == std::string_view::npos ? q : t.find_first_of("0123456789", q);
    }
    return out;
}

class NsysTraceConverter {
public:
    NsysTraceConverter(const SyntheticProfileOptions &o, ForeignDatabase &db)
        : m_opt(o), m_db(db.db()), m_busy(size_t(std::max(1, o.gpus))), m_h2d(size_t(std::max(1, o.gpus))) {
        m_kernel = SqliteStatement(m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (?1,?2,?3,1,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,?16,0)");
        m_memcpy = SqliteStatement(m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES (?1,?2,?3,1,?4,?5,?6,?7,?8,?9,?10)");
        m_memset = SqliteStatement(m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?1,?2,?3,1,?4,?5,?6,0,?7,2)");
        m_runtime = SqliteStatement(m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?1,?2,1,?3,?4,?5,0)");
        m_sync = SqliteStatement(m_db, "INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (?1,?2,0,1,?3,?4,?5,?6,4294967295)");
        m_nvtx = SqliteStatement(m_db, "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES (?1,?2,?3,?4,?5,?6)");
    }

    void add(std::string_view line);
    void finish();
    int64_t rows() const { return m_rows; }
    int64_t metricSamples() const { return m_samples; }

private:
    int64_t stringId(std::string_view text) {
        if (auto it = m_strings.find(text); it != m_strings.end())
            return it->second;
        const int64_t id = int64_t(m_strings.size());
        SqliteStatement st(m_db, "INSERT INTO StringIds VALUES (?1, ?2)");
        st.bind(1, id);
        st.bind(2, text);
        st.run();
        m_strings.emplace(std::string(text), id);
        return id;
    }
    static int64_t globalTid(int64_t pid, int64_t tid) { return (pid << 24) | tid; }
    void addBusy(std::vector<std::vector<int64_t>> &bins, int64_t gpu, int64_t start, int64_t end);

    const SyntheticProfileOptions &m_opt;
    sqlite3 *m_db;
    SqliteStatement m_kernel, m_memcpy, m_memset, m_runtime, m_sync, m_nvtx;
    std::map<std::string, int64_t, std::less<>> m_strings;
    std::map<int64_t, std::string> m_threadNames;
    std::vector<std::vector<int64_t>> m_busy, m_h2d;  // per GPU, busy ns per metric period
    int64_t m_rows = 0, m_samples = 0;
};

void NsysTraceConverter::addBusy(std::vector<std::vector<int64_t>> &bins, int64_t gpu, int64_t start, int64_t end) {
    auto &b = bins[size_t(gpu)];
    for (int64_t t = start; t < end;) {
        const int64_t bin = t / kMetricPeriodNs, binEnd = (bin + 1) * kMetricPeriodNs;
        if (int64_t(b.size()) <= bin)
            b.resize(size_t(bin) + 1, 0);
        b[size_t(bin)] += std::min(end, binEnd) - t;
        t = binEnd;
    }
}

void NsysTraceConverter::add(std::string_view text) {
    TraceLine event;
    if (!parseTraceLine(text, event))
        return;  // document head and tail
    const char ph = event.ph;
    const std::string_view name = event.name, cat = event.cat, args = event.args;
    const int64_t pid = event.pid, tid = event.tid, ts = event.ts, dur = event.dur;
    const bool numericPid = event.numericPid;
    std::string_view key;
    JsonValue v;
    if (ph == 'M' && name == "thread_name" && pid == StepSimulator::kPid) {
        m_threadNames[tid] = std::string(event.threadName);
        return;
    }
    if (ph != 'X' || !numericPid)
        return;  // instants, flows (nsys links by correlation id) and the profiler's own span stay out
    int64_t corr = -1, bytes = 0, regs = 0, shared = 0;
    std::string_view grid, block;
    FlatJson a(args);
    while (a.next(key, v)) {
        if (key == "correlation") corr = parseInt(v.text);
        else if (key == "bytes") bytes = parseInt(v.text);
        else if (key == "registers per thread") regs = parseInt(v.text);
        else if (key == "shared memory") shared = parseInt(v.text);
        else if (key == "grid") grid = v.text;
        else if (key == "block") block = v.text;
    }
    const int64_t end = ts + dur;
    if (pid == StepSimulator::kPid) {
        const int64_t gtid = globalTid(pid, tid);
        if (cat == "cuda_runtime") {
            const std::string api = std::string(name) + (name == "cudaLaunchKernel" ? "_v7000" : "_v3020");
            m_runtime.bind(1, ts);
            m_runtime.bind(2, end);
            m_runtime.bind(3, gtid);
            m_runtime.bind(4, corr);
            m_runtime.bind(5, stringId(api));
            m_runtime.run();
            ++m_rows;
            if (name.find("Synchronize") != std::string_view::npos) {  // CUPTI's record of the wait itself
                m_sync.bind(1, ts + std::min<int64_t>(dur, 2000));
                m_sync.bind(2, end);
                m_sync.bind(3, int64_t(4294967295));
                m_sync.bind(4, corr);
                m_sync.bind(5, globalTid(pid, 0));
                m_sync.bind(6, int64_t(name == "cudaDeviceSynchronize" ? 4 : 3));
                m_sync.run();
                ++m_rows;
            }
            return;
        }
        if (cat == "Trace")
            return;
        const bool step = name.starts_with("ProfilerStep#");
        const std::string textOut = step ? "step " + std::string(name.substr(13)) : std::string(name);
        m_nvtx.bind(1, ts);
        m_nvtx.bind(2, end);
        m_nvtx.bind(3, kNvtxPushPop);
        m_nvtx.bind(4, std::string_view(textOut));
        m_nvtx.bind(5, gtid);
        if (cat == "user_annotation")
            m_nvtx.bind(6, kSynthDomain);
        else
            m_nvtx.bindNull(6);
        m_nvtx.run();
        ++m_rows;
        return;
    }
    if (pid < 0 || pid >= m_opt.gpus)
        return;
    const int64_t gpuPid = globalTid(StepSimulator::kPid, 0);
    if (cat == "kernel") {
        const auto g = dims(grid), b = dims(block);
        const int64_t nameId = stringId(name);
        const int64_t values[] = {ts, end, pid, tid, corr, gpuPid, nameId, nameId, regs, g[0], g[1], g[2], b[0], b[1], b[2], shared};
        for (int i = 0; i < 16; ++i)
            m_kernel.bind(i + 1, values[i]);
        m_kernel.run();
        addBusy(m_busy, pid, ts, end);
    } else if (cat == "gpu_memcpy") {
        const int64_t kind = name.find("HtoD") != std::string_view::npos ? 1 : name.find("DtoH") != std::string_view::npos ? 2 : 8;
        const size_t open = name.find('('), arrow = name.find(" -> "), close = name.find(')');
        const int64_t src = open != std::string_view::npos && arrow != std::string_view::npos ? memKind(name.substr(open + 1, arrow - open - 1)) : 0;
        const int64_t dst = arrow != std::string_view::npos && close != std::string_view::npos ? memKind(name.substr(arrow + 4, close - arrow - 4)) : 2;
        const int64_t values[] = {ts, end, pid, tid, corr, gpuPid, bytes, kind, src, dst};
        for (int i = 0; i < 10; ++i)
            m_memcpy.bind(i + 1, values[i]);
        m_memcpy.run();
        if (kind == 1)
            addBusy(m_h2d, pid, ts, end);
    } else if (cat == "gpu_memset") {
        const int64_t values[] = {ts, end, pid, tid, corr, gpuPid, bytes};
        for (int i = 0; i < 7; ++i)
            m_memset.bind(i + 1, values[i]);
        m_memset.run();
    } else {
        return;  // gpu_user_annotation: nsys has no GPU-side copy of the host ranges
    }
    ++m_rows;
}

void NsysTraceConverter::finish() {
    SqliteStatement names(m_db, "INSERT INTO ThreadNames VALUES (?1, 10, ?2)");
    for (const auto &[tid, name] : m_threadNames) {
        names.bind(1, stringId(name));
        names.bind(2, globalTid(StepSimulator::kPid, tid));
        names.run();
    }
    SqliteStatement proc(m_db, "INSERT INTO PROCESSES VALUES (?1, ?2, 'python')");
    proc.bind(1, globalTid(StepSimulator::kPid, 0));
    proc.bind(2, StepSimulator::kPid);
    proc.run();
    SqliteStatement domain(m_db, "INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId) VALUES (0, ?1, 'synth', ?2, ?3)");
    domain.bind(1, kNvtxDomainCreate);
    domain.bind(2, globalTid(StepSimulator::kPid, StepSimulator::kPid));
    domain.bind(3, kSynthDomain);
    domain.run();
    SqliteStatement start(m_db, "INSERT INTO TARGET_INFO_SESSION_START_TIME (utcEpochNs) VALUES (?1)");
    start.bind(1, m_opt.epochStartNs);
    start.run();
    SqliteStatement gpu(m_db, "INSERT INTO TARGET_INFO_GPU VALUES (281474976710656, ?1, 'NVIDIA H100 80GB HBM3', 85520809984, 132)");
    SqliteStatement metric(m_db, "INSERT INTO TARGET_INFO_GPU_METRICS VALUES (?1, 0, ?2, ?3, ?4)");
    SqliteStatement sample(m_db, "INSERT INTO GPU_METRICS VALUES (?1, ?2, ?3, ?4)");
    for (int g = 0; g < m_opt.gpus; ++g) {
        gpu.bind(1, int64_t(g));
        gpu.run();
        const int64_t type = kTypeIdBase + g;
        const std::string typeName = "GH100 (GPU " + std::to_string(g) + ")";
        const std::pair<int64_t, const char *> metrics[] = {{1, "SMs Active [Throughput %]"}, {2, "PCIe RX Throughput [Throughput %]"}};
        for (const auto &[id, text] : metrics) {
            metric.bind(1, type);
            metric.bind(2, std::string_view(typeName));
            metric.bind(3, id);
            metric.bind(4, std::string_view(text));
            metric.run();
        }
        const size_t bins = std::max(m_busy[size_t(g)].size(), m_h2d[size_t(g)].size());
        m_busy[size_t(g)].resize(bins, 0);
        m_h2d[size_t(g)].resize(bins, 0);
        for (size_t k = 0; k < bins; ++k) {
            for (const auto &[id, busy] : {std::pair{int64_t(1), m_busy[size_t(g)][k]}, std::pair{int64_t(2), m_h2d[size_t(g)][k]}}) {
                sample.bind(1, int64_t(k) * kMetricPeriodNs);
                sample.bind(2, type);
                sample.bind(3, id);
                sample.bind(4, std::min<int64_t>(100, busy * 100 / kMetricPeriodNs));
                sample.run();
                ++m_samples;
            }
        }
    }
}

} // namespace

NsysExportResult writeNsysExport(const SyntheticProfileOptions &options, const std::filesystem::path &file,
                                 const std::filesystem::path &chromeTraceGz) {
    const SyntheticProfileGenerator gen(options);
    std::filesystem::path trace = chromeTraceGz;
    const bool temporary = trace.empty();
    if (temporary) {
        trace = file.parent_path() / (file.filename().string() + ".stepscope-synth.tmp.json.gz");
        SyntheticProfileOptions fast = gen.options();
        fast.targetEvents = 0;
        fast.gzipLevel = 1;
        SyntheticProfileGenerator(fast).generate(trace, {});
    }
    NsysExportResult result;
    result.file = file;
    std::error_code ec;
    try {
        if (!file.parent_path().empty())
            std::filesystem::create_directories(file.parent_path());
        std::filesystem::remove(file, ec);
        ForeignDatabase db = ForeignDatabase::open(file, ForeignDatabase::Mode::Create);
        sqliteExec(db.db(), "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN");
        sqliteExec(db.db(), kSchema);
        NsysTraceConverter converter(gen.options(), db);
        gzipReadLines(trace, [&](std::string_view line) { converter.add(line); });
        converter.finish();
        sqliteExec(db.db(), "COMMIT");
        result.rows = converter.rows();
        result.metricSamples = converter.metricSamples();
    } catch (const StoreError &e) {
        if (temporary)
            std::filesystem::remove(trace, ec);
        throw std::runtime_error(e.what());
    } catch (...) {
        if (temporary)
            std::filesystem::remove(trace, ec);
        throw;
    }
    if (temporary)
        std::filesystem::remove(trace, ec);
    return result;
}

} // namespace stepscope::synth
