#include "models/metrics/metric_units.h"

#include <QHash>

#include <cmath>

namespace stepscope {

UnitScale MetricUnits::scaleFor(const QString &unit, double maxAbs) {
    maxAbs = std::fabs(maxAbs);
    if (unit == QLatin1String("B")) {
        // Memory sizes: binary units, as nvidia-smi and free(1) show them.
        static const char *const names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
        int k = 0;
        double d = 1;
        while (k < 4 && maxAbs >= d * 1024 * 0.95) { d *= 1024; ++k; }
        return {d, QString::fromLatin1(names[k])};
    }
    if (unit == QLatin1String("B/s")) {
        // Throughput: decimal units, as network and disk tools show them.
        static const char *const names[] = {"B/s", "kB/s", "MB/s", "GB/s"};
        int k = 0;
        double d = 1;
        while (k < 3 && maxAbs >= d * 1000 * 0.95) { d *= 1000; ++k; }
        return {d, QString::fromLatin1(names[k])};
    }
    if (unit == QLatin1String("C")) return {1, QStringLiteral("°C")};
    return {1, unit};
}

QString MetricUnits::format(double value, const UnitScale &scale) {
    const double v = value / scale.divisor;
    const double a = std::fabs(v);
    const int decimals = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    QString text = QString::number(v, 'f', decimals);
    if (scale.suffix.isEmpty()) return text;
    return text + QChar(0x2009) + scale.suffix;  // thin space
}

QString MetricUnits::sampling(int64_t periodNs, int64_t samples) {
    return periodNs <= 0 && samples > 1 ? QStringLiteral("on change") : period(periodNs);
}

QString MetricUnits::period(int64_t periodNs) {
    if (periodNs <= 0) return QStringLiteral("single sample");
    const double s = double(periodNs) / 1e9;
    auto num = [](double v) { return QString::number(v, 'g', 3); };
    if (s < 1) return QStringLiteral("every %1 ms").arg(num(s * 1000));
    if (s < 120) return QStringLiteral("every %1 s").arg(num(s));
    if (s < 7200) return QStringLiteral("every %1 min").arg(num(s / 60));
    return QStringLiteral("every %1 h").arg(num(s / 3600));
}

QString MetricUnits::seriesTitle(const QString &name) {
    static const QHash<QString, QString> titles = {
        {"gpu_util", "GPU utilization"},   {"gpu_mem_util", "GPU memory utilization"},
        {"gpu_mem_used", "GPU memory used"}, {"cpu_util", "CPU utilization"},
        {"gpu_mem_allocated", "GPU memory allocated"}, {"gpu_mem_reserved", "GPU memory reserved"},
        {"gpu_mem_total", "GPU memory total"}, {"cpu_mem_allocated", "CPU memory allocated"},
        {"cpu_mem_reserved", "CPU memory reserved"},
        {"host_mem_used", "host memory used"}, {"net_in", "network in"},
        {"net_out", "network out"},         {"disk_read", "disk read"},
        {"disk_write", "disk write"},       {"io_wait", "I/O wait"},
    };
    return titles.value(name, name);
}

} // namespace stepscope
