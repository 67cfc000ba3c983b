#include "models/store/session_integrity.h"

#include "models/store/sqlite_statement.h"

namespace stepscope {

std::string sessionDamage(const SessionStore &store) {
    SqliteStatement check(store.db(), "PRAGMA quick_check(1)");
    std::string verdict = check.step() ? check.columnText(0) : std::string("no answer");
    if (verdict.rfind("*** in database main ***\n", 0) == 0) verdict.erase(0, 25);
    for (char &c : verdict) c = c == '\n' ? ';' : c;
    return verdict == "ok" ? std::string() : verdict;
}

} // namespace stepscope
