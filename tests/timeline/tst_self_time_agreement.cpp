// Self time has one rule (slice_self_time), and the three places that show it agree: the op table
// (OpStatsAnalyzer, over the analysis' loaded events), the selection table (RangeAggregateModel,
// over the session for a range) and the details pane (TimelineModel::details, one slice). On a trace
// with nesting three deep, a slice that overlaps its predecessor without nesting (an overflow row:
// nobody's child, its neighbour keeps its whole self time), two identical spans (the second nests
// in the first) and ranges whose edges cut through parents and children.

#include "models/analysis/report/report_builder.h"
#include "models/timeline/range_aggregate_model.h"
#include "models/timeline/timeline_model.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <map>

using namespace stepscope;
using namespace stepscope::test;
namespace fs = std::filesystem;

namespace {

struct Span {
    const char *name;
    int64_t startUs, durUs;
};

// One host thread; times in µs from 1000.
const std::vector<Span> kSpans = {
    {"A", 0, 100},  {"B", 10, 40},  {"C", 20, 10},  {"D", 60, 30},   // A ⊃ B ⊃ C, A ⊃ D
    {"E", 95, 35},                                                   // starts in A, ends after it: overflow
    {"F", 200, 100}, {"G", 250, 10}, {"H", 290, 10},                 // F ⊃ G, H (H ends with F)
    {"I", 400, 50}, {"J", 400, 50},                                  // identical spans: J inside I
    {"C", 420, 5},                                                   // C again, inside J
};

std::string traceJson() {
    std::string out = R"({"traceEvents":[{"ph":"M","pid":1,"name":"process_name","args":{"name":"python"}})";
    for (const Span &s : kSpans)
        out += ",{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"" + std::string(s.name) + "\",\"ts\":" +
               std::to_string(1000 + s.startUs) + ",\"dur\":" + std::to_string(s.durUs) + "}";
    return out + "]}";
}

using ByName = std::map<std::string, std::pair<int64_t, int64_t>>;  // name → (count, self ns)

} // namespace

class TstSelfTimeAgreement : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<ImportedSession> m_session;
    TimelineModel m_timeline;

    // Details pane: every slice starting in [from, to) (absolute ns), summed by name.
    ByName fromDetails(int64_t from, int64_t to) {
        ByName out;
        SqliteStatement st(m_session->store->db(), "SELECT s.id FROM slice s");
        while (st.step()) {
            const SliceDetails d = m_timeline.details(st.columnInt(0));
            if (d.startNs < from || d.startNs >= to) continue;
            auto &[count, self] = out[d.name.toStdString()];
            ++count;
            self += d.selfNs;
        }
        return out;
    }
    // Selection table for [from, to).
    ByName fromSelection(int64_t from, int64_t to) {
        RangeAggregateModel selection(&m_timeline);
        selection.setRange(NsRange{from, to});
        ByName out;
        for (const RangeAggregateModel::Row &r : selection.rows()) out[r.name.toStdString()] = {r.count, r.selfNs};
        return out;
    }

private slots:
    void initTestCase() {
        const fs::path trace = fs::path(m_dir.path().toStdString()) / "self.trace.json";
        std::ofstream(trace) << traceJson();
        m_session = std::make_unique<ImportedSession>(std::vector<fs::path>{trace});
        m_timeline.setBackgroundLoading(false);
        m_timeline.load(m_session->store.get());
        QVERIFY(!m_timeline.tracks().empty());
    }

    void wholeRunAgreesEverywhere() {
        const Report r = m_session->report();
        QCOMPARE(r.runs.size(), size_t(1));
        ByName ops;
        for (const OpStat &o : r.runs[0].analysis.ops) ops[o.name] = {o.count, o.selfNs};
        const int64_t base = m_timeline.tracks().front().baseNs;
        const ByName details = fromDetails(INT64_MIN, INT64_MAX);
        const ByName selection = fromSelection(base - 1, base + 1'000'000'000);
        QCOMPARE(details, ops);
        QCOMPARE(selection, ops);
        // The rule itself: A loses B and D (not E, which overlaps without nesting), F loses G and H,
        // I loses J (identical span), J loses the second C.
        const auto self = [&](const char *n) { return ops.at(n).second / 1000; };
        QCOMPARE(self("A"), int64_t(100 - 40 - 30));
        QCOMPARE(self("B"), int64_t(40 - 10));
        QCOMPARE(self("E"), int64_t(35));
        QCOMPARE(self("F"), int64_t(100 - 10 - 10));
        QCOMPARE(self("I"), int64_t(0));
        QCOMPARE(self("J"), int64_t(50 - 5));
        QCOMPARE(ops.at("C"), std::make_pair(int64_t(2), int64_t(10 + 5) * 1000));
    }

    void rangeEdgesCutThroughParents_data() {
        QTest::addColumn<int>("fromUs");
        QTest::addColumn<int>("toUs");
        QTest::newRow("children without their parent") << 10 << 60;
        QTest::newRow("parent without its late children") << 200 << 260;
        QTest::newRow("the overflow slice alone") << 95 << 96;
        QTest::newRow("identical spans") << 400 << 401;
    }
    void rangeEdgesCutThroughParents() {
        QFETCH(int, fromUs);
        QFETCH(int, toUs);
        const int64_t base = m_timeline.tracks().front().baseNs + 1000 * 1000;  // the trace's 1000 µs
        const int64_t from = base + fromUs * 1000, to = base + toUs * 1000;
        const ByName details = fromDetails(from, to);
        QVERIFY(!details.empty());
        // A slice's self time is its own, whatever part of its family the range holds.
        QCOMPARE(fromSelection(from, to), details);
    }
};

QTEST_MAIN(TstSelfTimeAgreement)
#include "tst_self_time_agreement.moc"
