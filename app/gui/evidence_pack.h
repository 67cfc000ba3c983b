#pragma once
// EvidencePack writes the pictures of `stepscope report --screenshots DIR`: for every finding of the
// report, one PNG of the window zoomed to the finding's evidence, with the finding's title drawn as a
// transient note over its evidence steps (or range), through FigureRenderer — the same path as
// `stepscope export`. It returns the markdown (or text) section that links the pictures, relative to
// where the report is written. Called by the report command; needs a QApplication.

#include "models/analysis/report/report_builder.h"

#include <filesystem>
#include <string>
#include <vector>

namespace stepscope::gui {

struct EvidenceShot {
    std::string run, rule, severity, title;
    std::filesystem::path file;  // absolute
};

class EvidencePack {
public:
    // Renders the pictures into `dir` (created); `error` names the file and reason on failure.
    static std::vector<EvidenceShot> write(const std::filesystem::path &sessionFile, const Report &report,
                                           const std::filesystem::path &dir, std::string *error);
    // The section appended to the report: links relative to `reportDir` (markdown: images; text: paths).
    static std::string markdown(const std::vector<EvidenceShot> &shots, const std::filesystem::path &reportDir);
    static std::string text(const std::vector<EvidenceShot> &shots, const std::filesystem::path &reportDir);
    // "03-run-rule.png": a safe file name.
    static std::string fileName(int index, const std::string &run, const std::string &rule);
};

} // namespace stepscope::gui
