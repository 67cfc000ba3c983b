#pragma once
// ExportCaption writes what an exported picture says about itself: the caption (source files, run,
// the steps or time range shown, the bottleneck verdict: it asks the shared AnalysisModel, waiting for
// the analyses a picture needs, and never analyses itself) and the legend
// (the notes in the picture, the step-time categories that matter). MainWindow's Export actions, the
// `stepscope export` command and the evidence pack call it, then hand the result to ViewExporter.

#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"
#include "models/analysis/engine/run_analysis.h"
#include "views/export/view_exporter.h"

#include <optional>

namespace stepscope {

class ExportCaption {
public:
    // `title` heads the caption (empty: "Stepscope — <view>"); `range` is what the picture shows.
    static ExportDecoration build(SessionModel *session, NsRange range, const QString &view, const QString &title = {});
    // "steps 12–14 of 30" / "1.234 s – 1.456 s (222 ms)" for a range of a run's steps.
    static QString rangeText(SessionModel *session, int64_t runId, NsRange range, int64_t originNs);

    // The marked steps of a run in a picture of `range`: those at least half inside it.
    struct StepsShown {
        int64_t first = -1, last = -1;
        int count = 0, total = 0;
    };
    static StepsShown stepsIn(const RunAnalysis &analysis, NsRange range);
};

} // namespace stepscope
