#pragma once
// A tiny session builder for the analysis tests: one run with host threads and GPU streams, slices
// given in milliseconds or nanoseconds, step markers and metrics — so that every expected number of a
// test can be computed by hand. Slices are nested per track as the importers nest them (SliceNester)
// and written parents first when the fixture commits.

#include "importers/common/op_cost.h"
#include "importers/common/slice_nester.h"
#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/store/session_writer.h"

#include <QTemporaryDir>

#include <deque>
#include <map>
#include <memory>

namespace stepscope::test {

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kUs = 1'000;

class AnalysisFixture {
public:
    explicit AnalysisFixture(int64_t timeBaseNs = 0, const std::string &device = {}) {
        m_store = std::make_unique<SessionStore>(m_dir.filePath("s.stepscope").toStdString());
        m_writer = std::make_unique<SessionWriter>(*m_store);
        m_writer->begin();
        m_source = m_writer->addSource("/trace.json", "chrome", 1);
        RunInfo run;
        run.name = "worker0";
        run.timeBaseNs = timeBaseNs;
        run.device = device;
        m_run = m_writer->addRun(m_source, run);
        host = thread("python");
    }
    int64_t thread(const std::string &name) { return m_writer->addTrack(m_run, {TrackKind::HostThread, std::nullopt, name, "1", name, 0}); }
    int64_t stream(int device, const std::string &name) {
        return m_writer->addTrack(m_run, {TrackKind::GpuStream, device, name, std::to_string(device), name, 0});
    }
    // Times in ns relative to the run's base; `args` the raw args JSON (empty: none).
    void slice(int64_t track, const std::string &name, const std::string &cat, int64_t start, int64_t end,
               std::optional<int64_t> correlation = std::nullopt, const std::string &args = {}) {
        SliceRow r;
        r.trackId = track;
        r.startNs = start;
        r.durNs = end - start;
        r.nameId = m_writer->intern(name);
        r.categoryId = m_writer->intern(cat);
        r.correlation = correlation;
        r.argsJson = m_args.emplace_back(args);
        m_pending[track].push_back(r);
        m_names[track].push_back(name);
    }
    void step(int64_t n, int64_t start, int64_t end) { m_writer->addStep(m_run, n, start, end - start); }
    int64_t metric(const std::string &name, std::optional<int64_t> device, const std::vector<std::pair<int64_t, double>> &samples,
                   const std::string &unit = "%") {
        const int64_t id = m_writer->addMetricSeries(m_source, "", name, device, unit, 1'000'000'000);
        for (const auto &[t, v] : samples) m_writer->addMetricSample(id, t, v);
        return id;
    }
    SessionWriter &writer() { return *m_writer; }
    void commit() {
        writeSlices();
        m_writer->commit();
    }

    RunAnalysis analyze(const AnalysisOptions &options = {}) {
        if (m_writer->active()) commit();
        writeSlices();
        const CategoryRules rules = CategoryRules::load();
        return RunAnalyzer(*m_store, rules).analyze(SessionReader(*m_store).runs().front(), options);
    }
    SessionStore &store() {
        writeSlices();
        return *m_store;
    }

    int64_t host = 0;

private:
    void writeSlices() {
        for (auto &[track, rows] : m_pending) {
            std::vector<SliceNester::Span> spans;
            for (const SliceRow &r : rows) spans.push_back({r.startNs, r.durNs});
            SliceNester nester;
            nester.nest(spans);
            std::vector<int64_t> ids(rows.size(), 0);
            for (const uint32_t i : nester.order()) {
                SliceRow &r = rows[i];
                r.depth = nester.depth(i);
                if (nester.parent(i) != SliceNester::kNone) r.parentId = ids[size_t(nester.parent(i))];
                ids[i] = m_writer->addSlice(r);
                // What an importer stores beside an op whose args say what it costs.
                if (auto cost = OpCostModel::costRow(m_names[track][i], r.argsJson)) {
                    cost->sliceId = ids[i];
                    cost->trackId = track;
                    cost->startNs = r.startNs;
                    cost->nameId = r.nameId;
                    m_writer->addSliceCost(*cost);
                }
            }
        }
        m_pending.clear();
        m_names.clear();
    }

    QTemporaryDir m_dir;
    std::unique_ptr<SessionStore> m_store;
    std::unique_ptr<SessionWriter> m_writer;
    int64_t m_source = 0, m_run = 0;
    std::map<int64_t, std::vector<SliceRow>> m_pending;  // by track, until commit()
    std::map<int64_t, std::vector<std::string>> m_names;  // their names
    std::deque<std::string> m_args;
};

} // namespace stepscope::test
