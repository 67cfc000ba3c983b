#pragma once
// The TensorFlow profiler's analysis messages as the profiler writes them, built for tests with our
// wire-compatible schema (importers/tfprofiler/tf_profiler_tools.proto): an overview page and an
// input-pipeline analysis from per-step figures.

#include "importers/tfprofiler/tf_profiler_tools.pb.h"

#include <string>
#include <vector>

namespace stepscope::test {

namespace wire = stepscope::tfprof_wire;

struct StepFigures {
    double stepMs, waitMs, h2dMs;
};

// An InputPipelineAnalysisResult with per-step details packed in Any, as the profiler writes them.
inline wire::InputPipelineAnalysisResult inputPipeline(const std::vector<StepFigures> &steps, double inputPercentField) {
    wire::InputPipelineAnalysisResult ip;
    ip.set_hardware_type("GPU");
    if (inputPercentField > 0) ip.set_input_percent(inputPercentField);
    int n = 0;
    for (const StepFigures &s : steps) {
        wire::PerGenericStepDetails d;
        d.set_step_number(n++);
        d.set_step_time_ms(s.stepMs);
        d.set_host_wait_input_ms(s.waitMs);
        d.set_host_to_device_ms(s.h2dMs);
        wire::AnyMessage *any = ip.add_step_details();
        any->set_type_url("type.googleapis.com/tensorflow.profiler.PerGenericStepDetails");
        any->set_value(d.SerializeAsString());
    }
    auto *op = ip.add_input_op_details();
    op->set_op_name("Iterator::Model::ParallelMapV2");
    op->set_self_time_in_ms(3);
    op->set_category("Preprocessing");
    op = ip.add_input_op_details();
    op->set_op_name("Iterator::Model::ParallelMapV2::TFRecord");
    op->set_self_time_in_ms(1);
    op->set_category("Advanced file read");
    return ip;
}

inline wire::OverviewPage overview(const std::vector<StepFigures> &steps, const std::string &statement) {
    wire::OverviewPage page;
    page.mutable_run_environment()->set_device_type("GPU");
    *page.mutable_input_analysis() = inputPipeline(steps, 0);
    page.mutable_recommendation()->set_bottleneck("host");
    page.mutable_recommendation()->set_statement(statement);
    for (auto [name, fraction] : {std::pair{"small_op", 0.05}, std::pair{"big_conv", 0.4}}) {
        auto *op = page.mutable_analysis()->add_top_device_ops();
        op->set_name(name);
        op->set_category("Conv2D");
        op->set_self_time_fraction(fraction);
    }
    return page;
}

inline double sumInputPct(const std::vector<StepFigures> &steps) {
    double step = 0, input = 0;
    for (const StepFigures &s : steps) {
        step += s.stepMs;
        input += s.waitMs + s.h2dMs;
    }
    return 100 * input / step;
}

} // namespace stepscope::test
