// Clock alignment: duration text parsing/printing, `import --offset SOURCE=±DURATION` resolution,
// and the command-line round trip — the offset is saved in the session, printed, survives a
// re-import, and shifts v_metric (metrics) and v_slice (trace) by exactly that much.

#include "app/cli/clock_offset.h"
#include "app/cli/command_line.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/text/duration_text.h"
#include "models/store/session_store.h"
#include "tests/test_support.h"

#include <QtTest>

#include <sstream>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

struct Run {
    int code;
    std::string out, err;
};

Run runCli(const std::vector<std::string> &args) {
    std::ostringstream out, err;
    const int code = cli::run(args, {out, err, false});
    return {code, out.str(), err.str()};
}

int64_t scalar(const fs::path &session, const std::string &sql) {
    SessionStore store(session, SessionStore::Mode::ReadOnly);
    SqliteStatement st(store.db(), sql);
    return st.step() ? st.columnInt(0) : -1;
}

} // namespace

class TstClockOffset : public QObject {
    Q_OBJECT
private slots:
    void parsesDurations() {
        QCOMPARE(*DurationText::parse("+1.5s"), int64_t(1'500'000'000));
        QCOMPARE(*DurationText::parse("-250ms"), int64_t(-250'000'000));
        QCOMPARE(*DurationText::parse("3us"), int64_t(3000));
        QCOMPARE(*DurationText::parse("3µs"), int64_t(3000));
        QCOMPARE(*DurationText::parse("500ns"), int64_t(500));
        QCOMPARE(*DurationText::parse("2min"), int64_t(120'000'000'000));
        QCOMPARE(*DurationText::parse("-1h30m"), int64_t(-5'400'000'000'000));
        QCOMPARE(*DurationText::parse(" + 2 s "), int64_t(2'000'000'000));
        QCOMPARE(*DurationText::parse("0"), int64_t(0));
        std::string why;
        for (const char *bad : {"", "+", "12", "1.2.3s", "5 parsecs", "s", "--1s", "1e30h"}) {
            QVERIFY2(!DurationText::parse(bad, &why), bad);
            QVERIFY(!why.empty());
        }
        QVERIFY(!DurationText::parse("12", &why));
        QVERIFY(why.find("unit") != std::string::npos);
        QCOMPARE(DurationText::format(1'500'000'000), std::string("+1.5 s"));
        QCOMPARE(DurationText::format(-250'000'000), std::string("-250 ms"));
        QCOMPARE(DurationText::format(3000), std::string("+3 µs"));
        QCOMPARE(DurationText::format(0), std::string("0 s"));
        QCOMPARE(DurationText::format(7), std::string("+7 ns"));
        for (int64_t ns : {int64_t(1), int64_t(-999), int64_t(1'234'567), int64_t(-5'400'000'000'000), int64_t(86'400'000'000'123)})
            QCOMPARE(*DurationText::parse(DurationText::format(ns)), ns);  // round trip
    }

    void parsesAndMatchesOffsetSpecs() {
        std::string error;
        const auto spec = cli::ClockOffset::parse("nvidia-smi.csv=+1.5s", error);
        QVERIFY(spec);
        QCOMPARE(spec->source, std::string("nvidia-smi.csv"));
        QCOMPARE(spec->offsetNs, int64_t(1'500'000'000));
        QVERIFY(!cli::ClockOffset::parse("nvidia-smi.csv", error));
        QVERIFY(!cli::ClockOffset::parse("=1s", error));
        QVERIFY(!cli::ClockOffset::parse("a.csv=", error));
        QVERIFY(!cli::ClockOffset::parse("a.csv=fast", error));
        const std::vector<std::string> paths = {"/runs/a/nvidia-smi.csv", "/runs/b/nvidia-smi.csv", "/runs/a/t.json.gz"};
        QCOMPARE(cli::ClockOffset::match(paths, "t.json.gz"), std::vector<std::string>{"/runs/a/t.json.gz"});
        QCOMPARE(cli::ClockOffset::match(paths, "b/nvidia-smi.csv"), std::vector<std::string>{"/runs/b/nvidia-smi.csv"});
        QCOMPARE(cli::ClockOffset::match(paths, "/runs/a/nvidia-smi.csv"), std::vector<std::string>{"/runs/a/nvidia-smi.csv"});
        QCOMPARE(int(cli::ClockOffset::match(paths, "nvidia-smi.csv").size()), 2);  // ambiguous
        QVERIFY(cli::ClockOffset::match(paths, "smi.csv").empty());  // whole names only
    }

    void importOffsetRoundTrip() {
        QTemporaryDir dir;
        const fs::path d = dir.path().toStdString();
        synth::SyntheticProfileOptions o;
        o.steps = 8;
        synth::SyntheticProfileGenerator(o).generate(d / "run.pt.trace.json.gz", d / "nvidia-smi.csv");
        const fs::path plain = d / "plain.stepscope", shifted = d / "shifted.stepscope";
        QCOMPARE(runCli({"import", (d / "run.pt.trace.json.gz").string(), (d / "nvidia-smi.csv").string(), "-o", plain.string()}).code, 0);
        const std::string metricMin = "SELECT min(t_ns) FROM v_metric";
        const std::string sliceMin = "SELECT min(start_ns) FROM v_slice";
        const int64_t m0 = scalar(plain, metricMin), s0 = scalar(plain, sliceMin);
        QVERIFY(m0 > 0 && s0 > 0);

        const Run r = runCli({"import", (d / "run.pt.trace.json.gz").string(), (d / "nvidia-smi.csv").string(), "-o",
                           shifted.string(), "--offset", "nvidia-smi.csv=+1.5s", "--offset=run.pt.trace.json.gz=-250ms"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.find("clock offset: " + (d / "nvidia-smi.csv").string() + " +1.5 s") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("-250 ms") != std::string::npos, r.out.c_str());
        QCOMPARE(scalar(shifted, metricMin), m0 + 1'500'000'000);
        QCOMPARE(scalar(shifted, sliceMin), s0 - 250'000'000);
        QCOMPARE(scalar(shifted, "SELECT clock_offset_ns FROM source_setting WHERE path LIKE '%nvidia-smi.csv'"),
                 int64_t(1'500'000'000));

        // Re-import without --offset: the saved offsets stay.
        QCOMPARE(runCli({"import", d.string(), "-o", shifted.string()}).code, 0);
        QCOMPARE(scalar(shifted, metricMin), m0 + 1'500'000'000);
        QCOMPARE(scalar(shifted, sliceMin), s0 - 250'000'000);
        // Offsets alone, no PATH: changes an existing session.
        QCOMPARE(runCli({"import", "-o", shifted.string(), "--offset", "nvidia-smi.csv=0"}).code, 0);
        QCOMPARE(scalar(shifted, metricMin), m0);

        // Usage errors (exit 1) leave the session as it was.
        for (const char *bad : {"nvidia-smi.csv=12", "nvidia-smi.csv", "nvidia-smi.csv=+1.5 parsecs", "unknown.csv=1s"}) {
            const Run e = runCli({"import", "-o", shifted.string(), "--offset", bad});
            QCOMPARE(e.code, 1);
            QVERIFY(e.err.find("--offset") != std::string::npos);
        }
        QCOMPARE(scalar(shifted, metricMin), m0);
        QCOMPARE(scalar(shifted, sliceMin), s0 - 250'000'000);
    }
};

QTEST_MAIN(TstClockOffset)
#include "tst_clock_offset.moc"
