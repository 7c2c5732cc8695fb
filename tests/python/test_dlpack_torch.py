"""DLPack with PyTorch and CuPy on the GPU: ordering with no host sync (each with its forced negative control),
deleters, capsules, read-only, copy, dl_device, every dtype, graph capture, and the CAI export lifetime rule."""

import gc

import numpy
import pytest

import cvcuda
from cvcuda import _dlpack, _tensor
from cvcuda._ffi import ffi
from gpu_helpers import make_busy, with_stream

SHAPE = (2, 37, 53, 3)
BUSY_MS = 100  # longer than the host needs to queue ROUNDS rounds, so every round races the busy stream
ROUNDS = 200


def _random(torch, shape=SHAPE):
    return torch.randint(1, 256, shape, dtype=torch.uint8, device="cuda")


def _torch_view(torch, stream: cvcuda.Stream):
    return torch.cuda.ExternalStream(stream.handle) if stream.handle else torch.cuda.default_stream()


# --- export: torch.from_dlpack(cvcuda output)
def _export_rounds(torch, sync: bool):
    """ROUNDS flips into poisoned outputs on a cvcuda stream kept busy; torch reads each through DLPack at once."""
    srcs = [_random(torch) for _ in range(ROUNDS)]
    outs = [torch.zeros_like(s) for s in srcs]
    torch.cuda.synchronize()
    target = cvcuda.Stream()
    cvcuda.reset_stats()
    make_busy(torch, _torch_view(torch, target), BUSY_MS)
    copies = []
    for src, out in zip(srcs, outs):
        nv_out = cvcuda.from_dlpack(out, "NHWC", stream=target)
        cvcuda.flip_into(nv_out, cvcuda.from_dlpack(src, "NHWC", stream=target), 1, stream=target)
        if sync:
            back = torch.from_dlpack(nv_out)  # torch's current stream waits on the flip (event)
        else:
            back = torch.from_dlpack(nv_out.__dlpack__(stream=-1, max_version=(1, 0)))  # the wait switched off
        copies.append(back.clone())
    syncs = cvcuda.stats()["deviceSyncs"]
    torch.cuda.synchronize()
    good = sum(torch.equal(c, torch.flip(s, [2])) for c, s in zip(copies, srcs))
    return good, syncs


def test_torch_from_dlpack_waits_on_the_flip_without_host_sync(torch):
    good, syncs = _export_rounds(torch, sync=True)
    assert (good, syncs) == (ROUNDS, 0)


def test_negative_control_export_without_the_wait_reads_stale_data(torch):
    good, _ = _export_rounds(torch, sync=False)
    assert good < ROUNDS


# --- import: cvcuda.from_dlpack(torch tensor written on a busy side stream)
def _import_rounds(torch, sync: bool):
    values = [_random(torch) for _ in range(ROUNDS)]
    xs = [torch.zeros_like(v) for v in values]
    outs = [torch.zeros_like(v) for v in values]
    torch.cuda.synchronize()
    side = torch.cuda.Stream()
    target = cvcuda.Stream()
    nv_outs = [cvcuda.from_dlpack(out, "NHWC", stream=target) for out in outs]  # before the side stream is busy
    cvcuda.reset_stats()
    make_busy(torch, side, BUSY_MS)
    with torch.cuda.stream(side):  # torch writes x on its current stream, as a producer does
        for x, v, nv_out in zip(xs, values, nv_outs):
            x.copy_(v)
            src = x if sync else x.__dlpack__(stream=-1)  # -1: torch makes nothing wait
            nv = cvcuda.from_dlpack(src, "NHWC", stream=target)
            cvcuda.flip_into(nv_out, nv, 1, stream=target)
    syncs = cvcuda.stats()["deviceSyncs"]
    target.sync()
    torch.cuda.synchronize()
    good = sum(torch.equal(o, torch.flip(v, [2])) for o, v in zip(outs, values))
    return good, syncs


def test_from_dlpack_of_a_busy_torch_side_stream_is_ordered_without_host_sync(torch):
    good, syncs = _import_rounds(torch, sync=True)
    assert (good, syncs) == (ROUNDS, 0)


def test_negative_control_import_without_the_producer_wait_reads_stale_data(torch):
    good, _ = _import_rounds(torch, sync=False)
    assert good < ROUNDS


# --- CuPy both ways
def test_cupy_both_ways(torch, cupy):
    x = cupy.random.randint(1, 256, SHAPE, dtype=cupy.uint8)
    nv = cvcuda.from_dlpack(x, "NHWC")
    out = cvcuda.flip(nv, 0)
    back = cupy.from_dlpack(out)
    assert back.dtype == cupy.uint8 and back.shape == SHAPE
    assert bool((back == cupy.flip(x, axis=1)).all())
    assert back.data.ptr == int(out.cuda().__cuda_array_interface__["data"][0])


# --- deleters, capsules, flags
def test_export_deleter_runs_exactly_once_and_frees_after_the_consumer(torch):
    cvcuda.sync_and_collect()
    live = cvcuda.stats()["liveTensors"]
    out = cvcuda.flip(cvcuda.from_dlpack(_random(torch), "NHWC"), 1)
    back = torch.from_dlpack(out)
    del out
    gc.collect()
    assert cvcuda.stats()["liveTensors"] > live  # torch's tensor holds the export, which holds the memory
    del back
    gc.collect()
    cvcuda.sync_and_collect()
    assert cvcuda.stats()["liveTensors"] == live


def _counting_capsule(x):
    """A "dltensor_versioned" capsule over torch tensor x's memory whose deleter counts its calls."""
    calls = []
    shape = ffi.new("int64_t[]", list(x.shape))
    managed = ffi.new("struct DLManagedTensorVersioned *")
    managed.version.major, managed.version.minor = 1, 1
    t = managed.dl_tensor
    t.data = ffi.cast("void *", x.data_ptr())
    t.device.device_type, t.device.device_id = 2, x.device.index
    t.ndim = x.dim()
    t.dtype.code, t.dtype.bits, t.dtype.lanes = 1, 8, 1  # kDLUInt, 8 bits
    t.shape = shape

    @ffi.callback("void(struct DLManagedTensorVersioned *)")
    def deleter(_self):
        calls.append(1)

    managed.deleter = deleter
    keep = (shape, managed, deleter)
    address = int(ffi.cast("uintptr_t", managed))
    return _dlpack._api.PyCapsule_New(address, _dlpack._VERSIONED, _dlpack._capsule_destructor), calls, keep


def test_import_deleter_runs_once_after_our_queued_work(torch):
    x = _random(torch)
    expected = torch.flip(x, [2])
    torch.cuda.synchronize()  # a bare capsule must be ready on the stream it is used on
    capsule, calls, keep = _counting_capsule(x)
    target = cvcuda.Stream()
    make_busy(torch, _torch_view(torch, target), BUSY_MS)
    nv = cvcuda.from_dlpack(capsule, "NHWC", stream=target)
    out = cvcuda.flip(nv, 1, stream=target)
    del nv
    gc.collect()
    assert calls == []  # the flip is still queued behind the sleep
    target.sync()
    assert calls == [1]
    del capsule  # consumed ("used_..."): its destructor must not call the deleter again
    gc.collect()
    cvcuda.sync_and_collect()
    assert calls == [1]
    assert torch.equal(torch.from_dlpack(out), expected)


def test_a_capsule_is_consumed_once(torch):
    capsule = cvcuda.flip(cvcuda.from_dlpack(_random(torch), "NHWC"), 1).__dlpack__(max_version=(1, 0))
    cvcuda.from_dlpack(capsule, "NHWC")
    with pytest.raises(BufferError, match="already consumed"):
        cvcuda.from_dlpack(capsule, "NHWC")
    torch_capsule = _random(torch).__dlpack__()
    torch.from_dlpack(torch_capsule)
    with pytest.raises(Exception):
        torch.from_dlpack(torch_capsule)


def test_read_only_round_trip(torch):
    x = _random(torch)
    cai = dict(x.__cuda_array_interface__, version=3, stream=None, data=(x.data_ptr(), True))
    holder = with_stream(x, None)
    holder.__cuda_array_interface__ = cai
    ro = cvcuda.as_tensor(holder, "NHWC")
    assert "readonly" in repr(ro)
    again = cvcuda.from_dlpack(ro.__dlpack__(max_version=(1, 0)), "NHWC")
    assert "readonly" in repr(again)
    with pytest.raises(BufferError, match="read-only"):
        ro.__dlpack__()  # a legacy capsule cannot carry the flag
    with pytest.raises(cvcuda.InvalidArgumentError, match="readonly"):
        cvcuda.flip_into(again, cvcuda.from_dlpack(x, "NHWC"), 1)


def test_copy_true_copies_on_the_consumer_stream_and_copy_false_never(torch):
    out = cvcuda.flip(cvcuda.from_dlpack(_random(torch), "NHWC"), 1)
    shared = torch.from_dlpack(out.__dlpack__(max_version=(1, 0), copy=False))
    copied = torch.from_dlpack(out.__dlpack__(stream=torch.cuda.current_stream().cuda_stream or 1,
                                              max_version=(1, 0), copy=True))
    base = int(out.cuda().__cuda_array_interface__["data"][0])
    assert shared.data_ptr() == base
    assert copied.data_ptr() != base
    assert torch.equal(copied, shared)


def test_dl_device_mismatch_raises_buffer_error(torch):
    t = cvcuda.from_dlpack(_random(torch), "NHWC")
    kind, device = t.__dlpack_device__()
    assert (kind, device) == (2, torch.cuda.current_device())
    assert t.__dlpack__(dl_device=(kind, device), max_version=(1, 0)) is not None
    with pytest.raises(BufferError, match="dl_device"):
        t.__dlpack__(dl_device=(kind, device + 1), max_version=(1, 0))
    with pytest.raises(BufferError, match="dl_device"):
        t.__dlpack__(dl_device=(1, 0), max_version=(1, 0))


# --- every dtype flips and round-trips with its dtype
DTYPES = ["bfloat16", "float16", "float32", "float64", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
          "complex64", "complex128"]


@pytest.mark.parametrize("name", DTYPES)
def test_every_torch_dtype_flips_and_round_trips_through_dlpack(torch, name):
    dtype = getattr(torch, name)
    shape = (2, 5, 7, 3)
    if dtype == torch.bool:
        x = torch.randint(0, 2, shape, device="cuda").bool()
    elif dtype.is_floating_point or dtype.is_complex:
        x = torch.randn(shape, dtype=dtype, device="cuda")
    else:
        x = torch.randint(1, 100, shape, device="cuda").to(dtype)
    nv = cvcuda.from_dlpack(x, "NHWC")
    if name != "bfloat16":
        assert nv.dtype == numpy.dtype(name)
    back = torch.from_dlpack(cvcuda.flip(nv, -1))
    assert back.dtype == dtype and back.shape == x.shape
    # Bytes compared (torch lacks flip/equal for some of these dtypes); flipping H and W keeps each pixel's bytes.
    assert torch.equal(back.view(torch.uint8), torch.flip(x.view(torch.uint8), [1, 2]))


# --- graph capture
def test_capture_flip_into_with_opt_out_wrappers_replays_with_new_input(torch):
    src = _random(torch)
    dst = torch.zeros_like(src)
    ts = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    with torch.cuda.graph(g, stream=ts):
        stream = cvcuda.as_stream(ts)
        out = cvcuda.as_tensor(with_stream(dst, -1), "NHWC")
        cvcuda.flip_into(out, cvcuda.as_tensor(with_stream(src, -1), "NHWC"), 1, stream=stream)
    for _ in range(3):
        src.copy_(_random(torch))
        dst.zero_()
        g.replay()
        torch.cuda.synchronize()
        assert torch.equal(dst, torch.flip(src, [2]))


def test_capture_allocating_flip_replays(torch):
    src = _random(torch)
    ts = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    with torch.cuda.graph(g, stream=ts):
        out = cvcuda.flip(cvcuda.as_tensor(with_stream(src, -1), "NHWC"), 0, stream=cvcuda.as_stream(ts))
    for _ in range(3):
        src.copy_(_random(torch))
        g.replay()
        torch.cuda.synchronize()
        assert torch.equal(torch.from_dlpack(out.__dlpack__(stream=-1, max_version=(1, 0))), torch.flip(src, [1]))


def test_unknown_producer_inside_capture_raises_and_leaves_torch_usable(torch):
    src = _random(torch)
    dst = torch.zeros_like(src)
    ts = torch.cuda.Stream()
    g = torch.cuda.CUDAGraph()
    torch.cuda.synchronize()
    with pytest.raises(cvcuda.InvalidStateError, match="CUDA graph"):
        with torch.cuda.graph(g, stream=ts):
            cvcuda.flip_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(src, "NHWC"), 1,
                             stream=cvcuda.as_stream(ts))
    assert torch.randint(0, 10, (4,), device="cuda").shape == (4,)  # torch's RNG still works: capture ended cleanly
    torch.cuda.synchronize()


# --- CAI export lifetime: torch reads our output on its current stream, then drops it
def _data_pointer(t: cvcuda.Tensor) -> int:
    return (t._info or t._get_info()).data


REUSE_TRIES = 2048  # flips of SHAPE on the freeing stream: the pool hands the freed block to one of them
REUSE_BUSY_MS = 1000  # longer than a collection and those tries take in a long test session


def _cai_read_then_drop(torch, ordered: bool):
    src = _random(torch)
    expected = torch.flip(src, [2])
    target = cvcuda.Stream()
    garbage = cvcuda.from_dlpack(torch.ones_like(src), "NHWC")
    torch.cuda.synchronize()
    gc.collect()  # the collection inside the window below then has little to do
    _tensor._debug_disable_cai_release_order(not ordered)
    try:
        out = cvcuda.flip(cvcuda.from_dlpack(src, "NHWC", stream=target), 1, stream=target)
        freed = _data_pointer(out)
        target.sync()  # torch ignores the CAI stream: the seed's rule is to sync before torch.as_tensor
        seen = torch.as_tensor(out.cuda(), device="cuda")
        make_busy(torch, torch.cuda.current_stream(), REUSE_BUSY_MS)
        copy = seen.clone()  # queued behind the sleep on torch's current stream
        del seen, out
        gc.collect()
        # Allocations on the stream that frees get a block freed there at once, unless the free waits on events. The
        # pool keeps blocks of earlier tests too, so allocate until the freed block comes back (its new contents are
        # the flipped ones of `garbage`), keeping every try alive so that none is handed out twice.
        reuse, reused = [], False
        for _ in range(REUSE_TRIES):
            reuse.append(cvcuda.flip(garbage, 0, stream=target))
            if _data_pointer(reuse[-1]) == freed:
                reused = True
                break
        busy = not torch.cuda.current_stream().query()  # still sleeping: every flip above raced the queued read
    finally:
        _tensor._debug_disable_cai_release_order(False)
    torch.cuda.synchronize()
    target.sync()
    del reuse
    return torch.equal(copy, expected), reused, busy


def test_cai_export_memory_outlives_torchs_queued_read(torch):
    intact, _, _ = _cai_read_then_drop(torch, ordered=True)
    assert intact  # whether or not the pool reused the block, the write to it waited for torch's read


def test_negative_control_cai_export_freed_without_ordering_is_reused_under_the_read(torch):
    intact, reused, busy = _cai_read_then_drop(torch, ordered=False)
    assert reused, f"the pool did not hand the freed block back within {REUSE_TRIES} allocations"
    assert busy, f"torch's stream finished its {REUSE_BUSY_MS} ms sleep before the reuse: the race was not forced"
    assert not intact
