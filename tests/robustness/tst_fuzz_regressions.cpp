// Replays every input the fuzzers ever crashed on (tests/fuzz/regressions/<target>/) and every seed
// (tests/fuzz/seeds/<target>/) through the same code as the libFuzzer targets, in the normal build
// and under the asan preset, so a fixed crash stays fixed without clang or libFuzzer. The fuzz
// target sources are compiled in here with STEPSCOPE_FUZZ_REPLAY (no LLVMFuzzerTestOneInput).

#define STEPSCOPE_FUZZ_REPLAY 1
#include "tests/fuzz/fuzz_byte_source.cpp"
#include "tests/fuzz/fuzz_chrome_import.cpp"
#include "tests/fuzz/fuzz_chrome_tokenizer.cpp"
#include "tests/fuzz/fuzz_csv_metric.cpp"
#include "tests/fuzz/fuzz_dcgmi_dmon.cpp"
#include "tests/fuzz/fuzz_metrics_import.cpp"
#include "tests/fuzz/fuzz_nvidia_smi_csv.cpp"
#include "tests/fuzz/fuzz_nvidia_smi_dmon.cpp"
#include "tests/fuzz/fuzz_sadf.cpp"
#include "tests/fuzz/fuzz_smdebug_system.cpp"
#include "tests/fuzz/fuzz_tfevents_import.cpp"
#include "tests/fuzz/fuzz_xplane_import.cpp"
#include "tests/fuzz/fuzz_session_file.cpp"
#include "tests/fuzz/fuzz_command_line.cpp"

#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <map>

namespace stepscope {
namespace fs = std::filesystem;

namespace {
using FuzzFn = void (*)(const uint8_t *, size_t);
const std::map<std::string, FuzzFn> &targets() {
    static const std::map<std::string, FuzzFn> t = {
        {"byte_source", fuzz::byte_source::run},         {"chrome_import", fuzz::chrome_import::run},
        {"chrome_tokenizer", fuzz::chrome_tokenizer::run}, {"csv_metric", fuzz::csv_metric::run},
        {"dcgmi_dmon", fuzz::dcgmi_dmon::run},           {"metrics_import", fuzz::metrics_import::run},
        {"nvidia_smi_csv", fuzz::nvidia_smi_csv::run},   {"nvidia_smi_dmon", fuzz::nvidia_smi_dmon::run},
        {"sadf", fuzz::sadf::run},                       {"smdebug_system", fuzz::smdebug_system::run},
        {"tfevents_import", fuzz::tfevents_import::run}, {"xplane_import", fuzz::xplane_import::run},
        {"session_file", fuzz::session_file::run},       {"command_line", fuzz::command_line::run},
    };
    return t;
}
const fs::path kFuzzDir = fs::path(STEPSCOPE_SOURCE_DIR) / "tests" / "fuzz";
} // namespace

class TstFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void everyCorpusFolderHasATarget() {
        for (const char *kind : {"regressions", "seeds"}) {
            if (!fs::is_directory(kFuzzDir / kind)) continue;
            for (const auto &d : fs::directory_iterator(kFuzzDir / kind))
                QVERIFY2(targets().count(d.path().filename().string()), d.path().c_str());
        }
    }

    void replay_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("file");
        for (const char *kind : {"regressions", "seeds"})
            for (const auto &[name, fn] : targets()) {
                const fs::path dir = kFuzzDir / kind / name;
                if (!fs::is_directory(dir)) continue;
                for (const auto &f : fs::directory_iterator(dir))
                    QTest::newRow((std::string(kind) + "/" + name + "/" + f.path().filename().string()).c_str())
                        << QString::fromStdString(name) << QString::fromStdString(f.path().string());
            }
    }
    void replay() {
        QFETCH(QString, target);
        QFETCH(QString, file);
        std::ifstream in(file.toStdString(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        targets().at(target.toStdString())(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    }

    // What each fix guarantees beyond "no crash" (the inputs above are the fuzzers' findings).
    void negativeTimeWithClampedDurIsImported() {  // UB: INT64_MAX - ts overflowed for ts < 0
        const std::string json = R"([{"ph": "X", "name": "neg", "pid": 1, "tid": 2, "ts": -5, "dur": -1}])";
        const auto file = fuzz::writeScratch("neg.json", reinterpret_cast<const uint8_t *>(json.data()), json.size());
        fuzz::withImportContext(file.string(), [&](ImportContext &ctx) {
            const ImportResult r = ChromeTraceImporter().import(file, ctx);
            QCOMPARE(int(r.status), int(SourceStatus::Ok));
            SqliteStatement st(ctx.writer().store().db(), "SELECT start_ns, dur_ns FROM v_slice");
            QVERIFY(st.step());
            QCOMPARE(st.columnInt(0), int64_t(-5000));
            QCOMPARE(st.columnInt(1), int64_t(0));
        });
    }
    void namelessFirstSliceIsImported() {  // threw "NOT NULL constraint failed: string.text"
        const std::string json = R"([{"ph": "B", "pid": 1, "tid": 1, "ts": 0}, {"ph": "E", "pid": 1, "tid": 1, "ts": 1}])";
        const auto file = fuzz::writeScratch("nameless.json", reinterpret_cast<const uint8_t *>(json.data()), json.size());
        fuzz::withImportContext(file.string(), [&](ImportContext &ctx) {
            const ImportResult r = ChromeTraceImporter().import(file, ctx);
            QCOMPARE(int(r.status), int(SourceStatus::Ok));
            SqliteStatement st(ctx.writer().store().db(), "SELECT name, dur_ns FROM v_slice");
            QVERIFY(st.step());
            QCOMPARE(st.columnText(0), std::string());
            QCOMPARE(st.columnInt(1), int64_t(1000));
        });
    }
    void timesOutsideTheNanosecondRangeAreRejected() {  // UB: secs * 1e9 overflowed
        QVERIFY(!metrics::secondsToNs("99999999999"));
        QVERIFY(!metrics::secondsToNs("9223372036.5"));
        QCOMPARE(*metrics::secondsToNs("9223372035.5"), int64_t(9223372035500000000));
        QVERIFY(!metrics::parseCivilTime("1011/01/11 00:06:01.255"));
        QVERIFY(!metrics::parseCivilTime("9999-12-31T23:59:59Z"));
        QVERIFY(metrics::parseCivilTime("2026-01-15T10:00:00Z"));
        metrics::SmdebugRecord rec;
        std::string error;
        QVERIFY(!metrics::SmdebugSystemParser::parse(
            R"({"Type":"cpu","Name":"cpu0","Dimension":"CPUUtilization","Value":4.76,"NodeId":"a","Timestamp":15911606994.5})", rec, error));
        QVERIFY(!error.empty());
    }
    void sadfEpochSecondsOutsideTheRangeAreBadRows() {  // UB: sadf -U seconds * 1e9 overflowed
        metrics::SadfParser parser;
        std::vector<metrics::SadfSample> out;
        std::string message;
        QCOMPARE(int(parser.parseLine("# hostname;interval;timestamp;kbmemfree;kbavail;kbmemused;%memused", out, message)),
                 int(metrics::SadfParser::Result::Ignored));
        QCOMPARE(int(parser.parseLine("node0;10;20194389516;1;2;3;4", out, message)), int(metrics::SadfParser::Result::Bad));
        QVERIFY(message.find("timestamp") != std::string::npos);
        QCOMPARE(int(parser.parseLine("node0;10;1555593619;1;2;3;4", out, message)), int(metrics::SadfParser::Result::Ok));
        QCOMPARE(out.size(), size_t(1));
        QCOMPARE(out[0].tNs, int64_t(1555593619) * 1000000000);
    }
};

} // namespace stepscope

QTEST_GUILESS_MAIN(stepscope::TstFuzzRegressions)
#include "tst_fuzz_regressions.moc"
