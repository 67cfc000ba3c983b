#pragma once
// ImportLogCode: the stable code of every import_log row (its `code` column), the one list of the
// kinds of import problem and note, like Perfetto's typed stats. Tests, scripts and the Import log
// view match codes; the message beside a code is for people and free to improve. Every writer of a
// log row passes one (ImportContext::warn/error/info, SessionWriter::log, the store's repairs);
// docs/session-format.md lists them. A code, once shipped, keeps its text: add new ones, never rename.

#include <string_view>

namespace stepscope {

// X(Enum, "stored_text", "what it means")
#define STEPSCOPE_IMPORT_LOG_CODES(X)                                                                        \
    X(Unspecified, "", "a row written before codes existed (schema version 8 and older)")                  \
    /* the file as a whole */                                                                            \
    X(CannotOpen, "cannot_open", "the file cannot be opened or its size read")                             \
    X(ReadError, "read_error", "reading the file failed part-way (I/O error, a damaged container)")         \
    X(TruncatedGzip, "truncated_gzip", "the gzip stream ends before its end: what was decompressed is kept") \
    X(CorruptGzip, "corrupt_gzip", "the gzip stream is damaged: what was decompressed before is kept")      \
    X(DecompressionLimit, "decompression_limit", "the data expands past the decompression limit")           \
    X(EmptyFile, "empty_file", "the file has no bytes, or no records of its kind")                          \
    X(NotThisFormat, "not_this_format", "the file is not of the format its name or first bytes suggest")   \
    X(MalformedJson, "malformed_json", "JSON that does not parse: the events before the position are kept") \
    X(MalformedProtobuf, "malformed_protobuf", "protobuf bytes that do not parse: what was read is kept")   \
    X(MalformedRecord, "malformed_record", "a damaged record (TFRecord frame, event proto): skipped")        \
    X(TruncatedRecord, "truncated_record", "the last record is cut short (a file still being written?)")    \
    X(TrailingData, "trailing_data", "bytes or a second JSON value after the end of the trace: not read")   \
    X(MissingBracket, "missing_bracket", "the trace array has no closing ']' (allowed by the format)")       \
    X(ImportFailed, "import_failed", "the importer stopped with an error")                                 \
    X(FileSkipped, "file_skipped", "a file of a folder not imported (unknown kind, unreadable, a link out)") \
    X(DuplicatePath, "duplicate_path", "a path leading to a file or folder already imported: read once")    \
    X(LogCapped, "log_capped", "further problems of this source are counted, not logged")                  \
    X(SessionRepaired, "session_repaired", "opening the session removed or restored objects not Stepscope's") \
    /* times */                                                                                          \
    X(BadTimestamp, "bad_timestamp", "events without a valid time: skipped")                               \
    X(TimeOutOfRange, "time_out_of_range", "a time beyond ±2^62 ns: the event is dropped")                  \
    X(TimeBaseOutOfRange, "time_base_out_of_range", "a time base or epoch start out of range: ignored")      \
    X(RelativeTimes, "relative_times", "the source has no wall-clock start: times are relative")           \
    X(MixedTimeBases, "mixed_time_bases", "some lines have epoch times and others relative ones")           \
    X(TimeZoneAssumed, "time_zone_assumed", "times carry no zone: read as UTC or local time")               \
    /* events and slices */                                                                              \
    X(NegativeDuration, "negative_duration", "a negative duration: kept with duration 0 or as an instant")  \
    X(MissingDuration, "missing_duration", "complete events without a valid dur: read as 0")            \
    X(DurationOverflow, "duration_overflow", "a duration past the end of time: clamped to 0")               \
    X(EndBeforeBegin, "end_before_begin", "an end before its begin: kept with duration 0")                  \
    X(UnmatchedEnd, "unmatched_end", "end events without an open begin: ignored")                           \
    X(UnclosedSlice, "unclosed_slice", "begin events never ended: kept, running to the end of the trace")   \
    X(OverlappingSlices, "overlapping_slices", "slices overlapping without nesting: kept on overflow rows")  \
    X(NestingTooDeep, "nesting_too_deep", "slices nested deeper than 65535")                               \
    X(MissingPhase, "missing_phase", "events without a phase (ph): ignored")                               \
    X(IgnoredPhase, "ignored_phase", "events of a phase Stepscope does not draw: ignored")                 \
    X(UnknownPhase, "unknown_phase", "events of an unknown phase: ignored")                                \
    X(EndArgsDropped, "end_args_dropped", "args of end events are not kept")                              \
    X(BadCounterValue, "bad_counter_value", "counter values that are not finite numbers: skipped")         \
    X(BadMemoryTotal, "bad_memory_total", "allocator [memory] events without a valid total: kept as instants") \
    X(MemoryWithoutDevice, "memory_without_device", "allocator [memory] events of a GPU without a device id") \
    X(BadFlow, "bad_flow", "flow events without a time, an id or a binding: skipped")                     \
    X(UnboundFlow, "unbound_flow", "flow ends or correlation ids with no partner: no flow row")            \
    X(AggregatedEvents, "aggregated_events", "events that stand for several occurrences")                 \
    X(UnknownMetadata, "unknown_metadata", "events referring to metadata the file lacks: named by id")     \
    X(MissingString, "missing_string", "names referring to string ids the file does not hold")              \
    X(MissingTable, "missing_table", "a table or column the export does not have: read as empty")          \
    X(UnlinkedGpuWork, "unlinked_gpu_work", "GPU work whose launching calls are missing")                  \
    X(SeveralProcesses, "several_processes", "several processes launched kernels: imported as one run")     \
    X(UnplacedSync, "unplaced_sync", "synchronization records without the call that waited: not shown")     \
    X(BadRow, "bad_row", "a row or line that cannot be read: skipped")                                     \
    /* steps */                                                                                          \
    X(BadStepNumber, "bad_step_number", "step slices whose number is not in 0..2^31-1: kept as slices")     \
    X(UnnumberedSteps, "unnumbered_steps", "step ranges without a number: numbered in time order")         \
    X(DuplicateStep, "duplicate_step", "step slices repeating a step number: the earliest is kept")        \
    X(StepSourceNote, "step_source", "where the run's steps came from")                                    \
    /* metrics */                                                                                        \
    X(BadHeader, "bad_header", "a header the format needs is missing or wrong")                            \
    X(BadValue, "bad_value", "a value that is not a finite number: no sample")                            \
    X(LineTooLong, "line_too_long", "a line longer than 16 MiB: skipped")                                  \
    X(UnitConverted, "unit_converted", "values converted to another unit on import")                       \
    X(NotImported, "not_imported", "records of a kind Stepscope does not import (histograms, non-GPU rows)") \
    X(UnknownMetric, "unknown_metric", "samples of a metric the file does not name: skipped")              \
    /* notes */                                                                                          \
    X(ProfilerMessage, "profiler_message", "an error or warning the profiler itself recorded")             \
    X(SourceNote, "source_note", "a note the source carries (a restart, a comment)")                        \
    X(FormatVersion, "format_version", "the version of the format or tool that wrote the file")            \
    X(ImportSummary, "import_summary", "what was read (counts of kinds of records)")                       \
    X(PlaneStats, "plane_stats", "an XPlane plane's own stats (device properties), kept whole in the log")

enum class ImportLogCode {
#define STEPSCOPE_IMPORT_LOG_CODE_ENUM(name, text, description) name,
    STEPSCOPE_IMPORT_LOG_CODES(STEPSCOPE_IMPORT_LOG_CODE_ENUM)
#undef STEPSCOPE_IMPORT_LOG_CODE_ENUM
};

// The text stored in import_log.code ("" for Unspecified).
std::string_view importLogCodeName(ImportLogCode code);
std::string_view importLogCodeDescription(ImportLogCode code);
// The code a stored text names; Unspecified for "" and for a text this build does not know.
ImportLogCode importLogCodeFromName(std::string_view name);

} // namespace stepscope
