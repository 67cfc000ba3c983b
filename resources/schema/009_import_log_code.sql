-- The stable code of each import_log row (models/store/import_log_code.h, listed in
-- docs/session-format.md): tests and scripts match codes, the message beside it is for people.
-- Rows of sessions imported before this column have the code '' (their messages still say what
-- happened); re-importing a source writes its rows with codes.
ALTER TABLE import_log ADD COLUMN code TEXT NOT NULL DEFAULT '';
