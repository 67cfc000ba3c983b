#pragma once
// FindingRuleBook holds one record per finding rule, read from resources/rules/finding_rules.tsv:
// whose rule it is, the causes its projection takes out of each step, the thresholds that make it
// fire and set its severity, and the topic of its recommendation, said in the run's framework's
// words from resources/rules/framework_advice.tsv. Rules name their record by an id of
// finding_rule_ids.h. Read by FindingRules, MetricRules, ExpertRules, OpEfficiency, CollectiveStats
// (thresholds and advice) and ProjectionRules (causes).

#include "models/analysis/engine/category.h"
#include "models/analysis/rules/framework_advice.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

struct FindingRuleRecord {
    std::string id;
    std::string origin;                         // tensorflow_profiler, pytorch_profiler_plugin, ...
    std::vector<Category> causes;               // what the projection takes out of each step
    std::map<std::string, double, std::less<>> thresholds;
    std::string adviceTopic;                    // empty: the rule words its own recommendation
    // A threshold of this record; throws std::logic_error naming the rule when the table lacks it
    // (a rule reading a threshold the table does not give is a programming error, caught by tests).
    double threshold(std::string_view name) const;
};

class FindingRuleBook {
public:
    // The built-in tables; parsed once.
    static const FindingRuleBook &builtin();
    // Parses the two tables; throws std::runtime_error naming the table, line and reason.
    static FindingRuleBook parse(const std::string &rulesText, const std::string &adviceText);

    // The record of a rule id of finding_rule_ids.h; throws std::logic_error for an id without one.
    const FindingRuleRecord &rule(std::string_view id) const;
    const FindingRuleRecord *find(std::string_view id) const;  // nullptr for an unknown id
    const std::vector<FindingRuleRecord> &rules() const { return m_rules; }
    // The recommendation of a topic in `framework`'s words; empty for an unknown topic. A rule of
    // one framework's tool (its TensorFlow and JAX texts absent) says its PyTorch text to all; a run
    // of unknown framework gets the PyTorch and TensorFlow texts side by side.
    std::string advice(std::string_view topic, Framework framework) const;
    // The recommendation of a rule: advice(rule(id).adviceTopic, framework).
    std::string recommendation(std::string_view id, Framework framework) const;
    std::vector<std::string> adviceTopics() const;

private:
    struct Advice {
        std::string pytorch, tensorflow, jax;
    };
    std::vector<FindingRuleRecord> m_rules;
    std::map<std::string, Advice, std::less<>> m_advice;
};

} // namespace stepscope
