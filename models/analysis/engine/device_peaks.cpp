#include "models/analysis/engine/device_peaks.h"

#include "models/analysis/rules/category_rules.h"

#include <algorithm>
#include <cstdlib>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace stepscope {

namespace {
constexpr const char *kDtypes[] = {"fp64", "fp32", "tf32", "bf16", "fp16", "fp8", "int8"};

std::vector<std::string> splitTabs(const std::string &line) {
    std::vector<std::string> out;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, '\t')) out.push_back(field);
    return out;
}
} // namespace

std::optional<double> DevicePeak::peakTflops(const std::string &dtype) const {
    const auto it = tflops.find(dtype);
    if (it != tflops.end()) return it->second;
    return std::nullopt;
}

double DevicePeak::attainableTflops(const std::string &dtype, double intensity) const {
    const double peak = peakTflops(dtype).value_or(0);
    return std::min(peak, intensity * memGbps / 1000.0);
}

double DevicePeak::ridgeIntensity(const std::string &dtype) const {
    return memGbps > 0 ? peakTflops(dtype).value_or(0) * 1000.0 / memGbps : 0.0;
}

DevicePeaks DevicePeaks::parse(const std::string &text, const std::string &origin) {
    DevicePeaks out;
    std::istringstream in(text);
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        if (line.empty() || line[0] == '#') continue;
        auto fail = [&](const std::string &why) {
            throw std::runtime_error(origin + ":" + std::to_string(lineNo) + ": " + why);
        };
        const std::vector<std::string> f = splitTabs(line);
        if (f.size() != 11) fail("wants 11 tab-separated fields, has " + std::to_string(f.size()));
        DevicePeak d;
        d.pattern = f[0];
        try {
            (void)std::regex(d.pattern, std::regex::ECMAScript | std::regex::icase);
        } catch (const std::regex_error &) {
            fail("a bad pattern '" + d.pattern + "'");
        }
        auto number = [&](const std::string &s, const char *what) {
            char *end = nullptr;
            const double v = std::strtod(s.c_str(), &end);
            if (s.empty() || *end != '\0' || !(v > 0) || v > 1e6) fail(std::string("a bad ") + what + " '" + s + "'");
            return v;
        };
        for (size_t k = 0; k < 7; ++k)
            if (f[1 + k] != "-") d.tflops[kDtypes[k]] = number(f[1 + k], kDtypes[k]);
        d.memGbps = number(f[8], "bandwidth");
        if (f[9] != "-") d.nvlinkGbps = number(f[9], "NVLink bandwidth");
        d.source = f[10];
        if (d.source.empty()) fail("no source");
        out.m_devices.push_back(std::move(d));
    }
    return out;
}

const DevicePeaks &DevicePeaks::builtin() {
    static const DevicePeaks peaks = parse(CategoryRules::builtinTable("gpu_peaks.tsv"), "built-in gpu_peaks.tsv");
    return peaks;
}

const DevicePeak *DevicePeaks::find(const std::string &deviceName) const {
    if (deviceName.empty()) return nullptr;
    for (const DevicePeak &d : m_devices)
        if (std::regex_search(deviceName, std::regex(d.pattern, std::regex::ECMAScript | std::regex::icase))) return &d;
    return nullptr;
}

} // namespace stepscope
