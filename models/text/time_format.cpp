#include "models/text/time_format.h"

#include <cstdlib>

namespace stepscope {

QString formatTime(int64_t ns, int64_t referenceNs) {
    // The magnitude that picks the unit; |INT64_MIN| does not fit, its neighbour picks the same.
    const int64_t reference = referenceNs >= 0 ? referenceNs : ns == INT64_MIN ? INT64_MAX : std::llabs(ns);
    struct Unit {
        int64_t ns;
        const char16_t *name;
    };
    static constexpr Unit kUnits[] = {{1000000000, u" s"}, {1000000, u" ms"}, {1000, u" µs"}};
    for (const Unit &u : kUnits) {
        if (reference < u.ns) continue;
        const int decimals = reference >= 100 * u.ns ? 1 : 3;
        return QString::number(double(ns) / double(u.ns), 'f', decimals) + QString::fromUtf16(u.name);
    }
    return QString::number(ns) + QStringLiteral(" ns");
}

} // namespace stepscope
