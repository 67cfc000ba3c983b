-- Stepscope session store, migration 1: the imported data.
-- Times are int64 nanoseconds. Trace times (slice, step, counter_sample) are relative to their run's
-- time_base_ns; metric and annotation times are absolute Unix-epoch ns. The stable views at the end
-- turn everything into absolute times; scripts should query the views, not the tables.

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT
) WITHOUT ROWID;

CREATE TABLE string (
  id   INTEGER PRIMARY KEY,
  text TEXT NOT NULL UNIQUE
);

CREATE TABLE source (
  id              INTEGER PRIMARY KEY,
  path            TEXT NOT NULL UNIQUE,
  format          TEXT NOT NULL,
  size_bytes      INTEGER NOT NULL DEFAULT 0,
  events          INTEGER NOT NULL DEFAULT 0,
  warnings        INTEGER NOT NULL DEFAULT 0,
  status          TEXT NOT NULL DEFAULT 'ok' CHECK (status IN ('ok', 'partial', 'failed')),
  imported_at_ns  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE run (
  id            INTEGER PRIMARY KEY,
  source_id     INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
  name          TEXT NOT NULL,
  host          TEXT NOT NULL DEFAULT '',
  framework     TEXT NOT NULL DEFAULT '',
  device        TEXT NOT NULL DEFAULT '',
  rank          INTEGER,
  time_base_ns  INTEGER NOT NULL DEFAULT 0,
  has_epoch     INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE track (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  kind        TEXT NOT NULL CHECK (kind IN ('host_thread', 'gpu_stream', 'counter', 'other')),
  device      INTEGER,
  name        TEXT NOT NULL,
  pid         TEXT NOT NULL DEFAULT '',
  tid         TEXT NOT NULL DEFAULT '',
  sort_index  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX track_run ON track(run_id);

-- One row per timed event. depth/parent describe nesting on the track.
CREATE TABLE slice (
  id           INTEGER PRIMARY KEY,
  track_id     INTEGER NOT NULL,
  start_ns     INTEGER NOT NULL,
  dur_ns       INTEGER NOT NULL,
  depth        INTEGER NOT NULL DEFAULT 0,
  parent_id    INTEGER,
  name_id      INTEGER NOT NULL,
  category_id  INTEGER,
  correlation  INTEGER,
  args         TEXT
);
CREATE INDEX slice_track_start ON slice(track_id, start_ns);

CREATE TABLE flow (
  id             INTEGER PRIMARY KEY,
  run_id         INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  from_slice_id  INTEGER NOT NULL,
  to_slice_id    INTEGER NOT NULL,
  category_id    INTEGER
);

CREATE TABLE counter_sample (
  track_id  INTEGER NOT NULL,
  t_ns      INTEGER NOT NULL,
  value     REAL NOT NULL
);
CREATE INDEX counter_sample_track ON counter_sample(track_id, t_ns);

CREATE TABLE step (
  run_id    INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  step      INTEGER NOT NULL,
  start_ns  INTEGER NOT NULL,
  dur_ns    INTEGER NOT NULL,
  PRIMARY KEY (run_id, step)
) WITHOUT ROWID;

CREATE TABLE metric_series (
  id         INTEGER PRIMARY KEY,
  source_id  INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
  run        TEXT NOT NULL DEFAULT '',
  name       TEXT NOT NULL,
  device     INTEGER,
  unit       TEXT NOT NULL DEFAULT '',
  period_ns  INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE metric_sample (
  series_id  INTEGER NOT NULL,
  t_ns       INTEGER NOT NULL,
  value      REAL NOT NULL
);
CREATE INDEX metric_sample_series ON metric_sample(series_id, t_ns);

-- Every warning and dropped record, with the file and the byte offset (or line) it came from.
CREATE TABLE import_log (
  id         INTEGER PRIMARY KEY,
  source_id  INTEGER REFERENCES source(id) ON DELETE CASCADE,
  severity   TEXT NOT NULL CHECK (severity IN ('info', 'warning', 'error')),
  file       TEXT NOT NULL,
  position   TEXT NOT NULL DEFAULT '',
  message    TEXT NOT NULL
);

CREATE VIEW v_slice AS
  SELECT r.name AS run,
         CASE t.kind WHEN 'host_thread' THEN 'host_thread' WHEN 'gpu_stream' THEN 'gpu_stream'
                     ELSE 'other' END AS track_kind,
         CASE t.kind WHEN 'gpu_stream' THEN t.device ELSE NULL END AS device,
         t.name AS track,
         n.text AS name,
         c.text AS category,
         s.start_ns + r.time_base_ns AS start_ns,
         s.dur_ns AS dur_ns,
         s.depth AS depth
  FROM slice s
  JOIN track t ON t.id = s.track_id
  JOIN run r ON r.id = t.run_id
  JOIN string n ON n.id = s.name_id
  LEFT JOIN string c ON c.id = s.category_id;

CREATE VIEW v_step AS
  SELECT r.name AS run, st.step AS step, st.start_ns + r.time_base_ns AS start_ns, st.dur_ns AS dur_ns
  FROM step st JOIN run r ON r.id = st.run_id;

CREATE VIEW v_metric AS
  SELECT ms.run AS run, ms.name AS series, ms.device AS device, ms.unit AS unit,
         m.t_ns AS t_ns, m.value AS value
  FROM metric_sample m JOIN metric_series ms ON ms.id = m.series_id;
