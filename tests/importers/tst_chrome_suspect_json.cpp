// Chrome JSON that parses but is not what it claims: bytes after the trace, a second concatenated
// trace, phases the format does not have, step numbers that are no step numbers. Each keeps the
// events that could be read and leaves one import_log warning with the byte position and reason.

#include "importers/chrome/chrome_trace_importer.h"
#include "importers/chrome/chrome_trace_tokenizer.h"
#include "tests/importers/import_test_support.h"

#include <QtTest>

#include <fstream>

#include <zlib.h>

using namespace stepscope;
namespace fs = std::filesystem;

class TstChromeSuspectJson : public QObject {
    Q_OBJECT
private slots:
    void trailingGarbageIsReported();
    void secondConcatenatedTraceIsReported();
    void trailingWhiteSpaceIsFine();
    void trailingBytesFoundAcrossChunks();
    void unknownPhasesAreWarnedOncePerPhase();
    void outOfRangeStepNumbersStaySlices();
};

#ifndef Q_MOC_RUN  // moc does not need the fixtures (raw string literals)
namespace {

QTemporaryDir &fixtureDir() {
    static QTemporaryDir dir;
    return dir;
}

test::ImportedFile importText(const std::string &text, const std::string &name, bool gzip = false) {
    const fs::path path = fs::path(fixtureDir().path().toStdString()) / name;
    if (gzip) {
        gzFile f = gzopen(path.c_str(), "wb");
        gzwrite(f, text.data(), unsigned(text.size()));
        gzclose(f);
    } else {
        std::ofstream(path, std::ios::binary) << text;
    }
    ChromeTraceImporter importer;
    return test::importFile(importer, path);
}

QStringList rows(const test::ImportedFile &r, const std::string &sql) { return test::queryRows(*r.store, sql); }
QStringList warnings(const test::ImportedFile &r) {
    return rows(r, "SELECT position || ': ' || code FROM import_log WHERE severity = 'warning' ORDER BY id");
}

const std::string kTrace = R"({"traceEvents": [
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
  {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 2}]})";

} // namespace

void TstChromeSuspectJson::trailingGarbageIsReported() {
    const std::string text = kTrace + "\n  garbage, 12";
    const QString at = QString::number(text.find("garbage"));
    const auto r = importText(text, "garbage.json");
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));  // bytes of the file were not read
    QCOMPARE(rows(r, "SELECT name FROM v_slice ORDER BY start_ns"), QStringList({"a", "b"}));
    QCOMPARE(warnings(r), QStringList({"byte " + at + ": trailing_data"}));
    QCOMPARE(r.warnings, int64_t(1));

    const auto gz = importText(text, "garbage.json.gz", true);
    QCOMPARE(warnings(gz), QStringList({"byte " + at + ": trailing_data"}));
}

void TstChromeSuspectJson::secondConcatenatedTraceIsReported() {
    const std::string second = R"({"traceEvents": [{"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 9, "dur": 1}]})";
    const std::string text = kTrace + "\n" + second + "\n";
    const QString at = QString::number(kTrace.size() + 1);
    const auto r = importText(text, "concatenated.json");
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));  // the second trace is not read
    QCOMPARE(rows(r, "SELECT name FROM v_slice ORDER BY start_ns"), QStringList({"a", "b"}));
    QCOMPARE(warnings(r), QStringList({"byte " + at + ": trailing_data"}));
    // The bare-array form too.
    const auto arrays = importText(R"([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2}][])", "arrays.json");
    QCOMPARE(warnings(arrays), QStringList({"byte 65: trailing_data"}));
}

void TstChromeSuspectJson::trailingWhiteSpaceIsFine() {
    const auto r = importText(kTrace + " \n\t\r\n", "spaces.json");
    QCOMPARE(warnings(r), QStringList());
    QCOMPARE(rows(r, "SELECT count(*) FROM import_log"), QStringList({"0"}));
}

void TstChromeSuspectJson::trailingBytesFoundAcrossChunks() {
    // The trace ends in one chunk, white space fills the next, the stray byte comes in a third.
    ChromeTraceTokenizer t;
    TraceEvent e;
    t.feed(R"([{"ph": "X", "name": "a", "ts": 1}])");
    QCOMPARE(t.next(e), ChromeTraceTokenizer::Status::Event);
    QCOMPARE(t.next(e), ChromeTraceTokenizer::Status::NeedData);
    t.feed("\n\n   ");
    QCOMPARE(t.next(e), ChromeTraceTokenizer::Status::NeedData);
    t.feed("  x");
    QCOMPARE(t.next(e), ChromeTraceTokenizer::Status::End);
    QCOMPARE(t.trailingOffset(), int64_t(35 + 5 + 2));
    QVERIFY(!t.trailingIsValue());
    QCOMPARE(t.next(e), ChromeTraceTokenizer::Status::End);  // stays ended
    QVERIFY(t.error().empty());
}

void TstChromeSuspectJson::unknownPhasesAreWarnedOncePerPhase() {
    const std::string text = R"([
  {"ph": "X", "name": "kept", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
  {"ph": "XX", "name": "double", "pid": 1, "tid": 1, "ts": 2, "dur": 2},
  {"ph": "XX", "name": "double2", "pid": 1, "tid": 1, "ts": 3, "dur": 2},
  {"ph": "Q", "name": "q", "pid": 1, "tid": 1, "ts": 4},
  {"ph": "XX", "name": "double3", "pid": 1, "tid": 1, "ts": 5, "dur": 2},
  {"ph": "O", "name": "snapshot", "pid": 1, "tid": 1, "ts": 6, "id": "0x1"}])";
    const QString xxAt = QString::number(text.find(R"({"ph": "XX")"));
    const QString qAt = QString::number(text.find(R"({"ph": "Q")"));
    const auto r = importText(text, "phases.json");
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    // "XX" is not 'X': only the real complete event becomes a slice.
    QCOMPARE(rows(r, "SELECT name FROM v_slice"), QStringList({"kept"}));
    QCOMPARE(warnings(r), QStringList({"byte " + qAt + ": unknown_phase", "byte " + xxAt + ": unknown_phase"}));
    // A phase the format has but Stepscope does not show stays an info row.
    QCOMPARE(rows(r, "SELECT severity, code FROM import_log WHERE severity = 'info'"), QStringList({"info|ignored_phase"}));
}

void TstChromeSuspectJson::outOfRangeStepNumbersStaySlices() {
    const std::string text = R"([
  {"ph": "X", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
  {"ph": "X", "name": "ProfilerStep#-2", "pid": 1, "tid": 1, "ts": 10, "dur": 10},
  {"ph": "X", "name": "ProfilerStep#99999999999999999999", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
  {"ph": "X", "name": "ProfilerStep#2147483648", "pid": 1, "tid": 1, "ts": 30, "dur": 10},
  {"ph": "X", "name": "ProfilerStep#1e3", "pid": 1, "tid": 1, "ts": 40, "dur": 10},
  {"ph": "X", "name": "ProfilerStep#2147483647", "pid": 1, "tid": 1, "ts": 50, "dur": 10}])";
    const QString at = QString::number(text.find(R"({"ph": "X", "name": "ProfilerStep#-2")"));
    const auto r = importText(text, "steps.json");
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(rows(r, "SELECT count(*) FROM v_slice"), QStringList({"6"}));  // every slice kept
    QCOMPARE(rows(r, "SELECT step, start_ns FROM v_step ORDER BY step"), QStringList({"1|0", "2147483647|50000"}));
    QCOMPARE(warnings(r), QStringList({"byte " + at + ": bad_step_number"}));
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TstChromeSuspectJson)
#include "tst_chrome_suspect_json.moc"
