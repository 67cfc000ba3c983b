#pragma once
// Shared by the utilization tests: sessions built in code (synthetic profile + nvidia-smi CSV, or
// given files) opened in a SessionModel, and the view rendered to a PNG under the build folder.

#include "app/synth/synthetic_profile_generator.h"
#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "models/metrics/metric_series_model.h"
#include "models/qt/session_model.h"
#include "views/utilization/utilization_view.h"

#include <QApplication>
#include <QDir>
#include <QTemporaryDir>

#include <memory>

namespace stepscope::test {

struct UtilizationFixture {
    QTemporaryDir dir;
    SessionModel session;
    TimeRangeController time;
    std::unique_ptr<MetricSeriesModel> metrics;
    std::unique_ptr<UtilizationView> view;

    std::filesystem::path path(const char *name) const { return std::filesystem::path(dir.path().toStdString()) / name; }

    // Imports `inputs` into a new session, opens it and builds the view at the given size.
    void open(const std::vector<std::filesystem::path> &inputs, QSize size = {1200, 760}) {
        auto store = std::make_unique<SessionStore>(path("s.stepscope"));
        ImporterRegistry registry;
        SessionImporter(*store, registry).run(inputs);
        session.setStore(std::move(store));
        metrics = std::make_unique<MetricSeriesModel>(&session);
        // A snapshot (every sample at one instant) gets a minute around it, as MainWindow should.
        NsRange extent = session.extent();
        if (extent.end - extent.start < 1'000'000'000) extent = {extent.start - 30'000'000'000, extent.end + 30'000'000'000};
        time.setFullRange(extent);
        view = std::make_unique<UtilizationView>(metrics.get(), &time);
        view->resize(size);
        view->show();
        QApplication::processEvents();
        view->refresh();
    }

    // Synthetic training run (PyTorch trace + nvidia-smi CSV on the same epoch).
    void openSynthetic(int gpus, synth::Bottleneck bottleneck, int steps = 60) {
        synth::SyntheticProfileOptions o;
        o.steps = steps;
        o.gpus = gpus;
        o.bottleneck = bottleneck;
        o.seed = 7;
        synth::SyntheticProfileGenerator(o).generate(path("run.pt.trace.json.gz"), path("nvidia-smi.csv"));
        open({path("run.pt.trace.json.gz"), path("nvidia-smi.csv")});
    }

    // Saves the view to STEPSCOPE_BINARY_DIR/test-output/<name>.png; returns the file.
    QString savePng(const QString &name) const {
        QDir().mkpath(QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output"));
        const QString file = QStringLiteral(STEPSCOPE_BINARY_DIR "/test-output/") + name + QStringLiteral(".png");
        QApplication::processEvents();
        return view->grab().save(file) ? file : QString();
    }
};

} // namespace stepscope::test
