// `stepscope export PATH... --view NAME [--steps A-B | --range T0:T1 (from the session start)] [--annotate TEXT] [--size WxH]
// [--scale 2] [--no-caption] -o FILE`: builds the same MainWindow the GUI shows, offscreen, and renders
// one view of it through FigureRenderer — the same code path as the GUI's export. --annotate draws a
// transient note over the exported range; the session itself is never written.

#include "app/cli/argument_list.h"
#include "app/cli/command_line.h"
#include "app/cli/input_session.h"
#include "app/cli/output_file.h"
#include "app/cli/report_options.h"
#include "app/gui/figure_renderer.h"
#include "app/gui/guarded_application.h"
#include "app/gui/main_window.h"
#include "views/export/view_exporter.h"
#include "models/text/duration_text.h"
#include "models/text/printable_text.h"

#include <QApplication>

#include <memory>
#include <ostream>

namespace stepscope::cli {

namespace {
// One end of --range: a duration with a unit, counted from `origin`, or an absolute integer ns.
// Values that overflow int64 ns are no time at all (nullopt), never a wrapped one.
std::optional<int64_t> rangeEnd(const std::string &text, int64_t origin) {
    if (const auto d = DurationText::parse(text)) {
        int64_t t = 0;
        if (__builtin_add_overflow(origin, *d, &t)) return std::nullopt;
        return t;
    }
    return parseInteger(text, INT64_MIN, INT64_MAX);
}

// The rendered image, after --scale, stays within what a viewer opens and memory holds:
// 16384 px a side and 64 M pixels (256 MB of ARGB).
constexpr int kMinWidth = 200, kMinHeight = 150, kMaxSide = 16384;
constexpr int64_t kMaxPixels = 64LL * 1024 * 1024;

bool parseSize(const std::string &text, int &w, int &h) {
    const auto x = text.find('x');
    if (x == std::string::npos) return false;
    const auto pw = parseInteger(text.substr(0, x), kMinWidth, kMaxSide);
    const auto ph = parseInteger(text.substr(x + 1), kMinHeight, kMaxSide);
    if (!pw || !ph) return false;
    w = int(*pw);
    h = int(*ph);
    return true;
}
} // namespace

int runExport(const std::vector<std::string> &args, Streams io) {
    ArgumentList a(args, {"--view", "--steps", "--range", "--annotate", "--size", "-o", "--output", "--scale", "--run"},
                   {"--list-views", "--no-caption", "--follow-links"});
    if (a.ok() && a.flag("--list-views")) {
        for (const QString &name : gui::MainWindow::viewNames()) io.out << name.toStdString() << "\n";
        io.out << "window\n";  // the whole window, the default
        return Ok;
    }
    const auto output = a.value("-o") ? a.value("-o") : a.value("--output");
    if (!a.ok() || a.positional().empty() || !output) {
        io.err << "stepscope export: " << (a.ok() ? "usage: stepscope export PATH... --view NAME -o FILE.png|.svg|.pdf" : a.error())
               << "\n";
        return Usage;
    }
    if (const std::string why = OutputFile::refuseIfInput(*output, a.positional()); !why.empty()) {
        io.err << "stepscope export: " << why << "\n";
        return Usage;
    }
    if (!ViewExporter::writesFormatOf(QString::fromStdString(*output))) {  // before any import
        io.err << "stepscope export: " << printableText(*output)
               << ": unsupported picture format (the file name must end in .png, .svg, .pdf, .jpg or .jpeg)\n";
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
        io.err << "stepscope export: --size wants WxH, each a whole number of pixels (width " << kMinWidth << "–" << kMaxSide
               << ", height " << kMinHeight << "–" << kMaxSide << ", e.g. 1600x1000), got '" << printableText(*size) << "'\n";
        return Usage;
    }
    int64_t firstStep = 0, lastStep = 0;
    const auto steps = a.value("--steps");
    if (steps && !parseStepRange(*steps, firstStep, lastStep)) {
        io.err << "stepscope export: --steps wants A-B, got '" << *steps << "'\n";
        return Usage;
    }
    double scale = 1.0;
    if (const auto s = a.value("--scale")) {
        if (*s == "2" || *s == "2x") scale = 2.0;
        else if (*s != "1" && *s != "1x") {
            io.err << "stepscope export: --scale wants 1 or 2 (device pixels per pixel), got '" << printableText(*s) << "'\n";
            return Usage;
        }
    }
    if (int64_t(width * scale) * int64_t(height * scale) > kMaxPixels || width * scale > kMaxSide || height * scale > kMaxSide) {
        io.err << "stepscope export: " << width << "x" << height << " at --scale " << scale << " would be a "
               << int64_t(width * scale) << "x" << int64_t(height * scale) << " image; the limit is " << kMaxSide
               << " px a side and " << kMaxPixels / (1024 * 1024) << " M pixels — choose a smaller --size or --scale\n";
        return Usage;
    }

    ImportOptions importOptions{a.value("--run").value_or("")};
    importOptions.followLinks = a.flag("--follow-links");
    InputSession session = InputSession::open(a.positional(), io, importOptions);
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
        if (lo < hi) {
            window.timeRange()->setRange({lo, hi});
        } else if (!cli::hasSteps(*window.session()->store(), firstStep, lastStep)) {
            io.err << "stepscope export: no steps " << printableText(*steps) << " in the session ("
                   << cli::stepsHeld(*window.session()->store()) << ")\n";
            return Usage;
        }  // else no step markers: step 0 is the whole trace, the view as it opens
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
                      "(\"2.5s:2.6s\", \"150ms:+2ms\") or absolute ns; got '" << printableText(*range) << "'\n";
            return Usage;
        }
        if (full.valid() && (*t1 <= full.start || *t0 >= full.end)) {
            io.err << "stepscope export: --range " << printableText(*range) << " is outside the session (0 s to "
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
    if (const std::string why = OutputFile::refuseIfInput(*output, session.inputPaths()); !why.empty()) {
        io.err << "stepscope export: " << why << "\n";
        return Usage;
    }
    const auto *guard = dynamic_cast<gui::GuardedApplication *>(QCoreApplication::instance());
    const int caughtBefore = guard ? guard->caughtCount() : 0;
    QString error = gui::FigureRenderer(window).render(request, QString::fromStdString(*output));
    if (error.isEmpty() && guard && guard->caughtCount() > caughtBefore) {
        // A view failed while drawing (the message is on stderr): the picture is not what was asked.
        std::error_code ignored;
        std::filesystem::remove(*output, ignored);
        error = QStringLiteral("%1: a view could not be drawn from this session; nothing written")
                    .arg(QString::fromStdString(session.store()->path().string()));
    }
    if (!error.isEmpty()) {
        io.err << "stepscope export: " << error.toStdString() << "\n";
        return Unreadable;
    }
    io.out << "wrote " << printableText(*output) << "\n";
    return session.exitCode();
}

} // namespace stepscope::cli
