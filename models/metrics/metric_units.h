#pragma once
// MetricUnits turns stored units (%, B, B/s, C, ...) into readable display scales (GiB for memory,
// MB/s for throughput) and formats values, sampling periods ("every 60 s") and the names of
// canonical series. Pure functions; used by the utilization view and its tests.

#include <QString>

#include <cstdint>

namespace stepscope {

struct UnitScale {
    double divisor = 1;
    QString suffix;  // "%", "GiB", "MB/s", ...
};

class MetricUnits {
public:
    // The scale that shows values up to `maxAbs` (in `unit`) with a readable number.
    static UnitScale scaleFor(const QString &unit, double maxAbs);
    // "87.5 %", "12.3 GiB", "450 MB/s"; 3 significant digits.
    static QString format(double value, const UnitScale &scale);
    // "every 100 ms", "every 60 s", "every 5 min"; "single sample" for 0.
    static QString period(int64_t periodNs);
    // period(), except "on change" for a series of many samples without a period (allocator totals).
    static QString sampling(int64_t periodNs, int64_t samples);
    // "GPU utilization", "network in", ...; the name itself for source-specific series.
    static QString seriesTitle(const QString &canonicalName);
};

} // namespace stepscope
