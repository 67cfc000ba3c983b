#pragma once
// Shared by the session-store tests: a small real session written through SessionWriter, and a
// plain SQLite connection (none of Stepscope's protections) to alter a session the way a file
// from someone else could be.

#include "models/store/session_reader.h"
#include "models/store/session_writer.h"

#include <QCryptographicHash>
#include <QFile>

#include <sqlite3.h>

#include <filesystem>
#include <string>

namespace stepscope::test {

// One source, one run, one host track with `slices` slices (nested in pairs), one step.
inline void writeSession(const std::filesystem::path &file, int slices = 3) {
    SessionStore store(file);
    SessionWriter w(store);
    w.begin();
    const int64_t src = w.addSource("/data/a.json", "test", 100);
    RunInfo run;
    run.name = "host-a";
    const int64_t r = w.addRun(src, run);
    const int64_t track = w.addTrack(r, {TrackKind::HostThread, std::nullopt, "thread 1", "1", "1", 0});
    const int64_t name = w.intern("op"), category = w.intern("cpu_op");
    for (int i = 0; i < slices; ++i)
        w.addSlice({track, int64_t(i) * 100, 50, i % 2, std::nullopt, name, category, std::nullopt,
                    i % 7 == 0 ? std::string_view(R"({"shape":[128,256,512],"note":"padding to fill pages"})") : std::string_view()});
    w.addStep(r, 1, 0, int64_t(slices) * 100);
    w.finishSource(src, slices, 0, SourceStatus::Ok);
    w.commit();
}

// Runs SQL over a plain connection, as any SQLite tool would.
inline std::string rawExec(const std::filesystem::path &file, const std::string &sql) {
    sqlite3 *db = nullptr;
    std::string error;
    if (sqlite3_open(file.c_str(), &db) != SQLITE_OK) {
        error = sqlite3_errmsg(db);
    } else {
        char *err = nullptr;
        if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) error = err ? err : "error";
        sqlite3_free(err);
    }
    sqlite3_close(db);
    return error;
}

inline int64_t scalar(sqlite3 *db, const std::string &sql) {
    SqliteStatement st(db, sql);
    return st.step() ? st.columnInt(0) : -1;
}

inline std::string text(sqlite3 *db, const std::string &sql) {
    SqliteStatement st(db, sql);
    return st.step() ? st.columnText(0) : std::string("<no row>");
}

inline QByteArray digest(const std::filesystem::path &file) {
    QFile f(QString::fromStdString(file.string()));
    if (!f.open(QIODevice::ReadOnly)) return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

inline int64_t fileSize(const std::filesystem::path &file) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(file, ec);
    return ec ? -1 : int64_t(n);
}

} // namespace stepscope::test
