#pragma once
// TimeAxisTicker labels a QCustomPlot axis whose keys are seconds since the session start with
// clock-like text ("0:00", "1:30", "1:02:03", "12.250 s") on round time steps (1/2/5 × 10^n below a
// second, then 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min, 1, 2, 3, 6, 12 h, days). Used by
// UtilizationView's shared x axis.

#include <qcustomplot.h>

namespace stepscope {

class TimeAxisTicker : public QCPAxisTicker {
public:
    TimeAxisTicker() { setTickCount(6); }

    // The label of `seconds` for ticks `step` seconds apart (public for tests and the hover text).
    static QString label(double seconds, double step);

protected:
    double getTickStep(const QCPRange &range) override;
    int getSubTickCount(double tickStep) override;
    QString getTickLabel(double tick, const QLocale &locale, QChar formatChar, int precision) override;

private:
    double m_step = 1;
};

} // namespace stepscope
