#include "views/utilization/time_axis_ticker.h"

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
    double a = std::fabs(seconds);
    if (step < 1) {
        // Sub-second ticks: enough decimals to tell neighbours apart, with minutes when > 60 s.
        const int decimals = std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 1, 9);
        const double whole = std::floor(a / 60);
        const double rest = a - whole * 60;
        QString s = whole > 0 ? QStringLiteral("%1:%2").arg(int64_t(whole)).arg(rest, decimals + 3, 'f', decimals, QChar('0'))
                              : QString::number(rest, 'f', decimals) + QStringLiteral(" s");
        return negative ? QStringLiteral("-") + s : s;
    }
    const int64_t total = int64_t(std::llround(a));
    const int64_t days = total / 86400, h = (total / 3600) % 24, m = (total / 60) % 60, sec = total % 60;
    QString s;
    if (days > 0) s = step >= 86400 ? QStringLiteral("%1 d").arg(days)
                                    : QStringLiteral("%1 d %2:%3").arg(days).arg(h).arg(m, 2, 10, QChar('0'));
    else if (h > 0) s = step >= 60 && sec == 0 ? QStringLiteral("%1:%2").arg(h).arg(m, 2, 10, QChar('0')) + QStringLiteral(" h")
                                               : QStringLiteral("%1:%2:%3").arg(h).arg(m, 2, 10, QChar('0')).arg(sec, 2, 10, QChar('0'));
    else s = QStringLiteral("%1:%2").arg(m).arg(sec, 2, 10, QChar('0'));
    return negative ? QStringLiteral("-") + s : s;
}

} // namespace stepscope
