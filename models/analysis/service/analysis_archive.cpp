#include "models/analysis/service/analysis_archive.h"

#include <bit>
#include <cstring>
#include <map>
#include <type_traits>

namespace stepscope {
namespace {

constexpr char kMagic[4] = {'S', 'S', 'R', 'A'};  // Stepscope run analysis

template <class T> constexpr bool kIsEnum = std::is_enum_v<T>;

// Fixed-width little-endian integers and doubles, u32-counted strings and sequences, a byte before
// each optional. Writer and Reader take the same calls, so one fields() list per struct serves both.
class Writer {
public:
    std::string bytes;

    void raw(uint64_t v, int width) {
        for (int i = 0; i < width; ++i) bytes.push_back(char((v >> (8 * i)) & 0xff));
    }
    void operator()(const int64_t &v) { raw(uint64_t(v), 8); }
    void operator()(const int32_t &v) { raw(uint32_t(v), 4); }
    void operator()(const uint32_t &v) { raw(v, 4); }
    void operator()(const double &v) { raw(std::bit_cast<uint64_t>(v), 8); }
    void operator()(const bool &v) { raw(v ? 1 : 0, 1); }
    void operator()(const std::string &v) {
        raw(uint32_t(v.size()), 4);
        bytes += v;
    }
    template <class E> requires kIsEnum<E> void operator()(const E &v) { raw(uint32_t(v), 4); }
    template <class T> void operator()(const std::optional<T> &v) {
        (*this)(v.has_value());
        if (v) (*this)(*v);
    }
    template <class T> void operator()(const std::vector<T> &v) {
        raw(uint32_t(v.size()), 4);
        for (const T &x : v) (*this)(x);
    }
    template <class T, size_t N> void operator()(const std::array<T, N> &v) {
        for (const T &x : v) (*this)(x);
    }
    template <class K, class V> void operator()(const std::map<K, V> &m) {
        raw(uint32_t(m.size()), 4);
        for (const auto &[k, v] : m) {
            (*this)(k);
            (*this)(v);
        }
    }
    template <class S> requires std::is_class_v<S> void operator()(const S &s) { fields(*this, const_cast<S &>(s)); }
};

class Reader {
public:
    explicit Reader(std::string_view bytes) : m_bytes(bytes) {}
    size_t offset() const { return m_pos; }
    size_t left() const { return m_bytes.size() - m_pos; }

    [[noreturn]] void fail(const std::string &why) const {
        throw ArchiveError("stored analysis, byte " + std::to_string(m_pos) + ": " + why);
    }
    uint64_t raw(int width) {
        if (left() < size_t(width)) fail("ends inside a field (" + std::to_string(left()) + " bytes left)");
        uint64_t v = 0;
        for (int i = 0; i < width; ++i) v |= uint64_t(uint8_t(m_bytes[m_pos + size_t(i)])) << (8 * i);
        m_pos += size_t(width);
        return v;
    }
    // A stored count: each of its items takes at least one byte, so it cannot exceed the bytes left.
    size_t count() {
        const uint32_t n = uint32_t(raw(4));
        if (n > left()) fail("a count of " + std::to_string(n) + " with only " + std::to_string(left()) + " bytes left");
        return n;
    }
    void operator()(int64_t &v) { v = int64_t(raw(8)); }
    void operator()(int32_t &v) { v = int32_t(uint32_t(raw(4))); }
    void operator()(uint32_t &v) { v = uint32_t(raw(4)); }
    void operator()(double &v) { v = std::bit_cast<double>(raw(8)); }
    void operator()(bool &v) {
        const uint64_t b = raw(1);
        if (b > 1) fail("a flag of " + std::to_string(b));
        v = b == 1;
    }
    void operator()(std::string &v) {
        const size_t n = count();
        v.assign(m_bytes.substr(m_pos, n));
        m_pos += n;
    }
    template <class E> requires kIsEnum<E> void operator()(E &v) {
        const uint32_t x = uint32_t(raw(4));
        if (x > uint32_t(maxOf(E{}))) fail("an out-of-range value " + std::to_string(x));
        v = E(x);
    }
    template <class T> void operator()(std::optional<T> &v) {
        bool present = false;
        (*this)(present);
        v.reset();
        if (present) (*this)(v.emplace());
    }
    template <class T> void operator()(std::vector<T> &v) {
        const size_t n = count();
        v.clear();  // grown item by item: never sized by the count alone
        for (size_t i = 0; i < n; ++i) (*this)(v.emplace_back());
    }
    template <class T, size_t N> void operator()(std::array<T, N> &v) {
        for (T &x : v) (*this)(x);
    }
    template <class K, class V> void operator()(std::map<K, V> &m) {
        const size_t n = count();
        m.clear();
        for (size_t i = 0; i < n; ++i) {
            K k{};
            (*this)(k);
            (*this)(m[k]);
        }
    }
    template <class S> requires std::is_class_v<S> void operator()(S &s) { fields(*this, s); }

private:
    static constexpr StepSource maxOf(StepSource) { return StepSource::WholeTrace; }
    static constexpr GapCause maxOf(GapCause) { return GapCause::Other; }
    static constexpr FindingSeverity maxOf(FindingSeverity) { return FindingSeverity::High; }

    std::string_view m_bytes;
    size_t m_pos = 0;
};

// The field lists. A field added to one of these structs is added here, and kFormatVersion raised.
template <class A> void fields(A &a, AnalysisStep &s) {
    a(s.step), a(s.start), a(s.end), a(s.hostStart), a(s.hostEnd), a(s.gpuOps);
}
template <class A> void fields(A &a, StepTimeline &t) { a(t.steps), a(t.source); }
template <class A> void fields(A &a, Breakdown &b) {  // not unions/exclusive: see the header
    a(b.preset), a(b.types), a(b.labels), a(b.perStepNs), a(b.totalNs), a(b.stepTotalNs);
}
template <class A> void fields(A &a, TfDataStage &s) { a(s.name), a(s.kind), a(s.label), a(s.selfNs), a(s.count); }
template <class A> void fields(A &a, TfDataSummary &t) { a(t.stages), a(t.totalSelfNs); }
template <class A> void fields(A &a, GpuGap &g) {
    a(g.start), a(g.dur), a(g.device), a(g.stream), a(g.cause), a(g.hostActivity), a(g.overlapping);
}
template <class A> void fields(A &a, GapTotals &t) { a(t.count), a(t.totalNs), a(t.byCauseNs); }
template <class A> void fields(A &a, StreamGaps &s) { a(s.stream), a(s.device), a(s.totals); }
template <class A> void fields(A &a, GapAnalysis &g) { a(g.device), a(g.byHostActivityNs), a(g.streams), a(g.top); }
template <class A> void fields(A &a, KernelDetails &k) { a(k.grid), a(k.block), a(k.registers), a(k.sharedMemory); }
template <class A> void fields(A &a, OpEfficiency &e) {
    a(e.flops), a(e.bytes), a(e.timeNs), a(e.dtype), a(e.op), a(e.shapes), a(e.peakTflops), a(e.peakGbps), a(e.pctOfPeak), a(e.bound);
}
template <class A> void fields(A &a, OpStat &o) {
    a(o.name), a(o.nameId), a(o.device), a(o.count), a(o.totalNs), a(o.selfNs), a(o.minNs), a(o.maxNs), a(o.kernel), a(o.efficiency);
}
template <class A> void fields(A &a, OutlierStep &o) { a(o.step), a(o.durNs), a(o.cause); }
template <class A> void fields(A &a, Projection &p) {
    a(p.category), a(p.currentStepTimeMs), a(p.stepTimeMs), a(p.speedup), a(p.currentSamplesPerSecond),
        a(p.samplesPerSecond), a(p.method), a(p.perStepNs);
}
template <class A> void fields(A &a, Finding &f) {
    a(f.rule), a(f.severity), a(f.title), a(f.detail), a(f.recommendation), a(f.steps), a(f.startNs), a(f.endNs),
        a(f.projection);
}
template <class A> void fields(A &a, CrossCheck &c) {
    a(c.tool), a(c.kind), a(c.file), a(c.inputPct), a(c.verdict), a(c.deviceType), a(c.topOpsJson),
        a(c.stepscopeInputPct), a(c.agree);
}
template <class A> void fields(A &a, MemorySummary &m) {
    a(m.source), a(m.device), a(m.deviceTotalBytes), a(m.staticBytes), a(m.peakBytes), a(m.peakReservedBytes),
        a(m.fragmentationPct), a(m.safetyMarginPct), a(m.outsideBytes), a(m.batchSize), a(m.maxBatchSize), a(m.note),
        a(m.perStepPeakBytes);
}
template <class A> void fields(A &a, StepCollective &c) { a(c.startNs), a(c.durNs); }
template <class A> void fields(A &a, StreamQueueDepth &q) { a(q.stream), a(q.device), a(q.maxDepth); }
template <class A> void fields(A &a, KernelStats &k) {
    a(k.count), a(k.medianUs), a(k.shortPct), a(k.launchDelayP50Us), a(k.launchDelayP95Us), a(k.queueDepthMax);
}
template <class A> void fields(A &a, CriticalPathSegment &s) { a(s.start), a(s.end), a(s.trackId), a(s.type); }
template <class A> void fields(A &a, StepCriticalPath &s) { a(s.lengthNs), a(s.perTypeNs), a(s.segments); }
template <class A> void fields(A &a, NamedDuration &d) { a(d.name), a(d.ns); }
template <class A> void fields(A &a, CriticalPath &c) { a(c.steps), a(c.totalPerTypeNs), a(c.totalLengthNs), a(c.topNames); }
template <class A> void fields(A &a, CollectiveStat &c) {
    a(c.name), a(c.count), a(c.sized), a(c.bytes), a(c.timeNs), a(c.sizedTimeNs), a(c.exposedNs), a(c.groupSize), a(c.algbwGbps),
        a(c.busbwGbps);
}
template <class A> void fields(A &a, RunAnalysis &r) {
    a(r.steps), a(r.breakdown), a(r.presetBreakdown), a(r.categoryType), a(r.gpuBusyPct), a(r.computeCoveragePct),
        a(r.gpuTraced), a(r.gpuMetrics), a(r.bottleneck), a(r.bottleneckDetail), a(r.bottleneckEvidence),
        a(r.inputTracedBusyFraction), a(r.tfData), a(r.batchSize), a(r.batchSizeSource), a(r.batchSizeEvidence),
        a(r.samplesPerSecond), a(r.samplesPerSecondPerStep), a(r.gaps), a(r.ops), a(r.outliers), a(r.findings),
        a(r.crossChecks), a(r.projection), a(r.memory), a(r.firstCollective), a(r.kernels), a(r.criticalPath), a(r.collectives);
}

// What the views index by without checking, checked once here: each breakdown has a row per step
// and a value per type, a category maps to one of its types, per-step series have one value per
// step (or none). Throws ArchiveError naming the first that does not hold.
void checkShape(const RunAnalysis &r) {
    const size_t steps = r.steps.steps.size();
    auto fail = [](const std::string &why) { throw ArchiveError("stored analysis: " + why); };
    auto checkBreakdown = [&](const Breakdown &b, const char *name) {
        const size_t types = b.types.size();
        if (b.labels.size() != types || b.totalNs.size() != types) fail(std::string(name) + ": labels or totals do not match its types");
        if (b.perStepNs.size() != steps) fail(std::string(name) + ": " + std::to_string(b.perStepNs.size()) + " step rows for " + std::to_string(steps) + " steps");
        for (const auto &row : b.perStepNs)
            if (row.size() != types) fail(std::string(name) + ": a step row of " + std::to_string(row.size()) + " types, not " + std::to_string(types));
    };
    checkBreakdown(r.breakdown, "breakdown");
    if (r.presetBreakdown) checkBreakdown(*r.presetBreakdown, "preset breakdown");
    for (const int t : r.categoryType)
        if (t < -1 || t >= int(r.breakdown.types.size())) fail("a category mapped to type " + std::to_string(t));
    auto perStep = [&](size_t n, const char *name, bool optional) {
        if (n != steps && !(optional && n == 0)) fail(std::string(name) + ": " + std::to_string(n) + " values for " + std::to_string(steps) + " steps");
    };
    perStep(r.firstCollective.size(), "first collectives", false);
    if (r.criticalPath) {
        perStep(r.criticalPath->steps.size(), "critical path", false);
        const size_t types = r.breakdown.types.size();
        if (r.criticalPath->totalPerTypeNs.size() != types) fail("critical path: totals do not match the types");
        for (const StepCriticalPath &s : r.criticalPath->steps) {
            if (s.perTypeNs.size() != types) fail("critical path: a step's totals do not match the types");
            for (const CriticalPathSegment &g : s.segments)
                if (g.type < -1 || g.type >= int(types) || g.end < g.start) fail("critical path: a segment out of range");
        }
    }
    perStep(r.samplesPerSecondPerStep.size(), "samples per second", true);
    if (r.memory) perStep(r.memory->perStepPeakBytes.size(), "memory peaks", true);
    if (r.projection) perStep(r.projection->perStepNs.size(), "projection", true);
    for (const Finding &f : r.findings)
        if (f.projection) perStep(f.projection->perStepNs.size(), "a finding's projection", true);
}

} // namespace

std::string AnalysisArchive::encode(const RunAnalysis &analysis) {
    Writer w;
    w.bytes.append(kMagic, sizeof kMagic);
    w(kFormatVersion);
    w(analysis);
    return std::move(w.bytes);
}

RunAnalysis AnalysisArchive::decode(std::string_view bytes) {
    if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
        throw ArchiveError("stored analysis: not a Stepscope analysis (no SSRA header)");
    Reader r(bytes.substr(sizeof kMagic));
    uint32_t version = 0;
    r(version);
    if (version != kFormatVersion)
        throw ArchiveError("stored analysis: format " + std::to_string(version) + ", this Stepscope reads format " +
                           std::to_string(kFormatVersion));
    RunAnalysis analysis;
    r(analysis);
    if (r.left() != 0) r.fail(std::to_string(r.left()) + " bytes after the end");
    checkShape(analysis);
    return analysis;
}

} // namespace stepscope
