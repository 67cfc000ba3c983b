#pragma once
// ProfileRunSelector decides which profile runs of a TensorBoard logdir are imported. The profiler
// writes one folder per capture, `<logdir>/plugins/profile/<run>/` (run = capture time such as
// 2020_08_05_13_37_44, one `<host>.xplane.pb` per host inside), and a logdir often holds several.
// Default: the newest run of each `plugins/profile` folder (by name when every run is named by its
// time stamp, else by the newest file modification time, then by name); a wanted name picks that run
// instead; "all" keeps every run. Files outside `plugins/profile/<run>/` are never dropped.
//
// Hook for the scanner / CLI (issue 4, `--run NAME`): after LogdirScanner::scan(), pass the scanned
// paths to choose(), drop the indices in `dropped` (log them as skipped: "older profile run"), and
// report `error` (a wanted run that does not exist, listing `runs`) as a usage error. Pure: reads
// only modification times; no store access.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

struct ProfileRunChoice {
    std::vector<std::string> runs;    // every run found, sorted by name
    std::vector<std::string> chosen;  // the runs kept
    std::vector<size_t> dropped;      // indices into the input of files of runs not kept
    std::string error;                // non-empty when `wanted` names no run
};

class ProfileRunSelector {
public:
    // The <run> of a file under .../plugins/profile/<run>/, else nullopt.
    static std::optional<std::string> runOf(const std::filesystem::path &file);
    // wanted: empty = newest, "all" = every run, otherwise a run name.
    static ProfileRunChoice choose(const std::vector<std::filesystem::path> &files, std::string_view wanted = {});
    // Names like 2020_08_05_13_37_44 (what the profiler writes) sort by time.
    static bool isTimestampName(std::string_view run);
};

} // namespace stepscope
