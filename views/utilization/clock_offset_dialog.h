#pragma once
// ClockOffsetDialog lets the user line sources up on the absolute time axis: it lists every source
// of the session (format, whether its trace carries a Unix-epoch anchor, current offset), edits
// offsets as text ("+1.5s", "-250ms"), can place an unanchored trace's start at the metrics' start,
// and on OK saves them with SessionStore::setClockOffsetNs (kept across re-imports) and tells the
// views through SessionModel::notifyChanged(). MainWindow opens it from a menu action.

#include "models/qt/session_model.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace stepscope {

class ClockOffsetDialog : public QDialog {
    Q_OBJECT
public:
    ClockOffsetDialog(SessionModel *session, QWidget *parent = nullptr);

    QTableWidget *table() const { return m_table; }
    // Validates every row and saves changed offsets; false (with the reason shown) when a row does
    // not parse or the session is read-only. Called by OK.
    bool apply();
    QString problem() const;

private:
    void load();
    void alignSelectedToMetrics();

    SessionModel *m_session;
    QTableWidget *m_table;
    QLabel *m_note;
    QLabel *m_error;
};

} // namespace stepscope
