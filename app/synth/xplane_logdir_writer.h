#pragma once
// writeXPlaneLogdir: the generator's XPlane output. It writes `<logdir>/plugins/profile/<run>/
// <host>.xplane.pb` for the same simulation as the Chrome trace (same options, same events), by
// converting the Kineto trace with XPlaneTraceConverter: from `chromeTraceGz` when the caller has
// just written it (--format both), else from a temporary trace it writes and removes. Callers: the
// stepscope-synth program (--format xplane|both), importer cross-check tests and benchmarks.

#include "app/synth/synthetic_profile_generator.h"
#include "app/synth/xplane_trace_converter.h"

#include <filesystem>
#include <string>

namespace stepscope::synth {

struct XPlaneLogdirOptions {
    std::string run;                 // empty: the epoch start as the profiler names runs (YYYY_MM_DD_HH_MM_SS)
    std::string host = "synthhost";  // file name and XSpace hostname
    XPlaneStepMarkers stepMarkers = XPlaneStepMarkers::ProfilerStep;
};

struct XPlaneLogdirResult {
    std::filesystem::path file;  // the .xplane.pb written
    SyntheticProfileStats trace; // of the simulation (the Chrome trace's figures)
    XPlaneConversionStats xplane;
};

// Throws std::invalid_argument for bad options and std::runtime_error for files it cannot write.
XPlaneLogdirResult writeXPlaneLogdir(const SyntheticProfileOptions &options, const std::filesystem::path &logdir,
                                     const XPlaneLogdirOptions &xplane = {},
                                     const std::filesystem::path &chromeTraceGz = {});

// The profiler's run-folder name for an epoch time: 2026_01_15_10_00_00.
std::string profileRunName(int64_t epochNs);

} // namespace stepscope::synth
