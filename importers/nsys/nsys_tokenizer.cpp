#include "importers/nsys/nsys_tokenizer.h"

#include "models/text/json_string.h"
#include "models/store/ns_range.h"

#include <array>
#include <charconv>

namespace stepscope {
namespace {

constexpr int64_t kPollRows = 4096;

// NVTX_EVENTS.eventType values (nsys ENUM_NSYS_EVENT_TYPE).
constexpr int64_t kNvtxMark = 34, kNvtxPushPop = 59, kNvtxStartEnd = 60, kNvtxDomainCreate = 75;

// CUPTI's memcpy kinds (ENUM_CUDA_MEMCPY_OPER keeps CUPTI's numbering), as Kineto names them.
std::string_view copyKindName(int64_t kind) {
    static constexpr std::array<std::string_view, 11> kNames = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA",
                                                                "AtoD",    "DtoA", "DtoD", "HtoH", "PtoP"};
    return kind >= 0 && kind < int64_t(kNames.size()) ? kNames[size_t(kind)] : "Unknown";
}

// nsys's own memory-kind numbering (ENUM_CUDA_MEM_KIND), when the export lacks the table.
std::map<int64_t, std::string> defaultMemKinds() {
    return {{0, "Pageable"}, {1, "Pinned"}, {2, "Device"}, {3, "Array"}, {4, "Managed"}, {5, "Device Static"},
            {6, "Managed Static"}, {7, "Unknown"}};
}

std::map<int64_t, std::string> defaultSyncKinds() {
    return {{0, "Unknown sync"}, {1, "Event sync"}, {2, "Stream wait event"}, {3, "Stream sync"}, {4, "Context sync"}};
}

std::string_view label(const std::map<int64_t, std::string> &labels, int64_t id, std::string_view fallback) {
    const auto it = labels.find(id);
    return it != labels.end() ? std::string_view(it->second) : fallback;
}

// "cudaLaunchKernel_v7000" → "cudaLaunchKernel": nsys keeps the API version in the name.
std::string withoutApiVersion(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v != std::string_view::npos && v + 2 < name.size() &&
        name.find_first_not_of("0123456789", v + 2) == std::string_view::npos)
        return std::string(name.substr(0, v));
    return std::string(name);
}

void appendInt(std::string &out, int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
}

void member(std::string &out, std::string_view key, int64_t v) {
    out += out.size() > 1 ? ",\"" : "\"";
    out += key;
    out += "\":";
    appendInt(out, v);
}

void member(std::string &out, std::string_view key, std::string_view text) {
    out += out.size() > 1 ? ",\"" : "\"";
    out += key;
    out += "\":";
    appendJsonString(out, text);
}

} // namespace

NsysTokenizer::NsysTokenizer(NsysExport &ex, TraceEventBuffer &buffer, const StepNameRules &steps,
                                 ImportContext &ctx, std::function<void(int64_t, int64_t)> progress)
    : m_ex(ex), m_buf(buffer), m_steps(steps), m_ctx(ctx), m_progress(std::move(progress)) {}

bool NsysTokenizer::tick() {
    if (++m_rows % kPollRows != 0)
        return true;
    if (m_progress)
        m_progress(std::min(m_rows, m_estimate), m_estimate);
    return !m_ctx.cancelled();
}

bool NsysTokenizer::read() {
    static const std::array<std::string, 10> kTables = {
        "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",  "CUPTI_ACTIVITY_KIND_MEMSET",
        "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_DRIVER",
        "NVTX_EVENTS", "OSRT_API", "CUDNN_EVENTS", "CUBLAS_EVENTS"};
    m_estimate = 1;
    for (const std::string &t : kTables) {
        if (m_ex.hasTable(t))
            m_estimate += m_ex.rowEstimate(t);
        else if (t != "CUPTI_ACTIVITY_KIND_DRIVER")  // nsys exports it only with --trace=cuda driver
            m_absent.push_back(t);
    }
    m_threadNames = m_ex.threadNames();
    // Threads of one process that share a name ("cuda-EvtHandlr" twice) are told apart by their TID,
    // as Nsight Systems shows them.
    std::map<std::pair<int64_t, std::string>, int> sameName;
    for (const auto &[tid, name] : m_threadNames)
        ++sameName[{NsysExport::pidOf(tid), name}];
    for (auto &[tid, name] : m_threadNames)
        if (sameName[{NsysExport::pidOf(tid), name}] > 1)
            name += " [" + std::to_string(NsysExport::tidOf(tid)) + "]";
    m_processNames = m_ex.processNames();
    m_memKinds = m_ex.enumLabels("ENUM_CUDA_MEM_KIND");
    if (m_memKinds.empty())
        m_memKinds = defaultMemKinds();
    m_syncKinds = m_ex.enumLabels("ENUM_CUPTI_SYNC_TYPE");
    if (m_syncKinds.empty())
        m_syncKinds = defaultSyncKinds();
    decideCorrelationScope();
    m_event = TraceEvent();
    m_event.offset = -1;
    return readGpuWork("CUPTI_ACTIVITY_KIND_KERNEL", 'k') && readGpuWork("CUPTI_ACTIVITY_KIND_MEMCPY", 'c') &&
           readGpuWork("CUPTI_ACTIVITY_KIND_MEMSET", 's') && readSyncRecords() &&
           readApiCalls("CUPTI_ACTIVITY_KIND_RUNTIME", "cuda_runtime", m_counts.runtime) &&
           readApiCalls("CUPTI_ACTIVITY_KIND_DRIVER", "cuda_driver", m_counts.driver) && writeSyncs() && readNvtx() &&
           readApiCalls("OSRT_API", "osrt", m_counts.osrt) && readApiCalls("CUDNN_EVENTS", "cudnn", m_counts.cudnn) &&
           readApiCalls("CUBLAS_EVENTS", "cublas", m_counts.cublas);
}

void NsysTokenizer::decideCorrelationScope() {
    if (!m_ex.hasTable("CUPTI_ACTIVITY_KIND_KERNEL") || !m_ex.db().columns("CUPTI_ACTIVITY_KIND_KERNEL").count("globalPid"))
        return;
    SqliteStatement st(m_ex.db().db(), "SELECT count(DISTINCT globalPid) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    m_kernelProcesses = st.step() ? st.columnInt(0) : 0;
    m_multiProcess = m_kernelProcesses > 1;
}

int64_t NsysTokenizer::qualified(int64_t correlation, int64_t pid) const {
    return m_multiProcess ? (pid << 32) | (correlation & 0xFFFFFFFF) : correlation;
}

void NsysTokenizer::ensureGpuTrack(int64_t device) {
    if (!m_seenDevices.insert(device).second)
        return;
    TraceEvent e;
    e.ph = 'M';
    e.offset = -1;
    const std::string pid = "GPU " + std::to_string(device);
    e.pid = pid;
    e.name = "process_name";
    e.argName = pid;
    m_buf.add(e);
    e.name = "process_sort_index";
    e.sortIndex = (int64_t(1) << 24) + device;  // after the host processes, as Kineto sorts them
    m_buf.add(e);
}

void NsysTokenizer::ensureThread(int64_t globalTid) {
    if (!m_seenThreads.insert(globalTid).second)
        return;
    auto it = m_threadNames.find(globalTid);
    if (it == m_threadNames.end() && NsysExport::tidOf(globalTid) == 0) {
        // Rows of the process as a whole (TID 0), e.g. OS runtime calls nsys could not pin to a thread.
        const auto p = m_processNames.find(NsysExport::pidOf(globalTid));
        if (p == m_processNames.end())
            return;
        it = m_threadNames.emplace(globalTid, p->second + " (process)").first;
    }
    if (it == m_threadNames.end())
        return;
    TraceEvent e;
    e.ph = 'M';
    e.offset = -1;
    const std::string pid = std::to_string(NsysExport::pidOf(globalTid)), tid = std::to_string(NsysExport::tidOf(globalTid));
    e.pid = pid;
    e.tid = tid;
    e.name = "thread_name";
    e.argName = it->second;
    m_buf.add(e);
}

bool NsysTokenizer::readGpuWork(const std::string &table, char kind) {
    if (!m_ex.hasTable(table))
        return true;
    std::vector<std::string> cols = {"start", "end", "deviceId", "streamId", "correlationId", "globalPid"};
    if (kind == 'k')
        cols.insert(cols.end(), {"demangledName", "shortName", "mangledName", "gridX", "gridY", "gridZ", "blockX", "blockY",
                                 "blockZ", "registersPerThread", "staticSharedMemory", "dynamicSharedMemory"});
    else if (kind == 'c')
        cols.insert(cols.end(), {"bytes", "copyKind", "srcKind", "dstKind"});
    else
        cols.insert(cols.end(), {"bytes", "memKind", "value"});
    SqliteStatement st = m_ex.select(table, cols);
    std::string gpuPid, stream;
    int64_t lastDevice = -1, lastStream = -1;
    while (st.step()) {
        if (!tick())
            return false;
        if (st.columnIsNull(0) || st.columnIsNull(1) || st.columnIsNull(2)) {
            ++m_counts.badRows;
            continue;
        }
        int64_t start = 0;
        std::optional<int64_t> endTime;
        if (!readTimes(st, 0, 1, start, endTime))
            continue;
        const int64_t end = endTime.value_or(start), device = st.columnInt(2);
        const int64_t streamId = st.columnIsNull(3) ? 0 : st.columnInt(3);
        const int64_t pid = st.columnIsNull(5) ? 0 : NsysExport::pidOf(st.columnInt(5));
        if (gpuPid.empty() || device != lastDevice || streamId != lastStream) {  // rows come in runs per stream
            ensureGpuTrack(device);
            gpuPid = "GPU " + std::to_string(device);
            stream = "stream " + std::to_string(streamId);
            lastDevice = device;
            lastStream = streamId;
        }
        TraceEvent &e = m_event;
        e = TraceEvent();
        e.offset = -1;
        e.ph = 'X';
        e.pid = gpuPid;
        e.tid = stream;
        e.tsNs = start;
        e.durNs = std::max<int64_t>(0, end - start);
        e.device = device;
        e.stream = streamId;
        m_args = "{";
        member(m_args, "device", device);
        member(m_args, "stream", streamId);
        if (!st.columnIsNull(4)) {
            const int64_t corr = qualified(st.columnInt(4), pid);
            e.correlation = corr;
            member(m_args, "correlation", corr);
            m_launched.insert(corr);
            m_bind = std::to_string(corr);  // the flow from the launching call
            e.bindId = m_bind;
            e.flowIn = true;
        }
        if (kind == 'k') {
            const int64_t nameCol = !st.columnIsNull(6) ? 6 : !st.columnIsNull(7) ? 7 : 8;
            m_name = st.columnIsNull(int(nameCol)) ? std::string("kernel") : std::string(m_ex.text(st.columnInt(int(nameCol))));
            e.cat = "kernel";
            const auto dims = [&](int c) {
                std::string d = "[";
                for (int k = 0; k < 3; ++k) {
                    if (k)
                        d += ',';
                    appendInt(d, st.columnIsNull(c + k) ? 1 : st.columnInt(c + k));
                }
                return d + "]";
            };
            m_args += ",\"grid\":" + dims(9) + ",\"block\":" + dims(12);
            if (!st.columnIsNull(15))
                member(m_args, "registers per thread", st.columnInt(15));
            member(m_args, "shared memory", (st.columnIsNull(16) ? 0 : st.columnInt(16)) + (st.columnIsNull(17) ? 0 : st.columnInt(17)));
            if (!st.columnIsNull(7) && nameCol != 7 && st.columnInt(7) != st.columnInt(int(nameCol)))
                member(m_args, "short name", m_ex.text(st.columnInt(7)));
            ++m_counts.kernels;
        } else if (kind == 'c') {
            const int64_t bytes = st.columnIsNull(6) ? 0 : st.columnInt(6);
            m_name = "Memcpy ";
            m_name += copyKindName(st.columnIsNull(7) ? 0 : st.columnInt(7));
            if (!st.columnIsNull(8) && !st.columnIsNull(9)) {
                m_name += " (";
                m_name += label(m_memKinds, st.columnInt(8), "Unknown");
                m_name += " -> ";
                m_name += label(m_memKinds, st.columnInt(9), "Unknown");
                m_name += ")";
            }
            e.cat = "gpu_memcpy";
            e.bytes = bytes;
            member(m_args, "bytes", bytes);
            ++m_counts.memcpys;
        } else {
            const int64_t bytes = st.columnIsNull(6) ? 0 : st.columnInt(6);
            m_name = "Memset (";
            m_name += st.columnIsNull(7) ? std::string_view("Device") : label(m_memKinds, st.columnInt(7), "Unknown");
            m_name += ")";
            e.cat = "gpu_memset";
            e.bytes = bytes;
            member(m_args, "bytes", bytes);
            if (!st.columnIsNull(8))
                member(m_args, "value", st.columnInt(8));
            ++m_counts.memsets;
        }
        m_args += "}";
        e.name = m_name;
        e.args = m_args;
        m_buf.add(e);
    }
    return true;
}

bool NsysTokenizer::readSyncRecords() {
    const std::string table = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    if (!m_ex.hasTable(table))
        return true;
    SqliteStatement st = m_ex.select(table, {"start", "end", "correlationId", "globalPid", "syncType"});
    while (st.step()) {
        if (!tick())
            return false;
        if (st.columnIsNull(0) || st.columnIsNull(1) || st.columnIsNull(2)) {
            ++m_counts.badRows;
            continue;
        }
        PendingSync s;
        std::optional<int64_t> syncEnd;
        if (!readTimes(st, 0, 1, s.start, syncEnd))
            continue;
        s.end = syncEnd.value_or(s.start);
        s.pid = st.columnIsNull(3) ? 0 : NsysExport::pidOf(st.columnInt(3));
        s.correlation = qualified(st.columnInt(2), s.pid);
        s.syncType = st.columnIsNull(4) ? 0 : st.columnInt(4);
        m_syncWaiter.emplace(s.correlation, -1);
        m_syncs.push_back(s);
    }
    return true;
}

bool NsysTokenizer::writeSyncs() {
    for (const PendingSync &s : m_syncs) {
        const auto it = m_syncWaiter.find(s.correlation);
        if (it == m_syncWaiter.end() || it->second < 0) {
            ++m_counts.unplacedSyncs;
            continue;
        }
        m_args = "{";
        member(m_args, "correlation", s.correlation);
        m_args += "}";
        TraceEvent &e = hostEvent('X', label(m_syncKinds, s.syncType, "Unknown sync"), "cuda_sync", it->second, s.start,
                                   s.end, m_args);
        m_buf.add(e);
        ++m_counts.syncs;
    }
    m_syncs.clear();
    return true;
}

TraceEvent &NsysTokenizer::hostEvent(char ph, std::string_view name, std::string_view cat, int64_t globalTid,
                                        int64_t start, std::optional<int64_t> end, std::string_view args) {
    if (globalTid != m_lastTid || m_pid.empty()) {
        ensureThread(globalTid);
        m_pid = std::to_string(NsysExport::pidOf(globalTid));
        m_tid = std::to_string(NsysExport::tidOf(globalTid));
        m_lastTid = globalTid;
    }
    TraceEvent &e = m_event;
    e = TraceEvent();
    e.offset = -1;
    e.ph = ph;
    e.pid = m_pid;
    e.tid = m_tid;
    e.name = name;
    e.cat = cat;
    e.tsNs = start;
    if (ph == 'X')
        e.durNs = std::max<int64_t>(0, end.value_or(start) - start);
    if (ph == 'i')
        e.scope = 't';
    e.args = args;
    return e;
}

bool NsysTokenizer::readTimes(const SqliteStatement &st, int startCol, int endCol, int64_t &start, std::optional<int64_t> &end) {
    const auto time = [&](int col, int64_t &out) {
        if (st.columnType(col) != SQLITE_INTEGER) return false;  // text or a real read as a number would be a guess
        out = st.columnInt(col);
        return timeInRange(out);
    };
    end.reset();
    int64_t e = 0;
    if (!time(startCol, start) || (endCol >= 0 && !time(endCol, e))) {
        ++m_counts.badTimes;
        return false;
    }
    if (endCol >= 0) {
        if (e < start) {
            ++m_counts.endBeforeStart;
            e = start;
        }
        end = e;
    }
    return true;
}

bool NsysTokenizer::readApiCalls(const std::string &table, const char *category, int64_t &count) {
    if (!m_ex.hasTable(table))
        return true;
    const bool cuda = std::string_view(category).starts_with("cuda");
    std::vector<std::string> cols = {"start", "end", "globalTid", "nameId"};
    if (cuda)
        cols.push_back("correlationId");
    SqliteStatement st = m_ex.select(table, cols);
    std::string args;
    while (st.step()) {
        if (!tick())
            return false;
        if (st.columnIsNull(0) || st.columnIsNull(2) || st.columnIsNull(3)) {
            ++m_counts.badRows;
            continue;
        }
        int64_t callStart = 0;
        std::optional<int64_t> callEnd;
        if (!readTimes(st, 0, st.columnIsNull(1) ? -1 : 1, callStart, callEnd))
            continue;
        const int64_t globalTid = st.columnInt(2), nameId = st.columnInt(3);
        auto name = m_apiNames.find(nameId);
        if (name == m_apiNames.end())
            name = m_apiNames.emplace(nameId, withoutApiVersion(m_ex.text(nameId))).first;
        args.clear();
        std::optional<int64_t> corr;
        if (cuda && !st.columnIsNull(4)) {  // column 4 exists only for the CUDA tables
            corr = qualified(st.columnInt(4), NsysExport::pidOf(globalTid));
            args = "{";
            member(args, "correlation", *corr);
            args += "}";
            if (auto w = m_syncWaiter.find(*corr); w != m_syncWaiter.end())
                w->second = globalTid;
        }
        TraceEvent &e = hostEvent('X', name->second, category, globalTid, callStart, callEnd, args);
        if (corr) {
            e.correlation = corr;
            if (m_launched.count(*corr)) {  // the flow to the kernel, memcpy or memset it launched
                m_bind = std::to_string(*corr);
                e.bindId = m_bind;
                e.flowOut = true;
            }
        }
        m_buf.add(e);
        ++count;
    }
    return true;
}

bool NsysTokenizer::readNvtx() {
    const std::string table = "NVTX_EVENTS";
    if (!m_ex.hasTable(table))
        return true;
    std::unordered_map<int64_t, std::string> domains;
    {
        SqliteStatement st = m_ex.select(table, {"domainId", "text", "textId"}, "WHERE eventType = " + std::to_string(kNvtxDomainCreate));
        while (st.step())
            if (!st.columnIsNull(0))
                domains[st.columnInt(0)] = !st.columnIsNull(1) ? st.columnText(1)
                                           : !st.columnIsNull(2) ? std::string(m_ex.text(st.columnInt(2)))
                                                                 : std::string();
    }
    SqliteStatement st = m_ex.select(table, {"start", "end", "eventType", "globalTid", "text", "textId", "domainId"},
                                     "WHERE eventType IN (" + std::to_string(kNvtxMark) + ", " +
                                         std::to_string(kNvtxPushPop) + ", " + std::to_string(kNvtxStartEnd) + ")");
    std::string args;
    while (st.step()) {
        if (!tick())
            return false;
        if (st.columnIsNull(0) || st.columnIsNull(3)) {
            ++m_counts.badRows;
            continue;
        }
        const bool open = st.columnIsNull(1);  // a range still open when the capture ended
        int64_t rangeStart = 0;
        std::optional<int64_t> rangeEnd;
        if (!readTimes(st, 0, open ? -1 : 1, rangeStart, rangeEnd))
            continue;
        const int64_t type = st.columnInt(2);
        m_name = !st.columnIsNull(4) ? st.columnText(4) : !st.columnIsNull(5) ? std::string(m_ex.text(st.columnInt(5))) : std::string();
        args.clear();
        if (!st.columnIsNull(6)) {
            if (const auto d = domains.find(st.columnInt(6)); d != domains.end() && !d->second.empty()) {
                args = "{";
                member(args, "domain", d->second);
                args += "}";
            }
        }
        if (type == kNvtxMark) {
            m_buf.add(hostEvent('i', m_name, "nvtx", st.columnInt(3), rangeStart, std::nullopt, args));
            ++m_counts.nvtxMarks;
            continue;
        }
        auto step = m_stepTexts.find(m_name);
        if (step == m_stepTexts.end())
            step = m_stepTexts.emplace(m_name, m_steps.match(m_name).has_value()).first;
        // A range still open when the capture ended has no end: a begin without an end, which the
        // buffer keeps running to the end of the trace (and counts).
        m_buf.add(hostEvent(open ? 'B' : 'X', m_name, step->second ? "step" : "nvtx", st.columnInt(3), rangeStart, rangeEnd, args));
        ++m_counts.nvtxRanges;
    }
    return true;
}

} // namespace stepscope
