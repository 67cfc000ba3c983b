// MainWindow's tool bar: the session's batch size — the saved value, or the one the analysis
// detected with where it came from — edited in place (the views re-read; the zoom stays).

#include "app/gui/main_window.h"

#include "models/analysis/service/analysis_model.h"

#include <QLabel>
#include <QSpinBox>
#include <QToolBar>

namespace stepscope::gui {

void MainWindow::buildToolBar() {
    QToolBar *bar = addToolBar(tr("Session"));
    bar->setObjectName("sessionToolBar");
    bar->addWidget(new QLabel(tr(" Batch size: "), bar));
    m_batchSize = new QSpinBox(bar);
    m_batchSize->setRange(0, 1 << 24);
    m_batchSize->setSpecialValueText(tr("unknown"));
    m_batchSize->setToolTip(tr("Samples per step, saved in the session; gives throughput in samples/s"));
    m_batchSize->setEnabled(false);  // until a session is open
    bar->addWidget(m_batchSize);
    connect(m_batchSize, &QSpinBox::editingFinished, this, [this] {
        SessionStore *store = m_session->store();
        if (!store || store->mode() != SessionStore::Mode::ReadWrite) return;
        const std::string value = m_batchSize->value() > 0 ? std::to_string(m_batchSize->value()) : std::string();
        try {
            if (store->setting("batch_size") == value) return;
            store->setSetting("batch_size", value);
        } catch (const StoreError &e) {  // busy or damaged file: the box keeps the value for this window
            showStatus(tr("Batch size not saved: %1").arg(QString::fromStdString(e.what())), 8000);
            return;
        }
        // The views re-read the session; the user's zoom and selection stay where they were.
        const NsRange range = m_time->range(), selection = m_time->selection();
        m_session->notifyChanged();
        if (range.valid()) m_time->setRange(range);
        if (selection.valid()) m_time->setSelection(selection);
    });
    // Without a saved value the box shows the one the analysis detected, and where it came from.
    connect(AnalysisModel::of(m_session), &AnalysisModel::changed, this, [this] { showDetectedBatchSize(); });
    connect(m_session, &SessionModel::sessionChanged, this, [this] {
        QSignalBlocker block(m_batchSize);
        std::string saved;
        try {
            saved = m_session->store() ? m_session->store()->setting("batch_size") : std::string();
        } catch (const StoreError &) {
            // unreadable now: shown as unknown
        }
        m_batchSize->setValue(saved.empty() ? 0 : QString::fromStdString(saved).toInt());
        m_batchSize->setEnabled(m_session->isOpen());
        showDetectedBatchSize();
    });
}

void MainWindow::showDetectedBatchSize() {
    QString text = tr("unknown"), tip = tr("Samples per step, saved in the session; gives throughput in samples/s");
    if (m_session->isOpen() && m_batchSize->value() == 0) {
        AnalysisModel *model = AnalysisModel::of(m_session);
        for (const RunRow &run : model->runs()) {
            const RunAnalysis *a = model->analysisOrStart(run.id);
            if (!a || !a->batchSize || a->batchSizeSource != "detected") continue;
            text = tr("%1 (detected)").arg(*a->batchSize);
            tip += tr("\nDetected: %1. Type a value to set it for the session.").arg(QString::fromStdString(a->batchSizeEvidence));
            break;
        }
    }
    m_batchSize->setSpecialValueText(text);
    m_batchSize->setToolTip(tip);
    m_batchSize->setMinimumWidth(m_batchSize->fontMetrics().horizontalAdvance(text) + 40);
}

} // namespace stepscope::gui
