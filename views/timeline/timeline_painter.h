#pragma once
// TimelinePainter draws one frame of the timeline with QPainter from a TimelineFrame description:
// label column (run and device/host headers, track names), time ruler, step band, slices coloured by
// name with elided labels, density blocks, flow arrows, the selected range and slice. Stateless
// apart from what it is handed; TimelineView calls it from paintEvent (and so do offscreen renders).
// It records where each item landed (hits) so the view can answer clicks and tooltips.

#include "models/timeline/timeline_model.h"
#include "models/timeline/timeline_search_model.h"
#include "views/timeline/timeline_layout.h"

#include <QPainter>
#include <QRectF>

#include <optional>

#include <vector>

namespace stepscope {

struct TimelineHit {
    QRectF rect;
    int track = -1;
    TimelineItem item;
};

// One stretch of a step's critical path on a track (CriticalPathAnalyzer), drawn as a band along the
// bottom of the track's row in its category's colour.
struct CriticalPathMark {
    int track = -1;  // index into model->tracks()
    int64_t start = 0, end = 0;
    QRgb rgb = 0;
};

struct TimelineFrame {
    TimelineModel *model = nullptr;
    const TimelineLayout *layout = nullptr;
    NsRange range;            // visible
    NsRange selection;        // shaded, may be invalid
    int labelWidth = 210;     // the track-name column (TimelinePainter::kLabelWidth unless resized)
    int64_t origin = 0;       // ruler zero (session start)
    int scrollY = 0;
    QSize size;
    int64_t selectedSliceId = -1;
    int selectedTrack = -1;
    TimelineItem selectedItem;
    bool showFlows = true;
    int highlightedStep = -1;  // index into model->steps()
    std::optional<int64_t> alignedStep;  // ranks aligned at this step: origin is its start
    int highlightedRunGroup = -1;        // a run header drawn in the accent colour
    const std::vector<TimelineFlow> *selectedFlows = nullptr;  // the selected slice's flows: always drawn
    const std::vector<TimelineSearchModel::Hit> *searchHits = nullptr;  // by start; outlined in view
    int64_t longestSearchHit = 0;
    const std::vector<CriticalPathMark> *criticalPath = nullptr;  // by start; drawn when set
};

class TimelinePainter {
public:
    static constexpr int kLabelWidth = 210;  // the default width of the track-name column
    static constexpr int kRulerHeight = 22;
    static constexpr int kStepBandHeight = 18;
    static constexpr int kHeaderHeight = kRulerHeight + kStepBandHeight;

    // Paints the frame; fills `hits` with the items drawn (cleared first) and, when given, `arrows`
    // with the flow arrows drawn.
    static void paint(QPainter &p, const TimelineFrame &f, std::vector<TimelineHit> &hits,
                      std::vector<TimelineFlow> *arrows = nullptr);
    // Visible pairs' arrows are drawn while at most this many are in view (and ~10 px apart).
    static constexpr int kMaxFlowArrows = 200;
    // The outline of search hits in view: orange stands out on every name colour.
    static constexpr QRgb kSearchHitRgb = 0xffff8800;
    // The label of each step in view (index into model->steps(), text; empty where it does not
    // fit): one format for all, "step 12" where every step in view has room for it, else "12".
    static std::vector<std::pair<size_t, QString>> stepLabels(const TimelineFrame &f, const QFontMetrics &fm);
    static QRect dataRect(const QSize &size, int labelWidth = kLabelWidth) {
        return QRect(labelWidth, kHeaderHeight, size.width() - labelWidth, size.height() - kHeaderHeight);
    }

private:
    static void paintTracks(QPainter &p, const TimelineFrame &f, std::vector<TimelineHit> &hits);
    static void paintItems(QPainter &p, const TimelineFrame &f, const TimelineRow &row, const std::vector<TimelineItem> &items,
                           std::vector<TimelineHit> &hits);
    static void paintFlows(QPainter &p, const TimelineFrame &f, bool visiblePairs, std::vector<TimelineFlow> &drawn);
    static void paintSearchHits(QPainter &p, const TimelineFrame &f);
    static void paintCriticalPath(QPainter &p, const TimelineFrame &f);
    static void paintLabels(QPainter &p, const TimelineFrame &f);
    static void paintCompactLabel(QPainter &p, const TimelineFrame &f, const TimelineRow &row, int y);
    static void paintRuler(QPainter &p, const TimelineFrame &f);
    static void paintSteps(QPainter &p, const TimelineFrame &f);
};

} // namespace stepscope
