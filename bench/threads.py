#!/usr/bin/env python3
"""Calls per second of cvcuda.flip_into from 1, 2, 4 and 8 Python threads at once, each thread with its own
cvcuda.Stream and its own tiny tensors (1x64x64x3 uint8), and the same from C (bench/threads, the compiled
benchmark, when it is found next to the library that CVCUDA_C_LIBRARY names or in build-gpu/ or build/).

Targets: Python never below its 1-thread rate (the GIL serialises the Python part; the library must not add a lock
of its own across the launch), C with 8 threads >= 4x the 1-thread rate. Prints the tables and writes them into the
"Threads" section of docs/perf.md (--no-write: print only). Needs a GPU, not torch.

  python3 bench/threads.py [--seconds 1.0] [--no-write]
"""
import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import threading
import time

import numpy

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bindings" / "python"))
import cvcuda  # noqa: E402
from _perf_doc import write_section  # noqa: E402

SHAPE = (1, 64, 64, 3)
SYNC_EVERY = 256
THREADS = (1, 2, 4, 8)


def calls_per_second(threads: int, seconds: float) -> float:
    workers = []
    for _ in range(threads):
        stream = cvcuda.Stream()
        src = cvcuda.Tensor(SHAPE, numpy.uint8, "NHWC")
        dst = cvcuda.Tensor(SHAPE, numpy.uint8, "NHWC")
        workers.append((stream, src, dst))
    counts = [0] * threads
    errors = []
    stop = [0.0]

    def set_deadline():
        # Run by the last thread to arrive, before any is released: a worker must never read the deadline unset (it
        # then measured nothing, and the 1-thread rate came out as 0).
        stop[0] = time.perf_counter() + seconds

    barrier = threading.Barrier(threads + 1, action=set_deadline)

    def body(index, stream, src, dst):
        try:
            flip_into = cvcuda.flip_into
            for _ in range(2 * SYNC_EVERY):  # warm-up
                flip_into(dst, src, 1, stream=stream)
            stream.sync()
            barrier.wait()
            n = 0
            while time.perf_counter() < stop[0]:
                for _ in range(SYNC_EVERY):
                    flip_into(dst, src, 1, stream=stream)
                stream.sync()
                n += SYNC_EVERY
            counts[index] = n
        except threading.BrokenBarrierError:  # another worker failed and aborted the barrier: its error is reported
            pass
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
            barrier.abort()

    pool = [threading.Thread(target=body, args=(i, *w)) for i, w in enumerate(workers)]
    for t in pool:
        t.start()
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass  # a worker failed during its warm-up; joined and reported below
    start = stop[0] - seconds
    for t in pool:
        t.join()
    elapsed = time.perf_counter() - start
    if errors:
        raise errors[0]
    idle = [i for i, n in enumerate(counts) if n == 0]
    if idle:
        raise RuntimeError(f"{len(idle)} of {threads} worker threads counted no call in {seconds:.2f} s")
    return sum(counts) / elapsed


def python_table(seconds: float):
    """The Python table and whether every row was measured; a row whose measurement failed shows the error (also
    printed to stderr) instead of a rate."""
    rows = []
    for threads in THREADS:
        try:
            rate = statistics.median(calls_per_second(threads, seconds / 3) for _ in range(3))
        except Exception as exc:
            message = f"{type(exc).__name__}: {exc}"
            print(f"threads: Python, {threads} threads: {message}", file=sys.stderr)
            rows.append((threads, None, message))
            continue
        rows.append((threads, rate, None))
    one = rows[0][1]
    lines = ["| threads | flip_into calls/s (Python) | x 1 thread |", "|---:|---:|---:|"]
    for t, r, error in rows:
        if r is None:
            lines.append(f"| {t} | failed: {error} | — |")
        else:
            lines.append(f"| {t} | {r:.0f} | {f'{r / one:.2f}' if one else '—'} |")
    lines.append("")
    rates = [r for _, r, _ in rows if r is not None]
    if one and len(rates) == len(rows):
        worst = min(rates)
        lines.append(f"target: never below the 1-thread rate: {'met' if worst >= one * 0.98 else 'NOT met'} "
                     f"(lowest {worst / one:.2f}x)")
    else:
        lines.append("target: never below the 1-thread rate: not measured (a row failed, see above)")
    return "\n".join(lines), len(rates) == len(rows)


def c_bench():
    """The compiled benchmark: next to the library in use, else in the usual build directories."""
    candidates = []
    library = os.environ.get("CVCUDA_C_LIBRARY")
    if library:
        candidates.append(pathlib.Path(library).resolve().parent / "bench" / "threads")
    candidates += [ROOT / "build-gpu" / "bench" / "threads", ROOT / "build" / "bench" / "threads"]
    return next((c for c in candidates if c.is_file() and os.access(c, os.X_OK)), None)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="measuring time per row (median of 3 runs)")
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/perf.md alone")
    args = parser.parse_args()
    try:
        cvcuda.Stream()
    except cvcuda.NoDeviceError as exc:
        print(f"threads: no GPU: {exc}", file=sys.stderr)
        return 1
    sections = [f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; tiny flips (1x64x64x3 uint8), each thread its "
                f"own stream and tensors, a stream sync every {SYNC_EVERY} calls; median of 3 runs per row", ""]
    binary = c_bench()
    if binary is None:
        sections.append("C: bench/threads not found (build it with meson)")
    else:
        result = subprocess.run([str(binary), str(args.seconds)], capture_output=True, text=True)
        if result.returncode != 0:
            print(result.stdout + result.stderr, file=sys.stderr)
            return 1
        sections.append(result.stdout.strip())
    table, measured = python_table(args.seconds)
    sections += ["", table]
    body = "\n".join(sections)
    print(body)
    if not args.no_write:
        write_section("Threads", body)
    return 0 if measured else 1


if __name__ == "__main__":
    sys.exit(main())
