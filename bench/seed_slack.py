#!/usr/bin/env python3
"""The seed's path (`flip(as_tensor(torch tensor), 1, stream=s)`, one defensive device sync per call) with k µs of
extra host work before every call, ours against the reference library: is the row set by the library's host code, or
by the GPU round trip the sync waits for?

Each call's cudaDeviceSynchronize waits for the previous call's flip. When the host work between one flip's launch
and the next call's sync is shorter than that flip's round trip on the GPU (launch, run, completion seen by the
host), the sync absorbs it: the row stays flat while k grows, and its level is the host work after the sync up to
the launch plus the round trip. Past that slack, the row grows with k. So the flat level compares what both
libraries do after the sync and on the GPU, and the knee shows how much host work each hides in the wait.

Both libraries run in worker processes of the same layout (this script with --worker), taking turns round by round;
per k: median of 5 batches of 400 calls, 1x224x224x3 uint8, the GPU idle between batches.

  python3 bench/seed_slack.py [--reference DIR] [--rounds 3]
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from timing import host_batch, host_warm  # noqa: E402
SHAPE = (1, 224, 224, 3)
EXTRA_US = (0, 1, 2, 3, 4, 6, 8, 12, 16)
BATCHES, CALLS = 5, 400


def busy(ns):
    end = time.perf_counter_ns() + ns
    while time.perf_counter_ns() < end:
        pass


def worker():
    import torch
    import cvcuda

    x = torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda")
    s = cvcuda.Stream()

    def seed():
        cvcuda.flip(cvcuda.as_tensor(x, "NHWC"), 1, stream=s)

    ready = cvcuda.as_tensor(x, "NHWC")
    cvcuda.flip(ready, 1, stream=s)  # its defensive sync paid: later flips of it take the event path

    def flip_only():
        cvcuda.flip(ready, 1, stream=s)

    def per_call(fn, extra_ns):
        def call():
            busy(extra_ns)
            fn()

        host_warm(call, 100)
        return statistics.median(host_batch(call, torch.cuda.synchronize, CALLS) for _ in range(BATCHES))

    lib = getattr(cvcuda, "_library", None)
    where = f"{cvcuda.__file__} (C library {lib.library_path})" if lib is not None else cvcuda.__file__
    print(json.dumps({"ready": where}), flush=True)
    for line in sys.stdin:
        k = float(line)
        row = {"k": k, "seed": per_call(seed, int(k * 1000)), "flip": per_call(flip_only, int(k * 1000))}
        print(json.dumps(row), flush=True)


def reply(p):
    """The worker's next line as JSON; a clear error when it ended (its own error went to this terminal)."""
    line = p.stdout.readline()
    if not line:
        raise RuntimeError(f"bench/seed_slack.py: a worker ended (exit {p.wait()}); its error is printed above")
    return json.loads(line)


def start(env):
    p = subprocess.Popen([sys.executable, __file__, "--worker"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    return p, reply(p)["ready"]


def ask(p, k):
    p.stdin.write(f"{k}\n")
    p.stdin.flush()
    return reply(p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", help="folder holding the reference library's cvcuda package (e.g. /tmp/cvref)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker()
    ours_env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "bindings" / "python")] +
                                                           [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    sides = {"ours": start(ours_env)}
    if args.reference:
        keep = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and not (pathlib.Path(p) / "cvcuda").exists()]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([args.reference] + keep))
        env.pop("CVCUDA_C_LIBRARY", None)
        sides["CV-CUDA"] = start(env)
    for name, (_, where) in sides.items():
        print(f"# {name}: {where}")
    results = {name: {k: {"seed": [], "flip": []} for k in EXTRA_US} for name in sides}
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for k in EXTRA_US:
            for name in order:
                row = ask(sides[name][0], k)
                results[name][k]["seed"].append(row["seed"])
                results[name][k]["flip"].append(row["flip"])
    for p, _ in sides.values():
        p.stdin.close()
        p.wait()
    names = list(sides)
    print(f"\nhost µs per call, median of {args.rounds} rounds (each the median of {BATCHES} batches of {CALLS} calls); "
          "k = extra host work before each call; 'seed - k' = the call's own time, with the added work's call and clock "
          "reads (the same for both)")
    head = "| k µs | " + " | ".join(f"{n}: seed | {n}: seed - k | {n}: flip of a ready wrapper" for n in names) + " |"
    print(head)
    print("|" + "---:|" * (1 + 3 * len(names)))
    for k in EXTRA_US:
        cells = []
        for n in names:
            seed = statistics.median(results[n][k]["seed"])
            flip = statistics.median(results[n][k]["flip"])
            cells += [f"{seed:.2f}", f"{seed - k:.2f}", f"{flip:.2f}"]
        print(f"| {k} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    sys.exit(main())
