#pragma once
// Whether a session file's pages are whole: SQLite's quick check (one sequential pass, ~1 s per
// GB), run before a view or analysis reads half of a damaged file. Called by the command line when
// it opens a session it did not write.

#include "models/store/session_store.h"

#include <string>

namespace stepscope {

// Empty when the file is whole; else what is wrong, on one line.
std::string sessionDamage(const SessionStore &store);

} // namespace stepscope
