#pragma once
// AnnotationDialog asks for a note's text and colour (its time comes from where the user created it:
// a point, the selected range, a step). The static helpers are what every view's "Annotate…" menu
// entry calls: create a note in the shared AnnotationModel, edit one, delete one (undoable).

#include "models/annotations/annotation_model.h"

#include <QDialog>

class QComboBox;
class QLineEdit;

namespace stepscope {

class AnnotationDialog : public QDialog {
    Q_OBJECT
public:
    AnnotationDialog(const Annotation &a, QWidget *parent = nullptr);
    Annotation annotation() const;

    // The colours offered (first = default); names for the menu.
    static const std::vector<std::pair<QString, QString>> &palette();

    // Opens the dialog for a new note over [startNs, endNs] (equal: a point) and adds it. Returns its id, 0 when cancelled.
    static int64_t create(QWidget *parent, AnnotationModel *model, int64_t startNs, int64_t endNs, const QString &text = {});
    static bool edit(QWidget *parent, AnnotationModel *model, int64_t id);

private:
    Annotation m_a;
    QLineEdit *m_text;
    QComboBox *m_color;
};

} // namespace stepscope
