#!/usr/bin/env python3
"""Record real GPU profiles with known op costs and known collective sizes (op efficiency, bandwidth).

Run on a machine with an NVIDIA GPU and PyTorch:

    python3 scripts/record_gpu_efficiency.py OUTDIR

It writes, into OUTDIR:
  efficiency.pt.trace.json.gz   a small bf16 model (conv, linear, matmul, bmm, SDPA, layer norm, GELU)
                                plus one 11x11 convolution in fp32 with TF32 off (a slow kernel that
                                does not use tensor cores); recorded with record_shapes and with_flops,
                                so PyTorch's own FLOP counts ride along in the args
  collectives.pt.trace.json.gz  NCCL all_reduce, all_gather, reduce_scatter and broadcast of known sizes
                                (world size 1: one GPU; the recorded sizes and args are what is checked)
  efficiency_truth.json         per op: the shapes, the hand-computed FLOPs, and the kernel time measured
                                with CUDA events outside the profiler; per collective its byte count
"""
import json
import os
import sys
import time

STEPS = 4


def log(*parts):
    print(time.strftime("%H:%M:%S"), *parts, flush=True)


def conv_flops(n, c, h, w, k, r, s, stride, pad):
    ho = (h + 2 * pad - r) // stride + 1
    wo = (w + 2 * pad - s) // stride + 1
    return 2 * n * k * ho * wo * c * r * s


def main():
    import torch
    import torch.nn.functional as F

    outdir = sys.argv[1] if len(sys.argv) > 1 else "gpu-efficiency"
    os.makedirs(outdir, exist_ok=True)
    dev = torch.device("cuda")
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False
    bf = torch.bfloat16

    x_conv = torch.randn(64, 64, 56, 56, device=dev, dtype=bf)
    w_conv = torch.randn(128, 64, 3, 3, device=dev, dtype=bf)
    x_big = torch.randn(32, 32, 64, 64, device=dev, dtype=torch.float32)
    w_big = torch.randn(64, 32, 11, 11, device=dev, dtype=torch.float32)
    a = torch.randn(4096, 4096, device=dev, dtype=bf)
    b = torch.randn(4096, 4096, device=dev, dtype=bf)
    lin_x = torch.randn(8192, 2048, device=dev, dtype=bf)
    lin_w = torch.randn(8192, 2048, device=dev, dtype=bf)
    bmm_a = torch.randn(64, 512, 256, device=dev, dtype=bf)
    bmm_b = torch.randn(64, 256, 512, device=dev, dtype=bf)
    q = torch.randn(16, 16, 1024, 128, device=dev, dtype=bf)
    k = torch.randn(16, 16, 1024, 128, device=dev, dtype=bf)
    v = torch.randn(16, 16, 1024, 128, device=dev, dtype=bf)
    ln_x = torch.randn(8192, 4096, device=dev, dtype=bf)

    def slow_conv():
        torch.backends.cudnn.allow_tf32 = False
        y = F.conv2d(x_big, w_big, stride=1, padding=5)
        torch.backends.cudnn.allow_tf32 = True
        return y

    ops = {
        "conv3x3_bf16": (lambda: F.conv2d(x_conv, w_conv, stride=1, padding=1),
                         conv_flops(64, 64, 56, 56, 128, 3, 3, 1, 1)),
        "conv11x11_fp32": (slow_conv, conv_flops(32, 32, 64, 64, 64, 11, 11, 1, 5)),
        "mm_bf16": (lambda: torch.mm(a, b), 2 * 4096 * 4096 * 4096),
        "linear_bf16": (lambda: F.linear(lin_x, lin_w), 2 * 8192 * 2048 * 8192),
        "bmm_bf16": (lambda: torch.bmm(bmm_a, bmm_b), 2 * 64 * 512 * 256 * 512),
        "sdpa_bf16": (lambda: F.scaled_dot_product_attention(q, k, v), 4 * 16 * 16 * 1024 * 1024 * 128),
        "layer_norm_bf16": (lambda: F.layer_norm(ln_x, (4096,)), 0),
        "gelu_bf16": (lambda: F.gelu(ln_x), 0),
    }

    truth = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "ops": {}, "collectives": {}}
    for name, (fn, flops) in ops.items():
        for _ in range(3):
            fn()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(10):
            fn()
        end.record()
        torch.cuda.synchronize()
        ms = start.elapsed_time(end) / 10
        truth["ops"][name] = {"flops": flops, "measured_ms": ms,
                              "achieved_tflops": (flops / (ms / 1e3) / 1e12) if flops else None}
        log(name, f"{ms:.3f} ms", f"{truth['ops'][name]['achieved_tflops']}")

    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    path = os.path.join(outdir, "efficiency.pt.trace.json.gz")
    with torch.profiler.profile(activities=acts, record_shapes=True, with_flops=True,
                                schedule=torch.profiler.schedule(wait=0, warmup=1, active=STEPS),
                                on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        for _ in range(STEPS + 1):
            with torch.profiler.record_function("ProfilerStep_body"):
                for name, (fn, _) in ops.items():
                    with torch.profiler.record_function(name):
                        fn()
            torch.cuda.synchronize()
            prof.step()
    log("wrote", path)

    import torch.distributed as dist
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=torch.device("cuda", 0))
    t = torch.ones(16 * 1024 * 1024, device=dev, dtype=torch.float32)  # 64 MiB
    outs = [torch.empty_like(t)]
    rs_out = torch.empty_like(t)
    path = os.path.join(outdir, "collectives.pt.trace.json.gz")
    with torch.profiler.profile(activities=acts, record_shapes=True,
                                schedule=torch.profiler.schedule(wait=0, warmup=1, active=STEPS),
                                on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
        for _ in range(STEPS + 1):
            dist.all_reduce(t)
            dist.all_gather(outs, t)
            dist.reduce_scatter(rs_out, [t])
            dist.broadcast(t, src=0)
            torch.cuda.synchronize()
            prof.step()
    truth["collectives"] = {"bytes": t.numel() * 4, "world_size": 1, "per_step": 1}
    dist.destroy_process_group()
    log("wrote", path)
    with open(os.path.join(outdir, "efficiency_truth.json"), "w") as f:
        json.dump(truth, f, indent=1)


if __name__ == "__main__":
    main()
