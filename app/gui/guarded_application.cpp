#include "app/gui/guarded_application.h"

#include <QMessageBox>
#include <QMetaObject>
#include <QWidget>

#include <iostream>
#include <new>

namespace stepscope::gui {

bool GuardedApplication::notify(QObject *receiver, QEvent *event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::bad_alloc &) {
        report(QStringLiteral("out of memory: the session asks for more memory than this machine has "
                              "(a damaged or tampered file?)"));
    } catch (const std::exception &e) {
        report(QString::fromUtf8(e.what()));
    }
    return false;
}

void GuardedApplication::report(const QString &what) {
    if (m_caught++ > 0) return;  // once: a damaged file fails on every repaint
    m_firstError = what;
    std::cerr << "stepscope: " << what.toStdString() << "\n";
    if (platformName() == QLatin1String("offscreen")) return;
    // Shown after the failing event has unwound, never from inside it.
    QMetaObject::invokeMethod(this, [what] {
        auto *box = new QMessageBox(QMessageBox::Critical, QObject::tr("Cannot show the session"),
                                    QObject::tr("Stepscope could not read part of this session:\n\n%1\n\n"
                                                "What is on screen may be incomplete.").arg(what),
                                    QMessageBox::Ok, QApplication::activeWindow());
        box->setTextFormat(Qt::PlainText);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    }, Qt::QueuedConnection);
}

} // namespace stepscope::gui
