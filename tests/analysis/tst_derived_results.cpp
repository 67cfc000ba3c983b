// Derived results are data (issue #19 item 3): a run's analysis is written to its session keyed by
// a digest of its inputs, read back byte for byte, queried through v_step_breakdown, v_finding,
// v_op_stat, v_gpu_gap and v_analysis_step, and a re-open reads it instead of analysing again —
// unless an input changed or the stored bytes cannot be read, when it is analysed and replaced.

#include "app/cli/command_line.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/service/analysis_archive.h"
#include "models/analysis/service/analysis_model.h"
#include "models/analysis/service/derived_results.h"
#include "models/analysis/report/report_formatter.h"
#include "models/store/sqlite_statement.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

#include <QElapsedTimer>
#include <QtTest>

#include <iostream>
#include <random>

using namespace stepscope;

namespace {

int64_t count(const SessionStore &store, const std::string &sql) {
    SqliteStatement st(store.db(), sql);
    return st.step() ? st.columnInt(0) : -1;
}

} // namespace

class TestDerivedResults : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_trace, m_csv;
    std::unique_ptr<test::ImportedSession> m_session;
    RunRow m_run;
    RunAnalysis m_analysis;
    AnalysisOptions m_options;

    // A session file of its own for a test that changes it.
    std::string copyOfSession(const QString &name) const {
        const std::string file = m_dir.filePath(name).toStdString();
        std::filesystem::remove(file);
        m_session->store->saveCopyTo(file);
        return file;
    }
    static std::unique_ptr<SessionModel> open(const std::string &file) {
        auto session = std::make_unique<SessionModel>();
        session->setStore(std::make_unique<SessionStore>(file));
        return session;
    }

private slots:
    void initTestCase() {
        test::isolateSettings();
        synth::SyntheticProfileOptions o;
        o.steps = 12;
        o.bottleneck = *synth::parseBottleneck("input");
        o.profileMemory = true;
        m_trace = m_dir.filePath("t.pt.trace.json.gz").toStdString();
        m_csv = m_dir.filePath("nvidia-smi.csv").toStdString();
        synth::SyntheticProfileGenerator(o).generate(m_trace, m_csv);
        m_session = std::make_unique<test::ImportedSession>(std::vector<std::filesystem::path>{m_trace, m_csv});
        m_run = SessionReader(*m_session->store).runs().front();
        m_options.batchSize = 128;
        m_analysis = RunAnalyzer(*m_session->store, CategoryRules::load()).analyze(m_run, m_options);
        // Every part of the analysis is there to be kept.
        QVERIFY(m_analysis.steps.steps.size() == 12 && !m_analysis.findings.empty() && !m_analysis.ops.empty());
        QVERIFY(!m_analysis.gaps.top.empty() && m_analysis.projection && m_analysis.memory);
        QVERIFY(!m_analysis.samplesPerSecondPerStep.empty() && !m_analysis.firstCollective.empty());
    }

    void archiveKeepsEveryField() {
        const std::string bytes = AnalysisArchive::encode(m_analysis);
        const RunAnalysis back = AnalysisArchive::decode(bytes);
        QCOMPARE(AnalysisArchive::encode(back), bytes);  // nothing lost or changed on the way back
        // The report of the read-back analysis is the report of the analysis.
        Report report = m_session->report();
        report.runs[0].analysis = m_analysis;
        const std::string direct = ReportFormatter::json(report);
        report.runs[0].analysis = back;
        QCOMPARE(QString::fromStdString(ReportFormatter::json(report)), QString::fromStdString(direct));
        QCOMPARE(back.findings.size(), m_analysis.findings.size());
        QCOMPARE(back.projection->perStepNs, m_analysis.projection->perStepNs);
        QCOMPARE(back.memory->perStepPeakBytes, m_analysis.memory->perStepPeakBytes);
        QCOMPARE(back.breakdown.perStepNs, m_analysis.breakdown.perStepNs);
    }

    void damagedBytesAreRefused() {
        const std::string bytes = AnalysisArchive::encode(m_analysis);
        QVERIFY_THROWS_EXCEPTION(ArchiveError, AnalysisArchive::decode("not an analysis"));
        std::string version = bytes;
        version[4] = char(99);
        QVERIFY_THROWS_EXCEPTION(ArchiveError, AnalysisArchive::decode(version));
        for (const size_t cut : {size_t(9), bytes.size() / 3, bytes.size() / 2, bytes.size() - 1}) {
            try {
                AnalysisArchive::decode(std::string_view(bytes).substr(0, cut));
                QFAIL(qPrintable(QString("a copy cut at byte %1 was read").arg(cut)));
            } catch (const ArchiveError &e) {
                QVERIFY2(QString(e.what()).contains("byte"), e.what());
            }
        }
        // The first count (the steps) claims four billion items: refused before anything is sized by it.
        std::string huge = bytes;
        for (int i = 8; i < 12; ++i) huge[size_t(i)] = char(0xff);
        try {
            AnalysisArchive::decode(huge);
            QFAIL("a count of 4 billion was read");
        } catch (const ArchiveError &e) {
            QVERIFY2(QString(e.what()).contains("count of 4294967295"), e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ArchiveError, AnalysisArchive::decode(bytes + "x"));
        // Well-formed bytes of a shape the views would index out of: refused, naming the part.
        auto refusedShape = [](RunAnalysis a, const QString &part) {
            try {
                AnalysisArchive::decode(AnalysisArchive::encode(a));
                return false;
            } catch (const ArchiveError &e) {
                return QString(e.what()).contains(part);
            }
        };
        RunAnalysis bad = m_analysis;
        bad.categoryType[0] = 40;
        QVERIFY(refusedShape(bad, "category mapped to type 40"));
        bad = m_analysis;
        bad.breakdown.perStepNs.pop_back();
        QVERIFY(refusedShape(bad, "breakdown: 11 step rows for 12 steps"));
        bad = m_analysis;
        bad.breakdown.perStepNs[3].pop_back();
        QVERIFY(refusedShape(bad, "breakdown: a step row of"));
        bad = m_analysis;
        bad.firstCollective.clear();
        QVERIFY(refusedShape(bad, "first collectives"));
        bad = m_analysis;
        bad.projection->perStepNs.resize(3);
        QVERIFY(refusedShape(bad, "projection: 3 values for 12 steps"));
        // Random damage either reads (a changed number) or is refused; it never crashes or hangs.
        std::mt19937 rng(7);
        for (int trial = 0; trial < 300; ++trial) {
            std::string damaged = bytes;
            for (int k = 0; k < 4; ++k) damaged[rng() % damaged.size()] = char(rng());
            try {
                AnalysisArchive::decode(damaged);
            } catch (const ArchiveError &) {
            }
        }
    }

    void keyFollowsInputs() {
        const std::string file = copyOfSession("key.stepscope");
        SessionStore store(file);
        const CategoryRules rules = CategoryRules::load();
        const DerivedResultKey key = DerivedResults::key(store, m_run, m_options, rules);
        QCOMPARE(key.fingerprint.size(), size_t(16));
        QCOMPARE(DerivedResults::key(store, m_run, m_options, rules).fingerprint, key.fingerprint);  // stable
        DerivedResults::save(store, m_run, key, m_analysis);
        std::string why;
        QVERIFY(DerivedResults::load(store, m_run.id, key, &why));

        AnalysisOptions other = m_options;
        other.batchSize = 64;
        QVERIFY(!DerivedResults::load(store, m_run.id, DerivedResults::key(store, m_run, other, rules), &why));
        QVERIFY2(QString::fromStdString(why).contains("other inputs"), why.c_str());
        other = m_options;
        other.lastStep = 5;
        QVERIFY(DerivedResults::key(store, m_run, other, rules).fingerprint != key.fingerprint);
        QVERIFY(DerivedResults::key(store, m_run, m_options, CategoryRules::parse(CategoryRules::builtinText() + "\n", "x"))
                    .fingerprint != key.fingerprint);
        const SourceRow source = SessionReader(store).sources().front();
        store.setClockOffsetNs(source.path, 5'000'000);
        const DerivedResultKey shifted = DerivedResults::key(store, m_run, m_options, rules);
        QVERIFY(shifted.fingerprint != key.fingerprint);
        QVERIFY(QString::fromStdString(shifted.inputs).contains("5000000"));
        store.setClockOffsetNs(source.path, 0);
        QCOMPARE(DerivedResults::key(store, m_run, m_options, rules).fingerprint, key.fingerprint);
        // Metrics imported later change what the analysis says about the run.
        SessionWriter writer(store);
        writer.begin();
        writer.addMetricSeries(source.id, "", "gpu_util", 0, "%", 100'000'000);
        writer.commit();
        QVERIFY(DerivedResults::key(store, m_run, m_options, rules).fingerprint != key.fingerprint);
    }

    void viewsHoldTheResults() {
        const std::string file = copyOfSession("views.stepscope");
        SessionStore store(file);
        const DerivedResultKey key = DerivedResults::key(store, m_run, m_options, CategoryRules::load());
        DerivedResults::save(store, m_run, key, m_analysis);
        DerivedResults::save(store, m_run, key, m_analysis);  // written over, never twice
        const RunAnalysis &a = m_analysis;
        QCOMPARE(count(store, "SELECT count(*) FROM v_analysis_step"), int64_t(a.steps.steps.size()));
        // Each step's categories sum to the step, as the analysis charged them.
        SqliteStatement steps(store.db(), "SELECT s.step, s.dur_ns, (SELECT sum(ns) FROM v_step_breakdown b WHERE b.step = s.step), "
                                          "(SELECT ns FROM v_step_breakdown b WHERE b.step = s.step AND category = 'input') "
                                          "FROM v_analysis_step s ORDER BY s.start_ns");
        size_t i = 0;
        for (; steps.step(); ++i) {
            QCOMPARE(steps.columnInt(0), a.steps.steps[i].step);
            QCOMPARE(steps.columnInt(1), a.steps.steps[i].dur());
            QCOMPARE(steps.columnInt(2), a.steps.steps[i].dur());
            QCOMPARE(steps.columnInt(3), a.categoryNs(i, Category::Input));
            QVERIFY(steps.columnInt(3) > 0);  // an input-bound run
        }
        QCOMPARE(i, a.steps.steps.size());
        SqliteStatement findings(store.db(), "SELECT rule, severity, title, recommendation, speedup FROM v_finding");
        for (i = 0; findings.step(); ++i) {
            const Finding &f = a.findings[i];
            QCOMPARE(findings.columnText(0), f.rule);
            QCOMPARE(findings.columnText(1), std::string(findingSeverityName(f.severity)));
            QCOMPARE(findings.columnText(2), f.title);
            QCOMPARE(findings.columnText(3), f.recommendation);
            QCOMPARE(findings.columnIsNull(4), !f.projection);
            if (f.projection) QCOMPARE(findings.columnDouble(4), f.projection->speedup);
        }
        QCOMPARE(i, a.findings.size());
        QCOMPARE(count(store, "SELECT count(*) FROM v_finding WHERE rule LIKE '%input%' AND speedup > 1"), int64_t(1));
        QCOMPARE(count(store, "SELECT count(*) FROM v_op_stat"), int64_t(a.ops.size()));
        QCOMPARE(count(store, "SELECT total_ns FROM v_op_stat LIMIT 1"), a.ops.front().totalNs);
        QCOMPARE(count(store, "SELECT count(*) FROM v_gpu_gap"), int64_t(a.gaps.top.size()));
        // Derived rows go with their run: a re-import (here, the source deleted) leaves none behind.
        sqliteExec(store.db(), "DELETE FROM source");
        for (const char *t : {"analysis_result", "analysis_step", "step_breakdown", "gpu_gap", "op_stat", "finding"})
            QCOMPARE(count(store, std::string("SELECT count(*) FROM ") + t), int64_t(0));
    }

    // The window's analysis model writes what it computed; a re-open reads it back without
    // analysing: proven by emptying the trace behind it, which an analysis would see.
    void reopenReadsTheStoredAnalysis() {
        const std::string file = copyOfSession("reopen.stepscope");
        size_t ops = 0;
        {
            auto session = open(file);
            const RunAnalysis *a = AnalysisModel::of(session.get())->analysisOrStart(m_run.id);
            QVERIFY(a);
            ops = a->ops.size();
            QVERIFY(ops > 0);
            QCOMPARE(count(*session->store(), "SELECT count(*) FROM analysis_result"), int64_t(1));
        }
        {
            // All slices but the last: the key binds the extent of the slices (their largest id), so
            // this emptying is not seen by it.
            SessionStore store(file);
            sqliteExec(store.db(), "DELETE FROM slice WHERE id != (SELECT max(id) FROM slice)");
        }
        {
            auto session = open(file);
            const RunAnalysis *a = AnalysisModel::of(session.get())->analysisOrStart(m_run.id);
            QVERIFY(a);
            QCOMPARE(a->ops.size(), ops);  // read back: the emptied trace was not analysed
            // A changed input (the session's batch size) is analysed again, and sees the empty trace.
            session->store()->setSetting("batch_size", "64");
        }
        {
            auto session = open(file);
            const RunAnalysis *a = AnalysisModel::of(session.get())->analysisOrStart(m_run.id);
            QVERIFY(a);
            QVERIFY(a->ops.size() <= 1);
            QCOMPARE(a->batchSize, std::optional<int64_t>(64));
        }
        SessionStore store(file, SessionStore::Mode::ReadOnly);  // the new analysis replaced the rows
        QVERIFY(count(store, "SELECT count(*) FROM op_stat") <= 1);
        QCOMPARE(count(store, "SELECT count(*) FROM analysis_result WHERE inputs LIKE '%batch	64	%'"), int64_t(1));
    }

    // An analysis copied in from another session (issue #36: "40 steps reported for a 10-step
    // session") is not taken for this session's: the key holds the session's own id, and the stored
    // fingerprint seals the result's bytes, so neither the whole row nor the bytes alone pass.
    void analysisCopiedFromAnotherSessionIsNotTrusted() {
        const std::string theirs = copyOfSession("theirs.stepscope");  // 12 steps, analysed
        {
            auto session = open(theirs);
            QVERIFY(AnalysisModel::of(session.get())->analysisOrStart(m_run.id));
        }
        synth::SyntheticProfileOptions o;
        o.steps = 4;
        const std::string trace = m_dir.filePath("four.pt.trace.json.gz").toStdString();
        synth::writeTrace(o, trace);
        const std::string mine = m_dir.filePath("mine.stepscope").toStdString();
        QCOMPARE(cli::run({"import", trace, "-o", mine}, {std::cout, std::cerr, false}), 0);  // stores its analysis
        const RunRow run = [&] { SessionStore s(mine, SessionStore::Mode::ReadOnly); return SessionReader(s).runs().front(); }();
        QCOMPARE(run.id, m_run.id);
        const auto stepsSeen = [&] {
            auto session = open(mine);
            const RunAnalysis *a = AnalysisModel::of(session.get())->analysisOrStart(run.id);
            return a ? a->steps.steps.size() : size_t(0);
        };
        QCOMPARE(stepsSeen(), size_t(4));
        {   // the other session's bytes under this session's fingerprint
            SessionStore store(mine);
            sqliteExec(store.db(), "ATTACH DATABASE '" + theirs + "' AS theirs");
            sqliteExec(store.db(), "UPDATE analysis_result SET result = (SELECT result FROM theirs.analysis_result WHERE run_id = 1)");
            sqliteExec(store.db(), "DETACH DATABASE theirs");
        }
        QCOMPARE(stepsSeen(), size_t(4));  // analysed again, not the 12 steps copied in
        {   // the other session's whole row
            SessionStore store(mine);
            sqliteExec(store.db(), "ATTACH DATABASE '" + theirs + "' AS theirs");
            sqliteExec(store.db(), "DELETE FROM analysis_result");
            sqliteExec(store.db(), "INSERT INTO analysis_result SELECT * FROM theirs.analysis_result");
            sqliteExec(store.db(), "DETACH DATABASE theirs");
        }
        QCOMPARE(stepsSeen(), size_t(4));
        SessionStore store(mine, SessionStore::Mode::ReadOnly);
        QCOMPARE(count(store, "SELECT count(*) FROM analysis_step"), int64_t(4));  // the rows were replaced too
        QVERIFY(store.setting("session_id").size() == 32);
        QVERIFY(store.setting("session_id") != SessionStore(theirs, SessionStore::Mode::ReadOnly).setting("session_id"));
    }

    // Bytes that cannot be read (a damaged or crafted session) are analysed again and replaced.
    void damagedStoredAnalysisIsReplaced() {
        const std::string file = copyOfSession("damaged.stepscope");
        size_t findings = 0;
        {
            auto session = open(file);
            const RunAnalysis *a = AnalysisModel::of(session.get())->analysisOrStart(m_run.id);
            QVERIFY(a && !a->findings.empty());
            findings = a->findings.size();
        }
        int64_t whole = 0;
        {
            SessionStore store(file);
            whole = count(store, "SELECT length(result) FROM analysis_result");
            sqliteExec(store.db(), "UPDATE analysis_result SET result = substr(result, 1, 40)");
            std::string why;
            const RunRow run = SessionReader(store).runs().front();
            const DerivedResultKey key = DerivedResults::key(store, run, AnalysisService::sessionOptions(store), CategoryRules::load());
            QVERIFY2(!DerivedResults::load(store, m_run.id, key, &why), "damaged bytes read");
            // The fingerprint seals the bytes: damaged ones fail it before they are decoded (the
            // decoder's own bounds checks are damagedBytesAreRefused's).
            QVERIFY2(QString::fromStdString(why).contains("not this session's"), why.c_str());
        }
        QVERIFY(whole > 1000);
        auto session = open(file);
        const RunAnalysis *a = AnalysisModel::of(session.get())->analysisOrStart(m_run.id);
        QVERIFY(a);
        QCOMPARE(a->findings.size(), findings);
        QCOMPARE(count(*session->store(), "SELECT length(result) FROM analysis_result"), whole);
    }

    // The window never freezes behind another connection's write (an import): the save gives up,
    // and succeeds once the writer is done.
    void busySessionIsNotWaitedFor() {
        const std::string file = copyOfSession("busy.stepscope");
        SessionStore store(file), importer(file);
        sqliteExec(importer.db(), "BEGIN IMMEDIATE; DELETE FROM bookmark;");
        const DerivedResultKey key = DerivedResults::key(store, m_run, m_options, CategoryRules::load());
        QVERIFY(!DerivedResults::trySave(store, m_run, key, m_analysis));  // gives up (how soon: bench_cancel)
        sqliteExec(importer.db(), "COMMIT");
        QVERIFY(DerivedResults::trySave(store, m_run, key, m_analysis));
        QVERIFY(DerivedResults::load(store, m_run.id, key));
    }

    // `stepscope import` stores each run's analysis, so the views can be queried at once;
    // --no-analysis leaves it to the window.
    void importStoresTheAnalysis() {
        for (const bool analyse : {true, false}) {
            const std::string file = m_dir.filePath(analyse ? "cli.stepscope" : "cli-none.stepscope").toStdString();
            std::ostringstream out, err;
            std::vector<std::string> args{"import", m_trace.string(), m_csv.string(), "-o", file};
            if (!analyse) args.push_back("--no-analysis");
            QCOMPARE(cli::run(args, {out, err, false}), 0);
            QCOMPARE(QString::fromStdString(out.str()).contains("analysed 1 run(s)"), analyse);
            SessionStore store(file, SessionStore::Mode::ReadOnly);
            QCOMPARE(count(store, "SELECT count(*) FROM v_finding WHERE rule = 'tf_input_bound'"), int64_t(analyse ? 1 : 0));
            QCOMPARE(count(store, "SELECT count(DISTINCT step) FROM v_step_breakdown"), int64_t(analyse ? 12 : 0));
        }
    }

    // The report command reads a session's stored analysis (it opens sessions read-only).
    void reportReadsTheStoredAnalysis() {
        const std::string file = copyOfSession("report.stepscope");
        {
            auto session = open(file);
            QVERIFY(AnalysisModel::of(session.get())->analysisOrStart(m_run.id));
            sqliteExec(session->store()->db(), "DELETE FROM slice WHERE id != (SELECT max(id) FROM slice)");
        }
        SessionStore store(file, SessionStore::Mode::ReadOnly);
        const Report r = ReportBuilder(store).build({});
        QCOMPARE(r.runs.size(), size_t(1));
        QCOMPARE(r.runs[0].analysis.ops.size(), m_analysis.ops.size());
        QVERIFY(!DerivedResults::trySave(store, m_run, {}, m_analysis));  // never written from a read-only open
    }
};

QTEST_MAIN(TestDerivedResults)
#include "tst_derived_results.moc"
