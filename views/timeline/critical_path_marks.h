#pragma once
// The timeline's "Critical path" overlay: the stretches of every analysed step's critical path
// (RunAnalysis::criticalPath, CriticalPathAnalyzer) as marks on the timeline model's tracks, coloured
// by their category (categoryColor, models/colors/palette.h). Runs whose analysis is still pending
// are started and left out until it arrives (AnalysisModel::changed). Used by TimelinePaneView.

#include "views/timeline/timeline_painter.h"

#include <vector>

namespace stepscope {

class AnalysisModel;
class TimelineModel;

std::vector<CriticalPathMark> criticalPathMarks(AnalysisModel &analysis, const TimelineModel &timeline);

} // namespace stepscope
