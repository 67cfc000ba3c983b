// Benchmark of SliceNester on slices that overlap like a staircase (slice i over [i, i + 2n): each
// starts inside the previous one and ends after it), the shape that made nesting quadratic, next to
// a well-nested track of the same size for scale.
//
//   bench_staircase_nesting [N ...]      (default: 120000 1000000)
//
// Prints per size and shape: seconds, slices looked at by the nesting passes, overflowed and
// clipped slices, and the deepest row.

#include "importers/common/slice_nester.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace stepscope;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

void run(const char *shape, const std::vector<SliceNester::Span> &spans) {
    SliceNester nester;
    const double t0 = now();
    nester.nest(spans);
    // One flow-binding lookup per slice, as the Chrome importer may do.
    int64_t found = 0;
    for (size_t i = 0; i < spans.size(); i += 1) found += nester.enclosing(spans[i].start) != SliceNester::kNone;
    const double s = now() - t0;
    std::printf("%-12s %9zu slices  %7.3f s  work %11lld  overflow %9lld  clipped %9lld  max depth %d  enclosed %lld\n",
                shape, spans.size(), s, static_cast<long long>(nester.nestingWork()),
                static_cast<long long>(nester.overflowCount()), static_cast<long long>(nester.clippedCount()),
                nester.maxDepth(), static_cast<long long>(found));
}

} // namespace

int main(int argc, char **argv) {
    std::vector<int64_t> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
    if (sizes.empty()) sizes = {120'000, 1'000'000};
    for (const int64_t n : sizes) {
        std::vector<SliceNester::Span> stairs, nested;
        for (int64_t i = 0; i < n; ++i) stairs.push_back({i, 2 * n});
        // Calls four deep, each level 10 ns inside its parent.
        for (int64_t i = 0; i < n; ++i) nested.push_back({(i / 4) * 1000 + (i % 4) * 10, 900 - (i % 4) * 20});
        run("staircase", stairs);
        run("well-nested", nested);
    }
    return 0;
}
