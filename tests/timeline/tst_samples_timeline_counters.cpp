// Counter tracks from real Chrome traces: catapult's instance counters (one counter name, two
// instance ids) and the TF trace viewer's demo trace. Expected samples were read with Python's json
// module: "counter" id 123 = 2, 10, 5, 8, 4, 10 at ts 9524, 9626..9631 µs; id "b" = 10, 0; the xprof
// trace's "counter" = 10, 1, 5, 1, 10.
#include "models/metrics/metric_lod.h"
#include "models/timeline/timeline_model.h"
#include "tests/analysis/import_helper.h"
#include "tests/test_support.h"

using namespace stepscope;

class TstSamplesTimelineCounters : public QObject {
    Q_OBJECT

    static std::vector<float> valuesOf(const TimelineModel &model, const QString &name) {
        for (size_t i = 0; i < model.tracks().size(); ++i)
            if (model.tracks()[i].name == name && model.tracks()[i].kind == QLatin1String("counter"))
                return model.valueSeries(int(i))->lod->values();
        return {};
    }

private slots:
    void catapultInstanceCounters() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::ImportedSession s({samples / "catapult/tracing_test_data/instance_counters.json"});
        TimelineModel model;
        model.load(s.store.get());
        QCOMPARE(valuesOf(model, QStringLiteral("counter 123")), std::vector<float>({2, 10, 5, 8, 4, 10}));
        QCOMPARE(valuesOf(model, QStringLiteral("counter b")), std::vector<float>({10, 0}));
        // Times: 9524 µs and 9631 µs apart by 107 µs on the absolute axis.
        for (size_t i = 0; i < model.tracks().size(); ++i) {
            if (model.tracks()[i].name != QLatin1String("counter b")) continue;
            const auto &t = model.valueSeries(int(i))->lod->times();
            QCOMPARE(t.back() - t.front(), int64_t(107'000));
            // The counter sits in its run's "Counters" group.
            QCOMPARE(model.groups()[size_t(model.tracks()[i].group)].title, QStringLiteral("Counters"));
        }
    }

    void tfTraceViewerCounter() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        test::ImportedSession s({samples / "xprof/tf_trace_viewer/trace.json"});
        TimelineModel model;
        model.load(s.store.get());
        QCOMPARE(valuesOf(model, QStringLiteral("counter")), std::vector<float>({10, 1, 5, 1, 10}));
    }
};

QTEST_GUILESS_MAIN(TstSamplesTimelineCounters)
#include "tst_samples_timeline_counters.moc"
