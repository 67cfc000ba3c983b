#pragma once
// The id of every finding rule, named once. The code refers to a rule only through these; its record
// (origin, causes, thresholds, advice) is in resources/rules/finding_rules.tsv, read by
// FindingRuleBook, and tst_finding_rule_book checks that every id here has a record and every record
// an id here.

#include <array>
#include <string_view>

namespace stepscope::rule_id {

inline constexpr std::string_view TfInputBound = "tf_input_bound";
inline constexpr std::string_view TfOutputBound = "tf_output_bound";
inline constexpr std::string_view TfKernelLaunch = "tf_kernel_launch";
inline constexpr std::string_view TfAllOthers = "tf_all_others";
inline constexpr std::string_view TfCollectives = "tf_collectives";
inline constexpr std::string_view PtDataloader = "pt_dataloader";
inline constexpr std::string_view PtCommunication = "pt_communication";
inline constexpr std::string_view PtLowGpuUtilization = "pt_low_gpu_utilization";
inline constexpr std::string_view CallbackBound = "callback_bound";
inline constexpr std::string_view CheckpointBound = "checkpoint_bound";
inline constexpr std::string_view H2dExposed = "h2d_exposed";
inline constexpr std::string_view Compilation = "compilation";
inline constexpr std::string_view GpuIdle = "gpu_idle";
inline constexpr std::string_view OutlierSteps = "outlier_steps";
inline constexpr std::string_view SmStepOutlier = "sm_step_outlier";
inline constexpr std::string_view SmLowGpuUtilization = "sm_low_gpu_utilization";
inline constexpr std::string_view SmCpuBottleneck = "sm_cpu_bottleneck";
inline constexpr std::string_view SmIoBottleneck = "sm_io_bottleneck";
inline constexpr std::string_view SmBatchSize = "sm_batch_size";
inline constexpr std::string_view SmGpuMemoryIncrease = "sm_gpu_memory_increase";
inline constexpr std::string_view SmLoadBalancing = "sm_load_balancing";
inline constexpr std::string_view PageableMemcpy = "pageable_memcpy";
inline constexpr std::string_view SyncMemcpy = "sync_memcpy";
inline constexpr std::string_view SyncMemset = "sync_memset";
inline constexpr std::string_view SyncApi = "sync_api";
inline constexpr std::string_view GpuStarvation = "gpu_starvation";
inline constexpr std::string_view LaunchBound = "launch_bound";
inline constexpr std::string_view InefficientOp = "inefficient_op";
inline constexpr std::string_view SlowCollective = "slow_collective";
inline constexpr std::string_view MemoryHeadroom = "memory_headroom";
inline constexpr std::string_view TfProfilerDisagrees = "tf_profiler_disagrees";
inline constexpr std::string_view JobStraggler = "job_straggler";

inline constexpr std::array kAll{
    TfInputBound,   TfOutputBound, TfKernelLaunch,  TfAllOthers,         TfCollectives,   PtDataloader,
    PtCommunication, PtLowGpuUtilization, CallbackBound, CheckpointBound, H2dExposed,      Compilation,
    GpuIdle,        OutlierSteps,  SmStepOutlier,   SmLowGpuUtilization, SmCpuBottleneck, SmIoBottleneck,
    SmBatchSize,    SmGpuMemoryIncrease, SmLoadBalancing, PageableMemcpy, SyncMemcpy,     SyncMemset,
    SyncApi,        GpuStarvation, LaunchBound,     InefficientOp,       SlowCollective,  MemoryHeadroom,
    TfProfilerDisagrees, JobStraggler};

} // namespace stepscope::rule_id
