#!/usr/bin/env python3
"""Soak: N cycles of the seed's round trip -- as_tensor(torch) -> flip -> .cuda() -> torch.as_tensor -> release --
checking that host memory (RSS), GPU memory and the library's live handles stay flat. GPU machine only.

Prints one line per checkpoint and a verdict; exit 0 when, after warm-up, RSS and used GPU memory drift by less than
1 % (and by less than a few MiB in absolute terms, since 1 % of a small process is noise), every result was checked
against torch.flip at the checkpoints, and no tensor handle is left alive at the end. Exit 1 otherwise.
Usage: scripts/soak.py [--cycles 100000] [--warmup 10000]
"""

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bindings", "python"))


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=10_000)
    args = parser.parse_args()

    import torch
    import cvcuda

    torch.manual_seed(0)
    src = torch.randint(0, 256, (2, 64, 64, 3), dtype=torch.uint8, device="cuda")
    expected = torch.flip(src, [2])
    stream = cvcuda.Stream()

    def gpu_used() -> int:
        free, total = torch.cuda.mem_get_info()
        return total - free

    checkpoints = sorted({args.warmup, args.cycles // 2, args.cycles})
    baseline = None
    wrong = 0
    t0 = time.perf_counter()
    for i in range(1, args.cycles + 1):
        wrapped = cvcuda.as_tensor(src, "NHWC")
        out = cvcuda.flip(wrapped, 1, stream=stream)
        stream.sync()
        back = torch.as_tensor(out.cuda(), device="cuda")
        if i in checkpoints:
            if not torch.equal(back, expected):
                wrong += 1
            del wrapped, out, back
            cvcuda.sync_and_collect()
            torch.cuda.synchronize()
            rss, used = rss_bytes(), gpu_used()
            live = cvcuda.stats()["liveTensors"]
            print(f"soak: cycle {i:>7}: rss {rss / 2**20:8.1f} MiB, gpu used {used / 2**20:9.1f} MiB, "
                  f"live tensors {live}, {1e6 * (time.perf_counter() - t0) / i:.1f} us/cycle", flush=True)
            if baseline is None:
                baseline = (rss, used)
        else:
            del wrapped, out, back
    cvcuda.sync_and_collect()
    live = cvcuda.stats()["liveTensors"]
    rss, used = rss_bytes(), gpu_used()

    def drift_ok(now: int, then: int) -> bool:
        return abs(now - then) <= max(0.01 * then, 4 * 2**20)

    rss_ok, gpu_ok = drift_ok(rss, baseline[0]), drift_ok(used, baseline[1])
    print(f"soak: {args.cycles} cycles; rss drift {(rss - baseline[0]) / 2**20:+.2f} MiB "
          f"({'ok' if rss_ok else 'TOO MUCH'}), gpu drift {(used - baseline[1]) / 2**20:+.2f} MiB "
          f"({'ok' if gpu_ok else 'TOO MUCH'}), wrong results at checkpoints {wrong}, live tensors at the end {live}")
    passed = rss_ok and gpu_ok and wrong == 0 and live == 0
    print("soak: PASS" if passed else "soak: FAIL")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
