#include "app/synth/bottleneck.h"

#include <array>
#include <utility>

namespace stepscope::synth {

namespace {
constexpr std::array<std::pair<Bottleneck, std::string_view>, 8> kNames{{
    {Bottleneck::None, "none"},
    {Bottleneck::Input, "input"},
    {Bottleneck::Preprocessing, "preprocessing"},
    {Bottleneck::H2D, "h2d"},
    {Bottleneck::KernelLaunch, "kernel_launch"},
    {Bottleneck::Callback, "callback"},
    {Bottleneck::Checkpoint, "checkpoint"},
    {Bottleneck::Collective, "collective"},
}};
constexpr std::array<Bottleneck, 8> kAll{Bottleneck::None,       Bottleneck::Input,        Bottleneck::Preprocessing,
                                         Bottleneck::H2D,        Bottleneck::KernelLaunch, Bottleneck::Callback,
                                         Bottleneck::Checkpoint, Bottleneck::Collective};
} // namespace

std::optional<Bottleneck> parseBottleneck(std::string_view name) {
    if (name == "kernel-launch")
        return Bottleneck::KernelLaunch;
    for (const auto &[b, n] : kNames)
        if (n == name)
            return b;
    return std::nullopt;
}

std::string_view bottleneckName(Bottleneck b) {
    for (const auto &[v, n] : kNames)
        if (v == b)
            return n;
    return "none";
}

std::span<const Bottleneck> allBottlenecks() {
    return kAll;
}

std::optional<LateCause> parseLateCause(std::string_view name) {
    for (LateCause c : {LateCause::Input, LateCause::HostCompute, LateCause::Checkpoint})
        if (name == lateCauseName(c))
            return c;
    return std::nullopt;
}

std::string_view lateCauseName(LateCause c) {
    switch (c) {
    case LateCause::Input: return "input";
    case LateCause::HostCompute: return "host_compute";
    case LateCause::Checkpoint: return "checkpoint";
    }
    return "input";
}

} // namespace stepscope::synth
