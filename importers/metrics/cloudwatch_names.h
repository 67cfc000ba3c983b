#pragma once
// Maps CloudWatch metric names found in CSV column headers (e.g. "CPUUtilization",
// "i-0abc NetworkIn", "DiskReadBytes (i-0abc)") to v_metric's canonical series (pure C++).
// Used by CloudWatchCsvImporter and its sniff.

#include <optional>
#include <string>
#include <string_view>

namespace stepscope::metrics {

struct CloudWatchMetric {
    std::string metric;      // CloudWatch name found, e.g. "NetworkIn"
    std::string series;      // canonical or own name, e.g. "net_in"
    std::string unit;        // unit stored
    bool perPeriod = false;  // a byte count per sampling period: divide by the period for B/s
    std::string qualifier;   // the rest of the header (instance id, ...), used as run name
};

// The metric named in `header` as a whole word; nullopt when it names none that is known.
std::optional<CloudWatchMetric> matchCloudWatchMetric(std::string_view header);

} // namespace stepscope::metrics
