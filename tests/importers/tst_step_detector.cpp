// StepDetector on its own: the best candidate class wins (a loop marked twice counts once), the
// earliest span per step number (the longer on a tie), unnumbered spans numbered in time order, the
// TensorFlow training function when there is no candidate, else no steps; and the rules of
// step_ranges.tsv that give every format its candidates. Step rows, step source and log codes checked.

#include "importers/common/step_detector.h"
#include "models/store/session_writer.h"
#include "tests/importers/import_test_support.h"

#include <QtTest>

using namespace stepscope;

namespace {
struct Detected {
    QTemporaryDir dir;
    std::unique_ptr<SessionStore> store;
    int64_t written = 0;
    QStringList steps() const { return test::queryRows(*store, "SELECT step, start_ns, dur_ns FROM step ORDER BY step"); }
    QStringList log() const { return test::queryRows(*store, "SELECT severity, code FROM import_log ORDER BY id"); }
    QString source() const { return test::queryRows(*store, "SELECT step_source FROM run").join(','); }
};

// Runs `feed` on a detector over `rules`, then writes its steps into a fresh session's one run.
std::unique_ptr<Detected> detect(const StepNameRules &rules, const std::function<void(StepDetector &)> &feed,
                                 const std::function<std::string(int)> &describe = {}) {
    auto d = std::make_unique<Detected>();
    d->store = std::make_unique<SessionStore>(d->dir.filePath("s.stepscope").toStdString());
    SessionWriter writer(*d->store);
    writer.begin();
    const int64_t source = writer.addSource("/t.json", "test", 1);
    RunInfo run;
    run.name = "run";
    const int64_t runId = writer.addRun(source, run);
    ImportContext ctx(writer, source, "/t.json");
    StepDetector detector(rules);
    feed(detector);
    d->written = detector.write(ctx, runId, describe);
    writer.commit();
    return d;
}
} // namespace

class TestStepDetector : public QObject {
    Q_OBJECT
private slots:
    void theBestClassWins() {
        const auto d = detect(StepNameRules::load(), [](StepDetector &s) {
            s.addCandidate(3, 9, 0, 500);     // an outer "train_step 9" range (a later rule)
            s.addCandidate(0, 1, 10, 100);    // ProfilerStep#1 inside it
            s.addCandidate(0, 2, 200, 100);
        });
        QCOMPARE(d->written, int64_t(2));
        QCOMPARE(d->steps(), QStringList({"1|10|100", "2|200|100"}));
        QCOMPARE(d->source(), QStringLiteral("markers"));
        QCOMPARE(d->log(), QStringList());
    }

    void earliestSpanPerNumberLongerOnATie() {
        const auto d = detect(StepNameRules::load(), [](StepDetector &s) {
            s.addCandidate(0, 1, 50, 10);
            s.addCandidate(0, 1, 20, 10);  // earlier: replaces
            s.addCandidate(0, 1, 20, 30);  // same start, longer: replaces
            s.addCandidate(0, 1, 20, 5);   // same start, shorter: kept out
        });
        QCOMPARE(d->steps(), QStringList({"1|20|30"}));
        QCOMPARE(d->log(), QStringList({"warning|duplicate_step"}));  // a trace's named step repeated
    }

    void aFormatsOwnMarkersRepeatQuietly() {
        // XPlane's step_num stats sit on nested events of one step: no warning for them.
        const auto d = detect(StepNameRules::load(), [](StepDetector &s) {
            s.addCandidate(-1, 4, 0, 100);
            s.addCandidate(-1, 4, 10, 50);
            s.addCandidate(0, 4, 0, 100);
        }, [](int stepClass) { return stepClass == -1 ? std::string("step_num stats") : std::string(); });
        QCOMPARE(d->steps(), QStringList({"4|0|100"}));
        QCOMPARE(d->log(), QStringList({"info|step_source"}));
    }

    void unnumberedStepsInTimeOrder() {
        const auto d = detect(StepNameRules::load(), [](StepDetector &s) {
            s.addCandidate(5, std::nullopt, 300, 10);
            s.addCandidate(5, std::nullopt, 100, 10);
            s.addCandidate(5, std::nullopt, 200, 10);
        });
        QCOMPARE(d->steps(), QStringList({"0|100|10", "1|200|10", "2|300|10"}));
        QCOMPARE(d->log(), QStringList({"info|unnumbered_steps"}));
    }

    void trainingFunctionWithoutCandidates() {
        using Role = TrainFunctionSteps::Role;
        const auto d = detect(StepNameRules::load(), [](StepDetector &s) {
            s.addTrainFunctionSpan(Role::Execution, 100, 50);
            s.addTrainFunctionSpan(Role::Execution, 200, 50);
            s.addTrainFunctionSpan(Role::None, 0, 1000);  // no role: ignored
        });
        QCOMPARE(d->written, int64_t(2));
        QCOMPARE(d->source(), QStringLiteral("tf_train_function"));
        QCOMPARE(d->log(), QStringList({"info|step_source"}));
        // Markers win over the training function.
        const auto marked = detect(StepNameRules::load(), [](StepDetector &s) {
            s.addTrainFunctionSpan(Role::Execution, 100, 50);
            s.addCandidate(0, 7, 90, 70);
        });
        QCOMPARE(marked->steps(), QStringList({"7|90|70"}));
        QCOMPARE(marked->source(), QStringLiteral("markers"));
    }

    void nothingMeansTheWholeTrace() {
        const auto d = detect(StepNameRules::load(), [](StepDetector &) {});
        QCOMPARE(d->written, int64_t(0));
        QCOMPARE(d->steps(), QStringList());
        QCOMPARE(d->source(), QStringLiteral("whole_trace"));
    }

    void theRulesOfStepRanges() {
        const StepNameRules rules = StepNameRules::load();
        const auto profiler = rules.match("ProfilerStep#12");
        QVERIFY(profiler);
        QCOMPARE(profiler->rule, 0);
        QCOMPARE(profiler->number, std::optional<int64_t>(12));
        const auto step = rules.match("Step 7");
        QVERIFY(step && step->rule > 0);
        QCOMPARE(step->number, std::optional<int64_t>(7));
        const auto exact = rules.match("train_step");
        QVERIFY(exact && !exact->number && exact->rule > step->rule);
        QVERIFY(rules.match("ProfilerStep#x")->badNumber);
        QVERIFY(!rules.match("aten::mm"));
        QCOMPARE(rules.match("ProfilerStep#3")->rule, StepNameRules::profilerSteps().match("ProfilerStep#3")->rule);
        QVERIFY(!StepNameRules::profilerSteps().match("Step 7"));  // PyTorch traces: ProfilerStep#N only
    }
};

QTEST_GUILESS_MAIN(TestStepDetector)
#include "tst_step_detector.moc"
