#include "models/analysis/rules/framework_advice.h"


namespace stepscope {

Framework frameworkOf(std::string_view name) {
    if (name == "pytorch") return Framework::PyTorch;
    if (name == "tensorflow") return Framework::TensorFlow;
    if (name == "jax") return Framework::Jax;
    return Framework::Unknown;
}

std::string_view frameworkName(Framework f) {
    switch (f) {
    case Framework::PyTorch: return "PyTorch";
    case Framework::TensorFlow: return "TensorFlow";
    case Framework::Jax: return "JAX";
    case Framework::Unknown: break;
    }
    return "unknown";
}

} // namespace stepscope
