#pragma once
// The framework a run was recorded with, which decides the words of its recommendations
// (FindingRuleBook::advice, resources/rules/framework_advice.tsv): a TensorFlow run is told about
// tf.data and XLA, a PyTorch run about its DataLoader and torch.compile, a JAX run about jit and
// prefetching to the device; a run whose framework is unknown (an Nsight export) gets the PyTorch and
// TensorFlow advice side by side. Rules that belong to one framework's own tool (the PyTorch profiler
// plugin's) fire on that framework's runs only, or on a run of unknown framework saying whose rule
// they are.

#include <string>
#include <string_view>

namespace stepscope {

enum class Framework { PyTorch, TensorFlow, Jax, Unknown };

// From run.framework ("pytorch", "tensorflow", "jax"; anything else is unknown).
Framework frameworkOf(std::string_view name);
std::string_view frameworkName(Framework f);  // "PyTorch", "TensorFlow", "JAX", "unknown"


} // namespace stepscope
