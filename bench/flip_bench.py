#!/usr/bin/env python3
"""Flip benchmark: our cvFlip against the copy limit and torch.flip, on one CUDA GPU.

For each row it times, with CUDA events, three operations on the same input:
  ours   cvFlip through ctypes on libcvcuda_c.so.1 (the C ABI; no Python package needed),
  copy   a device-to-device cudaMemcpyAsync of the same number of bytes (torch's contiguous copy_),
  torch  torch.flip.
Effective bandwidth counts bytes read + written (2 x the tensor's bytes). Each figure is the median of --runs timed
runs after --warmup untimed ones. Inputs and outputs rotate over enough buffers (> 3 x a 60 MB L2) that no run finds
its data in L2. Before each timed run the GPU is kept busy (torch.cuda._sleep) so that host-side call overhead does
not show up as GPU idle time between the events.

It prints the table and writes it, with GPU, driver, CUDA and torch versions and the date, into the
"flip" section of docs/perf.md (between the markers <!-- bench:flip:begin --> and <!-- bench:flip:end -->; other
benchmarks keep their own sections).

  python3 bench/flip_bench.py [--lib build/libcvcuda_c.so.1] [--perf docs/perf.md] [--runs 50]
  python3 bench/flip_bench.py --runs 1 --warmup 0 --no-write --only 'x3 u8'   # one launch per row, for ncu
"""
import argparse
import ctypes
import datetime
import math
import os
import pathlib
import statistics
import subprocess
import sys

import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "tests" / "abi"))
import cvcuda_ctypes  # noqa: E402  (the one ctypes description of the ABI)

L2_BYTES = 60 << 20
BEGIN, END = "<!-- bench:flip:begin -->", "<!-- bench:flip:end -->"


class Library:
    """libcvcuda_c through the ctypes binding that tests/abi checks against the C headers (struct layouts, signatures)."""

    def __init__(self, path):
        self.lib = cvcuda_ctypes.load(path)

    def check(self, status, what):
        if status != 0:
            raise RuntimeError(f"{what}: status {status}: {self.lib.cvGetLastErrorMessage().decode()}")

    def wrap(self, t, layout):
        """Zero-copy wrap of a torch tensor; stream -1: the benchmark orders everything on one stream itself."""
        cai = cvcuda_ctypes.cvArrayInterface.init()
        cai.data = t.data_ptr()
        cai.ndim = t.dim()
        for i, (n, s) in enumerate(zip(t.shape, t.stride())):
            cai.shape[i] = n
            cai.strides[i] = s * t.element_size()
        cai.hasStrides = 1
        cai.streamKind = cvcuda_ctypes.CV_CAI_STREAM_INTEGER
        cai.stream = -1
        cai.typestr = {torch.uint8: b"|u1", torch.float32: b"<f4"}[t.dtype]
        out = ctypes.c_void_p()
        self.check(self.lib.cvTensorWrap(ctypes.byref(cai), layout.encode(), ctypes.byref(out)), "cvTensorWrap")
        return out

    def stream(self, torch_stream):
        out = ctypes.c_void_p()
        self.check(self.lib.cvStreamWrap(ctypes.c_void_p(torch_stream.cuda_stream), ctypes.byref(out)), "cvStreamWrap")
        return out


def median_ms(op, buffers, warmup, runs):
    """Median GPU time of op(i) over `runs` runs, buffer set i rotating."""
    for i in range(warmup):
        op(i % buffers)
    events = []
    for i in range(runs):
        torch.cuda._sleep(200_000)  # ~0.1 ms of GPU work: the next launch is queued before the GPU gets to it
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        op((warmup + i) % buffers)
        end.record()
        events.append((start, end))
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in events)


def rows():
    """(name, shape NHWC, dtype, flipCode, row pitch in bytes or None for packed)."""
    out = []
    for code in (0, 1, -1):
        for name, shape, dtype in (
            ("32x1080x1920x1 u8", (32, 1080, 1920, 1), torch.uint8),
            ("32x1080x1920x3 u8", (32, 1080, 1920, 3), torch.uint8),
            ("32x1080x1920x4 u8", (32, 1080, 1920, 4), torch.uint8),
            ("32x1080x1920x3 f32", (32, 1080, 1920, 3), torch.float32),
            ("256x224x224x3 u8", (256, 224, 224, 3), torch.uint8),
        ):
            out.append((name, shape, dtype, code, None))
    for code in (0, 1, -1):
        out.append(("32x1080x1920x3 u8 pitched 6144", (32, 1080, 1920, 3), torch.uint8, code, 6144))
    return out


def make_input(shape, dtype, pitch):
    n, h, w, c = shape
    if pitch is None:
        return torch.randint(0, 255, shape, dtype=torch.uint8, device="cuda").to(dtype)
    esize = torch.empty((), dtype=dtype).element_size()
    base = torch.randint(0, 255, (n, h, pitch // esize), dtype=torch.uint8, device="cuda").to(dtype)
    return base.as_strided(shape, (h * pitch // esize, pitch // esize, c, 1))


def environment():
    props = torch.cuda.get_device_properties(0)
    try:
        driver = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                capture_output=True, text=True, check=True).stdout.strip().splitlines()[0]
    except (OSError, subprocess.CalledProcessError, IndexError):
        driver = "unknown"
    return (f"GPU: {props.name} ({props.multi_processor_count} SMs, {props.total_memory / 2**30:.0f} GiB); "
            f"driver {driver}; CUDA {torch.version.cuda} (torch {torch.__version__}); "
            f"date {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}")


def write_section(path, text):
    path = pathlib.Path(path)
    doc = path.read_text() if path.exists() else "# Performance\n\nFigures measured by the scripts in bench/.\n"
    section = f"{BEGIN}\n{text}\n{END}"
    if BEGIN in doc and END in doc:
        doc = doc[:doc.index(BEGIN)] + section + doc[doc.index(END) + len(END):]
    else:
        doc = doc.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(doc)


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lib", default=os.environ.get("CVCUDA_C_LIBRARY", str(root / "build" / "libcvcuda_c.so.1")))
    ap.add_argument("--perf", default=str(root / "docs" / "perf.md"))
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--only", default="", help="run only rows whose name contains this text")
    ap.add_argument("--no-write", action="store_true", help="print only; leave docs/perf.md alone")
    args = ap.parse_args()

    lib = Library(args.lib)
    stream = torch.cuda.Stream()
    torch.cuda.set_stream(stream)
    cv_stream = lib.stream(stream)
    header = f"| input (NHWC) | flipCode | ours GB/s | copy GB/s | torch.flip GB/s | ours/copy | torch/copy |"
    lines = [header, "|---|---:|---:|---:|---:|---:|---:|"]
    print(header, flush=True)
    for name, shape, dtype, code, pitch in rows():
        if args.only not in name:
            continue
        probe = make_input(shape, dtype, pitch)
        nbytes = probe.numel() * probe.element_size()
        del probe
        buffers = max(2, math.ceil(3 * L2_BYTES / nbytes))
        srcs = [make_input(shape, dtype, pitch) for _ in range(buffers)]
        dsts = [torch.empty(shape, dtype=dtype, device="cuda") for _ in range(buffers)]
        flat_src = [torch.empty(nbytes, dtype=torch.uint8, device="cuda") for _ in range(buffers)]
        flat_dst = [torch.empty(nbytes, dtype=torch.uint8, device="cuda") for _ in range(buffers)]
        src_t = [lib.wrap(s, "NHWC") for s in srcs]
        dst_t = [lib.wrap(d, "NHWC") for d in dsts]
        dims = {0: (1,), 1: (2,), -1: (1, 2)}[code]
        torch.cuda.synchronize()

        def ours(i):
            lib.check(lib.lib.cvFlip(cv_stream, src_t[i], dst_t[i], code), "cvFlip")

        t_ours = median_ms(ours, buffers, args.warmup, args.runs)
        t_copy = median_ms(lambda i: flat_dst[i].copy_(flat_src[i]), buffers, args.warmup, args.runs)
        t_torch = median_ms(lambda i: torch.flip(srcs[i], dims), buffers, args.warmup, args.runs)
        # Correctness of what was timed (the Catch2 suite is the real check).
        if not torch.equal(dsts[(args.warmup + args.runs - 1) % buffers], torch.flip(srcs[(args.warmup + args.runs - 1) % buffers], dims)):
            raise RuntimeError(f"{name} flipCode {code}: cvFlip result differs from torch.flip")
        gbs = lambda ms: 2 * nbytes / (ms * 1e-3) / 1e9
        line = (f"| {name} | {code} | {gbs(t_ours):.0f} | {gbs(t_copy):.0f} | {gbs(t_torch):.0f} | "
                f"{t_copy / t_ours:.2f} | {t_copy / t_torch:.2f} |")
        lines.append(line)
        print(line, flush=True)
        for t in src_t + dst_t:
            lib.lib.cvTensorRelease(t)
        del srcs, dsts, flat_src, flat_dst
        torch.cuda.synchronize()
    lib.lib.cvStreamRelease(cv_stream)
    env = environment()
    print(env)
    if not args.no_write:
        text = ("## flip (bench/flip_bench.py)\n\n" + env + "\n\n"
                f"Median of {args.runs} runs after {args.warmup} warm-up runs; bytes read + written; inputs rotated "
                "past L2. copy = cudaMemcpyAsync device-to-device of the same bytes (contiguous). The pitched rows read "
                "rows of 5760 bytes at a 6144-byte pitch and write them packed.\n\n" + "\n".join(lines))
        write_section(args.perf, text)
        print(f"wrote {args.perf}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
