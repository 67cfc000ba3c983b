// Tests of the synthetic profile generator: determinism, the Kineto trace's structural invariants
// (steps, launch/kernel correlation, stream ordering, ac2g flows), the timing shape each bottleneck
// promises, the nvidia-smi CSV, sizing by target events, and errors. The trace is gunzipped with zlib
// and parsed with QJsonDocument so the checks do not depend on the project's own importers.

#include "app/synth/synthetic_profile_generator.h"
#include "tests/test_support.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>

using namespace stepscope::synth;

namespace {

QByteArray readFile(const std::filesystem::path &p) {
    QFile f(QString::fromStdString(p.string()));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

QByteArray gunzip(const QByteArray &gz) {
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        return {};
    QByteArray out;
    char buf[1 << 16];
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(gz.constData()));
    zs.avail_in = static_cast<uInt>(gz.size());
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef *>(buf);
        zs.avail_out = sizeof buf;
        rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buf, static_cast<qsizetype>(sizeof buf - zs.avail_out));
    }
    inflateEnd(&zs);
    return rc == Z_STREAM_END ? out : QByteArray();
}

int64_t toNs(const QJsonValue &us) {
    return std::llround(us.toDouble() * 1000.0);
}

struct Trace {
    QJsonObject root;
    QByteArray text;
    std::vector<QJsonObject> events;
};

Trace load(const std::filesystem::path &gz) {
    Trace t;
    t.text = gunzip(readFile(gz));
    QJsonParseError err{};
    const auto doc = QJsonDocument::fromJson(t.text, &err);
    if (err.error != QJsonParseError::NoError)
        qWarning() << "parse error" << err.errorString() << err.offset;
    t.root = doc.object();
    for (const auto &v : t.root.value("traceEvents").toArray())
        t.events.push_back(v.toObject());
    return t;
}

struct Generated {
    SyntheticProfileStats stats;
    Trace trace;
    std::filesystem::path csv;
};

Generated generate(const QTemporaryDir &dir, SyntheticProfileOptions o) {
    const std::filesystem::path base = dir.path().toStdString();
    const auto gz = base / "trace.pt.trace.json.gz";
    Generated g;
    g.csv = base / "nvidia-smi.csv";
    g.stats = SyntheticProfileGenerator(o).generate(gz, g.csv);
    g.trace = load(gz);
    return g;
}

// Every "ts": / "dur": value in the JSON text looks like -?\d+\.\d{3} followed by ',' or '}'.
bool timesHaveNanosecondDigits(const QByteArray &text) {
    int checked = 0;
    for (const QByteArray &key : {QByteArray("\"ts\":"), QByteArray("\"dur\":")}) {
        for (qsizetype at = text.indexOf(key); at >= 0; at = text.indexOf(key, at + 1)) {
            qsizetype i = at + key.size();
            if (i < text.size() && text[i] == '-')
                ++i;
            const qsizetype intStart = i;
            while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
                ++i;
            if (i == intStart || i + 4 >= text.size() || text[i] != '.')
                return false;
            for (int d = 1; d <= 3; ++d)
                if (!std::isdigit(static_cast<unsigned char>(text[i + d])))
                    return false;
            if (text[i + 4] != ',' && text[i + 4] != '}')
                return false;
            ++checked;
        }
    }
    return checked > 0;
}

bool isStep(const QJsonObject &e) {
    return e.value("name").toString().startsWith("ProfilerStep#");
}

// Sum of durations of X events whose name starts with prefix.
double sumDur(const Trace &t, const QString &prefix) {
    double s = 0;
    for (const auto &e : t.events)
        if (e.value("ph").toString() == "X" && e.value("name").toString().startsWith(prefix))
            s += e.value("dur").toDouble();
    return s;
}

double meanCsvUtilization(const std::filesystem::path &csv) {
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    double sum = 0;
    int n = 0;
    static const QRegularExpression re("^[^,]+, \\d+, [^,]+, (\\d+) %, ");
    while (std::getline(in, line)) {
        const auto m = re.match(QString::fromStdString(line));
        if (m.hasMatch()) {
            sum += m.captured(1).toDouble();
            ++n;
        }
    }
    return n ? sum / n : -1;
}

} // namespace

class TstSyntheticProfileGenerator : public QObject {
    Q_OBJECT

private slots:
    void bottleneckNamesRoundTrip() {
        for (Bottleneck b : allBottlenecks())
            QCOMPARE(parseBottleneck(bottleneckName(b)), std::optional<Bottleneck>(b));
        QCOMPARE(parseBottleneck("kernel-launch"), std::optional<Bottleneck>(Bottleneck::KernelLaunch));
        QVERIFY(!parseBottleneck("gpu").has_value());
        QCOMPARE(SyntheticProfileGenerator::defaultTraceName(Bottleneck::Input), std::string("input.pt.trace.json.gz"));
    }

    void sameSeedIsByteIdentical() {
        QTemporaryDir a, b;
        SyntheticProfileOptions o;
        o.steps = 6;
        o.bottleneck = Bottleneck::Collective;
        o.gpus = 2;
        o.seed = 42;
        const auto ga = generate(a, o);
        const auto gb = generate(b, o);
        const auto base = [](const QTemporaryDir &d) { return std::filesystem::path(d.path().toStdString()); };
        const QByteArray gzA = readFile(base(a) / "trace.pt.trace.json.gz");
        QVERIFY(gzA.size() > 1000);
        QCOMPARE(gzA, readFile(base(b) / "trace.pt.trace.json.gz"));
        QCOMPARE(readFile(ga.csv), readFile(gb.csv));
        QVERIFY(readFile(ga.csv).size() > 100);
    }

    void differentSeedDiffers() {
        QTemporaryDir a, b;
        SyntheticProfileOptions o;
        o.steps = 4;
        o.seed = 1;
        const auto ga = generate(a, o);
        o.seed = 2;
        const auto gb = generate(b, o);
        QVERIFY(!ga.trace.text.isEmpty());
        QVERIFY(ga.trace.text != gb.trace.text);
        QVERIFY(readFile(ga.csv) != readFile(gb.csv));
    }

    void traceStructure_data() {
        QTest::addColumn<QString>("bottleneck");
        QTest::addColumn<int>("gpus");
        for (Bottleneck b : allBottlenecks())
            QTest::newRow(std::string(bottleneckName(b)).c_str()) << QString::fromLatin1(bottleneckName(b).data()) << 1;
        QTest::newRow("none-3gpus") << "none" << 3;
        QTest::newRow("collective-2gpus") << "collective" << 2;
    }

    void traceStructure() {
        QFETCH(QString, bottleneck);
        QFETCH(int, gpus);
        QTemporaryDir dir;
        SyntheticProfileOptions o;
        o.steps = 12;
        o.gpus = gpus;
        o.kernelsPerStep = bottleneck == "kernel_launch" ? 300 : 60;
        o.bottleneck = *parseBottleneck(bottleneck.toStdString());
        o.checkpointEvery = o.bottleneck == Bottleneck::Checkpoint ? 5 : 0;
        const auto g = generate(dir, o);
        const Trace &t = g.trace;

        QCOMPARE(t.root.value("schemaVersion").toInt(), 1);
        QCOMPARE(t.root.value("displayTimeUnit").toString(), QString("ms"));
        QCOMPARE(static_cast<int64_t>(t.root.value("baseTimeNanoseconds").toDouble()), o.epochStartNs);
        QCOMPARE(t.root.value("deviceProperties").toArray().size(), gpus);
        QCOMPARE(t.root.contains("distributedInfo"), gpus > 1 || o.bottleneck == Bottleneck::Collective);
        QCOMPARE(static_cast<int64_t>(t.events.size()), g.stats.events);

        // Every ts and dur carries exactly three fractional digits (nanoseconds).
        QVERIFY(timesHaveNanosecondDigits(t.text));

        // Each host thread has ProfilerStep#1..#steps.
        std::map<int, std::set<QString>> stepsByThread;
        for (const auto &e : t.events)
            if (isStep(e))
                stepsByThread[e.value("tid").toInt()].insert(e.value("name").toString());
        QCOMPARE(static_cast<int>(stepsByThread.size()), gpus);
        for (const auto &[tid, names] : stepsByThread) {
            QCOMPARE(static_cast<int>(names.size()), o.steps);
            for (int n = 1; n <= o.steps; ++n)
                QVERIFY2(names.count(QString("ProfilerStep#%1").arg(n)), qPrintable(QString("step %1").arg(n)));
        }

        // Launch <-> device activity by correlation; device work never starts before its launch.
        std::map<int64_t, QJsonObject> launches;
        std::map<int64_t, int64_t> flowStart, flowEnd;
        std::map<std::pair<int, int>, std::vector<std::pair<int64_t, int64_t>>> streams;
        int kernels = 0, nccl = 0;
        for (const auto &e : t.events) {
            const QString ph = e.value("ph").toString(), cat = e.value("cat").toString();
            if (cat == "cuda_runtime" && e.value("args").toObject().contains("correlation"))
                QVERIFY(launches.emplace(e.value("args").toObject().value("correlation").toInteger(), e).second);
            if (ph == "s" && cat == "ac2g")
                QVERIFY(flowStart.emplace(e.value("id").toInteger(), toNs(e.value("ts"))).second);
            if (ph == "f" && cat == "ac2g") {
                QCOMPARE(e.value("bp").toString(), QString("e"));
                QVERIFY(flowEnd.emplace(e.value("id").toInteger(), toNs(e.value("ts"))).second);
            }
        }
        for (const auto &e : t.events) {
            const QString cat = e.value("cat").toString();
            if (cat != "kernel" && cat != "gpu_memcpy")
                continue;
            const QJsonObject args = e.value("args").toObject();
            const int64_t corr = args.value("correlation").toInteger();
            const auto it = launches.find(corr);
            QVERIFY2(it != launches.end(), qPrintable("no launch for correlation " + QString::number(corr)));
            const QString api = it->second.value("name").toString();
            QCOMPARE(api, cat == "kernel" ? QString("cudaLaunchKernel") : QString("cudaMemcpyAsync"));
            QCOMPARE(it->second.value("args").toObject().value("External id"), args.value("External id"));
            const int64_t start = toNs(e.value("ts")), launchTs = toNs(it->second.value("ts"));
            QVERIFY(start >= launchTs);
            QCOMPARE(flowStart.at(corr), launchTs);
            QCOMPARE(flowEnd.at(corr), start);
            QCOMPARE(args.value("device").toInt(), e.value("pid").toInt());
            QCOMPARE(args.value("stream").toInt(), e.value("tid").toInt());
            streams[{e.value("pid").toInt(), e.value("tid").toInt()}].push_back({start, start + toNs(e.value("dur"))});
            if (cat == "kernel") {
                ++kernels;
                QCOMPARE(args.value("grid").toArray().size(), 3);
                QCOMPARE(args.value("block").toArray().size(), 3);
                QVERIFY(args.contains("registers per thread"));
                nccl += e.value("name").toString().startsWith("ncclDevKernel_AllReduce");
            }
        }
        QCOMPARE(flowStart.size(), flowEnd.size());
        QVERIFY(kernels >= g.stats.kernelsPerStep * o.steps * gpus);
        QCOMPARE(nccl > 0, gpus > 1 || o.bottleneck == Bottleneck::Collective);
        for (auto &[key, v] : streams) {
            std::sort(v.begin(), v.end());
            for (size_t i = 1; i < v.size(); ++i)
                QVERIFY2(v[i].first >= v[i - 1].second,
                         qPrintable(QString("overlap on device %1 stream %2").arg(key.first).arg(key.second)));
        }
        // The loss is fetched every step; checkpoints copy the weights back.
        QVERIFY(sumDur(t, "Memcpy DtoH") > 0);
        QVERIFY(sumDur(t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__") > 0);
        QVERIFY(sumDur(t, "on_train_batch_end") > 0);
        QVERIFY(sumDur(t, "Optimizer.step#SGD.step") > 0);
        QVERIFY(sumDur(t, "autograd::engine::evaluate_function: ConvolutionBackward0") > 0);
        QCOMPARE(sumDur(t, "torch.save") > 0, o.bottleneck == Bottleneck::Checkpoint);
    }

    void inputBoundWaitsForData() {
        QTemporaryDir a, b;
        SyntheticProfileOptions o;
        o.steps = 15;
        o.bottleneck = Bottleneck::Input;
        const auto input = generate(a, o);
        o.bottleneck = Bottleneck::None;
        const auto none = generate(b, o);
        const QString next = "enumerate(DataLoader)#";
        const double inputShare = sumDur(input.trace, next) / sumDur(input.trace, "ProfilerStep#");
        const double noneShare = sumDur(none.trace, next) / sumDur(none.trace, "ProfilerStep#");
        QVERIFY2(inputShare > 0.30, qPrintable(QString::number(inputShare)));
        QVERIFY2(noneShare < 0.10, qPrintable(QString::number(noneShare)));
        // GPU busy: kernels cover most of a step only when nothing starves the GPU.
        QVERIFY(sumDur(none.trace, "") > 0);
        double noneKernels = 0;
        for (const auto &e : none.trace.events)
            if (e.value("cat").toString() == "kernel")
                noneKernels += e.value("dur").toDouble();
        QVERIFY(noneKernels / sumDur(none.trace, "ProfilerStep#") > 0.90);

        // nvidia-smi: one row per GPU per 100 ms sample covering the trace; input-bound looks idle.
        QCOMPARE(input.stats.metricRows, input.stats.metricSamples);
        QVERIFY(input.stats.metricSamples * 100'000'000 >= input.stats.traceDurationNs);
        const double utilInput = meanCsvUtilization(input.csv), utilNone = meanCsvUtilization(none.csv);
        QVERIFY2(utilInput >= 0 && utilInput < utilNone, qPrintable(QString("%1 vs %2").arg(utilInput).arg(utilNone)));
        QVERIFY(utilNone > 80);
    }

    void nvidiaSmiCsvFormat() {
        QTemporaryDir dir;
        SyntheticProfileOptions o;
        o.steps = 5;
        o.gpus = 2;
        const auto g = generate(dir, o);
        const QStringList lines = QString::fromUtf8(readFile(g.csv)).split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.first(), QString("timestamp, index, name, utilization.gpu [%], utilization.memory [%], "
                                        "memory.used [MiB], memory.total [MiB]"));
        QCOMPARE(static_cast<int64_t>(lines.size() - 1), g.stats.metricSamples * 2);
        QCOMPARE(g.stats.metricRows, g.stats.metricSamples * 2);
        static const QRegularExpression row(
            "^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3}, [01], NVIDIA H100 80GB "
            "HBM3, \\d{1,3} %, \\d{1,3} %, \\d+ MiB, 81559 MiB$");
        for (qsizetype i = 1; i < lines.size(); ++i)
            QVERIFY2(row.match(lines[i]).hasMatch(), qPrintable(lines[i]));
        QVERIFY(lines[1].startsWith("2026/01/15 10:00:00.1"));
        QVERIFY(lines[1].contains(", 0, ") && lines[2].contains(", 1, "));
    }

    void checkpointStepsAreSlow() {
        QTemporaryDir dir;
        SyntheticProfileOptions o;
        o.steps = 20;
        o.kernelsPerStep = 40;
        o.bottleneck = Bottleneck::Checkpoint;
        const auto g = generate(dir, o);
        std::map<int, double> dur;
        for (const auto &e : g.trace.events)
            if (isStep(e))
                dur[e.value("name").toString().mid(13).toInt()] = e.value("dur").toDouble();
        QCOMPARE(static_cast<int>(dur.size()), 20);
        std::vector<double> normal;
        for (const auto &[n, d] : dur)
            if (n % 10)
                normal.push_back(d);
        std::sort(normal.begin(), normal.end());
        const double median = normal[normal.size() / 2];
        for (const auto &[n, d] : dur) {
            if (n % 10 == 0)
                QVERIFY2(d > 4 * median, qPrintable(QString("step %1: %2 vs %3").arg(n).arg(d).arg(median)));
            else
                QVERIFY2(d < 1.5 * median, qPrintable(QString("step %1: %2 vs %3").arg(n).arg(d).arg(median)));
        }
    }

    void targetEventsSizesTheRun() {
        QTemporaryDir dir;
        SyntheticProfileOptions o;
        o.targetEvents = 150'000;
        const SyntheticProfileGenerator gen(o);
        QVERIFY(gen.options().steps > 1);
        const auto st = gen.generate(std::filesystem::path(dir.path().toStdString()) / "t.json.gz", {});
        QVERIFY2(std::abs(static_cast<double>(st.events) - 150'000.0) < 15'000.0,
                 qPrintable(QString::number(st.events)));
        QCOMPARE(st.metricRows, int64_t{0});
        // Large targets grow the step instead of making thousands of steps.
        o.targetEvents = 50'000'000;
        const SyntheticProfileGenerator big(o);
        QVERIFY(big.options().steps <= 1100);
        QVERIFY(big.options().kernelsPerStep > 178);
    }

    void errorsNameThePath() {
        QTemporaryDir dir;
        const std::filesystem::path blocker = std::filesystem::path(dir.path().toStdString()) / "file";
        std::ofstream(blocker) << "x";
        SyntheticProfileOptions o;
        o.steps = 1;
        try {
            writeTrace(o, blocker / "sub" / "t.json.gz");
            QFAIL("no exception");
        } catch (const std::runtime_error &e) {
            QVERIFY2(QString(e.what()).contains("file/sub/t.json.gz"), e.what());
        }
        try {
            writeNvidiaSmiCsv(o, blocker / "m.csv");
            QFAIL("no exception");
        } catch (const std::runtime_error &e) {
            QVERIFY2(QString(e.what()).contains("m.csv"), e.what());
        }
        o.gpus = 9;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SyntheticProfileGenerator{o});
        o.gpus = 1;
        o.gzipLevel = 10;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, SyntheticProfileGenerator{o});
    }
};

QTEST_GUILESS_MAIN(TstSyntheticProfileGenerator)
#include "tst_synthetic_profile_generator.moc"
