#include "views/analysis/findings_view.h"

#include "models/analysis/rules/cross_checks.h"
#include "models/analysis/engine/memory_headroom.h"
#include "models/analysis/rules/projection_rules.h"

#include "models/analysis/service/analysis_model.h"
#include "models/colors/palette.h"
#include "views/analysis/wrapped_text_delegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QMenu>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QResizeEvent>
#include <QScopeGuard>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTextDocumentFragment>
#include <QToolButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdint>
#include <set>

namespace stepscope {

namespace {
constexpr int kListedSteps = 20;  // evidence steps listed one by one under a finding
constexpr int RangeStartRole = Qt::UserRole + 1;
constexpr int RangeEndRole = Qt::UserRole + 2;

QColor severityColor(FindingSeverity s) {
    switch (s) {
    case FindingSeverity::High: return QColor(0xc6, 0x28, 0x28);
    case FindingSeverity::Medium: return QColor(0xef, 0x6c, 0x00);
    case FindingSeverity::Low: return QColor(0xf9, 0xa8, 0x25);
    case FindingSeverity::Info: break;
    }
    return QColor(0x75, 0x75, 0x75);
}

QString q(const std::string &s) { return QString::fromStdString(s); }
} // namespace

void FindingsView::resizeEvent(QResizeEvent *event) {
    QWidget::resizeEvent(event);
    // The tree is laid out after this event: its viewport may still have the old width.
    const int w = std::max(m_tree->viewport()->width(), event->size().width() - 2 * m_tree->frameWidth() -
                                                            m_tree->verticalScrollBar()->sizeHint().width());
    // Severity sits two levels deep (group, finding): its longest word must still fit.
    const int severity = 2 * m_tree->indentation() + m_tree->fontMetrics().horizontalAdvance(tr("medium")) + 16;
    m_tree->header()->resizeSection(0, std::max(severity, std::min(w / 5, 130)));
    m_tree->header()->resizeSection(2, std::clamp(w / 3, 80, 420));  // op names are long: room when there is room
    fitVerdict();
}

void FindingsView::fitVerdict() {
    const bool expanded = verdictExpanded();
    m_verdict->setVisible(expanded);
    m_verdictLine->setVisible(!expanded);
    if (!expanded) {
        const QString text = m_bottleneck->text();
        const QString first = QTextDocumentFragment::fromHtml(text.section(QStringLiteral("<br>"), 0, 0)).toPlainText();
        m_verdictLine->setText(m_verdictLine->fontMetrics().elidedText(first, Qt::ElideRight, std::max(40, width() - 12)));
        m_verdictLine->setToolTip(QTextDocumentFragment::fromHtml(text).toPlainText());
        return;
    }
    const int width = std::max(50, m_verdict->width() - m_verdict->verticalScrollBar()->sizeHint().width());
    const int needed = m_bottleneck->heightForWidth(width) + 2;
    const int line = m_bottleneck->fontMetrics().lineSpacing() + 4;
    m_verdict->setFixedHeight(std::max(line, std::min(needed, std::max(line, height() / 4))));
}

void FindingsView::setVerdictExpanded(bool expanded) { m_verdictToggle->setChecked(expanded); }
bool FindingsView::verdictExpanded() const { return m_verdictToggle->isChecked(); }
QWidget *FindingsView::verdictArea() const { return verdictExpanded() ? static_cast<QWidget *>(m_verdict) : m_verdictLine; }

FindingsView::FindingsView(const SessionModels &models, QWidget *parent)
    : QWidget(parent), m_session(models.session), m_time(models.time), m_analysis(models.analysis),
      m_runBox(new QComboBox(this)), m_bottleneck(new QLabel), m_verdict(new QScrollArea(this)),
      m_verdictLine(new QLabel(this)), m_verdictToggle(new QToolButton(this)), m_tree(new QTreeWidget(this)) {
    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Run:"), this));
    top->addWidget(m_runBox, 1);
    m_verdictToggle->setObjectName(QStringLiteral("findingsVerdictToggle"));
    m_verdictToggle->setCheckable(true);
    m_verdictToggle->setAutoRaise(true);
    m_verdictToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_verdictToggle->setToolTip(tr("Show the whole verdict, or only its first line so the findings have the room"));
    top->addWidget(m_verdictToggle);
    auto showToggle = [this](bool expanded) {
        m_verdictToggle->setArrowType(expanded ? Qt::DownArrow : Qt::RightArrow);
        m_verdictToggle->setText(expanded ? tr("Verdict") : tr("Verdict (one line)"));
    };
    m_verdictToggle->setChecked(QSettings().value(QStringLiteral("findings/verdictExpanded"), true).toBool());
    showToggle(m_verdictToggle->isChecked());
    connect(m_verdictToggle, &QToolButton::toggled, this, [this, showToggle](bool expanded) {
        QSettings().setValue(QStringLiteral("findings/verdictExpanded"), expanded);
        showToggle(expanded);
        fitVerdict();
    });
    m_verdict->setObjectName(QStringLiteral("findingsVerdict"));
    m_verdict->setFrameShape(QFrame::NoFrame);
    m_verdict->setWidgetResizable(true);
    m_verdict->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_verdict->setWidget(m_bottleneck);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(top);
    layout->addWidget(m_verdict);
    m_verdictLine->setObjectName(QStringLiteral("findingsVerdictLine"));
    layout->addWidget(m_verdictLine);
    layout->addWidget(m_tree, 1);
    m_bottleneck->setWordWrap(true);
    m_bottleneck->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_bottleneck->setTextFormat(Qt::RichText);
    m_tree->setColumnCount(3);
    m_tree->setHeaderLabels({tr("Severity"), tr("Finding"), tr("Evidence")});
    m_tree->setRootIsDecorated(true);
    // Findings and their advice are sentences: they wrap to the panel's width, never elided.
    m_tree->setItemDelegate(new WrappedTextDelegate(m_tree));
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(2, QHeaderView::Interactive);
    m_tree->header()->resizeSection(2, 160);
    auto *copy = new QAction(tr("Copy text"), m_tree);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, [this] {
        if (const QTreeWidgetItem *item = m_tree->currentItem()) {
            QStringList parts;
            for (int c = 0; c < m_tree->columnCount(); ++c)
                if (!item->text(c).isEmpty()) parts << item->text(c);
            QApplication::clipboard()->setText(parts.join(QStringLiteral(" — ")));
        }
    });
    m_tree->addAction(copy);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this, copy](QPoint pos) {
        QTreeWidgetItem *item = m_tree->itemAt(pos);
        if (!item) return;
        m_tree->setCurrentItem(item);
        QMenu menu(this);
        menu.addAction(copy);
        menu.exec(m_tree->viewport()->mapToGlobal(pos));
    });
    connect(m_tree, &QTreeWidget::itemClicked, this, [this](QTreeWidgetItem *item) { activate(item); });
    connect(m_analysis, &AnalysisModel::changed, this, &FindingsView::reloadRuns);
    connect(m_runBox, &QComboBox::currentIndexChanged, this, &FindingsView::reload);
    reloadRuns();
}

QString FindingsView::bottleneckText() const { return m_bottleneck->text(); }

void FindingsView::activate(QTreeWidgetItem *item) {
    if (!item) return;
    const qint64 start = item->data(0, RangeStartRole).toLongLong(), end = item->data(0, RangeEndRole).toLongLong();
    if (end <= start) return;
    const qint64 pad = std::max<qint64>((end - start) / 20, 1000);
    m_time->setRange({start - pad, end + pad});
}

void FindingsView::reloadRuns() {
    const QString current = m_runBox->currentText();
    {
        QSignalBlocker block(m_runBox);
        m_runBox->clear();
        for (const RunRow &r : m_analysis->runs()) m_runBox->addItem(q(r.name), qint64(r.id));
        const int idx = m_runBox->findText(current);
        m_runBox->setCurrentIndex(idx >= 0 ? idx : 0);
    }
    reload();
}

void FindingsView::setImporting(const QString &what) {
    if (what == m_importing) return;
    m_importing = what;
    m_runBox->setEnabled(what.isEmpty());
    reload();
}

void FindingsView::reload() {
    m_tree->clear();
    const auto fit = qScopeGuard([this] { fitVerdict(); });  // the verdict's height follows its text
    if (!m_importing.isEmpty()) {
        m_bottleneck->setText(tr("Importing %1: its findings follow when it is analysed.").arg(m_importing.toHtmlEscaped()));
        return;
    }
    const RunAnalysis *a = m_runBox->currentIndex() >= 0 ? m_analysis->analysisOrStart(m_runBox->currentData().toLongLong()) : nullptr;
    if (!a) {
        const bool pending = m_runBox->currentIndex() >= 0 && m_analysis->pending(m_runBox->currentData().toLongLong());
        m_bottleneck->setText(pending ? tr("Analysing the run in the background…") : m_analysis->error());
        return;
    }
    const JobRankNote job = m_analysis->jobNote(m_runBox->currentData().toLongLong());
    QString line = tr("Bottleneck: <b>%1</b>").arg(q(a->bottleneck).toHtmlEscaped());
    if (const auto c = categoryFromName(a->bottleneck))
        line = QStringLiteral("<span style='color:%1'>&#9632;</span> ").arg(categoryColor(*c).name()) + line;
    if (!a->bottleneckDetail.empty()) line += QStringLiteral(" (%1)").arg(q(a->bottleneckDetail).toHtmlEscaped());
    line += QStringLiteral(" — %1").arg(q(a->bottleneckEvidence + (job.symptom.empty() ? "" : " " + job.symptom)).toHtmlEscaped());
    // Lead with what fixing it is worth: the biggest projected gain first. On a rank that waits for
    // a straggler, the job's fix leads (its own wait is a symptom); on the straggler, whichever of
    // the job's fix and its own causes is worth more.
    const auto ranked = rankedProjections(*a);
    const bool jobLeads = job.finding && job.finding->projection &&
                          (!job.symptom.empty() || ranked.empty() || job.finding->projection->speedup >= ranked.front()->speedup);
    if (jobLeads)
        line += QStringLiteral("<br>") + tr("Biggest gain: <b>%1</b> (%2)").arg(q(describeProjection(*job.finding->projection)).toHtmlEscaped(),
                                                                             q(job.finding->title).toHtmlEscaped());
    else if (!ranked.empty())
        line += QStringLiteral("<br>") + tr("Biggest gain: <b>%1</b>").arg(q(describeProjection(*ranked.front())).toHtmlEscaped());
    if (a->memory) line += QStringLiteral("<br>") + tr("GPU memory: %1").arg(q(MemoryHeadroom::describe(*a->memory)).toHtmlEscaped());
    // Other profilers' verdicts beside ours, once per figure (overview and input pipeline repeat it).
    QStringList crossChecks;
    for (const CrossCheck &c : a->crossChecks) {
        if (!c.inputPct) continue;
        const QString text = q(CrossChecks::describe(c)).toHtmlEscaped();
        if (crossChecks.contains(text)) continue;
        crossChecks << text;
        line += QStringLiteral("<br>") + (c.agree && !*c.agree ? QStringLiteral("<b>%1</b> (disagree)").arg(text) : text);
    }
    m_bottleneck->setText(line);

    std::vector<const Finding *> ordered;
    for (const Finding &f : a->findings) ordered.push_back(&f);
    std::stable_sort(ordered.begin(), ordered.end(), [](const Finding *x, const Finding *y) {
        return (x->projection ? x->projection->speedup : 0.0) > (y->projection ? y->projection->speedup : 0.0);
    });
    if (job.finding) ordered.insert(ordered.begin(), &*job.finding);  // the job's root cause leads
    // A short group title (a long one took three lines of a short panel); the order in its tooltip.
    auto *findings = new QTreeWidgetItem(m_tree, {QString(), tr("Findings (%1)").arg(ordered.size())});
    findings->setToolTip(1, job.finding ? tr("The job's finding first, then the biggest projected gain first")
                                        : tr("Biggest projected gain first"));
    for (const Finding *fp : ordered) {
        const Finding &f = *fp;
        QString evidence;
        if (!f.steps.empty()) {
            QStringList steps;
            for (size_t i = 0; i < f.steps.size() && i < 8; ++i) steps << QString::number(f.steps[i]);
            evidence = tr("steps %1%2").arg(steps.join(QStringLiteral(", ")), f.steps.size() > 8 ? QStringLiteral(", …") : QString());
        }
        // A click zooms to the evidence steps (from the first one's start to the last one's end),
        // not to the finding's time range: for stage findings that is the whole run.
        int64_t start = f.startNs, end = f.endNs;
        if (!f.steps.empty()) {
            const std::set<int64_t> wanted(f.steps.begin(), f.steps.end());
            int64_t lo = INT64_MAX, hi = INT64_MIN;
            for (const AnalysisStep &s : a->steps.steps)
                if (wanted.count(s.step)) lo = std::min(lo, s.start), hi = std::max(hi, s.end);
            if (lo < hi) start = lo, end = hi;
        }
        QString title = q(f.title);
        // Which cause the projection removes: two findings about input may remove input alone or input+h2d.
        if (f.projection) title += tr(" — %1 fixed: %2 → %3 ms, %4×").arg(q(f.projection->category))
                                       .arg(f.projection->currentStepTimeMs, 0, 'f', 1)
                                       .arg(f.projection->stepTimeMs, 0, 'f', 1).arg(f.projection->speedup, 0, 'f', 2);
        auto *item = new QTreeWidgetItem(findings, {QString::fromLatin1(findingSeverityName(f.severity)), title, evidence});
        item->setForeground(0, severityColor(f.severity));
        item->setData(0, RangeStartRole, qint64(start));
        item->setData(0, RangeEndRole, qint64(end));
        item->setToolTip(1, QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>").arg(q(f.title).toHtmlEscaped(), q(f.detail).toHtmlEscaped(),
                                                                                 q(f.recommendation).toHtmlEscaped()));
        new QTreeWidgetItem(item, {QString(), q(f.detail)});
        if (!f.recommendation.empty()) new QTreeWidgetItem(item, {tr("do"), q(f.recommendation)});
        if (f.projection)
            new QTreeWidgetItem(item, {tr("worth"), tr("%1 (method: %2)").arg(q(describeProjection(*f.projection)), q(f.projection->method))});
        for (int i = 0; i < item->childCount(); ++i) {
            item->child(i)->setData(0, RangeStartRole, qint64(start));
            item->child(i)->setData(0, RangeEndRole, qint64(end));
        }
        // Evidence steps far apart (every 10th step) span most of the run: each also gets its own
        // entry, which zooms to that step alone.
        int listed = 0;
        for (const AnalysisStep &s : a->steps.steps) {
            if (std::find(f.steps.begin(), f.steps.end(), s.step) == f.steps.end() || listed++ >= kListedSteps) continue;
            auto *step = new QTreeWidgetItem(item, {tr("step"), tr("step %1 — %2 ms").arg(s.step).arg(double(s.dur()) / 1e6, 0, 'f', 1)});
            step->setData(0, RangeStartRole, qint64(s.start));
            step->setData(0, RangeEndRole, qint64(s.end));
        }
    }
    findings->setExpanded(true);

    const GapTotals &g = a->gaps.device;
    auto *gaps = new QTreeWidgetItem(m_tree, {QString(), tr("GPU idle gaps: %1, %2 ms (host wait %3 ms, kernel wait %4 ms, other %5 ms)")
                                                             .arg(g.count)
                                                             .arg(double(g.totalNs) / 1e6, 0, 'f', 2)
                                                             .arg(double(g.byCauseNs[0]) / 1e6, 0, 'f', 2)
                                                             .arg(double(g.byCauseNs[1]) / 1e6, 0, 'f', 2)
                                                             .arg(double(g.byCauseNs[2]) / 1e6, 0, 'f', 2)});
    for (const GpuGap &gap : a->gaps.top) {
        QStringList names;
        for (const std::string &n : gap.overlapping) names << q(n).left(60);
        auto *item = new QTreeWidgetItem(gaps, {q(std::string(gapCauseName(gap.cause))),
                                                tr("%1 ms idle before %2 — host: %3").arg(double(gap.dur) / 1e6, 0, 'f', 3).arg(q(gap.stream), q(gap.hostActivity)),
                                                names.join(QStringLiteral("; "))});
        item->setData(0, RangeStartRole, qint64(gap.start));
        item->setData(0, RangeEndRole, qint64(gap.start + gap.dur));
    }
    gaps->setExpanded(true);
    m_tree->resizeColumnToContents(0);
}

void FindingsView::showRun(qint64 runId) {
    if (const int i = m_runBox->findData(runId); i >= 0) m_runBox->setCurrentIndex(i);
}

} // namespace stepscope
