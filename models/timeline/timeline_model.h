#pragma once
// TimelineModel is the timeline's data side (Qt Creator tracing-library style: a plain QObject with
// an index API, no QAbstractItemModel per event). It owns the session's track list grouped
// run -> device/host, the steps, and the level-of-detail fetch: fetch(track, range, nsPerPixel)
// returns what to draw — every slice at least a pixel wide as itself, narrower ones merged into
// counted density blocks — reading the precomputed summaries (TimelineLodCache) when zoomed out and
// exact slices (TimelineSliceCache) when zoomed in. TimelineView draws it; SliceDetailsView,
// TimelineSearchModel and RangeAggregateModel ask it about slices. Times are absolute ns.

#include "models/qt/time_range_controller.h"
#include "models/store/session_store.h"
#include "models/store/slice_lookup.h"
#include "models/timeline/timeline_lod_cache.h"
#include "models/timeline/timeline_slice_cache.h"
#include "models/timeline/timeline_types.h"
#include "models/timeline/timeline_window_loader.h"

#include <QColor>
#include <QElapsedTimer>
#include <QHash>
#include <QObject>

#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

namespace stepscope {

class MetricLod;
class MetricSeriesModel;
struct RunRow;
struct TrackRow;

class TimelineModel : public QObject {
    Q_OBJECT
public:
    explicit TimelineModel(QObject *parent = nullptr);
    ~TimelineModel() override;

    // Reads runs, tracks and steps and makes the level-of-detail cache current (built the first
    // time a session is opened after an import). nullptr clears. Emits modelReset().
    void load(SessionStore *store);
    SessionStore *store() const { return m_store; }
    // Instance metrics to show as metric tracks (a top-level "Instance metrics" group), kept in step
    // with the model's seriesChanged(). nullptr: none. The model must outlive this one's use of it.
    void setMetricSeries(const MetricSeriesModel *metrics);

    const std::vector<TimelineTrack> &tracks() const { return m_tracks; }
    const std::vector<TimelineGroup> &groups() const { return m_groups; }
    const std::vector<TimelineStep> &steps() const { return m_steps; }  // all runs, by start
    int trackIndex(int64_t trackId) const;
    NsRange extent() const { return m_extent; }
    int64_t sliceCount() const { return m_sliceCount; }
    // The union of step `step`'s spans over the runs that have it; invalid when none.
    NsRange stepRange(int64_t step) const;

    // View-only display shifts per run (the timeline's "align ranks at a step"): run `runId` is drawn
    // `offsetNs` later than recorded. Everything the model hands out or takes — fetch(), steps(),
    // flows, details, value tracks — is then on this display axis; slices are not copied (each
    // track's baseNs moves) and the session is not touched. Runs not named keep their times; {}
    // restores them all. Emits runOffsetsChanged() when something moved.
    void setRunOffsets(std::unordered_map<int64_t, int64_t> offsets);
    int64_t runOffset(int64_t runId) const;
    bool hasRunOffsets() const { return !m_runOffsets.empty(); }
    // The group index of run `runId` (its header), or -1.
    int runGroup(int64_t runId) const;
    // Where run `runId`'s step `step` starts as recorded (no display shift); nullopt when it has none.
    std::optional<int64_t> recordedStepStart(int64_t runId, int64_t step) const;

    // Counter and metric tracks: their samples (nullptr for slice tracks) and the value at instant t:
    // a counter's last sample at or before t; a metric's sample whose period holds t (a sample
    // describes the period before its time stamp), none where the metric has a gap.
    const TimelineValueSeries *valueSeries(int track) const;
    std::optional<double> valueAt(int track, int64_t t) const;

    // Items to draw for track `track` over `range` at `nsPerPixel`. Appends to `out`.
    void fetch(int track, NsRange range, double nsPerPixel, std::vector<TimelineItem> &out);
    // Starts a frame. Inside a frame, exact slices are never read on the caller's thread when the
    // session is a file: windows are requested from the TimelineWindowLoader and the track is drawn
    // from its summary until detailLoaded(). Otherwise (in-memory sessions) reads are synchronous
    // within `loadBudgetMs`; once spent, remaining tracks are drawn from the finest summary and
    // budgetExhausted() asks the view for one more frame. Outside frames fetch() reads directly.
    void beginFrame(double loadBudgetMs = 3.0);
    void endFrame() { m_frameClock.invalidate(); }
    bool budgetExhausted() const { return m_incomplete; }
    bool detailPending() const { return !m_requested.empty(); }
    // Some track was drawn from a summary where exact slices are on their way.
    bool frameIncomplete() const { return m_incomplete || detailPending(); }
    // Waits (at most timeoutMs) for requested windows and installs them; true when none is left.
    bool finishLoading(int timeoutMs = 5000);
    // Off: every read synchronous (what tests that compare exact fetches use). On by default.
    void setBackgroundLoading(bool on) { m_background = on; }

    // Flows (launch -> kernel) with an end inside `range`, among tracks drawn exactly.
    std::vector<TimelineFlow> flows(NsRange range, const std::vector<int> &visibleTracks);
    // Every flow into or out of one slice (the selection's arrows), wherever its ends are.
    std::vector<TimelineFlow> flowsOf(int64_t sliceId) const;
    // The slice id behind a drawn item (summary items carry none), or -1.
    int64_t resolveSliceId(int track, const TimelineItem &item) const;
    SliceDetails details(int64_t sliceId) const;
    // The interned text of a name id (cached; names are read on first use).
    QString nameText(int64_t nameId) const;
    // The colour of a name id: nameColorForText of its text (cached).
    QColor nameColorOf(int64_t nameId) const;

    size_t memoryBytes() const { return m_lod.memoryBytes() + m_slices.memoryBytes(); }
    bool lodBuiltOnLoad() const { return m_lod.builtOnLoad(); }

signals:
    void modelReset();
    void runOffsetsChanged();  // display shifts changed: draw again, re-read what was placed in time
    void detailLoaded();  // requested windows arrived: draw again

private:
    void readTracks();
    // A counter track's samples on the absolute axis; nullptr when it has none.
    std::unique_ptr<MetricLod> readCounterSamples(int64_t trackId, int64_t baseNs) const;
    void addCounterTrack(const TrackRow &row, const RunRow &run, int group, std::unique_ptr<MetricLod> samples);
    void rebuildMetricTracks();
    void addMetricTracks();
    void requestWindow(int64_t trackId, const TrackLod *lod, int64_t lo, int64_t hi, int64_t t0, int64_t t1);
    void installResults();
    // A stored flow on the tracks' absolute axis and lanes; nullopt when a track is unknown.
    std::optional<TimelineFlow> placeFlow(const RawFlow &f) const;
    void fetchExact(const TimelineTrack &t, const TimelineSliceCache::Window &w, int64_t t0, int64_t t1,
                    double nsPerPixel, std::vector<TimelineItem> &out) const;
    void fetchSummary(const TimelineTrack &t, const TrackLod &lod, int level, int64_t t0, int64_t t1,
                      double nsPerPixel, std::vector<TimelineItem> &out) const;

    SessionStore *m_store = nullptr;
    TimelineLodCache m_lod;
    TimelineSliceCache m_slices;
    std::unique_ptr<SliceLookup> m_lookup;  // single-slice questions and names of the session set
    std::vector<TimelineTrack> m_tracks;
    std::vector<TimelineGroup> m_groups;
    std::vector<TimelineStep> m_steps;          // on the display axis
    std::vector<TimelineStep> m_recordedSteps;  // as recorded
    std::unordered_map<int64_t, int64_t> m_runOffsets;  // run id -> display shift (ns), none zero
    std::vector<TimelineValueSeries> m_values;
    std::vector<std::unique_ptr<MetricLod>> m_counterLods;  // owned samples of counter tracks
    const MetricSeriesModel *m_metrics = nullptr;
    QMetaObject::Connection m_metricsConnection;
    size_t m_metricTracksBegin = 0, m_metricGroupsBegin = 0, m_metricValuesBegin = 0;
    std::unordered_map<int64_t, int> m_trackIndex;
    NsRange m_extent;
    int64_t m_sliceCount = 0;
    mutable QHash<int64_t, QString> m_names;
    mutable QHash<int64_t, QColor> m_colors;
    TimelineWindowLoader *m_loader;
    uint64_t m_generation = 0;
    std::unordered_map<int64_t, TimelineSliceCache::Span> m_requested;  // track id -> window on its way
    std::unordered_map<int64_t, bool> m_syncOnly;  // tracks the loader failed on: read directly
    bool m_background = true;
    QElapsedTimer m_frameClock;
    double m_loadBudgetMs = 6.0;
    bool m_incomplete = false;
};

} // namespace stepscope
