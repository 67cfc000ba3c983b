#include "app/synth/xplane_logdir_writer.h"

#include "app/synth/utc_calendar.h"

#include <cstdio>
#include <system_error>

namespace stepscope::synth {

std::string profileRunName(int64_t epochNs) {
    // "YYYY/MM/DD HH:MM:SS.mmm" → "YYYY_MM_DD_HH_MM_SS"
    std::string t = UtcCalendar::nvidiaSmiTimestamp(epochNs).substr(0, 19);
    for (char &c : t)
        if (c == '/' || c == ' ' || c == ':')
            c = '_';
    return t;
}

XPlaneLogdirResult writeXPlaneLogdir(const SyntheticProfileOptions &options, const std::filesystem::path &logdir,
                                     const XPlaneLogdirOptions &xplane, const std::filesystem::path &chromeTraceGz) {
    const SyntheticProfileGenerator gen(options);
    XPlaneLogdirResult result;
    const std::string run = xplane.run.empty() ? profileRunName(options.epochStartNs) : xplane.run;
    result.file = logdir / "plugins" / "profile" / run / (xplane.host + ".xplane.pb");
    std::filesystem::path trace = chromeTraceGz;
    const bool temporary = trace.empty();
    if (temporary) {
        trace = logdir / (".stepscope-synth-" + xplane.host + ".tmp.json.gz");
        SyntheticProfileOptions fast = gen.options();
        fast.targetEvents = 0;  // already resolved into steps and kernels
        fast.gzipLevel = 1;
        result.trace = SyntheticProfileGenerator(fast).generate(trace, {});
    } else {
        SyntheticProfileOptions counting = gen.options();
        counting.targetEvents = 0;
        result.trace = SyntheticProfileGenerator(counting).generate({}, {});
    }
    try {
        XPlaneTraceConverter converter(gen.options().epochStartNs, gen.options().gpus, xplane.host, xplane.stepMarkers);
        result.xplane = converter.convert(trace, result.file);
    } catch (...) {
        std::error_code ec;
        if (temporary)
            std::filesystem::remove(trace, ec);
        throw;
    }
    std::error_code ec;
    if (temporary)
        std::filesystem::remove(trace, ec);
    return result;
}

} // namespace stepscope::synth
