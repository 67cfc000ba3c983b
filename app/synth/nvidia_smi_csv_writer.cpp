#include "app/synth/nvidia_smi_csv_writer.h"

#include "app/synth/deterministic_random.h"
#include "app/synth/gpu_activity_recorder.h"
#include "app/synth/utc_calendar.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace stepscope::synth {

namespace {
int utilizationPct(double fraction) {
    return std::clamp(static_cast<int>(fraction * 100.0 + 0.5), 0, 100);
}
} // namespace

double NvidiaSmiCsvWriter::meanUtilization(const GpuActivityRecorder &activity) {
    double sum = 0;
    int64_t n = 0;
    for (int64_t w = 0; w < activity.windows(); ++w)
        for (int g = 0; g < activity.gpus(); ++g, ++n)
            sum += utilizationPct(activity.kernelFraction(g, w));
    return n ? sum / static_cast<double>(n) : 0.0;
}

int64_t NvidiaSmiCsvWriter::write(const std::filesystem::path &path, const GpuActivityRecorder &activity,
                                  int64_t epochStartNs, uint64_t seed, const NvidiaSmiDevice &device) {
    std::error_code ec;
    if (path.has_parent_path())
        std::filesystem::create_directories(path.parent_path(), ec);
    std::FILE *f = std::fopen(path.string().c_str(), "wb");
    if (!f)
        throw std::runtime_error(path.string() + ": cannot open for writing");
    DeterministicRandom rng(DeterministicRandom::mix(seed, 0x5A11ull));
    std::string text = "timestamp, index, name, utilization.gpu [%], utilization.memory [%], memory.used [MiB], "
                       "memory.total [MiB]\n";
    int64_t rows = 0;
    bool ok = true;
    for (int64_t w = 0; w < activity.windows(); ++w) {
        // Sample w reports the window that ends at its time stamp.
        const int64_t sampleNs = epochStartNs + (w + 1) * GpuActivityRecorder::kWindowNs;
        for (int g = 0; g < activity.gpus(); ++g) {
            const double kernels = activity.kernelFraction(g, w);
            const double copies = activity.copyFraction(g, w);
            const int util = utilizationPct(kernels);
            const int memUtil = utilizationPct(std::min(1.0, kernels * rng.uniform(0.38, 0.48) + copies * 0.9));
            const int64_t used = device.memoryUsedMiB + g * 6 + static_cast<int64_t>(rng.below(9)) - 4;
            const int64_t rowNs = sampleNs + g * 1'000'000 + static_cast<int64_t>(rng.below(700'000));
            text += UtcCalendar::nvidiaSmiTimestamp(rowNs);
            text += ", " + std::to_string(g) + ", ";
            text += device.name;
            text += ", " + std::to_string(util) + " %, " + std::to_string(memUtil) + " %, " + std::to_string(used) +
                    " MiB, " + std::to_string(device.memoryTotalMiB) + " MiB\n";
            ++rows;
        }
        if (text.size() > (1 << 16)) {
            ok = ok && std::fwrite(text.data(), 1, text.size(), f) == text.size();
            text.clear();
        }
    }
    ok = ok && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = std::fclose(f) == 0 && ok;
    if (!ok)
        throw std::runtime_error(path.string() + ": write failed");
    return rows;
}

} // namespace stepscope::synth
