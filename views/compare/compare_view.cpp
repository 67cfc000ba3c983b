#include "views/compare/compare_view.h"

#include "models/analysis/tables/op_delta_table_model.h"
#include "views/analysis/name_column.h"
#include "views/analysis/stats_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace stepscope {

namespace {

QString esc(const std::string &s) { return QString::fromStdString(s).toHtmlEscaped(); }

QString sideText(const char *role, const ComparedRun &r) {
    QString t = QStringLiteral("<b>%1</b> %2 (run %3, %4 steps): mean <b>%5 ms</b>")
                    .arg(QString::fromLatin1(role), esc(r.label), esc(r.run))
                    .arg(r.steps)
                    .arg(r.stepTime.meanMs, 0, 'f', 2);
    if (r.samplesPerSecond) t += QStringLiteral(" · %1 samples/s").arg(*r.samplesPerSecond, 0, 'f', 1);
    if (r.gpuTraced) t += QStringLiteral(" · GPU busy %1 %").arg(r.gpuBusyPct, 0, 'f', 1);
    return t + QStringLiteral(" · bottleneck %1").arg(esc(r.bottleneck));
}

QString rulesText(const std::vector<std::string> &rules, const std::map<std::string, std::string> &titles) {
    if (rules.empty()) return QObject::tr("none");
    QStringList l;
    for (const std::string &r : rules) {
        const auto t = titles.find(r);
        l << (t != titles.end() ? QStringLiteral("%1 <span style='color:#777'>(%2)</span>").arg(esc(t->second), esc(r)) : esc(r));
    }
    return l.join(QStringLiteral(", "));
}

} // namespace

CompareView::CompareView(QWidget *parent)
    : QWidget(parent), m_header(new QLabel(this)), m_notes(new QLabel(this)), m_findings(new QLabel(this)),
      m_waterfall(new QCustomPlot(this)), m_filter(new QLineEdit(this)), m_table(new QTableView(this)),
      m_model(new OpDeltaTableModel(this)), m_proxy(new StatsTableProxy([](int c) { return c <= OpDeltaTableModel::Status; }, this)) {
    for (QLabel *l : {m_header, m_notes, m_findings}) {
        l->setWordWrap(true);
        l->setTextFormat(Qt::RichText);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_notes->setStyleSheet(QStringLiteral("color: #555;"));
    m_waterfall->setMinimumHeight(220);
    m_filter->setPlaceholderText(tr("Filter ops by name"));
    m_filter->setClearButtonEnabled(true);

    m_nameColumn = setUpStatsTable(m_table, m_proxy, m_model, OpDeltaTableModel::SortRole,
                                   OpDeltaTableModel::Name);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex &index) {
        if (const OpDelta *o = m_model->op(m_proxy->mapToSource(index).row())) emit opSelected(QString::fromStdString(o->name), o->device);
    });

    auto *tablePane = new QWidget(this);
    auto *tableLayout = new QVBoxLayout(tablePane);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(m_filter);
    tableLayout->addWidget(m_table, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_waterfall);
    split->addWidget(tablePane);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setChildrenCollapsible(false);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(m_header);
    layout->addWidget(m_notes);
    layout->addWidget(split, 1);
    layout->addWidget(m_findings);
    setMessage(tr("No comparison yet: File ▸ Compare With… in the main window."));
}

void CompareView::setMessage(const QString &text) {
    m_header->setText(text.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
    m_notes->clear();
    m_findings->clear();
    m_model->setOps({});
    m_waterfall->clearPlottables();
    m_waterfall->clearItems();
    m_waterfall->replot();
    // No comparison: no empty axes and table under the message.
    m_waterfall->hide();
    m_table->hide();
}

QString CompareView::headerText() const { return m_header->text(); }
QString CompareView::findingsText() const { return m_findings->text(); }
void CompareView::setFilterText(const QString &text) { m_filter->setText(text); }

void CompareView::setComparison(const RunComparison &c) {
    m_comparison = c;
    m_waterfall->show();
    m_table->show();
    QString head = sideText("base", c.base) + QStringLiteral("<br>") + sideText("new", c.next) + QStringLiteral("<br>");
    const double x = c.next.stepTime.meanMs > 0 ? c.base.stepTime.meanMs / c.next.stepTime.meanMs : 0;
    head += tr("<b>step time %1 → %2 ms (%3%4 %, %5)</b>")
                .arg(c.base.stepTime.meanMs, 0, 'f', 2)
                .arg(c.next.stepTime.meanMs, 0, 'f', 2)
                .arg(c.stepTimeChangePct > 0 ? QStringLiteral("+") : QString())
                .arg(c.stepTimeChangePct, 0, 'f', 1)
                .arg(x >= 1 ? tr("%1× faster").arg(x, 0, 'f', 2) : tr("%1× slower").arg(x > 0 ? 1 / x : 0, 0, 'f', 2));
    if (c.samplesPerSecondChangePct)
        head += tr(" · throughput %1 → %2 samples/s (%3%4 %)")
                    .arg(*c.base.samplesPerSecond, 0, 'f', 1)
                    .arg(*c.next.samplesPerSecond, 0, 'f', 1)
                    .arg(*c.samplesPerSecondChangePct > 0 ? QStringLiteral("+") : QString())
                    .arg(*c.samplesPerSecondChangePct, 0, 'f', 1);
    m_header->setText(head);
    QStringList notes;
    for (const std::string &n : c.notes) notes << esc(n);
    m_notes->setText(notes.join(QStringLiteral("<br>")));
    m_notes->setVisible(!notes.isEmpty());
    QStringList reduced;
    for (const RunComparison::Reduced &r : c.reduced) reduced << esc(r.text());
    QString resolved = rulesText(c.resolved, c.titles);
    if (!reduced.isEmpty())
        resolved = (c.resolved.empty() ? QString() : resolved + QStringLiteral("; ")) +
                   tr("reduced: %1").arg(reduced.join(QStringLiteral(", ")));
    m_findings->setText(tr("<b>Findings</b> resolved: %1 · new: %2 · kept: %3")
                            .arg(resolved, rulesText(c.added, c.titles), rulesText(c.kept, c.titles)));
    m_model->setOps(c.ops);
    m_table->sortByColumn(-1, Qt::AscendingOrder);  // the comparison's order: the biggest change either way first
    m_nameColumn->fit();
    fillWaterfall();
}

void CompareView::fillWaterfall() {
    QCustomPlot *p = m_waterfall;
    p->clearPlottables();
    p->clearItems();
    const RunComparison &c = m_comparison;
    struct Bar {
        QString label;
        double lo, hi;
        QColor color;
        QString value;
    };
    std::vector<Bar> bars;
    bars.push_back({tr("base"), 0, c.base.stepTime.meanMs, QColor(0x90, 0x90, 0x90), QString::number(c.base.stepTime.meanMs, 'f', 1)});
    double level = c.base.stepTime.meanMs;
    for (const CategoryDelta &d : c.categories) {
        // Categories that moved by at least 0.5 % of the base step (or 0.01 ms) get a bar.
        if (std::abs(d.deltaMs()) < std::max(0.01, 0.005 * c.base.stepTime.meanMs)) continue;
        const double next = level + d.deltaMs();
        // Green where time went away, red where it grew (as in the op table).
        bars.push_back({QString::fromLatin1(categoryName(d.category).data(), int(categoryName(d.category).size())),
                        std::min(level, next), std::max(level, next),
                        d.deltaMs() < 0 ? QColor(0x43, 0xa0, 0x47) : QColor(0xe5, 0x39, 0x35),
                        (d.deltaMs() > 0 ? QStringLiteral("+") : QString()) + QString::number(d.deltaMs(), 'f', 1)});
        level = next;
    }
    // The categories add up to the step (StepBreakdownAnalyzer), so the walk ends at the new mean.
    bars.push_back({tr("new"), 0, c.next.stepTime.meanMs, QColor(0x55, 0x55, 0x55), QString::number(c.next.stepTime.meanMs, 'f', 1)});
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = 0;
    for (size_t i = 0; i < bars.size(); ++i) {
        const Bar &b = bars[i];
        auto *offset = new QCPBars(p->xAxis, p->yAxis);
        offset->setPen(Qt::NoPen);
        offset->setBrush(Qt::NoBrush);
        offset->setWidth(0.6);
        offset->addData(double(i), b.lo);
        offset->removeFromLegend();
        auto *bar = new QCPBars(p->xAxis, p->yAxis);
        bar->setWidth(0.6);
        bar->setPen(QPen(b.color.darker(130)));
        bar->setBrush(b.color);
        bar->addData(double(i), b.hi - b.lo);
        bar->moveAbove(offset);
        ticker->addTick(double(i), b.label);
        auto *label = new QCPItemText(p);
        label->position->setCoords(double(i), b.hi);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(b.value);
        label->setPadding(QMargins(0, 0, 0, 2));
        top = std::max(top, b.hi);
    }
    p->xAxis->setTicker(ticker);
    p->xAxis->setTickLabelRotation(bars.size() > 8 ? 30 : 0);
    p->xAxis->setRange(-0.6, double(bars.size()) - 0.4);
    p->xAxis->grid()->setVisible(false);
    p->yAxis->setRange(0, std::max(top * 1.15, 1e-6));
    p->yAxis->setLabel(tr("mean step, ms"));
    p->replot();
}

} // namespace stepscope
