#include "views/analysis/op_stats_view.h"

#include "models/analysis/service/analysis_model.h"
#include "models/analysis/tables/op_stats_table_model.h"
#include "models/analysis/tables/range_op_stats.h"
#include "models/timeline/range_aggregate_model.h"
#include "models/text/time_format.h"
#include "views/analysis/name_column.h"
#include "views/analysis/roofline_plot.h"
#include "views/analysis/stats_table.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace stepscope {


OpStatsView::OpStatsView(const SessionModels &models, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_time(models.time), m_analysis(models.analysis),
      m_runBox(new QComboBox(this)), m_sideBox(new QComboBox(this)), m_filter(new QLineEdit(this)),
      m_table(new QTableView(this)), m_model(new OpStatsTableModel(this)), m_proxy(new StatsTableProxy([](int c) {
          return c == OpStatsTableModel::Name || c == OpStatsTableModel::Side || c == OpStatsTableModel::Device ||
                 c == OpStatsTableModel::Grid || c == OpStatsTableModel::Block || c == OpStatsTableModel::Bound;
      }, this)),
      m_rangeOnly(new QCheckBox(tr("Visible range only"), this)), m_scope(new QLabel(this)),
      m_rangeStats(new RangeOpStats(this)), m_rangeTimer(new QTimer(this)),
      m_showRoofline(new QCheckBox(tr("Roofline"), this)), m_rooflinePane(new QWidget(this)), m_rooflineNote(new QLabel(m_rooflinePane)),
      m_roofline(new RooflinePlot(m_rooflinePane)) {
    m_sideBox->addItems({tr("GPU ops"), tr("Host ops"), tr("All")});
    m_filter->setPlaceholderText(tr("Filter by name"));
    m_filter->setClearButtonEnabled(true);
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:"), this));
    top->addWidget(m_runBox, 1);
    top->addWidget(m_sideBox);
    top->addWidget(m_filter, 2);
    top->addWidget(m_rangeOnly);
    top->addWidget(m_showRoofline);
    m_showRoofline->setToolTip(tr("Each GPU op against the device's peak: arithmetic intensity against achieved TFLOPS "
                                  "(needs recorded shapes and a known GPU)"));
    m_rangeOnly->setToolTip(tr("Statistics of the events that start in the time range every view shows, "
                               "updated as you zoom and pan"));
    m_rangeOnly->setChecked(QSettings().value(QStringLiteral("opStats/visibleRangeOnly"), false).toBool());
    m_scope->setObjectName(QStringLiteral("opStatsScope"));
    m_scope->setStyleSheet(QStringLiteral("color: palette(mid);"));
    m_scope->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_scope);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("opStatsSplit"));
    split->addWidget(m_table);
    auto *paneLayout = new QVBoxLayout(m_rooflinePane);
    paneLayout->setContentsMargins(0, 2, 0, 0);
    m_rooflineNote->setWordWrap(true);
    m_rooflineNote->setStyleSheet(QStringLiteral("color: palette(mid);"));
    paneLayout->addWidget(m_rooflineNote);
    paneLayout->addWidget(m_roofline, 1);
    split->addWidget(m_rooflinePane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    layout->addWidget(split, 1);
    m_showRoofline->setChecked(QSettings().value(QStringLiteral("opStats/roofline"), false).toBool());
    m_rooflinePane->setVisible(m_showRoofline->isChecked());
    connect(m_showRoofline, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("opStats/roofline"), on);
        m_rooflinePane->setVisible(on);
    });
    connect(m_roofline, &RooflinePlot::opClicked, this, &OpStatsView::opSelected);

    m_nameColumn = setUpStatsTable(m_table, m_proxy, m_model, OpStatsTableModel::SortRole, OpStatsTableModel::Name);
    m_table->sortByColumn(OpStatsTableModel::Total, Qt::DescendingOrder);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_sideBox, &QComboBox::currentIndexChanged, this, [this](int i) {
        m_model->setSideFilter(i == 0 ? OpStatsTableModel::SideFilter::Device
                               : i == 1 ? OpStatsTableModel::SideFilter::Host : OpStatsTableModel::SideFilter::All);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (const OpStat *o = m_model->op(m_proxy->mapToSource(current).row()))
            emit opSelected(QString::fromStdString(o->name), o->device);
    });
    connect(m_analysis, &AnalysisModel::changed, this, [this] {
        m_rangeStats->forgetEvents();  // another session (or a re-import): read the events again
        reloadRuns();
    });
    m_rangeTimer->setSingleShot(true);
    m_rangeTimer->setInterval(120);  // a pan or zoom gesture changes the range every frame
    connect(m_rangeTimer, &QTimer::timeout, this, &OpStatsView::reload);
    connect(m_time, &TimeRangeController::rangeChanged, this, [this] {
        if (visibleRangeOnly()) m_rangeTimer->start();
    });
    connect(m_rangeOnly, &QCheckBox::toggled, this, [this](bool on) {
        QSettings().setValue(QStringLiteral("opStats/visibleRangeOnly"), on);
        reload();
    });
    connect(m_rangeStats, &RangeOpStats::ready, this, &OpStatsView::showRangeStats);
    connect(m_runBox, &QComboBox::currentIndexChanged, this, &OpStatsView::reload);
    reloadRuns();
}

void OpStatsView::setFilterText(const QString &text) { m_filter->setText(text); }
void OpStatsView::setRooflineShown(bool on) { m_showRoofline->setChecked(on); }
bool OpStatsView::rooflineShown() const { return m_showRoofline->isChecked(); }
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

void OpStatsView::setVisibleRangeOnly(bool on) { m_rangeOnly->setChecked(on); }
bool OpStatsView::visibleRangeOnly() const { return m_rangeOnly->isChecked(); }

void OpStatsView::reload() {
    const RunAnalysis *a = m_runBox->currentIndex() >= 0 ? m_analysis->analysisOrStart(m_runBox->currentData().toLongLong()) : nullptr;
    if (!a) {
        m_rangeStats->forgetEvents();
        m_model->setOps({});
        m_roofline->setOps({});
        m_rooflineNote->setText(m_roofline->note());
        updateScope();
        return;
    }
    // A trace without GPU work has no GPU ops to list: its host ops are shown, and the scope says why.
    if (!a->gpuTraced && m_sideBox->currentIndex() == 0) m_sideBox->setCurrentIndex(1);
    SessionStore *store = m_session->store();
    if (visibleRangeOnly() && store && m_time->range().valid()) {
        for (const RunRow &run : m_analysis->runs())
            if (run.id == m_runBox->currentData().toLongLong()) m_rangeStats->request(store->path(), run, a->ops, m_time->range());
    } else {
        m_rangeStats->forgetEvents();  // off: the run's events are not kept
        m_model->setOps(a->ops);
    }
    showUsedColumns();
    updateScope();
}

void OpStatsView::showRangeStats() {
    if (!visibleRangeOnly()) return;
    m_model->setOps(m_rangeStats->result());
    showUsedColumns();
    updateScope();
}

void OpStatsView::showUsedColumns() {
    // Efficiency (recorded shapes on a known device) and kernel details (grid, block, registers, shared
    // memory) are recorded by some profilers only: empty columns give their width to the names.
    for (int c = OpStatsTableModel::Tflops; c <= OpStatsTableModel::SharedMemory; ++c) {
        bool any = false;
        for (int r = 0; r < m_model->rowCount() && !any; ++r) any = !m_model->index(r, c).data().toString().isEmpty();
        m_table->setColumnHidden(c, !any);
    }
    m_nameColumn->fit();
    m_roofline->setOps(m_model->ops());
    m_rooflineNote->setText(m_roofline->note());
}

void OpStatsView::updateScope() {
    const RunAnalysis *a = m_runBox->currentIndex() >= 0 ? m_analysis->analysisOrStart(m_runBox->currentData().toLongLong()) : nullptr;
    if (!a || a->steps.steps.empty()) {
        const bool pending = m_runBox->currentIndex() >= 0 && m_analysis->pending(m_runBox->currentData().toLongLong());
        m_scope->setText(pending ? tr("Analysing the run in the background…") : m_analysis->error());
        return;
    }
    const QString noGpu = a->gpuTraced ? QString() : tr(" · no GPU in this trace: host ops");
    if (!visibleRangeOnly()) {
        m_scope->setText(tr("Whole run: steps %1–%2").arg(a->steps.steps.front().step).arg(a->steps.steps.back().step) + noGpu);
        return;
    }
    const NsRange full = m_time->fullRange(), shown = m_rangeStats->range();
    const int64_t origin = full.valid() ? full.start : 0;
    QString text = shown.valid() ? tr("Events starting in %1 – %2 (visible range)")
                                       .arg(formatTime(shown.start - origin), formatTime(shown.end - origin))
                                 : tr("Visible range");
    if (m_rangeStats->busy() || m_rangeTimer->isActive()) text += tr(" · updating…");
    else if (!m_rangeStats->error().isEmpty()) text += tr(" · could not read the events: %1").arg(m_rangeStats->error());
    m_scope->setText(text + noGpu);
}

} // namespace stepscope
