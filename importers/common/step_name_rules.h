#pragma once
// StepNameRules decides which slice names mark training steps and with which number, from the rules
// of resources/rules/step_ranges.tsv (its header explains the file). The trace buffer and the XPlane
// line writer ask it once per distinct name; StepDetector keeps only the steps of the best (first)
// rule a run matched. PyTorch traces use profilerSteps() (ProfilerStep#N only); Nsight Systems
// exports and XPlane profiles the whole file.
// Copies share the compiled expressions.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

class QRegularExpression;  // not included: Qt's keywords (emit) would reach every includer

namespace stepscope {

struct StepMatch {
    int rule = 0;                   // index of the rule that matched: lower is preferred
    std::optional<int64_t> number;  // none: numbered in time order
    bool badNumber = false;         // the rule wants a number and the text is not one in 0..2^31-1
};

class StepNameRules {
public:
    // Parses rules text; throws std::runtime_error naming `origin`, the line and the problem.
    static StepNameRules parse(const std::string &text, const std::string &origin);
    // The file named by STEPSCOPE_STEP_RULES, else the built-in step_ranges.tsv.
    static StepNameRules load();
    // Only the first built-in rule: ProfilerStep#N.
    static const StepNameRules &profilerSteps();

    std::optional<StepMatch> match(std::string_view name) const;
    // True when match() is cheap enough to call per event (no regular expressions).
    bool cheap() const { return m_cheap; }
    size_t size() const { return m_rules.size(); }
    const std::string &origin() const { return m_origin; }

private:
    enum class Kind { Numbered, Regex, Exact };
    struct Rule {
        Kind kind = Kind::Exact;
        std::string text;
        std::shared_ptr<const QRegularExpression> regex;
    };
    std::vector<Rule> m_rules;
    std::string m_origin;
    bool m_cheap = true;
};

// "12" → 12; nullopt for anything but a whole number in 0..2147483647.
std::optional<int64_t> stepNumberText(std::string_view text);

} // namespace stepscope
