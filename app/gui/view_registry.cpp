#include "app/gui/view_registry.h"

#include "views/analysis/findings_view.h"
#include "views/analysis/op_stats_view.h"
#include "views/job/job_view.h"
#include "views/log/import_log_view.h"
#include "views/session/session_overview_view.h"
#include "views/steps/step_time_view.h"
#include "views/timeline/slice_details_view.h"
#include "views/timeline/timeline_pane_view.h"
#include "views/timeline/timeline_view.h"
#include "views/utilization/utilization_view.h"

#include <QCoreApplication>

namespace stepscope::gui {

namespace {

std::vector<ViewEntry> buildViewEntries() {
    using P = DockPlacement;
    std::vector<ViewEntry> v;
    v.push_back({"timeline", QT_TRANSLATE_NOOP("ViewRegistry", "Timeline"), {}, P::Centre, Qt::NoDockWidgetArea, {}, true,
                 [](const ViewModels &m, QWidget *parent) -> QWidget * {
                     auto *pane = new TimelinePaneView(m.shared, parent);
                     pane->timeline()->setMetricSeries(m.metrics);  // instance metrics as tracks under the trace
                     return pane;
                 }});
    // The bottom row: the step chart with the Findings beside it (the verdict and the evidence are
    // read together), and the step chart's tabs.
    v.push_back({"steps", QT_TRANSLATE_NOOP("ViewRegistry", "Step time"), "stepsDock", P::Area, Qt::BottomDockWidgetArea, {}, true,
                 [](const ViewModels &m, QWidget *parent) -> QWidget * { return new StepTimeView(m.shared, parent); }});
    v.push_back({"findings", QT_TRANSLATE_NOOP("ViewRegistry", "Findings"), "findingsDock", P::Beside, Qt::BottomDockWidgetArea, "steps", true,
                 [](const ViewModels &m, QWidget *parent) -> QWidget * { return new FindingsView(m.shared, parent); }});
    v.push_back({"utilization", QT_TRANSLATE_NOOP("ViewRegistry", "Utilization"), "utilizationDock", P::TabWith, Qt::BottomDockWidgetArea,
                 "steps", true, [](const ViewModels &m, QWidget *parent) -> QWidget * {
                     auto *view = new UtilizationView(m.metrics, m.shared.time, parent);
                     view->setAnnotations(m.shared.annotations);
                     if (m.headless) view->setRemembersMember(false);  // the rank picked in the GUI is a habit
                     return view;
                 }});
    v.push_back({"ops", QT_TRANSLATE_NOOP("ViewRegistry", "Op statistics"), "opsDock", P::TabWith, Qt::BottomDockWidgetArea, "utilization",
                 true, [](const ViewModels &m, QWidget *parent) -> QWidget * { return new OpStatsView(m.shared, parent); }});
    v.push_back({"log", QT_TRANSLATE_NOOP("ViewRegistry", "Import log"), "logDock", P::TabWith, Qt::BottomDockWidgetArea, "ops", true,
                 [](const ViewModels &m, QWidget *parent) -> QWidget * { return new ImportLogView(m.shared.session, parent); }});
    // The job overview (ranks of a data-parallel job) sits with the step chart it generalises.
    v.push_back({"job", QT_TRANSLATE_NOOP("ViewRegistry", "Job"), "jobDock", P::TabWith, Qt::BottomDockWidgetArea, "log", true,
                 [](const ViewModels &m, QWidget *parent) -> QWidget * { return new JobView(m.shared, parent); }});
    // The right column: the session's contents, and the selected slice's details as a tab beside it.
    v.push_back({"session", QT_TRANSLATE_NOOP("ViewRegistry", "Session"), "sessionDock", P::Area, Qt::RightDockWidgetArea, {}, true,
                 [](const ViewModels &m, QWidget *parent) -> QWidget * { return new SessionOverviewView(m.shared.session, m.shared.time, parent); }});
    v.push_back({"details", QT_TRANSLATE_NOOP("ViewRegistry", "Details"), "detailsDock", P::TabWith, Qt::RightDockWidgetArea, "session",
                 false, [](const ViewModels &m, QWidget *parent) -> QWidget * { return new SliceDetailsView(m.timeline, m.shared.time, parent); }});
    return v;
}

} // namespace

const std::vector<ViewEntry> &viewEntries() {
    static const std::vector<ViewEntry> entries = buildViewEntries();
    return entries;
}

const ViewEntry *findViewEntry(const QString &name) {
    for (const ViewEntry &e : viewEntries())
        if (e.name == name) return &e;
    return nullptr;
}

QString viewTitle(const ViewEntry &entry) { return QCoreApplication::translate("ViewRegistry", entry.title); }

} // namespace stepscope::gui
