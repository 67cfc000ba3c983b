#pragma once
// captureClusters: the separate captures in a session whose runs were recorded minutes apart (two
// profiler captures of one job in one folder), so the timeline can show one at a time instead of
// the whole span with the data squeezed at both edges (issue #35, item 13). Runs that overlap or
// lie close together are one capture; a capture starts after an idle gap longer than 10 s and longer
// than the captures on both sides of it together.

#include "models/store/ns_range.h"

#include <vector>

namespace stepscope {

// The captures, in time order; fewer than two when the runs are one stretch of time.
std::vector<NsRange> captureClusters(std::vector<NsRange> runs);

} // namespace stepscope
