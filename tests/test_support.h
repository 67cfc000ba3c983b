#pragma once
// Helpers shared by the tests: where fixtures and samples live, temporary session files. Compiled
// once into the stepscope_test_support library (tests/support/), which every test program links.

#include <QDir>
#include <QSettings>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtTest>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace stepscope::test {

// tests/data/<rel>.
std::filesystem::path testData(const std::string &rel);

// The bundled demo logdir the build generates (build/demo), its files relative to it, and a copy
// of it in `to` (a logdir of its own: a new import wherever it is opened).
QString demoDir();
extern const QStringList kDemoFiles;  // the nvidia-smi log first, then the trace
bool copyDemo(const QString &to);

// ../shared/samples (or $STEPSCOPE_SAMPLES); empty when absent so tests can QSKIP.
std::filesystem::path samplesDir();

// GUI tests run in parallel: each process gets its own settings folder, never the user's.
void isolateSettings();

#define STEPSCOPE_REQUIRE_SAMPLES(var)                                                             \
    const auto var = ::stepscope::test::samplesDir();                                              \
    if (var.empty())                                                                               \
        QSKIP("shared samples folder absent (set STEPSCOPE_SAMPLES or -DSTEPSCOPE_SAMPLES_DIR)");

} // namespace stepscope::test
