"""The object passed to as_tensor lives until the Tensor is gone AND the GPU work using it has completed,
and is released after that. Negative control: the same run with the keep-alive disabled shows corruption."""

import gc
import weakref

import cvcuda
from gpu_helpers import make_busy

SHAPE = (1, 256, 256, 3)
BUSY_MS = 50
REUSE_TRIES = 256


def one_round(torch, stream, busy):
    """Flips a wrapped torch tensor on a stream busy for BUSY_MS, drops every reference to the tensor at once and
    allocates torch memory until torch hands out (part of) the freed block again (filled with 7 at once, on torch's stream,
    while the flip still waits), or REUSE_TRIES blocks. Returns (result is right, weak reference to the torch tensor,
    whether the block was handed out again)."""
    src = torch.randint(0, 256, SHAPE, dtype=torch.uint8, device="cuda")
    expected = torch.flip(src, [2])
    nv = cvcuda.as_tensor(src, "NHWC")
    cvcuda.flip(nv, 1, stream=stream)  # first use pays the defensive sync now, so the next flip really waits
    make_busy(torch, busy, BUSY_MS)
    out = cvcuda.flip(nv, 1, stream=stream)  # queued behind the sleep
    owner = weakref.ref(src)
    pointer = src.data_ptr()
    del src, nv
    junk, reused = [], False
    for _ in range(REUSE_TRIES):  # torch's caching allocator hands out free blocks of this size in address order
        block = torch.empty(SHAPE, dtype=torch.uint8, device="cuda")
        junk.append(block)
        if abs(block.data_ptr() - pointer) < block.nbytes:  # overlaps the freed tensor's bytes
            block.fill_(7)
            reused = True
            break
    stream.sync()
    right = torch.equal(torch.as_tensor(out.cuda(), device="cuda"), expected)
    del junk, out
    return right, owner, reused


def test_owner_outlives_gpu_use_and_is_released_after(torch):
    stream = cvcuda.Stream()
    busy = torch.cuda.ExternalStream(stream.handle)
    for iteration in range(100):
        right, owner, reused = one_round(torch, stream, busy)
        assert right, f"iteration {iteration}: the flip read memory that was freed and reused"
        assert not reused, f"iteration {iteration}: torch handed out the tensor's memory while cvcuda still used it"
        stream.sync()
        gc.collect()
        assert owner() is None, f"iteration {iteration}: the torch tensor is still alive after sync()"


def test_negative_control_without_keepalive_corrupts(torch):
    stream = cvcuda.Stream()
    busy = torch.cuda.ExternalStream(stream.handle)
    # Forced: the freed block is found again and overwritten while the flip that reads it waits behind the sleep.
    cvcuda._debug_disable_keepalive(True)
    try:
        rounds = [one_round(torch, stream, busy) for _ in range(3)]
    finally:
        cvcuda._debug_disable_keepalive(False)
    assert all(reused for _, _, reused in rounds), "torch did not hand out the freed block again: the race was not forced"
    assert not any(right for right, _, _ in rounds), "the flip read the right data from memory overwritten before it ran"


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
