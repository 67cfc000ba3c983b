// A background analysis is cancelled, not waited for (issue #19 item 1): destroying the session's
// models while a big run is being analysed returns in a fraction of the analysis time; a new
// session drops the running analysis without delivering it; a raised flag stops RunAnalyzer.

#include "app/cli/input_session.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_model.h"
#include "models/concurrency/cancel_token.h"
#include "tests/test_support.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace stepscope;

class TestAnalysisModelCancel : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_file;
    RunRow m_run;
    qint64 m_analysisMs = 0;  // how long the whole analysis takes on this machine

    std::unique_ptr<SessionModel> openSession() const {
        auto session = std::make_unique<SessionModel>();
        session->setStore(std::make_unique<SessionStore>(m_file));
        AnalysisModel::of(session.get())->setBackgroundThreshold(0);  // every run is big
        return session;
    }

private slots:
    void initTestCase() {
        stepscope::test::isolateSettings();
        synth::SyntheticProfileOptions o;
        o.targetEvents = 1'000'000;
        o.gzipLevel = 1;
        const std::filesystem::path trace = m_dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(trace, {});
        m_file = m_dir.filePath("s.stepscope").toStdString();
        SessionStore store(m_file);
        std::ostringstream out, err;
        cli::importInto(store, {trace}, {out, err, false});
        m_run = SessionReader(store).runs().at(0);
        QElapsedTimer t;
        t.start();
        const RunAnalysis a = RunAnalyzer(store, CategoryRules::load()).analyze(m_run);
        m_analysisMs = t.elapsed();
        QVERIFY(!a.steps.steps.empty());
        qInfo("analysis of %lld events: %lld ms", qint64(o.targetEvents), m_analysisMs);
        QVERIFY2(m_analysisMs >= 100, "the fixture must take long enough to interrupt");
    }

    void aRaisedFlagStopsTheAnalyzer() {
        SessionStore store(m_file, SessionStore::Mode::ReadOnly);
        const CancelToken cancel;
        cancel.cancel();
        QVERIFY_THROWS_EXCEPTION(AnalysisCancelled, RunAnalyzer(store, CategoryRules::load()).analyze(m_run, {}, cancel));
    }

    // Destroying the session part-way through its analysis lets the analysis go (how fast:
    // bench_cancel); nothing of it is stored, and a new session starts it afresh.
    void destroyingTheSessionDuringTheAnalysisLetsItGo() {
        auto session = openSession();
        AnalysisModel *analysis = AnalysisModel::of(session.get());
        QVERIFY(!analysis->analysisOrStart(m_run.id));
        QVERIFY(analysis->pending(m_run.id));
        QTest::qWait(int(m_analysisMs / 4));  // well into reading the trace
        QVERIFY(analysis->pending(m_run.id));
        session.reset();
        // Nothing of the dropped analysis was stored: a new session starts it afresh.
        auto again = openSession();
        AnalysisModel *next = AnalysisModel::of(again.get());
        QVERIFY(!next->analysisOrStart(m_run.id));
        QVERIFY(next->pending(m_run.id));
    }

    void aNewSessionDropsTheRunningAnalysis() {
        auto session = openSession();
        AnalysisModel *analysis = AnalysisModel::of(session.get());
        QVERIFY(!analysis->analysisOrStart(m_run.id));
        QTest::qWait(int(m_analysisMs / 4));
        QSignalSpy changed(analysis, &AnalysisModel::changed);
        session->setStore(std::make_unique<SessionStore>(m_file));  // not waited for (bench_cancel)
        QVERIFY(!analysis->pending(m_run.id));
        QCOMPARE(changed.count(), 1);  // the new session's
        QTest::qWait(int(m_analysisMs * 3 / 2));
        QCOMPARE(changed.count(), 1);  // the old analysis never lands
        // The new session's analysis runs and arrives as usual.
        QVERIFY(!analysis->analysisOrStart(m_run.id));
        QTRY_VERIFY_WITH_TIMEOUT(analysis->analysisOrStart(m_run.id) != nullptr, int(m_analysisMs * 10 + 5000));
    }
};

QTEST_GUILESS_MAIN(TestAnalysisModelCancel)
#include "tst_analysis_model_cancel.moc"
