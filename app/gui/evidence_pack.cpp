#include "app/gui/evidence_pack.h"

#include "app/gui/figure_renderer.h"

#include <QApplication>

#include <algorithm>
#include <cctype>
#include <cstdio>

namespace stepscope::gui {

namespace {
constexpr size_t kMaxStepNotes = 8;  // more evidence steps than this: one note over the whole range

std::string severityColor(FindingSeverity severity) {
    if (severity == FindingSeverity::High) return "#e0474c";
    if (severity == FindingSeverity::Medium) return "#f5a623";
    return "#2f6fb5";
}

std::string relativeLink(const std::filesystem::path &file, const std::filesystem::path &reportDir) {
    std::error_code ec;
    std::filesystem::path rel = std::filesystem::relative(file, reportDir.empty() ? std::filesystem::current_path() : reportDir, ec);
    std::string s = (ec || rel.empty() ? file : rel).generic_string();
    std::string out;
    for (char c : s) out += c == ' ' ? std::string("%20") : std::string(1, c);
    return out;
}

// The notes a finding's picture carries and the range it shows.
FigureRequest requestFor(const Finding &f, const RunReport &run) {
    FigureRequest r;
    r.view = QStringLiteral("window");
    r.size = QSize(1600, 1000);
    r.title = QStringLiteral("[%1] %2").arg(QString::fromLatin1(findingSeverityName(f.severity)), QString::fromStdString(f.title));
    const auto &steps = run.analysis.steps.steps;
    int64_t lo = f.startNs, hi = f.endNs;
    if (hi <= lo && !steps.empty()) {
        lo = steps.front().start;
        hi = steps.back().end;
    }
    std::vector<Annotation> perStep;
    if (f.steps.size() <= kMaxStepNotes && f.steps.size() < steps.size())
        for (int64_t n : f.steps)
            for (const AnalysisStep &s : steps)
                if (s.step == n) {
                    Annotation a;
                    a.startNs = s.start;
                    a.endNs = s.end;
                    a.text = perStep.empty() ? f.title : "step " + std::to_string(n);
                    a.color = severityColor(f.severity);
                    perStep.push_back(a);
                    lo = std::min(lo, s.start);
                    hi = std::max(hi, s.end);
                }
    if (perStep.empty() && hi > lo) {
        Annotation a;
        a.startNs = lo;
        a.endNs = hi;
        a.text = f.title;
        a.color = severityColor(f.severity);
        perStep.push_back(a);
    }
    r.notes = perStep;
    if (hi > lo) {
        const int64_t margin = std::max<int64_t>(1000, (hi - lo) / 20);
        r.range = {lo - margin, hi + margin};
    }
    return r;
}
} // namespace

std::string EvidencePack::fileName(int index, const std::string &run, const std::string &rule) {
    std::string name = run + "-" + rule;
    for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%02d-", index);
    return prefix + name.substr(0, 80) + ".png";
}

std::vector<EvidenceShot> EvidencePack::write(const std::filesystem::path &sessionFile, const Report &report,
                                              const std::filesystem::path &dir, std::string *error) {
    std::vector<EvidenceShot> shots;
    if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        if (error) *error = "screenshots need the GUI libraries (run through the stepscope program)";
        return shots;
    }
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        if (error) *error = dir.string() + ": cannot create the folder (" + ec.message() + ")";
        return shots;
    }
    MainWindow window(nullptr, MainWindow::Mode::Headless);
    window.openSession(QString::fromStdString(sessionFile.string()));
    if (!window.session()->isOpen()) {
        if (error) *error = window.lastError().toStdString();
        return shots;
    }
    FigureRenderer renderer(window);
    int index = 0;
    for (const RunReport &run : report.runs)
        for (const Finding &f : run.analysis.findings) {
            const std::filesystem::path file = std::filesystem::absolute(dir / fileName(++index, run.run.name, f.rule));
            const QString failure = renderer.render(requestFor(f, run), QString::fromStdString(file.string()));
            if (!failure.isEmpty()) {
                if (error) *error = failure.toStdString();
                return shots;
            }
            shots.push_back({run.run.name, f.rule, findingSeverityName(f.severity), f.title, file});
        }
    return shots;
}

std::string EvidencePack::markdown(const std::vector<EvidenceShot> &shots, const std::filesystem::path &reportDir) {
    if (shots.empty()) return "\n## Evidence screenshots\n\nNo findings, so no screenshots.\n";
    std::string out = "\n## Evidence screenshots\n\nEach picture is zoomed to the finding's evidence; the note names the finding.\n";
    std::string run;
    for (const EvidenceShot &s : shots) {
        if (s.run != run) out += "\n### Run " + (run = s.run) + "\n";
        std::string alt = s.title;
        std::replace(alt.begin(), alt.end(), '[', '(');
        std::replace(alt.begin(), alt.end(), ']', ')');
        out += "\n**[" + s.severity + "] " + s.title + "** (`" + s.rule + "`)\n\n![" + alt + "](" +
               relativeLink(s.file, reportDir) + ")\n";
    }
    return out;
}

std::string EvidencePack::text(const std::vector<EvidenceShot> &shots, const std::filesystem::path &reportDir) {
    std::string out = "\nEvidence screenshots:\n";
    for (const EvidenceShot &s : shots) out += "  [" + s.severity + "] " + s.title + ": " + relativeLink(s.file, reportDir) + "\n";
    return out;
}

} // namespace stepscope::gui
