#include "app/cli/output_file.h"

#include "models/text/printable_text.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace stepscope::cli {

namespace fs = std::filesystem;

std::string systemReason(int errnoValue) { return std::strerror(errnoValue); }

std::string OutputFile::refuseIfInput(const std::string &output, const std::vector<std::string> &inputs) {
    std::error_code ec;
    if (!fs::exists(output, ec)) return {};  // a new file cannot be an input
    for (const std::string &in : inputs) {
        std::error_code e;
        if (fs::equivalent(output, in, e))
            return printableText(output) + " is one of the inputs (" + printableText(in) +
                   "); refusing to overwrite it — choose another output file";
    }
    return {};
}

bool OutputFile::write(const std::string &path, const std::string &text, std::string &error) {
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f) {
        error = "cannot write " + printableText(path) + ": " + systemReason(errno);
        return false;
    }
    const size_t written = text.empty() ? 0 : std::fwrite(text.data(), 1, text.size(), f);
    int err = written == text.size() ? 0 : errno;
    if (std::fflush(f) != 0 && !err) err = errno;
    if (std::fclose(f) != 0 && !err) err = errno;
    if (err) {
        error = "cannot write " + printableText(path) + ": " + systemReason(err);
        return false;
    }
    return true;
}

} // namespace stepscope::cli
