// A Chrome/Kineto JSON object whose traceEvents comes after a large other key (TraceLens writes a
// "metadata" block first; issue #16): recognised by content however far into the file traceEvents
// starts — the sniffer walks the top-level keys — and not for a traceEvents key nested deeper or
// named only inside a string.

#include "importers/chrome/chrome_trace_importer.h"
#include "importers/common/byte_source.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>

using namespace stepscope;

namespace {

// ~200 KB of metadata with the traps a key scanner can fall into: escaped quotes, braces and
// brackets and the word "traceEvents" inside strings, nested objects and arrays.
std::string metadata() {
    // (Plain literals: moc does not read raw strings holding backslashes.)
    std::string m = "{\"profiler\":{\"kwargs\":{\"record_shapes\":true},"
                    "\"note\":\"a \\\"quoted\\\" {brace} [bracket] \\\\ traceEvents\"},\"runs\":[";
    for (int i = 0; i < 4000; ++i)
        m += (i ? "," : "") + std::string("{\"i\":") + std::to_string(i) + ",\"s\":\"x\\\"}]{[traceEvents\"}";
    return m + "]}";
}

std::filesystem::path write(const QTemporaryDir &dir, const char *name, const std::string &text) {
    const auto p = std::filesystem::path(dir.path().toStdString()) / name;
    std::ofstream(p) << text;
    return p;
}

bool sniffs(const std::filesystem::path &file) {
    return ChromeTraceImporter().sniff(file, ByteSource::peek(file, ImporterRegistry::kSniffBytes));
}

const char *kEvents = R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":0,"dur":10},{"ph":"X","name":"b","pid":1,"tid":1,"ts":20,"dur":5}])";

} // namespace

class TestChromeMetadataFirst : public QObject {
    Q_OBJECT
private slots:
    void traceEventsAfterALargeBlock() {
        QTemporaryDir dir;
        const auto file = write(dir, "trace.json", R"({"metadata":)" + metadata() + R"(,"traceEvents":)" + kEvents + "}");
        QVERIFY(std::filesystem::file_size(file) > 100'000);
        QVERIFY(sniffs(file));
        ChromeTraceImporter importer;
        const auto r = test::importFile(importer, file);
        QCOMPARE(r.result.status, SourceStatus::Ok);
        SqliteStatement st(r.store->db(), "SELECT count(*) FROM v_slice");
        QVERIFY(st.step());
        QCOMPARE(st.columnInt(0), int64_t(2));
    }

    void noTopLevelTraceEventsIsNotATrace() {
        QTemporaryDir dir;
        // Only nested (depth 2) or inside strings: not a trace.
        QVERIFY(!sniffs(write(dir, "nested.json", R"({"metadata":)" + metadata() + R"(,"other":{"traceEvents":)" + kEvents + "}}")));
        QVERIFY(!sniffs(write(dir, "plain.json", R"({"metadata":)" + metadata() + "}")));
        QVERIFY(!sniffs(write(dir, "notarray.json", R"({"metadata":)" + metadata() + R"(,"traceEvents":"none"})")));
        QVERIFY(!sniffs(write(dir, "cut.json", R"({"metadata":)" + metadata().substr(0, 50'000))));
    }

    void realSample() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        const auto file = samples / "tracelens" / "traces" / "mi300" / "gaunernst_bert-small-uncased__1016001.json.gz";
        QVERIFY(sniffs(file));
        ChromeTraceImporter importer;
        const auto r = test::importFile(importer, file);
        QVERIFY(r.result.status == SourceStatus::Ok || r.result.status == SourceStatus::Partial);
        SqliteStatement st(r.store->db(), "SELECT count(*) FROM v_slice");
        QVERIFY(st.step());
        QVERIFY(st.columnInt(0) > 1000);
    }
};

QTEST_GUILESS_MAIN(TestChromeMetadataFirst)
#include "tst_chrome_metadata_first.moc"
