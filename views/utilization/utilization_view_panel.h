#pragma once
// UtilizationView::Panel: what the view keeps of one stacked chart (its axis rect, the legend
// column, the graphs and how they were last drawn). Shared by the view's source files only.

#include "views/utilization/utilization_view.h"

#include <qcustomplot.h>

#include <vector>

namespace stepscope {

struct UtilizationView::Panel {
    QCPAxisRect *rect = nullptr;
    QCPLayoutGrid *side = nullptr;  // the right-hand column: title, legend
    QCPTextElement *title = nullptr;
    QCPLegend *legend = nullptr;
    QCPItemLine *crosshair = nullptr;
    QCPItemRect *selection = nullptr;
    std::vector<QCPGraph *> graphs;  // one per series of the panel, in its order
    std::vector<std::pair<QCPGraph *, double>> limits;  // capacity lines and their value (shown units)
    std::vector<QColor> colors;  // per graph: its identity's colour
    std::vector<QColor> fills;  // per graph; alpha 0: none
    std::vector<QCPScatterStyle> dots;  // per graph: the mark at each sample when zoomed in
    std::vector<std::pair<bool, qsizetype>> drawn;  // per graph: raw steps?, how many points (last updatePoints)
    int width = 0;  // the data area's width the points were made for
    UnitScale scale;
    // Grouped panels: the series by role and, per role, the graph of the members' mean.
    std::vector<UtilizationGroup> groups;
    std::vector<QCPGraph *> means;
};

} // namespace stepscope
