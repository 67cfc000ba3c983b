#include "app/synth/gpu_activity_recorder.h"

#include <algorithm>

namespace stepscope::synth {

GpuActivityRecorder::GpuActivityRecorder(int gpus)
    : pending_(static_cast<size_t>(gpus)), kernelBusy_(static_cast<size_t>(gpus)),
      copyBusy_(static_cast<size_t>(gpus)) {}

void GpuActivityRecorder::spread(std::vector<int64_t> &windows, int64_t start, int64_t end) {
    if (end <= start || start < 0)
        return;
    const auto last = static_cast<size_t>((end - 1) / kWindowNs);
    if (windows.size() <= last)
        windows.resize(last + 1, 0);
    while (start < end) {
        const int64_t w = start / kWindowNs;
        const int64_t stop = std::min(end, (w + 1) * kWindowNs);
        windows[static_cast<size_t>(w)] += stop - start;
        start = stop;
    }
}

void GpuActivityRecorder::addKernel(int gpu, int64_t startNs, int64_t endNs) {
    pending_[static_cast<size_t>(gpu)].push_back({startNs, endNs});
}

void GpuActivityRecorder::addCopy(int gpu, int64_t startNs, int64_t endNs) {
    spread(copyBusy_[static_cast<size_t>(gpu)], startNs, endNs);
    extendTo(endNs);
}

void GpuActivityRecorder::commit() {
    for (size_t g = 0; g < pending_.size(); ++g) {
        auto &v = pending_[g];
        std::sort(v.begin(), v.end(), [](const Interval &a, const Interval &b) { return a.start < b.start; });
        int64_t curStart = -1, curEnd = -1;
        for (const auto &iv : v) {
            if (iv.start > curEnd) {
                spread(kernelBusy_[g], curStart, curEnd);
                curStart = iv.start;
                curEnd = iv.end;
            } else {
                curEnd = std::max(curEnd, iv.end);
            }
        }
        spread(kernelBusy_[g], curStart, curEnd);
        extendTo(curEnd);
        v.clear();
    }
}

void GpuActivityRecorder::extendTo(int64_t endNs) {
    if (endNs > 0)
        windows_ = std::max(windows_, (endNs + kWindowNs - 1) / kWindowNs);
}

double GpuActivityRecorder::kernelFraction(int gpu, int64_t window) const {
    const auto &v = kernelBusy_[static_cast<size_t>(gpu)];
    return window < static_cast<int64_t>(v.size()) ? static_cast<double>(v[static_cast<size_t>(window)]) / kWindowNs
                                                   : 0.0;
}

double GpuActivityRecorder::copyFraction(int gpu, int64_t window) const {
    const auto &v = copyBusy_[static_cast<size_t>(gpu)];
    return window < static_cast<int64_t>(v.size()) ? static_cast<double>(v[static_cast<size_t>(window)]) / kWindowNs
                                                   : 0.0;
}

} // namespace stepscope::synth
