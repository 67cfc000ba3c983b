#pragma once
// WrappedTextDelegate gives a tree's rows the height their wrapped text needs at the column's current
// width: Qt's delegate measures a cell without knowing its width, so a long finding or recommendation
// is cut to one line however wide the panel is. Rows re-measure when a column is resized or the view
// is. Installed by FindingsView.

#include <QStyledItemDelegate>

class QTreeView;

namespace stepscope {

class WrappedTextDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    explicit WrappedTextDelegate(QTreeView *view);
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
    // The width the text of `index` is laid out in (its column less indentation and padding).
    int textWidth(const QModelIndex &index) const;

protected:
    void initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QTreeView *m_view;
    // Compared by address only: the viewport sends events while the view is being destroyed, when
    // calling m_view->viewport() would be a call on a half-destroyed object (UBSan, fuzzing).
    const QObject *m_viewport = nullptr;
};

} // namespace stepscope
