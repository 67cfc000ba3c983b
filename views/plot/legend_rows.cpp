#include "views/plot/legend_rows.h"

#include <qcustomplot.h>

#include <algorithm>

namespace stepscope {

void fitLegendRows(QCustomPlot *plot) {
    QCPLegend *legend = plot->legend;
    const int rowHeight = QFontMetrics(legend->font()).height() + legend->rowSpacing() + 2;
    const int rows = std::max(1, (plot->height() - 16) / rowHeight);
    if (legend->wrap() == rows && legend->fillOrder() == QCPLayoutGrid::foRowsFirst) return;
    legend->setWrap(rows);
    legend->setFillOrder(QCPLayoutGrid::foRowsFirst, true);
    plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace stepscope
