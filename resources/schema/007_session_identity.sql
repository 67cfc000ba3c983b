-- Stepscope session store, migration 7: the session's own identity, a random id made when the
-- session is created (or first opened read-write by a version that has this migration). Derived
-- results are keyed on it, so an analysis copied in from another session is never taken for this
-- one's (it is re-computed). A copy of the whole file keeps the id: its content is the same.

INSERT OR IGNORE INTO session_setting(key, value) VALUES ('session_id', lower(hex(randomblob(16))));
