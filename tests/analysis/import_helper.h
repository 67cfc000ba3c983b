#pragma once
// Imports files into a temporary session for the analysis tests, through the same path as the CLI.

#include "app/cli/input_session.h"
#include "models/analysis/report/report_builder.h"

#include <QTemporaryDir>

#include <sstream>

namespace stepscope::test {

struct ImportedSession {
    QTemporaryDir dir;
    std::unique_ptr<SessionStore> store;

    explicit ImportedSession(const std::vector<std::filesystem::path> &inputs) {
        store = std::make_unique<SessionStore>(dir.filePath("s.stepscope").toStdString());
        std::ostringstream out, err;
        cli::importInto(*store, inputs, {out, err, false});
    }
    Report report(const ReportOptions &o = {}) const { return ReportBuilder(*store).build(o); }
};

} // namespace stepscope::test
