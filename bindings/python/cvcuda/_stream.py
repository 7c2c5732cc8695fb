"""cvcuda.Stream: CUDA streams, the per-thread current stream, and adoption of other libraries' streams."""

import collections
import ctypes
import functools
import threading
from typing import Any, Dict, Optional, Union

from ._errors import InvalidStateError, error_from_status
from ._ffi import ffi
from ._integers import integer
from . import _library
from ._library import lib

_local = threading.local()  # _local.stack: the streams entered with `with` on this thread, innermost last
_defaults: "Dict[int, Stream]" = {}  # device -> CUDA's legacy default stream of that device, adopted
_only_default: "Optional[Stream]" = None  # the one default stream of a process that sees one device
_adopted_torch = {}  # (device_index, cuda_stream) -> Stream: torch's pooled streams are never destroyed

# Bound once: Stream() is measured in microseconds.
_create = lib.cvStreamCreate
_create_on_device = lib.cvStreamCreateOnDevice
_stream_release = lib.cvStreamRelease
_peek = lib.cvStreamPeekReusable  # the GIL stays held through it in API mode (gen_ffi.GIL_KEPT)
_reusable = lib.cvStreamQueryReusable
_NOT_READY = lib.CV_NOT_READY
_cast = ffi.cast

# Released Stream() handles kept for the next Stream() (the kept store, newest last), in a process that sees one
# device, where every Stream() is on device 0: taking one back costs one cvStreamPeekReusable, which answers from the
# library's state with no CUDA call (and, in API mode, with the GIL held), against the C pool's cvStreamCreate +
# cvStreamRelease; only a stream that ran work, which only CUDA can say is idle, costs a cvStreamQueryReusable after
# it. Both hand one back only under the pool's own conditions (no other handle, no hazard state and no pending work
# holds the stream), so a kept handle is never given to a new owner while an as_stream() of its cudaStream_t, a
# tensor's writer or reader state or its work still holds it; a refused one is released to the C pool, which keeps it
# until those hold (docs/streams.md). A kept handle counts as live in cvcuda.stats() until sync_and_collect() releases
# it.
# Two implementations of these rules, one per process: in API mode, Stream's base class in C (_streambase.c beside
# this package's sources: Stream() is its tp_init and a Stream's end its tp_dealloc, with no Python frame: the kept
# path 0.059 against 0.226 us over bench/cffi_modes.py's stub, docs/perf.md); elsewhere _KeptBase below. The tests run the same rows against whichever
# the process has (tests/python/test_stream_kept.py; CI runs the suite in both modes).
# The store's functions, the same in both: kept() (the handles, oldest first), keep(handle), kept_allowed() (None
# until the first Stream() decides, then whether the process keeps handles), allow_kept(flag), release_kept().
_SPARE_MAX = 2
_native = _library.stream_base


def _address(cdata) -> int:
    return int(_cast("uintptr_t", cdata))


if _native is None:
    # A deque, not a list: a list that empties frees its storage and allocates it again at the next append, where a
    # deque keeps its block.
    _spare: collections.deque = collections.deque()
    _spare_pop = _spare.pop
    _spare_allowed = [None]  # [True] once the process is known to see exactly one device (decided at the first Stream())

    def kept() -> list:
        return list(_spare)

    def keep(handle) -> None:
        _spare.append(handle)

    def kept_allowed() -> Optional[bool]:
        return _spare_allowed[0]

    def allow_kept(flag: Optional[bool]) -> None:
        _spare_allowed[0] = flag

    def release_kept() -> None:
        """Releases the handles kept for the next Stream() to the C pool (cvcuda.sync_and_collect)."""
        while _spare:
            try:
                handle = _spare.pop()
            except IndexError:  # another thread took the last one
                return
            _stream_release(handle)

    def _own(stream: "Stream", cv) -> None:
        stream._cv = stream._release = cv

    _blank = object.__new__

    class _KeptBase:
        """Stream() and a Stream's end (the kept store) in Python."""

        # _release: the handle __del__ releases or keeps (Stream() only, whose _cv is the plain handle); unset where
        # _cv is an ffi.gc handle that releases itself (adopted and default streams, made off the hot path).
        __slots__ = ("_cv", "_release")

        def __init__(self, device: Any = None) -> None:
            if device is None and _spare:
                try:
                    cv = _spare_pop()
                except IndexError:  # another thread took the last one
                    pass
                else:
                    status = _peek(cv)
                    if status == _NOT_READY:  # not known idle: only CUDA can tell (the GIL released through this call)
                        status = _reusable(cv)
                    if not status:  # CV_SUCCESS: this handle alone holds the stream, and nothing is pending
                        self._cv = self._release = cv
                        return
                    _stream_release(cv)  # held elsewhere or busy: the C pool decides from here
                    if status != _NOT_READY:
                        raise error_from_status(lib, status)
            _create_into(self, device)

        # Bound at definition: module globals go at exit.
        def __del__(self, _stream_release=_stream_release, _spare=_spare, _allowed=_spare_allowed,
                    _most=_SPARE_MAX) -> None:
            try:
                handle = self._release
            except AttributeError:  # __init__ raised before the handle existed, or an adopted stream
                return
            if _allowed[0] and len(_spare) < _most:
                _spare.append(handle)
            else:
                _stream_release(handle)
else:
    def _raise_status(status: int) -> None:
        raise error_from_status(lib, status)

    def bind_native(peek=None, query=None, release=None, create=None) -> None:
        """Binds the C base to cvStreamPeekReusable, cvStreamQueryReusable, cvStreamRelease and cvStreamCreate, or to
        fakes of them (cffi function pointers, kept alive by the caller while bound: the tests')."""
        _native.bind(peek=_address(peek or ffi.addressof(lib, "cvStreamPeekReusable")),
                     query=_address(query or ffi.addressof(lib, "cvStreamQueryReusable")),
                     release=_address(release or ffi.addressof(lib, "cvStreamRelease")),
                     create=_address(create or ffi.addressof(lib, "cvStreamCreate")),
                     wrap=functools.partial(_cast, "cvStream"), make=_create_into, raise_error=_raise_status,
                     most=_SPARE_MAX)

    kept = _native.kept
    kept_allowed = _native.allowed
    allow_kept = _native.allow
    release_kept = _native.release_kept
    _blank = _native.blank
    _KeptBase = _native.StreamBase

    def keep(handle) -> None:
        _native.keep(handle, _address(handle))

    def _own(stream: "Stream", cv) -> None:
        stream._own(cv, _address(cv))


class _Scratch(threading.local):
    """Per-thread out-parameter of Stream() (read before the next call on the same thread). Cheaper than a per-call
    ffi.new in both cffi modes: Stream() 0.49 against 0.61 us in API mode, 0.68 against 0.78 in ABI mode over a stub
    library (docs/verification/logs/cffi-api-mode-devmachine.log, bench/cffi_modes.py)."""

    def __init__(self) -> None:
        self.out = ffi.new("cvStream *")


_scratch = _Scratch()


def _create_into(stream: "Stream", device: Any) -> None:
    """Gives `stream`, which holds no handle yet, a new one from the C pool (Stream() where no kept handle is taken):
    one C call, which reuses a released stream of the device whose work has completed when there is one
    (docs/streams.md). The handle is asked for only when needed (``handle``), which saves a call per stream."""
    out = _scratch.out
    index = None if device is None else device_index(device, "cvcuda.Stream: device")
    if index is None:
        status = _create(out)
    else:
        status = _create_on_device(index, ffi.NULL, out)
    if status:
        raise error_from_status(lib, status)
    # Released at the end by the base (keep or cvStreamRelease) rather than ffi.gc: a second cdata object per stream
    # cost about a fifth of Stream().
    _own(stream, out[0])
    if index is not None:
        stream._device = index
    if kept_allowed() is None:
        _current_device()
        allow_kept(_device_count == 1)


if _native is not None:
    bind_native()


class _StreamMeta(type):
    @property
    def current(cls) -> "Stream":
        """The current stream of the calling thread: the innermost ``with stream:`` block's stream (whatever its
        device), else :attr:`Stream.default` of the thread's current CUDA device. Other threads are not affected by
        this thread's ``with`` blocks. Raises :class:`NoDeviceError` when it would have to create
        :attr:`Stream.default` without a device."""
        stack = getattr(_local, "stack", None)
        return stack[-1] if stack else _default_stream()

    @property
    def default(cls) -> "Stream":
        """CUDA's legacy default stream (``handle == 0``) of the calling thread's CURRENT device (set with
        ``torch.cuda.set_device`` or ``with torch.cuda.device(n):``), adopted (never destroyed). Each device has its
        own: the object asked for while device 1 is current is another one than device 0's, with ``.device == 1``.
        It is the current stream outside any ``with`` block, as in the reference library (which has one for all
        devices). Created on first use per device (``import cvcuda`` does no CUDA work).
        Raises :class:`NoDeviceError` without a device."""
        return _default_stream()


class Stream(_KeptBase, metaclass=_StreamMeta):
    """A CUDA stream on which cvcuda operators enqueue their work.

    ``Stream(device=None)`` creates a new **non-blocking** stream (``cudaStreamNonBlocking``) on ``device``: an int
    CUDA device index, a ``torch.device("cuda", n)``, ``"cuda:n"``, or None / ``"cuda"`` for the calling thread's
    current device (``device`` is this library's addition: the reference creates streams on the current device
    only). Operators on the stream run on its device whatever the current device, which no cvcuda call changes;
    tensors they use must be on that device (another one raises :class:`InvalidArgumentError` naming both). The
    stream is not implicitly ordered with the legacy default stream nor with PyTorch's streams. cvcuda orders its work against
    other streams itself (CUDA events; see :func:`cvcuda.as_tensor` for producer streams), so no
    ``torch.cuda.synchronize()`` is needed before using a tensor on it.

    ``with stream:`` makes it the current stream (:attr:`Stream.current`) of the calling thread only, for operators
    called without ``stream=``; blocks nest, and leaving a block whose stream is not the thread's current one raises
    :class:`InvalidStateError` (a ``RuntimeError``, as in the reference library) unless an exception is already
    propagating, which then reaches the caller unchanged. The reference library documents a per-thread current stream
    but keeps one stack for all threads, so there a ``with`` block in one thread changes the current stream of the
    others; here each thread really has its own. ``with`` gives the stream itself (``with cvcuda.Stream() as s:``); the reference gives None.
    The stream lives while this object, or GPU work enqueued on it, lives; then it goes back to a pool (the package
    keeps up to 2 released streams itself, counted live in :func:`cvcuda.stats` until :func:`cvcuda.sync_and_collect`,
    the library's pool the rest), from which a later ``Stream()`` takes it again only once nothing else holds it and
    all work queued on it has completed (a new stream never waits behind old work: docs/streams.md), so its
    ``handle`` must not be used after that. ``int(stream)`` is :attr:`handle`. ``copy.copy`` and ``copy.deepcopy``
    return the stream itself (one CUDA stream has one owner).

    Raises ``TypeError`` for a ``device`` of another type (a bool, a float), ``ValueError`` for a non-CUDA device
    (``"cpu"``, ``torch.device("cpu")``, a malformed string), :class:`InvalidArgumentError` (a ``ValueError``) for an
    index this process has no device for (the message names the index and the devices there are),
    :class:`NoDeviceError` without a device, :class:`CudaError` if CUDA fails to create the stream or an earlier
    asynchronous failure surfaces while a kept stream is checked.
    """

    __slots__ = ("_handle", "_owner", "_device", "__weakref__")  # unset until known (read with getattr)

    def __copy__(self) -> "Stream":
        return self

    def __deepcopy__(self, memo: Any) -> "Stream":
        return self

    @property
    def device(self) -> int:
        """The CUDA device index the stream belongs to (where its work runs): the one it was created on, or for an
        adopted stream the one CUDA reports for it (its current device for the legacy default stream)."""
        device = getattr(self, "_device", None)
        if device is None:
            out = ffi.new("int32_t *")
            status = lib.cvStreamGetDevice(self._cv, out)
            if status:
                raise error_from_status(lib, status)
            device = self._device = out[0]
        return device

    @property
    def handle(self) -> int:
        """The ``cudaStream_t`` as an int (0 for the legacy default stream), e.g. for
        ``torch.cuda.ExternalStream(stream.handle)`` or ``cupy.cuda.ExternalStream``."""
        handle = getattr(self, "_handle", None)
        if handle is None:
            handle = self._handle = _cuda_handle(self._cv)
        return handle

    @property
    def id(self) -> int:
        """An identifier unique among live streams: the ``cudaStream_t`` itself, so streams adopted from one
        ``cudaStream_t`` (e.g. ``as_stream(s.handle)`` of a :class:`Stream` ``s``) share it with ``s`` (C handles are
        not identities: every adoption gets a handle of its own)."""
        return self.handle

    def __int__(self) -> int:
        return self.handle

    def wait_stream(self, other: "Stream") -> None:
        """Makes all work enqueued on this stream from now on wait until the work enqueued on ``other`` so far has
        completed: an event recorded on ``other``, waited on by this stream. Never blocks the host (the reference
        library's documentation says the same); legal during CUDA graph capture. ``wait_stream(self)`` is a no-op.
        ``other`` is anything :func:`as_stream` accepts.
        Raises :class:`InvalidArgumentError` for streams of different devices (the reference raises a CUDA error),
        :class:`CudaError` if CUDA fails, ``TypeError`` for a non-stream ``other``."""
        cv_other = other._cv if type(other) is Stream else as_stream(other)._cv
        status = lib.cvStreamWaitStream(self._cv, cv_other)
        if status:
            raise error_from_status(lib, status)

    def sync(self) -> None:
        """BLOCKS the calling thread (with the GIL released) until all work enqueued on this stream has completed,
        then releases what that work kept alive (see :func:`cvcuda.as_tensor`).
        Raises :class:`CudaError` if an earlier asynchronous failure surfaces."""
        status = lib.cvStreamSync(self._cv)
        if status:
            raise error_from_status(lib, status)

    def __enter__(self) -> "Stream":
        stack = getattr(_local, "stack", None)
        if stack is None:
            stack = _local.stack = []
        stack.append(self)
        return self

    def __exit__(self, exc_type: Any, exc_value: Any, traceback: Any) -> None:
        stack = getattr(_local, "stack", None) or []
        if stack and stack[-1] is self:
            stack.pop()
            return
        if exc_type is None:
            raise InvalidStateError(
                f"cvcuda.Stream.__exit__: {self!r} is not the current stream of this thread "
                f"(the current one is {(stack[-1] if stack else 'Stream.default')!r}); with-blocks must nest"
            )
        for i in range(len(stack) - 1, -1, -1):  # an exception is propagating: leave no stale entry behind
            if stack[i] is self:
                del stack[i]
                break

    def __repr__(self) -> str:
        kind = "adopted" if getattr(self, "_owner", None) is not None or self.handle == 0 else "owned"
        return f"<cvcuda.Stream handle=0x{self.handle:x} device={self.device} ({kind})>"


def _cuda_handle(cv_stream) -> int:
    out = ffi.new("void **")
    status = lib.cvStreamGetHandle(cv_stream, out)
    if status:
        raise error_from_status(lib, status)
    return int(ffi.cast("uintptr_t", out[0]))


def _adopt(cuda_stream: int, owner: Any) -> Stream:
    if not 0 <= cuda_stream < 2**64:
        raise ValueError(f"cvcuda.as_stream: {cuda_stream} is not a cudaStream_t value (0 <= handle < 2**64)")
    out = ffi.new("cvStream *")
    pointer = ffi.cast("void *", cuda_stream)
    status = lib.cvStreamWrap(pointer, out)
    if status:
        raise error_from_status(lib, status)
    stream = _blank(Stream)
    stream._cv = ffi.gc(out[0], lib.cvStreamRelease)
    stream._handle = _cuda_handle(stream._cv)
    stream._owner = owner  # keeps the producer's stream object (and so its cudaStream_t) alive
    stream._device = None
    return stream


_device_count: Optional[int] = None


def _current_device() -> int:
    """The calling thread's current CUDA device (0 without asking when the process sees a single device)."""
    global _device_count
    if _device_count is None:
        out = ffi.new("int32_t *")
        lib.cvDeviceGetCount(out)  # cannot fail: 0 without a device
        _device_count = out[0]
    if _device_count <= 1:
        return 0  # without a device, the default stream's C call then says so
    out = ffi.new("int32_t *")
    status = lib.cvDeviceGetCurrent(out)
    if status:
        raise error_from_status(lib, status)
    return out[0]


def default_of(device: int) -> Stream:
    """CUDA's legacy default stream of `device`, adopted once per device."""
    stream = _defaults.get(device)
    if stream is None:
        out = ffi.new("cvStream *")
        status = lib.cvStreamWrapDefault(device, out)
        if status:
            raise error_from_status(lib, status)
        stream = _blank(Stream)
        stream._cv = ffi.gc(out[0], lib.cvStreamRelease)
        stream._handle = 0
        stream._owner = None
        stream._device = device
        stream = _defaults.setdefault(device, stream)
    return stream


def _default_stream() -> Stream:
    """Stream.default: the default stream of the calling thread's current device."""
    global _only_default
    stream = _only_default
    if stream is not None:
        return stream
    stream = default_of(_current_device())
    if _device_count == 1:
        _only_default = stream
    return stream


def current_on(device: int) -> Stream:
    """The calling thread's current stream when it is on `device`, else `device`'s default stream: the stream a
    producer on `device` orders itself before when the caller named none (DLPack's stream lives on the array's
    device)."""
    stack = getattr(_local, "stack", None)
    if stack and stack[-1].device == device:
        return stack[-1]
    return default_of(device)


def device_index(device: Any, what: str) -> Optional[int]:
    """A device argument as a CUDA device index, None for the current device: an int (or ``__index__``, never a
    bool), a ``torch.device`` of type cuda, ``"cuda"`` or ``"cuda:n"``. The index itself is checked by C."""
    if isinstance(device, bool):
        raise TypeError(f"{what}={device!r} must be a CUDA device index (int), a torch.device or 'cuda:N', not a bool")
    if hasattr(type(device), "__index__"):
        index = integer(device, what)
        if not -(2**31) <= index < 2**31:
            raise ValueError(f"{what}={index} is not a CUDA device index (a small non-negative int)")
        return index
    if isinstance(device, str):
        kind, sep, index = device.partition(":")
        if kind == "cuda" and not sep:
            return None
        if kind == "cuda" and index.isdigit() and index.isascii():
            return int(index)
        raise ValueError(f"{what}={device!r} is not a CUDA device: expected 'cuda' or 'cuda:N' (N a device index)")
    kind = getattr(device, "type", None)
    if type(device).__name__ == "device" and isinstance(kind, str):  # torch.device
        if kind != "cuda":
            raise ValueError(f"{what}={device!r} is not a CUDA device (cvcuda works on CUDA devices only)")
        return device.index
    raise TypeError(f"{what} must be None, an int device index, a torch.device or a str such as 'cuda:0', got "
                    f"{type(device).__name__}")


def as_stream(stream: Union[Stream, int, Any]) -> Stream:
    """Adopts another library's CUDA stream without owning it (it is never destroyed by cvcuda).

    Accepts a :class:`Stream` (returned as is); a ``ctypes.c_void_p`` (its value; NULL is :attr:`Stream.default`);
    an integer ``cudaStream_t`` handle (an int or numpy integer, never a bool: see :mod:`cvcuda._integers`; 0 is
    :attr:`Stream.default`; 1 and 2 are CUDA's ``cudaStreamLegacy`` and ``cudaStreamPerThread``, the latter rejected
    with ``ValueError``: it names a different stream in each thread, which no cross-stream ordering can follow); an
    object with ``__cuda_stream__()`` (the CUDA stream protocol, returning ``(version, handle)``); a
    ``torch.cuda.Stream`` (its ``.cuda_stream``); a CuPy stream (its ``.ptr``). These are the reference library's
    overloads. The returned Stream keeps the given object alive; the caller keeps the underlying CUDA stream
    alive while work enqueued through cvcuda may still run on it. Does not block.
    Raises ``TypeError`` for other types, ``ValueError`` for a negative handle, :class:`NoDeviceError` without a
    device, :class:`CudaError` if CUDA rejects the handle.
    """
    if type(stream) is Stream:
        return stream
    if isinstance(stream, ctypes.c_void_p):
        stream = stream.value or 0
    if hasattr(type(stream), "__index__") and not isinstance(stream, bool):
        handle = integer(stream, "cvcuda.as_stream: stream")
        return _default_stream() if handle == 0 else _adopt(handle, None)
    handle = getattr(stream, "cuda_stream", None)
    if isinstance(handle, int):
        if type(stream).__name__ == "Stream" and type(stream).__module__.startswith("torch"):
            key = (stream.device_index, handle)
            cached = _adopted_torch.get(key)
            if cached is None:
                cached = _adopted_torch[key] = _adopt(handle, stream)
            return cached
        return _adopt(handle, stream)
    protocol = getattr(stream, "__cuda_stream__", None)
    if protocol is not None:
        return _adopt(int(protocol()[1]), stream)
    handle = getattr(stream, "ptr", None)
    if isinstance(handle, int):
        return _adopt(handle, stream)
    raise TypeError(
        f"cvcuda.as_stream: expected a cvcuda.Stream, an int cudaStream_t, a ctypes.c_void_p, a torch.cuda.Stream or "
        f"a CuPy stream, got {type(stream).__name__}"
    )


def stream_argument(stream: Any):
    """The cvStream handle for an operator's ``stream=`` argument (None: the thread's current stream)."""
    if stream is None:
        stack = getattr(_local, "stack", None)
        return (stack[-1] if stack else _default_stream())._cv
    if type(stream) is Stream:
        return stream._cv
    return as_stream(stream)._cv
