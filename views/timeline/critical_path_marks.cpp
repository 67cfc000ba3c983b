#include "views/timeline/critical_path_marks.h"

#include "models/analysis/service/analysis_model.h"
#include "models/colors/palette.h"

#include <algorithm>

namespace stepscope {

std::vector<CriticalPathMark> criticalPathMarks(AnalysisModel &analysis, const TimelineModel &timeline) {
    std::vector<CriticalPathMark> marks;
    for (const RunRow &run : analysis.runs()) {
        const RunAnalysis *a = analysis.analysisOrStart(run.id);
        if (!a || !a->criticalPath) continue;
        // Preset type -> the category it stands for (the colour).
        std::vector<QRgb> colorOfType(a->breakdown.types.size(), categoryColor(Category::Other).rgb());
        for (int c = 0; c < kCategoryCount; ++c)
            if (const int t = a->categoryType[size_t(c)]; t >= 0 && size_t(t) < colorOfType.size())
                colorOfType[size_t(t)] = categoryColor(Category(c)).rgb();
        for (const StepCriticalPath &step : a->criticalPath->steps)
            for (const CriticalPathSegment &s : step.segments) {
                const int track = timeline.trackIndex(s.trackId);
                if (track < 0) continue;
                const QRgb rgb = s.type >= 0 && size_t(s.type) < colorOfType.size() ? colorOfType[size_t(s.type)]
                                                                                     : categoryColor(Category::Other).rgb();
                marks.push_back({track, s.start, s.end, rgb});
            }
    }
    std::sort(marks.begin(), marks.end(), [](const CriticalPathMark &x, const CriticalPathMark &y) { return x.start < y.start; });
    return marks;
}

} // namespace stepscope
