-- Stepscope session store, migration 5: where each run's steps came from.
-- `markers` (the trace's step markers: ProfilerStep#N, step_num, NVTX step ranges, ...),
-- `tf_train_function` (a TensorFlow 2 run without markers: each execution of its training function is
-- a step) or `whole_trace` (no steps: the analysis treats the whole trace as one step). NULL: the run
-- was imported before this column existed. Imported data, like the step rows themselves.

ALTER TABLE run ADD COLUMN step_source TEXT CHECK (step_source IN ('markers', 'tf_train_function', 'whole_trace'));
