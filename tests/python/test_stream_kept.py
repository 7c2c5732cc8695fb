"""The package's kept released streams (cvcuda._stream: Stream() and a Stream's end), on any machine: the C calls
Stream() makes are replaced by a fake pool, so these rows test the package's own rules (what is kept, when the C check
runs, what a refusal or an error does, the bound, threads). They run against the base class the process has: the C one
(cvcuda._streambase) in API mode, the Python one (_stream._KeptBase) in ABI mode; CI runs the suite in both.
tests/python/test_stream_api.py and tests/engine/test_stream_pool.cpp test the C library's answers on a GPU."""

import copy
import gc
import inspect
import sys
import threading
import weakref

import pytest

import cvcuda
from cvcuda import _stream
from cvcuda._errors import CudaError
from cvcuda._ffi import ffi
from cvcuda._library import lib


native = pytest.mark.skipif(_stream._native is None, reason="Stream()'s C base is used in API mode only (this run: "
                            "the Python base, which has none of these entry points)")


class FakePool:
    """cvStreamCreate / cvStreamPeekReusable / cvStreamQueryReusable / cvStreamRelease over fake handles, recording
    every call."""

    def __init__(self):
        self.lock = threading.Lock()
        self.made = 0
        self.create_answer = 0  # what cvStreamCreate returns (a handle is made only for 0)
        self.peek_answer = 0  # what cvStreamPeekReusable returns
        self.answer = 0  # what cvStreamQueryReusable returns
        self.created, self.peeked, self.asked, self.released = [], [], [], []

    def create(self, out):
        if self.create_answer:
            return self.create_answer
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
    """A fake pool behind Stream(), in a process taken to see one device (so released streams are kept). In API mode
    the C base (cvcuda._streambase) calls the fakes through cffi callbacks bound in place of the library's functions;
    elsewhere the Python base calls them as module globals."""
    fake = FakePool()
    _stream.release_kept()
    monkeypatch.setattr(_stream, "_create", fake.create)
    if _stream._native is None:
        monkeypatch.setattr(_stream, "_peek", fake.peek)
        monkeypatch.setattr(_stream, "_reusable", fake.reusable)
        monkeypatch.setattr(_stream, "_stream_release", fake.release)
        defaults = list(cvcuda.Stream.__del__.__defaults__)
        defaults[0] = fake.release  # __del__ binds its release at definition
        monkeypatch.setattr(cvcuda.Stream.__del__, "__defaults__", tuple(defaults))
    else:
        callbacks = (ffi.callback("cvStatus(cvStream)", fake.peek), ffi.callback("cvStatus(cvStream)", fake.reusable),
                     ffi.callback("void(cvStream)", fake.release), ffi.callback("cvStatus(cvStream *)", fake.create))
        _stream.bind_native(*callbacks)

        def python_create(out):  # Stream() on the current device, the store's use decided: cvStreamCreate from C
            raise AssertionError("the C base called cvStreamCreate through Python")

        monkeypatch.setattr(_stream, "_create", python_create)
    allowed = _stream.kept_allowed()
    _stream.allow_kept(True)
    yield fake
    _stream.release_kept()  # through the fake, before the real release is bound again
    if _stream._native is not None:
        _stream.bind_native()
    _stream.allow_kept(allowed)


def kept(pool):
    """A released Stream()'s handle, kept (the calls so far forgotten)."""
    first = cvcuda.Stream()
    handle = first._cv
    del first
    assert _stream.kept() == [handle] and pool.released == []
    return handle


def test_released_stream_is_kept_and_taken_back_after_one_peek(pool):
    handle = kept(pool)
    second = cvcuda.Stream()
    assert second._cv == handle
    assert pool.peeked == [handle] and pool.asked == [] and len(pool.created) == 1  # one peek, no query, no create
    assert _stream.kept() == []


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
    assert _stream.kept() == []


def test_at_most_two_are_kept_the_rest_released(pool):
    streams = [cvcuda.Stream() for _ in range(3)]
    handles = [s._cv for s in streams]
    del streams  # the list drops its items last first
    assert _stream.kept() == [handles[2], handles[1]]
    assert pool.released == [handles[0]]


def test_nothing_is_kept_where_the_process_sees_several_devices(pool):
    _stream.allow_kept(False)  # the pool fixture restores it
    first = cvcuda.Stream()
    handle = first._cv
    del first
    assert _stream.kept() == [] and pool.released == [handle]


def test_sync_and_collect_releases_the_kept_streams(pool):
    first = cvcuda.Stream()
    handle = first._cv
    del first
    cvcuda.sync_and_collect()  # without a device the C part does nothing
    assert _stream.kept() == [] and pool.released == [handle]


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


@pytest.mark.parametrize("status, raises", [(CUDA, CudaError), (lib.CV_ERROR_NO_DEVICE, cvcuda.NoDeviceError)])
def test_a_failed_create_raises_and_leaves_nothing(pool, status, raises):
    pool.create_answer = status
    with pytest.raises(raises):
        cvcuda.Stream()
    assert pool.created == [] and pool.released == [] and _stream.kept() == []


def test_a_stream_ending_while_an_exception_propagates_is_released_and_the_exception_kept(pool):
    """A Stream dropped while an exception unwinds the frame that holds it (here an operand on the evaluation stack)
    ends with that exception set: its release (a Python fake here) runs with the exception set aside, and the
    exception reaches the caller unchanged (nothing kept here)."""
    _stream.allow_kept(False)  # the pool fixture restores it
    with pytest.raises(ZeroDivisionError):
        (cvcuda.Stream(), 1 / 0)
    assert pool.released == pool.created and len(pool.created) == 1


class Named(cvcuda.Stream):
    """A subclass with an __init__ of its own, which calls Stream's."""

    __slots__ = ("name",)

    def __init__(self, device=None, name="x"):
        super().__init__(device)
        self.name = name


class Plain(cvcuda.Stream):
    __slots__ = ()


@pytest.mark.parametrize("make, name", [
    (lambda: Named(), "x"),
    (lambda: Named(name="y"), "y"),
    (lambda: Named(None, "z"), "z"),
    (lambda: Plain(), None),
    (lambda: Plain(device=None), None),
])
def test_subclasses_get_a_handle_through_stream_init(pool, make, name):
    stream = make()
    assert stream._cv == pool.created[-1] and len(pool.created) == 1
    assert getattr(stream, "name", None) == name
    handle = stream._cv
    del stream
    assert _stream.kept() == [handle]
    again = make()  # the kept handle, taken back by the subclass too
    assert again._cv == handle and len(pool.created) == 1


def test_a_stream_in_a_reference_cycle_is_collected_and_its_handle_kept(pool):
    stream = cvcuda.Stream()
    handle = stream._cv
    stream._cv = stream  # a cycle through the handle's attribute
    del stream
    gc.collect()
    assert _stream.kept() == [handle] and pool.released == []


@native  # the Python base's __init__ makes a second handle and loses the first (its hot path checks nothing)
def test_init_again_keeps_the_handle_and_checks_its_arguments(pool):
    stream = cvcuda.Stream()
    handle = stream._cv
    stream.__init__()
    assert stream._cv == handle and len(pool.created) == 1 and pool.released == []
    with pytest.raises(TypeError):
        stream.__init__(1, 2, 3)


def test_stream_has_the_python_signature_and_weak_references(pool):
    assert list(inspect.signature(cvcuda.Stream).parameters) == ["device"]
    assert inspect.signature(cvcuda.Stream).parameters["device"].default is None
    assert list(inspect.signature(Named).parameters) == ["device", "name"]
    stream = cvcuda.Stream()
    ref = weakref.ref(stream)
    assert ref() is stream
    del stream
    assert ref() is None


@native
@pytest.mark.parametrize("call, error, text", [
    (lambda: _stream._native.blank(int), TypeError, "subclass of StreamBase"),
    (lambda: _stream._native.bind(peek=0, query=1, release=1, create=1, wrap=int, make=int, raise_error=int, most=2),
     ValueError, "peek is NULL"),
    (lambda: _stream._native.bind(peek=1, query=1, release=1, create=1, wrap=int, make=int, raise_error=int, most=9),
     ValueError, "most=9"),
    (lambda: _stream._native.bind(peek=1, query=1, release=1, create=1, wrap=1, make=int, raise_error=int, most=2),
     TypeError, "callable"),
    (lambda: cvcuda.Stream()._own(ffi.NULL, 0), RuntimeError, "owns a handle already"),
    (lambda: cvcuda.Stream(1, device=2), TypeError, "at most 1 argument"),
])
def test_the_c_base_rejects_misuse(pool, call, error, text):
    with pytest.raises(error, match=text):
        call()


@native
def test_the_c_base_keeps_at_most_its_bound(pool):
    streams = [cvcuda.Stream() for _ in range(2)]
    del streams
    with pytest.raises(RuntimeError, match="keeps 2 handles already"):
        _stream.keep(ffi.cast("cvStream", 4))
