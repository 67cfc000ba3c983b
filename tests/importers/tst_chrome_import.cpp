// Golden tests for ChromeTraceImporter: tiny traces written here are imported into a temporary
// session and the exact rows of v_slice, v_step, track, flow, counter_sample and import_log are
// checked, including the bad-input cases (truncated gzip, malformed JSON, unclosed and overlapping
// slices).

#include "importers/chrome/chrome_trace_importer.h"
#include "importers/common/byte_source.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <atomic>
#include <fstream>
#include <memory>

#include <zlib.h>

using namespace stepscope;
namespace fs = std::filesystem;

// moc trips over raw string literals: it only needs this declaration, so the fixtures below are
// hidden from it with Q_MOC_RUN.
class TstChromeImport : public QObject {
    Q_OBJECT
private slots:
    void sniffsByContent();
    void exactEpochTimestamps();
    void baseTimeNanosecondsIsTheEpoch();
    void smallTimestampsHaveNoEpoch();
    void stringPidsAndTids();
    void beginEndNestingAndUnclosed();
    void depthAndParentFromUnsortedEvents();
    void overlappingSlicesKeptOnOverflowRows();
    void kinetoTracksDevicesAndFlows();
    void rocmDeviceFromProcessLabels();
    void flowsVersion2();
    void countersAndInstants();
    void asyncEventsGetTheirOwnTracks();
    void profilerStepsBecomeSteps();
    void badValuesAreLoggedNotFatal();
    void gzipByContentNotName();
    void bareArrayWithoutClosingBracket();
    void truncatedGzipIsPartial();
    void malformedJsonIsPartial();
    void notAChromeTraceFails();
    void cancelFails();
};

#ifndef Q_MOC_RUN
namespace {

using Imported = test::ImportedFile;

QTemporaryDir &fixtureDir() {
    static QTemporaryDir dir;
    return dir;
}

fs::path writeFixture(const std::string &name, const std::string &text, bool gzip = false) {
    const fs::path path = fs::path(fixtureDir().path().toStdString()) / name;
    if (gzip) {
        gzFile f = gzopen(path.string().c_str(), "wb");
        gzwrite(f, text.data(), unsigned(text.size()));
        gzclose(f);
    } else {
        std::ofstream(path, std::ios::binary) << text;
    }
    return path;
}

Imported runImport(const fs::path &file, const CancelToken &cancel = {}) {
    ChromeTraceImporter imp;
    return test::importFile(imp, file, cancel);
}

Imported importText(const std::string &text, const std::string &name = "t.json") {
    return runImport(writeFixture(name, text));
}

QStringList rows(const Imported &imp, const std::string &sql) { return test::queryRows(*imp.store, sql, test::Floats::Rounded12); }
int64_t count(const Imported &imp, const std::string &sql) { return test::queryInt(*imp.store, sql); }
QString logText(const Imported &imp) { return test::importLog(*imp.store); }

const char *kSlices = "SELECT track_kind, device, track, name, start_ns, dur_ns, depth FROM v_slice ORDER BY start_ns, depth, name";

} // namespace

void TstChromeImport::sniffsByContent() {
    ChromeTraceImporter imp;
    QVERIFY(imp.sniff("x.bin", R"J({"traceEvents": [)J"));
    QVERIFY(imp.sniff("x", std::string("\n  {\"schemaVersion\": 1, \"deviceProperties\": [") + std::string(9000, ' ')));
    QVERIFY(imp.sniff("x", R"J([ {"name": "process_name", "ph": "M", "pid": 0})J"));
    QVERIFY(!imp.sniff("x.json", R"J([[1, 2], [3, 4]])J"));
    QVERIFY(!imp.sniff("x.json", R"J({"schema": "1.0", "nodes": [], "traceEvents": 0})J"));
    QVERIFY(!imp.sniff("x.json", R"J({"Type": "cpu", "Name": "cpu0", "Dimension": "CPUUtilization"})J"));
    QVERIFY(!imp.sniff("x.json", ""));
}

void TstChromeImport::exactEpochTimestamps() {
    const auto r = importText(R"J({"traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1102, "tid": 1102, "ts": 1712195495406752.8, "dur": 63.813},
        {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1102, "tid": 1102, "ts": 1712195495406852.797, "dur": 1}]})J");
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(r.result.events, 2);
    QCOMPARE(rows(r, "SELECT start_ns, dur_ns FROM v_slice ORDER BY start_ns"),
             QStringList({"1712195495406752800|63813", "1712195495406852797|1000"}));
    QCOMPARE(rows(r, "SELECT has_epoch, time_base_ns FROM run"), QStringList({"1|1712195495406752800"}));
    QCOMPARE(rows(r, "SELECT start_ns FROM slice ORDER BY start_ns"), QStringList({"0", "99997"}));
}

void TstChromeImport::baseTimeNanosecondsIsTheEpoch() {
    const auto r = importText(R"J({"traceEvents": [
        {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 2204338329591.049, "dur": 2}],
        "displayTimeUnit": "ms", "baseTimeNanoseconds": 1751410836000000000})J");
    QCOMPARE(rows(r, "SELECT has_epoch, time_base_ns FROM run"), QStringList({"1|1751410836000000000"}));
    QCOMPARE(rows(r, "SELECT start_ns, dur_ns FROM v_slice"), QStringList({"1753615174329591049|2000"}));
}

void TstChromeImport::smallTimestampsHaveNoEpoch() {
    const auto r = importText(R"J([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 5.5, "dur": 1}])J");
    QCOMPARE(rows(r, "SELECT has_epoch, time_base_ns FROM run"), QStringList({"0|0"}));
    QCOMPARE(rows(r, "SELECT start_ns FROM v_slice"), QStringList({"5500"}));
}

void TstChromeImport::stringPidsAndTids() {
    const auto r = importText(R"J({"traceEvents": [
        {"ph": "X", "cat": "Trace", "ts": 10, "dur": 100, "pid": "Spans", "tid": "PyTorch Profiler", "name": "PyTorch Profiler (0)"},
        {"name": "Iteration Start: PyTorch Profiler", "ph": "i", "s": "g", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 10},
        {"name": "Record Window End", "ph": "i", "s": "g", "pid": "", "tid": "", "ts": 110},
        {"ph": "X", "name": "op", "pid": 7, "tid": "", "ts": 20, "dur": 1},
        {"name": "process_sort_index", "ph": "M", "ts": 10, "pid": "Spans", "tid": 0, "args": {"sort_index": 536870912}}]})J");
    QCOMPARE(rows(r, kSlices), QStringList({"other|NULL|global instants|Iteration Start: PyTorch Profiler|10000|0|0",
                                            "other|NULL|PyTorch Profiler|PyTorch Profiler (0)|10000|100000|0",
                                            "host_thread|NULL|process 7|op|20000|1000|0",
                                            "other|NULL|global instants|Record Window End|110000|0|0"}));
    QCOMPARE(rows(r, "SELECT pid, tid, kind FROM track ORDER BY id"),
             QStringList({"Spans|PyTorch Profiler|other", "||other", "7||host_thread"}));
}

void TstChromeImport::beginEndNestingAndUnclosed() {
    const auto r = importText(R"J([
        {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 0},
        {"ph": "B", "name": "inner", "pid": 1, "tid": 1, "ts": 1, "args": {"k": 1}},
        {"ph": "E", "pid": 1, "tid": 1, "ts": 3},
        {"ph": "E", "pid": 1, "tid": 1, "ts": 10},
        {"ph": "E", "pid": 1, "tid": 1, "ts": 11},
        {"ph": "B", "name": "never ends", "pid": 1, "tid": 1, "ts": 12},
        {"ph": "X", "name": "last", "pid": 1, "tid": 2, "ts": 20, "dur": 5}])J");
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(rows(r, "SELECT name, start_ns, dur_ns, depth FROM v_slice WHERE track = 'thread 1' ORDER BY start_ns"),
             QStringList({"outer|0|10000|0", "inner|1000|2000|1", "never ends|12000|13000|0"}));
    QCOMPARE(rows(r, "SELECT s.args FROM slice s JOIN string n ON n.id = s.name_id WHERE n.text = 'inner'"),
             QStringList({R"J({"k": 1})J"}));
    const QString log = logText(r);
    QVERIFY2(log.contains("warning|unclosed_slice||"), qPrintable(log));
    QVERIFY2(log.contains("warning|unmatched_end|byte "), qPrintable(log));
}

void TstChromeImport::depthAndParentFromUnsortedEvents() {
    // Kineto writes children before their parents (completion order).
    const auto r = importText(R"J([
        {"ph": "X", "name": "c1", "pid": 1, "tid": 1, "ts": 2, "dur": 1},
        {"ph": "X", "name": "c2", "pid": 1, "tid": 1, "ts": 4, "dur": 2},
        {"ph": "X", "name": "gc", "pid": 1, "tid": 1, "ts": 4, "dur": 1},
        {"ph": "X", "name": "p", "pid": 1, "tid": 1, "ts": 1, "dur": 9},
        {"ph": "X", "name": "same-start-longer", "pid": 1, "tid": 1, "ts": 1, "dur": 10},
        {"ph": "X", "name": "after", "pid": 1, "tid": 1, "ts": 11, "dur": 0}])J");
    QCOMPARE(rows(r, "SELECT n.text, s.depth, COALESCE(pn.text, '-') FROM slice s JOIN string n ON n.id = s.name_id "
                     "LEFT JOIN slice p ON p.id = s.parent_id LEFT JOIN string pn ON pn.id = p.name_id "
                     "ORDER BY s.start_ns, s.depth"),
             QStringList({"same-start-longer|0|-", "p|1|same-start-longer", "c1|2|p", "c2|2|p", "gc|3|c2", "after|0|-"}));
    QCOMPARE(count(r, "SELECT COUNT(*) FROM import_log WHERE severity = 'warning'"), 0);
}

void TstChromeImport::overlappingSlicesKeptOnOverflowRows() {
    const auto r = importText(R"J([
        {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
        {"ph": "X", "name": "a-child", "pid": 1, "tid": 1, "ts": 1, "dur": 2},
        {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 10},
        {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 8, "dur": 10}])J");
    QCOMPARE(rows(r, "SELECT name, start_ns, depth FROM v_slice ORDER BY start_ns"),
             QStringList({"a|0|0", "a-child|1000|1", "b|5000|2", "c|8000|3"}));
    QCOMPARE(count(r, "SELECT COUNT(*) FROM slice"), 4);
    const QString log = logText(r);
    QVERIFY2(log.contains("warning|overlapping_slices||"), qPrintable(log));
}

void TstChromeImport::kinetoTracksDevicesAndFlows() {
    const auto r = importText(R"J({"schemaVersion": 1,
      "deviceProperties": [{"id": 0, "name": "Tesla V100-SXM2-32GB", "totalGlobalMem": 34079637504}],
      "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 4},
      "traceEvents": [
        {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 100, "dur": 50, "args": {"External id": 5}},
        {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 110, "dur": 10, "args": {"External id": 5, "correlation": 77}},
        {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 130, "dur": 40, "args": {"device": 0, "stream": 7, "correlation": 77, "grid": [1, 1, 1]}},
        {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 180, "dur": 5, "args": {"device": 0, "bytes": 4096, "correlation": 78}},
        {"ph": "s", "id": 77, "pid": 10, "tid": 11, "ts": 110, "cat": "ac2g", "name": "ac2g"},
        {"ph": "f", "id": 77, "pid": 0, "tid": 7, "ts": 130, "cat": "ac2g", "name": "ac2g", "bp": "e"},
        {"ph": "f", "id": 99, "pid": 0, "tid": 7, "ts": 180, "cat": "ac2g", "name": "ac2g", "bp": "e"},
        {"name": "process_name", "ph": "M", "ts": 1, "pid": 10, "tid": 0, "args": {"name": "python"}},
        {"name": "process_labels", "ph": "M", "ts": 1, "pid": 10, "tid": 0, "args": {"labels": "CPU"}},
        {"name": "process_labels", "ph": "M", "ts": 1, "pid": 0, "tid": 0, "args": {"labels": "GPU 0"}},
        {"name": "thread_name", "ph": "M", "ts": 1, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
        {"name": "thread_name", "ph": "M", "ts": 1, "pid": 10, "tid": 11, "args": {"name": "thread 11 (pt_main_thread)"}},
        {"name": "thread_name", "ph": "M", "ts": 1, "pid": 10, "tid": 11, "args": {"name": "thread 11 (pt_autograd_0)"}},
        {"name": "thread_sort_index", "ph": "M", "ts": 1, "pid": 10, "tid": 11, "args": {"sort_index": 11}}]})J");
    QCOMPARE(rows(r, "SELECT name, rank, framework, device, has_epoch FROM run"),
             QStringList({"rank 3|3|pytorch|Tesla V100-SXM2-32GB|0"}));
    QCOMPARE(rows(r, kSlices),
             QStringList({"host_thread|NULL|thread 11 (pt_autograd_0)|aten::mm|100000|50000|0",
                          "host_thread|NULL|thread 11 (pt_autograd_0)|cudaLaunchKernel|110000|10000|1",
                          "gpu_stream|0|stream 7|gemm|130000|40000|0",
                          "gpu_stream|0|stream 7|Memcpy HtoD (Pageable -> Device)|180000|5000|0"}));
    QCOMPARE(rows(r, "SELECT fn.text, tn.text, c.text FROM flow f JOIN slice a ON a.id = f.from_slice_id "
                     "JOIN slice b ON b.id = f.to_slice_id JOIN string fn ON fn.id = a.name_id "
                     "JOIN string tn ON tn.id = b.name_id JOIN string c ON c.id = f.category_id"),
             QStringList({"cudaLaunchKernel|gemm|ac2g"}));
    QCOMPARE(rows(r, "SELECT s.correlation FROM slice s JOIN string n ON n.id = s.name_id WHERE n.text = 'gemm'"),
             QStringList({"77"}));
    QCOMPARE(rows(r, "SELECT json_extract(args, '$.bytes') FROM slice WHERE args LIKE '%bytes%'"), QStringList({"4096"}));
    QVERIFY(logText(r).contains("info|unbound_flow||"));
}

void TstChromeImport::rocmDeviceFromProcessLabels() {
    const auto r = importText(R"J({"deviceProperties": [{"id": 0, "name": "AMD Instinct MI300X VF"}], "traceEvents": [
        {"ph": "X", "cat": "kernel", "name": "k", "pid": 2, "tid": 0, "ts": 1, "dur": 1, "args": {"device": 2}},
        {"name": "process_labels", "ph": "M", "ts": 0, "pid": 2, "tid": 0, "args": {"labels": "GPU 2"}},
        {"name": "thread_name", "ph": "M", "ts": 0, "pid": 2, "tid": 0, "args": {"name": "stream 0 "}}]})J");
    QCOMPARE(rows(r, "SELECT kind, device, name, pid, tid FROM track"), QStringList({"gpu_stream|2|stream 0|2|0"}));
    QCOMPARE(rows(r, "SELECT device FROM run"), QStringList({"AMD Instinct MI300X VF"}));
}

void TstChromeImport::flowsVersion2() {
    const auto r = importText(R"J({"traceEvents": [
        {"ph": "X", "name": "send", "pid": 1, "tid": 1, "ts": 0, "dur": 5, "bind_id": "0xa", "flow_out": true},
        {"ph": "X", "name": "relay", "pid": 1, "tid": 2, "ts": 6, "dur": 5, "bind_id": "0xa", "flow_in": true, "flow_out": true},
        {"ph": "X", "name": "recv", "pid": 2, "tid": 3, "ts": 12, "dur": 5, "bind_id": "0xa", "flow_in": true}]})J");
    QCOMPARE(rows(r, "SELECT fn.text, tn.text FROM flow f JOIN slice a ON a.id = f.from_slice_id "
                     "JOIN slice b ON b.id = f.to_slice_id JOIN string fn ON fn.id = a.name_id "
                     "JOIN string tn ON tn.id = b.name_id ORDER BY f.id"),
             QStringList({"send|relay", "relay|recv"}));
}

void TstChromeImport::countersAndInstants() {
    const auto r = importText(R"J([
        {"name": "ctr", "ph": "C", "pid": 1, "ts": 10, "args": {"cats": 0, "dogs": 7}},
        {"name": "ctr", "ph": "C", "pid": 1, "ts": 20, "args": {"cats": 10, "dogs": "4"}},
        {"name": "mem", "ph": "C", "pid": 1, "ts": 20, "args": {"value": 1.5}},
        {"name": "bad", "ph": "C", "pid": 1, "ts": 30, "args": {"value": "NaN"}},
        {"name": "mark", "ph": "i", "pid": 1, "tid": 2, "ts": 15, "s": "t"},
        {"name": "pmark", "ph": "I", "pid": 1, "tid": 2, "ts": 16, "s": "p"}])J");
    QCOMPARE(rows(r, "SELECT t.name, c.t_ns, c.value FROM counter_sample c JOIN track t ON t.id = c.track_id "
                     "WHERE t.kind = 'counter' ORDER BY t.name, c.t_ns"),
             QStringList({"ctr cats|10000|0", "ctr cats|20000|10", "ctr dogs|10000|7", "ctr dogs|20000|4", "mem|20000|1.5"}));
    QCOMPARE(rows(r, kSlices), QStringList({"host_thread|NULL|thread 2|mark|15000|0|0",
                                            "other|NULL|process 1 instants|pmark|16000|0|0"}));
    QCOMPARE(r.result.events, 7);
    QVERIFY(logText(r).contains("warning|bad_counter_value|byte "));
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
}

void TstChromeImport::asyncEventsGetTheirOwnTracks() {
    const auto r = importText(R"J({"traceEvents": [
        {"cat": "bar", "pid": 5, "tid": 6, "ts": 10, "ph": "b", "name": "REQUEST", "id": "0x313"},
        {"cat": "bar", "pid": 5, "tid": 6, "ts": 20, "ph": "b", "name": "DELEGATE", "id": "0x313"},
        {"cat": "bar", "pid": 5, "tid": 6, "ts": 25, "ph": "n", "name": "note", "id": "0x313"},
        {"cat": "bar", "pid": 5, "tid": 6, "ts": 30, "ph": "e", "name": "DELEGATE", "id": "0x313"},
        {"cat": "bar", "pid": 5, "tid": 6, "ts": 40, "ph": "e", "name": "REQUEST", "id": "0x313"},
        {"cat": "bar", "pid": 5, "tid": 6, "ts": 15, "ph": "b", "name": "OTHER", "id": "0x314"},
        {"cat": "bar", "pid": 5, "tid": 6, "ts": 35, "ph": "e", "name": "OTHER", "id": "0x314"}]})J");
    QCOMPARE(rows(r, "SELECT track, name, start_ns, dur_ns, depth FROM v_slice WHERE track_kind = 'other' ORDER BY track, start_ns"),
             QStringList({"OTHER|OTHER|15000|20000|0", "REQUEST|REQUEST|10000|30000|0",
                          "REQUEST|DELEGATE|20000|10000|1", "REQUEST|note|25000|0|2"}));
}

void TstChromeImport::profilerStepsBecomeSteps() {
    const auto r = importText(R"J({"traceEvents": [
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#5", "pid": 1, "tid": 1, "ts": 1712195495000000, "dur": 100},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#6", "pid": 1, "tid": 1, "ts": 1712195495000100, "dur": 120.5},
        {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#5", "pid": 0, "tid": 7, "ts": 1712195495000050, "dur": 200},
        {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#x", "pid": 1, "tid": 1, "ts": 1712195495000300, "dur": 1}]})J");
    QCOMPARE(rows(r, "SELECT step, start_ns, dur_ns FROM v_step ORDER BY step"),
             QStringList({"5|1712195495000000000|100000", "6|1712195495000100000|120500"}));
}

void TstChromeImport::badValuesAreLoggedNotFatal() {
    const std::string text = R"J([
        {"ph": "X", "name": "neg", "pid": 1, "tid": 1, "ts": 10, "dur": -5},
        {"ph": "X", "name": "nots", "pid": 1, "tid": 1, "ts": "soon", "dur": 1},
        {"ph": "X", "name": "nodur", "pid": 1, "tid": 1, "ts": 20},
        {"ph": "B", "name": "backwards", "pid": 1, "tid": 2, "ts": 30},
        {"ph": "E", "pid": 1, "tid": 2, "ts": 25},
        {"ph": "O", "name": "snapshot", "pid": 1, "tid": 1, "ts": 1, "id": "0x1"}])J";
    const auto r = importText(text);
    // The event without a time is lost, so the source is partial; the clamped ones are kept.
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
    QVERIFY2(QString::fromStdString(r.result.message).endsWith("partly read: 1 events skipped (see the import log)"),
             r.result.message.c_str());
    QCOMPARE(rows(r, "SELECT name, start_ns, dur_ns FROM v_slice ORDER BY start_ns"),
             QStringList({"neg|10000|0", "nodur|20000|0", "backwards|30000|0"}));
    const QString log = logText(r);
    const QString negAt = QString::number(text.find("{\"ph\": \"X\", \"name\": \"neg\""));
    QVERIFY2(log.contains("warning|negative_duration|byte " + negAt + "|"), qPrintable(log));
    QVERIFY2(log.contains("warning|bad_timestamp|byte "), qPrintable(log));
    QVERIFY2(log.contains("warning|end_before_begin|byte "), qPrintable(log));
    QVERIFY2(log.contains("info|ignored_phase|byte "), qPrintable(log));
}

void TstChromeImport::gzipByContentNotName() {
    const auto path = writeFixture("simple_trace_gz", R"J([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])J", true);
    ChromeTraceImporter imp;
    QVERIFY(imp.sniff(path, ByteSource::peek(path, 8192)));
    const auto r = runImport(path);
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(rows(r, "SELECT name, start_ns FROM v_slice"), QStringList({"a|1000"}));
    QCOMPARE(rows(r, "SELECT name FROM run"), QStringList({"simple_trace_gz"}));
}

void TstChromeImport::bareArrayWithoutClosingBracket() {
    const std::string text = "[{\"ph\": \"X\", \"name\": \"a\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},\n";
    const auto r = importText(text);
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(count(r, "SELECT COUNT(*) FROM v_slice"), 1);
    QVERIFY2(logText(r).contains(QString("info|missing_bracket|byte %1|").arg(text.size())), qPrintable(logText(r)));
}

void TstChromeImport::truncatedGzipIsPartial() {
    std::string text = "{\"traceEvents\": [\n";
    for (int i = 0; i < 20000; ++i)
        text += "{\"ph\": \"X\", \"name\": \"op" + std::to_string(i % 97) + "\", \"pid\": 1, \"tid\": 1, \"ts\": " +
                std::to_string(i * 10) + ", \"dur\": 5, \"args\": {\"i\": " + std::to_string(i * 7919 % 10007) + "}},\n";
    text += "{}]}";
    const auto full = writeFixture("full.json.gz", text, true);
    std::string bytes;
    {
        std::ifstream in(full, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto cut = writeFixture("cut.json.gz", bytes.substr(0, bytes.size() / 2));
    const auto r = runImport(cut);
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
    const int64_t n = count(r, "SELECT COUNT(*) FROM slice");
    QVERIFY2(n > 1000 && n < 20000, qPrintable(QString::number(n)));
    QVERIFY2(QString::fromStdString(r.result.message).contains("truncated gzip"), r.result.message.c_str());
    QVERIFY2(QString::fromStdString(r.result.message).contains("cut.json.gz"), r.result.message.c_str());
    const QString log = logText(r);
    QVERIFY2(log.contains(QRegularExpression("error\\|truncated_gzip\\|byte \\d+ \\(compressed byte \\d+\\)\\|")), qPrintable(log));
    QCOMPARE(rows(r, "SELECT status FROM source"), QStringList({"partial"}));
}

void TstChromeImport::malformedJsonIsPartial() {
    const std::string text = R"J({"traceEvents": [
        {"ph": "X", "name": "kept", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
        {"ph": "X", "name": "broken" "pid": 1}]})J";
    const auto r = importText(text, "bad.json");
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
    QCOMPARE(rows(r, "SELECT name FROM v_slice"), QStringList({"kept"}));
    const QString at = QString::number(text.find(" \"pid\": 1}]") + 1);
    QVERIFY2(QString::fromStdString(r.result.message).contains("malformed JSON at byte " + at), r.result.message.c_str());
    QVERIFY2(logText(r).contains("error|malformed_json|byte " + at + "|"), qPrintable(logText(r)));
}

void TstChromeImport::notAChromeTraceFails() {
    const auto r = importText(R"J({"Type": "cpu", "Name": "cpu0", "Value": 5})J");
    QCOMPARE(int(r.result.status), int(SourceStatus::Failed));
    const auto empty = importText("", "empty.json");
    QCOMPARE(int(empty.result.status), int(SourceStatus::Failed));
    QVERIFY(QString::fromStdString(empty.result.message).contains("empty input"));
}

void TstChromeImport::cancelFails() {
    const CancelToken cancel;
    cancel.cancel();
    const auto r = runImport(writeFixture("c.json", R"J([{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])J"), cancel);
    QCOMPARE(int(r.result.status), int(SourceStatus::Failed));
    QVERIFY(QString::fromStdString(r.result.message).contains("cancelled"));
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TstChromeImport)
#include "tst_chrome_import.moc"
