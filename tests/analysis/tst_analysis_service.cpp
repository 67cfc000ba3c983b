// AnalysisService (issue #30 item 1): the only caller of RunAnalyzer and JobAnalyzer and the only
// home of the analysis' SQL outside models/store (source scans); one computation per (run, options),
// read back from the session when stored, never stored from a report; the job computed once and
// reused until a rank's analysis changes; a cancelled analysis keeps nothing; the work after an
// import (level-of-detail cache, stored analyses) from finishImport().

#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "models/analysis/service/analysis_service.h"
#include "models/timeline/timeline_lod_writer.h"
#include "tests/analysis/import_helper.h"
#include "tests/jobs/job_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <regex>
#include <sstream>

using namespace stepscope;

namespace {

// Every line of the production sources (app/, models/, views/, importers/) that matches `pattern`,
// outside comments, as "path:line", leaving out the files in `allowed`.
QStringList sourceLinesMatching(const std::regex &pattern, const std::set<std::string> &allowed) {
    QStringList found;
    const std::filesystem::path root = STEPSCOPE_SOURCE_DIR;
    for (const char *folder : {"app", "models", "views", "importers"}) {
        for (const auto &entry : std::filesystem::recursive_directory_iterator(root / folder)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h")) continue;
            const std::string rel = std::filesystem::relative(entry.path(), root).generic_string();
            if (allowed.count(rel)) continue;
            std::ifstream in(entry.path());
            std::string line;
            for (int n = 1; std::getline(in, line); ++n) {
                const size_t comment = line.find("//");
                const std::string code = comment == std::string::npos ? line : line.substr(0, comment);
                if (std::regex_search(code, pattern)) found << QString::fromStdString(rel + ":" + std::to_string(n));
            }
        }
    }
    return found;
}

} // namespace

class TestAnalysisService : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    test::SyntheticJob m_job;
    std::string m_single;  // a one-run session (the demo), imported without its analysis
    std::string m_ranks;   // a job of 4 ranks, rank 2 late

    std::string importCopy(const std::vector<std::filesystem::path> &inputs, const QString &name) const {
        const std::string file = m_dir.filePath(name).toStdString();
        SessionStore store(file);
        std::ostringstream out, err;
        cli::importInto(store, inputs, {out, err, false});
        return file;
    }

private slots:
    void initTestCase() {
        test::isolateSettings();
        m_single = importCopy({test::demoDir().toStdString()}, "single.stepscope");
        test::writeJob(m_job, test::jobOptions(4, 2, synth::LateCause::Input, 30, 8, 40));
        m_ranks = importCopy({m_job.path()}, "ranks.stepscope");
    }

    void onlyTheServiceCallsTheAnalyzers() {
        // The analyzers' own files declare and define them; everything else asks the service.
        const QStringList callers = sourceLinesMatching(
            std::regex("\\bRunAnalyzer\\s*[({]|\\bJobAnalyzer::"),
            {"models/analysis/service/analysis_service.cpp", "models/analysis/engine/run_analysis.h", "models/analysis/engine/run_analysis.cpp",
             "models/analysis/engine/job_analysis.h", "models/analysis/engine/job_analysis.cpp"});
        QVERIFY2(callers.isEmpty(), qPrintable("analyzers called outside AnalysisService: " + callers.join(", ")));
    }

    void theAnalysisHoldsNoSql() {
        std::set<std::string> none;
        QStringList sql;
        for (const QString &hit : sourceLinesMatching(std::regex("SqliteStatement|sqlite3\\b|\"(SELECT|INSERT|DELETE|UPDATE) "), none))
            if (hit.startsWith("models/analysis/")) sql << hit;
        QVERIFY2(sql.isEmpty(), qPrintable("SQL in models/analysis (it belongs in models/store): " + sql.join(", ")));
    }

    void oneComputationPerRunAndOptions() {
        SessionStore store(m_single, SessionStore::Mode::ReadOnly);
        AnalysisService service(store, CategoryRules::load());
        const RunRow run = SessionReader(store).runs().at(0);
        const AnalysisOptions session = AnalysisService::sessionOptions(store);
        QVERIFY(!service.ready(run, session));  // imported without its analysis: nothing at hand
        const RunAnalysis &first = service.analyse(run, session);
        const RunAnalysis &again = service.analyse(run, session);
        QCOMPARE(&again, &first);
        QCOMPARE(service.ready(run, session), &first);
        QCOMPARE(service.computations(), 1);
        // Other options are another result, kept beside the first.
        const AnalysisOptions steps = AnalysisService::optionsFor(store, {3, 5, std::nullopt, "", ""});
        const RunAnalysis &part = service.analyse(run, steps);
        QCOMPARE(service.computations(), 2);
        QVERIFY(&part != &first);
        QCOMPARE(part.steps.steps.size(), size_t(3));
        QCOMPARE(&service.analyse(run, steps), &part);
        QCOMPARE(&service.analyse(run, session), &first);
        QCOMPARE(service.computations(), 2);
    }

    void optionsAreBuiltOnce() {
        SessionStore store(m_single, SessionStore::Mode::ReadOnly);
        const AnalysisOptions plain = AnalysisService::optionsFor(store, {});
        QCOMPARE(plain.batchSizeSource, std::string("session"));
        QVERIFY(!plain.batchSize);
        const AnalysisOptions cli = AnalysisService::optionsFor(store, {std::nullopt, std::nullopt, 64, "", "pytorch"});
        QCOMPARE(cli.batchSize, std::optional<int64_t>(64));
        QCOMPARE(cli.batchSizeSource, std::string("cli"));
        QCOMPARE(cli.preset, std::string("pytorch"));
    }

    void storedWhenAskedAndReadBack() {
        const std::string file = m_dir.filePath("stored.stepscope").toStdString();
        std::filesystem::copy_file(m_single, file);
        const RunRow run = [&] { SessionStore s(file, SessionStore::Mode::ReadOnly); return SessionReader(s).runs().at(0); }();
        {
            SessionStore store(file);
            AnalysisService report(store, CategoryRules::load());  // a report never writes
            report.analyse(run, AnalysisService::sessionOptions(store));
        }
        {
            SessionStore store(file);
            AnalysisService reopened(store, CategoryRules::load());
            QVERIFY(!reopened.ready(run, AnalysisService::sessionOptions(store)));
            AnalysisService window(store, CategoryRules::load(), AnalysisService::Storing::Always);
            const RunAnalysis &a = window.analyse(run, AnalysisService::sessionOptions(store));
            QVERIFY(!a.steps.steps.empty());
            // Only the session's own analysis is stored: one per run.
            window.analyse(run, AnalysisService::optionsFor(store, {2, 4, std::nullopt, "", ""}));
        }
        SessionStore store(file, SessionStore::Mode::ReadOnly);
        AnalysisService reopened(store, CategoryRules::load());
        const RunAnalysis *back = reopened.ready(run, AnalysisService::sessionOptions(store));
        QVERIFY(back);
        QCOMPARE(back->steps.steps.size(), size_t(40));
        QVERIFY(!reopened.ready(run, AnalysisService::optionsFor(store, {2, 4, std::nullopt, "", ""})));
        QCOMPARE(reopened.computations(), 0);
    }

    void aCancelledAnalysisKeepsNothing() {
        SessionStore store(m_single, SessionStore::Mode::ReadOnly);
        AnalysisService service(store, CategoryRules::load());
        const RunRow run = SessionReader(store).runs().at(0);
        const AnalysisOptions o = AnalysisService::sessionOptions(store);
        const CancelToken cancel;
        cancel.cancel();
        QVERIFY_THROWS_EXCEPTION(AnalysisCancelled, service.analyse(run, o, cancel));
        QVERIFY(!service.ready(run, o));
        QCOMPARE(service.computations(), 0);
        QVERIFY(!service.analyse(run, o).steps.steps.empty());  // asked again, it analyses
        QCOMPARE(service.computations(), 1);
    }

    void theJobIsComputedOnceAndReused() {
        SessionStore store(m_ranks, SessionStore::Mode::ReadOnly);
        AnalysisService service(store, CategoryRules::load());
        const std::vector<RunRow> runs = SessionReader(store).runs();
        QCOMPARE(runs.size(), size_t(4));
        QVERIFY(!service.sessionJob(runs));  // no rank analysed yet
        const AnalysisOptions o = AnalysisService::sessionOptions(store);
        service.analyse(runs[0], o);
        service.analyse(runs[1], o);
        const SessionJob *two = service.sessionJob(runs);  // the ranks analysed so far
        QVERIFY(two);
        QCOMPARE(two->ranks.size(), size_t(2));
        QCOMPARE(service.jobComputations(), 1);
        QCOMPARE(service.sessionJob(runs), two);
        QCOMPARE(service.jobComputations(), 1);  // reused, not computed again
        service.analyse(runs[2], o);
        service.analyse(runs[3], o);
        size_t findings = 0;
        for (const RunRow &run : runs) findings += service.ready(run, o)->findings.size();
        const SessionJob *job = service.sessionJob(runs);
        QVERIFY(job);
        QCOMPARE(service.jobComputations(), 2);  // the other ranks arrived
        QCOMPARE(job->job.ranks, 4);
        QVERIFY(!job->job.stragglers.empty());
        QCOMPARE(job->job.stragglers.front().rank, int64_t(2));
        QCOMPARE(service.sessionJob(runs), job);
        QCOMPARE(service.jobComputations(), 2);
        QCOMPARE(service.computations(), 4);  // one analysis per rank, whoever asked
        // The views' job adds no findings to the shared analyses (the report's does, to its copies).
        size_t after = 0;
        for (const RunRow &run : runs) after += service.ready(run, o)->findings.size();
        QCOMPARE(after, findings);
        const auto straggler = std::find_if(runs.begin(), runs.end(), [](const RunRow &r) { return r.rank == 2; });
        QVERIFY(straggler != runs.end());
        QVERIFY(AnalysisService::jobNote(*job, straggler->id).finding);
    }

    void theReportJobAddsItsFindingsToTheReportsCopies() {
        SessionStore store(m_ranks, SessionStore::Mode::ReadOnly);
        const Report report = ReportBuilder(store).build();
        QVERIFY(report.job);
        QCOMPARE(report.job->stragglers.front().rank, int64_t(2));
        AnalysisService service(store, CategoryRules::load());
        size_t own = 0, reported = 0;
        for (const RunReport &r : report.runs) {
            own += service.analyse(r.run, AnalysisService::sessionOptions(store)).findings.size();
            reported += r.analysis.findings.size();
        }
        QVERIFY(reported > own);
    }

    void finishImportBuildsTheCacheAndStoresTheAnalyses() {
        const std::string file = m_dir.filePath("finished.stepscope").toStdString();
        {
            SessionStore store(file);
            ImporterRegistry registry;
            SessionImporter(store, registry).run({m_job.path()});  // the import alone, nothing after it
            QVERIFY(!TimelineLodWriter(store).upToDate());
            std::vector<std::string> failures;
            QCOMPARE(AnalysisService::finishImport(store, true, &failures), 4);
            QVERIFY(failures.empty());
            QVERIFY(TimelineLodWriter(store).upToDate());
            QCOMPARE(AnalysisService::finishImport(store, true), 0);  // nothing stale: nothing analysed
        }
        SessionStore store(file, SessionStore::Mode::ReadOnly);
        AnalysisService service(store, CategoryRules::load());
        const std::vector<RunRow> runs = SessionReader(store).runs();
        for (const RunRow &run : runs) QVERIFY(service.ready(run, AnalysisService::sessionOptions(store)));
        QVERIFY(service.sessionJob(runs));
        QCOMPARE(service.computations(), 0);
    }
};

QTEST_MAIN(TestAnalysisService)
#include "tst_analysis_service.moc"
