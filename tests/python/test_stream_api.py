"""cvcuda.Stream: current/default streams per thread, nesting, adoption of torch streams, sync releasing the GIL."""

import ctypes
import sys
import threading
import time

import pytest

import cvcuda
from gpu_helpers import make_busy, with_stream


def test_default_is_current_outside_with(gpu):
    assert cvcuda.Stream.current is cvcuda.Stream.default
    assert cvcuda.Stream.default.handle == 0


def test_with_nests_and_restores(gpu):
    outer, inner = cvcuda.Stream(), cvcuda.Stream()
    assert outer.handle not in (0, inner.handle)
    with outer:
        assert cvcuda.Stream.current is outer
        with inner as entered:
            assert entered is inner
            assert cvcuda.Stream.current is inner
        assert cvcuda.Stream.current is outer
    assert cvcuda.Stream.current is cvcuda.Stream.default


def test_with_is_per_thread(gpu):
    seen = []
    stream = cvcuda.Stream()
    with stream:
        worker = threading.Thread(target=lambda: seen.append(cvcuda.Stream.current))
        worker.start()
        worker.join()
        assert cvcuda.Stream.current is stream
    assert seen == [cvcuda.Stream.default]


def test_operator_without_stream_uses_the_current_one(torch):
    stream = cvcuda.Stream()
    src = cvcuda.as_tensor(torch.zeros((8, 8, 3), dtype=torch.uint8, device="cuda"), "HWC")
    cvcuda.flip(src, 0, stream=stream)  # pays the wrapper's defensive device sync now, not after the stream is busy
    stream.sync()
    make_busy(torch, torch.cuda.ExternalStream(stream.handle), 50)
    with stream:
        out = cvcuda.flip(src, 1)
    assert out.cuda().__cuda_array_interface__["stream"] == stream.handle  # the write pending on `stream`
    stream.sync()
    assert out.cuda().__cuda_array_interface__["stream"] is None


def test_as_stream_adopts(torch):
    side = torch.cuda.Stream()
    adopted = cvcuda.as_stream(side)
    assert adopted.handle == side.cuda_stream
    assert cvcuda.as_stream(side) is adopted  # torch's pooled streams are adopted once
    assert cvcuda.as_stream(side.cuda_stream).handle == side.cuda_stream
    own = cvcuda.Stream()
    assert cvcuda.as_stream(own) is own
    assert cvcuda.as_stream(0) is cvcuda.Stream.default


def ticks_during(wait):
    """(seconds `wait()` took, how many 1 ms ticks another Python thread made meanwhile)."""
    ticks = []
    stop = threading.Event()

    def tick():
        while not stop.is_set():
            ticks.append(time.monotonic())
            time.sleep(0.001)

    worker = threading.Thread(target=tick)
    worker.start()
    time.sleep(0.01)
    start = time.monotonic()
    wait()
    end = time.monotonic()
    stop.set()
    worker.join()
    return end - start, sum(start <= t <= end for t in ticks)


def test_sync_releases_the_gil(torch):
    stream = cvcuda.Stream()
    make_busy(torch, torch.cuda.ExternalStream(stream.handle), 200)
    seconds, ticks = ticks_during(stream.sync)
    assert seconds > 0.1  # it waited for the spin
    assert ticks > seconds * 1000 / 4  # the other thread ran while this one waited (a tick takes 1 ms and a bit)


@pytest.mark.skipif(not getattr(sys, "_is_gil_enabled", lambda: True)(), reason="free-threaded Python: no GIL to hold")
def test_ticks_stop_while_a_wait_holds_the_gil():
    # The negative control of the test above: a wait of 0.2 s that holds the GIL (ctypes.PyDLL keeps it) lets no tick
    # through, or one at its edges.
    libc = ctypes.PyDLL(None)
    seconds, ticks = ticks_during(lambda: libc.usleep(200_000))
    assert seconds > 0.1
    assert ticks <= 2


def test_import_is_safe_before_fork(gpu):
    import subprocess
    import sys

    child = (
        "import os, cvcuda\n"
        "pid = os.fork()\n"
        "if pid == 0:\n"
        "    s = cvcuda.Stream()\n"
        "    cvcuda.flip(cvcuda.Tensor((4, 4, 3), 'uint8', 'HWC'), 1, stream=s)\n"
        "    s.sync()\n"
        "    os._exit(0)\n"
        "_, status = os.waitpid(pid, 0)\n"
        "raise SystemExit(os.waitstatus_to_exitcode(status))\n"
    )
    result = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "Error" not in result.stderr


def test_repr(gpu):
    assert "owned" in repr(cvcuda.Stream())
    assert repr(cvcuda.Stream.default).startswith("<cvcuda.Stream handle=0x0")


def test_stream_reuses_a_released_idle_stream(gpu):
    """cvcuda.Stream() hands out a pooled stream once its last reference is gone."""
    first = cvcuda.Stream()
    handle = first.handle
    first.sync()
    del first
    handles = []
    for _ in range(40):  # the pool hands out older released streams first
        handles.append(cvcuda.Stream())
        if handles[-1].handle == handle:
            break
    assert handles[-1].handle == handle


def _release_kept_streams():
    """Empties the package's list of released Stream() handles, releasing each to the C pool."""
    from cvcuda import _stream

    _stream.release_kept()
    assert _stream.kept() == []


def test_released_idle_stream_is_kept_for_the_next_stream(gpu):
    """A released Stream() goes to the package's short list, in a process that sees one device; the next Stream()
    takes its C handle back after one cvStreamPeekReusable, without the C pool. With more devices, where Stream()
    follows the current device, nothing is kept. sync_and_collect() releases what is kept."""
    from cvcuda import _stream

    cvcuda.Stream()  # the first Stream() decides whether this process keeps released streams
    _release_kept_streams()
    one_device = _stream._device_count == 1
    assert _stream.kept_allowed() is one_device
    first = cvcuda.Stream()
    kept = first._cv
    del first
    assert _stream.kept() == ([kept] if one_device else [])
    second = cvcuda.Stream()
    assert (second._cv == kept) is one_device
    assert _stream.kept() == []
    second.sync()  # the handle works: cvStreamSync accepts it
    del second
    live = cvcuda.stats()["liveStreams"]
    cvcuda.sync_and_collect()
    assert _stream.kept() == []
    assert cvcuda.stats()["liveStreams"] == live - one_device


def test_kept_stream_that_ran_work_is_taken_back_once_idle(torch):
    """A kept Stream() whose raw handle was given out and ran work is not known idle: the peek cannot say, the query
    asks CUDA, finds the work completed, and the next Stream() takes the handle back; from then on the stream is known
    idle and the peek alone says so. (The busy case is test_kept_stream_with_pending_work_goes_back_to_the_pool.)"""
    from cvcuda import _stream
    from cvcuda._library import lib

    _release_kept_streams()
    first = cvcuda.Stream()
    if _stream._device_count != 1:
        pytest.skip("nothing is kept in a process that sees several devices (the C pool's own tests apply)")
    side = torch.cuda.ExternalStream(first.handle)
    with torch.cuda.stream(side):
        torch.ones(1024, device="cuda").add_(1)
    first.sync()
    kept = first._cv
    assert lib.cvStreamPeekReusable(kept) == lib.CV_NOT_READY  # its raw handle was given out: only CUDA can tell
    del first
    taken = cvcuda.Stream()
    assert taken._cv == kept
    assert lib.cvStreamPeekReusable(taken._cv) == lib.CV_SUCCESS  # found idle: known idle from then on


def _kept_then_taken(make_holder):
    """Keeps a released Stream() whose stream `make_holder(stream)` holds in some other way, then takes a Stream():
    (the kept stream's cudaStream_t, the holder, the Stream taken)."""
    from cvcuda import _stream

    _release_kept_streams()
    first = cvcuda.Stream()
    if _stream._device_count != 1:
        pytest.skip("nothing is kept in a process that sees several devices (the C pool's own tests apply)")
    holder = make_holder(first)
    kept, handle = first._cv, first.handle
    del first
    assert _stream.kept() == [kept]
    taken = cvcuda.Stream()
    assert _stream.kept() == []  # refused: released to the C pool, not kept again
    return handle, holder, taken


def test_kept_stream_still_adopted_elsewhere_is_not_handed_out(gpu):
    """A kept handle whose stream another handle holds (as_stream of its cudaStream_t) is not given to a new
    Stream(): the C pool would not hand that stream out either while the other handle lives."""
    handle, alias, taken = _kept_then_taken(lambda s: cvcuda.as_stream(s.handle))
    assert alias.handle == handle
    assert taken.handle != handle


def test_kept_stream_named_by_a_tensors_hazard_state_is_not_handed_out(torch):
    """A kept handle whose stream a tensor's hazard state still names (the writer of a flip, synced, the tensors
    alive) is not given to a new Stream()."""
    def flip_on(stream):
        src = cvcuda.as_tensor(torch.zeros((8, 8, 3), dtype=torch.uint8, device="cuda"), "HWC")
        out = cvcuda.flip(src, 1, stream=stream)
        stream.sync()
        return src, out

    handle, tensors, taken = _kept_then_taken(flip_on)
    assert taken.handle != handle
    assert tensors[1].cuda().__cuda_array_interface__["stream"] is None  # synced: nothing pending, only named


def test_kept_stream_with_pending_work_goes_back_to_the_pool(torch):
    """A kept Stream() is never handed out while work is pending on it: the next Stream() finds it busy and releases
    it to the C pool instead, which takes a stream with nothing pending. The sleep forces the race: it outlasts the
    take (asserted)."""
    def sleep_on(stream):
        pending = torch.cuda.ExternalStream(stream.handle)
        make_busy(torch, pending, 1000)
        return pending

    handle, pending, taken = _kept_then_taken(sleep_on)
    assert not pending.query(), "the sleep had ended before the take: nothing was tested"
    assert taken.handle != handle, "a stream with pending work was handed out"
    torch.cuda.synchronize()


def test_copy_of_a_stream_is_the_stream(gpu):
    """One CUDA stream has one owner: a copy that released the handle too could hand it to two Stream()s."""
    import copy

    stream = cvcuda.Stream()
    assert copy.copy(stream) is stream
    assert copy.deepcopy(stream) is stream


def test_stream_with_pending_work_is_not_reused(torch):
    """The pool never hands out a released stream while work is pending on it. A hand-out of its handle counts as a
    violation only when the stream is still busy after the take: its sleep may end during the loop (on the H200 the
    sleep ran about a third of the time asked, its cycles counted at a clock calibrated low, and 40 new streams took
    16 ms), and a reuse after that is the pool's right."""
    # The pool (at most 32 idle streams) is emptied first, so that the busy stream is kept in it rather than destroyed
    # for want of room (CUDA may give a destroyed stream's handle value to a new stream), and is the one each take asks.
    drained = [cvcuda.Stream() for _ in range(40)]
    busy = cvcuda.Stream()
    handle = busy.handle
    pending = torch.cuda.ExternalStream(handle)
    make_busy(torch, pending, 1000)
    del busy
    fresh, takes_while_busy = [], 0
    for _ in range(40):
        fresh.append(cvcuda.Stream())
        still_busy = not pending.query()
        takes_while_busy += still_busy
        assert not (fresh[-1].handle == handle and still_busy), "a stream with pending work was handed out"
    assert takes_while_busy > 0, "the sleep had ended before the first take: nothing was tested"
    torch.cuda.synchronize()
    del drained
