#include "models/analysis/rules/finding_rule_book.h"

#include "models/analysis/rules/category_rules.h"

#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace stepscope {

namespace {

std::vector<std::string> tabFields(const std::string &line) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t tab; (tab = line.find('\t', from)) != std::string::npos; from = tab + 1) out.push_back(line.substr(from, tab - from));
    out.push_back(line.substr(from));
    return out;
}

[[noreturn]] void badLine(const char *table, int lineNo, const std::string &why) {
    throw std::runtime_error(std::string(table) + ":" + std::to_string(lineNo) + ": " + why);
}

// Calls `row` with the fields of each line that is not blank or a comment.
template <typename Row>
void eachRow(const std::string &text, const char *table, size_t fields, Row row) {
    std::istringstream in(text);
    std::string line;
    for (int lineNo = 1; std::getline(in, line); ++lineNo) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const std::vector<std::string> f = tabFields(line);
        if (f.size() != fields)
            badLine(table, lineNo, "wants " + std::to_string(fields) + " tab-separated fields, not " + std::to_string(f.size()));
        row(f, lineNo);
    }
}

FindingRuleRecord ruleRecord(const std::vector<std::string> &f, int lineNo) {
    FindingRuleRecord r;
    r.id = f[0];
    r.origin = f[1];
    if (r.id.empty() || r.origin.empty()) badLine("finding_rules.tsv", lineNo, "a rule wants an id and an origin");
    if (f[2] != "-") {
        std::istringstream causes(f[2]);
        for (std::string name; std::getline(causes, name, ',');) {
            const auto c = categoryFromName(name);
            if (!c) badLine("finding_rules.tsv", lineNo, "'" + name + "' is not a category");
            r.causes.push_back(*c);
        }
    }
    if (f[3] != "-") {
        std::istringstream pairs(f[3]);
        for (std::string pair; pairs >> pair;) {
            const size_t eq = pair.find('=');
            const std::string name = pair.substr(0, eq), value = eq == std::string::npos ? std::string() : pair.substr(eq + 1);
            char *end = nullptr;
            const double v = std::strtod(value.c_str(), &end);
            if (name.empty() || value.empty() || *end != '\0' || !(v >= 0 && v < 1e12))
                badLine("finding_rules.tsv", lineNo, "'" + pair + "' wants NAME=a number from 0 up");
            r.thresholds[name] = v;
        }
    }
    if (f[4] != "-") r.adviceTopic = f[4];
    return r;
}

} // namespace

double FindingRuleRecord::threshold(std::string_view name) const {
    const auto it = thresholds.find(name);
    if (it == thresholds.end()) throw std::logic_error("finding_rules.tsv: rule " + id + " has no threshold " + std::string(name));
    return it->second;
}

FindingRuleBook FindingRuleBook::parse(const std::string &rulesText, const std::string &adviceText) {
    FindingRuleBook book;
    eachRow(adviceText, "framework_advice.tsv", 4, [&](const std::vector<std::string> &f, int lineNo) {
        auto text = [](const std::string &s) { return s == "-" ? std::string() : s; };
        if (f[0].empty() || f[1].empty() || f[1] == "-") badLine("framework_advice.tsv", lineNo, "a topic wants its PyTorch text");
        if (!book.m_advice.emplace(f[0], Advice{f[1], text(f[2]), text(f[3])}).second)
            badLine("framework_advice.tsv", lineNo, "topic '" + f[0] + "' is given twice");
    });
    eachRow(rulesText, "finding_rules.tsv", 5, [&](const std::vector<std::string> &f, int lineNo) {
        FindingRuleRecord r = ruleRecord(f, lineNo);
        if (book.find(r.id)) badLine("finding_rules.tsv", lineNo, "rule '" + r.id + "' is given twice");
        if (!r.adviceTopic.empty() && !book.m_advice.count(r.adviceTopic))
            badLine("finding_rules.tsv", lineNo, "advice topic '" + r.adviceTopic + "' is not in framework_advice.tsv");
        book.m_rules.push_back(std::move(r));
    });
    return book;
}

const FindingRuleBook &FindingRuleBook::builtin() {
    static const FindingRuleBook book =
        parse(CategoryRules::builtinTable("finding_rules.tsv"), CategoryRules::builtinTable("framework_advice.tsv"));
    return book;
}

const FindingRuleRecord *FindingRuleBook::find(std::string_view id) const {
    for (const FindingRuleRecord &r : m_rules)
        if (r.id == id) return &r;
    return nullptr;
}

const FindingRuleRecord &FindingRuleBook::rule(std::string_view id) const {
    if (const FindingRuleRecord *r = find(id)) return *r;
    throw std::logic_error("finding_rules.tsv has no rule " + std::string(id));
}

std::string FindingRuleBook::advice(std::string_view topic, Framework framework) const {
    const auto it = m_advice.find(topic);
    if (it == m_advice.end()) return {};
    const Advice &a = it->second;
    switch (framework) {
    case Framework::PyTorch: return a.pytorch;
    case Framework::TensorFlow: return a.tensorflow.empty() ? a.pytorch : a.tensorflow;
    case Framework::Jax: return a.jax.empty() ? a.pytorch : a.jax;
    case Framework::Unknown: return a.tensorflow.empty() ? a.pytorch : "PyTorch: " + a.pytorch + " TensorFlow: " + a.tensorflow;
    }
    return {};
}

std::string FindingRuleBook::recommendation(std::string_view id, Framework framework) const {
    return advice(rule(id).adviceTopic, framework);
}

std::vector<std::string> FindingRuleBook::adviceTopics() const {
    std::vector<std::string> out;
    for (const auto &[topic, advice] : m_advice) out.push_back(topic);
    return out;
}

} // namespace stepscope
