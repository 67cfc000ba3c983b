#pragma once
// CompareView shows a RunComparison ("did the change work"): both runs and the step-time and
// throughput change on top; a waterfall from the base's mean step to the new one, one bar per
// category that moved (coloured as everywhere, green where time went away); the op delta table
// (sortable — the first click on a number sorts biggest first — filterable by name, whole names
// in tooltips); and the findings resolved, new and kept. Activating an op emits opSelected so the
// window can find it in its timeline. Exported like any view (ViewExporter).

#include "models/analysis/report/run_comparison.h"

#include <QWidget>

class QCustomPlot;
class QLabel;
class QLineEdit;
class QTableView;

namespace stepscope {

class StatsTableProxy;

class NameColumn;
class OpDeltaTableModel;

class CompareView : public QWidget {
    Q_OBJECT
public:
    explicit CompareView(QWidget *parent = nullptr);

    void setComparison(const RunComparison &c);
    const RunComparison &comparison() const { return m_comparison; }
    // Shown instead of the comparison while it is computed or when it failed.
    void setMessage(const QString &text);

    QCustomPlot *waterfall() const { return m_waterfall; }
    QTableView *opTable() const { return m_table; }
    QString headerText() const;
    QString findingsText() const;
    void setFilterText(const QString &text);

signals:
    void opSelected(const QString &name, int device);

private:
    void fillWaterfall();

    RunComparison m_comparison;
    QLabel *m_header, *m_notes, *m_findings;
    QCustomPlot *m_waterfall;
    QLineEdit *m_filter;
    QTableView *m_table;
    OpDeltaTableModel *m_model;
    StatsTableProxy *m_proxy;
    NameColumn *m_nameColumn = nullptr;
};

} // namespace stepscope
