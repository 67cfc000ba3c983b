-- Stepscope session store, migration 3: the timeline's level-of-detail cache.
-- Derived data, rebuilt by TimelineLodWriter whenever the imported content changes (the fingerprint
-- in timeline_lod_state no longer matches); safe to delete, never edited by the user.
--
-- For each track with many slices and each level L (bucket width 2^(10+2L) ns: 1 µs, 4 µs, 16 µs, …),
-- the slices of the track are summarised per (bucket, depth) cell: how many start in the bucket,
-- their summed duration, and the longest of them (start, duration, name). Every slice that reaches
-- past the end of its bucket is the longest in its cell, so a renderer drawing at ~1 px per bucket
-- sees every wide slice exactly and the rest as counted density.
-- `cells` packs the cells of one level, sorted by (bucket, depth), as little-endian records of
-- 48 bytes: bucket i64, long_start_ns i64, long_dur_ns i64, busy_ns i64, count u32, long_name_id i32,
-- depth u32, reserved u32. Times are relative to the run's time_base_ns, like slice.start_ns.

CREATE TABLE timeline_lod_track (
  track_id      INTEGER PRIMARY KEY,
  slices        INTEGER NOT NULL,
  depth_count   INTEGER NOT NULL,
  start_ns      INTEGER NOT NULL,
  end_ns        INTEGER NOT NULL,
  finest_level  INTEGER NOT NULL   -- -1: too few slices to summarise; read them directly
);

CREATE TABLE timeline_lod (
  track_id  INTEGER NOT NULL,
  level     INTEGER NOT NULL,
  cells     BLOB NOT NULL,
  PRIMARY KEY (track_id, level)
);

CREATE TABLE timeline_lod_state (
  key    TEXT PRIMARY KEY,
  value  TEXT
) WITHOUT ROWID;

-- Flow arrows are looked up from the slices on screen (launch -> kernel and back).
CREATE INDEX IF NOT EXISTS flow_from_slice ON flow(from_slice_id);
CREATE INDEX IF NOT EXISTS flow_to_slice ON flow(to_slice_id);
