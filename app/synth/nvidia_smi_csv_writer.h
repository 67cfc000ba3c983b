#pragma once
// NvidiaSmiCsvWriter: owns the text of an `nvidia-smi --query-gpu=timestamp,index,name,utilization.gpu,
// utilization.memory,memory.used,memory.total --format=csv -lms 100` loop log. The generator calls it
// after simulating the trace; utilization comes from the GpuActivityRecorder's 100 ms windows, so an
// input-bound trace shows a mostly idle GPU here too. Time stamps are written in UTC (nvidia-smi writes
// local time without a zone; a UTC host gives the same text), one row per GPU per sample, the rows of
// one sample a millisecond or two apart as the real tool prints them.

#include <cstdint>
#include <filesystem>
#include <string_view>

namespace stepscope::synth {

class GpuActivityRecorder;

struct NvidiaSmiDevice {
    std::string_view name = "NVIDIA H100 80GB HBM3";
    int64_t memoryTotalMiB = 81559;
    int64_t memoryUsedMiB = 30512; // while training; jitters by a few MiB
};

class NvidiaSmiCsvWriter {
public:
    // Writes the whole log; returns the number of data rows. Throws std::runtime_error naming the path.
    static int64_t write(const std::filesystem::path &path, const GpuActivityRecorder &activity, int64_t epochStartNs,
                         uint64_t seed, const NvidiaSmiDevice &device = {});
    // Mean utilization.gpu (percent, as written) over all rows of the last write, for reports.
    static double meanUtilization(const GpuActivityRecorder &activity);
};

} // namespace stepscope::synth
