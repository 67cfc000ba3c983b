// The real XPlane and TensorBoard event files of ../shared/samples, imported through the registry
// the way the command line does. Every expected count was computed independently with a small
// Python hand decoder of the protobuf / TFRecord wire format (not with Stepscope): per line the
// timed events, the floor-rounded ns durations and ends, correlation ids on both sides, and per
// event file the scalar values per tag with verified CRCs. Skips when the samples are absent.

#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "models/store/session_store.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <memory>

using namespace stepscope;
namespace fs = std::filesystem;

class TstSamplesXPlane : public QObject {
    Q_OBJECT
private slots:
    void jaxRocmXPlane();
    void mangledXPlaneIsAClearError();
    void eventFiles_data();
    void eventFiles();
};

namespace {

using Session = test::ImportedPaths;
using test::importPaths;

QStringList rows(const Session &s, const std::string &sql) { return test::queryRows(*s.store, sql); }

} // namespace

void TstSamplesXPlane::jaxRocmXPlane() {
    STEPSCOPE_REQUIRE_SAMPLES(samples);
    const auto s = importPaths({samples / "tracelens/test_data_jax_te_fused_attn_categorization/934987a2fc2f.xplane.pb"});
    QCOMPARE(s.summary.sources.size(), size_t(1));
    QCOMPARE(QString::fromStdString(s.summary.sources[0].format), QString("xplane"));
    QCOMPARE(int(s.summary.sources[0].status), int(SourceStatus::Ok));
    QCOMPARE(s.summary.sources[0].events, 1992);
    // Two host lines and one GPU stream; 8 GPU planes but only GPU:0 has events.
    QCOMPARE(rows(s, "SELECT track_kind, device, track, count(*), sum(dur_ns), min(start_ns), max(start_ns + dur_ns) "
                     "FROM v_slice GROUP BY 1, 2, 3 ORDER BY 3"),
             QStringList({"host_thread|NULL|Host Threads/7|150|3697277|1779266712606272612|1779266712617768297",
                          "gpu_stream|0|Stream #2|150|12133585|1779266712606338581|1779266712619295332",
                          "host_thread|NULL|python3|1692|9770786526|1779266702890173010|1779266712622249091"}));
    // Every one of the 150 kernels has its launch (hipLaunchKernel & co.) by correlation_id.
    QCOMPARE(rows(s, "SELECT count(*), count(DISTINCT to_slice_id) FROM flow"), QStringList({"150|150"}));
    QCOMPARE(rows(s, "SELECT count(*) FROM v_step"), QStringList({"0"}));  // a micro-benchmark: no step markers
    QCOMPARE(rows(s, "SELECT name, framework, device, time_base_ns, has_epoch FROM run"),
             QStringList({"934987a2fc2f|jax|AMD GPU (256 cores, 2400 MHz, 288 GiB, compute 9.5)|1779266702889805563|1"}));
    // kernel_details is a ref_value: its text is the name of a stat metadata entry.
    QCOMPARE(rows(s, "SELECT count(*) FROM slice WHERE args LIKE '%\"kernel_details\":\" grid:%'"), QStringList({"150"}));
}

void TstSamplesXPlane::mangledXPlaneIsAClearError() {
    STEPSCOPE_REQUIRE_SAMPLES(samples);
    const fs::path file = samples / "xprof/test_xplanes/tpu_inference_2.xplane.pb";
    const auto s = importPaths({file});
    QCOMPARE(s.summary.sources.size(), size_t(1));
    QCOMPARE(int(s.summary.sources[0].status), int(SourceStatus::Failed));
    QVERIFY(!s.summary.anyImported());
    const QString message = QString::fromStdString(s.summary.sources[0].message);
    QVERIFY2(message.contains("tpu_inference_2.xplane.pb") && message.contains("malformed protobuf at byte 0"),
             qPrintable(message));
    QCOMPARE(rows(s, "SELECT severity, position FROM import_log"), QStringList({"error|byte 0"}));
    QCOMPARE(rows(s, "SELECT count(*) FROM run"), QStringList({"0"}));
}

void TstSamplesXPlane::eventFiles_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("run");
    QTest::addColumn<int>("series");
    QTest::addColumn<int>("values");
    QTest::addColumn<QString>("first");  // earliest sample: t_ns (wall_time to the nearest ns) | value
    QTest::newRow("end_2_end") << "tensorboard_profile_legacy/end_2_end.tfevents" << "tensorboard_profile_legacy" << 12
                               << 24 << "1551753597361867905|0";
    QTest::newRow("end_to_end") << "tensorboard_profile_legacy/end_to_end.tfevents" << "tensorboard_profile_legacy"
                                << 12 << 24 << "1553644434890948057|0";
    QTest::newRow("duplicate_steps")
        << "tensorboard_reducer/runs/duplicate_steps/run_1/events.out.tfevents.1622966509.janoshs-mbp.lan.86059.0"
        << "run_1" << 2 << 420 << "1622966509217621088|1.49625658988953";
    QTest::newRow("lax") << "tensorboard_reducer/runs/lax/run_1/events.out.tfevents.1622543341.janoshs-mbp.lan.86862.3"
                         << "run_1" << 3 << 330 << "1622543341789233923|1.25876593589783";
    QTest::newRow("wandb complex") << "wandb/tests_fixtures/events.out.tfevents.111.complex.localdomain"
                                   << "tests_fixtures" << 47 << 747 << "1571777890638435364|32";
    QTest::newRow("wandb test") << "wandb/tests_fixtures/events.out.tfevents.111.test.localdomain" << "tests_fixtures"
                                << 4 << 28 << "1558465065596305847|2.39587688446045";
}

void TstSamplesXPlane::eventFiles() {
    STEPSCOPE_REQUIRE_SAMPLES(dir);
    QFETCH(QString, file);
    QFETCH(QString, run);
    QFETCH(int, series);
    QFETCH(int, values);
    QFETCH(QString, first);
    const auto s = importPaths({dir / file.toStdString()});
    QCOMPARE(s.summary.sources.size(), size_t(1));
    QCOMPARE(QString::fromStdString(s.summary.sources[0].format), QString("tfevents"));
    QCOMPARE(int(s.summary.sources[0].status), int(SourceStatus::Ok));
    QCOMPARE(s.summary.sources[0].events, values);
    QCOMPARE(rows(s, "SELECT DISTINCT run FROM v_metric"), QStringList({run}));
    QCOMPARE(rows(s, "SELECT count(DISTINCT series), count(*) FROM v_metric"),
             QStringList({QString("%1|%2").arg(series).arg(values)}));
    SqliteStatement st(s.store->db(), "SELECT t_ns, value FROM v_metric ORDER BY t_ns LIMIT 1");
    QVERIFY(st.step());
    QCOMPARE(QString::number(st.columnInt(0)) + "|" + QString::number(st.columnDouble(1), 'g', 15), first);
}

QTEST_GUILESS_MAIN(TstSamplesXPlane)
#include "tst_samples_xplane.moc"
