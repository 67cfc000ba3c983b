#include "views/utilization/time_axis_ticker.h"

#include <algorithm>
#include <cmath>

namespace stepscope {

double TimeAxisTicker::getTickStep(const QCPRange &range) {
    const double ideal = range.size() / double(std::max(tickCount(), 1));
    static const double steps[] = {1,   2,   5,    10,   15,   30,    60,    120,   300,   600,  900,
                                   1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800};
    if (ideal < 1) {
        m_step = cleanMantissa(ideal);  // 1/2/5 × 10^n below a second
    } else {
        m_step = steps[std::size(steps) - 1];
        for (double s : steps)
            if (s >= ideal * 0.75) { m_step = s; break; }
        if (ideal > 604800) m_step = std::ceil(ideal / 86400) * 86400;
    }
    return m_step;
}

int TimeAxisTicker::getSubTickCount(double tickStep) {
    if (tickStep >= 60 && std::fmod(tickStep, 60) == 0) return tickStep / 60 <= 5 ? int(tickStep / 60) - 1 : 1;
    return 1;
}

QString TimeAxisTicker::getTickLabel(double tick, const QLocale &, QChar, int) { return label(tick, m_step); }

QString TimeAxisTicker::label(double seconds, double step) {
    const bool negative = seconds < 0 && std::fabs(seconds) > step * 1e-6;
    // Sub-second steps get enough decimals to tell neighbours apart; rounding to them first keeps
    // 59.9996 s from printing as "0:60.000".
    int decimals = 0;  // the fewest that show the step exactly (0.25 s steps: 2)
    while (decimals < 9 && step > 0 && std::fabs(step * std::pow(10.0, decimals) - std::round(step * std::pow(10.0, decimals))) > 1e-6)
        ++decimals;
    const double scale = std::pow(10.0, decimals);
    const double a = std::round(std::fabs(seconds) * scale) / scale;
    const int64_t whole = int64_t(std::floor(a));
    const double frac = a - double(whole);
    const int64_t days = whole / 86400, h = (whole / 3600) % 24, m = (whole / 60) % 60, sec = whole % 60;
    const QString secs = decimals ? QStringLiteral("%1").arg(double(sec) + frac, decimals + 3, 'f', decimals, QChar('0'))
                                  : QStringLiteral("%1").arg(sec, 2, 10, QChar('0'));
    const QString mm = QStringLiteral("%1").arg(m, 2, 10, QChar('0'));
    QString s;
    if (days > 0) {
        // A week-long series zoomed to seconds still says which day and hour it is.
        s = step >= 86400 ? QStringLiteral("%1 d").arg(days)
          : step >= 60    ? QStringLiteral("%1 d %2:%3").arg(days).arg(h).arg(mm)
                          : QStringLiteral("%1 d %2:%3:%4").arg(days).arg(h).arg(mm, secs);
    } else if (h > 0) {
        s = step >= 60 && sec == 0 && decimals == 0 ? QStringLiteral("%1:%2 h").arg(h).arg(mm)
                                                    : QStringLiteral("%1:%2:%3").arg(h).arg(mm, secs);
    } else if (m > 0 || decimals == 0) {
        s = QStringLiteral("%1:%2").arg(m).arg(secs);
    } else {
        s = QString::number(double(sec) + frac, 'f', decimals) + QStringLiteral(" s");
    }
    return negative ? QStringLiteral("-") + s : s;
}

} // namespace stepscope
