#pragma once
// StepDetector is the importers' one step detector: it collects a run's step candidates, decides
// which of them are the run's steps and writes them (step rows, the run's step source, one import_log
// note). A candidate is a span with a priority class (lower wins) and maybe a number: the names the
// rules of resources/rules/step_ranges.tsv (StepNameRules) match give their rule's index as class —
// ProfilerStep#N first — for every format; a format adds its own markers in classes after the rules
// (XPlane: its step_num stats beside ProfilerStep#N, the device "Steps" line, group roots). A run's
// steps come from the best class any candidate has, so a loop marked twice is counted once. Per
// step number the earliest span wins (the longer one on a tie); unnumbered spans are numbered after
// the numbered ones in time order. A run without candidates gets the executions of its TensorFlow
// training function (TrainFunctionSteps), else no steps. Fed by TraceEventWriter (Chrome, Nsight
// Systems, TensorFlow trace JSON) and XPlaneLineWriter; written once the run's events are read.

#include "importers/common/import_context.h"
#include "importers/common/step_name_rules.h"
#include "models/trace/train_function_steps.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

class StepDetector {
public:
    // Candidates of a class after every rule: `extraClass` 0, 1, … orders a format's own markers.
    int classAfterRules(int extraClass) const { return int(m_rules.size()) + extraClass; }

    explicit StepDetector(const StepNameRules &rules) : m_rules(rules) {}

    const StepNameRules &rules() const { return m_rules; }
    // A step candidate of class `priority` (a rule index, or classAfterRules()).
    void addCandidate(int priority, std::optional<int64_t> number, int64_t startNs, int64_t durNs);
    // A host span for the run without markers: kept when it has a TrainFunctionSteps role.
    void addTrainFunctionSpan(TrainFunctionSteps::Role role, int64_t startNs, int64_t durNs) {
        if (role != TrainFunctionSteps::Role::None) m_trainFunction.add(role, startNs, startNs + durNs);
    }

    // Writes the steps and the run's step source; logs where they came from (`describe` names a
    // class: what its markers are) and, as notes, unnumbered and repeated step numbers. Returns how
    // many steps were written.
    int64_t write(ImportContext &ctx, int64_t runId, const std::function<std::string(int)> &describe) const;

private:
    struct Span {
        int64_t start = 0;
        int64_t dur = 0;
    };
    struct Candidates {
        std::map<int64_t, Span> numbered;
        std::vector<Span> unnumbered;
        int64_t repeated = 0;  // spans whose number an earlier one already had
    };
    const StepNameRules &m_rules;
    std::map<int, Candidates> m_classes;
    TrainFunctionSteps m_trainFunction;
};

} // namespace stepscope
