#pragma once
// NameColumn gives the name column of a table (op names, series names) the room its names need: the
// column is user-resizable and starts as wide as its longest name, within what the other columns
// leave (never narrower than a readable minimum; the table scrolls sideways past that); a name that
// still does not fit is elided in the middle — both ends of a kernel name say what it is — and the
// full name is in the tooltip and copied by "Copy name" (context menu, Ctrl+C). Once the user drags
// the column, it keeps the user's width. Installed by OpStatsView and RangeStatsTable.

#include <QObject>

class QTableView;

namespace stepscope {

class NameColumn : public QObject {
    Q_OBJECT
public:
    // `table` owns the helper. Rows' full names come from `column`'s DisplayRole.
    NameColumn(QTableView *table, int column);

    // Sizes the column now (after new rows or a resize); a no-op once the user resized it.
    void fit();
    // The width the names want: the longest name's text plus the cell's padding.
    int wantedWidth() const;
    // The current row's full name, or empty.
    QString currentName() const;
    void copyCurrent() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QTableView *m_table;
    // The watched viewport, compared by address only: while the table is being destroyed its
    // viewport still sends events, and calling m_table->viewport() then is a call on a half-
    // destroyed object (found by the command-line fuzzer under UBSan).
    const QObject *m_viewport = nullptr;
    int m_column;
    bool m_userSized = false;
    bool m_fitting = false;
};

} // namespace stepscope
