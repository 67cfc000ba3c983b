#pragma once
// Synthetic data-parallel jobs for the job tests: stepscope-synth's job generator into a temporary
// folder, small enough to import in a second.

#include "app/synth/synthetic_job_generator.h"

#include <QTemporaryDir>

#include <filesystem>

namespace stepscope::test {

struct SyntheticJob {
    QTemporaryDir dir;
    synth::SyntheticJobStats stats;
    std::filesystem::path path() const { return dir.path().toStdString(); }
};

inline synth::SyntheticJobOptions jobOptions(int ranks, int straggler, synth::LateCause cause, int lateMs, int steps,
                                             int kernelsPerStep, uint64_t seed = 7) {
    synth::SyntheticJobOptions o;
    o.ranks = ranks;
    o.stragglerRank = straggler;
    o.stragglerCause = cause;
    o.stragglerNs = int64_t(lateMs) * 1'000'000;
    o.rank.steps = steps;
    o.rank.kernelsPerStep = kernelsPerStep;
    o.rank.seed = seed;
    o.rank.gzipLevel = 1;
    return o;
}

inline void writeJob(SyntheticJob &job, const synth::SyntheticJobOptions &o) {
    job.stats = synth::generateJob(o, job.path());
}

} // namespace stepscope::test
