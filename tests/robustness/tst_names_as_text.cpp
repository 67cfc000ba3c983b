// Names from files are shown as text, never interpreted: a trace whose op, kernel, thread and file
// names carry HTML, ANSI escape sequences, BEL/BS/CR and C1 controls goes through import and the
// command line's text and markdown reports; no control character reaches the output, markdown
// cannot be injected, and import_log messages that quote such a file name are made printable.

#include "app/cli/command_line.h"
#include "models/store/session_store.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <sstream>

namespace stepscope {
namespace fs = std::filesystem;

// moc mis-reads raw strings holding braces: it only needs the class below.
#ifndef Q_MOC_RUN
namespace {

struct Result {
    int code;
    std::string out, err;
};
Result runCli(const std::vector<std::string> &args) {
    std::ostringstream out, err;
    const int code = cli::run(args, {out, err, false});
    return {code, out.str(), err.str()};
}

// First control character (C0 except '\n', DEL, UTF-8 C1) in `s`, described; empty when none.
std::string firstControl(const std::string &s) {
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        const bool c1 = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(s[i + 1]) < 0xA0;
        if ((c < 0x20 && c != '\n') || c == 0x7F || c1)
            return "byte " + std::to_string(c) + " at " + std::to_string(i) + " near: " +
                   s.substr(i >= 40 ? i - 40 : 0, 80);
    }
    return {};
}

// Names as JSON string bodies (escapes decoded by the importer).
const char *kHtml = "<b>x</b><script>alert(1)</script>";
const char *kAnsi = "\\u001b[31mRED\\u001b[0m\\u001b]0;title\\u0007";
const char *kCtl = "bell\\u0007back\\u0008cr\\rnel\\u0085del\\u007f";
const char *kMd = "pipe|tick`star*_[link](http://x)";

std::string trace() {
    std::string events;
    const std::string names[] = {kHtml, kAnsi, kCtl, kMd};
    int64_t ts = 1000;
    for (int step = 1; step <= 3; ++step) {
        events += R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" + std::to_string(step) +
                  R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts) + R"(, "dur": 900},)";
        int64_t t = ts + 10;
        for (const std::string &n : names) {
            events += R"({"ph": "X", "cat": "cpu_op", "name": ")" + n + R"(", "pid": 1, "tid": 1, "ts": )" +
                      std::to_string(t) + R"(, "dur": 50},)";
            events += R"({"ph": "X", "cat": "kernel", "name": ")" + n + R"(", "pid": 0, "tid": 7, "ts": )" +
                      std::to_string(t + 20) + R"(, "dur": 100, "args": {"device": 0, "stream": 7}},)";
            t += 200;
        }
        ts += 1000;
    }
    events += R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": ")" + std::string(kAnsi) + R"("}})";
    return R"({"traceEvents": [)" + events + "]}";
}

} // namespace
#endif

class TstNamesAsText : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string m_session;
    std::string path(const std::string &name) const { return m_dir.path().toStdString() + "/" + name; }

private slots:
    void initTestCase() {
        // The file name itself carries markup and an escape sequence; the trace ends malformed so
        // that an error message quotes the file name.
        const std::string file = path("run<i>x\x1b[2J\r.pt.trace.json");
        std::ofstream(file, std::ios::binary) << trace().substr(0, trace().size() - 2) << ", {\"ph\": \"X\" !!";
        m_session = path("s.stepscope");
        const Result r = runCli({"import", file, "-o", m_session});
        QVERIFY2(r.code == 0 || r.code == 3, (r.out + r.err).c_str());
    }

    void namesAreStoredVerbatim() {
        // Storage keeps the truth: escaping is the job of whoever displays.
        SessionStore s(m_session, SessionStore::Mode::ReadOnly);
        SqliteStatement st(s.db(), "SELECT count(*) FROM string WHERE text = '<b>x</b><script>alert(1)</script>'");
        QVERIFY(st.step());
        QCOMPARE(st.columnInt(0), int64_t(1));
    }

    void importLogIsPrintable() {
        SessionStore s(m_session, SessionStore::Mode::ReadOnly);
        SqliteStatement st(s.db(), "SELECT position, message FROM import_log");
        int rows = 0;
        while (st.step()) {
            ++rows;
            const std::string msg = st.columnText(0) + " " + st.columnText(1);
            QVERIFY2(firstControl(msg).empty(), firstControl(msg).c_str());
        }
        QVERIFY(rows > 0);
    }

    void textReportHasNoControlCharacters() {
        const Result r = runCli({"report", m_session, "--format", "text"});
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.find("x</b>") != std::string::npos || r.out.find("x&lt;/b&gt;") != std::string::npos);
        QVERIFY2(firstControl(r.out).empty(), firstControl(r.out).c_str());
    }

    void markdownReportCannotBeInjected() {
        const Result r = runCli({"report", m_session, "--format", "markdown"});
        QCOMPARE(r.code, 0);
        QVERIFY2(firstControl(r.out).empty(), firstControl(r.out).c_str());
        QVERIFY2(r.out.find("<b>") == std::string::npos && r.out.find("<i>") == std::string::npos &&
                     r.out.find("<script>") == std::string::npos,
                 r.out.c_str());
        // A name cannot add table cells: every table row has as many cells as its header.
        std::istringstream lines(r.out);
        std::string line;
        size_t cells = 0;
        bool cellsOk = true;
        while (std::getline(lines, line)) {
            if (line.empty() || line[0] != '|') {
                cells = 0;
                continue;
            }
            size_t n = 0;
            for (size_t i = 0; i < line.size(); ++i)
                if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++n;
            if (cells == 0) cells = n;
            cellsOk = cellsOk && n == cells;
        }
        QVERIFY(cellsOk);
    }
};

} // namespace stepscope

QTEST_GUILESS_MAIN(stepscope::TstNamesAsText)
#include "tst_names_as_text.moc"
