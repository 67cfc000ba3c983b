#!/usr/bin/env python3
"""Record real GPU profiles of one small training loop, with and without known bottlenecks.

Run on a machine with an NVIDIA GPU, PyTorch and (optionally) JAX:

    python3 scripts/record_gpu_profiles.py OUTDIR

It writes, into OUTDIR:
  baseline.pt.trace.json.gz        the loop as it is
  sync_callback.pt.trace.json.gz   plus a callback that calls .item() many times per step
  slow_input.pt.trace.json.gz      plus an input pipeline that takes longer than the step
  checkpoint.pt.trace.json.gz      plus a checkpoint (device -> host copy, a sync) every 3rd step
  cuda_graph.pt.trace.json.gz      the baseline step captured once and replayed as a CUDA graph
  jax.xplane.pb                    a JAX loop with StepTraceAnnotation markers
  nvidia-smi.csv                   GPU metrics sampled every 100 ms through all of it
  truth.json                       each variant's measured step times, with and without the profiler

truth.json is what the projection tests check against: the same seed and model with and without a
phase, so 'what if this phase were removed' has a measured answer.
"""
import contextlib
import gzip
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

BATCH = 128
IMAGE = 128
WIDTH = 512
PROFILED_STEPS = 6
TIMED_STEPS = 20


def log(*parts):
    print(time.strftime("%H:%M:%S"), *parts, flush=True)


def build_model(torch):
    nn = torch.nn

    class Block(nn.Module):
        """A small vision-transformer block: conv stem, attention through SDPA, an MLP."""

        def __init__(self):
            super().__init__()
            self.stem = nn.Conv2d(3, WIDTH, kernel_size=8, stride=8)
            self.norm1 = nn.LayerNorm(WIDTH)
            self.qkv = nn.Linear(WIDTH, 3 * WIDTH)
            self.proj = nn.Linear(WIDTH, WIDTH)
            self.norm2 = nn.LayerNorm(WIDTH)
            self.mlp = nn.Sequential(nn.Linear(WIDTH, 4 * WIDTH), nn.GELU(), nn.Linear(4 * WIDTH, WIDTH))
            self.head = nn.Linear(WIDTH, 10)

        def forward(self, x):
            x = self.stem(x).flatten(2).transpose(1, 2)  # [B, 64 patches, WIDTH]
            b, n, c = x.shape
            q, k, v = self.qkv(self.norm1(x)).view(b, n, 3, 8, c // 8).permute(2, 0, 3, 1, 4)
            attn = torch.nn.functional.scaled_dot_product_attention(q, k, v)
            x = x + self.proj(attn.transpose(1, 2).reshape(b, n, c))
            x = x + self.mlp(self.norm2(x))
            return self.head(x.mean(dim=1))

    return Block()


class Loop:
    """One model, optimizer and data source; each variant adds one phase to the same step."""

    def __init__(self, torch, variant):
        self.torch = torch
        self.variant = variant
        torch.manual_seed(0)
        self.device = torch.device("cuda")
        self.model = build_model(torch).to(self.device)
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.01, momentum=0.9)
        self.loss_fn = torch.nn.CrossEntropyLoss()
        generator = torch.Generator().manual_seed(1)
        self.images = torch.randn(4, BATCH, 3, IMAGE, IMAGE, generator=generator).pin_memory()
        self.labels = torch.randint(0, 10, (4, BATCH), generator=generator).pin_memory()
        self.step_no = 0

    def next_batch(self):
        torch = self.torch
        with torch.profiler.record_function("input_pipeline"):
            i = self.step_no % self.images.shape[0]
            if self.variant == "slow_input":
                # Decoding and augmenting on the host: CPU work, then a wait as if on storage.
                x = self.images[i].clone()
                x = torch.flip(x, dims=[3])
                time.sleep(0.015)
                images = x
            else:
                images = self.images[i]
            return (images.to(self.device, non_blocking=True),
                    self.labels[i].to(self.device, non_blocking=True))

    def train_step(self, images, labels):
        torch = self.torch
        self.optimizer.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = self.loss_fn(self.model(images), labels)
        loss.backward()
        self.optimizer.step()
        return loss

    def after_step(self, loss):
        torch = self.torch
        if self.variant == "sync_callback":
            with torch.profiler.record_function("metrics_callback"):
                # A logging callback that reads many small device values one at a time.
                total = 0.0
                for p in list(self.model.parameters())[:16]:
                    total += p.detach().float().norm().item()
                    total += p.detach().float().abs().max().item()
                total += loss.item()
        elif self.variant == "checkpoint" and self.step_no % 3 == 2:
            with torch.profiler.record_function("checkpoint"):
                buffer = io.BytesIO()
                torch.save({"model": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}, buffer)

    def step(self):
        images, labels = self.next_batch()
        loss = self.train_step(images, labels)
        self.after_step(loss)
        self.step_no += 1


def timed_steps(torch, loop, count, on_step=None):
    """Host time of each step, as training runs: the host may run ahead of the device, so only the
    mean over all steps (the device drained at the start and the end) is the run's step time.
    on_step follows every step but the last, which the caller closes after the clock stops (the
    profiler writes its trace there, and that must not count as a step's time)."""
    times = []
    torch.cuda.synchronize()
    first = time.perf_counter()
    start = first
    for i in range(count):
        loop.step()
        if on_step and i + 1 < count:
            on_step()
        now = time.perf_counter()
        times.append((now - start) * 1000.0)
        start = now
    torch.cuda.synchronize()
    return times, (time.perf_counter() - first) * 1000.0 / count


def summary(measured):
    times, mean = measured
    return {"steps": len(times), "mean_ms": round(mean, 4), "host_each_ms": [round(t, 4) for t in times]}


def record_variant(torch, variant, outdir):
    loop = Loop(torch, variant)
    for _ in range(5):  # warm-up: cuDNN/cuBLAS choices, allocator
        loop.step()
    unprofiled = timed_steps(torch, loop, TIMED_STEPS)
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    schedule = torch.profiler.schedule(wait=1, warmup=2, active=PROFILED_STEPS, repeat=1)
    path = os.path.join(outdir, f"{variant}.pt.trace.json.gz")
    with torch.profiler.profile(activities=activities, schedule=schedule, record_shapes=True,
                                on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        for _ in range(3):  # the schedule's wait and warm-up steps
            loop.step()
            prof.step()
        wall_start_ns = time.time_ns()
        profiled = timed_steps(torch, loop, PROFILED_STEPS, on_step=prof.step)
        wall_end_ns = time.time_ns()
        prof.step()
    return {"unprofiled": summary(unprofiled), "profiled": summary(profiled),
            "profiled_wall_ns": [wall_start_ns, wall_end_ns]}


def record_cuda_graph(torch, outdir):
    loop = Loop(torch, "baseline")
    static_images, static_labels = loop.next_batch()
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            loop.train_step(static_images, static_labels)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    loop.optimizer.zero_grad(set_to_none=True)
    with torch.cuda.graph(graph):
        with torch.autocast("cuda", dtype=torch.bfloat16, cache_enabled=False):
            static_loss = loop.loss_fn(loop.model(static_images), static_labels)
        static_loss.backward()
        loop.optimizer.step()

    class GraphLoop:
        step_no = 0

        def step(self):
            i = self.step_no % loop.images.shape[0]
            with torch.profiler.record_function("input_pipeline"):
                static_images.copy_(loop.images[i], non_blocking=True)
                static_labels.copy_(loop.labels[i], non_blocking=True)
            graph.replay()
            self.step_no += 1

    graph_loop = GraphLoop()
    for _ in range(3):
        graph_loop.step()
    unprofiled = timed_steps(torch, graph_loop, TIMED_STEPS)
    activities = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    schedule = torch.profiler.schedule(wait=1, warmup=2, active=PROFILED_STEPS, repeat=1)
    path = os.path.join(outdir, "cuda_graph.pt.trace.json.gz")
    with torch.profiler.profile(activities=activities, schedule=schedule, record_shapes=True,
                                on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        for _ in range(3):
            graph_loop.step()
            prof.step()
        profiled = timed_steps(torch, graph_loop, PROFILED_STEPS, on_step=prof.step)
        prof.step()
    return {"unprofiled": summary(unprofiled), "profiled": summary(profiled)}


JAX_PROGRAM = r"""
import os, sys, time, json, glob, shutil
import jax, jax.numpy as jnp
outdir = sys.argv[1]
key = jax.random.PRNGKey(0)
k1, k2, k3 = jax.random.split(key, 3)
params = {"w1": jax.random.normal(k1, (1024, 2048), jnp.bfloat16) * 0.02,
          "w2": jax.random.normal(k2, (2048, 10), jnp.bfloat16) * 0.02}
x = jax.random.normal(k3, (512, 1024), jnp.bfloat16)
y = jax.nn.one_hot(jnp.arange(512) % 10, 10)
def loss_fn(p, x, y):
    h = jax.nn.gelu(x @ p["w1"])
    logits = (h @ p["w2"]).astype(jnp.float32)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))
@jax.jit
def train_step(p, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
    return jax.tree_util.tree_map(lambda a, g: a - 0.01 * g.astype(a.dtype), p, grads), loss
for _ in range(3):
    params, loss = train_step(params, x, y)
loss.block_until_ready()
trace_dir = "/tmp/jax_trace"
shutil.rmtree(trace_dir, ignore_errors=True)
times = []
with jax.profiler.trace(trace_dir):
    for step in range(8):
        start = time.perf_counter()
        with jax.profiler.StepTraceAnnotation("train", step_num=step):
            time.sleep(0.002)  # the host's input work
            params, loss = train_step(params, x, y)
            loss.block_until_ready()
        times.append((time.perf_counter() - start) * 1000.0)
found = glob.glob(trace_dir + "/**/*.xplane.pb", recursive=True)
shutil.copy(found[0], os.path.join(outdir, "jax.xplane.pb"))
print(json.dumps({"steps": len(times), "each_ms": [round(t, 4) for t in times], "source": os.path.relpath(found[0], trace_dir)}))
"""


def record_jax(outdir):
    env = dict(os.environ, XLA_PYTHON_CLIENT_PREALLOCATE="false")
    result = subprocess.run([sys.executable, "-c", JAX_PROGRAM, outdir], env=env, capture_output=True,
                            text=True, timeout=240)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-3000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else "gpu-profiles"
    os.makedirs(outdir, exist_ok=True)
    smi_path = os.path.join(outdir, "nvidia-smi.csv")
    smi = None
    if shutil.which("nvidia-smi"):
        fields = ("timestamp,index,name,pci.bus_id,utilization.gpu,utilization.memory,memory.used,"
                  "memory.total,power.draw,temperature.gpu,clocks.sm,clocks.mem")
        smi = subprocess.Popen(["nvidia-smi", f"--query-gpu={fields}", "--format=csv", "-lms", "100",
                                "-f", smi_path])
    import torch
    truth = {"recorded": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "torch": torch.__version__,
             "device": torch.cuda.get_device_name(0), "batch": BATCH, "image": IMAGE, "width": WIDTH,
             "how": "python3 scripts/record_gpu_profiles.py OUTDIR", "variants": {}}
    torch.backends.cudnn.benchmark = True
    for variant in ("baseline", "sync_callback", "slow_input", "checkpoint"):
        log("recording", variant)
        try:
            truth["variants"][variant] = record_variant(torch, variant, outdir)
        except Exception as error:  # keep what the other variants recorded
            truth["variants"][variant] = {"error": repr(error)}
        log(variant, json.dumps({k: v.get("mean_ms") for k, v in truth["variants"][variant].items()
                                 if isinstance(v, dict)}))
    log("recording cuda_graph")
    try:
        truth["variants"]["cuda_graph"] = record_cuda_graph(torch, outdir)
    except Exception as error:
        truth["variants"]["cuda_graph"] = {"error": repr(error)}
    torch.cuda.synchronize()
    torch.cuda.empty_cache()
    log("recording jax")
    try:
        truth["jax"] = record_jax(outdir)
    except Exception as error:
        truth["jax"] = {"error": repr(error)[-2000:]}
    if smi:
        time.sleep(0.3)
        smi.terminate()
        smi.wait(timeout=10)
    with open(os.path.join(outdir, "truth.json"), "w") as out:
        json.dump(truth, out, indent=1)
    for name in sorted(os.listdir(outdir)):
        log(name, os.path.getsize(os.path.join(outdir, name)), "bytes")
    log(json.dumps({k: v for k, v in truth.items() if k != "variants"})[:2000])


if __name__ == "__main__":
    main()
