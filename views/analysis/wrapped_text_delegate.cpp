#include "views/analysis/wrapped_text_delegate.h"

#include <QEvent>
#include <QHeaderView>
#include <QTimer>
#include <QTreeView>

#include <algorithm>

namespace stepscope {

namespace {
constexpr int kTextPadding = 8;  // the style's margins either side of the text
constexpr int kLongWord = 16;    // words longer than this may break after their punctuation

// Lets a long dotted name ("torch.distributed.checkpoint.async_save") break after its dots,
// underscores and slashes when it is wider than the column: a zero-width space there, for display
// only (copying takes the item's own text).
QString breakable(const QString &text) {
    QString out;
    out.reserve(text.size() + text.size() / 8);
    int run = 0;
    for (const QChar c : text) {
        out += c;
        run = c.isSpace() ? 0 : run + 1;
        if (run > kLongWord && (c == u'.' || c == u'_' || c == u'/' || c == u':' || c == u'(' || c == u',')) out += QChar(0x200B);
    }
    return out;
}
} // namespace

void WrappedTextDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    option->text = breakable(option->text);
}

WrappedTextDelegate::WrappedTextDelegate(QTreeView *view) : QStyledItemDelegate(view), m_view(view) {
    view->setWordWrap(true);
    view->setUniformRowHeights(false);
    view->setTextElideMode(Qt::ElideNone);
    auto relayout = [this] { QTimer::singleShot(0, m_view, [v = m_view] { v->doItemsLayout(); }); };
    connect(view->header(), &QHeaderView::sectionResized, this, relayout);
    m_viewport = view->viewport();
    view->viewport()->installEventFilter(this);
}

int WrappedTextDelegate::textWidth(const QModelIndex &index) const {
    int width = m_view->columnWidth(index.column());
    if (index.column() == m_view->header()->logicalIndex(0)) {
        int depth = 0;
        for (QModelIndex p = index.parent(); p.isValid(); p = p.parent()) ++depth;
        width -= m_view->indentation() * (depth + (m_view->rootIsDecorated() ? 1 : 0));
    }
    return std::max(20, width - kTextPadding);
}

QSize WrappedTextDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const {
    QSize hint = QStyledItemDelegate::sizeHint(option, index);
    const QString text = breakable(index.data(Qt::DisplayRole).toString());
    if (text.isEmpty()) return hint;
    QFont font = option.font;
    if (const QVariant f = index.data(Qt::FontRole); f.isValid()) font = f.value<QFont>();
    const QRect wrapped = QFontMetrics(font).boundingRect(QRect(0, 0, textWidth(index), 1 << 20), Qt::TextWordWrap, text);
    hint.setHeight(std::max(hint.height(), wrapped.height() + 4));
    return hint;
}

bool WrappedTextDelegate::eventFilter(QObject *watched, QEvent *event) {
    if (watched == m_viewport && event->type() == QEvent::Resize)
        QTimer::singleShot(0, m_view, [v = m_view] { v->doItemsLayout(); });
    return QStyledItemDelegate::eventFilter(watched, event);
}

} // namespace stepscope
