#pragma once
// ImportLogView shows import_log: every warning, error and skipped file with its code (what
// happened, explained in the tooltip), file, position and reason, so nothing an importer dropped is
// hidden from the user. Created by MainWindow's view table.

#include "models/qt/session_model.h"

#include <QTableWidget>

namespace stepscope {

class ImportLogView : public QTableWidget {
    Q_OBJECT
public:
    explicit ImportLogView(SessionModel *session, QWidget *parent = nullptr);
    void reload();

    static constexpr int kMessageColumn = 4;  // Severity, Code, File, Position, Message

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    SessionModel *m_session;
};

} // namespace stepscope
