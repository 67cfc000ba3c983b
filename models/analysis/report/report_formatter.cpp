#include "models/analysis/report/report_formatter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace stepscope {

namespace {
QString q(const std::string &s) { return QString::fromStdString(s); }
QString q(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

QJsonObject stepTimeJson(const StepTimeStats &s) {
    return {{"mean", s.meanMs}, {"median", s.medianMs}, {"p95", s.p95Ms}, {"min", s.minMs}, {"max", s.maxMs}};
}

double round2(double v) { return std::round(v * 100.0) / 100.0; }

QJsonObject categoryNsJson(const RunAnalysis &a, size_t step) {
    QJsonObject o;
    for (int c = 0; c < kCategoryCount; ++c) o[q(kCategoryNames[size_t(c)])] = qint64(a.categoryNs(step, Category(c)));
    return o;
}

// A per-type vector of a critical path, by category (the categories that have time only).
QJsonObject pathCategoriesJson(const RunAnalysis &a, const std::vector<int64_t> &perTypeNs, int64_t lengthNs, bool pct) {
    QJsonObject o;
    for (int c = 0; c < kCategoryCount; ++c) {
        const int t = a.categoryType[size_t(c)];
        if (t < 0 || size_t(t) >= perTypeNs.size() || perTypeNs[size_t(t)] <= 0) continue;
        const int64_t ns = perTypeNs[size_t(t)];
        o[q(kCategoryNames[size_t(c)])] = pct ? QJsonValue(lengthNs > 0 ? round2(100.0 * double(ns) / double(lengthNs)) : 0.0) : QJsonValue(qint64(ns));
    }
    return o;
}

QJsonObject criticalPathJson(const RunAnalysis &a) {
    const CriticalPath &p = *a.criticalPath;
    const double stepMs = a.steps.steps.empty() ? 0.0 : double(a.steps.totalNs()) / 1e6 / double(a.steps.steps.size());
    QJsonArray top;
    for (const NamedDuration &d : p.topNames)
        top.append(QJsonObject{{"name", q(d.name)}, {"ms_per_step", round2(double(d.ns) / 1e6 / double(std::max<size_t>(1, p.steps.size())))}});
    return {{"length_ms_mean", round2(p.meanLengthMs())}, {"step_ms_mean", round2(stepMs)},
            {"coverage_pct", stepMs > 0 ? round2(100.0 * p.meanLengthMs() / stepMs) : 0.0},
            {"breakdown_pct", pathCategoriesJson(a, p.totalPerTypeNs, p.totalLengthNs, true)}, {"top_events", top}};
}

QJsonObject presetJson(const Breakdown &b) {
    QJsonObject pct;
    for (const auto &[label, ns] : b.byLabel(b.totalNs))
        pct[q(label)] = b.stepTotalNs > 0 ? round2(100.0 * double(ns) / double(b.stepTotalNs)) : 0.0;
    return {{"name", q(b.preset)}, {"breakdown_pct", pct}};
}

QJsonObject gapsJson(const GapAnalysis &g) {
    auto causes = [](const GapTotals &t) {
        return QJsonObject{{"host_wait", qint64(t.byCauseNs[0])}, {"kernel_wait", qint64(t.byCauseNs[1])},
                           {"other", qint64(t.byCauseNs[2])}};
    };
    QJsonObject activity;
    for (const auto &[k, v] : g.byHostActivityNs) activity[q(k)] = qint64(v);
    QJsonArray streams;
    for (const StreamGaps &s : g.streams)
        streams.append(QJsonObject{{"stream", q(s.stream)}, {"device", s.device}, {"count", qint64(s.totals.count)},
                                   {"total_ns", qint64(s.totals.totalNs)}, {"by_cause_ns", causes(s.totals)}});
    QJsonArray top;
    for (const GpuGap &gap : g.top) {
        QJsonArray overlapping;
        for (const std::string &n : gap.overlapping) overlapping.append(q(n));
        top.append(QJsonObject{{"start_ns", qint64(gap.start)}, {"dur_ns", qint64(gap.dur)}, {"stream", q(gap.stream)},
                               {"device", gap.device}, {"cause", q(gapCauseName(gap.cause))},
                               {"host_activity", q(gap.hostActivity)}, {"overlapping", overlapping}});
    }
    return {{"count", qint64(g.device.count)}, {"total_ns", qint64(g.device.totalNs)}, {"by_cause_ns", causes(g.device)},
            {"by_host_activity_ns", activity}, {"by_stream", streams}, {"top", top}};
}

// A kernel detail: the recorded JSON value (array or number), or the string "varies".
QJsonValue kernelValue(const std::string &v) {
    if (v == "varies") return QStringLiteral("varies");
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + QByteArray::fromStdString(v) + "]");
    return doc.isArray() && !doc.array().isEmpty() ? doc.array().first() : QJsonValue(q(v));
}

QJsonValue efficiencyJson(const std::optional<OpEfficiency> &e) {
    if (!e) return QJsonValue();
    auto orNull = [](const std::optional<double> &v) { return v ? QJsonValue(round2(*v)) : QJsonValue(); };
    return QJsonObject{{"flops", e->flops}, {"bytes", e->bytes}, {"time_ns", qint64(e->timeNs)},
                       {"achieved_tflops", round2(e->achievedTflops())}, {"achieved_gbps", round2(e->achievedGbps())},
                       {"intensity", round2(e->intensity())}, {"dtype", e->dtype.empty() ? QJsonValue() : QJsonValue(q(e->dtype))},
                       {"peak_tflops", orNull(e->peakTflops)}, {"peak_gbps", orNull(e->peakGbps)}, {"pct_of_peak", orNull(e->pctOfPeak)},
                       {"bound", e->bound.empty() ? QJsonValue() : QJsonValue(q(e->bound))}, {"op", q(e->op)}, {"shapes", q(e->shapes)}};
}

QJsonArray topOpsJson(const std::vector<OpStat> &ops, size_t perSide) {
    QJsonArray out;
    size_t host = 0, device = 0;
    for (const OpStat &o : ops) {  // sorted by total time
        size_t &n = o.host() ? host : device;
        if (n >= perSide) continue;
        ++n;
        QJsonObject j{{"name", q(o.name)}, {"side", o.host() ? "host" : "device"}, {"count", qint64(o.count)},
                      {"total_ns", qint64(o.totalNs)}, {"self_ns", qint64(o.selfNs)}, {"mean_ns", qint64(std::llround(o.meanNs()))},
                      {"min_ns", qint64(o.minNs)}, {"max_ns", qint64(o.maxNs)}};
        j["device"] = o.host() ? QJsonValue() : QJsonValue(o.device);
        j["efficiency"] = efficiencyJson(o.efficiency);
        const std::pair<const char *, const std::string *> details[] = {
            {"grid", &o.kernel.grid}, {"block", &o.kernel.block}, {"registers_per_thread", &o.kernel.registers},
            {"shared_memory", &o.kernel.sharedMemory}};
        for (const auto &[key, value] : details)
            if (!value->empty()) j[QLatin1String(key)] = kernelValue(*value);
        out.append(j);
    }
    return out;
}

// null where nothing can be said (no cause to remove, or no steps): never an invented number.
QJsonValue projectionJson(const std::optional<Projection> &p) {
    if (!p) return QJsonValue();
    return QJsonObject{{"category", q(p->category)}, {"step_time_ms", round2(p->stepTimeMs)},
                       {"current_step_time_ms", round2(p->currentStepTimeMs)},
                       {"speedup", std::round(p->speedup * 1000.0) / 1000.0},
                       {"samples_per_s", p->samplesPerSecond ? QJsonValue(round2(*p->samplesPerSecond)) : QJsonValue()},
                       {"method", q(p->method)}};
}

QJsonValue optionalInt(const std::optional<int64_t> &v) { return v ? QJsonValue(qint64(*v)) : QJsonValue(); }

// null without GPU memory series; each figure null where its evidence is missing, `note` says why.
QJsonValue memoryJson(const std::optional<MemorySummary> &m) {
    if (!m) return QJsonValue();
    return QJsonObject{{"source", q(m->source)}, {"device", m->device},
                       {"device_total_bytes", optionalInt(m->deviceTotalBytes)},
                       {"static_bytes", qint64(m->staticBytes)}, {"peak_bytes", qint64(m->peakBytes)},
                       {"per_step_bytes", qint64(m->perStepBytes())},
                       {"peak_reserved_bytes", optionalInt(m->peakReservedBytes)},
                       {"fragmentation_pct", round2(m->fragmentationPct)},
                       {"safety_margin_pct", round2(m->safetyMarginPct)},
                       {"outside_allocator_bytes", optionalInt(m->outsideBytes)},
                       {"batch_size", optionalInt(m->batchSize)}, {"max_batch_size", optionalInt(m->maxBatchSize)},
                       {"note", q(m->note)}};
}

// The tf.data stages, costliest first (the first few), and the one bottleneck_detail comes from.
QJsonValue tfDataJson(const TfDataSummary &d) {
    if (d.empty()) return QJsonValue();
    QJsonArray stages;
    for (size_t i = 0; i < d.stages.size() && i < 8; ++i) {
        const TfDataStage &s = d.stages[i];
        stages.append(QJsonObject{{"name", q(s.name)}, {"kind", q(s.kind)}, {"label", q(s.label)}, {"count", qint64(s.count)},
                                  {"self_ms", round2(double(s.selfNs) / 1e6)}, {"share_pct", round2(d.sharePct(s))}});
    }
    const TfDataStage *costliest = d.costliestLabelled();
    return QJsonObject{{"costliest_stage", costliest ? QJsonValue(q(costliest->name)) : QJsonValue()},
                       {"costliest_label", costliest ? QJsonValue(q(costliest->label)) : QJsonValue()}, {"stages", stages}};
}

QJsonArray crossChecksJson(const std::vector<CrossCheck> &checks) {
    QJsonArray out;
    for (const CrossCheck &c : checks)
        out.append(QJsonObject{{"tool", q(c.tool)}, {"kind", q(c.kind)}, {"file", q(c.file)},
                               {"input_pct", c.inputPct ? QJsonValue(round2(*c.inputPct)) : QJsonValue()},
                               {"verdict", q(c.verdict)}, {"device_type", q(c.deviceType)},
                               {"top_ops", QJsonDocument::fromJson(QByteArray::fromStdString(c.topOpsJson)).array()},
                               {"stepscope_input_pct", round2(c.stepscopeInputPct)},
                               {"agree", c.agree ? QJsonValue(*c.agree) : QJsonValue()}});
    return out;
}

QJsonValue jobCriticalPathJson(const std::optional<JobCriticalPath> &p) {
    if (!p) return QJsonValue();
    QJsonArray perStep, top;
    for (const int64_t r : p->rankPerStep) perStep.append(r >= 0 ? QJsonValue(qint64(r)) : QJsonValue());
    for (const NamedDuration &d : p->topEvents)
        top.append(QJsonObject{{"name", q(d.name)}, {"ms_per_step", round2(double(d.ns) / 1e6 / p->topEventsSteps)}});
    int64_t total = 0;
    for (const int64_t ns : p->beforeJoinNs) total += ns;
    QJsonObject pct;
    for (int c = 0; c < kCategoryCount; ++c)
        if (p->beforeJoinNs[size_t(c)] > 0) pct[q(kCategoryNames[size_t(c)])] = round2(100.0 * double(p->beforeJoinNs[size_t(c)]) / double(total));
    return QJsonObject{{"rank", qint64(p->rank)}, {"run", q(p->run)}, {"steps_set", qint64(p->stepsSet)},
                       {"rank_per_step", perStep}, {"before_join_ms_mean", round2(p->beforeJoinMsMean)},
                       {"before_join_breakdown_pct", pct}, {"top_events", top}};
}

QJsonObject jobJson(const JobAnalysis &job) {
    QJsonArray stragglers, table, notes;
    for (const JobStraggler &s : job.stragglers)
        stragglers.append(QJsonObject{{"rank", qint64(s.rank)}, {"run", q(s.run)}, {"cause", q(s.cause)},
                                      {"late_ms_per_step", round2(s.lateMsPerStep)}, {"late_steps", qint64(s.lateSteps)},
                                      {"cause_excess_ms_per_step", round2(s.causeExcessMsPerStep)}});
    for (const JobRankRow &r : job.ranksTable)
        table.append(QJsonObject{{"rank", qint64(r.rank)}, {"run", q(r.run)}, {"step_time_ms", round2(r.stepTimeMs)},
                                 {"bottleneck", q(r.bottleneck)}, {"collective_wait_ms", round2(r.collectiveWaitMs)}});
    for (const std::string &n : job.notes) notes.append(q(n));
    return {{"ranks", job.ranks},
            {"step_time_ms", QJsonObject{{"mean", round2(job.meanStepMs)}, {"median", round2(job.medianStepMs)}}},
            {"bottleneck", q(job.bottleneck)},
            {"bottleneck_rank", job.bottleneckRank ? QJsonValue(qint64(*job.bottleneckRank)) : QJsonValue()},
            {"stragglers", stragglers}, {"ranks_table", table},
            {"aligned_by", job.alignedByOrder ? "order" : "step_number"},
            {"aligned_steps", qint64(job.alignedSteps.size())}, {"notes", notes},
            {"critical_path", jobCriticalPathJson(job.criticalPath)}};
}

QJsonArray findingsJson(const std::vector<Finding> &findings) {
    QJsonArray out;
    for (const Finding &f : findings) {
        QJsonArray steps;
        for (int64_t s : f.steps) steps.append(qint64(s));
        out.append(QJsonObject{{"rule", q(f.rule)}, {"severity", findingSeverityName(f.severity)}, {"title", q(f.title)},
                               {"detail", q(f.detail)}, {"recommendation", q(f.recommendation)}, {"steps", steps},
                               {"start_ns", qint64(f.startNs)}, {"end_ns", qint64(f.endNs)},
                               {"projection", projectionJson(f.projection)}});
    }
    return out;
}
} // namespace

std::string ReportFormatter::json(const Report &report) {
    QJsonArray sources;
    for (const SourceRow &s : report.sources)
        sources.append(QJsonObject{{"path", q(s.path)}, {"format", q(s.format)}, {"status", q(s.status)},
                                   {"events", qint64(s.events)}, {"warnings", qint64(s.warnings)}});
    QJsonArray runs;
    for (const RunReport &r : report.runs) {
        const RunAnalysis &a = r.analysis;
        QJsonArray steps;
        for (size_t k = 0; k < r.steps.size(); ++k) {
            const StepRow &s = r.steps[k];
            QJsonObject step{{"step", qint64(s.step)}, {"start_ns", qint64(s.startNs)}, {"dur_ns", qint64(s.durNs)},
                             {"breakdown_ns", categoryNsJson(a, k)}};
            if (k < a.steps.steps.size()) {
                step["host_start_ns"] = qint64(a.steps.steps[k].hostStart);
                step["host_dur_ns"] = qint64(a.steps.steps[k].hostEnd - a.steps.steps[k].hostStart);
            }
            if (a.criticalPath && k < a.criticalPath->steps.size()) {
                const StepCriticalPath &p = a.criticalPath->steps[k];
                step["critical_path"] = QJsonObject{{"length_ns", qint64(p.lengthNs)},
                                                    {"breakdown_ns", pathCategoriesJson(a, p.perTypeNs, p.lengthNs, false)}};
            }
            if (k < a.samplesPerSecondPerStep.size()) step["samples_per_s"] = round2(a.samplesPerSecondPerStep[k]);
            if (a.memory && k < a.memory->perStepPeakBytes.size()) step["memory_peak_bytes"] = optionalInt(a.memory->perStepPeakBytes[k]);
            if (a.presetBreakdown && k < a.presetBreakdown->perStepNs.size()) {
                QJsonObject p;
                for (const auto &[label, ns] : a.presetBreakdown->byLabel(a.presetBreakdown->perStepNs[k])) p[q(label)] = qint64(ns);
                step["preset_breakdown_ns"] = p;
            }
            steps.append(step);
        }
        QJsonObject pct;
        for (int c = 0; c < kCategoryCount; ++c) pct[q(kCategoryNames[size_t(c)])] = round2(a.categoryPct(Category(c)));
        QJsonObject summary{{"steps", qint64(r.steps.size())}, {"step_time_ms", stepTimeJson(r.stepTime)},
                            {"steps_from_markers", r.stepsFromMarkers},
                            {"step_source", q(stepSourceName(a.steps.source))},
                            // null, not 0, where the trace has no GPU: a CPU-only run is not an idle GPU
                            {"gpu_busy_pct", a.gpuTraced ? QJsonValue(round2(a.gpuBusyPct)) : QJsonValue()},
                            {"compute_coverage_pct", a.gpuTraced ? QJsonValue(round2(a.computeCoveragePct)) : QJsonValue()},
                            {"breakdown_pct", pct},
                            {"bottleneck", q(a.bottleneck)}, {"bottleneck_detail", q(a.bottleneckDetail)},
                            {"bottleneck_evidence", q(a.bottleneckEvidence)},
                            {"projection", projectionJson(a.projection)}, {"memory", memoryJson(a.memory)}};
        if (a.inputTracedBusyFraction >= 0) summary["input_traced_busy_pct"] = round2(100 * a.inputTracedBusyFraction);
        if (const double between = a.steps.meanBetweenStepsNs(); between > 0) summary["between_steps_ms_mean"] = round2(between / 1e6);
        if (a.kernels) {
            QJsonArray depth;
            for (const StreamQueueDepth &d : a.kernels->queueDepthMax)
                depth.append(QJsonObject{{"stream", q(d.stream)}, {"device", d.device}, {"max", qint64(d.maxDepth)}});
            auto orNull = [](const std::optional<double> &v) { return v ? QJsonValue(round2(*v)) : QJsonValue(); };
            summary["kernels"] = QJsonObject{{"count", qint64(a.kernels->count)}, {"median_us", round2(a.kernels->medianUs)},
                                             {"short_pct", round2(a.kernels->shortPct)},
                                             {"launch_delay_us_p50", orNull(a.kernels->launchDelayP50Us)},
                                             {"launch_delay_us_p95", orNull(a.kernels->launchDelayP95Us)},
                                             {"queue_depth_max", depth}};
        }
        if (a.criticalPath) summary["critical_path"] = criticalPathJson(a);
        if (!a.tfData.empty()) summary["tf_data"] = tfDataJson(a.tfData);
        if (r.samplesPerSecond) summary["samples_per_s"] = round2(*r.samplesPerSecond);
        if (r.batchSize) {
            summary["batch_size"] = qint64(*r.batchSize);
            summary["batch_size_source"] = q(r.batchSizeSource);
            if (!a.batchSizeEvidence.empty()) summary["batch_size_evidence"] = q(a.batchSizeEvidence);
        }
        if (a.presetBreakdown) summary["preset"] = presetJson(*a.presetBreakdown);
        QJsonArray outliers;
        for (const OutlierStep &o : a.outliers)
            outliers.append(QJsonObject{{"step", qint64(o.step)}, {"dur_ns", qint64(o.durNs)}, {"cause", q(o.cause)}});
        QJsonArray collectives;
        for (const CollectiveStat &c : a.collectives) {
            auto orNull = [](const std::optional<double> &v) { return v ? QJsonValue(round2(*v)) : QJsonValue(); };
            collectives.append(QJsonObject{
                {"name", q(c.name)}, {"count", qint64(c.count)}, {"sized_count", qint64(c.sized)}, {"bytes", c.bytes},
                {"time_ms", round2(double(c.timeNs) / 1e6)}, {"exposed_ms", round2(double(c.exposedNs) / 1e6)},
                {"exposed_pct", c.timeNs > 0 ? round2(100.0 * double(c.exposedNs) / double(c.timeNs)) : 0.0},
                {"group_size", c.groupSize ? QJsonValue(qint64(*c.groupSize)) : QJsonValue()},
                {"algbw_gbps", orNull(c.algbwGbps)}, {"busbw_gbps", orNull(c.busbwGbps)}});
        }
        QJsonObject run{{"name", q(r.run.name)}, {"host", q(r.run.host)}, {"framework", q(r.run.framework)},
                        {"device", q(r.run.device)}, {"events", qint64(r.events)}, {"tracks", qint64(r.tracks)},
                        {"steps", steps}, {"summary", summary}, {"gaps", gapsJson(a.gaps)},
                        {"top_ops", topOpsJson(a.ops, 15)}, {"findings", findingsJson(a.findings)},
                        {"outlier_steps", outliers}, {"cross_checks", crossChecksJson(a.crossChecks)},
                        {"collectives", collectives}};
        if (r.run.rank) run["rank"] = qint64(*r.run.rank);
        if (const std::string note = a.gpuNote(); !note.empty()) run["note"] = q(note);
        runs.append(run);
    }
    QJsonObject root{{"stepscope_report", 1}, {"sources", sources}, {"runs", runs},
                     {"skipped_files", qint64(report.skippedFiles)}};
    if (!report.note.empty()) root["note"] = q(report.note);
    if (report.job) root["job"] = jobJson(*report.job);
    return QJsonDocument(root).toJson(QJsonDocument::Indented).toStdString();
}

} // namespace stepscope
