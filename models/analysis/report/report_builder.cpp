#include "models/analysis/report/report_builder.h"

#include "models/analysis/service/derived_results.h"
#include "models/store/analysis_input_reader.h"
#include "models/analysis/service/analysis_service.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace stepscope {

StepTimeStats ReportBuilder::stats(const std::vector<StepRow> &steps) {
    StepTimeStats s;
    if (steps.empty()) return s;
    std::vector<double> ms;
    ms.reserve(steps.size());
    for (const auto &st : steps) ms.push_back(double(st.durNs) / 1e6);
    std::sort(ms.begin(), ms.end());
    double sum = 0;
    for (double v : ms) sum += v;
    s.meanMs = sum / double(ms.size());
    const size_t n = ms.size();
    s.medianMs = n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
    // Nearest-rank percentile: the smallest value with at least 95% of steps at or below it.
    s.p95Ms = ms[size_t(std::ceil(0.95 * double(n))) - 1];
    s.minMs = ms.front();
    s.maxMs = ms.back();
    return s;
}

Report ReportBuilder::build(const ReportOptions &options) const {
    SessionReader reader(m_store);
    Report report;
    report.sources = reader.sources();
    report.skippedFiles = AnalysisInputReader(m_store).skippedFileCount();
    AnalysisService service(m_store, CategoryRules::load(options.rulesPath));
    const AnalysisOptions ao = AnalysisService::optionsFor(
        m_store, {options.firstStep, options.lastStep, options.batchSize, options.batchSizeSource, options.preset});
    for (const RunRow &run : reader.runs()) {
        RunReport rr;
        rr.run = run;
        rr.events = reader.sliceCount(run.id);
        rr.tracks = int64_t(reader.tracks(run.id).size());
        // The report's own (the job adds findings to it). A session's stored analysis of the same
        // inputs is read back (a session that was opened in the window, or imported); the report
        // never writes the session it reads.
        rr.analysis = service.take(run, ao);
        rr.stepsFromMarkers = rr.analysis.steps.hasSteps();
        for (const AnalysisStep &s : rr.analysis.steps.steps) rr.steps.push_back({s.step, s.start, s.dur()});
        rr.stepTime = stats(rr.steps);
        rr.samplesPerSecond = rr.analysis.samplesPerSecond;
        rr.batchSize = rr.analysis.batchSize;
        rr.batchSizeSource = rr.analysis.batchSizeSource;
        report.runs.push_back(std::move(rr));
    }
    std::vector<JobMember> members;
    for (RunReport &r : report.runs) members.push_back({&r.run, &r.analysis});
    report.job = service.reportJob(members);
    const MetricCatalog &metrics = service.metrics();
    if (report.runs.empty()) {
        report.note = metrics.size() > 0 ? "no trace with steps: only instance metrics were imported, so there is no step analysis "
                                "(import a profiler trace of the same job with them)"
                              : "no trace with steps: nothing that was imported holds steps or a timeline";
    }
    return report;
}

} // namespace stepscope
