// `stepscope import PATH... -o S.stepscope`: builds or updates a session file and prints a summary.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"

#include <ostream>

namespace stepscope::cli {

int runImport(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"-o", "--output", "--offset"});
    const auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    if (!a.ok() || a.positional().empty() || !output) {
        io.err << "stepscope import: " << (a.ok() ? "usage: stepscope import PATH... -o S.stepscope" : a.error()) << "\n";
        return Usage;
    }
    std::vector<std::filesystem::path> inputs;
    for (const std::string &p : a.positional()) {
        std::error_code ec;
        if (!std::filesystem::exists(p, ec)) {
            io.err << "stepscope: " << p << ": no such file or folder\n";
            return Unreadable;
        }
        inputs.emplace_back(p);
    }
    try {
        SessionStore store(*output);
        ImportSummary summary;
        const int code = importInto(store, inputs, io, &summary);
        io.out << "session: " << *output << "\n";
        for (const SourceSummary &s : summary.sources) {
            const char *status = s.status == SourceStatus::Ok ? "ok" : s.status == SourceStatus::Partial ? "partial" : "failed";
            io.out << "  " << s.path << "  [" << s.format << ", " << status << "]  " << s.events << " events, "
                   << s.warnings << " warnings\n";
        }
        if (!summary.skipped.empty()) io.out << "  " << summary.skipped.size() << " file(s) skipped (see import_log)\n";
        io.out << "imported " << summary.events() << " events from " << summary.sources.size() << " source(s)\n";
        return code;
    } catch (const StoreError &e) {
        io.err << "stepscope: " << e.what() << "\n";
        return Unreadable;
    }
}

} // namespace stepscope::cli
