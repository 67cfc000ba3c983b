#include "models/analysis/framework_advice.h"

#include <array>

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

namespace {

struct Advice {
    std::string_view topic, pytorch, tensorflow, jax;  // unknown: the PyTorch and TensorFlow texts together
};

constexpr std::array kAdvice{
    Advice{"input",
           "Overlap input with compute: DataLoader(num_workers>0, pin_memory=True, persistent_workers=True, prefetch_factor>=2).",
           "Overlap input with compute: tf.data .prefetch(tf.data.AUTOTUNE), parallel map/interleave "
           "(num_parallel_calls=tf.data.AUTOTUNE), .cache() small datasets.",
           "Overlap input with compute: load batches in worker processes (grain, or tf.data with prefetch) and put the "
           "next batches on the device ahead of the step (flax.jax_utils.prefetch_to_device)."},
    Advice{"output",
           "Fetch fewer or smaller results each step: avoid .item()/.cpu() per step, accumulate metrics on the GPU.",
           "Fetch fewer or smaller results each step: avoid .numpy() and printing tensors in the loop, keep metrics in "
           "tf.keras.metrics on the device.",
           "Fetch fewer or smaller results each step: avoid jax.device_get / float() on results every step, keep metrics "
           "on the device and read them every N steps."},
    Advice{"kernel_launch",
           "Launch fewer, bigger kernels: a larger batch, fused ops (torch.compile), CUDA graphs "
           "(torch.compile(mode=\"reduce-overhead\") or torch.cuda.graphs).",
           "Launch fewer, bigger kernels: a larger batch, XLA (tf.function(jit_compile=True)); with tf.data set "
           "TF_GPU_THREAD_MODE=gpu_private so launches do not compete with input threads.",
           "Launch fewer, bigger kernels: jit the whole training step (not its pieces), a larger batch, lax.scan "
           "instead of Python loops."},
    Advice{"untraced",
           "Could be Python overhead: move per-step Python work off the training loop, use torch.compile, profile "
           "with with_stack=True to see it.",
           "Could be Python overhead: run the step as a tf.function, move per-step Python work out of the loop, "
           "profile with the Python tracer (python_tracer_level=1).",
           "Could be Python overhead: jit the whole step, move per-step Python work out of the loop, profile with "
           "the Python tracer (python_tracer_level=1)."},
    Advice{"collectives",
           "Overlap communication with backward (DDP bucket_cap_mb, gradient_as_bucket_view), compress gradients "
           "(DDP comm hooks), accumulate gradients over several steps, or use a faster interconnect.",
           "Overlap communication with compute: all-reduce in larger packs (tf.distribute "
           "CommunicationOptions(bytes_per_pack=…)), accumulate gradients over several steps, or use a faster interconnect.",
           "Overlap communication with compute (XLA's latency-hiding scheduler: "
           "--xla_gpu_enable_latency_hiding_scheduler=true), accumulate gradients over several steps, or shard "
           "differently (fewer collectives per step)."},
    Advice{"dataloader",
           "Increase DataLoader num_workers (multi-process loading), set pin_memory=True and prefetch_factor; move "
           "heavy augmentation to the GPU (DALI, torchvision.transforms.v2 on CUDA tensors).",
           "", ""},
    Advice{"communication",
           "Try gradient compression (DDP comm hooks), gradient accumulation, or a larger batch; with large batches "
           "consider the LAMB optimizer.",
           "", ""},
    Advice{"low_gpu_utilization",
           "Increase the batch size (if memory allows) to give the GPU more work per launch, after fixing the "
           "bottleneck that keeps the GPU idle.",
           "", ""},
    Advice{"callback",
           "Make per-step callbacks cheap: log every N steps, avoid .item()/host syncs and Python metric code in "
           "on_train_batch_end, compute metrics on the GPU and fetch them rarely.",
           "Make per-step Keras callbacks cheap: log every N batches (TensorBoard update_freq), avoid .numpy() in "
           "on_train_batch_end, keep metrics in tf.keras.metrics.",
           "Make per-step hooks cheap: log every N steps, avoid jax.device_get / block_until_ready in them, keep "
           "metrics on the device."},
    Advice{"checkpoint",
           "Checkpoint less often, save asynchronously (torch.distributed.checkpoint.async_save, a background thread), "
           "write to local NVMe first and upload in the background.",
           "Checkpoint less often, save asynchronously (tf.train.CheckpointOptions(experimental_enable_async_checkpoint=True)), "
           "write to local disk first and upload in the background.",
           "Checkpoint less often, save asynchronously (orbax AsyncCheckpointer / CheckpointManager with async "
           "options), write to local disk first."},
    Advice{"h2d",
           "Pin host memory (DataLoader pin_memory=True), copy with non_blocking=True on a side stream, send uint8 "
           "and convert/normalise on the GPU.",
           "Copy ahead of the step: tf.data prefetch_to_device / .prefetch after batching, send uint8 and "
           "convert/normalise on the GPU.",
           "Put batches on the device ahead of the step (jax.device_put of the next batch, prefetch_to_device), send "
           "uint8 and convert on the device."},
    Advice{"compilation",
           "Avoid recompilation: fix input shapes (pad/bucket), torch._dynamo.mark_dynamic for the dims that vary, "
           "warm up before timing.",
           "Avoid retracing: give the tf.function an input_signature or reduce_retracing=True, fix input shapes "
           "(pad/bucket), warm up before timing.",
           "Avoid recompiling: pad/bucket input shapes, keep static_argnums values stable, warm up before timing."},
    Advice{"outlier_input",
           "Some batches arrive late: more DataLoader workers and prefetch_factor.",
           "Some batches arrive late: more prefetching (.prefetch(tf.data.AUTOTUNE)) and parallel reads.",
           "Some batches arrive late: prefetch more batches to the device and load them in more workers."},
};

} // namespace

std::string FrameworkAdvice::text(std::string_view topic, Framework framework) {
    for (const Advice &a : kAdvice) {
        if (a.topic != topic) continue;
        switch (framework) {
        case Framework::PyTorch: return std::string(a.pytorch);
        case Framework::TensorFlow: return std::string(a.tensorflow.empty() ? a.pytorch : a.tensorflow);
        case Framework::Jax: return std::string(a.jax.empty() ? a.pytorch : a.jax);
        case Framework::Unknown:
            return a.tensorflow.empty() ? std::string(a.pytorch)
                                        : "PyTorch: " + std::string(a.pytorch) + " TensorFlow: " + std::string(a.tensorflow);
        }
    }
    return {};
}

} // namespace stepscope
