// Specification of ChromeTraceTokenizer and its JSON scanning helpers: exact µs→ns parsing, both
// container forms, header keys around traceEvents, chunk boundaries anywhere, and errors that
// name the byte offset while keeping the events before it.

#include "importers/chrome/chrome_trace_tokenizer.h"
#include "importers/common/json_scan.h"
#include "tests/test_support.h"

#include <QtTest>

#include <string>
#include <vector>

using namespace stepscope;

// moc trips over raw string literals: it only needs this declaration, so the fixtures below are
// hidden from it with Q_MOC_RUN.
class TstChromeTokenizer : public QObject {
    Q_OBJECT
private slots:
    void microsecondsToNanosecondsExactly_data();
    void microsecondsToNanosecondsExactly();
    void objectFormWithHeaderKeysAroundEvents();
    void stringAndNumberIdsAreOpaqueText();
    void escapesAreDecoded();
    void argsAreKeptRawWithAFewExtracted();
    void bareArrayWithoutClosingBracket();
    void emptyElementsAndTrailingComma();
    void malformedStopsWithOffsetAndKeepsEarlierEvents();
    void truncatedObjectFormIsAnError();
    void notATrace();
};

#ifndef Q_MOC_RUN
namespace {

struct Tokenized {
    std::vector<std::string> lines;  // "ph name pid tid ts dur"
    ChromeTraceTokenizer::Status end = ChromeTraceTokenizer::Status::End;
    std::string error;
    int64_t errorOffset = -1;
    TraceHeader header;
    bool missingBracket = false;
};

std::string opt(const std::optional<int64_t> &v) { return v ? std::to_string(*v) : std::string("-"); }

Tokenized tokenize(const std::string &text, size_t chunk = 1 << 20) {
    ChromeTraceTokenizer t;
    TraceEvent ev;
    Tokenized out;
    size_t off = 0;
    while (true) {
        const auto s = t.next(ev);
        if (s == ChromeTraceTokenizer::Status::Event) {
            out.lines.push_back(std::string(1, ev.ph ? ev.ph : '0') + " " + std::string(ev.name) + " " +
                                std::string(ev.pid) + " " + std::string(ev.tid) + " " + opt(ev.tsNs) + " " +
                                opt(ev.durNs));
            continue;
        }
        if (s == ChromeTraceTokenizer::Status::NeedData) {
            if (off >= text.size()) {
                t.finish();
                continue;
            }
            const size_t n = std::min(chunk, text.size() - off);
            t.feed(text.data() + off, n);
            off += n;
            continue;
        }
        out.end = s;
        break;
    }
    out.error = t.error();
    out.errorOffset = t.errorOffset();
    out.header = t.header();
    out.missingBracket = t.missingClosingBracket();
    return out;
}

} // namespace

void TstChromeTokenizer::microsecondsToNanosecondsExactly_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("ns");
    QTest::addColumn<bool>("valid");
    QTest::newRow("epoch us, fraction") << "1712195495406752.8" << qint64(1712195495406752800) << true;
    QTest::newRow("epoch us, 3 decimals") << "1712195495406752.797" << qint64(1712195495406752797) << true;
    QTest::newRow("integer") << "1610366662254362" << qint64(1610366662254362000) << true;
    QTest::newRow("sub-ns rounds half away") << "0.0005" << qint64(1) << true;
    QTest::newRow("sub-ns rounds down") << "0.0004" << qint64(0) << true;
    QTest::newRow("negative") << "-2.5" << qint64(-2500) << true;
    QTest::newRow("negative rounding") << "-0.0015" << qint64(-2) << true;
    QTest::newRow("exponent") << "1.5e3" << qint64(1500000) << true;
    QTest::newRow("negative exponent") << "25E-3" << qint64(25) << true;
    QTest::newRow("zero") << "0.0" << qint64(0) << true;
    QTest::newRow("overflow") << "1e30" << qint64(0) << false;
    QTest::newRow("text") << "abc" << qint64(0) << false;
    QTest::newRow("NaN") << "NaN" << qint64(0) << false;
    QTest::newRow("empty") << "" << qint64(0) << false;
}
void TstChromeTokenizer::microsecondsToNanosecondsExactly() {
    QFETCH(QString, text);
    QFETCH(qint64, ns);
    QFETCH(bool, valid);
    const std::string s = text.toStdString();
    const auto v = json::microsTextToNs(s);
    QCOMPARE(v.has_value(), valid);
    if (valid)
        QCOMPARE(qint64(*v), ns);
}

void TstChromeTokenizer::objectFormWithHeaderKeysAroundEvents() {
    const std::string big(300000, 'x');
    const std::string text = R"({"schemaVersion": 1, "INFO": [")" + big + R"(", {"nested": [1, "]}"]}],
        "deviceProperties": [{"id": 0, "name": "Tesla V100"}, {"id": 1, "name": "A100"}],
        "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
        "traceEvents": [
          {"ph": "X", "name": "aten::mm", "pid": 1102, "tid": 1262, "ts": 1712195495406752.8, "dur": 63.813},
          {"ph": "i", "name": "Record Window End", "s": "g", "pid": "", "tid": "", "ts": 5}
        ],
        "traceName": "t.json", "displayTimeUnit": "ns", "baseTimeNanoseconds": 1700000000000000000})";
    for (size_t chunk : {size_t(1), size_t(7), size_t(4096), size_t(1) << 20}) {
        const Tokenized t = tokenize(text, chunk);
        QCOMPARE(int(t.end), int(ChromeTraceTokenizer::Status::End));
        QCOMPARE(t.lines, (std::vector<std::string>{"X aten::mm 1102 1262 1712195495406752800 63813",
                                                    "i Record Window End   5000 -"}));
        QVERIFY(t.header.objectForm);
        QCOMPARE(t.header.baseTimeNs.value_or(-1), int64_t(1700000000000000000));
        QCOMPARE(t.header.displayTimeUnit, std::string("ns"));
        QCOMPARE(t.header.rank.value_or(-1), 3);
        QCOMPARE(t.header.worldSize.value_or(-1), 8);
        QCOMPARE(t.header.devices.size(), size_t(2));
        QCOMPARE(t.header.devices[1].name, std::string("A100"));
        QCOMPARE(t.header.schemaVersion.value_or(-1), 1);
    }
}

void TstChromeTokenizer::stringAndNumberIdsAreOpaqueText() {
    const Tokenized t = tokenize(R"([{"ph":"X","name":"a","pid":"Spans","tid":"PyTorch Profiler","ts":1,"dur":2},
        {"ph":"X","name":"b","pid":-1,"tid":"stream 7","ts":"3.5","dur":0}])");
    QCOMPARE(t.lines, (std::vector<std::string>{"X a Spans PyTorch Profiler 1000 2000", "X b -1 stream 7 3500 0"}));
}

void TstChromeTokenizer::escapesAreDecoded() {
    ChromeTraceTokenizer t;
    t.feed(std::string(R"([{"ph":"X","name":"a\"b\u00e9\ud83d\ude00\n","args":{"name":"x\/y"}}])"));
    t.finish();
    TraceEvent ev;
    QCOMPARE(int(t.next(ev)), int(ChromeTraceTokenizer::Status::Event));
    QCOMPARE(ev.name, std::string_view("a\"b\xC3\xA9\xF0\x9F\x98\x80\n"));
    QCOMPARE(ev.argName, std::string_view("x/y"));
}

void TstChromeTokenizer::argsAreKeptRawWithAFewExtracted() {
    ChromeTraceTokenizer t;
    const std::string args =
        R"({"External id": 600, "device": 0, "context": 1, "stream": 7, "correlation": 135139, "bytes": 256, "grid": [1, 2, 3]})";
    t.feed(R"([{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoD","pid":0,"tid":7,"ts":1,"dur":1,"args":)" + args +
           R"(,"id":42,"bind_id":"0x9","flow_out":true,"flow_in":false,"bp":"e"}])");
    t.finish();
    TraceEvent ev;
    QCOMPARE(int(t.next(ev)), int(ChromeTraceTokenizer::Status::Event));
    QCOMPARE(ev.args, std::string_view(args));
    QCOMPARE(ev.cat, std::string_view("gpu_memcpy"));
    QCOMPARE(ev.correlation.value_or(-1), 135139);
    QCOMPARE(ev.externalId.value_or(-1), 600);
    QCOMPARE(ev.device.value_or(-1), 0);
    QCOMPARE(ev.stream.value_or(-1), 7);
    QCOMPARE(ev.bytes.value_or(-1), 256);
    QCOMPARE(ev.id, std::string_view("42"));
    QCOMPARE(ev.bindId, std::string_view("0x9"));
    QVERIFY(ev.flowOut);
    QVERIFY(!ev.flowIn);
    QCOMPARE(ev.bp, 'e');
    QCOMPARE(ev.offset, int64_t(1));
}

void TstChromeTokenizer::bareArrayWithoutClosingBracket() {
    const Tokenized t = tokenize("[{\"ph\":\"B\",\"name\":\"a\",\"ts\":1},\n{\"ph\":\"E\",\"ts\":2},\n", 5);
    QCOMPARE(int(t.end), int(ChromeTraceTokenizer::Status::End));
    QCOMPARE(t.lines.size(), size_t(2));
    QVERIFY(t.missingBracket);
    QVERIFY(!t.header.objectForm);
}

void TstChromeTokenizer::emptyElementsAndTrailingComma() {
    const Tokenized t = tokenize(R"({"traceEvents":[{}, {"ph":"X","ts":1,"dur":1},]})");
    QCOMPARE(int(t.end), int(ChromeTraceTokenizer::Status::End));
    QCOMPARE(t.lines, (std::vector<std::string>{"0    - -", "X    1000 1000"}));
}

void TstChromeTokenizer::malformedStopsWithOffsetAndKeepsEarlierEvents() {
    const std::string text = R"([{"ph":"X","ts":1,"dur":1},{"ph":"X" "ts":2}])";
    for (size_t chunk : {size_t(3), size_t(1) << 20}) {
        const Tokenized t = tokenize(text, chunk);
        QCOMPARE(int(t.end), int(ChromeTraceTokenizer::Status::Error));
        QCOMPARE(t.lines.size(), size_t(1));
        QCOMPARE(t.errorOffset, int64_t(text.find(" \"ts\":2") + 1));
        QVERIFY2(t.error.find("expected ','") != std::string::npos, t.error.c_str());
    }
}

void TstChromeTokenizer::truncatedObjectFormIsAnError() {
    const std::string text = R"({"traceEvents":[{"ph":"X","ts":1,"dur":1},{"ph":"X","ts":)";
    const Tokenized t = tokenize(text, 4);
    QCOMPARE(int(t.end), int(ChromeTraceTokenizer::Status::Error));
    QCOMPARE(t.lines.size(), size_t(1));
    QCOMPARE(t.errorOffset, int64_t(text.rfind('{')));
    QVERIFY(t.error.find("unexpected end of data") != std::string::npos);

    const Tokenized t2 = tokenize(R"({"traceEvents":[{"ph":"X","ts":1}])");
    QCOMPARE(int(t2.end), int(ChromeTraceTokenizer::Status::Error));
    QCOMPARE(t2.lines.size(), size_t(1));
}

void TstChromeTokenizer::notATrace() {
    QCOMPARE(int(tokenize("").end), int(ChromeTraceTokenizer::Status::Error));
    QCOMPARE(int(tokenize("hello").end), int(ChromeTraceTokenizer::Status::Error));
    const Tokenized t = tokenize("[[1,2],[3,4]]");
    QCOMPARE(int(t.end), int(ChromeTraceTokenizer::Status::Error));
    QCOMPARE(t.errorOffset, int64_t(1));
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TstChromeTokenizer)
#include "tst_chrome_tokenizer.moc"
