#pragma once
// fitLegendRows: a plot's legend holds as many rows as fit the plot's height and flows the rest into
// further columns, so its entries never overlap and none is cut on a short panel (the step chart at
// 1280×720, the job view's breakdown). Called when the plot is resized or its entries change.

class QCustomPlot;

namespace stepscope {

void fitLegendRows(QCustomPlot *plot);

} // namespace stepscope
