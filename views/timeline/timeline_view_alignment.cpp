// TimelineView: ranks aligned at a step (a display-only shift per run, TimelineModel::setRunOffsets)
// and bringing one run into view for the Job dock.
#include "views/timeline/timeline_view.h"

#include "models/timeline/timeline_compact_tracks.h"

#include <QMenu>
#include <QSettings>

#include <utility>

#include <algorithm>
#include <set>

namespace stepscope {

namespace {
// QSettings: the user's habit, not the session's data.
constexpr const char *kAlignSetting = "timeline/alignRanks";
constexpr const char *kAlignStepSetting = "timeline/alignStep";
constexpr const char *kCompactSetting = "timeline/compactRanks";

void rememberAlignment(std::optional<int64_t> step) {
    QSettings settings;
    settings.setValue(kAlignSetting, step.has_value());
    if (step) settings.setValue(kAlignStepSetting, qint64(*step));
}
} // namespace

bool TimelineView::compactRanksSetting() { return QSettings().value(kCompactSetting, true).toBool(); }

void TimelineView::setCompactRanks(bool on) {
    QSettings().setValue(kCompactSetting, on);
    if (on == m_compactRanks) return;
    m_compactRanks = on;
    applyCompact();
    emit compactRanksChanged(on);
}

void TimelineView::applyCompact() {
    // The ranks of a job, aligned or as recorded: each shows its two tracks when compact is on.
    std::vector<int64_t> runs = m_alignedRuns;
    if (!m_alignedStep)
        for (const TimelineGroup &g : m_model->groups())
            if (g.parent < 0 && g.runId != 0 && g.rank) runs.push_back(g.runId);
    std::vector<int> tracks;
    if (m_compactRanks && runs.size() >= 2)
        for (int64_t run : runs)
            for (int t : compactTracksOf(*m_model, run)) tracks.push_back(t);
    if (tracks == m_layout.compactTracks()) return;
    const bool entering = !m_layout.isCompact() && !tracks.empty();
    m_layout.setCompactTracks(std::move(tracks));
    relayout();
    if (entering) setScrollY(0);  // every rank, from the first
}

bool TimelineView::canAlignRuns() const {
    std::set<int64_t> runs;
    for (const TimelineStep &s : m_model->steps()) runs.insert(s.runId);
    return runs.size() >= 2;
}

QHash<qint64, qint64> TimelineView::recordedStepStarts(int64_t step) const {
    QHash<qint64, qint64> starts;
    for (const TimelineGroup &g : m_model->groups())
        if (g.parent < 0 && g.runId != 0)
            if (const auto start = m_model->recordedStepStart(g.runId, step)) starts.insert(g.runId, *start);
    return starts;
}

bool TimelineView::alignRunsAtStep(int64_t step) { return alignRuns(recordedStepStarts(step), step); }

bool TimelineView::alignRuns(const QHash<qint64, qint64> &recordedStarts, int64_t step) {
    return applyAlignment(recordedStarts, step, true);
}

bool TimelineView::applyAlignment(const QHash<qint64, qint64> &recordedStarts, int64_t step, bool zoom) {
    // The first run (in the timeline's order) keeps its times: the shared time range, the other
    // views and the annotations stay true for it.
    std::optional<int64_t> reference;
    std::vector<int64_t> runs;
    for (const TimelineGroup &g : m_model->groups()) {
        if (g.parent >= 0 || !recordedStarts.contains(g.runId)) continue;
        if (!reference) reference = recordedStarts.value(g.runId);
        runs.push_back(g.runId);
    }
    if (!reference || runs.size() < 2) return false;
    std::unordered_map<int64_t, int64_t> offsets;
    for (auto it = recordedStarts.begin(); it != recordedStarts.end(); ++it) offsets[it.key()] = *reference - it.value();
    m_model->setRunOffsets(std::move(offsets));
    const bool changed = m_alignedStep != step || m_alignedAt != *reference;
    m_alignedStep = step;
    m_alignedAt = *reference;
    m_alignedRuns = std::move(runs);
    rememberAlignment(step);
    applyCompact();
    if (zoom) {  // the aligned step: from its common start to the end of its longest instance
        int64_t end = *reference + 1;
        for (const TimelineStep &s : m_model->steps())
            if (s.startNs == *reference) end = std::max(end, s.startNs + s.durNs);
        const int64_t margin = std::max<int64_t>(1, (end - *reference) / 20);
        m_time->setRange({*reference - margin, end + margin});
    }
    update();
    if (changed) emit alignmentChanged(true, step);
    return true;
}

void TimelineView::clearAlignment(bool remember) {
    if (remember) rememberAlignment(std::nullopt);
    if (!m_alignedStep) return;
    m_alignedStep.reset();
    m_alignedAt = 0;
    m_alignedRuns.clear();
    m_model->setRunOffsets({});
    applyCompact();
    update();
    emit alignmentChanged(false, 0);
}

void TimelineView::restoreAlignment() {
    QSettings settings;
    if (!settings.value(kAlignSetting, false).toBool() || !canAlignRuns()) return;
    // The habit is a job's (ranks of one step); runs that are not ranks (captures recorded minutes
    // apart, two runs opened together) open as recorded.
    int ranks = 0;
    for (const TimelineGroup &g : m_model->groups()) ranks += g.parent < 0 && g.rank.has_value();
    if (ranks < 2) return;
    auto at = [this](int64_t step) { return applyAlignment(recordedStepStarts(step), step, false); };
    // A session without that step: its first step.
    if (!at(settings.value(kAlignStepSetting, 0).toLongLong())) at(m_model->steps().front().step);
}

std::optional<int64_t> TimelineView::stepNear(int64_t t) const {
    const auto &steps = m_model->steps();
    if (steps.empty()) return std::nullopt;
    const TimelineStep *best = nullptr;
    int64_t bestDistance = 0;
    for (const TimelineStep &s : steps) {
        const int64_t d = t < s.startNs ? s.startNs - t : (t >= s.startNs + s.durNs ? t - (s.startNs + s.durNs) + 1 : 0);
        if (!best || d < bestDistance) {
            best = &s;
            bestDistance = d;
        }
        if (d == 0) break;
    }
    return best->step;
}

void TimelineView::addAlignmentAction(QMenu &menu, int64_t t) {
    if (m_alignedStep) {
        menu.addAction(tr("Leave Rank Alignment at Step %1\tR").arg(*m_alignedStep), this,
                       [this] { clearAlignment(); });
        QAction *compact = menu.addAction(tr("Compact Ranks (Main Thread and Busiest GPU Stream)"), this,
                                          [this](bool on) { setCompactRanks(on); });
        compact->setCheckable(true);
        compact->setChecked(m_compactRanks);
    } else if (canAlignRuns()) {
        if (const auto step = stepNear(t))
            menu.addAction(tr("Align Ranks at Step %1\tR").arg(*step), this, [this, s = *step] { alignRunsAtStep(s); });
    }
}

void TimelineView::focusRuns(const std::vector<int64_t> &runIds) {
    for (int group : std::exchange(m_foldedForFocus, {})) m_layout.setCollapsed(group, false);
    if (!runIds.empty()) {
        const auto &groups = m_model->groups();
        for (int g = 0; g < int(groups.size()); ++g) {
            if (groups[size_t(g)].parent >= 0 || groups[size_t(g)].runId == 0) continue;
            const bool shown = std::find(runIds.begin(), runIds.end(), groups[size_t(g)].runId) != runIds.end();
            if (shown) {
                m_layout.setCollapsed(g, false);
            } else if (!m_layout.isCollapsed(g)) {
                m_layout.setCollapsed(g, true);
                m_foldedForFocus.push_back(g);
            }
        }
    }
    relayout();
    setScrollY(0);
}

bool TimelineView::revealRun(int64_t runId, NsRange recorded) {
    const int group = m_model->runGroup(runId);
    if (group < 0) return false;
    m_highlightedRun = group;
    if (!m_layout.isCompact() && m_layout.isCollapsed(group)) {  // shown for a look, not a choice: not saved
        m_layout.setCollapsed(group, false);
        relayout();
    }
    // Its header, or in compact mode its first row (which names it).
    const auto &tracks = m_model->tracks();
    const auto &groups = m_model->groups();
    const auto &rows = m_layout.rows();
    const auto first = std::find_if(rows.begin(), rows.end(), [&](const TimelineRow &row) {
        return row.kind == TimelineRow::Kind::RunHeader ? row.index == group
                                                         : row.runTitle && groups[size_t(tracks[size_t(row.index)].group)].parent == group;
    });
    if (first != rows.end() && !(m_layout.isCompact() && first->y + first->height <= m_scrollY + height() - TimelinePainter::kHeaderHeight &&
                                 first->y >= m_scrollY))
        setScrollY(first->y);  // (a compact rank already on screen stays where it is)
    if (recorded.valid()) {
        const int64_t offset = m_model->runOffset(runId);
        m_time->setRange({recorded.start + offset, recorded.end + offset});
    }
    update();
    return true;
}

} // namespace stepscope
