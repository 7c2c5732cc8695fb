"""cvcuda.Stream: CUDA streams, the per-thread current stream, and adoption of other libraries' streams."""

import ctypes
import threading
from typing import Any, Optional, Union

from ._errors import InvalidStateError, error_from_status
from ._ffi import ffi
from ._integers import integer
from ._library import lib

_local = threading.local()  # _local.stack: the streams entered with `with` on this thread, innermost last
_default: "Optional[Stream]" = None
_adopted_torch = {}  # (device_index, cuda_stream) -> Stream: torch's pooled streams are never destroyed

# Bound once: Stream() is measured in microseconds.
_create_with_handle = lib.cvStreamCreateWithHandle
_stream_release = lib.cvStreamRelease
_gc = ffi.gc
_cast = ffi.cast


class _Scratch(threading.local):
    """Per-thread out-parameters of Stream() (read before the next call on the same thread)."""

    def __init__(self) -> None:
        self.handle = ffi.new("void **")
        self.stream = ffi.new("cvStream *")


_scratch = _Scratch()


class _StreamMeta(type):
    @property
    def current(cls) -> "Stream":
        """The current stream of the calling thread: the innermost ``with stream:`` block's stream, else
        :attr:`Stream.default`. Other threads are not affected by this thread's ``with`` blocks.
        Raises :class:`NoDeviceError` when it would have to create :attr:`Stream.default` without a device."""
        stack = getattr(_local, "stack", None)
        return stack[-1] if stack else _default_stream()

    @property
    def default(cls) -> "Stream":
        """CUDA's legacy default stream (``handle == 0``) of the device current when first asked, adopted (never
        destroyed). It is the current stream outside any ``with`` block, as in the reference library. Created on
        first use (``import cvcuda`` does no CUDA work). Raises :class:`NoDeviceError` without a device."""
        return _default_stream()


class Stream(metaclass=_StreamMeta):
    """A CUDA stream on which cvcuda operators enqueue their work.

    ``Stream()`` creates a new **non-blocking** stream (``cudaStreamNonBlocking``) on the current device: it is not
    implicitly ordered with the legacy default stream nor with PyTorch's streams. cvcuda orders its work against
    other streams itself (CUDA events; see :func:`cvcuda.as_tensor` for producer streams), so no
    ``torch.cuda.synchronize()`` is needed before using a tensor on it.

    ``with stream:`` makes it the current stream (:attr:`Stream.current`) of the calling thread only, for operators
    called without ``stream=``; blocks nest, and leaving a block whose stream is not the thread's current one raises
    :class:`InvalidStateError` (a ``RuntimeError``, as in the reference library) unless an exception is already
    propagating, which then reaches the caller unchanged. The reference library documents a per-thread current stream
    but keeps one stack for all threads, so there a ``with`` block in one thread changes the current stream of the
    others; here each thread really has its own. ``with`` gives the stream itself (``with cvcuda.Stream() as s:``); the reference gives None.
    The stream lives while this object, or GPU work enqueued on it, lives. ``int(stream)`` is :attr:`handle`.

    Raises :class:`NoDeviceError` without a device, :class:`CudaError` if CUDA fails to create the stream.
    """

    __slots__ = ("_cv", "_handle", "_owner", "__weakref__")

    def __init__(self) -> None:
        # One C call, which reuses an idle released stream when there is one (no CUDA stream creation then).
        scratch = _scratch
        status = _create_with_handle(scratch.handle, scratch.stream)
        if status:
            raise error_from_status(lib, status)
        self._cv = _gc(scratch.stream[0], _stream_release)
        self._handle = int(_cast("uintptr_t", scratch.handle[0]))
        self._owner = None

    @property
    def handle(self) -> int:
        """The ``cudaStream_t`` as an int (0 for the legacy default stream), e.g. for
        ``torch.cuda.ExternalStream(stream.handle)`` or ``cupy.cuda.ExternalStream``."""
        return self._handle

    @property
    def id(self) -> int:
        """An identifier unique among live streams: the ``cudaStream_t`` itself, so streams adopted from one
        ``cudaStream_t`` (e.g. ``as_stream(s.handle)`` of a :class:`Stream` ``s``) share it with ``s`` (C handles are
        not identities: every adoption gets a handle of its own)."""
        return self._handle

    def __int__(self) -> int:
        return self._handle

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
        kind = "adopted" if self._owner is not None or self._handle == 0 else "owned"
        return f"<cvcuda.Stream handle=0x{self._handle:x} ({kind})>"


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
    stream = Stream.__new__(Stream)
    stream._cv = ffi.gc(out[0], lib.cvStreamRelease)
    stream._handle = _cuda_handle(stream._cv)
    stream._owner = owner  # keeps the producer's stream object (and so its cudaStream_t) alive
    return stream


def _default_stream() -> Stream:
    global _default
    if _default is None:
        _default = _adopt(0, None)
    return _default


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
