#include "app/gui/figure_renderer.h"

#include "models/analysis/service/analysis_model.h"
#include "models/annotations/annotation_model.h"
#include "views/export/export_caption.h"
#include "views/steps/step_time_view.h"
#include "views/timeline/timeline_painter.h"
#include "views/timeline/timeline_view.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QLayout>
#include <QLineEdit>
#include <QPointer>
#include <QToolBar>

#include <algorithm>
#include <memory>

namespace stepscope::gui {

namespace {
// The tallest a timeline grows to show every track (logical px): beyond it the picture would be
// more than a viewer shows; the tracks that fit are drawn.
constexpr int kMaxTimelineHeight = 8000;

bool isControl(const QWidget *w) {
    return qobject_cast<const QComboBox *>(w) || qobject_cast<const QLineEdit *>(w) || qobject_cast<const QAbstractSpinBox *>(w) ||
           qobject_cast<const QAbstractButton *>(w);
}

// A row of a view's layout holding an input control (run box, search field, Step/Go, filters): a
// toolbar, which says nothing in a picture — the caption says what is shown.
void collectToolbarRows(QLayout *layout, std::vector<QWidget *> &out, std::vector<QLayout *> &rows, bool nested) {
    for (int i = 0; layout && i < layout->count(); ++i) {
        QLayoutItem *item = layout->itemAt(i);
        if (QLayout *sub = item->layout()) {
            if (qobject_cast<QBoxLayout *>(sub) && static_cast<QBoxLayout *>(sub)->direction() <= QBoxLayout::RightToLeft) {
                std::vector<QWidget *> row;
                bool controls = false;
                for (int k = 0; k < sub->count(); ++k)
                    if (QWidget *w = sub->itemAt(k)->widget(); w && w->isVisible()) {
                        row.push_back(w);
                        controls = controls || isControl(w);
                    }
                if (controls) {
                    out.insert(out.end(), row.begin(), row.end());
                    rows.push_back(sub);
                }
            } else if (!nested) {
                collectToolbarRows(sub, out, rows, true);
            }
        }
    }
}
} // namespace

// Hides what is chrome rather than content while a picture is taken (toolbars, rows of controls)
// and lets the timeline grow until its last track is whole; puts everything back when it goes.
class FigureRenderer::Staging {
public:
    Staging(QWidget *target, bool grow) : m_target(target) {
        std::vector<QWidget *> chrome;
        for (QToolBar *bar : target->findChildren<QToolBar *>())
            if (bar->isVisible()) chrome.push_back(bar);
        std::vector<QLayout *> rows;
        collectToolbarRows(target->layout(), chrome, rows, false);
        for (QWidget *w : chrome) {
            w->hide();
            m_hidden.emplace_back(w);
        }
        // An emptied row keeps its margins (and stretch): no height at all while the picture is taken.
        for (QLayout *row : rows) {
            m_margins.emplace_back(row, row->contentsMargins());
            row->setContentsMargins(0, 0, 0, 0);
        }
        settle();
        if (!grow) return;
        m_size = target->size();
        int extra = 0;
        for (TimelineView *t : target->findChildren<TimelineView *>()) {
            if (!t->isVisibleTo(target)) continue;
            m_scroll.emplace_back(t, t->scrollY());
            const int needed = TimelinePainter::kHeaderHeight + t->layout().contentHeight() + 4;
            extra = std::max(extra, std::min(needed, kMaxTimelineHeight) - t->height());
        }
        if (extra > 0) {
            target->resize(m_size.width(), m_size.height() + extra);
            settle();
            for (auto &[t, y] : m_scroll)
                if (t) t->setScrollY(0);
        }
    }
    ~Staging() {
        for (const QPointer<QWidget> &w : m_hidden)
            if (w) w->show();
        for (auto &[row, margins] : m_margins)
            if (row) row->setContentsMargins(margins);
        if (m_size.isValid() && m_target && m_target->size() != m_size) m_target->resize(m_size);
        settle();
        for (auto &[t, y] : m_scroll)
            if (t) t->setScrollY(y);
    }

private:
    void settle() {
        if (!m_target) return;
        if (QLayout *l = m_target->layout()) l->activate();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QApplication::processEvents();
    }
    QPointer<QWidget> m_target;
    std::vector<QPointer<QWidget>> m_hidden;
    std::vector<std::pair<QPointer<QLayout>, QMargins>> m_margins;
    std::vector<std::pair<QPointer<TimelineView>, int>> m_scroll;
    QSize m_size;
};

QString FigureRenderer::exportWith(QWidget *widget, const FigureRequest &r, const QString &file) {
    AnnotationModel *notes = AnnotationModel::of(m_window.session());
    for (const Annotation &a : r.notes) notes->addTransient(a);
    AnalysisModel::of(m_window.session())->finishPending();  // big runs are analysed in the background
    QApplication::processEvents();  // let views repaint and plots replot with the notes
    // A picture of a view is its content: no toolbar, and every timeline track whole. The whole
    // window is exported as it is.
    const bool isWindow = widget == &m_window;
    std::unique_ptr<Staging> staging;
    if (!isWindow) staging = std::make_unique<Staging>(widget, true);
    // The timeline reads detail in the background (or within a per-frame budget); paint until
    // every slice is in.
    for (TimelineView *t : widget->findChildren<TimelineView *>())
        for (int i = 0; i < 200 && (i == 0 || t->model()->frameIncomplete()); ++i) {
            t->grab();
            t->model()->finishLoading();
        }
    ExportOptions o;
    o.scale = r.scale;
    o.documentTitle = r.title.isEmpty() ? QStringLiteral("Stepscope — %1").arg(r.view) : r.title;
    if (r.caption) o.decoration = ExportCaption::build(m_window.session(), m_window.timeRange()->range(), r.view, r.title);
    const QString error = ViewExporter::exportWidget(widget, file, o);
    staging.reset();
    notes->clearTransient();
    return error;
}

QString FigureRenderer::render(const FigureRequest &r, const QString &file) {
    if (r.range.valid()) {
        // Margins around evidence stop at the session's ends.
        const NsRange full = m_window.timeRange()->fullRange();
        NsRange range = r.range;
        if (full.valid()) range = {std::max(range.start, full.start), std::min(range.end, full.end)};
        m_window.timeRange()->setRange(range.valid() ? range : r.range);
    }
    std::unique_ptr<QWidget> single;
    QWidget *target = &m_window;
    if (r.view != QLatin1String("window")) {
        single.reset(m_window.createView(r.view));
        if (!single) return QStringLiteral("unknown view '%1'").arg(r.view);
        // A picture of steps A-B shows their bars, not every step's.
        const TimeRangeController *time = m_window.timeRange();
        if (auto *steps = qobject_cast<StepTimeView *>(single.get());
            steps && time->range().valid() && time->range().duration() < time->fullRange().duration())
            steps->setShowOnlyRange(true);
        single->setAttribute(Qt::WA_DontShowOnScreen);
        single->resize(r.size);
        single->show();
        target = single.get();
    } else {
        m_window.setAttribute(Qt::WA_DontShowOnScreen);
        m_window.resize(r.size);
        m_window.show();
    }
    QApplication::processEvents();
    return exportWith(target, r, file);
}

QString FigureRenderer::renderLive(QWidget *widget, const FigureRequest &r, const QString &file) {
    if (r.range.valid()) m_window.timeRange()->setRange(r.range);
    return exportWith(widget, r, file);
}

} // namespace stepscope::gui
