// The Debian package as a user installs it: CPack builds the .deb from this build tree, it is
// unpacked into a scratch root (dpkg-deb -x, nothing touches the machine's own /usr), and what it
// installs is checked with the tools the desktop uses: desktop-file-validate for the menu entry,
// xmllint for the MIME type, and the installed program itself answering --version.

#include "tests/test_support.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QXmlStreamReader>

namespace {

struct Run {
    int code = -1;
    QString out;  // stdout and stderr together
};

Run run(const QString &program, const QStringList &args, int timeoutMs = 240000) {
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return {-1, QStringLiteral("%1 did not finish in %2 s").arg(program).arg(timeoutMs / 1000)};
    }
    const QString out = QString::fromLocal8Bit(p.readAll());
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, out};
}

QString requireTool(const char *name) {
    return QStandardPaths::findExecutable(QString::fromLatin1(name));
}

} // namespace

class TestPackage : public QObject {
    Q_OBJECT
    QTemporaryDir scratch_;
    QString root_;  // where the package was unpacked
    QString deb_;

private slots:
    void initTestCase() {
        for (const char *tool : {"dpkg-deb", "desktop-file-validate", "xmllint"})
            if (requireTool(tool).isEmpty())
                QSKIP(qPrintable(QStringLiteral("%1 not installed (scripts/setup installs it)").arg(QLatin1String(tool))));
        QVERIFY(scratch_.isValid());
        const QString config = QStringLiteral(STEPSCOPE_BINARY_DIR "/CPackConfig.cmake");
        QVERIFY2(QFile::exists(config), qPrintable(config));
        const QString out = scratch_.filePath(QStringLiteral("cpack"));
        const Run cpack = run(QStringLiteral(STEPSCOPE_CPACK), {QStringLiteral("-G"), QStringLiteral("DEB"),
                                                                QStringLiteral("--config"), config, QStringLiteral("-B"), out});
        QVERIFY2(cpack.code == 0, qPrintable(cpack.out));
        QDirIterator it(out, {QStringLiteral("stepscope_*.deb")}, QDir::Files);
        QVERIFY2(it.hasNext(), qPrintable(QStringLiteral("no .deb in %1:\n%2").arg(out, cpack.out)));
        deb_ = it.next();
        root_ = scratch_.filePath(QStringLiteral("root"));
        const Run unpack = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-x"), deb_, root_});
        QVERIFY2(unpack.code == 0, qPrintable(unpack.out));
    }

    void controlFieldsNameTheProgramAndItsLibraries() {
        const Run info = run(QStringLiteral("dpkg-deb"), {QStringLiteral("-f"), deb_, QStringLiteral("Package"),
                                                          QStringLiteral("Version"), QStringLiteral("Depends")});
        QCOMPARE(info.code, 0);
        QVERIFY2(info.out.contains(QStringLiteral("Package: stepscope")), qPrintable(info.out));
        QVERIFY2(info.out.contains(QStringLiteral("Version: " STEPSCOPE_EXPECTED_VERSION)), qPrintable(info.out));
        for (const char *lib : {"libqt6widgets6", "libsqlite3-0", "libprotobuf32", "libqcustomplot2.1-qt6"})
            QVERIFY2(info.out.contains(QLatin1String(lib)), qPrintable(info.out));
    }

    void installedProgramAnswersVersion() {
        const QString bin = root_ + QStringLiteral("/usr/bin/stepscope");
        QVERIFY2(QFileInfo(bin).isExecutable(), qPrintable(bin));
        const Run version = run(bin, {QStringLiteral("--version")}, 60000);
        QVERIFY2(version.code == 0, qPrintable(version.out));
        QCOMPARE(version.out.trimmed(), QStringLiteral("stepscope " STEPSCOPE_EXPECTED_VERSION));
    }

    void desktopEntryIsValid() {
        const QString entry = root_ + QStringLiteral("/usr/share/applications/stepscope.desktop");
        QVERIFY2(QFile::exists(entry), qPrintable(entry));
        const Run check = run(QStringLiteral("desktop-file-validate"), {entry});
        // desktop-file-validate exits 0 with hints; errors and warnings fail it here too.
        QVERIFY2(check.code == 0 && !check.out.contains(QStringLiteral("error:")) &&
                     !check.out.contains(QStringLiteral("warning:")),
                 qPrintable(check.out));
        QFile f(entry);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains(QStringLiteral("Exec=stepscope %F")));
        QVERIFY(text.contains(QStringLiteral("MimeType=application/x-stepscope;")));
        QVERIFY(QFile::exists(root_ + QStringLiteral("/usr/share/icons/hicolor/scalable/apps/stepscope.svg")));
        QVERIFY(QFile::exists(root_ + QStringLiteral("/usr/share/icons/hicolor/scalable/mimetypes/application-x-stepscope.svg")));
    }

    void mimeTypeIsWellFormedAndClaimsSessions() {
        const QString mime = root_ + QStringLiteral("/usr/share/mime/packages/stepscope.xml");
        QVERIFY2(QFile::exists(mime), qPrintable(mime));
        const Run lint = run(QStringLiteral("xmllint"), {QStringLiteral("--noout"), mime});
        QVERIFY2(lint.code == 0 && lint.out.trimmed().isEmpty(), qPrintable(lint.out));
        QFile f(mime);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QXmlStreamReader xml(&f);
        QString type, glob;
        while (!xml.atEnd()) {
            if (xml.readNext() != QXmlStreamReader::StartElement) continue;
            if (xml.name() == QLatin1String("mime-type")) type = xml.attributes().value(QLatin1String("type")).toString();
            if (xml.name() == QLatin1String("glob")) glob = xml.attributes().value(QLatin1String("pattern")).toString();
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(type, QStringLiteral("application/x-stepscope"));
        QCOMPARE(glob, QStringLiteral("*.stepscope"));
    }
};

QTEST_GUILESS_MAIN(TestPackage)
#include "tst_package.moc"
