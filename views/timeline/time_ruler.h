#pragma once
// TimeRuler chooses the time axis ticks for a visible range and pixel width: a 1-2-5 step of
// about `minSpacingPx` pixels, labelled in the unit that suits the step (s, ms, µs, ns) as time
// since the session start. Pure; used by TimelinePainter and meant for any time axis.

#include <QString>

#include <cstdint>
#include <vector>

namespace stepscope {

class TimeRuler {
public:
    struct Tick {
        int64_t t = 0;   // absolute ns
        double x = 0;    // pixels from the left of the data area
        bool major = true;
        QString label;   // empty for minor ticks
    };

    // origin: the absolute time shown as 0 (the session start).
    static std::vector<Tick> ticks(int64_t origin, int64_t start, int64_t end, double widthPx, double minSpacingPx = 90);
    static int64_t stepFor(int64_t span, double widthPx, double minSpacingPx);
    // "1.25 s", "340 ms", "12.5 µs", "800 ns": value `ns` written with the step's precision.
    static QString label(int64_t ns, int64_t step);
};

} // namespace stepscope
