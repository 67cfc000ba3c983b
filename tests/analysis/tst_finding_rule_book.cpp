// The finding rules' records (resources/rules/finding_rules.tsv, framework_advice.tsv): every rule
// id of finding_rule_ids.h has exactly one record and every record an id; a record gives the causes,
// thresholds and advice the rules read; advice is said in the run's framework's words; a bad table is
// refused naming its line; and no source file outside finding_rule_ids.h spells a rule id.
#include "models/analysis/rules/finding_rule_book.h"
#include "models/analysis/rules/finding_rule_ids.h"

#include <QDirIterator>
#include <QFile>
#include <QtTest>

#include <set>

using namespace stepscope;

namespace {

QString parseError(const std::string &rules, const std::string &advice) {
    try {
        FindingRuleBook::parse(rules, advice);
    } catch (const std::runtime_error &e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

const std::string kAdvice = "input\tPT text\tTF text\tJAX text\nplugin\tPT only\t-\t-\n";

} // namespace

class TestFindingRuleBook : public QObject {
    Q_OBJECT

private slots:
    void everyIdHasOneRecordAndEveryRecordAnId() {
        const FindingRuleBook &book = FindingRuleBook::builtin();
        std::set<std::string> ids;
        for (std::string_view id : rule_id::kAll) {
            QVERIFY2(ids.insert(std::string(id)).second, std::string(id).c_str());
            QVERIFY2(book.find(id), std::string(id).c_str());
        }
        QCOMPARE(book.rules().size(), ids.size());
        for (const FindingRuleRecord &r : book.rules()) QVERIFY2(ids.count(r.id), r.id.c_str());
        QVERIFY_THROWS_EXCEPTION(std::logic_error, book.rule("no_such_rule"));
    }

    void recordsCarryCausesThresholdsAndAdvice() {
        const FindingRuleBook &book = FindingRuleBook::builtin();
        const FindingRuleRecord &tf = book.rule(rule_id::TfInputBound);
        QCOMPARE(tf.origin, std::string("tensorflow_profiler"));
        // TensorFlow counts host-to-device copies as input: its projection removes both.
        QVERIFY((tf.causes == std::vector<Category>{Category::Input, Category::H2D}));
        QCOMPARE(tf.threshold("moderate_pct"), 5.0);
        QCOMPARE(tf.threshold("high_pct"), 20.0);
        QVERIFY_THROWS_EXCEPTION(std::logic_error, tf.threshold("no_such_threshold"));
        QVERIFY(book.rule(rule_id::GpuIdle).causes.empty());  // a symptom: no projection of its own
        QCOMPARE(book.rule(rule_id::GpuStarvation).threshold("min_gap_ms"), 500.0);
        // Advice in the run's framework's words.
        QVERIFY(QString::fromStdString(book.recommendation(rule_id::TfInputBound, Framework::TensorFlow)).contains("tf.data"));
        QVERIFY(QString::fromStdString(book.recommendation(rule_id::TfInputBound, Framework::PyTorch)).contains("DataLoader"));
        QVERIFY(QString::fromStdString(book.recommendation(rule_id::TfInputBound, Framework::Jax)).contains("prefetch_to_device"));
        const QString unknown = QString::fromStdString(book.recommendation(rule_id::TfInputBound, Framework::Unknown));
        QVERIFY(unknown.startsWith("PyTorch: ") && unknown.contains(" TensorFlow: "));
        // A rule of one framework's own tool says its one text to every framework.
        QCOMPARE(book.recommendation(rule_id::PtDataloader, Framework::TensorFlow), book.recommendation(rule_id::PtDataloader, Framework::PyTorch));
        QVERIFY(book.advice("no_such_topic", Framework::PyTorch).empty());
    }

    void parsesAndRefusesTables() {
        const FindingRuleBook book = FindingRuleBook::parse("# comment\nr1\tme\tinput,d2h\ta=1 b=2.5\tinput\nr2\tme\t-\t-\tplugin\n", kAdvice);
        QCOMPARE(book.rules().size(), size_t(2));
        QCOMPARE(book.rule("r1").threshold("b"), 2.5);
        QCOMPARE(book.recommendation("r1", Framework::Jax), std::string("JAX text"));
        QCOMPARE(book.recommendation("r2", Framework::Jax), std::string("PT only"));
        QCOMPARE(parseError("r1\tme\tinput\t-\n", kAdvice), QString("finding_rules.tsv:1: wants 5 tab-separated fields, not 4"));
        QVERIFY(parseError("\nr1\tme\tnot_a_category\t-\t-\n", kAdvice).startsWith("finding_rules.tsv:2: 'not_a_category' is not a category"));
        QVERIFY(parseError("r1\tme\t-\ta=x\t-\n", kAdvice).startsWith("finding_rules.tsv:1: 'a=x'"));
        QVERIFY(parseError("r1\tme\t-\ta=-3\t-\n", kAdvice).startsWith("finding_rules.tsv:1: 'a=-3'"));
        QVERIFY(parseError("r1\tme\t-\t-\tmissing\n", kAdvice).contains("advice topic 'missing'"));
        QVERIFY(parseError("r1\tme\t-\t-\t-\nr1\tme\t-\t-\t-\n", kAdvice).startsWith("finding_rules.tsv:2: rule 'r1' is given twice"));
        QVERIFY(parseError("", "input\t-\tTF\tJAX\n").startsWith("framework_advice.tsv:1:"));
    }

    // Rule ids are named once (finding_rule_ids.h): a rule id spelled as a string literal anywhere
    // else in the sources would drift from its record. Allowed: "compilation" is also a category's
    // name, and the report's `outlier_steps` key is the name of a summary field.
    void noSourceSpellsARuleId() {
        const QString root = QStringLiteral(STEPSCOPE_SOURCE_DIR);
        QStringList offenders;
        for (const char *folder : {"app", "models", "views", "importers"}) {
            QDirIterator it(root + '/' + folder, {"*.cpp", "*.h"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString path = it.next();
                if (path.endsWith("finding_rule_ids.h")) continue;
                QFile f(path);
                QVERIFY(f.open(QIODevice::ReadOnly));
                const QStringList lines = QString::fromUtf8(f.readAll()).split('\n');
                for (int n = 0; n < lines.size(); ++n) {
                    const QString code = lines[n].left(lines[n].indexOf("//"));  // comments may name rules
                    for (std::string_view id : rule_id::kAll) {
                        const QString quoted = '"' + QString::fromLatin1(id.data(), int(id.size())) + '"';
                        if (!code.contains(quoted)) continue;
                        if (id == rule_id::Compilation && path.endsWith("models/analysis/engine/category.h")) continue;
                        if (id == rule_id::OutlierSteps && path.endsWith("models/analysis/report/report_formatter.cpp")) continue;
                        offenders << QString("%1:%2: %3").arg(path.mid(root.size() + 1)).arg(n + 1).arg(quoted);
                    }
                }
            }
        }
        QVERIFY2(offenders.isEmpty(), qPrintable(offenders.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TestFindingRuleBook)
#include "tst_finding_rule_book.moc"
