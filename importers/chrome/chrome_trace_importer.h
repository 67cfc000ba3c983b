#pragma once
// ChromeTraceImporter reads Chrome trace-event JSON — PyTorch profiler / Kineto `*.pt.trace.json`,
// TensorFlow's `<host>.trace.json.gz`, catapult, SageMaker Debugger and Horovod timelines — plain
// or gzip (by content), into one run of the session. It wires the pieces: ByteSource (through
// BytePrefetcher, on a second core) → ChromeTraceTokenizer → TraceEventBuffer → TraceEventWriter,
// and turns read errors into a Partial result that names the byte offset. Registered in
// ImporterRegistry; called by logdir discovery and the command line.

#include "importers/common/importer.h"

namespace stepscope {

class ChromeTraceImporter : public Importer {
public:
    std::string format() const override { return "chrome_json"; }
    bool readsPrefix() const override { return true; }
    bool sniff(const std::filesystem::path &file, std::string_view head) const override;
    ImportResult import(const std::filesystem::path &file, ImportContext &ctx) override;
};

} // namespace stepscope
