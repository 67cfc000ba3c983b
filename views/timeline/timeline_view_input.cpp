// TimelineView: mouse, wheel and keyboard handling (Perfetto conventions), tooltips, context menu.
#include "views/timeline/timeline_view.h"

#include "models/text/display_text.h"

#include "models/metrics/metric_units.h"
#include "models/text/time_format.h"
#include "views/annotations/timeline_annotation_overlay.h"
#include "views/timeline/keyboard_shortcuts.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QClipboard>
#include <QGuiApplication>
#include <QMenu>
#include <QLineEdit>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QTextEdit>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace stepscope {

namespace {
constexpr int kDragThreshold = 3;

int stepAt(const TimelineModel &model, int64_t t) {
    const auto &steps = model.steps();
    for (size_t i = 0; i < steps.size(); ++i)
        if (t >= steps[i].startNs && t < steps[i].startNs + steps[i].durNs) return int(i);
    return -1;
}
} // namespace

void TimelineView::wheelEvent(QWheelEvent *event) {
    const QPoint angle = event->angleDelta();
    if (event->modifiers() & Qt::ControlModifier) {
        const double steps = angle.y() / 120.0;
        const double x = std::max(double(labelWidth()), event->position().x());
        zoomBy(std::pow(0.8, steps), timeAt(x));
    } else if ((event->modifiers() & Qt::ShiftModifier) || std::abs(angle.x()) > std::abs(angle.y())) {
        const int d = angle.x() != 0 ? angle.x() : angle.y();
        panBy(-d / 120.0 * 0.1);
    } else {
        const QPoint px = event->pixelDelta();
        setScrollY(m_scrollY - (px.isNull() ? angle.y() * 60 / 120 : px.y()));
    }
    event->accept();
}

bool TimelineView::clickLabel(QPoint pos) {
    if (pos.x() >= labelWidth() || pos.y() < TimelinePainter::kHeaderHeight) return false;
    const TimelineRow *row = m_layout.rowAt(pos.y() - TimelinePainter::kHeaderHeight + m_scrollY);
    if (row && row->kind == TimelineRow::Kind::Track) {  // a track's label: drag it to reorder
        m_drag = Drag::MoveTrack;
        m_dragTrack = row->index;
    } else if (row) {
        setGroupCollapsed(row->index, !m_layout.isCollapsed(row->index));
    }
    return true;
}

bool TimelineView::eventFilter(QObject *watched, QEvent *event) {
    if (event->type() != QEvent::KeyPress || watched == this || !isVisible()) return QWidget::eventFilter(watched, event);
    auto *key = static_cast<QKeyEvent *>(event);
    const int k = key->key();
    if ((k != Qt::Key_W && k != Qt::Key_A && k != Qt::Key_S && k != Qt::Key_D) || (key->modifiers() & ~Qt::KeypadModifier) ||
        !rect().contains(mapFromGlobal(QCursor::pos())))
        return QWidget::eventFilter(watched, event);
    QWidget *focus = QApplication::focusWidget();
    const auto *combo = qobject_cast<QComboBox *>(focus);
    const bool typing = qobject_cast<QLineEdit *>(focus) || qobject_cast<QAbstractSpinBox *>(focus) ||
                        qobject_cast<QTextEdit *>(focus) || qobject_cast<QPlainTextEdit *>(focus) || (combo && combo->isEditable());
    if (focus == this || typing || (focus && focus->window() != window())) return QWidget::eventFilter(watched, event);
    keyPressEvent(key);
    return true;
}

void TimelineView::mousePressEvent(QMouseEvent *event) {
    setFocus(Qt::MouseFocusReason);  // the keys act on the timeline after a click on it
    m_pressPos = m_lastPos = event->position().toPoint();
    m_moved = false;
    m_drag = Drag::None;
    if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
    if (onLabelEdge(m_pressPos)) {
        m_drag = Drag::ResizeLabels;
        m_pressLabelWidth = labelWidth();
        return;
    }
    if (clickLabel(m_pressPos)) return;
    m_pressTime = timeAt(m_pressPos.x());
    const bool onHeader = m_pressPos.y() < TimelinePainter::kHeaderHeight;
    m_drag = (onHeader || (event->modifiers() & Qt::ShiftModifier)) ? Drag::Select : Drag::Pan;
    if (m_drag == Drag::Pan) setCursor(Qt::ClosedHandCursor);
}

void TimelineView::mouseMoveEvent(QMouseEvent *event) {
    const QPoint pos = event->position().toPoint();
    if (m_drag == Drag::None) {  // the column's grip says it can be dragged
        if (onLabelEdge(pos)) setCursor(Qt::SplitHCursor); else unsetCursor();
        return;
    }
    if ((pos - m_pressPos).manhattanLength() >= kDragThreshold) m_moved = true;
    if (!m_moved) return;
    if (m_drag == Drag::ResizeLabels) {
        setLabelWidth(m_pressLabelWidth + pos.x() - m_pressPos.x(), false);
    } else if (m_drag == Drag::MoveTrack) {
        // Take the place of the track under the cursor when it is a neighbour in the same group.
        setCursor(Qt::SizeVerCursor);
        const TimelineRow *row = m_layout.rowAt(pos.y() - TimelinePainter::kHeaderHeight + m_scrollY);
        const auto &tracks = m_model->tracks();
        if (row && row->kind == TimelineRow::Kind::Track && row->index != m_dragTrack &&
            tracks[size_t(row->index)].group == tracks[size_t(m_dragTrack)].group &&
            m_layout.moveTrack(*m_model, m_dragTrack, m_layout.positionInGroup(*m_model, row->index)))
            relayout();
    } else if (m_drag == Drag::Pan) {
        const NsRange r = range();
        const QRect d = TimelinePainter::dataRect(size(), labelWidth());
        const int64_t dt = int64_t(std::llround(double(pos.x() - m_lastPos.x()) * double(r.duration()) / std::max(1, d.width())));
        if (dt != 0) m_time->setRange({r.start - dt, r.end - dt}, false);
        setScrollY(m_scrollY - (pos.y() - m_lastPos.y()));
    } else {
        m_time->setSelection({m_pressTime, timeAt(pos.x())});
    }
    m_lastPos = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent *event) {
    const QPoint pos = event->position().toPoint();
    const Drag drag = m_drag;
    m_drag = Drag::None;
    unsetCursor();
    if (drag == Drag::ResizeLabels) {
        if (m_moved) setLabelWidth(m_pressLabelWidth + pos.x() - m_pressPos.x());
    } else if (drag == Drag::MoveTrack) {
        if (m_moved) saveChoices();
    } else if (drag == Drag::Pan && m_moved) {
        m_time->commitHistory();
    } else if (!m_moved && drag != Drag::None) {
        if (pos.y() >= TimelinePainter::kRulerHeight && pos.y() < TimelinePainter::kHeaderHeight) {
            const int s = stepAt(*m_model, timeAt(pos.x()));  // a click on a step zooms to it
            if (s >= 0) goToStep(m_model->steps()[size_t(s)].step);
        } else if (pos.y() < TimelinePainter::kRulerHeight) {
            m_time->clearSelection();
        } else {
            clickAt(pos);
        }
    }
}

void TimelineView::clickAt(QPoint pos) {
    const TimelineHit *hit = hitAt(pos);
    if (!hit || hit->item.block) return clearSelectedSlice();
    const int64_t id = m_model->resolveSliceId(hit->track, hit->item);
    m_selectedTrack = hit->track;
    m_selectedItem = hit->item;
    selectSlice(id);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent *event) {
    const TimelineHit *hit = hitAt(event->position().toPoint());
    if (!hit) return;
    const int64_t margin = std::max<int64_t>(500, hit->item.durNs / 10);
    m_time->setRange({hit->item.startNs - margin, hit->item.endNs() + margin});
}

void TimelineView::keyPressEvent(QKeyEvent *event) {
    QPoint cursor = mapFromGlobal(QCursor::pos());
    const QRect d = TimelinePainter::dataRect(size(), labelWidth());
    const double anchorX = d.contains(cursor) ? cursor.x() : d.center().x();
    switch (event->key()) {
    case Qt::Key_W: zoomBy(0.8, timeAt(anchorX)); break;
    case Qt::Key_S: zoomBy(1.25, timeAt(anchorX)); break;
    case Qt::Key_A: panBy(-0.1); break;
    case Qt::Key_D: panBy(0.1); break;
    case Qt::Key_F:
        if (m_time->selection().valid()) {
            m_time->zoomToSelection();
        } else if (m_selectedTrack >= 0) {
            const int64_t margin = std::max<int64_t>(500, m_selectedItem.durNs / 10);
            m_time->setRange({m_selectedItem.startNs - margin, m_selectedItem.endNs() + margin});
        }
        break;
    case Qt::Key_Question: KeyboardShortcuts::showDialog(this); break;
    case Qt::Key_R:  // ranks aligned at the step under the mouse, or back to the recorded times
        if (m_alignedStep) clearAlignment();
        else if (const auto step = stepNear(timeAt(anchorX)); step && canAlignRuns()) alignRunsAtStep(*step);
        break;
    case Qt::Key_Escape:
        m_time->clearSelection();
        clearSelectedSlice();
        break;
    case Qt::Key_Up:
    case Qt::Key_Down:
        if ((event->modifiers() & Qt::AltModifier) && m_selectedTrack >= 0) {  // Alt+Up/Down: move the track
            moveTrack(m_selectedTrack, m_layout.positionInGroup(*m_model, m_selectedTrack) + (event->key() == Qt::Key_Up ? -1 : 1));
            ensureTrackVisible(m_selectedTrack);
        } else {
            setScrollY(m_scrollY + (event->key() == Qt::Key_Up ? -40 : 40));
        }
        break;
    default: return QWidget::keyPressEvent(event);
    }
    event->accept();
}

bool TimelineView::event(QEvent *e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto *help = static_cast<QHelpEvent *>(e);
    const QPoint pos = help->pos();
    QString text;
    // A note under the pointer: its whole text (the label may be cut to fit).
    const int64_t note = pos.x() > labelWidth() ? m_annotations->annotationAt(pos) : 0;
    const Annotation *a = note != 0 && m_annotations->model() ? m_annotations->model()->find(note) : nullptr;
    if (a) {
        text = excerptText(a->text, 600).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    } else if (pos.y() >= TimelinePainter::kRulerHeight && pos.y() < TimelinePainter::kHeaderHeight && pos.x() > labelWidth()) {
        const int s = stepAt(*m_model, timeAt(pos.x()));
        if (s >= 0) {
            const TimelineStep &st = m_model->steps()[size_t(s)];
            text = tr("step %1 — %2 (click to zoom)").arg(st.step).arg(formatTime(st.durNs));
        }
    } else if (pos.x() < labelWidth() && pos.y() >= TimelinePainter::kHeaderHeight) {
        const TimelineRow *row = m_layout.rowAt(pos.y() - TimelinePainter::kHeaderHeight + m_scrollY);
        if (row && row->kind == TimelineRow::Kind::Track) {
            text = tr("<b>%1</b><br>drag to reorder · right-click to hide or move")
                       .arg(m_model->tracks()[size_t(row->index)].name.toHtmlEscaped());
            if (m_model->valueSeries(row->index))  // say which label describes what
                text += tr("<br>scale and sampling: the whole run · max: the highest value in view");
        }
    } else if (const QString value = valueTooltip(pos); !value.isEmpty()) {
        text = value;
    } else if (const TimelineHit *hit = hitAt(pos)) {
        const TimelineItem &it = hit->item;
        const QString name = m_model->nameText(it.nameId).toHtmlEscaped();
        if (it.block)
            text = tr("<b>%L1 events</b><br>busy %2 over %3<br>mostly <i>%4</i>")
                       .arg(it.count).arg(formatTime(it.busyNs), formatTime(it.durNs), name);
        else
            text = tr("<b>%1</b><br>%2").arg(name, formatTime(it.durNs));
    }
    if (text.isEmpty()) QToolTip::hideText(); else QToolTip::showText(help->globalPos(), text, this);
    return true;
}

QString TimelineView::valueTooltip(QPoint pos) const {
    if (pos.x() < labelWidth()) return {};
    const TimelineRow *row = m_layout.rowAt(pos.y() - TimelinePainter::kHeaderHeight + m_scrollY);
    if (!row || row->kind != TimelineRow::Kind::Track) return {};
    const TimelineValueSeries *series = m_model->valueSeries(row->index);
    if (!series) return {};
    const int64_t t = timeAt(pos.x());
    const QString name = m_model->tracks()[size_t(row->index)].name.toHtmlEscaped();
    const std::optional<double> v = m_model->valueAt(row->index, t);
    if (!v) return tr("<b>%1</b><br>no sample here").arg(name);
    const UnitScale scale = MetricUnits::scaleFor(series->unit, std::fabs(*v));
    return tr("<b>%1</b><br>%2").arg(name, MetricUnits::format(*v, scale));
}

void TimelineView::addSliceActions(QMenu &menu, const TimelineHit &hit) {
    const TimelineItem it = hit.item;
    const QString name = m_model->nameText(it.nameId);
    const QString shown = name.size() > 60 ? name.left(57) + QStringLiteral("…") : name;
    if (it.block) {  // a merged block: zoom in to see its events
        menu.addAction(tr("Zoom to These %L1 Events").arg(it.count), this, [this, it] { m_time->setRange({it.startNs, it.endNs()}); });
        return;
    }
    menu.addAction(tr("Copy Name"), this, [name] { QGuiApplication::clipboard()->setText(name); });
    menu.addAction(tr("Copy Details"), this, [this, it, name, track = hit.track] {
        const QString trackName = track >= 0 && track < int(m_model->tracks().size()) ? m_model->tracks()[size_t(track)].name : QString();
        QGuiApplication::clipboard()->setText(tr("%1\ntrack: %2\nstart: %3 (from the session's start)\nduration: %4")
                                                  .arg(name, trackName, formatTime(it.startNs - m_model->extent().start),
                                                       formatTime(it.durNs)));
    });
    menu.addAction(tr("Find All “%1”").arg(shown), this, [this, name] { emit findAllRequested(name); });
    menu.addAction(tr("Zoom to Slice"), this, [this, it] {
        const int64_t margin = std::max<int64_t>(500, it.durNs / 10);
        m_time->setRange({it.startNs - margin, it.endNs() + margin});
    });
    if (const auto step = stepNear(it.startNs))
        menu.addAction(tr("Zoom to Its Step (%1)").arg(*step), this, [this, step = *step] { goToStep(step); });
    menu.addAction(tr("Select"), this, [this, id = it.sliceId] { selectSlice(id); });
}

void TimelineView::contextMenuEvent(QContextMenuEvent *event) {
    if (event->pos().y() < TimelinePainter::kHeaderHeight) return;
    if (event->pos().x() >= labelWidth()) {  // over the tracks: the slice there, then annotations
        QMenu menu(this);
        if (const TimelineHit *hit = hitAt(event->pos())) addSliceActions(menu, *hit);
        if (!menu.isEmpty()) menu.addSeparator();
        addAlignmentAction(menu, timeAt(event->pos().x()));
        if (!menu.isEmpty()) menu.addSeparator();
        std::optional<NsRange> slice;
        if (const TimelineHit *hit = hitAt(event->pos()); hit && !hit->item.block) slice = NsRange{hit->item.startNs, hit->item.endNs()};
        m_annotations->addMenuActions(menu, event->pos(), timeAt(event->pos().x()), slice);
        if (!menu.isEmpty()) menu.exec(event->globalPos());
        return;
    }
    const TimelineRow *row = m_layout.rowAt(event->pos().y() - TimelinePainter::kHeaderHeight + m_scrollY);
    QMenu menu(this);
    if (row && row->kind == TimelineRow::Kind::Track) {
        const int track = row->index;
        menu.addAction(tr("Hide “%1”").arg(m_model->tracks()[size_t(track)].name), this, [this, track] { setTrackHidden(track, true); });
        const int at = m_layout.positionInGroup(*m_model, track);
        const int last = int(m_model->groups()[size_t(m_model->tracks()[size_t(track)].group)].tracks.size()) - 1;
        menu.addAction(tr("Move Up"), this, [this, track, at] { moveTrack(track, at - 1); })->setEnabled(at > 0);
        menu.addAction(tr("Move Down"), this, [this, track, at] { moveTrack(track, at + 1); })->setEnabled(at < last);
        menu.addAction(tr("Move to Top"), this, [this, track] { moveTrack(track, 0); })->setEnabled(at > 0);
        menu.addAction(tr("Move to Bottom"), this, [this, track, last] { moveTrack(track, last); })->setEnabled(at < last);
    } else if (row) {
        const int group = row->index;
        const bool collapsed = m_layout.isCollapsed(group);
        menu.addAction(collapsed ? tr("Expand") : tr("Collapse"), this, [this, group, collapsed] { setGroupCollapsed(group, !collapsed); });
    }
    QAction *showAll = menu.addAction(tr("Show All Tracks (%1 hidden)").arg(m_layout.hiddenCount()), this, &TimelineView::showAllTracks);
    showAll->setEnabled(m_layout.hiddenCount() > 0);
    menu.addSeparator();
    addAlignmentAction(menu, timeAt(TimelinePainter::dataRect(size(), labelWidth()).center().x()));
    menu.exec(event->globalPos());
}

} // namespace stepscope
