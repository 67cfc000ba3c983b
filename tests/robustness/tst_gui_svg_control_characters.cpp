// Control characters in names (slices, threads, the trace file, notes) are drawn as U+FFFD, and an
// SVG export is valid XML whatever the session holds: QSvgGenerator passes C0 controls through
// into <text>, which no XML parser accepts. Every view is exported and parsed with QXmlStreamReader.

#include "app/cli/command_line.h"
#include "models/store/session_store.h"
#include "tests/test_support.h"

#include <QFile>
#include <QXmlStreamReader>
#include <QtTest>

#include <fstream>
#include <sstream>

using namespace stepscope;

// moc mis-reads raw strings holding braces: the fixture is hidden from it.
#ifndef Q_MOC_RUN
namespace {
std::string traceJson() {
    return R"({"traceEvents": [)"
           R"({"ph": "X", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 3000},)"
           R"({"ph": "X", "name": "bad\u0001name\u001b[31m", "pid": 1, "tid": 1, "ts": 10, "dur": 2000},)"
           R"({"ph": "X", "name": "bell\u0007\uffff", "pid": 1, "tid": 1, "ts": 2100, "dur": 800},)"
           R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "thr\u0002ead"}}]})";
}
} // namespace
#else
std::string traceJson();
#endif

class TstGuiSvgControlCharacters : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_session;

    static int runCli(const std::vector<std::string> &args, std::string *err = nullptr) {
        std::ostringstream out, errs;
        const int code = cli::run(args, {out, errs, false});
        if (err) *err = out.str() + errs.str();
        return code;
    }
    // Parses the whole file; the texts of its <text> elements, or a failure naming the position.
    static QStringList svgTexts(const QString &file) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly)) return {QStringLiteral("cannot open")};
        QXmlStreamReader xml(&f);
        QStringList texts;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
                texts << xml.readElementText(QXmlStreamReader::IncludeChildElements);
        }
        if (xml.hasError())
            return {QStringLiteral("XML error at line %1: %2").arg(xml.lineNumber()).arg(xml.errorString())};
        return texts;
    }

private slots:
    void initTestCase() {
        test::isolateSettings();
        // The file name carries an escape, the names \x01, \x1b, \x07 and U+FFFF.
        const std::string trace = m_dir.filePath("run\x1b[1m.pt.trace.json").toStdString();
        std::ofstream(trace) << traceJson();
        m_session = m_dir.filePath("s.stepscope").toStdString();
        std::string err;
        QVERIFY2(runCli({"import", trace, "-o", m_session}, &err) == 0, err.c_str());
        SessionStore store(m_session);
        sqliteExec(store.db(), "INSERT INTO annotation(start_ns, end_ns, text) SELECT min(start_ns), max(start_ns), "
                               "'note' || char(3) || 'here' FROM v_slice");
    }

    void everyViewExportsValidSvg_data() {
        QTest::addColumn<QString>("view");
        for (const char *v : {"timeline", "window", "steps", "ops", "session", "log"}) QTest::newRow(v) << v;
    }

    void everyViewExportsValidSvg() {
        QFETCH(QString, view);
        const QString svg = m_dir.filePath(view + ".svg");
        std::string err;
        QVERIFY2(runCli({"export", m_session, "--view", view.toStdString(), "--annotate", "cut\x01here", "-o",
                         svg.toStdString()}, &err) == 0, err.c_str());
        const QStringList texts = svgTexts(svg);
        QVERIFY2(!texts.isEmpty() && !texts.front().startsWith("XML error"), qPrintable(texts.join('\n')));
        for (const QString &t : texts)
            for (QChar c : t) QVERIFY2(c.unicode() >= 0x20 || c == u'\t' || c == u'\n' || c == u'\r', qPrintable(t));
    }

    void timelineShowsTheReplacement() {
        const QString svg = m_dir.filePath("shown.svg");
        QCOMPARE(runCli({"export", m_session, "--view", "timeline", "-o", svg.toStdString()}), 0);
        const QString all = svgTexts(svg).join('\n');
        QVERIFY2(all.contains(QStringLiteral("bad\uFFFDname\uFFFD[31m")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("thr\uFFFDead")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("note\uFFFDhere")), qPrintable(all));
    }
};

QTEST_MAIN(TstGuiSvgControlCharacters)
#include "tst_gui_svg_control_characters.moc"
