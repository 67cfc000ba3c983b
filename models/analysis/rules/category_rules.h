#pragma once
// CategoryRules owns the editable classification presets of resources/rules/categories.tsv: for each
// preset its types in priority order, display labels, the remainder type and the name rules that map a
// traced event to a type. The step-breakdown analyzer, the gap analyzer and the op-stats analyzer call
// classify() once per distinct (name, category, side, launches) and cache the answer.
// Stepscope's own preset is "stepscope" with DESIGN.md's 12 categories (see category.h).

#include <QRegularExpression>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stepscope {

enum class EventSide { Host, Device };

struct CategoryRule {
    enum class Field { Name, Category };
    enum class Match { Exact, Prefix, Contains, Regex };
    int type = -1;  // index into Preset::types, or Preset::kIgnore
    bool host = true, device = true;
    Field field = Field::Name;
    Match match = Match::Exact;
    std::string pattern;
    QRegularExpression regex;
    bool needsLaunch = false;
    int line = 0;
};

struct Preset {
    static constexpr int kIgnore = -1;
    std::string name;
    std::vector<std::string> types;   // priority order, highest first; the remainder type is among them
    std::vector<std::string> labels;  // per type (defaults to the type name)
    int remainder = -1;
    int defaultHost = -1, defaultDevice = -1;
    std::vector<CategoryRule> rules;

    int typeIndex(std::string_view type) const;
    // The type of an event; kIgnore when it takes no part in the analysis.
    int classify(std::string_view eventName, std::string_view category, EventSide side, bool launches) const;
    // Distinct display labels in first-appearance order (types sharing a label are summed).
    std::vector<std::string> displayLabels() const;
};

class CategoryRules {
public:
    // Parses rules text; throws std::runtime_error naming `origin`, the line and the problem.
    static CategoryRules parse(const std::string &text, const std::string &origin);
    // The built-in file (:/rules/categories.tsv), or the file named by `path`, or by the environment
    // variable STEPSCOPE_RULES when `path` is empty. Throws std::runtime_error on unreadable/bad files.
    static CategoryRules load(const std::string &path = {});
    static std::string builtinText();
    // Any built-in table of resources/rules/ (finding_rules.tsv, ...) as text.
    static std::string builtinTable(const std::string &name);

    const Preset *preset(std::string_view name) const;
    const std::vector<Preset> &presets() const { return m_presets; }
    std::string origin() const { return m_origin; }
    // A digest of the rules text (16 hex digits): part of what a stored analysis was computed from.
    const std::string &digest() const { return m_digest; }

private:
    std::vector<Preset> m_presets;
    std::string m_origin, m_digest;
};

// Labels for outlier steps (resources/rules/step_events.tsv): checkpoint, evaluation, summary_writing...
// The same LABEL MATCH PATTERN table labels tf.data stages (tf_data_stages.tsv: io, preprocessing).
class StepEventRules {
public:
    // A built-in table of resources/rules/.
    static StepEventRules load(const std::string &table = "step_events.tsv");
    static StepEventRules parse(const std::string &text, const std::string &origin = "step_events.tsv");
    // The label of an event name, or empty.
    std::string label(std::string_view name) const;

private:
    struct Entry {
        std::string label, pattern;
        CategoryRule::Match match;
        QRegularExpression regex;
    };
    std::vector<Entry> m_entries;
};

} // namespace stepscope
