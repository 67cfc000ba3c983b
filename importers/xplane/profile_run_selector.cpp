#include "importers/xplane/profile_run_selector.h"

#include <algorithm>
#include <map>
#include <set>

namespace stepscope {

namespace fs = std::filesystem;

std::optional<std::string> ProfileRunSelector::runOf(const fs::path &file) {
    const fs::path run = file.parent_path();
    const fs::path profile = run.parent_path();
    if (run.empty() || profile.filename() != "profile" || profile.parent_path().filename() != "plugins")
        return std::nullopt;
    return run.filename().string();
}

bool ProfileRunSelector::isTimestampName(std::string_view run) {
    if (run.size() != 19)
        return false;
    for (size_t i = 0; i < run.size(); ++i) {
        const bool sep = i == 4 || i == 7 || i == 10 || i == 13 || i == 16;
        if (sep ? run[i] != '_' : (run[i] < '0' || run[i] > '9'))
            return false;
    }
    return true;
}

ProfileRunChoice ProfileRunSelector::choose(const std::vector<fs::path> &files, std::string_view wanted) {
    struct CaptureRun {
        fs::file_time_type newest = fs::file_time_type::min();
    };
    // plugins/profile folder → run name → newest file time
    std::map<fs::path, std::map<std::string, CaptureRun>> folders;
    std::set<std::string> names;
    for (const fs::path &f : files) {
        const auto run = runOf(f);
        if (!run)
            continue;
        std::error_code ec;
        const auto t = fs::last_write_time(f, ec);
        CaptureRun &info = folders[f.parent_path().parent_path()][*run];
        if (!ec)
            info.newest = std::max(info.newest, t);
        names.insert(*run);
    }
    ProfileRunChoice out;
    out.runs.assign(names.begin(), names.end());
    const bool all = wanted == "all";
    if (!wanted.empty() && !all && !names.count(std::string(wanted))) {
        out.error = "no profile run named \"" + std::string(wanted) + "\"";
        return out;
    }
    std::set<std::pair<fs::path, std::string>> keep;
    for (const auto &[folder, runs] : folders) {
        if (all) {
            for (const auto &[name, info] : runs)
                keep.emplace(folder, name);
            continue;
        }
        if (!wanted.empty()) {
            if (runs.count(std::string(wanted)))
                keep.emplace(folder, std::string(wanted));
            continue;
        }
        const bool byName = std::all_of(runs.begin(), runs.end(), [](const auto &r) { return isTimestampName(r.first); });
        auto best = runs.begin();
        for (auto it = runs.begin(); it != runs.end(); ++it) {
            const bool newer = byName ? it->first > best->first
                                      : (it->second.newest > best->second.newest ||
                                         (it->second.newest == best->second.newest && it->first > best->first));
            if (newer)
                best = it;
        }
        keep.emplace(folder, best->first);
    }
    std::set<std::string> chosen;
    for (const auto &k : keep)
        chosen.insert(k.second);
    out.chosen.assign(chosen.begin(), chosen.end());
    for (size_t i = 0; i < files.size(); ++i) {
        const auto run = runOf(files[i]);
        if (run && !keep.count({files[i].parent_path().parent_path(), *run}))
            out.dropped.push_back(i);
    }
    return out;
}

} // namespace stepscope
