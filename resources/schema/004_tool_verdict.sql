-- Stepscope session store, migration 4: what other profilers concluded about a run.
-- One row per analysis file another tool wrote beside the trace (the TensorFlow profiler's
-- `<host>.overview_page.pb`, `.input_pipeline.pb`, `.tensorflow_stats.pb`, `.kernel_stats.pb`), as
-- that tool said it: the report shows it beside Stepscope's own verdict (`runs[].cross_checks`).
-- `top_ops` is a JSON array of {"name","category","self_pct"}. Imported data: a re-import of the
-- file replaces its row.

CREATE TABLE tool_verdict (
  id           INTEGER PRIMARY KEY,
  source_id    INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
  tool         TEXT NOT NULL,             -- tensorflow_profiler
  kind         TEXT NOT NULL,             -- overview_page, input_pipeline, tensorflow_stats, kernel_stats
  input_pct    REAL,                      -- NULL when the file does not say
  verdict      TEXT NOT NULL DEFAULT '',  -- the tool's bottleneck sentence
  device_type  TEXT NOT NULL DEFAULT '',
  steps        INTEGER NOT NULL DEFAULT 0,
  top_ops      TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX tool_verdict_source ON tool_verdict(source_id);
