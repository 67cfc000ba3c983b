#pragma once
// XPlaneImporter reads one XSpace profile (`<logdir>/plugins/profile/<run>/<host>.xplane.pb`, written
// by TensorFlow ≥ 2.4, JAX, PyTorch/XLA) into one run of the session, named "<run>/<host>". It reads
// the file into memory in bounded pieces (never mapped: a file truncated while mapped is SIGBUS; read,
// it is a short read and a partial import naming the file; gzip is inflated once), walks it with
// XPlaneTokenizer, anchors time on the
// `Task Environment` plane's profile_start_time (epoch ns) when present, turns host-plane lines into
// host-thread tracks and `/device:GPU:N` / `/device:TPU:N` lines into gpu_stream tracks of device N
// (derived lines such as "Steps" or "XLA Ops" become their own tracks of kind other), writes each
// line through XPlaneLineWriter, then links host launches to device activities that share a
// `correlation_id` (flow rows) and writes the steps StepDetector chose. Malformed bytes stop the
// walk with an error naming the byte offset; everything decoded before it is kept (status partial,
// or failed when nothing was). Registered in ImporterRegistry; called by logdir discovery and the CLI.
// Which profile run of a logdir to import is decided before, by ProfileRunSelector.

#include "importers/common/importer.h"

#include <functional>

namespace stepscope {

class XPlaneImporter : public Importer {
public:
    std::string format() const override { return "xplane"; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;

    // "<run>/<host>" for a file under plugins/profile/<run>/, else the file name without .xplane.pb.
    static std::string runNameFor(const std::filesystem::path &file);

    // Test seam: called with the file after its size is taken and before its bytes are read, where a
    // test truncates it as a concurrent writer could. Unset in the application.
    static inline std::function<void(const std::filesystem::path &)> afterSizeForTest;
};

} // namespace stepscope
