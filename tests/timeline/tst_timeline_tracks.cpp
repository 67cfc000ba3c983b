// Timeline tracks beyond slices and the user's track choices: counter tracks from counter_sample,
// metric tracks from the instance metrics (grouped, per-core CPU left out, rebuilt when the metrics
// change, gaps honoured), the value painter's pixels, and track order / hidden / collapsed choices
// saved by name and restored onto a freshly loaded model.
#include "models/metrics/metric_lod.h"
#include "models/metrics/metric_series_loader.h"
#include "models/metrics/metric_series_model.h"
#include "models/colors/palette.h"
#include "models/timeline/timeline_compact_tracks.h"
#include "tests/analysis/analysis_fixture.h"
#include "models/timeline/timeline_model.h"
#include "tests/test_support.h"
#include "tests/timeline/value_track_fixture.h"
#include "views/timeline/time_ruler.h"
#include "views/timeline/timeline_layout.h"
#include "views/timeline/value_track_painter.h"

#include <QImage>
#include <QPainter>
#include <QSignalSpy>

#include <memory>

using namespace stepscope;

class TstTimelineTracks : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<SessionStore> m_store;
    test::TimelineFixtureSpec m_spec;
    test::TimelineFixtureInfo m_info;
    test::ValueTrackFixture m_values;
    MetricSeriesModel m_metrics;
    TimelineModel m_model;

    int track(const QString &name) const {
        for (size_t i = 0; i < m_model.tracks().size(); ++i)
            if (m_model.tracks()[i].name == name) return int(i);
        return -1;
    }
    QStringList childTitles(int group) const {
        QStringList out;
        for (int c : m_model.groups()[size_t(group)].children) out << m_model.groups()[size_t(c)].title;
        return out;
    }
    QStringList trackNames(int group) const {
        QStringList out;
        for (int t : m_model.groups()[size_t(group)].tracks) out << m_model.tracks()[size_t(t)].name;
        return out;
    }
    int groupNamed(const QString &title, int parent) const {
        for (size_t g = 0; g < m_model.groups().size(); ++g)
            if (m_model.groups()[g].title == title && m_model.groups()[g].parent == parent) return int(g);
        return -1;
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_store = std::make_unique<SessionStore>((m_dir.path() + "/v.stepscope").toStdString());
        m_spec.steps = 12;
        m_spec.opsPerStep = 40;
        m_info = test::writeTimelineFixture(*m_store, m_spec);
        m_values = test::writeValueTrackFixture(*m_store, m_info, m_spec);
        m_metrics.setSeries(MetricSeriesLoader::load(*m_store));
        m_model.setMetricSeries(&m_metrics);
        m_model.load(m_store.get());
    }


    // Compact ranks show the thread that runs the training loop (issue #35, item 12): PyTorch's
    // autograd thread, busier with backward ops, hid the DataLoader waits of the main thread.
    void compactRanksShowTheTrainingLoopThread() {
        using test::AnalysisFixture, test::kMs, test::kUs;
        AnalysisFixture f;
        const int64_t main = f.thread("thread 1 (pt_main_thread)");
        const int64_t backward = f.thread("thread 2 (pt_autograd_0)");
        const int64_t gpu = f.stream(0, "stream 7");
        for (int i = 0; i < 3; ++i) {
            const int64_t t = i * 100 * kMs;
            f.step(i + 1, t, t + 100 * kMs);
            f.slice(main, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", "user_annotation", t, t + 40 * kMs);
            for (int k = 0; k < 10; ++k) f.slice(backward, "MmBackward0", "cpu_op", t + (50 + k) * kMs, t + (50 + k) * kMs + 500 * kUs);
            f.slice(gpu, "gemm", "kernel", t + 50 * kMs, t + 90 * kMs);
        }
        f.commit();
        TimelineModel model;
        model.load(&f.store());
        const int64_t run = model.tracks()[size_t(model.trackIndex(main))].runId;
        const std::vector<int> kept = compactTracksOf(model, run);
        QCOMPARE(kept.size(), size_t(2));
        QCOMPARE(model.tracks()[size_t(kept[0])].id, main);
        QCOMPARE(model.tracks()[size_t(kept[1])].id, gpu);
        QVERIFY(model.tracks()[size_t(model.trackIndex(backward))].sliceCount > model.tracks()[size_t(kept[0])].sliceCount);
    }
    void counterTrackHoldsItsSamples() {
        const int counters = groupNamed(QStringLiteral("Counters"), 0);
        QVERIFY(counters >= 0);
        QCOMPARE(trackNames(counters), QStringList{"GPU memory allocated"});  // the empty counter is not shown
        const int t = track(QStringLiteral("GPU memory allocated"));
        const TimelineTrack &tr = m_model.tracks()[size_t(t)];
        QCOMPARE(tr.kind, QStringLiteral("counter"));
        QVERIFY(tr.isValueTrack());
        const TimelineValueSeries *v = m_model.valueSeries(t);
        QVERIFY(v);
        QCOMPARE(v->lod->size(), int64_t(3));
        QCOMPARE(v->min, 1.0e9);
        QCOMPARE(v->max, 3.0e9);
        const int64_t base = m_spec.timeBaseNs;
        QVERIFY(!m_model.valueAt(t, base - 1));                    // before the first sample
        QCOMPARE(*m_model.valueAt(t, base + 6'000'000), 3.0e9);    // holds until the next sample
        QCOMPARE(*m_model.valueAt(t, base + 200'000'000), 2.0e9);  // a counter never expires
        QCOMPARE(m_model.valueSeries(m_model.trackIndex(m_info.gpuTrack)), nullptr);
        // Slice fetches ignore value tracks; the slice count is only slices.
        std::vector<TimelineItem> items;
        m_model.fetch(t, m_model.extent(), 1000, items);
        QVERIFY(items.empty());
        QCOMPARE(m_model.sliceCount(), m_info.slices);
    }

    void metricTracksGroupedByDevice() {
        const int top = groupNamed(QStringLiteral("Instance metrics"), -1);
        QVERIFY(top >= 0);
        QCOMPARE(childTitles(top), QStringList({"GPU 0", "GPU 1", "Host"}));
        const int host = groupNamed(QStringLiteral("Host"), top);
        // Per-core CPU stays in the utilization view; the machine-wide value and the busiest core are tracks.
        QCOMPARE(trackNames(host), QStringList({"CPU utilization", "network in", "CPU utilization · busiest core"}));
        const int gpu0 = track(QStringLiteral("GPU utilization"));
        QVERIFY(gpu0 >= 0);
        QCOMPARE(m_model.tracks()[size_t(gpu0)].device, std::optional<int64_t>(0));
        QCOMPARE(m_model.tracks()[size_t(gpu0)].kind, QStringLiteral("metric"));
        QVERIFY(m_model.tracks()[size_t(gpu0)].id < 0);
        QCOMPARE(m_model.valueSeries(gpu0)->unit, QStringLiteral("%"));
        // A sample stands for the 5 ms before its time stamp (utilization over the last period).
        auto sampleValue = [&](int64_t t) { return 40.0 + double(((t - m_spec.timeBaseNs) / 5'000'000) % 5) * 10; };
        const int64_t T = m_spec.timeBaseNs + 50'000'000;
        QCOMPARE(*m_model.valueAt(gpu0, T - 1), sampleValue(T));
        QCOMPARE(*m_model.valueAt(gpu0, T - 4'999'999), sampleValue(T));
        QCOMPARE(*m_model.valueAt(gpu0, T + 1), sampleValue(T + 5'000'000));
        QVERIFY(sampleValue(T) != sampleValue(T + 5'000'000));
        // Inside the hole (more than three periods without a sample) there is no value.
        QVERIFY(m_model.valueAt(gpu0, m_values.holeStartNs - 1).has_value());
        QVERIFY(!m_model.valueAt(gpu0, m_values.holeStartNs + 20'000'000).has_value());
        QCOMPARE(*m_model.valueAt(gpu0, m_values.holeEndNs - 1), sampleValue(m_values.holeEndNs));
    }

    void metricTracksFollowTheMetrics() {
        const size_t sliceTracks = 4;  // host, stream 7, memcpy, counter
        QCOMPARE(m_model.tracks().size(), sliceTracks + 5);
        const int gpuTrack = m_model.trackIndex(m_info.gpuTrack);
        std::vector<MetricSeries> only;
        for (const MetricSeries &s : m_metrics.all())
            if (s.info.name == "net_in") only.push_back(s);
        QSignalSpy reset(&m_model, &TimelineModel::modelReset);
        m_metrics.setSeries(only);
        QCOMPARE(reset.count(), 1);
        QCOMPARE(m_model.tracks().size(), sliceTracks + 1);
        QCOMPARE(m_model.tracks().back().name, QStringLiteral("network in"));
        QCOMPARE(m_model.trackIndex(m_info.gpuTrack), gpuTrack);  // slice tracks keep their indices
        m_metrics.setSeries({});
        QCOMPARE(m_model.tracks().size(), sliceTracks);
        QCOMPARE(groupNamed(QStringLiteral("Instance metrics"), -1), -1);
        m_metrics.setSeries(MetricSeriesLoader::load(*m_store));
        QCOMPARE(m_model.tracks().size(), sliceTracks + 5);
    }

    void painterDrawsSamplesAndLeavesGaps() {
        const int gpu0 = track(QStringLiteral("GPU utilization"));
        const TimelineValueSeries &v = *m_model.valueSeries(gpu0);
        QImage img(400, 44, QImage::Format_ARGB32);
        img.fill(Qt::white);
        QPainter p(&img);
        // 400 px over the whole run: the 40 ms hole spans columns [200, 266).
        const NsRange run{m_spec.timeBaseNs, m_spec.timeBaseNs + m_spec.steps * m_spec.stepNs};
        ValueTrackPainter::paint(p, QRectF(0, 0, 400, 44), v, run, QColor(90, 160, 90));
        p.end();
        auto inkedRows = [&](int x) {
            int n = 0;
            for (int y = 0; y < 42; ++y) n += img.pixel(x, y) != qRgb(255, 255, 255);
            return n;
        };
        QVERIFY(inkedRows(50) > 10);   // ~40-80 % of a 0..100 scale
        QVERIFY(inkedRows(199) > 10);
        QCOMPARE(inkedRows(240), 0);   // well inside the hole: nothing drawn (not a held value)
        QVERIFY(inkedRows(300) > 10);
        // A higher value stands taller: 80 % vs 40 % at the same scale.
        const auto [low, high] = ValueTrackPainter::scale(v);
        QCOMPARE(low, 0.0);
        QCOMPARE(high, 100.0);
    }

    void valuesFormattedForTheLabel() {
        QCOMPARE(ValueTrackPainter::formatValue(0, QString(), 3e9), QStringLiteral("0"));
        QCOMPARE(ValueTrackPainter::formatValue(3e9, QString(), 3e9), QStringLiteral("3.00 G"));
        QCOMPARE(ValueTrackPainter::formatValue(12, QString(), 40), QStringLiteral("12"));
        QCOMPARE(ValueTrackPainter::formatValue(87.5, QStringLiteral("%"), 100), QStringLiteral("87.5") + QChar(0x2009) + "%");
        QCOMPARE(ValueTrackPainter::formatValue(2.5 * 1024 * 1024 * 1024, QStringLiteral("B"), 8.0 * 1024 * 1024 * 1024),
                 QStringLiteral("2.50") + QChar(0x2009) + "GiB");
    }

    void numberedRepeatsShareAColour() {
        QCOMPARE(nameColorForText(u"ProfilerStep#12"), nameColorForText(u"ProfilerStep#13"));
        QCOMPARE(nameColorForText(u"ProfilerStep#12"), nameColorForText(u"ProfilerStep"));
        QVERIFY(nameColorForText(u"aten::add") != nameColorForText(u"aten::mul"));
        QVERIFY(nameColorForText(u"layer#") != nameColorForText(u"layer"));      // no number: kept
        QVERIFY(nameColorForText(u"conv2d") != nameColorForText(u"conv"));        // digits without '#': kept
        // The model colours ids by their text.
        const int host = m_model.trackIndex(m_info.hostTrack);
        std::vector<TimelineItem> items;
        m_model.fetch(host, {m_spec.timeBaseNs, m_spec.timeBaseNs + m_spec.stepNs}, 1000, items);
        QVERIFY(!items.empty());
        QCOMPARE(m_model.nameColorOf(items.front().nameId), nameColorForText(m_model.nameText(items.front().nameId)));
    }

    void rulerLabelsStayShortWhenDeep() {
        auto majors = [](int64_t origin, int64_t start, int64_t end) {
            QStringList out;
            for (const auto &t : TimeRuler::ticks(origin, start, end, 1400))
                if (t.major) out << t.label;
            return out;
        };
        // Near the origin: plain times.
        const QStringList near = majors(0, 0, 10'000'000);
        QCOMPARE(near.first(), QStringLiteral("0 ms"));
        QVERIFY(near.contains(QStringLiteral("2 ms")));
        // 300 µs seen 2.9 s in: the first label is the full time, the others offsets from it.
        const QStringList deep = majors(0, 2'912'500'000, 2'912'800'000);
        QVERIFY(deep.size() >= 5);
        QCOMPARE(deep[0], QStringLiteral("2.91250 s"));
        QCOMPARE(deep[1], QStringLiteral("+20 µs"));
        for (const QString &l : deep) QVERIFY2(l.size() <= 10, qPrintable(l));
    }

    void trackOrderSavedByName() {
        TimelineLayout layout;
        layout.rebuild(m_model);
        const int stream = m_model.trackIndex(m_info.gpuTrack), copy = m_model.trackIndex(m_info.copyTrack);
        QVERIFY(layout.trackRow(stream)->y < layout.trackRow(copy)->y);
        QVERIFY(layout.moveTrack(m_model, copy, 0));
        QVERIFY(!layout.moveTrack(m_model, copy, -5));  // already first: clamped, nothing moves
        layout.rebuild(m_model);
        QVERIFY(layout.trackRow(copy)->y < layout.trackRow(stream)->y);
        const int counter = track(QStringLiteral("GPU memory allocated"));
        layout.setHidden(counter, true);
        const int top = groupNamed(QStringLiteral("Instance metrics"), -1);
        layout.setCollapsed(top, true);
        const QByteArray saved = layout.saveChoices(m_model);

        // A fresh model over the same session (no metrics this time: other indices) gets them back.
        TimelineModel fresh;
        fresh.load(m_store.get());
        TimelineLayout restored;
        restored.restoreChoices(fresh, saved);
        restored.rebuild(fresh);
        const int s2 = fresh.trackIndex(m_info.gpuTrack), c2 = fresh.trackIndex(m_info.copyTrack);
        QVERIFY(restored.trackRow(c2)->y < restored.trackRow(s2)->y);
        QVERIFY(restored.isHidden(fresh.trackIndex(m_values.counterTrack)));
        QCOMPARE(restored.hiddenCount(), 1);
        // Garbage or an empty setting leaves the natural layout.
        restored.restoreChoices(fresh, "{not json");
        restored.rebuild(fresh);
        QVERIFY(restored.trackRow(s2)->y < restored.trackRow(c2)->y);
    }
};

QTEST_MAIN(TstTimelineTracks)
#include "tst_timeline_tracks.moc"
