// `stepscope query S.stepscope "SELECT ..." [--format csv|json]`: read-only SQL over a session
// (UserQuery enforces read-only and reads the rows), written out as CSV or JSON as they come.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "importers/logdir/path_problem.h"
#include "models/text/printable_text.h"
#include "models/store/user_query.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <sys/stat.h>

#include <cerrno>
#include <ostream>

namespace stepscope::cli {

namespace {
std::string csvField(const std::string &v) {
    if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
    std::string out = "\"";
    for (char c : v) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}
} // namespace

int runQuery(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"--format"});
    if (!a.ok() || a.positional().size() != 2) {
        io.err << "stepscope query: " << (a.ok() ? "usage: stepscope query S.stepscope \"SELECT ...\" [--format csv|json]" : a.error())
               << "\n";
        return Usage;
    }
    const std::string format = a.value("--format").value_or("csv");
    if (format != "csv" && format != "json") {
        io.err << "stepscope query: unknown format '" << format << "' (csv or json)\n";
        return Usage;
    }
    const std::string &file = a.positional()[0];
    const std::string &sql = a.positional()[1];
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) {
        io.err << "stepscope query: " << printableText(file) << ": " << pathErrorText(errno) << "\n";
        return Unreadable;
    }
    if (const std::string type = fileTypeText(st.st_mode); !type.empty() || S_ISDIR(st.st_mode)) {
        io.err << "stepscope query: " << printableText(file) << ": " << (type.empty() ? "a folder" : type)
               << ", not a session file\n";
        return Unreadable;
    }
    if (!isSessionFile(file)) {
        io.err << "stepscope query: " << file << ": not a Stepscope session file\n";
        return Unreadable;
    }
    try {
        SessionStore store(file, SessionStore::Mode::ReadOnly);
        UserQuery query(store, sql);
        // A damaged file is unreadable input (2); anything else is a mistake in the SQL (1).
        const auto fail = [&] {
            const bool damaged = query.problem() == UserQuery::Problem::Damaged;
            io.err << "stepscope query: " << (damaged ? printableText(file) + ": " : std::string()) << query.message() << "\n";
            return damaged ? Unreadable : Usage;
        };
        if (query.problem() != UserQuery::Problem::None) return fail();
        // JSON is an array with one compact object per line.
        const std::vector<std::string> &columns = query.columns();
        if (format == "csv") {
            for (size_t c = 0; c < columns.size(); ++c) io.out << (c ? "," : "") << csvField(columns[c]);
            io.out << "\n";
        } else {
            io.out << "[";
        }
        int64_t rows = 0;
        std::vector<UserQuery::Value> row;
        while (query.next(row)) {
            QJsonObject obj;
            for (size_t c = 0; c < columns.size(); ++c) {
                const UserQuery::Value &v = row[c];
                if (format == "csv") {
                    io.out << (c ? "," : "") << (v.type == UserQuery::Value::Type::Null ? "" : csvField(v.text));
                } else {
                    const QString key = QString::fromStdString(columns[c]);
                    switch (v.type) {
                    case UserQuery::Value::Type::Integer: obj[key] = qint64(v.integer); break;
                    case UserQuery::Value::Type::Float: obj[key] = v.real; break;
                    case UserQuery::Value::Type::Null: obj[key] = QJsonValue::Null; break;
                    case UserQuery::Value::Type::Text:
                    case UserQuery::Value::Type::Blob: obj[key] = QString::fromStdString(v.text); break;
                    }
                }
            }
            if (format == "csv") io.out << "\n";
            else io.out << (rows ? ",\n" : "\n") << QJsonDocument(obj).toJson(QJsonDocument::Compact).toStdString();
            ++rows;
            if (!io.out) break;  // the output is gone (closed pipe, full disk): stop reading
        }
        if (query.problem() != UserQuery::Problem::None) return fail();
        if (format == "json") io.out << "\n]\n";
        return Ok;
    } catch (const StoreError &e) {
        io.err << "stepscope query: " << e.what() << "\n";
        return Unreadable;
    }
}

} // namespace stepscope::cli
