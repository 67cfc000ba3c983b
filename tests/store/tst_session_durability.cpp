// The session file is complete on its own and readable wherever it lies (DESIGN.md "Session files
// are input too"): an import and every user-data write (note, saved view, setting, clock offset)
// are in the .stepscope file itself while the store is still open, closing the store leaves nothing
// in -wal, a session in a folder that cannot hold -shm still opens read-only (or says why not),
// and damaged pages give a StoreError naming the file, never an abort.

#include "models/store/annotation_store.h"
#include "tests/store/store_test_support.h"
#include "tests/child_process.h"
#include "tests/test_support.h"

#include <QtTest>

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <optional>

using namespace stepscope;
using namespace stepscope::test;
namespace fs = std::filesystem;

namespace {
// Runs `body` as an unprivileged user when this is root (root ignores folder permissions); returns
// what it reported, or nullopt when privileges cannot be dropped here.
std::optional<std::string> runUnprivileged(const std::function<std::string()> &body) {
    const auto r = test::runInChild([&](int &) { return body(); }, true);
    return r ? std::optional<std::string>(r->out) : std::nullopt;
}

std::string readSession(const fs::path &file) {
    SessionStore s(file, SessionStore::Mode::ReadOnly);
    return "ok: " + std::to_string(SessionReader(s).sliceCount()) + " slices";
}
void writeFileText(const fs::path &p, const std::string &text) { std::ofstream(p, std::ios::binary) << text; }
} // namespace

class TstSessionDurability : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    fs::path path(const std::string &name) const { return fs::path(m_dir.path().toStdString()) / name; }

    // A folder nobody can write into, holding `files`; the caller restores its mode.
    fs::path readOnlyFolder(const std::string &name, const std::vector<fs::path> &files) {
        fs::permissions(m_dir.path().toStdString(), fs::perms(0755));
        const fs::path dir = path(name);
        fs::create_directory(dir);
        for (const fs::path &f : files) {
            fs::copy_file(f, dir / f.filename());
            fs::permissions(dir / f.filename(), fs::perms(0444));
        }
        fs::permissions(dir, fs::perms(0555));
        return dir;
    }

private slots:
    void importAndUserDataAreInTheFileItself() {
        const fs::path file = path("live.stepscope");
        SessionStore store(file);
        {
            SessionWriter w(store);
            w.begin();
            const int64_t src = w.addSource("/data/a.json", "test", 1);
            RunInfo run;
            run.name = "host-a";
            w.addRun(src, run);
            w.commit();
        }
        AnnotationStore notes(store);
        notes.insert(Annotation{0, 1000, 2000, "slow step"});
        notes.insert(SavedView{0, "warm-up", 0, 5000, {}});
        store.setSetting("batch_size", "64");
        store.setClockOffsetNs("/data/a.json", 1234);
        // Copy the .stepscope alone, while the store is still open, as a user mailing it would.
        const fs::path copy = path("copy.stepscope");
        fs::copy_file(file, copy);
        SessionStore s(copy, SessionStore::Mode::ReadOnly);
        QCOMPARE(text(s.db(), "SELECT name FROM run"), std::string("host-a"));
        QCOMPARE(text(s.db(), "SELECT text FROM annotation"), std::string("slow step"));
        QCOMPARE(text(s.db(), "SELECT name FROM bookmark"), std::string("warm-up"));
        QCOMPARE(s.setting("batch_size"), std::string("64"));
        QCOMPARE(s.clockOffsetNs("/data/a.json"), int64_t(1234));
    }

    void closingLeavesNothingInWal() {
        const fs::path file = path("closed.stepscope");
        writeSession(file);
        // Another connection stays open (a second window, a loader), so SQLite's own clean-up at
        // the last close does not run.
        SessionConnection other = SessionStore::openReadOnlyConnection(file);
        QCOMPARE(scalar(other.db(), "SELECT count(*) FROM slice"), int64_t(3));
        {
            SessionStore store(file);
            sqliteExec(store.db(), "INSERT INTO annotation(start_ns, end_ns, text) VALUES (1, 2, 'written last')");
            QVERIFY(fileSize(file.string() + "-wal") > 0);
        }
        QCOMPARE(fileSize(file.string() + "-wal"), int64_t(0));
        const fs::path copy = path("closed-copy.stepscope");
        fs::copy_file(file, copy);
        SessionStore s(copy, SessionStore::Mode::ReadOnly);
        QCOMPARE(text(s.db(), "SELECT text FROM annotation"), std::string("written last"));
    }

    void saveCopyWritesACompleteFileOrNothing() {
        const fs::path file = path("original.stepscope");
        writeSession(file, 40);
        SessionStore store(file);
        AnnotationStore(store).insert(Annotation{0, 10, 20, "kept in the copy"});
        const fs::path copy = path("saved-as.stepscope");
        writeFileText(copy, "an older file in the way");
        store.saveCopyTo(copy);
        QVERIFY(!fs::exists(copy.string() + ".partial"));
        {
            SessionStore s(copy, SessionStore::Mode::ReadOnly);
            QCOMPARE(scalar(s.db(), "SELECT count(*) FROM slice"), int64_t(40));
            QCOMPARE(text(s.db(), "SELECT text FROM annotation"), std::string("kept in the copy"));
        }
        // Onto itself, or into a folder that does not exist: a StoreError naming the target, and
        // nothing changed or left behind.
        const auto before = fs::file_size(file);
        bool threw = false;
        try {
            store.saveCopyTo(file);
        } catch (const StoreError &e) {
            threw = std::string(e.what()).find("original.stepscope") != std::string::npos;
        }
        QVERIFY(threw);
        QCOMPARE(fs::file_size(file), before);
        threw = false;
        try {
            store.saveCopyTo(path("no-such-folder/x.stepscope"));
        } catch (const StoreError &e) {
            threw = std::string(e.what()).find("x.stepscope") != std::string::npos;
        }
        QVERIFY(threw);
        QVERIFY(!fs::exists(path("no-such-folder")));
    }

    void readOnlyFolderStillOpens() {
        const fs::path file = path("shared.stepscope");
        writeSession(file);
        const fs::path dir = readOnlyFolder("readonly", {file});
        const auto report = runUnprivileged([&] { return readSession(dir / file.filename()); });
        fs::permissions(dir, fs::perms(0755));
        if (!report) QSKIP("cannot run as an unprivileged user here");
        QVERIFY2(*report == "ok: 3 slices", report->c_str());
        QVERIFY(!fs::exists(dir / "shared.stepscope-shm"));
    }

    void readOnlyFolderWithPendingWalSaysWhy() {
        const fs::path file = path("pending.stepscope");
        writeSession(file);
        // Changes still only in -wal: written by a connection that has not checkpointed yet.
        sqlite3 *db = nullptr;
        QCOMPARE(sqlite3_open(file.c_str(), &db), SQLITE_OK);
        QCOMPARE(sqlite3_exec(db, "PRAGMA wal_autocheckpoint=0; INSERT INTO annotation(start_ns, end_ns, text) VALUES (1, 2, 'x')",
                              nullptr, nullptr, nullptr), SQLITE_OK);
        const fs::path dir = readOnlyFolder("readonly-wal", {file, file.string() + "-wal"});
        sqlite3_close(db);
        const auto report = runUnprivileged([&] { return readSession(dir / file.filename()); });
        fs::permissions(dir, fs::perms(0755));
        if (!report) QSKIP("cannot run as an unprivileged user here");
        QVERIFY2(report->find("error: " + (dir / file.filename()).string() + ": cannot read the session here") == 0 &&
                     report->find("still only in pending.stepscope-wal") != std::string::npos, report->c_str());
    }

    void damagedPagesGiveStoreErrorNamingTheFile() {
        const fs::path file = path("damaged.stepscope");
        writeSession(file, 20000);
        const int64_t size = fileSize(file);
        QVERIFY(size > 200 * 4096);
        {
            // Overwrite the middle third of the file, page-aligned, with a byte pattern.
            std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
            const int64_t from = size / 3 / 4096 * 4096, to = 2 * size / 3 / 4096 * 4096;
            const std::string junk(size_t(to - from), '\x5a');
            f.seekp(from);
            f.write(junk.data(), std::streamsize(junk.size()));
        }
        QString msg;
        try {
            SessionStore s(file, SessionStore::Mode::ReadOnly);
            SessionReader r(s);
            for (const RunRow &run : r.runs()) {
                r.tracks(run.id);
                r.runTimeRange(run.id);
            }
            r.sliceCount();
            msg = "<read without error>";
        } catch (const StoreError &e) {
            msg = QString::fromStdString(e.what());
        }
        QVERIFY2(msg.contains(QString::fromStdString(file.string()) + ": ") && msg.contains("damaged"), qPrintable(msg));
    }
};

QTEST_GUILESS_MAIN(TstSessionDurability)
#include "tst_session_durability.moc"
