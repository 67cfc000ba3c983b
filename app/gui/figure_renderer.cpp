#include "app/gui/figure_renderer.h"

#include "models/analysis/analysis_model.h"
#include "models/annotations/annotation_model.h"
#include "views/export/export_caption.h"
#include "views/timeline/timeline_view.h"

#include <QApplication>

#include <algorithm>
#include <memory>

namespace stepscope::gui {

QString FigureRenderer::exportWith(QWidget *widget, const FigureRequest &r, const QString &file) {
    AnnotationModel *notes = AnnotationModel::of(m_window.session());
    for (const Annotation &a : r.notes) notes->addTransient(a);
    AnalysisModel::of(m_window.session())->finishPending();  // big runs are analysed in the background
    QApplication::processEvents();  // let views repaint and plots replot with the notes
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
