// Golden tests for the instance-metric importers (importers/metrics/): small fixtures in
// tests/data/metrics/ are imported into a temporary session and the exact v_metric rows,
// import_log rows and statuses are checked.

#include "importers/common/byte_source.h"
#include "importers/metrics/cloudwatch_csv_importer.h"
#include "importers/metrics/dcgmi_dmon_importer.h"
#include "importers/metrics/generic_csv_importer.h"
#include "importers/metrics/nvidia_smi_csv_importer.h"
#include "importers/metrics/nvidia_smi_dmon_importer.h"
#include "importers/metrics/sadf_importer.h"
#include "importers/metrics/smdebug_system_importer.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <atomic>
#include <ctime>
#include <fstream>
#include <memory>

#include <zlib.h>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

using Imported = test::ImportedFile;

Imported runImport(Importer &imp, const fs::path &file, const CancelToken &cancel = {}) { return test::importFile(imp, file, cancel); }
QStringList rows(const Imported &imp, const std::string &sql) { return test::queryRows(*imp.store, sql, test::Floats::Rounded12); }
int64_t count(const Imported &imp, const std::string &sql) { return test::queryInt(*imp.store, sql); }

std::string head(const fs::path &file) { return ByteSource::peek(file, 8192); }

} // namespace

class TstMetricsImport : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qputenv("TZ", "UTC");  // nvidia-smi and zone-less times are local time
        tzset();
    }

    void nvidiaSmiWithUnits() {
        NvidiaSmiCsvImporter imp;
        const auto file = test::testData("metrics/nvsmi_units.csv");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Partial);
        QCOMPARE(r.result.events, int64_t(22));
        QCOMPARE(rows(r, "SELECT run, device, unit, t_ns, value FROM v_metric WHERE series='gpu_util' ORDER BY device, t_ns"),
                 QStringList({"nvsmi_units.csv|0|%|1710511079791000000|87", "nvsmi_units.csv|0|%|1710511080791000000|90",
                              "nvsmi_units.csv|1|%|1710511080796000000|5", "nvsmi_units.csv|1|%|1710511081795000000|6"}));
        QCOMPARE(rows(r, "SELECT device, unit, value FROM v_metric WHERE series='gpu_mem_used' ORDER BY device, t_ns"),
                 QStringList({"0|B|1293942784", "0|B|1363148800", "1|B|10485760", "1|B|12582912", "1|B|14680064"}));
        // N/A, [N/A] and [Not Supported] are no row, never a zero.
        QCOMPARE(count(r, "SELECT COUNT(*) FROM v_metric WHERE series='gpu_mem_util' AND device=1"), int64_t(2));
        QCOMPARE(rows(r, "SELECT device, unit, value FROM v_metric WHERE series='power.draw' ORDER BY device, t_ns"),
                 QStringList({"0|W|70.89", "0|W|71", "1|W|20.5", "1|W|21.5"}));
        QCOMPARE(rows(r, "SELECT DISTINCT unit FROM v_metric WHERE series='temperature.gpu'"), QStringList({"C"}));
        QCOMPARE(count(r, "SELECT COUNT(*) FROM v_metric WHERE series IN ('pstate','name','uuid','index')"), int64_t(0));
        QCOMPARE(rows(r, "SELECT period_ns FROM metric_series WHERE name='gpu_util' ORDER BY device"),
                 QStringList({"1000000000", "999000000"}));
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log"), QStringList({"warning|line 6"}));
        QVERIFY(r.result.message.find("line 6") != std::string::npos);
    }

    void nvidiaSmiNoUnitsByBusId() {
        NvidiaSmiCsvImporter imp;
        const auto file = test::testData("metrics/nvsmi_nounits_busid.csv");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(7));
        // No index column: GPUs numbered in the order their pci.bus_id first appears.
        QCOMPARE(rows(r, "SELECT device, t_ns, value FROM v_metric WHERE series='gpu_util' ORDER BY device, t_ns"),
                 QStringList({"0|1673395561255000000|3", "0|1673395562255000000|5", "1|1673395561261000000|4"}));
        QCOMPARE(rows(r, "SELECT value FROM v_metric WHERE series='gpu_mem_used' AND device=1 ORDER BY t_ns"),
                 QStringList({"14680064", "15728640"}));
    }

    void nvidiaSmiDmon() {
        NvidiaSmiDmonImporter imp;
        const auto file = test::testData("metrics/dmon.txt");
        QVERIFY(imp.sniff(file, head(file)));
        QVERIFY(!NvidiaSmiCsvImporter().sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Partial);
        QCOMPARE(r.result.events, int64_t(40));
        QCOMPARE(rows(r, "SELECT device, unit, t_ns, value FROM v_metric WHERE series='gpu_util' ORDER BY device, t_ns"),
                 QStringList({"0|%|0|10", "0|%|1000000000|30", "0|%|2000000000|60", "1|%|0|20", "1|%|1000000000|40"}));
        QCOMPARE(count(r, "SELECT COUNT(*) FROM v_metric WHERE series='mtemp'"), int64_t(0));
        QCOMPARE(rows(r, "SELECT DISTINCT unit FROM v_metric WHERE series='pwr'"), QStringList({"W"}));
        QCOMPARE(rows(r, "SELECT DISTINCT period_ns FROM metric_series"), QStringList({"1000000000"}));
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log ORDER BY id"),
                 QStringList({"warning|line 7", "info|"}));
    }

    void nvidiaSmiDmonWithDateTime() {
        NvidiaSmiDmonImporter imp;
        const auto file = test::testData("metrics/dmon_dt.txt");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(8));
        QCOMPARE(rows(r, "SELECT series, device, unit, t_ns, value FROM v_metric WHERE t_ns=1673395561000000000 ORDER BY series"),
                 QStringList({"gpu_mem_used|0|B|1673395561000000000|104857600", "gpu_mem_util|0|%|1673395561000000000|2",
                              "gpu_util|0|%|1673395561000000000|1", "pwr|0|W|1673395561000000000|43"}));
        QCOMPARE(rows(r, "SELECT DISTINCT period_ns FROM metric_series"), QStringList({"2000000000"}));
        QCOMPARE(count(r, "SELECT COUNT(*) FROM import_log"), int64_t(0));
    }

    void smdebugSystem() {
        SmdebugSystemImporter imp;
        const auto file = test::testData("metrics/smdebug.json");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Partial);
        QCOMPARE(r.result.events, int64_t(10));
        QCOMPARE(rows(r, "SELECT run, series, device, unit, t_ns, value FROM v_metric ORDER BY series, device, t_ns"),
                 QStringList({"algo-1|MemoryUsedPercent|NULL|%|1591160699500000000|6.18",
                              "algo-1|ReceiveBytesPerSecond.Platform|NULL|B/s|1591160700000000000|66775126.66",
                              "algo-1|cpu_util|0|%|1591160699457089400|4.76",
                              "algo-1|cpu_util|0|%|1591160700457089400|54.76",
                              "algo-1|cpu_util|1|%|1591160699457089400|5.3",
                              "algo-1|disk_read|NULL|B/s|1591160700000000000|8970700.56",
                              "algo-1|gpu_mem_util|1|%|1591160699500000000|14.76",
                              "algo-1|gpu_util|1|%|1591160699500000000|8",
                              "algo-1|io_wait|0|%|1591160699457089400|14",
                              "algo-1|net_in|NULL|B/s|1591160700000000000|1000.5"}));
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log ORDER BY id"),
                 QStringList({"warning|line 10", "warning|line 12"}));
        QVERIFY(r.result.message.find("2 bad line(s)") != std::string::npos);
        QCOMPARE(rows(r, "SELECT period_ns FROM metric_series WHERE name='cpu_util' AND device=0"), QStringList({"1000000000"}));
    }

    void sadf() {
        SadfImporter imp;
        const auto file = test::testData("metrics/sadf.txt");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Partial);
        QCOMPARE(r.result.events, int64_t(12));
        QCOMPARE(rows(r, "SELECT run, series, device, unit, t_ns, value FROM v_metric ORDER BY series, device, t_ns"),
                 QStringList({"node1|cpu_util|NULL|%|1555593619000000000|4.11",
                              "node1|cpu_util|NULL|%|1555593629000000000|4.25",
                              "node1|cpu_util|0|%|1555593619000000000|5.37",
                              "node1|disk_read|NULL|B/s|1555593619000000000|5120",
                              "node1|disk_write|NULL|B/s|1555593619000000000|10240",
                              "node1|host_mem_used|NULL|B|1555593619000000000|3845574656",
                              "node1|host_mem_used|NULL|B|1555593629000000000|3845578752",
                              "node1|io_wait|NULL|%|1555593619000000000|0.12",
                              "node1|io_wait|NULL|%|1555593629000000000|0.25",
                              "node1|io_wait|0|%|1555593619000000000|0.5",
                              "node1|net_in|NULL|B/s|1555593619000000000|5120",
                              "node1|net_out|NULL|B/s|1555593619000000000|1536"}));
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log ORDER BY id"),
                 QStringList({"warning|line 5", "info|line 19"}));
    }

    void genericCsvEpochMillis() {
        GenericCsvImporter imp;
        const auto file = test::testData("metrics/generic_ms.csv");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Partial);
        QCOMPARE(r.result.events, int64_t(6));
        QCOMPARE(rows(r, "SELECT series, device, unit, t_ns, value FROM v_metric ORDER BY series, t_ns"),
                 QStringList({"loss|NULL||1700000000000000000|1.5", "loss|NULL||1700000001000000000|1.25",
                              "loss|NULL||1700000001500000000|1", "throughput|NULL|samples/s|1700000000000000000|100",
                              "throughput|NULL|samples/s|1700000000500000000|101.5",
                              "throughput|NULL|samples/s|1700000001500000000|102"}));
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log"), QStringList({"warning|line 4"}));
    }

    void genericCsvIsoWithZones() {
        GenericCsvImporter imp;
        const auto file = test::testData("metrics/generic_iso.csv");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.events, int64_t(3));
        QCOMPARE(rows(r, "SELECT series, t_ns, value FROM v_metric ORDER BY series, t_ns"),
                 QStringList({"fan|1768471200500000000|30", "gpu_temp|1768471200500000000|60",
                              "gpu_temp|1768471201000000000|61"}));
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log"), QStringList({"warning|line 4"}));
    }

    void cloudWatchCsv() {
        CloudWatchCsvImporter imp;
        const auto file = test::testData("metrics/cloudwatch.csv");
        QVERIFY(imp.sniff(file, head(file)));
        QVERIFY(!GenericCsvImporter().sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(8));
        QCOMPARE(rows(r, "SELECT run, series, unit, t_ns, value FROM v_metric WHERE series IN ('cpu_util','net_in') ORDER BY series, t_ns"),
                 QStringList({"i-0abc|cpu_util|%|1714557600000000000|12.5", "i-0abc|cpu_util|%|1714557660000000000|50",
                              "i-0abc|net_in|B/s|1714557600000000000|100000", "i-0abc|net_in|B/s|1714557660000000000|200000",
                              "i-0abc|net_in|B/s|1714557720000000000|10"}));
        QCOMPARE(rows(r, "SELECT DISTINCT run, series, unit FROM v_metric WHERE series NOT IN ('cpu_util','net_in')"),
                 QStringList({"i-0abc|NetworkInPackets|"}));
        QCOMPARE(rows(r, "SELECT period_ns FROM metric_series WHERE name='net_in'"), QStringList({"60000000000"}));
    }

    void dcgmiDmon() {
        DcgmiDmonImporter imp;
        const auto file = test::testData("metrics/dcgmi.txt");
        QVERIFY(imp.sniff(file, head(file)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Partial);
        QCOMPARE(r.result.events, int64_t(11));
        QCOMPARE(rows(r, "SELECT device, unit, t_ns, value FROM v_metric WHERE series='gpu_util' ORDER BY device, t_ns"),
                 QStringList({"0|%|0|87", "0|%|1000000000|90"}));
        QCOMPARE(rows(r, "SELECT device, unit, value FROM v_metric WHERE series='GRACT' ORDER BY device, t_ns"),
                 QStringList({"0|ratio|0.87", "0|ratio|0.9", "1|ratio|0.1"}));
        QCOMPARE(rows(r, "SELECT value FROM v_metric WHERE series='gpu_mem_used' AND device=1"), QStringList({"2147483648"}));
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log ORDER BY id"),
                 QStringList({"info|line 5", "warning|line 7", "info|"}));
    }

    void gzipIsTransparent() {
        QTemporaryDir dir;
        const std::string gz = (fs::path(dir.path().toStdString()) / "log.gz").string();
        std::ifstream in(test::testData("metrics/smdebug.json"), std::ios::binary);
        std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        gzFile f = gzopen(gz.c_str(), "wb");
        gzwrite(f, text.data(), unsigned(text.size()));
        gzclose(f);
        SmdebugSystemImporter imp;
        QVERIFY(imp.sniff(gz, head(gz)));
        auto r = runImport(imp, gz);
        QCOMPARE(r.result.events, int64_t(10));
    }

    void emptyAndForeignFilesFail() {
        QTemporaryDir dir;
        const fs::path empty = fs::path(dir.path().toStdString()) / "empty.csv";
        std::ofstream(empty).close();
        const fs::path junk = fs::path(dir.path().toStdString()) / "junk.txt";
        std::ofstream(junk) << "hello\nworld\n";
        std::vector<std::unique_ptr<Importer>> all;
        all.push_back(std::make_unique<NvidiaSmiCsvImporter>());
        all.push_back(std::make_unique<NvidiaSmiDmonImporter>());
        all.push_back(std::make_unique<SmdebugSystemImporter>());
        all.push_back(std::make_unique<SadfImporter>());
        all.push_back(std::make_unique<CloudWatchCsvImporter>());
        all.push_back(std::make_unique<GenericCsvImporter>());
        all.push_back(std::make_unique<DcgmiDmonImporter>());
        for (auto &imp : all) {
            QVERIFY(!imp->sniff(empty, ""));
            QVERIFY(!imp->sniff(junk, head(junk)));
            auto r = runImport(*imp, empty);
            QCOMPARE(r.result.status, SourceStatus::Failed);
            QVERIFY2(r.result.message.find("empty") != std::string::npos, r.result.message.c_str());
            QCOMPARE(r.result.events, int64_t(0));
            auto j = runImport(*imp, junk);
            QCOMPARE(j.result.status, SourceStatus::Failed);
            QVERIFY(!j.result.message.empty());
            QCOMPARE(count(j, "SELECT COUNT(*) FROM v_metric"), int64_t(0));
        }
    }

    void cancelStops() {
        QTemporaryDir dir;
        const fs::path big = fs::path(dir.path().toStdString()) / "big.json";
        {
            std::ofstream out(big);
            for (int i = 0; i < 20000; ++i)
                out << R"({"Type":"cpu","Name":"cpu0","Dimension":"CPUUtilization","Value":1,"NodeId":"a","Timestamp":)"
                    << 1600000000 + i << "}\n";
        }
        const CancelToken cancel;
        cancel.cancel();
        SmdebugSystemImporter imp;
        auto r = runImport(imp, big, cancel);
        QCOMPARE(r.result.status, SourceStatus::Failed);
        QVERIFY(r.result.message.find("cancel") != std::string::npos);
        QVERIFY(r.result.events < 20000);
    }
};

QTEST_GUILESS_MAIN(TstMetricsImport)
#include "tst_metrics_import.moc"
