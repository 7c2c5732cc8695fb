"""Python's kept released streams (cvcuda._stream: Stream() and __del__), on any machine: the C calls Stream() makes
are replaced by a fake pool, so these rows test the package's own rules (what is kept, when the C check runs, what a
refusal or an error does, the bound, threads); tests/python/test_stream_api.py and tests/engine/test_stream_pool.cpp
test the C side's answers on a GPU."""

import copy
import sys
import threading

import pytest

import cvcuda
from cvcuda import _stream
from cvcuda._errors import CudaError
from cvcuda._ffi import ffi
from cvcuda._library import lib


class FakePool:
    """cvStreamCreate / cvStreamPeekReusable / cvStreamQueryReusable / cvStreamRelease over fake handles, recording
    every call."""

    def __init__(self):
        self.lock = threading.Lock()
        self.made = 0
        self.peek_answer = 0  # what cvStreamPeekReusable returns
        self.answer = 0  # what cvStreamQueryReusable returns
        self.created, self.peeked, self.asked, self.released = [], [], [], []

    def create(self, out):
        with self.lock:
            self.made += 1
            handle = ffi.cast("cvStream", self.made * 4 + 1)  # never a real handle of this process
            self.created.append(handle)
        out[0] = handle
        return 0

    def peek(self, handle):
        with self.lock:
            self.peeked.append(handle)
        return self.peek_answer

    def reusable(self, handle):
        with self.lock:
            self.asked.append(handle)
        return self.answer

    def release(self, handle):
        with self.lock:
            self.released.append(handle)


@pytest.fixture
def pool(monkeypatch):
    """A fake pool behind Stream(), in a process taken to see one device (so released streams are kept)."""
    fake = FakePool()
    _stream.release_kept()
    monkeypatch.setattr(_stream, "_create", fake.create)
    monkeypatch.setattr(_stream, "_peek", fake.peek)
    monkeypatch.setattr(_stream, "_reusable", fake.reusable)
    monkeypatch.setattr(_stream, "_stream_release", fake.release)
    defaults = list(cvcuda.Stream.__del__.__defaults__)
    defaults[0] = fake.release  # __del__ binds its release at definition
    monkeypatch.setattr(cvcuda.Stream.__del__, "__defaults__", tuple(defaults))
    allowed = _stream._spare_allowed[0]
    _stream._spare_allowed[0] = True
    yield fake
    _stream.release_kept()  # through the fake, before the real release is bound again
    _stream._spare_allowed[0] = allowed


def kept(pool):
    """A released Stream()'s handle, kept (the calls so far forgotten)."""
    first = cvcuda.Stream()
    handle = first._cv
    del first
    assert list(_stream._spare) == [handle] and pool.released == []
    return handle


def test_released_stream_is_kept_and_taken_back_after_one_peek(pool):
    handle = kept(pool)
    second = cvcuda.Stream()
    assert second._cv == handle
    assert pool.peeked == [handle] and pool.asked == [] and len(pool.created) == 1  # one peek, no query, no create
    assert list(_stream._spare) == []


NOT_READY, CUDA, INVALID = lib.CV_NOT_READY, lib.CV_ERROR_CUDA, lib.CV_ERROR_INVALID_ARGUMENT


@pytest.mark.parametrize(
    "peek, query, taken, raises",
    [
        # not known idle: only the query, with the GIL released, can tell
        (NOT_READY, 0, True, None),  # it ran work that has completed: taken back
        (NOT_READY, NOT_READY, False, None),  # held elsewhere or busy: released to the pool, a new one made
        (NOT_READY, CUDA, False, CudaError),  # an earlier asynchronous failure: released, and raised
        (NOT_READY, INVALID, False, ValueError),
        # an error from the peek is final: no query
        (INVALID, None, False, ValueError),
        (CUDA, None, False, CudaError),
    ],
)
def test_peek_then_query_decide_whether_a_kept_stream_is_handed_out(pool, peek, query, taken, raises):
    handle = kept(pool)
    pool.peek_answer, pool.answer = peek, query
    if raises is None:
        second = cvcuda.Stream()
        assert (second._cv == handle) is taken
        assert len(pool.created) == 1 + (not taken)
    else:
        with pytest.raises(raises):
            cvcuda.Stream()
        assert len(pool.created) == 1
    assert pool.peeked == [handle]
    assert pool.asked == ([] if query is None else [handle])
    assert pool.released == ([] if taken else [handle])
    assert list(_stream._spare) == []


def test_at_most_two_are_kept_the_rest_released(pool):
    streams = [cvcuda.Stream() for _ in range(3)]
    handles = [s._cv for s in streams]
    del streams  # the list drops its items last first
    assert list(_stream._spare) == [handles[2], handles[1]]
    assert pool.released == [handles[0]]


def test_nothing_is_kept_where_the_process_sees_several_devices(pool):
    _stream._spare_allowed[0] = False  # the pool fixture restores it
    first = cvcuda.Stream()
    handle = first._cv
    del first
    assert list(_stream._spare) == [] and pool.released == [handle]


def test_sync_and_collect_releases_the_kept_streams(pool):
    first = cvcuda.Stream()
    handle = first._cv
    del first
    cvcuda.sync_and_collect()  # without a device the C part does nothing
    assert list(_stream._spare) == [] and pool.released == [handle]


def test_copy_of_a_stream_is_the_stream_itself(pool):
    stream = cvcuda.Stream()
    assert copy.copy(stream) is stream and copy.deepcopy(stream) is stream


def test_threads_never_share_a_handle(pool):
    """8 threads create and drop streams, each holding a few at a time; no handle may be held by two live Streams at
    once (deque.pop hands a kept handle to one taker only), and no thread fails. A switch interval of 1 µs makes the
    threads interleave inside Stream() (a take written as look-then-pop fails here)."""
    held, lock, clashes, failures = set(), threading.Lock(), [], []

    def work():
        try:
            churn()
        except BaseException as exc:  # an exception in a thread would only be a warning: collect it
            failures.append(exc)

    def churn():
        for _ in range(2000):
            mine = [cvcuda.Stream() for _ in range(3)]
            with lock:
                for s in mine:
                    key = int(ffi.cast("uintptr_t", s._cv))
                    if key in held:
                        clashes.append(key)
                    held.add(key)
            with lock:
                for s in mine:
                    held.discard(int(ffi.cast("uintptr_t", s._cv)))
            del mine, s

    threads = [threading.Thread(target=work) for _ in range(8)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert clashes == []
    assert len(pool.peeked) > 1000  # the kept path was taken, concurrently
