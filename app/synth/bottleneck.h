#pragma once
// Bottleneck: the names of the training-step stage a synthetic profile is made to starve on.
// Owned by the synthetic generator; the program (flag --bottleneck), the tests and benchmarks call
// parseBottleneck()/bottleneckName() so that one spelling is used for flags, file names and reports.

#include <optional>
#include <span>
#include <string_view>

namespace stepscope::synth {

enum class Bottleneck { None, Input, Preprocessing, H2D, KernelLaunch, Callback, Checkpoint, Collective };

// Lower-case names: none, input, preprocessing, h2d, kernel_launch, callback, checkpoint, collective
// ("kernel-launch" is accepted too). Returns nullopt for anything else.
std::optional<Bottleneck> parseBottleneck(std::string_view name);
std::string_view bottleneckName(Bottleneck b);
std::span<const Bottleneck> allBottlenecks();

// Why a straggling rank of a synthetic job is late each step: its DataLoader (input), host work
// between steps (host_compute) or a checkpoint save at the step's start (checkpoint).
enum class LateCause { Input, HostCompute, Checkpoint };
std::optional<LateCause> parseLateCause(std::string_view name);
std::string_view lateCauseName(LateCause c);

} // namespace stepscope::synth
