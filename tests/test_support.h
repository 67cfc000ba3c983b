#pragma once
// Helpers shared by the tests: where fixtures and samples live, temporary session files. Compiled
// once into the stepscope_test_support library (tests/support/), which every test program links.

#include <QDir>
#include <QSettings>
#include <QString>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace stepscope::test {

// tests/data/<rel>.
std::filesystem::path testData(const std::string &rel);

// ../shared/samples (or $STEPSCOPE_SAMPLES); empty when absent so tests can QSKIP.
std::filesystem::path samplesDir();

// GUI tests run in parallel: each process gets its own settings folder, never the user's.
void isolateSettings();

#define STEPSCOPE_REQUIRE_SAMPLES(var)                                                             \
    const auto var = ::stepscope::test::samplesDir();                                              \
    if (var.empty())                                                                               \
        QSKIP("shared samples folder absent (set STEPSCOPE_SAMPLES or -DSTEPSCOPE_SAMPLES_DIR)");

} // namespace stepscope::test
