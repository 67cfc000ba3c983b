#pragma once
// Importer is the one interface every file format implements. The registry (importer_registry.h)
// sniffs a file's content and picks the importer; logdir discovery walks folders with it.
// Every format is read in the same three stages, named the same way (Perfetto's vocabulary):
// a *tokenizer* turns the file's bytes into the format's records in file order (ChromeTraceTokenizer,
// XPlaneTokenizer, LineTokenizer, NsysTokenizer, TfRecordTokenizer), a *parser* turns records into the
// run's events (TraceEventBuffer, the metric formats' *Parser, TfEventParser, TfProfilerToolParser),
// and a *writer* puts them into the session through SessionWriter (TraceEventWriter,
// XPlaneSpaceWriter/XPlaneLineWriter, MetricWriter).

#include "importers/common/import_context.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace stepscope {

class Importer {
public:
    virtual ~Importer() = default;
    // Short stable name stored in source.format, e.g. "chrome_json", "nvidia_smi_csv".
    virtual std::string format() const = 0;
    // Decides from the first (decompressed) bytes and the file name. Must be cheap.
    virtual bool sniff(const std::filesystem::path &file, std::string_view head) const = 0;
    // For a file sniff() refused that is of this format's container but not the format (an SQLite
    // database that is not an Nsight Systems export): why, for the user. Empty otherwise.
    virtual std::string refusal(const std::filesystem::path &, std::string_view) const { return {}; }
    virtual ImportResult import(const std::filesystem::path &file, ImportContext &ctx) = 0;
    // True when import() honours ImportContext::eventLimit (reads a prefix of the file and stops):
    // such files can be shown as a first picture before their whole import (ImportOptions::previewEvents).
    virtual bool readsPrefix() const { return false; }
};

} // namespace stepscope
