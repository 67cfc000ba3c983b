#include "models/analysis/rules/category_rules.h"
#include "models/analysis/engine/text_digest.h"
#include "models/store/small_text_file.h"

#include <QFile>

#include <algorithm>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

static void initRulesResource() { Q_INIT_RESOURCE(rules); }

namespace stepscope {

namespace {

std::vector<std::string> splitTabs(const std::string &line) {
    std::vector<std::string> out;
    size_t pos = 0;
    while (true) {
        const size_t tab = line.find('\t', pos);
        out.push_back(line.substr(pos, tab == std::string::npos ? std::string::npos : tab - pos));
        if (tab == std::string::npos) break;
        pos = tab + 1;
    }
    while (!out.empty() && out.back().empty()) out.pop_back();
    return out;
}

std::vector<std::string> splitSpaces(const std::string &text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::optional<CategoryRule::Match> parseMatch(const std::string &s) {
    if (s == "exact") return CategoryRule::Match::Exact;
    if (s == "prefix") return CategoryRule::Match::Prefix;
    if (s == "contains") return CategoryRule::Match::Contains;
    if (s == "regex") return CategoryRule::Match::Regex;
    return std::nullopt;
}

bool matches(CategoryRule::Match m, const std::string &pattern, const QRegularExpression &re, std::string_view text) {
    switch (m) {
    case CategoryRule::Match::Exact: return text == pattern;
    case CategoryRule::Match::Prefix: return text.starts_with(pattern);
    case CategoryRule::Match::Contains: return text.find(pattern) != std::string_view::npos;
    case CategoryRule::Match::Regex:
        return re.match(QString::fromUtf8(text.data(), qsizetype(text.size()))).hasMatch();
    }
    return false;
}

std::string readResourceText(const char *path) {
    initRulesResource();
    QFile f(QString::fromLatin1(path));
    if (!f.open(QIODevice::ReadOnly)) throw std::runtime_error(std::string("missing built-in rules ") + path);
    return f.readAll().toStdString();
}

QRegularExpression compile(const std::string &pattern, const std::string &where) {
    QRegularExpression re(QString::fromStdString(pattern));
    if (!re.isValid()) throw std::runtime_error(where + ": bad regular expression: " + re.errorString().toStdString());
    re.optimize();
    return re;
}

} // namespace

int Preset::typeIndex(std::string_view type) const {
    for (size_t i = 0; i < types.size(); ++i)
        if (types[i] == type) return int(i);
    return -2;
}

int Preset::classify(std::string_view eventName, std::string_view category, EventSide side, bool launches) const {
    const bool host = side == EventSide::Host;
    for (const CategoryRule &r : rules) {
        if (host ? !r.host : !r.device) continue;
        if (r.needsLaunch && !launches) continue;
        if (matches(r.match, r.pattern, r.regex, r.field == CategoryRule::Field::Name ? eventName : category)) return r.type;
    }
    return host ? defaultHost : defaultDevice;
}

std::vector<std::string> Preset::displayLabels() const {
    std::vector<std::string> out;
    for (const std::string &l : labels)
        if (std::find(out.begin(), out.end(), l) == out.end()) out.push_back(l);
    return out;
}

CategoryRules CategoryRules::parse(const std::string &text, const std::string &origin) {
    CategoryRules out;
    out.m_origin = origin;
    out.m_digest = textDigest(text);
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    Preset *p = nullptr;
    // Labels and rules may name types only after `priority`; the remainder may be a new type.
    auto fail = [&](const std::string &why) {
        throw std::runtime_error(origin + ":" + std::to_string(lineNo) + ": " + why);
    };
    auto type = [&](const std::string &t, bool allowIgnore) {
        if (allowIgnore && t == "ignore") return Preset::kIgnore;
        const int i = p->typeIndex(t);
        if (i < 0) fail("unknown type '" + t + "' in preset " + p->name);
        return i;
    };
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const auto f = splitTabs(line);
        if (f.empty()) continue;
        const std::string &kw = f[0];
        if (kw == "preset") {
            if (f.size() < 2) fail("preset wants a name");
            out.m_presets.push_back({});
            p = &out.m_presets.back();
            p->name = f[1];
            continue;
        }
        if (!p) fail("'" + kw + "' before any 'preset' line");
        if (kw == "priority") {
            if (f.size() < 2) fail("priority wants a list of types");
            p->types = splitSpaces(f[1]);
            p->labels = p->types;
        } else if (kw == "label") {
            if (f.size() < 3) fail("label wants TYPE and LABEL");
            if (p->types.empty()) fail("label before priority");
            if (p->typeIndex(f[1]) < 0) {  // the remainder type, declared before `remainder`
                p->types.push_back(f[1]);
                p->labels.push_back(f[1]);
            }
            p->labels[size_t(p->typeIndex(f[1]))] = f[2];
        } else if (kw == "remainder") {
            if (f.size() < 2) fail("remainder wants a type");
            if (p->typeIndex(f[1]) < 0) {
                p->types.push_back(f[1]);
                p->labels.push_back(f[1]);
            }
            p->remainder = p->typeIndex(f[1]);
        } else if (kw == "default") {
            if (f.size() < 3 || (f[1] != "host" && f[1] != "device")) fail("default wants host|device and a type");
            (f[1] == "host" ? p->defaultHost : p->defaultDevice) = type(f[2], true);
        } else if (kw == "rule") {
            if (f.size() < 6) fail("rule wants TYPE SIDE FIELD MATCH PATTERN [launches]");
            CategoryRule r;
            r.line = lineNo;
            r.type = type(f[1], true);
            if (f[2] == "host") r.device = false;
            else if (f[2] == "device") r.host = false;
            else if (f[2] != "any") fail("side must be host, device or any, not '" + f[2] + "'");
            if (f[3] == "name") r.field = CategoryRule::Field::Name;
            else if (f[3] == "category") r.field = CategoryRule::Field::Category;
            else fail("field must be name or category, not '" + f[3] + "'");
            const auto m = parseMatch(f[4]);
            if (!m) fail("match must be exact, prefix, contains or regex, not '" + f[4] + "'");
            r.match = *m;
            r.pattern = f[5];
            if (r.match == CategoryRule::Match::Regex)
                r.regex = compile(r.pattern, origin + ":" + std::to_string(lineNo));
            if (f.size() > 6) {
                if (f[6] != "launches") fail("condition must be 'launches', not '" + f[6] + "'");
                r.needsLaunch = true;
            }
            p->rules.push_back(std::move(r));
        } else {
            fail("unknown keyword '" + kw + "'");
        }
    }
    for (const Preset &pr : out.m_presets) {
        if (pr.types.empty()) throw std::runtime_error(origin + ": preset " + pr.name + " has no priority line");
        if (pr.remainder < 0) throw std::runtime_error(origin + ": preset " + pr.name + " has no remainder type");
        if (pr.defaultHost == -1 && pr.defaultDevice == -1 && pr.rules.empty())
            throw std::runtime_error(origin + ": preset " + pr.name + " has no rules");
    }
    if (!out.preset("stepscope")) throw std::runtime_error(origin + ": the 'stepscope' preset is missing");
    return out;
}

std::string CategoryRules::builtinText() { return readResourceText(":/rules/categories.tsv"); }
std::string CategoryRules::builtinTable(const std::string &name) { return readResourceText((":/rules/" + name).c_str()); }

CategoryRules CategoryRules::load(const std::string &path) {
    std::string file = path;
    if (file.empty())
        if (const char *env = std::getenv("STEPSCOPE_RULES"); env && *env) file = env;
    if (file.empty()) return parse(builtinText(), "built-in categories.tsv");
    return parse(readSmallTextFile(file, "rules file"), file);
}

const Preset *CategoryRules::preset(std::string_view name) const {
    for (const Preset &p : m_presets)
        if (p.name == name) return &p;
    return nullptr;
}

StepEventRules StepEventRules::parse(const std::string &text, const std::string &origin) {
    StepEventRules out;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty() || line[0] == '#') continue;
        const auto f = splitTabs(line);
        const auto m = f.size() >= 3 ? parseMatch(f[1]) : std::nullopt;
        if (!m) throw std::runtime_error(origin + ":" + std::to_string(lineNo) + ": want LABEL MATCH PATTERN");
        Entry e{f[0], f[2], *m, {}};
        if (*m == CategoryRule::Match::Regex) e.regex = compile(f[2], origin + ":" + std::to_string(lineNo));
        out.m_entries.push_back(std::move(e));
    }
    return out;
}

StepEventRules StepEventRules::load(const std::string &table) {
    return parse(readResourceText((":/rules/" + table).c_str()), table);
}

std::string StepEventRules::label(std::string_view name) const {
    for (const Entry &e : m_entries)
        if (matches(e.match, e.pattern, e.regex, name)) return e.label;
    return {};
}

} // namespace stepscope
