-- The FLOPs and bytes of one framework op or device op, from its recorded shapes or from the
-- profiler's own figures (importers/common/op_cost.h), computed once while it is imported so that the
-- analysis reads this small table instead of every op's args (issue #33). Track, start and name repeat
-- the slice's, so the analysis finds its costs by track and time without touching the slice table.
-- Sessions imported before this table have no costs: re-import their traces to get them.
CREATE TABLE slice_cost (
  slice_id  INTEGER PRIMARY KEY,
  track_id  INTEGER NOT NULL,
  start_ns  INTEGER NOT NULL,
  name_id   INTEGER NOT NULL,
  flops     REAL NOT NULL,
  bytes     REAL NOT NULL,
  dtype     TEXT NOT NULL,
  shapes    TEXT NOT NULL
);
CREATE INDEX slice_cost_track_start ON slice_cost(track_id, start_ns);
