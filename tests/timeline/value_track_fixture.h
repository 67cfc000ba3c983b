#pragma once
// Counter and metric data next to the timeline fixture's slices, for the value-track tests: a
// Chrome-style counter ("GPU memory allocated", three samples in step 0), an empty counter (never
// shown), and an nvidia-smi-like source sampled every 5 ms: GPU utilization of two GPUs (with a
// 40 ms hole in GPU 0's, mid-run), per-core and machine CPU, and network in.

#include "models/store/session_writer.h"
#include "tests/timeline/timeline_fixture.h"

namespace stepscope::test {

struct ValueTrackFixture {
    int64_t counterTrack = 0, emptyCounterTrack = 0;
    int64_t gpu0Series = 0;
    int64_t holeStartNs = 0, holeEndNs = 0;  // absolute: GPU 0 has no sample in [start, end)
};

inline ValueTrackFixture writeValueTrackFixture(SessionStore &store, const TimelineFixtureInfo &info,
                                                const TimelineFixtureSpec &spec) {
    ValueTrackFixture v;
    SessionWriter w(store);
    w.begin();
    v.counterTrack = w.addTrack(info.runId, {TrackKind::Counter, std::nullopt, "GPU memory allocated", "1", "", 0});
    w.addCounterSample(v.counterTrack, 0, 1.0e9);
    w.addCounterSample(v.counterTrack, 5'000'000, 3.0e9);
    w.addCounterSample(v.counterTrack, 10'000'000, 2.0e9);
    v.emptyCounterTrack = w.addTrack(info.runId, {TrackKind::Counter, std::nullopt, "nothing recorded", "1", "", 0});

    const int64_t src = w.addSource("synthetic://nvidia-smi.csv", "nvidia-smi", 0);
    const int64_t period = 5'000'000, t0 = spec.timeBaseNs, span = spec.steps * spec.stepNs;
    v.gpu0Series = w.addMetricSeries(src, "", "gpu_util", 0, "%", period);
    const int64_t gpu1 = w.addMetricSeries(src, "", "gpu_util", 1, "%", period);
    const int64_t core0 = w.addMetricSeries(src, "", "cpu_util", 0, "%", period);
    const int64_t cpu = w.addMetricSeries(src, "", "cpu_util", std::nullopt, "%", period);
    const int64_t net = w.addMetricSeries(src, "", "net_in", std::nullopt, "B/s", period);
    v.holeStartNs = t0 + span / 2;
    v.holeEndNs = v.holeStartNs + 40'000'000;
    for (int64_t t = t0 - 100'000'000; t < t0 + span + 100'000'000; t += period) {
        const int64_t i = (t - t0) / period;
        if (t < v.holeStartNs || t >= v.holeEndNs) w.addMetricSample(v.gpu0Series, t, double(40 + (i % 5) * 10));
        w.addMetricSample(gpu1, t, 90.0);
        w.addMetricSample(core0, t, 100.0);
        w.addMetricSample(cpu, t, 25.0);
        w.addMetricSample(net, t, 1.0e8);
    }
    w.commit();
    return v;
}

} // namespace stepscope::test
