// No view's work may grow with the magnitude of the span it shows (issue #36). A session whose trace
// and metrics lie 140 years apart, shown whole or through `--range` up to ±2^62 ns, renders every
// view at once: the linked zoom never holds a range that does not fit int64 arithmetic (a wrapped
// span had the timeline's ruler step through 1.3e19 ns one at a time: 120 s and 19 GB), and the
// ruler draws a bounded number of ticks whatever span it is given.
#include "models/qt/time_range_controller.h"
#include "models/store/ns_range.h"
#include "tests/child_process.h"
#include "tests/cli/cli_test_support.h"
#include "views/timeline/time_ruler.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

#include <csignal>
#include <fstream>

using namespace stepscope;

class TstHostileSpans : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::string path(const std::string &name) const { return m_dir.path().toStdString() + "/" + name; }

private slots:
    void zoomNeverLeavesIntegerTime() {
        TimeRangeController c;
        c.setFullRange({0, 4'419'223'200'100'000'000});  // a trace at 0 and metrics in 2110
        for (const NsRange asked : {NsRange{0, 4'600'000'000'000'000'000}, NsRange{INT64_MIN, INT64_MAX},
                                    NsRange{-4'419'223'200'100'000'000, 8'838'446'400'200'000'000},
                                    NsRange{INT64_MAX - 10, INT64_MAX}}) {
            c.setRange(asked);
            const NsRange r = c.range();
            QVERIFY2(r.valid() && r.start >= -kTimeLimitNs && r.end <= kTimeLimitNs && r.duration() <= kTimeLimitNs,
                     qPrintable(QString("%1..%2").arg(r.start).arg(r.end)));
        }
        c.zoomToFull();
        QCOMPARE(c.range(), (NsRange{0, 4'419'223'200'100'000'000}));
        // An ordinary session keeps its room of one session width on either side.
        c.setFullRange({1'000, 2'000'000});
        c.setRange({-10'000'000, 10'000'000});
        QCOMPARE(c.range(), (NsRange{1'000 - 1'999'000, 2'000'000 + 1'999'000}));
    }

    void rulerTicksAreBoundedByPixels() {
        for (const auto &[start, end] : std::vector<std::pair<int64_t, int64_t>>{
                 {0, kTimeLimitNs}, {-kTimeLimitNs, kTimeLimitNs}, {INT64_MIN, INT64_MAX}, {-4'419'223'200'100'000'000, 8'838'446'400'200'000'000},
                 {0, 1'000'000}}) {
            const auto ticks = TimeRuler::ticks(0, start, end, 1390);
            QVERIFY2(ticks.size() <= 1390 / 90 * 5 + 10, qPrintable(QString::number(ticks.size())));
            for (const auto &t : ticks) QVERIFY(t.x >= 0 && t.x <= 1390);
        }
        QVERIFY(!TimeRuler::ticks(0, 0, 1'000'000, 1390).empty());  // the guard does not drop ordinary ticks
    }

    // A session altered by hand to hold a step of negative length (or one past 2^62 ns) is refused
    // when opened, naming the step, instead of reporting 0 ms steps and a made-up bottleneck.
    void tamperedStepIsRefused() {
        const std::string trace = path("steps.json"), session = path("steps.stepscope");
        std::ofstream(trace) << R"({"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"ProfilerStep#2","cat":"user_annotation","pid":1,"tid":1,"ts":100,"dur":100}]})";
        QCOMPARE(test::runCli({"import", trace, "-o", session}).code, 0);
        auto setDuration = [&](const std::string &dur) {  // by hand, as whoever altered it did
            sqlite3 *db = nullptr;
            QCOMPARE(sqlite3_open(session.c_str(), &db), SQLITE_OK);
            QCOMPARE(sqlite3_exec(db, ("UPDATE step SET dur_ns = " + dur + " WHERE step = 2").c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
            sqlite3_close(db);
        };
        for (const char *dur : {"-100000", "4611686018427387904", "'soon'"}) {
            setDuration(dur);
            for (const std::vector<std::string> &args : {std::vector<std::string>{"report", session},
                                                         std::vector<std::string>{"query", session, "SELECT 1"}}) {
                const auto r = test::runCli(args);
                QCOMPARE(r.code, 2);
                QVERIFY2(r.err.find("step 2 starts at 100000 ns and lasts ") != std::string::npos &&
                             r.err.find("the session was altered or is damaged") != std::string::npos,
                         r.err.c_str());
            }
            setDuration("100000");
            QCOMPARE(test::runCli({"query", session, "SELECT 1"}).code, 0);
        }
    }

    // Every view, exported whole and over a range wider than the session, in a child that an alarm
    // ends if a view's work grew with the span.
    void everyViewOfACenturyRendersAtOnce() {
        const std::string trace = path("t.json"), smi = path("smi.csv"), session = path("century.stepscope");
        std::ofstream(trace) << R"({"traceEvents":[
 {"ph":"X","name":"ProfilerStep#1","cat":"user_annotation","pid":1,"tid":1,"ts":0,"dur":100},
 {"ph":"X","name":"aten::mm","cat":"cpu_op","pid":1,"tid":1,"ts":10,"dur":20,"args":{"correlation":1}},
 {"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":35,"dur":50,"args":{"device":0,"stream":7,"correlation":1}},
 {"ph":"X","name":"ProfilerStep#2","cat":"user_annotation","pid":1,"tid":1,"ts":4500000000000000,"dur":100}]})";
        std::ofstream(smi) << "timestamp, index, name, utilization.gpu [%], memory.used [MiB]\n"
                              "1971/01/15 10:00:00.000, 0, H100, 87 %, 1000 MiB\n"
                              "1971/01/15 10:00:00.100, 0, H100, 91 %, 1002 MiB\n"
                              "2110/01/15 10:00:00.100, 0, H100, 91 %, 1002 MiB\n";
        const auto imported = test::runCli({"import", trace, smi, "-o", session});
        QVERIFY2(imported.code == 0 || imported.code == 3, imported.err.c_str());
        const auto child = test::runInChild([&](int &code) {
            ::alarm(120);  // ~2 s expected for all 18 pictures; a view stepping through the span never ends
            std::string failed;
            for (const char *view : {"timeline", "steps", "ops", "findings", "utilization", "session", "log", "job", "window"})
                for (const bool ranged : {false, true}) {
                    std::vector<std::string> args{"export", session, "--view", view, "-o", path(std::string(view) + ".png")};
                    if (ranged) args.insert(args.end(), {"--range", "0:4600000000000000000"});
                    const auto r = test::runCli(args);
                    if (r.code != 0) failed += std::string(view) + (ranged ? " --range" : "") + ": " + r.err;
                }
            code = failed.empty() ? 0 : 1;
            return failed;
        });
        QVERIFY(child);
        QVERIFY2(WIFEXITED(child->status), "a view's export did not end (SIGALRM)");
        QVERIFY2(WEXITSTATUS(child->status) == 0, child->out.c_str());
    }
};

QTEST_MAIN(TstHostileSpans)
#include "tst_hostile_spans.moc"
