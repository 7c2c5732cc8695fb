#!/usr/bin/env python3
"""Where the host microseconds of the Python paths go: each path of the reference comparison (Stream(), Tensor.cuda(),
as_tensor(torch) + first flip, flip against torch.flip) timed whole and step by step, the steps being the C calls and
Python pieces it is made of, each timed alone the same way.

Host time per call: median of 5 batches of 2000 calls (as_tensor + first flip: 5 x 400, each call pays a device
sync), the GPU idle (a sync between batches). Prints the table and writes it into the "Host time breakdown" section
of docs/perf.md (--no-write: print only). Needs a GPU; the torch rows need torch.

  python3 bench/host_breakdown.py [--no-write]
"""
import argparse
import collections
import pathlib
import statistics
import sys
import time

import numpy

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bindings" / "python"))
import cvcuda  # noqa: E402
from cvcuda._ffi import ffi  # noqa: E402
from cvcuda._library import lib  # noqa: E402
from cvcuda import _tensor  # noqa: E402
from _perf_doc import write_section  # noqa: E402
from placement import placement  # noqa: E402

SHAPE = (1, 224, 224, 3)
BATCHES, CALLS = 5, 2000


def us_per_call(fn, sync, calls=CALLS):
    for _ in range(min(calls, 500)):
        fn()
    sync()
    samples = []
    for _ in range(BATCHES):
        t0 = time.perf_counter_ns()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter_ns()
        sync()
        samples.append((t1 - t0) / calls / 1000.0)
    return statistics.median(samples)


class _StreamShape:
    """cvcuda.Stream's Python shape (its Python base, _stream._KeptBase, used in ABI mode) without its C calls: the
    same slots, an __init__ storing the handle twice and a __del__ reading it. Its time is the floor of a Stream()
    made of a Python class, whatever the C side costs (the reason for the C base used in API mode)."""

    __slots__ = ("_cv", "_release", "_handle", "_owner", "_device", "__weakref__")

    def __init__(self, device=None):
        self._cv = self._release = device

    def __del__(self):
        handle = self._release
        if handle is not None:
            pass


_shape_spare = collections.deque()


class _KeptShape:
    """cvcuda.Stream's Python shape on its kept path without its C call: __init__ takes the handle off a deque and
    checks a status where Stream() checks cvStreamPeekReusable's, __del__ puts it back. The floor of that path."""

    __slots__ = ("_cv", "_release", "_handle", "_owner", "_device", "__weakref__")

    def __init__(self, device=None):
        if device is None and _shape_spare:
            try:
                cv = _shape_spare.pop()
            except IndexError:
                pass
            else:
                if not device:
                    self._cv = self._release = cv
                    return
        self._cv = self._release = 1

    def __del__(self, _spare=_shape_spare):
        handle = self._release
        if handle is not None and len(_spare) < 2:
            _spare.append(handle)


class _Slots:
    """An object of a __slots__ class with neither __init__ nor __del__: what creating a Python object costs."""

    __slots__ = ("_cv",)


def stream_rows(sync_all):
    out, handle = ffi.new("cvStream *"), ffi.new("void **")

    def c_create_release():  # what Stream() calls: the raw handle not asked for, so the pool needs no query
        lib.cvStreamCreate(out)
        lib.cvStreamRelease(out[0])

    def c_create_handle_release():  # the raw handle given out: the pool asks cudaStreamQuery at the next take
        lib.cvStreamCreateWithHandle(handle, out)
        lib.cvStreamRelease(out[0])

    def c_create_kept():  # a new CUDA stream every time: what the pool saves
        lib.cvStreamCreateWithHandle(handle, out)
        kept.append(out[0])

    kept = []
    lib.cvStreamCreate(out)
    queried = out[0]

    def c_query():  # nothing was queued on the stream: answered with no CUDA call
        lib.cvStreamQuery(queried)

    def c_peek():  # what Stream() calls to take back a kept stream (API mode: the GIL kept; no CUDA call)
        lib.cvStreamPeekReusable(queried)

    def c_reusable():  # what it calls next for a stream not known idle (GIL released; here known idle: no CUDA call)
        lib.cvStreamQueryReusable(queried)

    base = "C base, cvcuda._streambase" if cvcuda._stream._native is not None else "Python base"
    rows = [
        (f"cvcuda.Stream() (released before the next; {base})", us_per_call(cvcuda.Stream, sync_all)),
        ("  C: cvStreamPeekReusable of a stream nothing was queued on (a kept stream taken back)",
         us_per_call(c_peek, sync_all)),
        ("  C: cvStreamQueryReusable of the same (GIL released)", us_per_call(c_reusable, sync_all)),
        ("  C: cvStreamQuery of a stream nothing was queued on (no CUDA call)", us_per_call(c_query, sync_all)),
        ("  C: cvStreamCreate + cvStreamRelease (pooled, known idle)", us_per_call(c_create_release, sync_all)),
        ("  C: cvStreamCreateWithHandle + cvStreamRelease (pooled, queried)", us_per_call(c_create_handle_release, sync_all)),
        ("  C: cvStreamCreateWithHandle, all kept (new CUDA streams)", us_per_call(c_create_kept, sync_all, 200)),
        ("  Python alone: the Python base's shape, __init__ and __del__, no C call", us_per_call(_StreamShape, sync_all)),
        ("  Python alone: the same with its kept path's deque, no C call", us_per_call(_KeptShape, sync_all)),
        ("  Python alone: a __slots__ object, no __init__ or __del__", us_per_call(_Slots, sync_all)),
    ]
    for s in kept:
        lib.cvStreamRelease(s)
    lib.cvStreamRelease(queried)
    return rows


def export_rows(stream, sync_all):
    t = cvcuda.Tensor(SHAPE, numpy.uint8, "NHWC")
    dst = cvcuda.Tensor(SHAPE, numpy.uint8, "NHWC")
    cai, writer = ffi.new("cvArrayInterface *"), ffi.new("cvStream *")
    cai.structSize = ffi.sizeof("cvArrayInterface")

    def c_export():
        lib.cvTensorExport(t._cv, cai, writer)
        if writer[0] != ffi.NULL:
            lib.cvStreamRelease(writer[0])

    stream.sync()
    idle = [
        ("Tensor.cuda(), nothing pending, dict not read", us_per_call(t.cuda, sync_all)),
        ("  C: cvTensorExport", us_per_call(c_export, sync_all)),
    ]
    cvcuda.flip_into(t, dst, 1, stream=stream)  # t now has a write pending on `stream` (no sync before the export)
    pending = [("Tensor.cuda(), a write pending on its stream", us_per_call(t.cuda, lambda: None)),
               ("  C: cvTensorExport", us_per_call(c_export, lambda: None))]
    stream.sync()
    return idle + pending


def consumed_export_rows(torch, sync_all):
    """Tensor.cuda() whose dict is read, as a consumer (torch.as_tensor) reads it, with torch initialised: dropping
    it then records a consumer event on torch's current stream (an unread export records nothing)."""
    t = cvcuda.Tensor(SHAPE, numpy.uint8, "NHWC")
    torch.cuda.init()
    return [
        ("Tensor.cuda() + dict read, torch initialised (release records a consumer event)",
         us_per_call(lambda: t.cuda().__cuda_array_interface__, sync_all)),
        ("  C: cvTensorAddConsumer on torch's current stream",
         us_per_call(lambda: lib.cvTensorAddConsumer(t._cv, cvcuda.as_stream(torch.cuda.current_stream())._cv), sync_all)),
        ("Tensor.cuda() -> torch.as_tensor (zero-copy view) -> release",
         us_per_call(lambda: torch.as_tensor(t.cuda(), device="cuda"), sync_all)),
    ]


def flip_rows(torch, stream, sync_all):
    src = cvcuda.Tensor(SHAPE, numpy.uint8, "NHWC")
    dst = cvcuda.Tensor(SHAPE, numpy.uint8, "NHWC")
    like = src._like or src._make_like()
    out = ffi.new("cvTensor *")
    cv_stream = stream._cv

    def c_create_release():
        lib.cvTensorCreateOnStream(cv_stream, like[0], like[1], like[2], like[3], out)
        lib.cvTensorRelease(out[0])

    def c_create_like_release():  # what flip() calls (cvcuda._op.new_like)
        lib.cvTensorCreateLike(cv_stream, src._cv, out)
        lib.cvTensorRelease(out[0])

    big = ffi.new("int64_t[]", [32 << 20])  # past the size a stream keeps (core/stream.hpp): the pool's malloc + free

    def c_create_release_pool():
        lib.cvTensorCreateOnStream(cv_stream, 1, big, lib.CV_DTYPE_UINT8, ffi.NULL, out)
        lib.cvTensorRelease(out[0])

    rows = [
        ("cvcuda.flip(src, 1, stream=s) (allocating)", us_per_call(lambda: cvcuda.flip(src, 1, stream=stream), stream.sync)),
        ("  C: cvTensorCreateLike + cvTensorRelease (the block the stream kept)", us_per_call(c_create_like_release, stream.sync)),
        ("  C: cvTensorCreateOnStream + cvTensorRelease (the same)", us_per_call(c_create_release, stream.sync)),
        ("  C: the same for 32 MiB, never kept (the pool's cudaMallocFromPoolAsync + cudaFreeAsync)",
         us_per_call(c_create_release_pool, stream.sync)),
        ("  C: cvFlip", us_per_call(lambda: lib.cvFlip(cv_stream, src._cv, dst._cv, 1), stream.sync)),
        ("  Python: cvcuda.flip_into(dst, src, 1, stream=s)", us_per_call(lambda: cvcuda.flip_into(dst, src, 1, stream=stream), stream.sync)),
    ]
    if torch is not None:
        x = torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda")
        rows.append(("torch.flip(x, [2]) (comparison)", us_per_call(lambda: torch.flip(x, [2]), torch.cuda.synchronize)))
    return rows


def seed_rows(torch, stream):
    """as_tensor(torch) then the first flip: the seed's path, one defensive device sync per call included."""
    x = torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda")
    n = CALLS // 5
    sync = torch.cuda.synchronize

    def seed():
        cvcuda.flip(cvcuda.as_tensor(x, "NHWC"), 1, stream=stream)

    def wrap_release():
        cvcuda.as_tensor(x, "NHWC")

    wrapped = [cvcuda.as_tensor(x, "NHWC") for _ in range(n * (BATCHES + 1) + 600)]  # fresh wrappers, first use each
    it = iter(wrapped)

    def first_flip():
        cvcuda.flip(next(it), 1, stream=stream)

    # The same wrappers made with the keep-alive off (the lifetime test's switch): the first flip then hands no owner
    # to the library, so no cleanup callback is registered nor called back into Python when the flip completes.
    _tensor._debug_disable_keepalive(True)
    try:
        bare = [cvcuda.as_tensor(x, "NHWC") for _ in range(n * (BATCHES + 1) + 600)]
    finally:
        _tensor._debug_disable_keepalive(False)
    bare_it = iter(bare)

    def first_flip_no_owner():
        cvcuda.flip(next(bare_it), 1, stream=stream)

    def torch_meta():
        return (x.is_cuda, x.requires_grad, x.dtype, x.layout, x.shape, x.data_ptr(), x.is_contiguous())

    return [
        ("as_tensor(torch) + first flip + release (seed's path)", us_per_call(seed, stream.sync, n)),
        ("  as_tensor(torch) + release", us_per_call(wrap_release, sync, n)),
        ("    torch metadata reads (is_cuda, requires_grad, dtype, layout, shape, data_ptr, is_contiguous)",
         us_per_call(torch_meta, sync, n)),
        ("  first flip of a fresh wrapper (defensive sync, device check, keep-alive)", us_per_call(first_flip, stream.sync, n)),
        ("    the same, keep-alive off (no owner handed over: no cleanup callback)", us_per_call(first_flip_no_owner, stream.sync, n)),
        ("    cvcuda.sync_and_collect() alone (the library's cudaDeviceSynchronize, GPU idle)",
         us_per_call(cvcuda.sync_and_collect, sync, n)),
        ("    torch.cuda.synchronize() alone (comparison)", us_per_call(sync, sync, n)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-write", action="store_true", help="print only; leave docs/perf.md alone")
    args = parser.parse_args()
    try:
        stream = cvcuda.Stream()
    except cvcuda.NoDeviceError as exc:
        print(f"host_breakdown: no GPU: {exc}", file=sys.stderr)
        return 1
    try:
        import torch
    except ImportError:
        torch = None
    sync_all = cvcuda.sync_and_collect
    rows = stream_rows(sync_all) + export_rows(stream, sync_all) + flip_rows(torch, stream, sync_all)
    if torch is not None:
        rows += consumed_export_rows(torch, sync_all) + seed_rows(torch, stream)
    where = placement()
    lines = [f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; median of {BATCHES} batches of {CALLS} calls "
             f"(the seed's path: {CALLS // 5}), GPU idle between batches; 1x224x224x3 uint8; indented rows are steps "
             f"of the row above them, timed alone. Host: CPUs {where['cpus']} (this process's), {where['numa_nodes']} "
             f"NUMA node(s), the GPU's local CPUs {where['gpu_local_cpus']}", "", "| call | host µs/call |", "|---|---:|"]
    lines += [f"| {name} | {us:.2f} |" for name, us in rows]
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("Host time breakdown", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
