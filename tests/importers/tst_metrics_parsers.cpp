// Unit tests of the pure tokenizers behind the instance-metric importers (no store): text and time
// helpers, nvidia-smi header mapping, SageMaker line parsing, sadf grouping, CloudWatch names.

#include "importers/metrics/cloudwatch_names.h"
#include "importers/metrics/metric_text.h"
#include "importers/metrics/nvidia_smi_csv_parser.h"
#include "importers/metrics/sadf_parser.h"
#include "importers/metrics/smdebug_system_parser.h"
#include "tests/test_support.h"

#include <QtTest>

#include <ctime>

using namespace stepscope::metrics;

class TstMetricsParsers : public QObject {
    Q_OBJECT
private slots:
    void init() {
        qputenv("TZ", "UTC");
        tzset();
    }
    void cleanupTestCase() {
        qputenv("TZ", "UTC");
        tzset();
    }

    void numbersAndMissing() {
        QCOMPARE(parseNumber(" 12.5 ").value(), 12.5);
        QCOMPARE(parseNumber("+3").value(), 3.0);
        QCOMPARE(parseNumber("-1e3").value(), -1000.0);
        QVERIFY(!parseNumber("nan"));
        QVERIFY(!parseNumber("inf"));
        QVERIFY(!parseNumber("12 %"));
        QVERIFY(!parseNumber(""));
        std::string unit;
        QCOMPARE(parseNumberWithUnit("1234 MiB", &unit).value(), 1234.0);
        QCOMPARE(QString::fromStdString(unit), QString("MiB"));
        for (const char *m : {"N/A", "[N/A]", "[Not Supported]", "-", "", " n/a "}) QVERIFY2(isMissing(m), m);
        QVERIFY(!isMissing("0"));
    }

    void secondsWithoutRounding() {
        QCOMPARE(secondsToNs("1591748109.2321954").value(), int64_t(1591748109232195400));
        QCOMPARE(secondsToNs("1600000000").value(), int64_t(1600000000000000000));
        QCOMPARE(secondsToNs("1.0000000005").value(), int64_t(1000000001));
        QCOMPARE(secondsToNs("1.6e9").value(), int64_t(1600000000000000000));
        QVERIFY(!secondsToNs("abc"));
    }

    void csvSplitting() {
        std::vector<std::string> f;
        splitCsv("a, \"b, c\" ,\"d \"\"q\"\"\",,e", ',', f);
        QCOMPARE(f.size(), size_t(5));
        QCOMPARE(QString::fromStdString(f[1]), QString("b, c"));
        QCOMPARE(QString::fromStdString(f[2]), QString("d \"q\""));
        QVERIFY(f[3].empty());
    }

    void civilTimes() {
        CivilTimeConverter conv;
        auto t = parseCivilTime("2026-01-15T10:00:00.5Z");
        QVERIFY(t);
        QCOMPARE(conv.toEpochNs(*t), int64_t(1768471200500000000));
        QCOMPARE(conv.toEpochNs(*parseCivilTime("2026-01-15T12:00:00+02:00")), int64_t(1768471200000000000));
        QCOMPARE(conv.toEpochNs(*parseCivilTime("2026-01-15 05:00:00-0500")), int64_t(1768471200000000000));
        QCOMPARE(conv.toEpochNs(*parseCivilTime("2019-04-18 13:20:19 UTC")), int64_t(1555593619000000000));
        QCOMPARE(conv.toEpochNs(*parseCivilTime("2024/03/15 13:57:59.791")), int64_t(1710511079791000000));
        QVERIFY(!parseCivilTime("2024-13-01 00:00:00"));
        QVERIFY(!parseCivilTime("2024-01-01 00:00:00 junk"));
        QVERIFY(!parseCivilTime("1700000000"));
    }

    void localTimeFollowsTz() {
        if (!QFile::exists("/usr/share/zoneinfo/Europe/Berlin")) QSKIP("no tzdata");
        qputenv("TZ", "Europe/Berlin");
        tzset();
        CivilTimeConverter conv;
        // Winter (UTC+1) and summer (UTC+2) times, zone-less as nvidia-smi writes them.
        QCOMPARE(conv.toEpochNs(*parseCivilTime("2024/01/15 13:00:00.000")), int64_t(1705320000000000000));
        QCOMPARE(conv.toEpochNs(*parseCivilTime("2024/07/15 13:00:00.250")), int64_t(1721041200250000000));
    }

    void epochUnits() {
        QCOMPARE(guessEpochUnit(1.7e9), EpochUnit::Seconds);
        QCOMPARE(guessEpochUnit(1.7e12), EpochUnit::Millis);
        QCOMPARE(guessEpochUnit(1.7e15), EpochUnit::Micros);
        QCOMPARE(guessEpochUnit(1.7e18), EpochUnit::Nanos);
        QCOMPARE(epochToNs("1700000000123", EpochUnit::Millis).value(), int64_t(1700000000123000000));
        QCOMPARE(epochToNs("1700000000123456", EpochUnit::Micros).value(), int64_t(1700000000123456000));
        QCOMPARE(epochToNs("1700000000123456789", EpochUnit::Nanos).value(), int64_t(1700000000123456789));
    }

    void spacingMedian() {
        SpacingTracker s;
        for (int64_t t : {0, 100, 200, 1000, 1100, 1100, 1200}) s.add(t);
        QCOMPARE(s.median(), int64_t(100));
        QCOMPARE(SpacingTracker().median(), int64_t(0));
    }

    void nvidiaSmiHeader() {
        NvidiaSmiCsvParser p;
        QVERIFY(!p.parseHeader("index, name"));
        QVERIFY(p.parseHeader("timestamp, index, utilization.gpu [%], memory.used [MiB], clocks.sm [MHz], temperature.gpu"));
        const auto &c = p.columns();
        QCOMPARE(QString::fromStdString(c[2].series), QString("gpu_util"));
        QCOMPARE(QString::fromStdString(c[3].series + " " + c[3].unit), QString("gpu_mem_used B"));
        QCOMPARE(c[3].scale, 1048576.0);
        QCOMPARE(QString::fromStdString(c[4].series + " " + c[4].unit), QString("clocks.sm MHz"));
        QCOMPARE(QString::fromStdString(c[5].unit), QString("C"));
        NvidiaSmiCsvParser::Row row;
        std::string error;
        std::vector<std::string> problems;
        QVERIFY(p.parseRow("2024/03/15 13:57:59.791, 2, 87 %, [N/A], 1410 MHz, 35", row, error, problems));
        QCOMPARE(row.device, int64_t(2));
        QCOMPARE(row.values[2].value(), 87.0);
        QVERIFY(!row.values[3]);
        QVERIFY(!p.parseRow("2024/03/15 13:57:59.791, 2, 87 %", row, error, problems));
        QVERIFY(!p.parseRow("yesterday, 2, 87 %, 1 MiB, 1 MHz, 3", row, error, problems));
        QVERIFY(QString::fromStdString(error).contains("timestamp"));
    }

    void smdebugLines() {
        SmdebugRecord rec;
        std::string error;
        QVERIFY(SmdebugSystemParser::parse(
            "{\"Type\": \"gpu\", \"Name\":\"gpu3\", \"Dimension\": \"GPUUtilization\", \"Value\":8.00,\"NodeId\":\"algo-2\",\"Timestamp\":1591160899.75, \"Extra\": {\"a\": [1, \"}\"]}}",
            rec, error));
        auto s = SmdebugSystemParser::map(rec);
        QCOMPARE(QString::fromStdString(s.series), QString("gpu_util"));
        QCOMPARE(s.device.value(), int64_t(3));
        QCOMPARE(rec.tNs, int64_t(1591160899750000000));
        QCOMPARE(QString::fromStdString(rec.nodeId), QString("algo-2"));
        QVERIFY(!SmdebugSystemParser::parse("{\"Type\": \"gpu\", \"Value\":1,\"Timestamp\":1", rec, error));
        QVERIFY(!SmdebugSystemParser::parse("{\"Type\": \"gpu\", \"Value\":1}", rec, error));
        QVERIFY(QString::fromStdString(error).contains("Timestamp"));
        QVERIFY(!SmdebugSystemParser::parse("{\"Value\":\"x\",\"Timestamp\":1}", rec, error));
        QVERIFY(!SmdebugSystemParser::parse("", rec, error));
        QVERIFY(!SmdebugSystemParser::parse("{\"Value\":1,\"Timestamp\":1} trailing", rec, error));
    }

    void sadfGroups() {
        SadfParser p;
        std::vector<SadfSample> out;
        std::string msg;
        QCOMPARE(p.parseLine("# hostname;interval;timestamp;DEV;tps;rkB/s;wkB/s", out, msg), SadfParser::Result::Ignored);
        QCOMPARE(p.parseLine("h;1;2020-01-01 00:00:00 UTC;nvme0n1;1;1.00;2.00", out, msg), SadfParser::Result::Ok);
        QCOMPARE(p.parseLine("h;1;2020-01-01 00:00:00 UTC;nvme0n1p1;1;1.00;2.00", out, msg), SadfParser::Result::Ok);
        QCOMPARE(p.parseLine("h;1;2020-01-01 00:00:00 UTC;loop0;1;5.00;5.00", out, msg), SadfParser::Result::Ok);
        QVERIFY(out.empty());  // group still open
        QCOMPARE(p.parseLine("h;1;2020-01-01 00:00:01 UTC;nvme0n1;1;3.00;4.00", out, msg), SadfParser::Result::Ok);
        QCOMPARE(out.size(), size_t(2));
        QCOMPARE(out[0].value, 1024.0);
        QCOMPARE(out[1].value, 2048.0);
        p.finish(out);
        QCOMPARE(out.size(), size_t(4));
        QCOMPARE(out[2].value, 3072.0);
        QCOMPARE(p.parseLine("h;1;bad time;sda;1;1;1", out, msg), SadfParser::Result::Bad);
        // sadf -U writes epoch seconds.
        out.clear();
        p.parseLine("# hostname;interval;timestamp;kbmemfree;kbmemused", out, msg);
        QCOMPARE(p.parseLine("h;1;1555593619;10;20", out, msg), SadfParser::Result::Ok);
        QCOMPARE(out.back().tNs, int64_t(1555593619000000000));
        QCOMPARE(out.back().value, 20480.0);
    }

    void cloudWatchNames() {
        auto m = matchCloudWatchMetric("NetworkIn (i-0abc)");
        QVERIFY(m);
        QCOMPARE(QString::fromStdString(m->series), QString("net_in"));
        QCOMPARE(QString::fromStdString(m->qualifier), QString("i-0abc"));
        QVERIFY(m->perPeriod);
        QVERIFY(!matchCloudWatchMetric("NetworkInPackets"));
        QCOMPARE(QString::fromStdString(matchCloudWatchMetric("GPUMemoryUtilization")->series), QString("gpu_mem_util"));
        QCOMPARE(QString::fromStdString(matchCloudWatchMetric("i-1 CPUUtilization")->qualifier), QString("i-1"));
        QVERIFY(!matchCloudWatchMetric("loss"));
    }
};

QTEST_GUILESS_MAIN(TstMetricsParsers)
#include "tst_metrics_parsers.moc"
