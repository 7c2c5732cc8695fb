#!/usr/bin/env python3
"""Resize benchmark rows: ours (cvcuda Python package) against torchvision v2 and the read-once-write-once limit,
32 x 1080 x 1920 x 3 uint8 (the issue's batch), GPU time per batch.

Each row times, with CUDA events around --iters back-to-back calls on one stream (the GPU is kept busy first with
torch.cuda._sleep, so host call overhead does not show as idle GPU time), ours and torchvision's equivalent
(v2.functional.resize on NCHW uint8 with the same interpolation; for the fused row resize -> center crop ->
to_dtype(scale) -> normalize). "limit" is the source bytes read once plus the output bytes written once at the
device-to-device copy bandwidth measured in the same run.

  python3 bench/resize_bench.py [--iters 20] [--rows linear224,fused224]
"""
import argparse
import sys

import torch

import cvcuda

N, H, W, C = 32, 1080, 1920, 3
MEAN, STD = (0.485, 0.456, 0.406), (0.229, 0.224, 0.225)


def gpu_time(fn, iters, stream):
    """Median-free mean GPU time of one call (ms), measured between events after a busy wait."""
    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(stream):
        torch.cuda._sleep(50_000_000)
        start.record(stream)
        for _ in range(iters):
            fn()
        end.record(stream)
    end.synchronize()
    return start.elapsed_time(end) / iters


def copy_bandwidth(stream):
    a = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    with torch.cuda.stream(stream):
        ms = gpu_time(lambda: b.copy_(a), 10, stream)
    return 2 * a.numel() / (ms * 1e-3)  # bytes read + written per second


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--rows", default="")
    args = ap.parse_args()
    from torchvision.transforms import InterpolationMode
    from torchvision.transforms.v2 import functional as tvf

    stream = torch.cuda.Stream()
    cv_stream = cvcuda.as_stream(stream)
    with torch.cuda.stream(stream):
        src = torch.randint(0, 256, (N, H, W, C), dtype=torch.uint8, device="cuda")
        src_nchw = src.permute(0, 3, 1, 2).contiguous()
    torch.cuda.synchronize()
    src_cv = cvcuda.as_tensor(src, "NHWC")
    bw = copy_bandwidth(stream)

    def resize_row(name, interp, tv_mode, dh, dw, antialias):
        out = torch.empty((N, dh, dw, C), dtype=torch.uint8, device="cuda")
        out_cv = cvcuda.as_tensor(out, "NHWC")
        ours = gpu_time(lambda: cvcuda.resize_into(out_cv, src_cv, interp, stream=cv_stream), args.iters, stream)
        tv = gpu_time(lambda: tvf.resize(src_nchw, [dh, dw], interpolation=tv_mode, antialias=antialias), max(3, args.iters // 4), stream)
        limit_bytes = src.numel() + out.numel()
        return name, ours, tv, limit_bytes

    def fused_row(name, resize_hw, crop):
        x, y, w, h = crop
        out = torch.empty((N, C, h, w), dtype=torch.float32, device="cuda")
        out_cv = cvcuda.as_tensor(out, "NCHW")
        ours = gpu_time(lambda: cvcuda.resize_crop_convert_reformat_into(
            out_cv, src_cv, (resize_hw[1], resize_hw[0]), cvcuda.Interp.LINEAR, (x, y), scale=1 / 255, mean=MEAN, std=STD,
            stream=cv_stream), args.iters, stream)

        def tv_chain():
            r = tvf.resize(src_nchw, list(resize_hw), antialias=False)
            r = tvf.center_crop(r, [h, w])
            r = tvf.to_dtype(r, torch.float32, scale=True)
            return tvf.normalize(r, MEAN, STD)

        tv = gpu_time(tv_chain, max(3, args.iters // 4), stream)
        return name, ours, tv, src.numel() + out.numel() * 4

    rows = {
        "nearest224": lambda: resize_row("NEAREST -> 224x224", cvcuda.Interp.NEAREST, InterpolationMode.NEAREST_EXACT, 224, 224, False),
        "linear224": lambda: resize_row("LINEAR -> 224x224", cvcuda.Interp.LINEAR, InterpolationMode.BILINEAR, 224, 224, False),
        "linear720": lambda: resize_row("LINEAR -> 720x1280", cvcuda.Interp.LINEAR, InterpolationMode.BILINEAR, 720, 1280, False),
        "cubic720": lambda: resize_row("CUBIC -> 720x1280", cvcuda.Interp.CUBIC, InterpolationMode.BICUBIC, 720, 1280, False),
        "area224": lambda: resize_row("AREA -> 224x224 (tv: bilinear antialias)", cvcuda.Interp.AREA, InterpolationMode.BILINEAR, 224, 224, True),
        "fused224": lambda: fused_row("fused resize 224 -> f32 NCHW normalized", (224, 224), (0, 0, 224, 224)),
        "fused256crop": lambda: fused_row("fused resize 256x455, crop 224 -> f32 NCHW norm.", (256, 455), (115, 16, 224, 224)),
    }
    chosen = [r for r in args.rows.split(",") if r] or list(rows)
    print(f"# {torch.cuda.get_device_name()}  copy bandwidth {bw / 1e9:.0f} GB/s (read + write)  batch {N}x{H}x{W}x{C} u8")
    print(f"| row | ours us | torchvision v2 us | limit MB | limit us | ours / limit | tv / ours |")
    print("|---|---|---|---|---|---|---|")
    for key in chosen:
        name, ours, tv, limit_bytes = rows[key]()
        limit_us = limit_bytes / bw * 1e6
        print(f"| {name} | {ours * 1e3:.1f} | {tv * 1e3:.1f} | {limit_bytes / 1e6:.0f} | {limit_us:.1f} | "
              f"{ours * 1e3 / limit_us:.2f} | {tv / ours:.1f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
