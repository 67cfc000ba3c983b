#pragma once
// ReportFormatter renders a Report in the command line's three formats. The JSON shape is the
// stable contract of DESIGN.md: keys may be added, never removed.

#include "models/analysis/report/report_builder.h"

#include <string>

namespace stepscope {

class ReportFormatter {
public:
    static std::string json(const Report &report);
    static std::string text(const Report &report);
    static std::string markdown(const Report &report);
    // The job section of the text and markdown reports (report_formatter_job.cpp); empty without a job.
    static std::string jobText(const Report &report);
    static std::string jobMarkdown(const Report &report);
};

} // namespace stepscope
