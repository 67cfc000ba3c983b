#pragma once
// TimelineView is the trace timeline widget (custom QPainter painting, no QGraphicsView): tracks
// grouped run -> device/host with collapsible headers and hideable tracks, slices by depth, density
// blocks, ruler, steps, flow arrows. It follows the shared TimeRangeController (applies incoming
// ranges without re-emitting them) and drives it on zoom, pan and range selection. Navigation follows
// Perfetto: W/S zoom, A/D pan, wheel scrolls tracks, Ctrl+wheel zooms at the cursor, drag pans,
// Shift+drag or a drag on the ruler selects a range, F zooms to it, Esc clears; the name column's
// right edge drags to resize it. Clicking a slice
// emits sliceSelected() with its details. Created by TimelinePaneView (or MainWindow directly).

#include "models/qt/session_models.h"
#include "models/qt/session_model.h"
#include "models/qt/time_range_controller.h"
#include "models/timeline/timeline_model.h"
#include "models/timeline/timeline_search_model.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/timeline_painter.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QMenu;

namespace stepscope {

class MetricSeriesModel;
class TimelineAnnotationOverlay;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    // `session` may be null when the caller loads the model itself (tests, benchmarks).
    // `models`: the session's shared models (SessionModels::of), from the view's owner; a null session
    // draws what a test loads into model() itself.
    explicit TimelineView(const SessionModels &models, QWidget *parent = nullptr);

    TimelineModel *model() const { return m_model; }
    // Shows these instance metrics as metric tracks (MainWindow shares its model with the
    // utilization view). nullptr: no metric tracks.
    void setMetricSeries(MetricSeriesModel *metrics);
    TimeRangeController *timeController() const { return m_time; }
    TimelineLayout &layout() { return m_layout; }

    // Zooms every view to step `step` (with a small margin); false when the session has no such step.
    bool goToStep(int64_t step);

    // Ranks aligned at a step (issue #15), a view-only transform: every run is drawn shifted so that
    // its step `step` starts where the first such run's does, its header naming its rank and shift,
    // and the ruler counts from there ("relative to step N start"). Nothing is written to the
    // session; the mode itself (on/off, the step) is remembered in QSettings ("timeline/alignRanks").
    // R toggles it at the step under the mouse. Zooms to the aligned step; false when fewer than two
    // runs have it.
    bool alignRunsAtStep(int64_t step);
    // The same from each run's own start of the step (run id -> recorded start), for ranks whose
    // step numbers differ (the Job dock aligns by order then); `step` names it on the ruler.
    bool alignRuns(const QHash<qint64, qint64> &recordedStarts, int64_t step);
    // Back to the recorded times (what the user asks for; `remember`: the mode stays off next time).
    void clearAlignment(bool remember = true);
    // The mode as the user last left it (QSettings), at the remembered step or else the first, without
    // zooming. MainWindow calls it when a session opens; pictures rendered for the command line and
    // the evidence pack never do: they show the recorded times, whatever the GUI was left in.
    void restoreAlignment();
    std::optional<int64_t> alignedStep() const { return m_alignedStep; }
    // Compact aligned ranks: while aligned, each run shows only its main host thread and busiest GPU
    // stream in thin lanes (compactTracksOf), so that many ranks fit on one screen; the other tracks
    // are folded away, not hidden, and come back when the mode is left or compact is turned off.
    // The preference is the user's (QSettings "timeline/compactRanks", on by default), never the
    // session's.
    void setCompactRanks(bool on);
    bool compactRanks() const { return m_compactRanks; }
    bool isCompact() const { return m_layout.isCompact(); }  // compact now (aligned and preferred)
    int64_t alignedStartNs() const { return m_alignedAt; }  // display time where the aligned step starts
    // Brings run `runId` to the top of the tracks (expanded if it was folded), highlights its header
    // and zooms to `recorded` — a range in that run's own recorded times (shifted when aligned).
    // What a click on a Job-dock heatmap cell does. false when there is no such run.
    bool revealRun(int64_t runId, NsRange recorded);
    // Shows these runs unfolded at the top and folds every other run (a capture picked in the
    // Capture box); empty: unfolds again what this folded. For a look, not a choice: nothing saved.
    void focusRuns(const std::vector<int64_t> &runIds);
    int highlightedRunGroup() const { return m_highlightedRun; }
    // The step under the mouse (or the view centre), as alignment by R would take it; nullopt: none.
    std::optional<int64_t> stepNear(int64_t t) const;
    // At least two runs have steps: aligning them means something.
    bool canAlignRuns() const;
    // Selects a slice by id, scrolls it into view and emits sliceSelected(); -1 clears.
    void selectSlice(int64_t sliceId);
    // selectSlice(), and pans and zooms so that the slice is on screen and wide enough to be drawn
    // as itself, never inside a merged "N events" block (search hits, links followed in Details).
    void revealSlice(int64_t sliceId);
    // Outlines every hit of `search` that is in view (nullptr: none); repaints when they change.
    void setSearch(const TimelineSearchModel *search);
    // The steps' critical paths drawn over the tracks (empty: none drawn).
    void setCriticalPath(std::vector<CriticalPathMark> marks);
    const std::vector<CriticalPathMark> &criticalPath() const { return m_criticalPath; }
    int64_t selectedSliceId() const { return m_selectedSliceId; }
    void setFlowsVisible(bool visible);
    bool flowsVisible() const { return m_showFlows; }
    void setGroupCollapsed(int group, bool collapsed);
    void setTrackHidden(int track, bool hidden);
    void showAllTracks();
    // Moves a track to position `index` within its group (clamped); the order is saved in the
    // session with the other track choices (collapsed groups, hidden tracks).
    void moveTrack(int track, int index);
    // Dragging a track label moves it among its neighbours; these say which track is being dragged.
    int draggedTrack() const { return m_drag == Drag::MoveTrack ? m_dragTrack : -1; }
    // Scrolls vertically so the track is visible.
    void ensureTrackVisible(int track);
    int scrollY() const { return m_scrollY; }
    // The track-name column: dragged wider or narrower at its right edge, remembered in QSettings
    // ("timeline/labelWidth") for every timeline; drawn at most half the view wide.
    static constexpr int kMinLabelWidth = 120;
    static constexpr int kMaxLabelWidth = 640;
    int labelWidth() const;
    void setLabelWidth(int width, bool remember = true);
    bool onLabelEdge(QPoint pos) const;  // the grip that resizes the column
    void setScrollY(int y);

    // Zoom by `factor` (<1 zooms in) around the absolute time `anchor`; pan by a fraction of the span.
    void zoomBy(double factor, int64_t anchor);
    void panBy(double fraction);
    // The item drawn under a widget position in the last frame, if any.
    const TimelineHit *hitAt(QPoint pos) const;
    // The right-click actions for the slice (or merged block) `hit`: copy its name or details, find
    // all of its name, zoom to it or to its step, select it.
    void addSliceActions(QMenu &menu, const TimelineHit &hit);
    int64_t timeAt(double x) const;
    double xOf(int64_t t) const;
    const std::vector<TimelineHit> &lastHits() const { return m_hits; }
    // The flow arrows drawn in the last frame.
    const std::vector<TimelineFlow> &lastArrows() const { return m_arrows; }
    TimelineAnnotationOverlay *annotations() const { return m_annotations; }

signals:
    void sliceSelected(const stepscope::SliceDetails &details);  // invalid details: cleared
    void findAllRequested(const QString &name);  // "Find All" on a slice's menu
    void alignmentChanged(bool aligned, qint64 step);
    void compactRanksChanged(bool on);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    // W/A/S/D while the pointer is over the timeline act on it whichever panel has the focus
    // (unless that panel takes typed text).
    bool eventFilter(QObject *watched, QEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    enum class Drag { None, Pan, Select, MoveTrack, ResizeLabels };
    void reload();
    void relayout();
    void applyModelReset();   // restores the saved track choices onto the new model
    void saveChoices();       // after the user changed one: into the session, then relayout
    QString valueTooltip(QPoint pos) const;
    void clickAt(QPoint pos);
    bool clickLabel(QPoint pos);
    void setRangeContinuous(NsRange r);
    void selectDetails(const SliceDetails &d, bool reveal);
    void clearSelectedSlice();  // emits sliceSelected() with empty details when one was selected
    bool applyAlignment(const QHash<qint64, qint64> &recordedStarts, int64_t step, bool zoom);
    QHash<qint64, qint64> recordedStepStarts(int64_t step) const;  // run id -> where its step starts
    void addAlignmentAction(QMenu &menu, int64_t t);
    void applyCompact();  // the layout follows the alignment and the compact preference
    static bool compactRanksSetting();
    NsRange range() const { return m_time->range(); }

    SessionModel *m_session;
    TimeRangeController *m_time;
    TimelineModel *m_model;
    TimelineLayout m_layout;
    std::vector<TimelineHit> m_hits;
    std::vector<TimelineFlow> m_arrows;
    std::vector<TimelineFlow> m_selectedFlows;  // read once per selection
    TimelineAnnotationOverlay *m_annotations;
    const TimelineSearchModel *m_search = nullptr;
    std::vector<CriticalPathMark> m_criticalPath;  // notes drawn over the tracks, "Annotate…" entries
    int m_scrollY = 0;
    bool m_showFlows = true;
    int64_t m_selectedSliceId = -1;
    int m_selectedTrack = -1;
    TimelineItem m_selectedItem;
    Drag m_drag = Drag::None;
    QPoint m_pressPos, m_lastPos;
    int64_t m_pressTime = 0;
    int m_dragTrack = -1;
    int m_labelWidth;          // as chosen; labelWidth() is what fits
    int m_pressLabelWidth = 0;
    QByteArray m_savedChoices;  // the layout choices as saved in the session (JSON)
    bool m_moved = false;
    std::optional<int64_t> m_alignedStep;  // ranks aligned at this step (display-only run offsets)
    int64_t m_alignedAt = 0;
    int m_highlightedRun = -1;  // run group brought into view from the Job dock
    std::vector<int> m_foldedForFocus;  // run groups focusRuns() folded
    std::vector<int64_t> m_alignedRuns;  // the runs shifted to the aligned step, in timeline order
    bool m_compactRanks;
};

} // namespace stepscope
