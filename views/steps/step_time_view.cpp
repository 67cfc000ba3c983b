#include "views/steps/step_time_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace stepscope {

StepTimeView::StepTimeView(SessionModel *session, TimeRangeController *time, QWidget *parent)
    : QWidget(parent), m_session(session), m_time(time), m_runBox(new QComboBox(this)), m_plot(new QCustomPlot(this)) {
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:"), this));
    top->addWidget(m_runBox, 1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_plot, 1);

    m_plot->setMinimumHeight(160);
    m_plot->xAxis->setLabel(tr("step"));
    m_plot->yAxis->setLabel(tr("step time (ms)"));
    m_bars = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_bars->setName(tr("step time"));
    m_bars->setPen(Qt::NoPen);
    m_bars->setBrush(QColor(0x9a, 0xa5, 0xb1));
    m_inRange = new QCPBars(m_plot->xAxis, m_plot->yAxis);
    m_inRange->setName(tr("in view"));
    m_inRange->setPen(Qt::NoPen);
    m_inRange->setBrush(QColor(0x2f, 0x6f, 0xb5));
    m_bars->setWidth(0.8);
    m_inRange->setWidth(0.8);

    connect(m_session, &SessionModel::sessionChanged, this, &StepTimeView::reload);
    connect(m_runBox, &QComboBox::currentIndexChanged, this, &StepTimeView::reload);
    connect(m_time, &TimeRangeController::rangeChanged, this, &StepTimeView::applyRange);
    connect(m_plot, &QCustomPlot::mousePress, this, [this](QMouseEvent *e) {
        onPlotClick(m_plot->xAxis->pixelToCoord(e->position().x()));
    });
    reload();
}

int StepTimeView::barCount() const { return int(m_steps.size()); }

void StepTimeView::reload() {
    m_steps.clear();
    SessionStore *store = m_session->store();
    if (store) {
        SessionReader reader(*store);
        const auto runs = reader.runs();
        const QString current = m_runBox->currentText();
        if (m_runBox->count() != int(runs.size())) {
            QSignalBlocker block(m_runBox);
            m_runBox->clear();
            for (const RunRow &r : runs) m_runBox->addItem(QString::fromStdString(r.name), qint64(r.id));
            const int idx = m_runBox->findText(current);
            m_runBox->setCurrentIndex(idx >= 0 ? idx : 0);
        }
        if (m_runBox->currentIndex() >= 0) m_steps = reader.steps(m_runBox->currentData().toLongLong());
    } else {
        QSignalBlocker block(m_runBox);
        m_runBox->clear();
    }
    QVector<double> keys, values;
    double maxMs = 1;
    for (const StepRow &s : m_steps) {
        keys.push_back(double(s.step));
        values.push_back(double(s.durNs) / 1e6);
        maxMs = std::max(maxMs, values.back());
    }
    m_bars->setData(keys, values);
    if (!keys.isEmpty()) m_plot->xAxis->setRange(keys.front() - 1, keys.back() + 1);
    m_plot->yAxis->setRange(0, maxMs * 1.1);
    applyRange(m_time->range());
}

void StepTimeView::applyRange(NsRange range) {
    QVector<double> keys, values;
    for (const StepRow &s : m_steps) {
        // A step counts as in view when it overlaps the visible range by more than half.
        const int64_t lo = std::max(s.startNs, range.start), hi = std::min(s.startNs + s.durNs, range.end);
        if (range.valid() && hi - lo > s.durNs / 2 && range.duration() < (m_steps.back().startNs + m_steps.back().durNs - m_steps.front().startNs)) {
            keys.push_back(double(s.step));
            values.push_back(double(s.durNs) / 1e6);
        }
    }
    m_inRange->setData(keys, values);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void StepTimeView::onPlotClick(double x) {
    for (const StepRow &s : m_steps)
        if (std::abs(double(s.step) - x) <= 0.4) {
            m_time->setRange({s.startNs, s.startNs + s.durNs});
            return;
        }
}

} // namespace stepscope
