"""PyTorch <-> cvcuda interop: the CAI path against the DLPack path (figures for docs/interop.md).

Pipeline, BATCHES batches of 8x1080x1920x3 uint8: torch produces the batch on its current stream -> cvcuda flips it on
a cvcuda stream -> torch consumes the result on its current stream.
  CAI path (the seed's): cvcuda.as_tensor(x) (CAI v2: one defensive cudaDeviceSynchronize per wrapper), flip,
      stream.sync() (torch ignores the CAI stream), torch.as_tensor(out.cuda()).
  DLPack path: cvcuda.from_dlpack(x, stream=s) (torch makes s wait: event), flip, torch.from_dlpack(out) (torch's
      stream waits on the flip: event). No host sync.
Reports batches/s, the library's device syncs per batch (cvcuda.stats()) and the host-blocking stream syncs the
script itself needs per batch; then the median host us per call of from_dlpack, __dlpack__, as_tensor and .cuda().

  python bench/interop_bench.py [--batches N] [--reference DIR]
--reference DIR runs the same measurements of the reference library (CV-CUDA; its package directory on
PYTHONPATH=DIR) in a separate process (both packages are named cvcuda) and prints its column; what it lacks
(from_dlpack) is "n/a".
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

SHAPE = (8, 1080, 1920, 3)
CALLS = 2000
BATCH = 100


def per_call_us(fn, sync):
    for _ in range(200):
        fn()
    sync()
    samples = []
    for _ in range(CALLS // BATCH):
        t0 = time.perf_counter_ns()
        for _ in range(BATCH):
            fn()
        t1 = time.perf_counter_ns()
        sync()
        samples.append((t1 - t0) / BATCH / 1000.0)
    return statistics.median(samples)


def try_us(fn, sync):
    """per_call_us, or None where the library lacks the call or rejects these arguments (the reference's column)."""
    try:
        return per_call_us(fn, sync)
    except Exception:  # noqa: BLE001 - any failure means "not available" in a comparison table
        return None


def measure(batches: int) -> dict:
    import torch

    import cvcuda

    has_from_dlpack = hasattr(cvcuda, "from_dlpack")
    has_stats = hasattr(cvcuda, "stats")
    base = torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda")
    stream = cvcuda.Stream()
    results = {"library": getattr(cvcuda, "__file__", "?")}

    def device_syncs():
        return cvcuda.stats()["deviceSyncs"] if has_stats else None

    def pipeline(path):
        torch.cuda.synchronize()
        before = device_syncs()
        stream_syncs = 0
        sink = torch.zeros((), device="cuda")
        t0 = time.perf_counter()
        for i in range(batches):
            x = base.add(i % 7)  # torch produces on its current stream
            if path == "cai":
                out = cvcuda.flip(cvcuda.as_tensor(x, "NHWC"), 1, stream=stream)
                stream.sync()
                stream_syncs += 1
                y = torch.as_tensor(out.cuda(), device="cuda")
            else:
                out = cvcuda.flip(cvcuda.from_dlpack(x, "NHWC", stream=stream), 1, stream=stream)
                y = torch.from_dlpack(out)
            sink += y[:, 0, 0, 0].sum()  # torch consumes on its current stream
        torch.cuda.synchronize()
        seconds = time.perf_counter() - t0
        after = device_syncs()
        syncs = None if before is None else (after - before) / batches
        return {"batches_per_s": batches / seconds, "device_syncs_per_batch": syncs,
                "stream_syncs_per_batch": stream_syncs / batches}

    results["cai"] = pipeline("cai")
    results["dlpack"] = pipeline("dlpack") if has_from_dlpack else None

    small = torch.randint(0, 256, (1, 224, 224, 3), dtype=torch.uint8, device="cuda")
    out = cvcuda.flip(cvcuda.as_tensor(small, "NHWC"), 1, stream=stream)
    stream.sync()
    noop = lambda: None  # noqa: E731
    calls = {
        "as_tensor(torch)": try_us(lambda: cvcuda.as_tensor(small, "NHWC"), noop),
        ".cuda()": try_us(lambda: out.cuda(), noop),
        "__dlpack__(stream=1, max_version=(1, 0))": try_us(
            lambda: out.__dlpack__(stream=1, max_version=(1, 0)), torch.cuda.synchronize),
        "__dlpack__(stream=1) (legacy capsule)": try_us(lambda: out.__dlpack__(stream=1), torch.cuda.synchronize),
        "from_dlpack(torch)": try_us(lambda: cvcuda.from_dlpack(small, "NHWC", stream=stream), noop),
    }
    results["calls_us"] = calls
    results["gpu"] = torch.cuda.get_device_name()
    results["torch"] = torch.__version__
    return results


def fmt(value, digits=1):
    return "n/a" if value is None else f"{value:.{digits}f}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batches", type=int, default=100)
    parser.add_argument("--reference", metavar="DIR", help="PYTHONPATH of the reference library (run separately)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # the child process's output
    args = parser.parse_args(argv)
    try:
        import torch
    except ImportError:
        print("interop_bench: torch is not installed", file=sys.stderr)
        return 1
    if not torch.cuda.is_available():
        print("interop_bench: no CUDA GPU available", file=sys.stderr)
        return 1
    ours = measure(args.batches)
    if args.json:
        print(json.dumps(ours))
        return 0
    ref = None
    if args.reference:
        env = dict(os.environ, PYTHONPATH=args.reference)
        env.pop("CVCUDA_C_LIBRARY", None)
        done = subprocess.run([sys.executable, os.path.abspath(__file__), "--json", "--batches", str(args.batches)],
                              env=env, capture_output=True, text=True, check=True)
        ref = json.loads(done.stdout.strip().splitlines()[-1])
    refcol = lambda f: f" {f(ref)} |" if ref else ""  # noqa: E731
    head = " reference |" if ref else ""
    print(f"GPU: {ours['gpu']}, torch {ours['torch']}, {args.batches} batches of {'x'.join(map(str, SHAPE))} uint8, "
          f"{time.strftime('%Y-%m-%d', time.gmtime())}")
    print()
    print(f"| path | batches/s | device syncs / batch | stream syncs / batch |{head}")
    print("|---|---|---|---|" + ("---|" if ref else ""))
    for path in ("cai", "dlpack"):
        row = ours[path]
        if row is None:
            continue
        other = (ref or {}).get(path)
        cell = refcol(lambda r: "n/a" if other is None else f"{fmt(other['batches_per_s'])} b/s")
        print(f"| {path} | {fmt(row['batches_per_s'])} | {fmt(row['device_syncs_per_batch'], 2)} | "
              f"{fmt(row['stream_syncs_per_batch'], 2)} |{cell}")
    print()
    print(f"| call | host us/call |{head}")
    print("|---|---|" + ("---|" if ref else ""))
    for name, value in ours["calls_us"].items():
        print(f"| {name} | {fmt(value, 2)} |{refcol(lambda r: fmt(r['calls_us'].get(name), 2))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
