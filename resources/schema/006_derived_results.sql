-- Stepscope session store, migration 6: derived results (DESIGN.md "Derived results are data").
-- Each run's analysis, kept so that a re-open reads it instead of re-analysing, and so that users
-- can query it. `analysis_result.result` is the whole analysis as Stepscope reads it back; the other
-- tables hold the same results as rows, written with it in one transaction. `fingerprint` is a
-- digest of `inputs`, everything the analysis was computed from (sources, clock offsets, the run
-- and its steps, metric series, other tools' verdicts, category rules, options, analysis revision):
-- when any of it changes, the next analysis replaces the run's rows. Times are absolute ns, clock
-- offsets applied, like the views of migration 2. Derived data: deleted with its run.

CREATE TABLE analysis_result (
  run_id          INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,
  fingerprint     TEXT NOT NULL,
  inputs          TEXT NOT NULL,
  computed_at_ns  INTEGER NOT NULL,
  result          BLOB NOT NULL
);

-- The analysed steps, moved onto device time (their GPU work), in order.
CREATE TABLE analysis_step (
  run_id         INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  ordinal        INTEGER NOT NULL,
  step           INTEGER NOT NULL,
  start_ns       INTEGER NOT NULL,
  end_ns         INTEGER NOT NULL,
  host_start_ns  INTEGER NOT NULL,
  host_end_ns    INTEGER NOT NULL,
  PRIMARY KEY (run_id, ordinal)
) WITHOUT ROWID;

-- Each step's time charged to exactly one category (stepscope preset): a step's rows sum to it.
CREATE TABLE step_breakdown (
  run_id    INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  ordinal   INTEGER NOT NULL,
  category  TEXT NOT NULL,
  ns        INTEGER NOT NULL,
  PRIMARY KEY (run_id, ordinal, category)
) WITHOUT ROWID;

-- The longest GPU idle gaps (device level), longest first.
CREATE TABLE gpu_gap (
  run_id         INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  ordinal        INTEGER NOT NULL,
  start_ns       INTEGER NOT NULL,
  dur_ns         INTEGER NOT NULL,
  device         INTEGER NOT NULL,
  stream         TEXT NOT NULL,
  cause          TEXT NOT NULL,
  host_activity  TEXT NOT NULL,
  PRIMARY KEY (run_id, ordinal)
) WITHOUT ROWID;

-- Op statistics over the analysed steps, by total time; device NULL for host ops.
CREATE TABLE op_stat (
  run_id    INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  ordinal   INTEGER NOT NULL,
  name      TEXT NOT NULL,
  device    INTEGER,
  calls     INTEGER NOT NULL,
  total_ns  INTEGER NOT NULL,
  self_ns   INTEGER NOT NULL,
  min_ns    INTEGER NOT NULL,
  max_ns    INTEGER NOT NULL,
  PRIMARY KEY (run_id, ordinal)
) WITHOUT ROWID;

-- Findings, in the order the report lists them, with what fixing each is worth where it
-- can be said (projected mean step time and speedup; NULL otherwise). `steps` is a JSON array.
CREATE TABLE finding (
  run_id             INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
  ordinal            INTEGER NOT NULL,
  rule               TEXT NOT NULL,
  severity           TEXT NOT NULL,
  title              TEXT NOT NULL,
  detail             TEXT NOT NULL,
  recommendation     TEXT NOT NULL,
  start_ns           INTEGER,
  end_ns             INTEGER,
  steps              TEXT NOT NULL DEFAULT '[]',
  projected_step_ms  REAL,
  speedup            REAL,
  PRIMARY KEY (run_id, ordinal)
) WITHOUT ROWID;

CREATE VIEW v_analysis_step AS
  SELECT r.name AS run, s.step AS step, s.start_ns AS start_ns, s.end_ns - s.start_ns AS dur_ns
  FROM analysis_step s JOIN run r ON r.id = s.run_id;

CREATE VIEW v_step_breakdown AS
  SELECT r.name AS run, s.step AS step, b.category AS category, b.ns AS ns
  FROM step_breakdown b JOIN run r ON r.id = b.run_id
  JOIN analysis_step s ON s.run_id = b.run_id AND s.ordinal = b.ordinal;

CREATE VIEW v_gpu_gap AS
  SELECT r.name AS run, g.start_ns, g.dur_ns, g.device, g.stream, g.cause, g.host_activity
  FROM gpu_gap g JOIN run r ON r.id = g.run_id;

CREATE VIEW v_op_stat AS
  SELECT r.name AS run, o.name, o.device, o.calls, o.total_ns, o.self_ns, o.min_ns, o.max_ns
  FROM op_stat o JOIN run r ON r.id = o.run_id;

CREATE VIEW v_finding AS
  SELECT r.name AS run, f.rule, f.severity, f.title, f.detail, f.recommendation, f.start_ns, f.end_ns,
         f.steps, f.projected_step_ms, f.speedup
  FROM finding f JOIN run r ON r.id = f.run_id;
