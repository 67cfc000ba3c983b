#include "views/analysis/op_stats_view.h"

#include "models/analysis/analysis_model.h"
#include "models/analysis/op_stats_table_model.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace stepscope {

OpStatsView::OpStatsView(SessionModel *session, TimeRangeController *time, QWidget *parent)
    : QWidget(parent), m_session(session), m_time(time), m_analysis(AnalysisModel::of(session)),
      m_runBox(new QComboBox(this)), m_sideBox(new QComboBox(this)), m_filter(new QLineEdit(this)),
      m_table(new QTableView(this)), m_model(new OpStatsTableModel(this)), m_proxy(new QSortFilterProxyModel(this)) {
    m_sideBox->addItems({tr("GPU ops"), tr("Host ops"), tr("All")});
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:"), this));
    top->addWidget(m_runBox, 1);
    top->addWidget(m_sideBox);
    top->addWidget(m_filter, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_table, 1);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OpStatsTableModel::SortRole);
    m_proxy->setFilterKeyColumn(OpStatsTableModel::Name);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OpStatsTableModel::Total, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(OpStatsTableModel::Name, QHeaderView::Stretch);
    m_table->horizontalHeader()->setMinimumSectionSize(40);
    m_table->setWordWrap(false);
    m_table->setTextElideMode(Qt::ElideMiddle);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_sideBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_model->setSideFilter(i == 0 ? OpStatsTableModel::SideFilter::Device
                               : i == 1 ? OpStatsTableModel::SideFilter::Host : OpStatsTableModel::SideFilter::All);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (const OpStat *o = m_model->op(m_proxy->mapToSource(current).row()))
            emit opSelected(QString::fromStdString(o->name), o->device);
    });
    connect(m_analysis, &AnalysisModel::changed, this, &OpStatsView::reloadRuns);
    connect(m_runBox, &QComboBox::currentIndexChanged, this, &OpStatsView::reload);
    reloadRuns();
}

void OpStatsView::setFilterText(const QString &text) { m_filter->setText(text); }
void OpStatsView::setSide(int index) { m_sideBox->setCurrentIndex(index); }

void OpStatsView::reloadRuns() {
    const QString current = m_runBox->currentText();
    {
        QSignalBlocker block(m_runBox);
        m_runBox->clear();
        for (const RunRow &r : m_analysis->runs()) m_runBox->addItem(QString::fromStdString(r.name), qint64(r.id));
        const int idx = m_runBox->findText(current);
        m_runBox->setCurrentIndex(idx >= 0 ? idx : 0);
    }
    reload();
}

void OpStatsView::reload() {
    const RunAnalysis *a = m_runBox->currentIndex() >= 0 ? m_analysis->analysis(m_runBox->currentData().toLongLong()) : nullptr;
    if (!a) {
        m_model->setOps({});
        return;
    }
    m_model->setOps(a->ops);
}

} // namespace stepscope
