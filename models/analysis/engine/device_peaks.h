#pragma once
// DevicePeaks: the peak throughput of a known GPU by dtype and its memory bandwidth, from the table
// resources/rules/gpu_peaks.tsv (each figure with its source), matched against a run's device name.
// Unknown devices have no peaks: efficiency figures are then left out, never guessed. Read by
// OpEfficiency (issue #33, item 2).

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stepscope {

struct DevicePeak {
    std::string pattern, source;
    std::map<std::string, double> tflops;  // by dtype: fp64 fp32 tf32 bf16 fp16 fp8 int8
    double memGbps = 0;
    std::optional<double> nvlinkGbps;      // per GPU and direction; absent without NVLink

    std::optional<double> peakTflops(const std::string &dtype) const;
    // The roof at an arithmetic intensity (FLOPs per byte): min(peak, intensity * bandwidth), in TFLOPS.
    double attainableTflops(const std::string &dtype, double intensity) const;
    double ridgeIntensity(const std::string &dtype) const;  // FLOPs per byte where the roofs meet
};

class DevicePeaks {
public:
    // Parses the table; throws std::runtime_error naming `origin`, the line and the problem.
    static DevicePeaks parse(const std::string &text, const std::string &origin);
    static const DevicePeaks &builtin();  // :/rules/gpu_peaks.tsv, parsed once
    const DevicePeak *find(const std::string &deviceName) const;
    const std::vector<DevicePeak> &devices() const { return m_devices; }

private:
    std::vector<DevicePeak> m_devices;
};

} // namespace stepscope
