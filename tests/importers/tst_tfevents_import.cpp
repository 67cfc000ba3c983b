// Golden tests for TfEventsImporter and TfRecordTokenizer: TensorBoard event files are framed here
// byte by byte (TFRecord + masked CRC-32C, Event/Summary/Value protobuf fields), imported into a
// temporary session, and the exact v_metric and import_log rows are checked: simple_value scalars,
// TF2 tensor scalars (metadata only on a tag's first value), skipped non-scalars, a record with a
// bad CRC (warning, rest kept), a cut-short last record and a broken length.

#include "importers/tfevents/tfevents_importer.h"
#include "importers/tfevents/tfrecord_tokenizer.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <cstring>
#include <fstream>
#include <memory>

using namespace stepscope;
namespace fs = std::filesystem;

class TstTfEventsImport : public QObject {
    Q_OBJECT
private slots:
    void crc32cKnownAnswer();
    void sniffsByContent();
    void simpleValuesBecomeSeries();
    void tensorScalarsAndSkippedValues();
    void badPayloadCrcIsSkippedRestKept();
    void truncatedLastRecordEndsQuietly();
    void badLengthCrcStops();
};

namespace {

// Protobuf field writers.
void varint(std::string &o, uint64_t v) {
    while (v >= 0x80) {
        o.push_back(char(v | 0x80));
        v >>= 7;
    }
    o.push_back(char(v));
}
void tag(std::string &o, int field, int type) { varint(o, uint64_t(field) << 3 | uint64_t(type)); }
void bytesField(std::string &o, int field, const std::string &b) {
    tag(o, field, 2);
    varint(o, b.size());
    o += b;
}
void fixed64(std::string &o, int field, double d) {
    tag(o, field, 1);
    char b[8];
    std::memcpy(b, &d, 8);
    o.append(b, 8);
}
void fixed32(std::string &o, int field, float f) {
    tag(o, field, 5);
    char b[4];
    std::memcpy(b, &f, 4);
    o.append(b, 4);
}

std::string simpleValue(const std::string &tagName, float v) {
    std::string o;
    bytesField(o, 1, tagName);
    fixed32(o, 2, v);
    return o;
}
std::string eventRecord(double wall, int64_t step, const std::vector<std::string> &values) {
    std::string o, summary;
    fixed64(o, 1, wall);
    tag(o, 2, 0);
    varint(o, uint64_t(step));
    for (const std::string &v : values)
        bytesField(summary, 1, v);
    bytesField(o, 5, summary);
    return o;
}
std::string fileVersion(double wall) {
    std::string o;
    fixed64(o, 1, wall);
    bytesField(o, 3, "brain.Event:2");
    return o;
}
std::string record(const std::string &payload) {
    std::string o(8, '\0');
    const uint64_t n = payload.size();
    std::memcpy(o.data(), &n, 8);
    const uint32_t lc = TfRecordTokenizer::masked(TfRecordTokenizer::crc32c(o.data(), 8));
    o.append(reinterpret_cast<const char *>(&lc), 4);
    o += payload;
    const uint32_t pc = TfRecordTokenizer::masked(TfRecordTokenizer::crc32c(payload.data(), payload.size()));
    o.append(reinterpret_cast<const char *>(&pc), 4);
    return o;
}

using Imported = test::ImportedFile;

Imported importBytes(const std::string &bytes) {
    QTemporaryDir input;  // the events file; the session lives in its own folder
    const fs::path file = fs::path(input.path().toStdString()) / "run_a" / "events.out.tfevents.1.host";
    fs::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << bytes;
    TfEventsImporter imp;
    return test::importFile(imp, file);
}

QStringList rows(const Imported &imp, const std::string &sql) { return test::queryRows(*imp.store, sql); }
QString logText(const Imported &imp) { return test::importLog(*imp.store); }

const char *kMetrics = "SELECT run, series, device, t_ns, value FROM v_metric ORDER BY series, t_ns";

std::string threeEvents() {
    return record(fileVersion(1700000000.0)) +
           record(eventRecord(1700000001.25, 1, {simpleValue("loss", 2.5f), simpleValue("lr", 0.125f)})) +
           record(eventRecord(1700000002.5, 2, {simpleValue("loss", 1.5f)})) +
           record(eventRecord(1700000003.75, 3, {simpleValue("loss", 0.5f)}));
}

} // namespace

void TstTfEventsImport::crc32cKnownAnswer() {
    QCOMPARE(TfRecordTokenizer::crc32c("123456789", 9), 0xE3069283u);  // the CRC-32C check value
    QCOMPARE(TfRecordTokenizer::masked(0), 0xA282EAD8u);
}

void TstTfEventsImport::sniffsByContent() {
    TfEventsImporter imp;
    const std::string bytes = threeEvents();
    QVERIFY(imp.sniff("anything.bin", bytes.substr(0, 64)));
    std::string broken = bytes.substr(0, 64);
    broken[8] ^= 1;  // length CRC no longer verifies
    QVERIFY(!imp.sniff("events.out.tfevents.1.h", broken));
    QVERIFY(!imp.sniff("x", "timestamp, index\n"));
}

void TstTfEventsImport::simpleValuesBecomeSeries() {
    const auto r = importBytes(threeEvents());
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(r.result.events, 4);
    QCOMPARE(rows(r, kMetrics), QStringList({"run_a|loss|NULL|1700000001250000000|2.5",
                                             "run_a|loss|NULL|1700000002500000000|1.5",
                                             "run_a|loss|NULL|1700000003750000000|0.5",
                                             "run_a|lr|NULL|1700000001250000000|0.125"}));
    QCOMPARE(logText(r), QString());
}

void TstTfEventsImport::tensorScalarsAndSkippedValues() {
    // First value of "acc": metadata (plugin "scalars") + float_val; later values: tensor_content only.
    std::string meta, pluginData, tensor1, tensor2, v1, v2, hist, custom, customMeta, customPlugin;
    bytesField(pluginData, 1, "scalars");
    bytesField(meta, 1, pluginData);
    tag(tensor1, 1, 0);
    varint(tensor1, 1);  // DT_FLOAT
    fixed32(tensor1, 5, 0.75f);
    bytesField(v1, 1, "acc");
    bytesField(v1, 9, meta);
    bytesField(v1, 8, tensor1);
    tag(tensor2, 1, 0);
    varint(tensor2, 2);  // DT_DOUBLE in tensor_content
    const double d = 0.875;
    bytesField(tensor2, 4, std::string(reinterpret_cast<const char *>(&d), 8));
    bytesField(v2, 1, "acc");
    bytesField(v2, 8, tensor2);
    bytesField(hist, 1, "weights");
    bytesField(hist, 5, std::string("\x09\0\0\0\0\0\0\0\0", 9));  // a histogram: not a scalar
    bytesField(customPlugin, 1, "custom_scalars");
    bytesField(customMeta, 1, customPlugin);
    bytesField(custom, 1, "custom_scalars__config__");
    bytesField(custom, 9, customMeta);
    bytesField(custom, 8, std::string("\x08\x07", 2));  // a DT_STRING tensor
    const auto r = importBytes(record(eventRecord(10.0, 1, {v1, hist, custom})) + record(eventRecord(11.0, 2, {v2})));
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(rows(r, kMetrics), QStringList({"run_a|acc|NULL|10000000000|0.75", "run_a|acc|NULL|11000000000|0.875"}));
    QVERIFY2(logText(r).contains("info|not_imported||"), qPrintable(logText(r)));
}

void TstTfEventsImport::badPayloadCrcIsSkippedRestKept() {
    std::string bytes = threeEvents();
    const size_t second = record(fileVersion(1700000000.0)).size() +
                          record(eventRecord(1700000001.25, 1, {simpleValue("loss", 2.5f), simpleValue("lr", 0.125f)})).size();
    bytes[second + 12 + 3] ^= 0x40;  // a payload byte of the third record (loss at step 2)
    const auto r = importBytes(bytes);
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
    QCOMPARE(rows(r, "SELECT t_ns FROM v_metric WHERE series = 'loss' ORDER BY t_ns"),
             QStringList({"1700000001250000000", "1700000003750000000"}));
    const QString pos = "record 2 (byte " + QString::number(second) + ")";
    QCOMPARE(rows(r, "SELECT severity, code, position FROM import_log"),
             QStringList({"warning|malformed_record|" + pos}));
}

void TstTfEventsImport::truncatedLastRecordEndsQuietly() {
    const std::string bytes = threeEvents();
    const auto r = importBytes(bytes.substr(0, bytes.size() - 5));
    QCOMPARE(int(r.result.status), int(SourceStatus::Ok));
    QCOMPARE(r.result.events, 3);
    QVERIFY2(logText(r).startsWith("info|truncated_record|byte "), qPrintable(logText(r)));
}

void TstTfEventsImport::badLengthCrcStops() {
    std::string bytes = threeEvents();
    const size_t first = record(fileVersion(1700000000.0)).size();
    bytes[first + 9] ^= 0x01;  // the second record's length CRC
    const auto r = importBytes(bytes);
    QCOMPARE(int(r.result.status), int(SourceStatus::Partial));
    QCOMPARE(r.result.events, 0);
    QVERIFY2(logText(r).contains("error|malformed_record|byte " + QString::number(first) + "|"), qPrintable(logText(r)));
}

QTEST_GUILESS_MAIN(TstTfEventsImport)
#include "tst_tfevents_import.moc"
