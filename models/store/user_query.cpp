#include "models/store/user_query.h"

namespace stepscope {
namespace {

// Denies ATTACH/DETACH, the functions above and pragmas that set something; pragmas that only
// read (with or without an argument such as a table name) stay allowed.
int readOnlyAuthorizer(void *, int action, const char *name, const char *arg, const char *, const char *) {
    if (action == SQLITE_ATTACH || action == SQLITE_DETACH) return SQLITE_DENY;
    if (action == SQLITE_FUNCTION) {
        static const char *const kDenied[] = {"fts3_tokenizer", "load_extension", "readfile", "writefile", "edit"};
        for (const char *f : kDenied)
            if (arg && sqlite3_stricmp(arg, f) == 0) return SQLITE_DENY;
        return SQLITE_OK;
    }
    if (action != SQLITE_PRAGMA || !arg) return SQLITE_OK;
    static const char *const kReadWithArgument[] = {"table_info", "table_xinfo", "table_list", "index_list", "index_info",
                                                    "index_xinfo", "foreign_key_list", "foreign_key_check",
                                                    "integrity_check", "quick_check", "function_list", "pragma_list"};
    for (const char *p : kReadWithArgument)
        if (name && sqlite3_stricmp(name, p) == 0) return SQLITE_OK;
    return SQLITE_DENY;
}

} // namespace

UserQuery::UserQuery(SessionStore &store, const std::string &sql) : m_store(store) {
    sqlite3 *db = store.db();
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_set_authorizer(db, readOnlyAuthorizer, nullptr);
    const char *tail = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), int(sql.size()), &m_stmt, &tail) != SQLITE_OK) {
        failed();
        return;
    }
    if (!m_stmt) {
        m_problem = Problem::Empty;
        m_message = "empty query";
    } else if (!sqlite3_stmt_readonly(m_stmt)) {
        m_problem = Problem::Writes;
        m_message = "refused: the statement would change the session; the query command is read-only";
    } else if (tail && std::string(tail).find_first_not_of(" \t\r\n;") != std::string::npos) {
        m_problem = Problem::Several;
        m_message = "give one statement at a time";
    } else {
        for (int c = 0; c < sqlite3_column_count(m_stmt); ++c)
            m_columns.emplace_back(sqlite3_column_name(m_stmt, c));
    }
}

UserQuery::~UserQuery() { sqlite3_finalize(m_stmt); }

void UserQuery::failed() {
    sqlite3 *db = m_store.db();
    const int code = sqlite3_extended_errcode(db), primary = code & 0xff;
    m_problem = primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_IOERR ? Problem::Damaged
                                                                                                 : Problem::BadSql;
    m_message = sqliteErrorMessage(db, code);
}

bool UserQuery::next(std::vector<Value> &row) {
    if (m_problem != Problem::None || !m_stmt)
        return false;
    const int rc = sqlite3_step(m_stmt);
    if (rc != SQLITE_ROW) {
        if (rc != SQLITE_DONE)
            failed();
        return false;
    }
    row.resize(m_columns.size());
    for (size_t c = 0; c < m_columns.size(); ++c) {
        Value &v = row[c];
        const int col = int(c);
        switch (sqlite3_column_type(m_stmt, col)) {
        case SQLITE_INTEGER: v.type = Value::Type::Integer; v.integer = sqlite3_column_int64(m_stmt, col); break;
        case SQLITE_FLOAT: v.type = Value::Type::Float; v.real = sqlite3_column_double(m_stmt, col); break;
        case SQLITE_NULL: v.type = Value::Type::Null; break;
        case SQLITE_BLOB: v.type = Value::Type::Blob; break;
        default: v.type = Value::Type::Text; break;
        }
        if (v.type == Value::Type::Blob) {
            static constexpr char kHex[] = "0123456789ABCDEF";
            const auto *bytes = static_cast<const unsigned char *>(sqlite3_column_blob(m_stmt, col));
            const size_t n = size_t(sqlite3_column_bytes(m_stmt, col));
            v.text.assign("X'");
            v.text.reserve(n * 2 + 3);
            for (size_t i = 0; i < n; ++i) v.text += kHex[bytes[i] >> 4], v.text += kHex[bytes[i] & 15];
            v.text += '\'';
            continue;
        }
        const char *txt = reinterpret_cast<const char *>(sqlite3_column_text(m_stmt, col));
        v.text.assign(txt ? txt : "", txt ? size_t(sqlite3_column_bytes(m_stmt, col)) : 0);
    }
    return true;
}

} // namespace stepscope
