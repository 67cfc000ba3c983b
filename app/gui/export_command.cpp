// `stepscope export PATH... --view NAME [--steps A-B | --range T0:T1] [--annotate TEXT] [--size WxH]
// [--scale 2] [--no-caption] -o FILE`: builds the same MainWindow the GUI shows, offscreen, and renders
// one view of it through FigureRenderer — the same code path as the GUI's export. --annotate draws a
// transient note over the exported range; the session itself is never written.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/gui/figure_renderer.h"
#include "app/gui/main_window.h"

#include <QApplication>

#include <memory>
#include <ostream>

namespace stepscope::cli {

namespace {
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
        const auto colon = range->find(':');
        try {
            if (colon == std::string::npos) throw std::invalid_argument("no colon");
            window.timeRange()->setRange({std::stoll(range->substr(0, colon)), std::stoll(range->substr(colon + 1))});
        } catch (const std::exception &) {
            io.err << "stepscope export: --range wants T0:T1 in ns, got '" << *range << "'\n";
            return Usage;
        }
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
