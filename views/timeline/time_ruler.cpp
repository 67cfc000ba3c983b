#include "views/timeline/time_ruler.h"

#include <cmath>
#include <cstdlib>

namespace stepscope {

int64_t TimeRuler::stepFor(int64_t span, double widthPx, double minSpacingPx) {
    const double want = double(span) * minSpacingPx / std::max(1.0, widthPx);
    int64_t step = 1;
    while (true) {
        for (int64_t m : {1, 2, 5}) {
            if (double(step * m) >= want) return step * m;
        }
        if (step > int64_t(1e17)) return step;
        step *= 10;
    }
}

QString TimeRuler::label(int64_t ns, int64_t step) {
    struct Unit { int64_t scale; const char *name; };
    static const Unit units[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};
    for (const Unit &u : units) {
        if (step >= u.scale || u.scale == 1) {
            // Decimals so that the step itself is exact: 2.5 ms steps need one decimal, ...
            int decimals = 0;
            for (int64_t s = step; s % u.scale != 0 && decimals < 3; s *= 10) ++decimals;
            const double v = double(ns) / double(u.scale);
            return QString::number(v, 'f', decimals) + QLatin1Char(' ') + QString::fromUtf8(u.name);
        }
    }
    return QString::number(ns);
}

std::vector<TimeRuler::Tick> TimeRuler::ticks(int64_t origin, int64_t start, int64_t end, double widthPx,
                                                double minSpacingPx) {
    std::vector<Tick> out;
    int64_t span = 0;
    // A span that does not fit int64 is no span (the controller never makes one); below, at most
    // one tick per 18 px, whatever the span: the work never grows with the span's magnitude.
    if (end <= start || widthPx <= 0 || __builtin_sub_overflow(end, start, &span)) return out;
    const int64_t step = stepFor(span, widthPx, minSpacingPx);
    const int64_t minor = step % 5 == 0 ? step / 5 : (step % 2 == 0 ? step / 2 : step);
    const double scale = widthPx / double(span);
    const size_t maxTicks = size_t(widthPx / std::max(1.0, minSpacingPx) * 5.0) + 10;
    // Deep zoom far from the origin ("2912500 µs", "2912520 µs", ...) is unreadable: then the first
    // major tick in view shows the full time in seconds and the others the offset from it (Perfetto).
    const int64_t unitScale = step >= 1'000'000'000 ? 1'000'000'000 : step >= 1'000'000 ? 1'000'000 : step >= 1'000 ? 1'000 : 1;
    const bool relative = std::llabs(start - origin) / unitScale >= 10'000 && step < 1'000'000'000;
    int64_t anchor = -1;
    // Ticks sit on multiples of the step measured from the origin.
    auto floorDiv = [](int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); };
    for (int64_t k = floorDiv(start - origin, minor); ; ++k) {
        const int64_t rel = k * minor;
        const int64_t t = origin + rel;
        if (t > end || out.size() > maxTicks) break;
        if (t < start) continue;
        Tick tick;
        tick.t = t;
        tick.x = double(t - start) * scale;
        tick.major = rel % step == 0;
        if (tick.major && relative && anchor < 0) {
            anchor = rel;
            int decimals = 0;  // seconds, down to the step
            for (int64_t s = step; s < 1'000'000'000 && decimals < 9; s *= 10) ++decimals;
            tick.label = QString::number(double(rel) / 1e9, 'f', decimals) + QStringLiteral(" s");
        } else if (tick.major) {
            tick.label = relative ? QStringLiteral("+") + label(rel - anchor, step) : label(rel, step);
        }
        out.push_back(tick);
    }
    return out;
}

} // namespace stepscope
