// Hostile and broken input (DESIGN.md "Bad input"): a decompression bomb, 1 M nested brackets, a
// 20 MB name, absurd / negative / NaN / far-future times, overlapping and unclosed slices, 0-byte
// files, binary garbage under trusted extensions, absurd protobuf / TFRecord lengths and a truncated
// real gzip. Each must give a clear message (file, position, reason) in import_log, keep what could
// be read, and never crash; where memory matters the import runs in a child process whose peak RSS
// is checked.

#include "app/synth/synthetic_profile_generator.h"
#include "importers/common/byte_source.h"
#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "importers/tfevents/tfrecord_tokenizer.h"
#include "tests/test_support.h"

#include <QtTest>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <random>

extern char **environ;

namespace stepscope {
namespace fs = std::filesystem;

namespace {

std::string g_self;  // this program, re-run as a child for peak-RSS measurements

void writeFile(const fs::path &p, const std::string &bytes) { std::ofstream(p, std::ios::binary) << bytes; }

// One gzip member of `n` zero bytes.
std::string gzipZeros(size_t n) {
    std::string zeros(n, '\0'), out(compressBound(uLong(n)) + 64, '\0');
    z_stream zs{};
    deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
    zs.next_in = reinterpret_cast<Bytef *>(zeros.data());
    zs.avail_in = uInt(n);
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = uInt(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

struct Imported {
    SourceSummary source;
    bool skipped = false;
    std::string skipReason;
    QStringList log;  // "severity|file|position|message"
    int64_t slices = 0;
};

// Imports `file` into a fresh session the way the app does (registry sniffing, one transaction).
Imported importOne(const fs::path &file) {
    QTemporaryDir dir;
    SessionStore store(fs::path(dir.path().toStdString()) / "s.stepscope");
    ImporterRegistry registry;
    SessionImporter importer(store, registry);
    const ImportSummary summary = importer.run({file});
    Imported r;
    if (!summary.sources.empty()) r.source = summary.sources.front();
    if (!summary.skipped.empty()) {
        r.skipped = true;
        r.skipReason = summary.skipped.front().reason;
    }
    SqliteStatement log(store.db(), "SELECT severity, file, position, message FROM import_log ORDER BY id");
    while (log.step())
        r.log << QString::fromStdString(log.columnText(0) + "|" + log.columnText(1) + "|" + log.columnText(2) + "|" +
                                        log.columnText(3));
    SqliteStatement n(store.db(), "SELECT count(*) FROM slice");
    r.slices = n.step() ? n.columnInt(0) : -1;
    return r;
}

// Peak resident memory of this process (VmHWM) in KiB.
long peakRssKib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
    return -1;
}

// Runs this program as `--child-import FILE OUT`: the child imports FILE into a fresh session and
// writes its own VmHWM to OUT (measured in the child: a spawned child's rusage would include the
// parent's memory it shared until exec). Returns MiB, -1 on failure.
long childPeakRssMb(const fs::path &file) {
    const std::string out = file.string() + ".rss";
    std::string a0 = g_self, a1 = "--child-import", a2 = file.string(), a3 = out;
    char *argv[] = {a0.data(), a1.data(), a2.data(), a3.data(), nullptr};
    // Under ASan, freed blocks sit in a 256 MiB quarantine; keep it small so RSS means live memory.
    std::vector<std::string> env;
    for (char **e = environ; *e; ++e)
        if (std::string_view(*e).rfind("ASAN_OPTIONS=", 0) != 0) env.emplace_back(*e);
    const char *asan = std::getenv("ASAN_OPTIONS");
    env.push_back(std::string("ASAN_OPTIONS=") + (asan ? asan : "") + ":quarantine_size_mb=4");
    std::vector<char *> envp;
    for (auto &e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    pid_t pid = 0;
    if (posix_spawn(&pid, g_self.c_str(), nullptr, nullptr, argv, envp.data()) != 0) return -1;
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1;
    long kib = -1;
    std::ifstream(out) >> kib;
    return kib < 0 ? -1 : kib / 1024;
}

} // namespace

class TstBadInputLimits : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path path(const std::string &name) const { return fs::path(m_dir.path().toStdString()) / name; }

private slots:
    void decompressionBombHasAClearError() {
        // 64 MiB of zeros in ~64 KiB of gzip; a 16 MiB cap stops it with a message naming the cause.
        const fs::path bomb = path("bomb.json.gz");
        writeFile(bomb, gzipZeros(size_t(64) << 20));
        QVERIFY(fs::file_size(bomb) < (size_t(1) << 20));
        ByteSource src(bomb);
        src.setLimits(int64_t(16) << 20, 2000);
        std::vector<char> buf;
        while (src.read(buf)) {}
        QVERIFY(!src.ok());
        QVERIFY2(src.error().find("decompression limit") != std::string::npos, src.error().c_str());
        QVERIFY(src.error().find(bomb.string()) != std::string::npos);
        QVERIFY(src.expandedOffset() <= (int64_t(17) << 20));
    }

    void decompressionRatioCapAtDefaults() {
        // Default limits: past 1 GiB the expansion ratio is checked. 70 members of 16 MiB zeros
        // (~1.1 GiB from ~1.1 MiB) must stop there, not run on to the 64 GiB cap.
        const std::string member = gzipZeros(size_t(16) << 20);
        std::string bytes;
        for (int i = 0; i < 70; ++i) bytes += member;
        const fs::path bomb = path("ratio.json.gz");
        writeFile(bomb, bytes);
        ByteSource src(bomb);
        std::vector<char> buf;
        while (src.read(buf, size_t(8) << 20)) {}
        QVERIFY2(!src.ok(), "a ~1000:1 gzip expanding past 1 GiB was read to the end");
        QVERIFY2(src.error().find("decompression bomb") != std::string::npos, src.error().c_str());
    }

    void deeplyNestedJsonIsAnErrorNotAStackOverflow_data() {
        QTest::addColumn<QString>("where");
        QTest::newRow("args") << "args";
        QTest::newRow("top-level value") << "header";
        QTest::newRow("trace array") << "array";
    }
    void deeplyNestedJsonIsAnErrorNotAStackOverflow() {
        QFETCH(QString, where);
        const std::string deep(1000000, '['), ok = R"({"ph": "X", "name": "kept", "pid": 1, "tid": 1, "ts": 1, "dur": 1})";
        std::string text;
        if (where == "args") text = "[" + ok + R"(, {"ph": "X", "name": "deep", "pid": 1, "tid": 1, "ts": 2, "dur": 1, "args": {"x": )" + deep + "]";
        else if (where == "header") text = R"({"traceEvents": [)" + ok + R"(], "otherData": )" + deep + "}";
        else text = "[" + ok + ", " + deep;
        const fs::path file = path("deep_" + where.toStdString() + ".json");
        writeFile(file, text);
        const Imported r = importOne(file);
        QCOMPARE(r.slices, int64_t(1));  // the event before the nesting is kept
        QCOMPARE(int(r.source.status), int(SourceStatus::Partial));
        QVERIFY2(r.source.message.find(file.string()) != std::string::npos, r.source.message.c_str());
        QVERIFY2(r.log.join('\n').contains("|byte "), qPrintable(r.log.join('\n')));
    }

    void hugeNameKeepsMemoryBounded() {
        // A 20 MB event name is read (it is below the 64 MiB per-event cap) with memory that grows
        // by a small multiple of the event, not of anything larger.
        const std::string name(20u << 20, 'n');
        const fs::path big = path("huge_name.json"), small = path("small.json");
        writeFile(big, R"([{"ph": "X", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])");
        writeFile(small, R"([{"ph": "X", "name": "n", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])");
        const Imported r = importOne(big);
        QCOMPARE(int(r.source.status), int(SourceStatus::Ok));
        QCOMPARE(r.slices, int64_t(1));
        const long base = childPeakRssMb(small), peak = childPeakRssMb(big);
        QVERIFY(base > 0 && peak > 0);
        qInfo("peak RSS: %ld MiB for a 20 MB name, %ld MiB for a tiny trace", peak, base);
        // The name is copied a handful of times (tokenizer buffer, interner, SQLite, WAL pages).
        QVERIFY2(peak - base < 20 * 16, qPrintable(QString("grew by %1 MiB").arg(peak - base)));
    }

    void absurdTimesAreLoggedAndTheRestKept() {
        const fs::path file = path("absurd.json");
        writeFile(file, R"([
            {"ph": "X", "name": "good", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
            {"ph": "X", "name": "nan", "pid": 1, "tid": 1, "ts": "NaN", "dur": 1},
            {"ph": "X", "name": "huge", "pid": 1, "tid": 1, "ts": 1e300, "dur": 1e308},
            {"ph": "X", "name": "far future", "pid": 1, "tid": 1, "ts": 32503680000000000000, "dur": 1},
            {"ph": "X", "name": "negative", "pid": 1, "tid": 1, "ts": -50, "dur": -7},
            {"ph": "X", "name": "neg dur at max", "pid": 1, "tid": 1, "ts": 9223372036854775, "dur": 9223372036854775},
            {"ph": "C", "name": "ctr", "pid": 1, "ts": 11, "args": {"v": 1e999}},
            {"ph": "X", "name": "also good", "pid": 99999999999999999999999, "tid": -1, "ts": 20, "dur": 1}])");
        const Imported r = importOne(file);
        QVERIFY(r.source.status != SourceStatus::Failed);
        QVERIFY(r.slices >= 2);
        QVERIFY(r.source.warnings > 0);
        const QString log = r.log.join('\n');
        QVERIFY2(log.contains(QString::fromStdString(file.string())), qPrintable(log));
        QVERIFY2(log.contains("ts"), qPrintable(log));
    }

    void overlappingAndUnclosedSlicesAreKept() {
        const fs::path file = path("overlap.json");
        writeFile(file, R"([
            {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
            {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 10},
            {"ph": "B", "name": "open", "pid": 1, "tid": 2, "ts": 1},
            {"ph": "E", "pid": 1, "tid": 3, "ts": 2}])");
        const Imported r = importOne(file);
        QCOMPARE(r.slices, int64_t(3));
        const QString log = r.log.join('\n');
        QVERIFY2(log.contains("never ended") && log.contains("no open begin"), qPrintable(log));
    }

    void zeroByteFilesAreNamed_data() {
        QTest::addColumn<QString>("name");
        for (const char *n : {"trace.json", "x.pt.trace.json.gz", "nvidia-smi.csv", "events.out.tfevents.1.h", "h.xplane.pb", "sadf.txt"})
            QTest::newRow(n) << n;
    }
    void zeroByteFilesAreNamed() {
        QFETCH(QString, name);
        const fs::path file = path("empty_" + name.toStdString());
        writeFile(file, "");
        const Imported r = importOne(file);
        if (r.skipped) {
            QVERIFY2(r.skipReason.find("empty") != std::string::npos, r.skipReason.c_str());
            QVERIFY2(r.log.join('\n').contains(QString::fromStdString(file.string())), qPrintable(r.log.join('\n')));
        } else {
            QCOMPARE(int(r.source.status), int(SourceStatus::Failed));
            QVERIFY2(r.source.message.find("empty") != std::string::npos, r.source.message.c_str());
        }
    }

    void binaryGarbageUnderTrustedExtensions_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("prefix");
        QTest::newRow("json") << "garbage.json" << "";
        QTest::newRow("json object") << "garbage2.json" << "{\"traceEvents\": [";
        QTest::newRow("csv") << "garbage.csv" << "";
        QTest::newRow("nvidia-smi csv") << "smi.csv" << "timestamp, index, utilization.gpu [%]\n";
        QTest::newRow("gzip") << "garbage.json.gz" << "\x1f\x8b";
        QTest::newRow("tfevents") << "events.out.tfevents.9.h" << "";
        QTest::newRow("xplane") << "g.xplane.pb" << "";
    }
    void binaryGarbageUnderTrustedExtensions() {
        QFETCH(QString, name);
        QFETCH(QString, prefix);
        std::mt19937 rng(42);
        std::string bytes = prefix.toStdString();
        for (int i = 0; i < 256 * 1024; ++i) bytes += char(rng() & 0xff);
        const fs::path file = path(name.toStdString());
        writeFile(file, bytes);
        const Imported r = importOne(file);
        if (r.skipped) {
            QVERIFY(!r.skipReason.empty());
        } else {
            QVERIFY(r.source.status != SourceStatus::Ok);
            QVERIFY2(r.source.message.find(file.string()) != std::string::npos || !r.log.isEmpty(), r.source.message.c_str());
            QVERIFY2(r.log.join('\n').contains(QString::fromStdString(file.string())), qPrintable(r.log.join('\n')));
        }
    }

    void absurdProtobufLengths_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("bytes");
        // TFRecord whose length (with a valid length CRC) claims ~2^60 bytes.
        const uint64_t len = uint64_t(1) << 60;
        QByteArray rec(reinterpret_cast<const char *>(&len), 8);
        const uint32_t crc = TfRecordTokenizer::masked(TfRecordTokenizer::crc32c(rec.data(), 8));
        rec.append(reinterpret_cast<const char *>(&crc), 4).append(64, 'x');
        QTest::newRow("tfrecord length") << "events.out.tfevents.2.h" << rec;
        // XSpace.planes (field 1, length-delimited) claiming 2^40 bytes, then a few bytes.
        QByteArray xs("\x0a\x80\x80\x80\x80\x80\x20", 7);
        xs.append(64, '\x01');
        QTest::newRow("xspace plane length") << "big.xplane.pb" << xs;
        // A plane whose line claims more bytes than the plane holds.
        QByteArray nested("\x0a\x06\x1a\x7f\x08\x01\x10\x01", 8);
        QTest::newRow("xplane line length") << "nested.xplane.pb" << nested;
    }
    void absurdProtobufLengths() {
        QFETCH(QString, name);
        QFETCH(QByteArray, bytes);
        const fs::path file = path(name.toStdString());
        writeFile(file, bytes.toStdString());
        const Imported r = importOne(file);
        if (r.skipped) {
            QVERIFY(!r.skipReason.empty());
            return;
        }
        QVERIFY(r.source.status != SourceStatus::Ok);
        QVERIFY2(r.log.join('\n').contains(QString::fromStdString(file.string())), qPrintable(r.log.join('\n')));
        QVERIFY2(r.source.message.find("byte") != std::string::npos || r.log.join('\n').contains("byte"),
                 qPrintable(r.log.join('\n')));
    }

    void truncatedRealGzipKeepsWhatWasRead() {
        synth::SyntheticProfileOptions o;
        o.targetEvents = 20000;
        const fs::path full = path("real.pt.trace.json.gz"), cut = path("cut.pt.trace.json.gz");
        synth::writeTrace(o, full);
        std::ifstream in(full, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), {});
        writeFile(cut, bytes.substr(0, bytes.size() / 2));
        const Imported r = importOne(cut);
        QCOMPARE(int(r.source.status), int(SourceStatus::Partial));
        QVERIFY(r.slices > 1000);
        QVERIFY2(r.source.message.find("truncated gzip") != std::string::npos, r.source.message.c_str());
        QVERIFY2(r.log.join('\n').contains("compressed byte"), qPrintable(r.log.join('\n')));
    }
};

} // namespace stepscope

int main(int argc, char **argv) {
    if (argc == 4 && std::string(argv[1]) == "--child-import") {
        QTemporaryDir dir;
        {
            stepscope::SessionStore store(std::filesystem::path(dir.path().toStdString()) / "c.stepscope");
            stepscope::ImporterRegistry registry;
            stepscope::SessionImporter(store, registry).run({argv[2]});
        }
        std::ofstream(argv[3]) << stepscope::peakRssKib();
        return 0;
    }
    stepscope::g_self = std::filesystem::canonical("/proc/self/exe").string();
    QCoreApplication app(argc, argv);
    stepscope::TstBadInputLimits t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_bad_input_limits.moc"
