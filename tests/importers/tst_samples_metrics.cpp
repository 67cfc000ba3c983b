// Acceptance tests of the instance-metric importers on the real third-party samples in
// ../shared/samples (nvidia-smi CSVs, SageMaker system JSON including the corrupt one, sadf -d,
// dcgmi dmon). Counts and values were verified by hand (awk / a separate Python count).
// Skips when the samples folder is absent.

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

#include <ctime>
#include <memory>

using namespace stepscope;
namespace fs = std::filesystem;

namespace {

using Imported = test::ImportedFile;

Imported runImport(Importer &imp, const fs::path &file) { return test::importFile(imp, file); }
QStringList rows(const Imported &imp, const std::string &sql) { return test::queryRows(*imp.store, sql, test::Floats::Rounded12); }
int64_t count(const Imported &imp, const std::string &sql) { return test::queryInt(*imp.store, sql); }

} // namespace

class TstSamplesMetrics : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        qputenv("TZ", "UTC");
        tzset();
    }

    void nvidiaSmiH100() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        NvidiaSmiCsvImporter imp;
        auto r = runImport(imp, samples / "virtualclient/nvidia-smi/query-gpu-1xH100.csv");
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(33));  // 39 columns - timestamp, index, name, bus id, driver, pstate
        QCOMPARE(rows(r, "SELECT series, device, unit, t_ns, value FROM v_metric WHERE series IN "
                         "('gpu_util','gpu_mem_util','gpu_mem_used','power.draw.average','memory.total') ORDER BY series"),
                 QStringList({"gpu_mem_used|0|B|1710511079791000000|3145728",
                              "gpu_mem_util|0|%|1710511079791000000|2", "gpu_util|0|%|1710511079791000000|1",
                              "memory.total|0|B|1710511079791000000|85520809984",
                              "power.draw.average|0|W|1710511079791000000|70.89"}));
    }

    void nvidiaSmiT4ByBusId() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        NvidiaSmiCsvImporter imp;
        auto one = runImport(imp, samples / "virtualclient/nvidia-smi/query-gpu-1xT4.csv");
        QCOMPARE(one.result.status, SourceStatus::Ok);
        QCOMPARE(one.result.events, int64_t(8));
        auto r = runImport(imp, samples / "virtualclient/nvidia-smi/query-gpu-4xT4.csv");
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(32));
        QCOMPARE(rows(r, "SELECT device, t_ns, value FROM v_metric WHERE series='gpu_mem_used' ORDER BY device"),
                 QStringList({"0|1673395561255000000|269484032", "1|1673395561261000000|14680064",
                              "2|1673395561266000000|14680064", "3|1673395561271000000|14680064"}));
        QCOMPARE(rows(r, "SELECT value FROM v_metric WHERE series='temperature.gpu' ORDER BY device"),
                 QStringList({"48", "51", "53", "53"}));
    }

    void smdebugIncremental() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        SmdebugSystemImporter imp;
        auto r = runImport(imp, samples / "smdebug/test_traces/system/incremental/1591748100.algo-1.json");
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(32));
        QCOMPARE(count(r, "SELECT COUNT(DISTINCT device) FROM v_metric WHERE series='cpu_util' AND run='algo-1'"), int64_t(32));
        QCOMPARE(rows(r, "SELECT t_ns, value FROM v_metric WHERE series='cpu_util' AND device=11"),
                 QStringList({"1591748109232195400|51.1"}));
    }

    void smdebugCorrupt() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        SmdebugSystemImporter imp;
        const fs::path file = samples / "smdebug/1591160699.algo-1.json.corrupt";
        QVERIFY(imp.sniff(file, ByteSource::peek(file, 8192)));
        auto r = runImport(imp, file);
        QCOMPARE(r.result.status, SourceStatus::Partial);
        QCOMPARE(r.result.events, int64_t(13));  // 14 lines, the last one truncated
        QCOMPARE(rows(r, "SELECT severity, position FROM import_log"), QStringList({"warning|line 14"}));
        QCOMPARE(rows(r, "SELECT series, device, COUNT(*) FROM v_metric GROUP BY series, device ORDER BY series, device"),
                 QStringList({"cpu_util|0|2", "cpu_util|1|2", "gpu_mem_util|0|2", "gpu_mem_util|1|3", "gpu_util|0|2",
                              "gpu_util|1|2"}));
        QCOMPARE(rows(r, "SELECT t_ns, value FROM v_metric WHERE series='gpu_mem_util' AND device=1 ORDER BY t_ns DESC LIMIT 1"),
                 QStringList({"1591169699457999400|84.76"}));
    }

    void sadf() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        SadfImporter imp;
        auto r = runImport(imp, samples / "sysstat/tests/expected.sadf-d");
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(119));
        QCOMPARE(rows(r, "SELECT series, COUNT(*) FROM v_metric GROUP BY series ORDER BY series"),
                 QStringList({"cpu_util|47", "disk_read|5", "disk_write|5", "host_mem_used|5", "io_wait|47", "net_in|5",
                              "net_out|5"}));
        QCOMPARE(count(r, "SELECT COUNT(DISTINCT device) FROM v_metric WHERE series='cpu_util'"), int64_t(10));
        QCOMPARE(rows(r, "SELECT run, t_ns, value FROM v_metric WHERE series='cpu_util' AND device IS NULL AND "
                         "t_ns=1555593639000000000"),
                 QStringList({"SYSSTAT.TEST|1555593639000000000|28.32"}));
        // Whole disks only (partitions and dm- devices would count the same bytes twice), lo excluded.
        QCOMPARE(rows(r, "SELECT series, value FROM v_metric WHERE series IN ('disk_read','net_in') AND "
                         "t_ns=1555593619000000000 ORDER BY series"),
                 QStringList({"disk_read|29399.04", "net_in|440.32"}));
        QCOMPARE(count(r, "SELECT COUNT(*) FROM import_log WHERE severity='info'"), int64_t(3));
        QCOMPARE(count(r, "SELECT COUNT(*) FROM import_log WHERE severity<>'info'"), int64_t(0));
    }

    void dcgmiDmon() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        DcgmiDmonImporter imp;
        auto r = runImport(imp, samples / "virtualclient/dcgmi/DCGMIDmonResults.txt");
        QCOMPARE(r.result.status, SourceStatus::Ok);
        QCOMPARE(r.result.events, int64_t(45));
        QCOMPARE(rows(r, "SELECT series, device, unit, t_ns, value FROM v_metric WHERE t_ns=2000000000 ORDER BY series"),
                 QStringList({"DRAMA|0|ratio|2000000000|0.305", "TENSO|0|ratio|2000000000|0.885",
                              "gpu_util|0|%|2000000000|99.8"}));
        QCOMPARE(count(r, "SELECT COUNT(*) FROM import_log WHERE severity='info'"), int64_t(1));  // relative times
    }

    // Every sample file is claimed by the right metric importer and by no other; files of other
    // formats (traces, amd-smi, Prometheus, atop, sar text, sadf -j) by none of them.
    void sniffAcrossAllSamples() {
        STEPSCOPE_REQUIRE_SAMPLES(samples);
        std::vector<std::unique_ptr<Importer>> all;
        all.push_back(std::make_unique<NvidiaSmiCsvImporter>());
        all.push_back(std::make_unique<NvidiaSmiDmonImporter>());
        all.push_back(std::make_unique<SmdebugSystemImporter>());
        all.push_back(std::make_unique<SadfImporter>());
        all.push_back(std::make_unique<CloudWatchCsvImporter>());
        all.push_back(std::make_unique<GenericCsvImporter>());
        all.push_back(std::make_unique<DcgmiDmonImporter>());
        const std::map<std::string, std::string> expected = {
            {"virtualclient/nvidia-smi/query-gpu-1xH100.csv", "nvidia_smi_csv"},
            {"virtualclient/nvidia-smi/query-gpu-1xT4.csv", "nvidia_smi_csv"},
            {"virtualclient/nvidia-smi/query-gpu-4xT4.csv", "nvidia_smi_csv"},
            {"virtualclient/dcgmi/DCGMIDmonResults.txt", "dcgmi_dmon"},
            {"smdebug/1591160699.algo-1.json.corrupt", "smdebug_system"},
            {"smdebug/test_traces/system/incremental/1591748100.algo-1.json", "smdebug_system"},
            {"sysstat/tests/expected.sadf-d", "sysstat_sadf"},
        };
        int checked = 0;
        for (const auto &entry : fs::recursive_directory_iterator(samples)) {
            if (!entry.is_regular_file()) continue;
            const std::string rel = fs::relative(entry.path(), samples).generic_string();
            const std::string head = ByteSource::peek(entry.path(), 8192);
            std::string claimed;
            for (const auto &imp : all)
                if (imp->sniff(entry.path(), head)) claimed += (claimed.empty() ? "" : ",") + imp->format();
            auto it = expected.find(rel);
            const std::string want = it == expected.end() ? std::string() : it->second;
            QVERIFY2(claimed == want, (rel + ": claimed by '" + claimed + "', expected '" + want + "'").c_str());
            ++checked;
        }
        QVERIFY(checked > 50);
    }
};

QTEST_GUILESS_MAIN(TstSamplesMetrics)
#include "tst_samples_metrics.moc"
