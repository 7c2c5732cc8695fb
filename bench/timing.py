"""The two clocks of the benchmark.

GPU time per call: calls are queued behind a spin kernel long enough that the host has enqueued the whole batch before
the GPU reaches the first call, so the events between them measure back-to-back GPU work without host gaps. A batch
whose start event had already completed when the host finished enqueuing (the GPU caught up: a gap) is redone with a
longer spin; a call that synchronises the host can never be queued ahead, and its batches are counted in `gaps`.
Each call takes the next buffer set (rotating over enough sets that none is still in L2). Median over the batches.

Host time per call: the median over batches of N calls, timed with perf_counter, the GPU idle at each batch's start;
the sides of a row (ours, torch, the reference in its own process) take turns batch by batch (host_rounds).
"""
import math
import statistics
import time


class GpuClock:
    def __init__(self, torch, batches=9, target_ms=1.5, max_calls=256):
        self.torch, self.batches, self.target_ms, self.max_calls = torch, batches, target_ms, max_calls
        self.cycles_per_ms = self._calibrate()

    def _event(self):
        return self.torch.cuda.Event(enable_timing=True)

    def _calibrate(self):
        """Spin-kernel cycles per millisecond on this GPU (torch.cuda._sleep spins for a number of clock cycles)."""
        cuda = self.torch.cuda
        cuda._sleep(1_000_000)  # load the kernel
        cuda.synchronize()
        rates = []
        for _ in range(3):
            a, b = self._event(), self._event()
            a.record()
            cuda._sleep(20_000_000)
            b.record()
            b.synchronize()
            rates.append(20_000_000 / a.elapsed_time(b))
        return statistics.median(rates)

    def spin(self, ms):
        self.torch.cuda._sleep(max(1000, int(ms * self.cycles_per_ms)))

    def measure(self, fns, counter=None):
        """Median GPU µs per call of the callables `fns` (one per buffer set, taken in turn) and the batch details;
        `counter` (e.g. the library's device-sync count) is read around the timed batches and reported per call."""
        cuda, sets = self.torch.cuda, len(fns)
        for f in fns:  # first use of every set outside the clock: lazy loading, first-use synchronisations
            f()
        cuda.synchronize()
        probe = min(sets, 8)
        a, b = self._event(), self._event()
        a.record()
        t0 = time.perf_counter()
        for k in range(probe):
            fns[k]()
        host_ms = (time.perf_counter() - t0) * 1e3 / probe  # enqueue time per call, the spin's first estimate
        b.record()
        b.synchronize()
        estimate_ms = max(a.elapsed_time(b) / probe, 1e-4)
        n = max(3, min(self.max_calls, math.ceil(self.target_ms / estimate_ms)))
        index, pending, gaps, synchronising = 0, [], 0, False
        counted = counter() if counter else None
        for _ in range(self.batches):
            for attempt in range(4):
                self.spin(1.5 * n * host_ms + 0.2)
                start, end = self._event(), self._event()
                start.record()
                h0 = time.perf_counter()
                for _ in range(n):
                    fns[index % sets]()
                    index += 1
                batch_host_ms = (time.perf_counter() - h0) * 1e3
                end.record()
                caught_up = start.query()
                if not caught_up:
                    host_ms = batch_host_ms / n  # the next spin from this batch's own enqueue time
                    break
                if synchronising:
                    break
                host_ms = max(2 * host_ms, batch_host_ms / n)
            else:
                synchronising = True  # four ever-longer spins did not cover it: the call waits for the GPU
            gaps += caught_up
            pending.append((start, end))
        cuda.synchronize()
        per_call = [s.elapsed_time(e) * 1e3 / n for s, e in pending]
        out = {"us": statistics.median(per_call), "min_us": min(per_call), "max_us": max(per_call),
               "calls_per_batch": n, "batches": len(per_call), "sets": sets, "gaps": gaps}
        if counter:
            out["syncs_per_call"] = (counter() - counted) / index
        return out


HOST_CALLS, HOST_ROUNDS, HOST_WARMUP = 2000, 12, 200  # 12 rounds: each of 2, 3 or 4 sides goes first as often


def host_warm(fn, warmup=HOST_WARMUP):
    for _ in range(warmup):
        fn()


def host_batch(fn, sync, calls=HOST_CALLS):
    """Host µs per call of one batch of `calls` calls of fn, the GPU idle at its start (`sync` waits for it)."""
    sync()
    t0 = time.perf_counter_ns()
    for _ in range(calls):
        fn()
    us = (time.perf_counter_ns() - t0) / calls / 1e3
    sync()
    return us


def host_summary(samples, calls=HOST_CALLS):
    return {"us": statistics.median(samples), "min_us": min(samples), "max_us": max(samples),
            "calls_per_batch": calls, "batches": len(samples)}


def host_rounds(batches, rounds=HOST_ROUNDS):
    """Host time of several sides measured in turn: `batches` maps each side to a function running one batch (returns
    µs per call). Each round runs one batch of every side, the order rotated by one side per round, so that the host's
    slow and fast spells (on the GPU machine they last seconds and move single figures by up to 40 %: two runs minutes
    apart, docs/perf.md) fall on every side alike. Returns side -> host_summary of its batches; a side whose batch
    raised leaves the rotation and gets {"skip": why} instead, the others go on."""
    sides = list(batches)
    samples = {side: [] for side in sides}
    failed = {}
    for r in range(rounds):
        live = [side for side in sides if side not in failed]
        if not live:
            break
        k = r % len(live)
        for side in live[k:] + live[:k]:
            try:
                samples[side].append(batches[side]())
            except Exception as exc:
                failed[side] = {"skip": f"{type(exc).__name__}: {exc}".replace("\n", " ")}
    return {side: failed.get(side) or dict(host_summary(samples[side]), turns=True) for side in sides}
