// Cross-check of the two trace importers through the synthetic generator: one simulated training
// loop written as a Kineto Chrome trace and as an XPlane logdir (plugins/profile/<run>/<host>.xplane.pb)
// must import to the same GPU activity (every kernel and copy with the same device, name, start and
// duration, to the ns), the same steps and the same launch → kernel links. Also checks the logdir
// run choice (ProfileRunSelector) on the generated layout.

#include "app/synth/synthetic_profile_generator.h"
#include "app/synth/xplane_logdir_writer.h"
#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "importers/xplane/profile_run_selector.h"
#include "models/store/session_store.h"
#include "tests/importers/import_test_support.h"
#include "tests/test_support.h"

#include <QtTest>

#include <memory>

using namespace stepscope;
namespace fs = std::filesystem;

class TstXPlaneSynthCrosscheck : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sameKernelsStepsAndFlows();
    void newestRunIsChosen();

private:
    QTemporaryDir m_dir;
    fs::path m_chrome;
    fs::path m_xplane;
};

namespace {

using Session = test::ImportedPaths;

Session importInto(const fs::path &session, const fs::path &input) { return test::importPaths({input}, session); }
QStringList rows(const Session &s, const std::string &sql) { return test::queryRows(*s.store, sql); }

} // namespace

void TstXPlaneSynthCrosscheck::initTestCase() {
    synth::SyntheticProfileOptions o;
    o.steps = 4;
    o.gpus = 2;
    o.bottleneck = synth::Bottleneck::Collective;
    o.kernelsPerStep = 40;
    const fs::path dir = m_dir.path().toStdString();
    m_chrome = dir / "chrome" / "trace.pt.trace.json.gz";
    synth::SyntheticProfileGenerator(o).generate(m_chrome, {});
    const auto x = synth::writeXPlaneLogdir(o, dir / "logdir", {}, m_chrome);
    m_xplane = x.file;
    QCOMPARE(QString::fromStdString(m_xplane.parent_path().filename().string()), QString("2026_01_15_10_00_00"));
    QVERIFY(x.xplane.events > 0);
}

void TstXPlaneSynthCrosscheck::sameKernelsStepsAndFlows() {
    const fs::path dir = m_dir.path().toStdString();
    const auto chrome = importInto(dir / "chrome.stepscope", m_chrome);
    const auto xplane = importInto(dir / "xplane.stepscope", dir / "logdir");
    QCOMPARE(xplane.summary.sources.size(), size_t(1));
    QCOMPARE(int(chrome.summary.sources.at(0).status), int(SourceStatus::Ok));
    QCOMPARE(int(xplane.summary.sources.at(0).status), int(SourceStatus::Ok));

    const std::string gpu = "SELECT device, name, start_ns, dur_ns FROM v_slice WHERE track_kind = 'gpu_stream' "
                            "ORDER BY device, start_ns, name";
    const QStringList chromeGpu = rows(chrome, gpu);
    QVERIFY(chromeGpu.size() > 4 * 2 * 40);
    QCOMPARE(rows(xplane, gpu), chromeGpu);
    const std::string kinds = "SELECT c.text, count(*) FROM slice s JOIN track t ON t.id = s.track_id "
                              "JOIN string c ON c.id = s.category_id WHERE t.kind = 'gpu_stream' GROUP BY 1 ORDER BY 1";
    QCOMPARE(rows(xplane, kinds), rows(chrome, kinds));  // kernels and copies alike
    const std::string steps = "SELECT step, start_ns, dur_ns FROM v_step ORDER BY step";
    QCOMPARE(rows(chrome, steps).size(), 4);
    QCOMPARE(rows(xplane, steps), rows(chrome, steps));
    const std::string host = "SELECT count(*), sum(dur_ns) FROM v_slice WHERE track_kind = 'host_thread'";
    QCOMPARE(rows(xplane, host), rows(chrome, host));
    // Launch → activity links: Chrome from ac2g flow events, XPlane from correlation_id stats.
    const std::string flows = "SELECT a.correlation, b.correlation FROM flow f JOIN slice a ON a.id = f.from_slice_id "
                              "JOIN slice b ON b.id = f.to_slice_id ORDER BY 1";
    QCOMPARE(rows(xplane, flows), rows(chrome, flows));
}

void TstXPlaneSynthCrosscheck::newestRunIsChosen() {
    const fs::path dir = m_dir.path().toStdString();
    synth::SyntheticProfileOptions o;
    o.steps = 1;
    o.kernelsPerStep = 5;
    o.epochStartNs += 3'600'000'000'000;  // an hour later: 2026_01_15_11_00_00
    synth::writeXPlaneLogdir(o, dir / "logdir");
    const fs::path profile = dir / "logdir/plugins/profile";
    const std::vector<fs::path> files = {profile / "2026_01_15_10_00_00/synthhost.xplane.pb",
                                         profile / "2026_01_15_11_00_00/synthhost.xplane.pb",
                                         dir / "logdir/events.out.tfevents.1.synthhost"};
    const ProfileRunChoice newest = ProfileRunSelector::choose(files);
    QCOMPARE(newest.runs, std::vector<std::string>({"2026_01_15_10_00_00", "2026_01_15_11_00_00"}));
    QCOMPARE(newest.chosen, std::vector<std::string>({"2026_01_15_11_00_00"}));
    QCOMPARE(newest.dropped, std::vector<size_t>({0}));
    QCOMPARE(ProfileRunSelector::choose(files, "2026_01_15_10_00_00").dropped, std::vector<size_t>({1}));
    QVERIFY(ProfileRunSelector::choose(files, "all").dropped.empty());
    QCOMPARE(QString::fromStdString(ProfileRunSelector::choose(files, "nope").error),
             QString("no profile run named \"nope\""));
    QVERIFY(!ProfileRunSelector::runOf(dir / "logdir/events.out.tfevents.1.synthhost"));
}

QTEST_GUILESS_MAIN(TstXPlaneSynthCrosscheck)
#include "tst_xplane_synth_crosscheck.moc"
