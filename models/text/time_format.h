#pragma once
// formatTime(ns, referenceNs): the one way a time becomes text in every view (the timeline's
// tooltips, details and panels, the Range tab, annotations, captures, export captions, the
// utilization header). As in Qt Creator's tracing (`Timeline::formatTime(timestamp, reference)`),
// the unit and precision come from a reference span, not from the value itself, so neighbouring
// values — the two ends of a range against its span, a self time against its duration — read alike
// and tell apart: formatTime(0, 94.4 s) is "0.000 s", not "0 ns". Without a reference the value is
// its own ("1.234 ms", "56.7 µs", "12 ns", "94.400 s", "150.0 s"). The clock-offset editor's
// lossless "+1.5 s" is DurationText's; axis ticks with a step's precision are the rulers'.

#include <QString>

#include <cstdint>

namespace stepscope {

// `ns` in the unit the reference calls for (s from 1 s, ms from 1 ms, µs from 1 µs, else ns), with
// three decimals while the reference is under 100 of that unit and one from there (none for ns).
// A negative reference means "no reference": the value's own magnitude is used.
QString formatTime(int64_t ns, int64_t referenceNs = -1);

} // namespace stepscope
