// Truth check on real PyTorch profiler traces (kineto_tbplugin_2021legacy, ResNet-50): with
// num_workers=0 the run is input-bound; with num_workers=4 it is not. A folder of per-rank traces
// (HTA's trace_filter: ranks 0 and 1 of 128) becomes one session with one run per rank.

#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QtTest>

#include <map>

using namespace stepscope;

class TestSamplesAnalysis : public QObject {
    Q_OBJECT
private slots:
    void numWorkers() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const auto dir = samples / "kineto_tbplugin_2021legacy";
        test::ImportedSession w0({dir / "resnet50_profiler_api_num_workers_0"});
        test::ImportedSession w4({dir / "resnet50_profiler_api_num_workers_4"});
        const RunAnalysis a0 = w0.report().runs.at(0).analysis, a4 = w4.report().runs.at(0).analysis;
        QCOMPARE(a0.bottleneck, std::string("input"));
        QVERIFY(a0.categoryPct(Category::Input) >= 20);  // TF: highly input-bound
        auto has = [](const RunAnalysis &a, const std::string &rule) {
            return std::any_of(a.findings.begin(), a.findings.end(), [&](const Finding &f) { return f.rule == rule; });
        };
        QVERIFY(has(a0, "pt_dataloader"));
        QVERIFY(a4.bottleneck != "input");
        QVERIFY(a4.categoryPct(Category::Input) < 5);
        QVERIFY(!has(a4, "pt_dataloader"));
    }

    void folderOfRanksIsOneSession() {
        // Counted with Python's json module: rank 0 has 4811 complete events, rank 1 4676; two
        // ProfilerStep# markers each; distributedInfo says nccl, world size 128.
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::ImportedSession s({samples / "hta/trace_filter"});
        const Report report = s.report();
        QCOMPARE(report.sources.size(), size_t(2));
        QCOMPARE(report.runs.size(), size_t(2));
        std::map<int64_t, const RunReport *> byRank;
        for (const RunReport &r : report.runs) {
            QVERIFY(r.run.rank.has_value());
            byRank[*r.run.rank] = &r;
        }
        QCOMPARE(byRank.size(), size_t(2));
        QVERIFY(byRank.count(0) && byRank.count(1));
        QCOMPARE(byRank[0]->steps.size(), size_t(2));
        QCOMPARE(byRank[1]->steps.size(), size_t(2));
        // Every run analysed: the report covers both ranks.
        for (const auto &[rank, r] : byRank) {
            QVERIFY2(!r->analysis.bottleneck.empty(), qPrintable(QString("rank %1").arg(rank)));
            QVERIFY(r->events > 0);
        }
        SqliteStatement st(s.store->db(), "SELECT count(*) FROM slice s JOIN track t ON t.id = s.track_id JOIN run r "
                                          "ON r.id = t.run_id WHERE r.rank = ?1");
        int64_t counts[2] = {};
        for (int64_t rank : {0, 1}) {
            st.reset();
            st.bind(1, rank);
            QVERIFY(st.step());
            counts[rank] = st.columnInt(0);
        }
        // The files hold only complete ("X") and metadata events: one slice per complete event.
        QCOMPARE(counts[0], int64_t(4811));
        QCOMPARE(counts[1], int64_t(4676));
    }
};

QTEST_GUILESS_MAIN(TestSamplesAnalysis)
#include "tst_samples_analysis.moc"
