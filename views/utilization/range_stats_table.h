#pragma once
// RangeStatsTable lists min / mean / max (and sample count, sampling period) of every series over
// the selected time range, in each panel's display unit. Hidden while nothing is selected. Owned
// and filled by UtilizationView.

#include <QWidget>

#include <vector>

class QLabel;
class QTableWidget;

namespace stepscope {

class NameColumn;
struct SeriesRangeStats;

class RangeStatsTable : public QWidget {
    Q_OBJECT
public:
    explicit RangeStatsTable(QWidget *parent = nullptr);

    // Shows `stats` under `title`; hides itself when stats is empty.
    void setStats(const QString &title, const std::vector<SeriesRangeStats> &stats);
    QTableWidget *table() const { return m_table; }
    QString title() const;
    NameColumn *names() const { return m_names; }
    // At most this many rows tall (the rest scroll); UtilizationView sets it from its own height.
    void setMaximumRows(int rows);

private:
    void fitHeight();
    QLabel *m_title;
    int m_maxRows = 6;
    QTableWidget *m_table;
    NameColumn *m_names;
};

} // namespace stepscope
