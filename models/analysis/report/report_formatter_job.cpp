// ReportFormatter, continued: the job section of the text and markdown reports — the root cause
// across ranks, the stragglers and one row per rank. JSON: jobJson in report_formatter.cpp.

#include "models/analysis/report/report_formatter.h"

#include "models/text/printable_text.h"

#include <cstdio>
#include <sstream>

namespace stepscope {

namespace {

std::string fmt2(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string stragglerLine(const JobStraggler &s) {
    return s.named() + " is late at the first all-reduce in " +
           std::to_string(s.lateSteps) + " steps because of its " + s.cause + " (+" + fmt2(s.causeExcessMsPerStep) +
           " ms/step over the other ranks); it costs the job " + fmt2(s.lateMsPerStep) + " ms/step";
}

} // namespace

std::string ReportFormatter::jobText(const Report &report) {
    if (!report.job) return {};
    const JobAnalysis &job = *report.job;
    std::ostringstream out;
    out << "\nJob: " << job.ranks << " ranks, step time (ms) mean " << fmt2(job.meanStepMs) << ", median "
        << fmt2(job.medianStepMs) << "\n";
    out << "  bottleneck: " << job.bottleneck;
    if (job.bottleneckRank) out << " on rank " << *job.bottleneckRank;
    out << "\n";
    if (job.stragglers.empty()) out << "  no straggler: the ranks reach their collectives together\n";
    for (const JobStraggler &s : job.stragglers) out << "  straggler: " << printableText(stragglerLine(s)) << "\n";
    if (const auto &p = job.criticalPath) {
        out << "  critical path: through rank " << p->rank << " in " << p->stepsSet << " of " << p->rankPerStep.size()
            << " steps (last at the first collective); before the join its path is " << fmt2(p->beforeJoinMsMean) << " ms:";
        int64_t total = 0;
        for (const int64_t ns : p->beforeJoinNs) total += ns;
        for (int c = 0; c < kCategoryCount; ++c)
            if (p->beforeJoinNs[size_t(c)] * 20 >= total && total > 0)
                out << " " << kCategoryNames[size_t(c)] << " " << fmt2(100.0 * double(p->beforeJoinNs[size_t(c)]) / double(total)) << "%";
        if (!p->topEvents.empty()) out << "; longest on it: " << printableText(p->topEvents.front().name.substr(0, 90));
        out << "\n";
    }
    for (const std::string &n : job.notes) out << "  note: " << printableText(n) << "\n";
    out << "  rank  step ms  collective wait ms  bottleneck        run\n";
    for (const JobRankRow &r : job.ranksTable) {
        char line[160];
        std::snprintf(line, sizeof line, "  %4lld  %7.2f  %18.2f  %-16s  ", static_cast<long long>(r.rank), r.stepTimeMs,
                      r.collectiveWaitMs, r.bottleneck.c_str());
        out << line << printableText(r.run) << "\n";
    }
    return out.str();
}

std::string ReportFormatter::jobMarkdown(const Report &report) {
    if (!report.job) return {};
    const JobAnalysis &job = *report.job;
    std::ostringstream out;
    out << "\n## Job (" << job.ranks << " ranks)\n\n";
    out << "- **bottleneck: " << job.bottleneck;
    if (job.bottleneckRank) out << " on rank " << *job.bottleneckRank;
    out << "**\n- step time: mean " << fmt2(job.meanStepMs) << " ms, median " << fmt2(job.medianStepMs) << " ms\n";
    if (job.stragglers.empty()) out << "- no straggler: the ranks reach their collectives together\n";
    for (const JobStraggler &s : job.stragglers) out << "- straggler: " << markdownText(stragglerLine(s)) << "\n";
    for (const std::string &n : job.notes) out << "- note: " << markdownText(n) << "\n";
    out << "\n| rank | run | step time (ms) | collective wait (ms) | bottleneck |\n|---:|---|---:|---:|---|\n";
    for (const JobRankRow &r : job.ranksTable)
        out << "| " << r.rank << " | " << markdownText(r.run) << " | " << fmt2(r.stepTimeMs) << " | "
            << fmt2(r.collectiveWaitMs) << " | " << r.bottleneck << " |\n";
    return out.str();
}

} // namespace stepscope
