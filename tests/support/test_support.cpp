#include "tests/test_support.h"

#include <QSettings>
#include <QTemporaryDir>

#include <cstdlib>

namespace stepscope::test {

std::filesystem::path testData(const std::string &rel) { return std::filesystem::path(STEPSCOPE_TEST_DATA) / rel; }

std::filesystem::path samplesDir() {
    const char *env = std::getenv("STEPSCOPE_SAMPLES");
    std::filesystem::path p = env && *env ? std::filesystem::path(env)
                                          : std::filesystem::path(STEPSCOPE_SOURCE_DIR) / ".." / "shared" / "samples";
    std::error_code ec;
    return std::filesystem::is_directory(p, ec) ? p : std::filesystem::path();
}

void isolateSettings() {
    static QTemporaryDir dir;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

} // namespace stepscope::test
