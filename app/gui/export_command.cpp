// `stepscope export PATH... --view NAME [--steps A-B | --range T0:T1 (from the session start)] [--annotate TEXT] [--size WxH]
// [--scale 2] [--no-caption] -o FILE`: builds the same MainWindow the GUI shows, offscreen, and renders
// one view of it through FigureRenderer — the same code path as the GUI's export. --annotate draws a
// transient note over the exported range; the session itself is never written.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/gui/figure_renderer.h"
#include "app/gui/main_window.h"
#include "models/metrics/duration_text.h"

#include <QApplication>

#include <memory>
#include <ostream>

namespace stepscope::cli {

namespace {
// One end of --range: a duration with a unit, counted from `origin`, or an absolute integer ns.
std::optional<int64_t> rangeEnd(const std::string &text, int64_t origin) {
    if (const auto d = DurationText::parse(text)) return origin + *d;
    if (text.empty() || text.find_first_not_of("-0123456789") != std::string::npos) return std::nullopt;
    try {
        return std::stoll(text);
    } catch (const std::exception &) {
        return std::nullopt;
    }
}

bool parseSize(const std::string &text, int &w, int &h) {
    const auto x = text.find('x');
    if (x == std::string::npos) return false;
    try {
        w = std::stoi(text.substr(0, x));
        h = std::stoi(text.substr(x + 1));
    } catch (const std::exception &) {
        return false;
    }
    return w >= 200 && h >= 150 && w <= 16384 && h <= 16384;
}
} // namespace

int runExport(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"--view", "--steps", "--range", "--annotate", "--size", "-o", "--output", "--scale", "--run"},
                   {"--list-views", "--no-caption"});
    if (a.ok() && a.flag("--list-views")) {
        for (const QString &name : gui::MainWindow::viewNames()) io.out << name.toStdString() << "\n";
        return Ok;
    }
    const auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    if (!a.ok() || a.positional().empty() || !output) {
        io.err << "stepscope export: " << (a.ok() ? "usage: stepscope export PATH... --view NAME -o FILE.png|.svg|.pdf" : a.error())
               << "\n";
        return Usage;
    }
    const std::string view = a.value("--view").value_or("window");
    if (view != "window" && !gui::MainWindow::viewNames().contains(QString::fromStdString(view))) {
        io.err << "stepscope export: unknown view '" << view << "' (window, "
               << gui::MainWindow::viewNames().join(", ").toStdString() << ")\n";
        return Usage;
    }
    int width = 1600, height = 1000;
    if (const auto size = a.value("--size"); size && !parseSize(*size, width, height)) {
        io.err << "stepscope export: --size wants WxH (e.g. 1600x1000), got '" << *size << "'\n";
        return Usage;
    }
    int64_t firstStep = 0, lastStep = 0;
    const auto steps = a.value("--steps");
    if (steps && !parseStepRange(*steps, firstStep, lastStep)) {
        io.err << "stepscope export: --steps wants A-B, got '" << *steps << "'\n";
        return Usage;
    }
    double scale = 1.0;
    if (const auto s = a.value("--scale")) scale = (*s == "2" || *s == "2x") ? 2.0 : 1.0;

    InputSession session = InputSession::open(a.positional(), io, ImportOptions{a.value("--run").value_or("")});
    if (!session.store()) return session.exitCode();
    const QString sessionPath = QString::fromStdString(session.store()->path().string());

    gui::MainWindow window(nullptr, gui::MainWindow::Mode::Headless);
    window.resize(width, height);
    window.openSession(sessionPath);
    if (!window.session()->isOpen()) {
        io.err << "stepscope export: " << window.lastError().toStdString() << "\n";
        return Unreadable;
    }
    if (steps) {
        SessionReader reader(*window.session()->store());
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (const RunRow &run : reader.runs())
            for (const StepRow &s : reader.steps(run.id))
                if (s.step >= firstStep && s.step <= lastStep) {
                    lo = std::min(lo, s.startNs);
                    hi = std::max(hi, s.startNs + s.durNs);
                }
        if (lo >= hi) {
            io.err << "stepscope export: no steps " << *steps << " in the session\n";
            return Usage;
        }
        window.timeRange()->setRange({lo, hi});
    }
    if (const auto range = a.value("--range")) {
        // T0:T1 as durations from the session start ("2.91s:2.92s", "150ms:+2ms" for a length), or
        // absolute nanoseconds as stored (plain integers).
        const NsRange full = window.timeRange()->fullRange();
        const auto colon = range->find(':');
        std::optional<int64_t> t0, t1;
        if (colon != std::string::npos) {
            t0 = rangeEnd(range->substr(0, colon), full.start);
            const std::string second = range->substr(colon + 1);
            t1 = second.starts_with('+') && t0 ? rangeEnd(second.substr(1), *t0) : rangeEnd(second, full.start);
        }
        if (!t0 || !t1 || *t1 <= *t0) {
            io.err << "stepscope export: --range wants T0:T1, each a time from the session start with a unit "
                      "(\"2.5s:2.6s\", \"150ms:+2ms\") or absolute ns; got '" << *range << "'\n";
            return Usage;
        }
        if (full.valid() && (*t1 <= full.start || *t0 >= full.end)) {
            io.err << "stepscope export: --range " << *range << " is outside the session (0 s to "
                   << DurationText::format(full.duration()) << " from its start)\n";
            return Usage;
        }
        window.timeRange()->setRange({*t0, *t1});
    }
    gui::FigureRequest request;
    request.view = QString::fromStdString(view);
    request.size = QSize(width, height);
    request.scale = scale;
    request.caption = !a.flag("--no-caption");
    if (const auto note = a.value("--annotate"); note && !note->empty()) {
        const NsRange shown = window.timeRange()->range();
        Annotation n;
        n.startNs = shown.start;
        n.endNs = shown.end;
        n.text = *note;
        n.color = "#5c6bc0";  // indigo: unlike any step-time category colour
        request.notes.push_back(n);
    }
    const QString error = gui::FigureRenderer(window).render(request, QString::fromStdString(*output));
    if (!error.isEmpty()) {
        io.err << "stepscope export: " << error.toStdString() << "\n";
        return Unreadable;
    }
    io.out << "wrote " << *output << "\n";
    return session.exitCode();
}

} // namespace stepscope::cli
