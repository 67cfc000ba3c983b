// Annotations and saved views in the session: the store's rows, the shared model's undoable edits,
// transient notes that are never written, and the round trip through save / re-import / reopen /
// copy of the .stepscope file. Saved views from a finding's evidence.

#include "app/cli/input_session.h"
#include "app/synth/synthetic_profile_generator.h"
#include "models/analysis/engine/run_analysis.h"
#include "models/annotations/annotation_model.h"
#include "models/annotations/saved_view_model.h"
#include "tests/test_support.h"

#include <QUndoStack>
#include <QtTest>

#include <sstream>

using namespace stepscope;

namespace {
int64_t countRows(SessionStore &store, const char *sql) {
    SqliteStatement st(store.db(), sql);
    return st.step() ? st.columnInt(0) : -1;
}
Annotation note(int64_t start, int64_t end, const std::string &text, const std::string &color = "#2f6fb5") {
    Annotation a;
    a.startNs = start;
    a.endNs = end;
    a.text = text;
    a.color = color;
    return a;
}
} // namespace

class TestAnnotationModel : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_trace;

    std::string importFresh(const QString &name) {
        const std::string file = m_dir.filePath(name).toStdString();
        SessionStore store(file);
        std::ostringstream out, err;
        cli::importInto(store, {m_trace}, {out, err, false});
        return file;
    }

private slots:
    void initTestCase() {
        synth::SyntheticProfileOptions o;
        o.steps = 8;
        o.bottleneck = synth::Bottleneck::Checkpoint;
        m_trace = m_dir.filePath("t.pt.trace.json.gz").toStdString();
        synth::SyntheticProfileGenerator(o).generate(m_trace, {});
    }

    void storeRowsAndView() {
        SessionStore store(m_dir.filePath("rows.stepscope").toStdString());
        AnnotationStore notes(store);
        const int64_t id = notes.insert(note(100, 50, "point: end before start becomes a point"));
        notes.insert(note(10, 20, "range"));
        const auto all = notes.annotations();
        QCOMPARE(all.size(), size_t(2));
        QCOMPARE(all[0].text, std::string("range"));  // by start time
        QVERIFY(all[1].isPoint());
        QCOMPARE(all[1].id, id);
        QVERIFY(all[1].createdNs > 0);
        QCOMPARE(countRows(store, "SELECT count(*) FROM v_annotation WHERE text = 'range' AND end_ns = 20"), int64_t(1));
        notes.remove(id);
        QCOMPARE(notes.annotations().size(), size_t(1));
    }

    void undoableEditsAndTransientNotes() {
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(m_dir.filePath("undo.stepscope").toStdString()));
        AnnotationModel *model = AnnotationModel::of(&session);
        QCOMPARE(AnnotationModel::of(&session), model);  // one per session model
        QSignalSpy changed(model, &AnnotationModel::changed);
        const int64_t id = model->add(note(1000, 2000, "GPU idle: data loader"));
        QVERIFY(id > 0);
        QVERIFY(changed.count() >= 1);
        Annotation edited = *model->find(id);
        edited.text = "GPU idle: waiting for the data loader";
        model->update(edited);
        QCOMPARE(model->find(id)->text, edited.text);
        model->remove(id);
        QVERIFY(!model->find(id));
        model->undoStack()->undo();  // the delete
        QVERIFY(model->find(id));
        QCOMPARE(model->find(id)->text, edited.text);
        model->undoStack()->undo();  // the edit
        QCOMPARE(model->find(id)->text, std::string("GPU idle: data loader"));
        model->undoStack()->redo();
        QCOMPARE(model->find(id)->text, edited.text);

        // Transient notes are drawn (listed) but never written.
        const int64_t t = model->addTransient(note(1500, 1500, "export only"));
        QVERIFY(t < 0);
        QCOMPARE(model->annotations().size(), size_t(2));
        QCOMPARE(model->inRange(1400, 1600).size(), size_t(2));
        QCOMPARE(model->inRange(3000, 4000).size(), size_t(0));
        QCOMPARE(countRows(*session.store(), "SELECT count(*) FROM annotation"), int64_t(1));
        model->clearTransient();
        QCOMPARE(model->annotations().size(), size_t(1));
    }

    void readOnlySessionIsNotWritten() {
        const std::string file = m_dir.filePath("ro.stepscope").toStdString();
        { SessionStore create(file); }
        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(file, SessionStore::Mode::ReadOnly));
        AnnotationModel *model = AnnotationModel::of(&session);
        QVERIFY(!model->canWrite());
        QCOMPARE(model->add(note(1, 2, "nope")), int64_t(0));
        QVERIFY(model->annotations().empty());
    }

    void roundTripThroughReimportReopenAndCopy() {
        const std::string file = importFresh("trip.stepscope");
        int64_t start = 0, end = 0;
        {
            SessionModel session;
            session.setStore(std::make_unique<SessionStore>(file));
            const NsRange extent = session.extent();
            QVERIFY(extent.valid());
            start = extent.start + (extent.end - extent.start) / 4;
            end = start + 5'000'000;
            QVERIFY(AnnotationModel::of(&session)->add(note(start, end, "checkpoint stalls the GPU", "#e0474c")) > 0);
            QVERIFY(AnnotationModel::of(&session)->add(note(end, end, "resumes")) > 0);
            QVERIFY(SavedViewModel::of(&session)->add({0, "stall", start, end, R"({"hidden":["worker/host/python"]})"}) > 0);
        }
        {
            // Re-import the same trace into the same session: user data stays.
            SessionStore store(file);
            std::ostringstream out, err;
            QCOMPARE(cli::importInto(store, {m_trace}, {out, err, false}), int(cli::Ok));
            QVERIFY(countRows(store, "SELECT count(*) FROM slice") > 0);
        }
        const std::string copy = m_dir.filePath("trip-copy.stepscope").toStdString();
        std::filesystem::copy_file(file, copy, std::filesystem::copy_options::overwrite_existing);
        for (const std::string &f : {file, copy}) {
            SessionModel session;
            session.setStore(std::make_unique<SessionStore>(f));
            const auto &notes = AnnotationModel::of(&session)->annotations();
            QCOMPARE(notes.size(), size_t(2));
            QCOMPARE(notes[0].text, std::string("checkpoint stalls the GPU"));
            QCOMPARE(notes[0].color, std::string("#e0474c"));
            QCOMPARE(notes[0].startNs, start);
            QCOMPARE(notes[0].endNs, end);
            QVERIFY(notes[1].isPoint());
            QCOMPARE(countRows(*session.store(), "SELECT count(*) FROM v_annotation"), int64_t(2));
            const auto &views = SavedViewModel::of(&session)->views();
            QCOMPARE(views.size(), size_t(1));
            QCOMPARE(views[0].name, std::string("stall"));
            QVERIFY(views[0].layout.find("python") != std::string::npos);
        }
    }

    void savedViewsFromFindingEvidence() {
        StepTimeline steps;
        for (int i = 0; i < 6; ++i) steps.steps.push_back({i, 1000 * i, 1000 * i + 1000});
        Finding f;
        f.title = "Checkpoint every 2 steps";
        f.steps = {1, 3, 5, 99};  // 99: not in the timeline, skipped
        f.startNs = 1000;
        f.endNs = 6000;
        auto views = SavedViewModel::evidenceViews(f, steps);
        QCOMPARE(views.size(), size_t(3));
        QCOMPARE(views[0].name, std::string("Checkpoint every 2 steps — step 1"));
        QCOMPARE(views[0].startNs, int64_t(900));   // 10% margin each side
        QCOMPARE(views[0].endNs, int64_t(2100));
        f.steps.clear();
        views = SavedViewModel::evidenceViews(f, steps);
        QCOMPARE(views.size(), size_t(1));
        QVERIFY(views[0].startNs < 1000 && views[0].endNs > 6000);

        SessionModel session;
        session.setStore(std::make_unique<SessionStore>(m_dir.filePath("views.stepscope").toStdString()));
        SavedViewModel *model = SavedViewModel::of(&session);
        f.steps = {1, 3, 5};
        QCOMPARE(model->addEvidence(f, steps), 3);
        QCOMPARE(model->current(), 0);
        QCOMPARE(model->next()->name, std::string("Checkpoint every 2 steps — step 3"));
        QCOMPARE(model->next()->name, std::string("Checkpoint every 2 steps — step 5"));
        QCOMPARE(model->next()->name, std::string("Checkpoint every 2 steps — step 1"));  // wraps
        QCOMPARE(model->previous()->name, std::string("Checkpoint every 2 steps — step 5"));
        model->remove(model->views()[0].id);
        QCOMPARE(model->views().size(), size_t(2));
    }
};

QTEST_GUILESS_MAIN(TestAnnotationModel)
#include "tst_annotation_model.moc"
