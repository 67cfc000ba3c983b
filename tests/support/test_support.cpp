#include "tests/test_support.h"

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

#include <cstdlib>

namespace stepscope::test {

std::filesystem::path testData(const std::string &rel) { return std::filesystem::path(STEPSCOPE_TEST_DATA) / rel; }

QString demoDir() { return QStringLiteral(STEPSCOPE_BINARY_DIR "/demo"); }

const QStringList kDemoFiles = {"/nvidia-smi.csv", "/plugins/profile/demo/demo.pt.trace.json.gz"};

bool copyDemo(const QString &to) {
    if (!QDir().mkpath(to + "/plugins/profile/demo")) return false;
    for (const QString &rel : kDemoFiles)
        if (!QFile::copy(demoDir() + rel, to + rel)) return false;
    return true;
}

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
