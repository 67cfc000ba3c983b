#include "models/analysis/report_builder.h"

#include <algorithm>
#include <cmath>

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
    {
        SqliteStatement st(m_store.db(), "SELECT count(*) FROM import_log WHERE source_id IS NULL AND message LIKE 'skipped:%'");
        report.skippedFiles = st.step() ? st.columnInt(0) : 0;
    }
    for (const RunRow &run : reader.runs()) {
        RunReport rr;
        rr.run = run;
        rr.events = reader.sliceCount(run.id);
        rr.tracks = int64_t(reader.tracks(run.id).size());
        for (const StepRow &s : reader.steps(run.id)) {
            if (options.firstStep && s.step < *options.firstStep) continue;
            if (options.lastStep && s.step > *options.lastStep) continue;
            rr.steps.push_back(s);
        }
        if (rr.steps.empty() && !options.firstStep && !options.lastStep) {
            const TimeRange range = reader.runTimeRange(run.id);
            if (range.valid()) {
                rr.steps.push_back({0, range.startNs, range.endNs - range.startNs});
                rr.stepsFromMarkers = false;
            }
        }
        rr.stepTime = stats(rr.steps);
        if (options.batchSize && rr.stepTime.meanMs > 0)
            rr.samplesPerSecond = double(*options.batchSize) / (rr.stepTime.meanMs / 1000.0);
        report.runs.push_back(std::move(rr));
    }
    return report;
}

} // namespace stepscope
