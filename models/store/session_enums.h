#pragma once
// The kinds the session's rows carry — a source's import status, a track's kind, an import_log
// row's severity, a run's step source — as enums on both sides of the store, with the text the
// session stores for each (the schema's CHECK values, what users query) and back: a stored text no
// value has reads as TrackKind::Other / Severity::Error / StepSource::Markers.

#include <string_view>

namespace stepscope {

enum class SourceStatus { Ok, Partial, Failed };
enum class TrackKind { HostThread, GpuStream, Counter, Other };
enum class Severity { Info, Warning, Error };
// Where a run's steps come from (run.step_source): the trace's step markers, the executions of a
// TensorFlow 2 training function (TrainFunctionSteps), or none (the whole trace is one step).
enum class StepSource { Markers, TfTrainFunction, WholeTrace };

std::string_view trackKindName(TrackKind kind);
TrackKind trackKindFromName(std::string_view name);
std::string_view severityName(Severity severity);
Severity severityFromName(std::string_view name);
std::string_view stepSourceName(StepSource source);  // markers, tf_train_function, whole_trace
StepSource stepSourceFromName(std::string_view name);  // unknown text: Markers

} // namespace stepscope
