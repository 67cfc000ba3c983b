#include "importers/tfprofiler/tf_profiler_tool_parser.h"

#include "importers/tfprofiler/tf_profiler_tools.pb.h"

#include <algorithm>
#include <array>

namespace stepscope {
namespace {

namespace wire = tfprof_wire;

template <typename Message> bool parse(std::string_view bytes, Message &m, ToolVerdict &out, const char *what) {
    if (bytes.empty()) {
        out.error = "empty file (0 bytes)";
        return false;
    }
    if (bytes.size() > size_t(INT32_MAX) || !m.ParseFromArray(bytes.data(), int(bytes.size()))) {
        out.error = std::string("not a readable ") + what + " (protobuf malformed or truncated; " +
                    std::to_string(bytes.size()) + " bytes)";
        return false;
    }
    return true;
}

bool endsWithType(const std::string &typeUrl, std::string_view type) {
    return typeUrl.size() >= type.size() && typeUrl.compare(typeUrl.size() - type.size(), type.size(), type) == 0;
}

void readInputPipeline(const wire::InputPipelineAnalysisResult &ip, ToolVerdict &out) {
    if (!ip.hardware_type().empty() && out.deviceType.empty()) out.deviceType = ip.hardware_type();
    double stepMs = 0, inputMs = 0;
    wire::PerGenericStepDetails step;
    for (const wire::AnyMessage &any : ip.step_details()) {
        if (!endsWithType(any.type_url(), "PerGenericStepDetails") ||
            !step.ParseFromArray(any.value().data(), int(any.value().size())))
            continue;
        stepMs += step.step_time_ms();
        inputMs += step.host_wait_input_ms() + step.host_to_device_ms();
        ++out.steps;
    }
    // TensorFlow's own figure where the profiler wrote one; older profilers leave the field 0 and
    // state "X% of the total step time sampled", which is this sum over the sampled steps.
    if (ip.input_percent() > 0) out.inputPct = ip.input_percent();
    else if (stepMs > 0) out.inputPct = 100.0 * inputMs / stepMs;
    if (ip.has_recommendation() && ip.recommendation().has_bottleneck_analysis()) {
        wire::BottleneckAnalysis ba;
        const std::string &v = ip.recommendation().bottleneck_analysis().value();
        if (ba.ParseFromArray(v.data(), int(v.size()))) {
            if (!ba.input_statement().empty() && out.verdict.empty()) out.verdict = ba.input_statement();
            if (ba.input_percent() > 0 && ip.input_percent() <= 0) out.inputPct = ba.input_percent();
        }
    }
    if (out.topOps.empty()) {
        double total = 0;
        for (const wire::InputOpDetails &op : ip.input_op_details()) total += op.self_time_in_ms();
        for (const wire::InputOpDetails &op : ip.input_op_details())
            out.topOps.push_back({op.op_name(), op.category(), total > 0 ? 100.0 * op.self_time_in_ms() / total : 0});
    }
}

void keepTop(ToolVerdict &out) {
    std::stable_sort(out.topOps.begin(), out.topOps.end(), [](const ToolTopOp &a, const ToolTopOp &b) { return a.selfPct > b.selfPct; });
    if (out.topOps.size() > ToolVerdict::kTopOps) out.topOps.resize(ToolVerdict::kTopOps);
}

} // namespace

std::string TfProfilerToolParser::kindOf(std::string_view fileName) {
    static constexpr std::array<std::string_view, 4> kKinds = {"overview_page", "input_pipeline", "tensorflow_stats", "kernel_stats"};
    for (std::string_view kind : kKinds) {
        const std::string suffix = "." + std::string(kind) + ".pb";
        if (fileName.size() > suffix.size() && fileName.ends_with(suffix)) return std::string(kind);
    }
    return {};
}

ToolVerdict TfProfilerToolParser::read(std::string_view kind, std::string_view bytes) {
    ToolVerdict out;
    out.kind = std::string(kind);
    if (kind == "overview_page") {
        wire::OverviewPage page;
        if (!parse(bytes, page, out, "OverviewPage")) return out;
        out.deviceType = page.run_environment().device_type();
        out.verdict = page.recommendation().statement();
        for (const wire::OverviewTfOp &op : page.analysis().top_device_ops())
            out.topOps.push_back({op.name(), op.category(), 100.0 * op.self_time_fraction()});
        readInputPipeline(page.input_analysis(), out);
    } else if (kind == "input_pipeline") {
        wire::InputPipelineAnalysisResult ip;
        if (!parse(bytes, ip, out, "InputPipelineAnalysisResult")) return out;
        readInputPipeline(ip, out);
    } else if (kind == "tensorflow_stats") {
        wire::TfStatsDatabase db;
        if (!parse(bytes, db, out, "TfStatsDatabase")) return out;
        out.deviceType = db.device_type();
        const wire::TfStatsTable &table = db.without_idle().tf_stats_record_size() > 0 ? db.without_idle() : db.with_idle();
        double total = 0;
        for (const wire::TfStatsRecord &r : table.tf_stats_record())
            if (r.op_type() != "IDLE") total += r.total_self_time_in_us();
        for (const wire::TfStatsRecord &r : table.tf_stats_record())
            if (r.op_type() != "IDLE")
                out.topOps.push_back({r.op_name(), r.host_or_device() + " " + r.op_type(),
                                      total > 0 ? 100.0 * r.total_self_time_in_us() / total : 0});
    } else if (kind == "kernel_stats") {
        wire::KernelStatsDb db;
        if (!parse(bytes, db, out, "KernelStatsDb")) return out;
        double total = 0;
        for (const wire::KernelReport &k : db.reports()) total += double(k.total_duration_ns());
        for (const wire::KernelReport &k : db.reports())
            out.topOps.push_back({k.name(), k.op_name(), total > 0 ? 100.0 * double(k.total_duration_ns()) / total : 0});
    } else {
        out.error = "not a TensorFlow profiler tool file";
        return out;
    }
    keepTop(out);
    return out;
}

} // namespace stepscope
