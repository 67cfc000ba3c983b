// Golden tests for XPlaneImporter: XSpace messages are built here with the generated classes of our
// own xplane.proto, serialized, imported into a temporary session, and the exact rows of v_slice,
// v_step, flow, run and import_log are checked — including ps→ns rounding far from zero, aggregated
// events, ref_value stats, derived device lines, unknown fields, and malformed bytes.

#include "importers/xplane/xplane.pb.h"
#include "importers/xplane/xplane_importer.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <fstream>
#include <memory>

using namespace stepscope;
using namespace stepscope::xplane_wire;
namespace fs = std::filesystem;

class TstXPlaneImport : public QObject {
    Q_OBJECT
private slots:
    void sniffs();
    void hostAndDeviceLinesWithStepsAndFlows();
    void statsResolvedWithRefValueAndMetadataStats();
    void epochTimestampsWithoutTaskEnvironment();
    void picosecondsFarFromZeroStayExact();
    void timesBeyondTheLimitAreDropped();
    void unknownFieldsAreSkipped();
    void truncatedFileKeepsWhatParsed();
    void garbageIsAClearError();
    void absurdLengthIsBounded();
};

// moc trips over raw string literals: the fixtures and test bodies are hidden from it.
#ifndef Q_MOC_RUN
namespace {

using Imported = test::ImportedFile;

QTemporaryDir &fixtureDir() {
    static QTemporaryDir dir;
    return dir;
}

fs::path writeBytes(const std::string &rel, const std::string &bytes) {
    const fs::path path = fs::path(fixtureDir().path().toStdString()) / rel;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

Imported importBytes(const std::string &bytes, const std::string &rel = "plugins/profile/2024_01_02_03_04_05/h1.xplane.pb") {
    const fs::path file = writeBytes(rel, bytes);
    XPlaneImporter imp;
    return test::importFile(imp, file);
}

QStringList rows(const Imported &imp, const std::string &sql) { return test::queryRows(*imp.store, sql); }
QString logText(const Imported &imp) { return test::importLog(*imp.store); }

// Small builders over the generated messages.
void statName(XPlane &p, int64_t id, const std::string &name) {
    XStatMetadata &m = (*p.mutable_stat_metadata())[id];
    m.set_id(id);
    m.set_name(name);
}
void eventName(XPlane &p, int64_t id, const std::string &name, const std::string &display = {}) {
    XEventMetadata &m = (*p.mutable_event_metadata())[id];
    m.set_id(id);
    m.set_name(name);
    m.set_display_name(display);
}
XEvent &addEvent(XLine &l, int64_t meta, int64_t offPs, int64_t durPs) {
    XEvent &e = *l.add_events();
    e.set_metadata_id(meta);
    e.set_offset_ps(offPs);
    e.set_duration_ps(durPs);
    return e;
}
void intStat(google::protobuf::RepeatedPtrField<XStat> &stats, int64_t meta, int64_t v) {
    XStat &s = *stats.Add();
    s.set_metadata_id(meta);
    s.set_int64_value(v);
}
XLine &line(XPlane &p, int64_t id, const std::string &name, int64_t tsNs) {
    XLine &l = *p.add_lines();
    l.set_id(id);
    l.set_name(name);
    l.set_timestamp_ns(tsNs);
    return l;
}
void taskEnvironment(XSpace &space, int64_t startNs) {
    XPlane &env = *space.add_planes();
    env.set_name("Task Environment");
    statName(env, 1, "profile_start_time");
    XStat &s = *env.add_stats();
    s.set_metadata_id(1);
    s.set_uint64_value(uint64_t(startNs));
}

constexpr int64_t kStart = 1'700'000'000'000'000'000;

// A host thread with a step root (step_num), a launch (correlation_id) nested in an op, an
// aggregated event; a GPU plane with a kernel on a stream, an "XLA Ops" copy and a "Steps" line.
XSpace trainingSpace() {
    XSpace space;
    space.add_hostnames("worker-0");
    XPlane &host = *space.add_planes();
    host.set_id(1);
    host.set_name("/host:CPU");
    statName(host, 1, "step_num");
    statName(host, 2, "correlation_id");
    statName(host, 3, "_r");
    eventName(host, 1, "train_step");
    eventName(host, 2, "MatMul", "matmul:MatMul");
    eventName(host, 3, "cudaLaunchKernel");
    eventName(host, 4, "ThreadPool");
    XLine &py = line(host, 100, "python", 1000);
    XEvent &step = addEvent(py, 1, 0, 50'000'000);  // 50 µs from 1 µs
    intStat(*step.mutable_stats(), 1, 7);
    intStat(*step.mutable_stats(), 3, 1);
    addEvent(py, 2, 2'000'000, 10'000'000);
    // 3000.5 ns → 3000; its end 4999.5 ns → 4999: both ends floor, so the duration is 1999 ns.
    intStat(*addEvent(py, 3, 3'000'500, 1'999'000).mutable_stats(), 2, 42);
    XEvent &agg = *py.add_events();
    agg.set_metadata_id(4);
    agg.set_num_occurrences(12);

    XPlane &gpu = *space.add_planes();
    gpu.set_id(2);
    gpu.set_name("/device:GPU:1");
    statName(gpu, 1, "correlation_id");
    statName(gpu, 2, "device_vendor");
    statName(gpu, 3, "core_count");
    eventName(gpu, 1, "gemm_kernel");
    eventName(gpu, 2, "7");
    XStat &vendor = *gpu.add_stats();
    vendor.set_metadata_id(2);
    vendor.set_str_value("Nvidia");
    intStat(*gpu.mutable_stats(), 3, 132);
    intStat(*addEvent(line(gpu, 7, "Stream #7(Kernel)", 10'000), 1, 0, 4'000'000).mutable_stats(), 1, 42);
    addEvent(line(gpu, 1000, "XLA Ops", 10'000), 1, 0, 4'000'000);
    addEvent(line(gpu, 1001, "Steps", 1000), 2, 0, 60'000'000);
    taskEnvironment(space, kStart);
    return space;
}

const char *kSlices = "SELECT track_kind, device, track, name, start_ns, dur_ns, depth FROM v_slice ORDER BY track_kind, track, start_ns";

} // namespace

void TstXPlaneImport::sniffs() {
    XPlaneImporter imp;
    const std::string bytes = trainingSpace().SerializeAsString();
    QVERIFY(imp.sniff("h.xplane.pb", bytes.substr(0, 64)));
    QVERIFY(imp.sniff("renamed.bin", bytes.substr(0, 64)));  // by content: plane id, then "/host:CPU"
    QVERIFY(!imp.sniff("x.overview_page.pb", std::string("\x0a\x05hello", 7)));
    QVERIFY(!imp.sniff("h.xplane.pb", "{\"traceEvents\": []}"));
}

void TstXPlaneImport::hostAndDeviceLinesWithStepsAndFlows() {
    const auto r = importBytes(trainingSpace().SerializeAsString());
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(r.result.events, 6);
    const QString s = QString::number(kStart);
    auto at = [&](int64_t ns) { return QString::number(kStart + ns); };
    QCOMPARE(rows(r, kSlices),
             QStringList({"gpu_stream|1|Stream #7(Kernel)|gemm_kernel|" + at(10'000) + "|4000|0",
                          "host_thread|NULL|python|train_step|" + at(1000) + "|50000|0",
                          "host_thread|NULL|python|matmul:MatMul|" + at(3000) + "|10000|1",
                          "host_thread|NULL|python|cudaLaunchKernel|" + at(4000) + "|1999|2",
                          "other|NULL|Steps (GPU 1)|7|" + at(1000) + "|60000|0",
                          "other|NULL|XLA Ops (GPU 1)|gemm_kernel|" + at(10'000) + "|4000|0"}));
    // Host step markers win over the device "Steps" line.
    QCOMPARE(rows(r, "SELECT run, step, start_ns, dur_ns FROM v_step"),
             QStringList({"2024_01_02_03_04_05/h1|7|" + at(1000) + "|50000"}));
    QCOMPARE(rows(r, "SELECT n1.text, n2.text FROM flow f JOIN slice a ON a.id = f.from_slice_id "
                     "JOIN slice b ON b.id = f.to_slice_id JOIN string n1 ON n1.id = a.name_id "
                     "JOIN string n2 ON n2.id = b.name_id"),
             QStringList({"cudaLaunchKernel|gemm_kernel"}));
    QCOMPARE(rows(r, "SELECT name, host, framework, device, time_base_ns, has_epoch FROM run"),
             QStringList({"2024_01_02_03_04_05/h1|worker-0||Nvidia GPU (132 cores)|" + s + "|1"}));
    QCOMPARE(rows(r, "SELECT c.text, s.correlation FROM slice s JOIN string c ON c.id = s.category_id ORDER BY c.text"),
             QStringList({"cuda_runtime|42", "kernel|42"}));
    const QString log = logText(r);
    QVERIFY2(log.contains("info|aggregated_events||"),
             qPrintable(log));
    // The plane's stats are data kept whole in the row, not words: the JSON is checked.
    QVERIFY2(log.contains("info|plane_stats||") && log.contains("{\"device_vendor\":\"Nvidia\",\"core_count\":132}"),
             qPrintable(log));
    QVERIFY2(log.contains("info|step_source||"), qPrintable(log));
}

void TstXPlaneImport::statsResolvedWithRefValueAndMetadataStats() {
    XSpace space;
    XPlane &gpu = *space.add_planes();
    gpu.set_name("/device:GPU:0");
    statName(gpu, 1, "kernel_details");
    statName(gpu, 2, " grid:1024,1,1 block:256,1,1");
    statName(gpu, 3, "flops");
    statName(gpu, 4, "hlo_op");
    eventName(gpu, 1, "fusion.1");
    XStat &meta = *(*gpu.mutable_event_metadata())[1].add_stats();  // applies to every fusion.1
    meta.set_metadata_id(4);
    meta.set_str_value("fusion \"1\"");
    XEvent &e = addEvent(line(gpu, 3, "Stream #3", 0), 1, 0, 1000);
    XStat &ref = *e.add_stats();
    ref.set_metadata_id(1);
    ref.set_ref_value(2);
    XStat &flops = *e.add_stats();
    flops.set_metadata_id(3);
    flops.set_double_value(1.5);
    const auto r = importBytes(space.SerializeAsString(), "k.xplane.pb");
    QCOMPARE(rows(r, "SELECT args FROM slice"),
             QStringList({R"J({"hlo_op":"fusion \"1\"","kernel_details":" grid:1024,1,1 block:256,1,1","flops":1.5})J"}));
    QCOMPARE(rows(r, "SELECT name, has_epoch FROM run"), QStringList({"k|0"}));
    QVERIFY(logText(r).contains("info|relative_times||"));
}

void TstXPlaneImport::epochTimestampsWithoutTaskEnvironment() {
    XSpace space;
    XPlane &host = *space.add_planes();
    host.set_name("/host:CPU");
    eventName(host, 1, "a");
    addEvent(line(host, 1, "tf_Compute", kStart + 5), 1, 1500, 1000);
    addEvent(line(host, 2, "tf_data_iterator_get_next", kStart + 2), 1, 0, 0);
    const auto r = importBytes(space.SerializeAsString(), "e.xplane.pb");
    QCOMPARE(rows(r, "SELECT time_base_ns, has_epoch, framework FROM run"),
             QStringList({QString::number(kStart + 2) + "|1|tensorflow"}));
    QCOMPARE(rows(r, "SELECT track, start_ns, dur_ns FROM v_slice ORDER BY start_ns"),
             QStringList({"tf_data_iterator_get_next|" + QString::number(kStart + 2) + "|0",
                          "tf_Compute|" + QString::number(kStart + 6) + "|1"}));
}

void TstXPlaneImport::picosecondsFarFromZeroStayExact() {
    XSpace space;
    XPlane &host = *space.add_planes();
    host.set_name("/host:CPU");
    eventName(host, 1, "late");
    eventName(host, 2, "huge");
    XLine &l = line(host, 1, "t", 100);
    // 9e18 ps = 9e15 ns (~104 days) after the line start; 999 ps remainder + 2 ps duration crosses a ns.
    addEvent(l, 1, int64_t(9'000'000'000'000'000'999), 2);
    addEvent(l, 2, 0, INT64_MAX);  // ~106 days: still representable in ns
    taskEnvironment(space, kStart);
    const auto r = importBytes(space.SerializeAsString(), "p.xplane.pb");
    QCOMPARE(rows(r, "SELECT name, start_ns - " + std::to_string(kStart) + ", dur_ns FROM v_slice ORDER BY name"),
             QStringList({"huge|100|9223372036854775", "late|9000000000000100|1"}));
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
}

// A line stamped 9.2e18 ns (issue #36: times near the int64 limit): its events are dropped and
// counted, it does not become the run's time base, and the other lines keep their times.
void TstXPlaneImport::timesBeyondTheLimitAreDropped() {
    XSpace space;
    XPlane &host = *space.add_planes();
    host.set_name("/host:CPU");
    eventName(host, 1, "ok");
    eventName(host, 2, "far");
    addEvent(line(host, 1, "t", kStart), 1, 1000, 1000);
    addEvent(line(host, 2, "u", int64_t(9'200'000'000'000'000'000)), 2, 0, 1000);
    const auto r = importBytes(space.SerializeAsString(), "far.xplane.pb");
    QCOMPARE(rows(r, "SELECT name, start_ns, typeof(start_ns) FROM v_slice"), QStringList({"ok|" + QString::number(kStart + 1) + "|integer"}));
    QCOMPARE(rows(r, "SELECT time_base_ns FROM run"), QStringList({QString::number(kStart)}));
    QVERIFY2(logText(r).contains("warning|time_out_of_range||"), qPrintable(logText(r)));
}

void TstXPlaneImport::unknownFieldsAreSkipped() {
    std::string bytes = trainingSpace().SerializeAsString();
    // Field 99 (varint) and field 100 (length-delimited) at the top level, as a newer writer might add.
    bytes += std::string("\x98\x06\x05", 3) + std::string("\xa2\x06\x03xyz", 6);
    const auto r = importBytes(bytes);
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(r.result.events, 6);
}

void TstXPlaneImport::truncatedFileKeepsWhatParsed() {
    XSpace space = trainingSpace();
    // The host plane first (complete), then the GPU plane cut in the middle.
    const std::string bytes = space.SerializeAsString();
    const std::string cut = bytes.substr(0, bytes.size() - 40);
    const auto r = importBytes(cut, "t.xplane.pb");
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
    QCOMPARE(rows(r, "SELECT count(*) FROM v_slice WHERE track = 'python'"), QStringList({"3"}));
    const QString log = logText(r);
    QVERIFY2(log.contains("error|malformed_protobuf|byte "), qPrintable(log));
    QVERIFY(QString::fromStdString(r.result.message).contains("t.xplane.pb"));
}

void TstXPlaneImport::garbageIsAClearError() {
    // The UTF-8-mangled shape of the corpus sample: EF BF BD replaces bytes, wire type 7 appears.
    const std::string bytes = std::string("\x0a\x06\x08\x02\x12\x02/d\x0f\xff\xff", 11);
    const auto r = importBytes(bytes, "g.xplane.pb");
    QCOMPARE(int(r.result.status), int(SourceStatus::Failed));
    QCOMPARE(rows(r, "SELECT count(*) FROM run"), QStringList({"0"}));
    QCOMPARE(rows(r, "SELECT severity, code, position FROM import_log"), QStringList({"error|malformed_protobuf|byte 8"}));
}

void TstXPlaneImport::absurdLengthIsBounded() {
    // A plane claiming 2^62 bytes: rejected at once, nothing allocated for it.
    std::string bytes("\x0a", 1);
    for (int i = 0; i < 8; ++i)
        bytes.push_back('\xff');
    bytes.push_back('\x3f');
    bytes += "rest";
    const auto r = importBytes(bytes, "a.xplane.pb");
    QCOMPARE(int(r.result.status), int(SourceStatus::Failed));
    QVERIFY2(logText(r).contains("error|malformed_protobuf|byte 0|"), qPrintable(logText(r)));
    QVERIFY(QString::fromStdString(r.result.message).contains("byte 0"));
}

#endif // Q_MOC_RUN

QTEST_GUILESS_MAIN(TstXPlaneImport)
#include "tst_xplane_import.moc"
