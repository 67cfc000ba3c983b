#include "app/gui/dock_share_keeper.h"

#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QProxyStyle>
#include <QSettings>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace stepscope::gui {

namespace {
// The window's own style with wider dividers between docks; its children keep the application style.
class WideSeparatorStyle : public QProxyStyle {
public:
    int pixelMetric(PixelMetric metric, const QStyleOption *option, const QWidget *widget) const override {
        if (metric == PM_DockWidgetSeparatorExtent) return DockShareKeeper::kSeparatorPx;
        return QProxyStyle::pixelMetric(metric, option, widget);
    }
};
} // namespace

DockShareKeeper::DockShareKeeper(QMainWindow *window, QString settingsKey)
    : QObject(window), m_window(window), m_key(std::move(settingsKey)) {
    auto *style = new WideSeparatorStyle;
    style->setParent(this);
    window->setStyle(style);
    if (!m_key.isEmpty()) {
        const double saved = QSettings().value(m_key, -1.0).toDouble();
        if (saved > 0.2 && saved < 0.95) {
            m_share = saved;
            m_measured = true;
        }
    }
    window->installEventFilter(this);
}

QDockWidget *DockShareKeeper::bottomDock() const {
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>(QString(), Qt::FindDirectChildrenOnly))
        if (dock->isVisible() && !dock->isFloating() && m_window->dockWidgetArea(dock) == Qt::BottomDockWidgetArea &&
            dock->geometry().top() >= 0)  // a dock behind another's tab lies outside the window
            return dock;
    return nullptr;
}

double DockShareKeeper::measuredShare() const {
    const QDockWidget *dock = bottomDock();
    if (!dock) return -1;
    const int centre = m_window->centralWidget()->height();
    return centre + dock->height() > 0 ? double(centre) / double(centre + dock->height()) : -1;
}

void DockShareKeeper::restore() {
    QDockWidget *dock = bottomDock();
    if (!dock) return;
    const int total = m_window->centralWidget()->height() + dock->height();
    const int centreMin = m_window->centralWidget()->minimumHeight();
    const int wanted = std::max(int(std::lround((1.0 - m_share) * total)), std::min(kDockMinPx, total - centreMin));
    if (std::abs(wanted - dock->height()) <= 2) return;
    m_restoring = true;
    m_window->resizeDocks({dock}, {wanted}, Qt::Vertical);  // the centre's minimum still holds
    m_restoring = false;
}

void DockShareKeeper::remeasure() {
    QTimer::singleShot(0, this, [this] {
        if (const double s = measuredShare(); s > 0) {
            m_share = s;
            m_measured = true;
            if (!m_key.isEmpty()) QSettings().remove(m_key);
        }
    });
}

bool DockShareKeeper::eventFilter(QObject *watched, QEvent *event) {
    if (watched != m_window) return false;
    switch (event->type()) {
    case QEvent::Show:
        if (!m_measured)  // the default layout's split, once it is laid out
            QTimer::singleShot(0, this, [this] {
                if (const double s = measuredShare(); s > 0 && !m_measured) {
                    m_share = s;
                    m_measured = true;
                }
            });
        break;
    case QEvent::Resize:
        if (!m_restoring && m_measured) QTimer::singleShot(0, this, &DockShareKeeper::restore);
        break;
    case QEvent::MouseButtonRelease:
        // The user let go of a divider (QMainWindow handles those drags itself): that is the split.
        QTimer::singleShot(0, this, [this] {
            if (const double s = measuredShare(); s > 0) {
                m_share = s;
                m_measured = true;
                if (!m_key.isEmpty()) QSettings().setValue(m_key, s);
            }
        });
        break;
    default:
        break;
    }
    return false;
}

} // namespace stepscope::gui
