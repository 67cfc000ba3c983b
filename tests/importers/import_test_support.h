#pragma once
// Shared by the importer tests: run one importer on one file into a temporary session (the way
// SessionImporter does: one source, one transaction), or a list of paths through SessionImporter,
// and read query results back as "a|b|c" lines for exact comparisons.

#include "importers/common/import_context.h"
#include "importers/common/importer.h"
#include "importers/common/importer_registry.h"
#include "importers/logdir/session_importer.h"
#include "models/concurrency/cancel_token.h"
#include "models/store/session_store.h"
#include "models/store/session_writer.h"
#include "models/store/sqlite_statement.h"

#include <QStringList>
#include <QTemporaryDir>

#include <sqlite3.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace stepscope::test {

struct ImportedFile {
    std::unique_ptr<QTemporaryDir> dir;  // holds the session file
    std::unique_ptr<SessionStore> store;
    ImportResult result;
    int64_t warnings = 0;
};

inline ImportedFile importFile(Importer &importer, const std::filesystem::path &file, const CancelToken &cancel = {}) {
    ImportedFile r;
    r.dir = std::make_unique<QTemporaryDir>();
    r.store = std::make_unique<SessionStore>(std::filesystem::path(r.dir->path().toStdString()) / "s.stepscope");
    SessionWriter w(*r.store);
    w.begin();
    std::error_code ec;
    const int64_t src = w.addSource(file.string(), importer.format(), int64_t(std::filesystem::file_size(file, ec)));
    ImportContext ctx(w, src, file.string(), cancel);
    r.result = importer.import(file, ctx);
    r.warnings = ctx.warnings();
    w.finishSource(src, r.result.events, ctx.warnings(), r.result.status);
    w.commit();
    return r;
}

struct ImportedPaths {
    std::unique_ptr<QTemporaryDir> dir;  // empty when the caller named the session file
    std::unique_ptr<SessionStore> store;
    ImportSummary summary;
};

// Through SessionImporter (discovery, every registered importer); a temporary session unless
// `sessionFile` is given.
inline ImportedPaths importPaths(const std::vector<std::filesystem::path> &paths, const std::filesystem::path &sessionFile = {}) {
    ImportedPaths s;
    std::filesystem::path file = sessionFile;
    if (file.empty()) {
        s.dir = std::make_unique<QTemporaryDir>();
        file = std::filesystem::path(s.dir->path().toStdString()) / "s.stepscope";
    }
    s.store = std::make_unique<SessionStore>(file);
    ImporterRegistry registry;
    SessionImporter importer(*s.store, registry);
    s.summary = importer.run(paths);
    return s;
}

enum class Floats { AsStored, Rounded12 };  // REAL columns as SQLite prints them, or to 12 digits

inline QStringList queryRows(const SessionStore &store, const std::string &sql, Floats floats = Floats::AsStored) {
    QStringList out;
    SqliteStatement st(store.db(), sql);
    while (st.step()) {
        QStringList cols;
        for (int c = 0; c < st.columnCount(); ++c) {
            if (st.columnIsNull(c)) cols << QStringLiteral("NULL");
            else if (floats == Floats::Rounded12 && st.columnType(c) == SQLITE_FLOAT) cols << QString::number(st.columnDouble(c), 'g', 12);
            else cols << QString::fromStdString(st.columnText(c));
        }
        out << cols.join('|');
    }
    return out;
}

inline int64_t queryInt(const SessionStore &store, const std::string &sql) {
    SqliteStatement st(store.db(), sql);
    return st.step() ? st.columnInt(0) : -1;
}

// "severity|code|position|message" per row. Tests match the code (and position), not the message:
// the words are for people and free to improve (models/store/import_log_code.h).
inline QString importLog(const SessionStore &store) {
    return queryRows(store, "SELECT severity, code, position, message FROM import_log").join('\n');
}

} // namespace stepscope::test
