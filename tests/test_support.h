#pragma once
// Helpers shared by the tests: where fixtures and samples live, temporary session files.

#include <QDir>
#include <QSettings>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace stepscope::test {

inline std::filesystem::path testData(const std::string &rel) {
    return std::filesystem::path(STEPSCOPE_TEST_DATA) / rel;
}

// ../shared/samples (or $STEPSCOPE_SAMPLES); empty when absent so tests can QSKIP.
inline std::filesystem::path samplesDir() {
    const char *env = std::getenv("STEPSCOPE_SAMPLES");
    std::filesystem::path p = env && *env ? std::filesystem::path(env)
                                          : std::filesystem::path(STEPSCOPE_SOURCE_DIR) / ".." / "shared" / "samples";
    std::error_code ec;
    return std::filesystem::is_directory(p, ec) ? p : std::filesystem::path();
}

// GUI tests run in parallel: each process gets its own settings folder, never the user's.
inline void isolateSettings() {
    static QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

#define STEPSCOPE_REQUIRE_SAMPLES(var)                                                             \
    const auto var = ::stepscope::test::samplesDir();                                              \
    if (var.empty())                                                                               \
        QSKIP("shared samples folder absent (set STEPSCOPE_SAMPLES or -DSTEPSCOPE_SAMPLES_DIR)");

} // namespace stepscope::test
