#pragma once
// GpuActivityRecorder: owns, per GPU, how many nanoseconds of each 100 ms window had a kernel running
// (any stream) or a copy in flight. The step simulator reports every device interval; the nvidia-smi
// CSV writer turns the windows into utilization.gpu / utilization.memory, so the metrics agree with the
// trace. Memory is one counter pair per window, plus the intervals of the step being simulated.

#include <cstdint>
#include <vector>

namespace stepscope::synth {

class GpuActivityRecorder {
public:
    static constexpr int64_t kWindowNs = 100'000'000;

    explicit GpuActivityRecorder(int gpus);

    void addKernel(int gpu, int64_t startNs, int64_t endNs);
    void addCopy(int gpu, int64_t startNs, int64_t endNs);
    // Merges the pending kernel intervals (streams of one GPU may overlap) into the windows.
    void commit();
    // Makes the windows cover [0, endNs).
    void extendTo(int64_t endNs);

    int gpus() const { return static_cast<int>(kernelBusy_.size()); }
    int64_t windows() const { return windows_; }
    // Fraction of window w (covering [w*100ms, (w+1)*100ms)) with a kernel running / a copy in flight.
    double kernelFraction(int gpu, int64_t window) const;
    double copyFraction(int gpu, int64_t window) const;

private:
    struct Interval {
        int64_t start, end;
    };
    static void spread(std::vector<int64_t> &windows, int64_t start, int64_t end);

    std::vector<std::vector<Interval>> pending_;
    std::vector<std::vector<int64_t>> kernelBusy_;
    std::vector<std::vector<int64_t>> copyBusy_;
    int64_t windows_ = 0;
};

} // namespace stepscope::synth
