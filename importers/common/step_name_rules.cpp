#include "importers/common/step_name_rules.h"

#include "models/store/small_text_file.h"

#include <QFile>
#include <QRegularExpression>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

static void initImportRulesResource() { Q_INIT_RESOURCE(import_rules); }

namespace stepscope {

std::optional<int64_t> stepNumberText(std::string_view text) {
    if (text.empty() || text.size() > 10)
        return std::nullopt;
    int64_t n = 0;
    for (char c : text) {
        if (c < '0' || c > '9')
            return std::nullopt;
        n = n * 10 + (c - '0');
    }
    if (n > 2147483647)
        return std::nullopt;
    return n;
}

StepNameRules StepNameRules::parse(const std::string &text, const std::string &origin) {
    StepNameRules out;
    out.m_origin = origin;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || line[0] == '#')
            continue;
        const size_t tab = line.find('\t');
        const std::string where = origin + ":" + std::to_string(lineNo);
        if (tab == std::string::npos || tab + 1 >= line.size())
            throw std::runtime_error(where + ": a rule is KIND<TAB>PATTERN");
        const std::string kind = line.substr(0, tab);
        Rule r;
        r.text = line.substr(tab + 1);
        if (kind == "numbered") {
            r.kind = Kind::Numbered;
        } else if (kind == "exact") {
            r.kind = Kind::Exact;
        } else if (kind == "regex") {
            r.kind = Kind::Regex;
            auto re = std::make_shared<QRegularExpression>(QRegularExpression::anchoredPattern(QString::fromStdString(r.text)));
            if (!re->isValid())
                throw std::runtime_error(where + ": bad regular expression: " + re->errorString().toStdString());
            re->optimize();
            r.regex = std::move(re);
            out.m_cheap = false;
        } else {
            throw std::runtime_error(where + ": kind must be numbered, regex or exact, not '" + kind + "'");
        }
        out.m_rules.push_back(std::move(r));
    }
    if (out.m_rules.empty())
        throw std::runtime_error(origin + ": no step rules");
    return out;
}

StepNameRules StepNameRules::load() {
    std::string file;
    if (const char *env = std::getenv("STEPSCOPE_STEP_RULES"); env && *env)
        file = env;
    if (!file.empty()) return parse(readSmallTextFile(file, "step rules file (STEPSCOPE_STEP_RULES)"), file);
    initImportRulesResource();
    QFile f(QStringLiteral(":/import_rules/step_ranges.tsv"));
    if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error("built-in step_ranges.tsv: cannot read step rules");
    return parse(f.readAll().toStdString(), "built-in step_ranges.tsv");
}

const StepNameRules &StepNameRules::profilerSteps() {
    static const StepNameRules rules = parse("numbered\tProfilerStep#\n", "ProfilerStep#N");
    return rules;
}

std::optional<StepMatch> StepNameRules::match(std::string_view name) const {
    for (size_t i = 0; i < m_rules.size(); ++i) {
        const Rule &r = m_rules[i];
        StepMatch m;
        m.rule = int(i);
        switch (r.kind) {
        case Kind::Numbered:
            if (!name.starts_with(r.text))
                continue;
            m.number = stepNumberText(name.substr(r.text.size()));
            m.badNumber = !m.number;
            return m;
        case Kind::Exact:
            if (name != r.text)
                continue;
            return m;
        case Kind::Regex: {
            const auto hit = r.regex->match(QString::fromUtf8(name.data(), qsizetype(name.size())));
            if (!hit.hasMatch())
                continue;
            if (r.regex->captureCount() >= 1 && hit.capturedStart(1) >= 0) {
                m.number = stepNumberText(hit.captured(1).toStdString());
                m.badNumber = !m.number;
            }
            return m;
        }
        }
    }
    return std::nullopt;
}

} // namespace stepscope
