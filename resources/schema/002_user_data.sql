-- Stepscope session store, migration 2: data the user creates. Keyed so that a re-import of any
-- source never deletes it (no foreign keys into imported tables).

CREATE TABLE source_setting (
  path             TEXT PRIMARY KEY,
  clock_offset_ns  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE session_setting (
  key    TEXT PRIMARY KEY,
  value  TEXT
) WITHOUT ROWID;

CREATE TABLE annotation (
  id        INTEGER PRIMARY KEY,
  start_ns  INTEGER NOT NULL,
  end_ns    INTEGER NOT NULL,
  text      TEXT NOT NULL,
  color     TEXT NOT NULL DEFAULT '#f5a623',
  created_ns INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE bookmark (
  id        INTEGER PRIMARY KEY,
  name      TEXT NOT NULL,
  start_ns  INTEGER NOT NULL,
  end_ns    INTEGER NOT NULL,
  layout    TEXT
);

CREATE VIEW v_annotation AS
  SELECT id, start_ns, end_ns, text FROM annotation;

-- Trace times shifted by the user's clock offset for their source.
DROP VIEW v_slice;
CREATE VIEW v_slice AS
  SELECT r.name AS run,
         CASE t.kind WHEN 'host_thread' THEN 'host_thread' WHEN 'gpu_stream' THEN 'gpu_stream'
                     ELSE 'other' END AS track_kind,
         CASE t.kind WHEN 'gpu_stream' THEN t.device ELSE NULL END AS device,
         t.name AS track,
         n.text AS name,
         c.text AS category,
         s.start_ns + r.time_base_ns + COALESCE(o.clock_offset_ns, 0) AS start_ns,
         s.dur_ns AS dur_ns,
         s.depth AS depth
  FROM slice s
  JOIN track t ON t.id = s.track_id
  JOIN run r ON r.id = t.run_id
  JOIN source so ON so.id = r.source_id
  LEFT JOIN source_setting o ON o.path = so.path
  JOIN string n ON n.id = s.name_id
  LEFT JOIN string c ON c.id = s.category_id;

DROP VIEW v_step;
CREATE VIEW v_step AS
  SELECT r.name AS run, st.step AS step,
         st.start_ns + r.time_base_ns + COALESCE(o.clock_offset_ns, 0) AS start_ns, st.dur_ns AS dur_ns
  FROM step st JOIN run r ON r.id = st.run_id
  JOIN source so ON so.id = r.source_id
  LEFT JOIN source_setting o ON o.path = so.path;

DROP VIEW v_metric;
CREATE VIEW v_metric AS
  SELECT ms.run AS run, ms.name AS series, ms.device AS device, ms.unit AS unit,
         m.t_ns + COALESCE(o.clock_offset_ns, 0) AS t_ns, m.value AS value
  FROM metric_sample m JOIN metric_series ms ON ms.id = m.series_id
  JOIN source so ON so.id = ms.source_id
  LEFT JOIN source_setting o ON o.path = so.path;
