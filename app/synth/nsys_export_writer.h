#pragma once
// writeNsysExport: the generator's Nsight Systems output. It writes an SQLite file with the subset of
// the `nsys export --type sqlite` schema Stepscope reads (FORMATS.md §8) for the same simulation as the
// Chrome trace, by converting the Kineto trace (from `chromeTraceGz` when the caller has just written
// it, else from a temporary one): kernels, memcpys and memsets with their launch details; CUDA runtime
// calls (API names with nsys's _vNNNN suffix) and, for synchronize calls, CUPTI synchronization
// records; the host ops and annotations as NVTX push/pop ranges (annotations in an NVTX domain
// "synth"), ProfilerStep#N as the NVTX step range "step N"; thread names, the GPUs, the capture's
// UTC start; and GPU metrics sampling every millisecond (SMs Active from kernel time, PCIe RX from
// host-to-device copies). Callers: stepscope-synth --format nsys, importer tests and benchmarks.

#include "app/synth/synthetic_profile_generator.h"

#include <cstdint>
#include <filesystem>

namespace stepscope::synth {

struct NsysExportResult {
    std::filesystem::path file;
    int64_t rows = 0;            // event rows written (kernels, copies, API calls, syncs, NVTX)
    int64_t metricSamples = 0;
};

// Throws std::invalid_argument for bad options and std::runtime_error for files it cannot write.
NsysExportResult writeNsysExport(const SyntheticProfileOptions &options, const std::filesystem::path &file,
                                 const std::filesystem::path &chromeTraceGz = {});

} // namespace stepscope::synth
