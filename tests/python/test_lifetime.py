"""The object passed to as_tensor lives until the Tensor is gone AND the GPU work using it has completed,
and is released after that. Negative control: the same run with the keep-alive disabled shows corruption."""

import gc
import weakref

import cvcuda
from gpu_helpers import make_busy

SHAPE = (1, 256, 256, 3)
BUSY_MS = 50


def one_round(torch, stream, busy):
    """Flips a wrapped torch tensor on a stream busy for BUSY_MS, drops every reference to the tensor at once and
    lets torch reuse freed memory; returns (result is right, weak reference to the torch tensor)."""
    src = torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda")
    expected = torch.flip(src, [2])
    nv = cvcuda.as_tensor(src, "NHWC")
    cvcuda.flip(nv, 1, stream=stream)  # first use pays the defensive sync now, so the next flip really waits
    make_busy(torch, busy, BUSY_MS)
    out = cvcuda.flip(nv, 1, stream=stream)  # queued behind the sleep
    owner = weakref.ref(src)
    del src, nv
    junk = [torch.full(SHAPE, 7, dtype=torch.uint8, device="cuda") for _ in range(4)]  # reuses freed blocks
    stream.sync()
    right = torch.equal(torch.as_tensor(out.cuda(), device="cuda"), expected)
    del junk, out
    return right, owner


def test_owner_outlives_gpu_use_and_is_released_after(torch):
    stream = cvcuda.Stream()
    busy = torch.cuda.ExternalStream(stream.handle)
    for iteration in range(100):
        right, owner = one_round(torch, stream, busy)
        assert right, f"iteration {iteration}: the flip read memory that was freed and reused"
        stream.sync()
        gc.collect()
        assert owner() is None, f"iteration {iteration}: the torch tensor is still alive after sync()"


def test_negative_control_without_keepalive_corrupts(torch):
    stream = cvcuda.Stream()
    busy = torch.cuda.ExternalStream(stream.handle)
    cvcuda._debug_disable_keepalive(True)
    try:
        corrupted = 0
        for _ in range(20):
            right, _ = one_round(torch, stream, busy)
            corrupted += not right
            if corrupted:
                break
    finally:
        cvcuda._debug_disable_keepalive(False)
    assert corrupted >= 1, "without the keep-alive the freed tensor was never reused: the test cannot see the bug"


def test_owner_of_an_unused_tensor_is_released_with_it():
    from cai_objects import BASE, CaiObject

    owner = CaiObject({"shape": (4,), "typestr": "|u1", "data": (BASE, False), "version": 3, "stream": None})
    ref = weakref.ref(owner)
    t = cvcuda.as_tensor(owner)
    del owner
    gc.collect()
    assert ref() is not None  # the Tensor keeps it
    del t
    gc.collect()
    assert ref() is None
