"""cvcuda.Tensor, its CAI export (Tensor.cuda()), and cvcuda.as_tensor: zero-copy wrapping of foreign GPU memory
with its Python owner kept alive until the GPU no longer uses it."""

import itertools
import sys
import threading
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy

from ._errors import NotSupportedError, error_from_status
from ._ffi import ffi
from ._integers import integer, integers
from ._library import lib
from ._types import TensorLayout

_MAX_DIMS = lib.CV_MAX_DIMS
_ABSENT = lib.CV_CAI_STREAM_ABSENT
_NONE = lib.CV_CAI_STREAM_NONE
_INTEGER = lib.CV_CAI_STREAM_INTEGER
_UNSPECIFIED = lib.CV_DTYPE_UNSPECIFIED
_BFLOAT16 = lib.CV_DTYPE_BFLOAT16
_CAI_SIZE = ffi.sizeof("cvArrayInterface")
_NULL = ffi.NULL

# Bound once: the call paths below are measured in microseconds.
_wrap = lib.cvTensorWrap
_create = lib.cvTensorCreate
_release = lib.cvTensorRelease
_set_cleanup = lib.cvTensorSetCleanup
_gc = ffi.gc
_cast = ffi.cast
_new_object = object.__new__


class _Scratch(threading.local):
    """Per-thread argument structs, reused by every call (the library copies what it needs during the call)."""

    def __init__(self) -> None:
        self.cai = ffi.new("cvArrayInterface *")
        self.cai.structSize = _CAI_SIZE
        self.tensor = ffi.new("cvTensor *")
        # The torch bridge's structs, with the fields that never change on its two paths written once: CAI v2 with no
        # stream key (torch's own export) and, for cvcuda.tv, CAI v3 with stream -1.
        self.torch_cai = ffi.new("cvArrayInterface *", {"structSize": _CAI_SIZE, "version": 2, "streamKind": _ABSENT})
        self.ready_cai = ffi.new("cvArrayInterface *",
                                 {"structSize": _CAI_SIZE, "version": 3, "streamKind": _INTEGER, "stream": -1})


_scratch = _Scratch()

# --- keep-alive: the producer's Python object lives until the library's cleanup callback says the memory is unused.
_owners: Dict[int, Any] = {}
_next_key = itertools.count(1).__next__
_owner_lock = threading.Lock()
_keepalive = True
_order_cai_release = True


def _debug_disable_cai_release_order(disabled: bool = True) -> None:
    """PRIVATE, for the CAI export lifetime test's negative control only: a dropped CudaArray no longer orders the
    release of its tensor's memory after the consumers' current streams."""
    global _order_cai_release
    _order_cai_release = not disabled


@ffi.callback("void(void *)")
def _release_owner(user_data):
    # Runs inside a library call (release, sync, operator) once the tensor is gone and its GPU work has completed.
    try:
        _owners.pop(int(_cast("uintptr_t", user_data)), None)
    except BaseException:  # interpreter shutdown: the owner dies with the process anyway
        pass


def _debug_disable_keepalive(disabled: bool = True) -> None:
    """PRIVATE, for the lifetime test's negative control only: tensors wrapped while disabled do not keep their
    producer's object alive at all, so its memory can be freed and reused while the GPU still reads it."""
    global _keepalive
    _keepalive = not disabled


def _adopt_wrapped(handle, owner) -> "Tensor":
    """A Tensor for a fresh handle from cvTensorWrap. It holds `owner`; the first operator that uses the tensor hands
    it to the library's cleanup callback (_hold_owner), so wrapping alone costs no callback."""
    tensor = _new_object(Tensor)
    tensor._cv = handle  # released by Tensor.__del__
    tensor._info = None
    tensor._like = None
    tensor._owner = owner if _keepalive else None
    return tensor


def _hold_owner(tensor: "Tensor") -> None:
    """Called by operators before the tensor's first GPU use: from now on the owner lives until the library says the
    memory is unused (its last reference gone and its GPU work completed), however long the Tensor lives."""
    with _owner_lock:
        owner = tensor._owner
        if owner is None:
            return
        tensor._owner = None
        key = _next_key()
        _owners[key] = owner
    status = _set_cleanup(tensor._cv, _release_owner, _cast("void *", key))
    if status:
        tensor._owner = _owners.pop(key)
        raise error_from_status(lib, status)


def _adopt_owned(handle, like=None) -> "Tensor":
    """A Tensor for a fresh handle from cvTensorCreate; `like`: its Tensor._make_like tuple when already known."""
    tensor = _new_object(Tensor)
    tensor._cv = handle  # released by Tensor.__del__
    tensor._info = None
    tensor._like = like
    tensor._owner = None
    return tensor


_layouts: Dict[str, bytes] = {}  # layouts seen, encoded: most programs use a handful


def _layout_argument(layout: Any, function: str):
    """A layout argument (a str or TensorLayout, or None; "" and TensorLayout.NONE are no layout) as C's char *."""
    if layout is None:
        return _NULL
    encoded = _layouts.get(layout) if layout.__class__ is str else None
    if encoded is not None:
        return encoded
    if not isinstance(layout, str):
        raise TypeError(f"{function}: layout must be a str such as 'NHWC', a cvcuda.TensorLayout or None, got "
                        f"{type(layout).__name__}")
    try:
        encoded = str.encode(layout, "ascii")
    except UnicodeEncodeError:
        raise ValueError(f"{function}: layout={layout!r} must be ASCII labels such as 'NHWC'") from None
    if b"\0" in encoded:
        raise ValueError(f"{function}: layout={layout!r} contains a NUL character")
    if not encoded:
        return _NULL
    if layout.__class__ is str and len(_layouts) < 64:
        _layouts[layout] = encoded
    return encoded


# --- dtypes: numpy (and torch) spellings -> cvDataType, through the C table (cvDataTypeFromTypestr).
def _cv_dtype(dtype: Any) -> int:
    torch = sys.modules.get("torch")
    if torch is not None and isinstance(dtype, torch.dtype):
        entry = _torch_dtypes(torch).get(dtype)
        if entry is None:
            raise NotSupportedError(f"cvcuda.Tensor: torch dtype {dtype} is not supported")
        return entry[1] or _from_typestr(entry[0].decode())
    if isinstance(dtype, str) and dtype == "bfloat16":
        return _BFLOAT16
    try:
        npdtype = numpy.dtype(dtype)
    except TypeError as exc:
        raise TypeError(f"cvcuda.Tensor: dtype={dtype!r} is not a numpy dtype, torch dtype or 'bfloat16' ({exc})") from None
    if npdtype.name == "bfloat16":  # ml_dtypes.bfloat16 (its typestr is the opaque '<V2')
        return _BFLOAT16
    return _from_typestr(npdtype.str)


def _from_typestr(typestr: str) -> int:
    out = ffi.new("cvDataType *")
    status = lib.cvDataTypeFromTypestr(typestr.encode("ascii"), out)
    if status:
        raise error_from_status(lib, status)
    return out[0]


def _numpy_dtype(cv_dtype: int) -> numpy.dtype:
    if cv_dtype == _BFLOAT16:
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError(
                "cvcuda: this tensor's dtype is bfloat16, which numpy lacks; install ml_dtypes "
                "(pip install ml_dtypes) to get it as a numpy dtype"
            ) from None
        return numpy.dtype(ml_dtypes.bfloat16)
    return numpy.dtype(ffi.string(lib.cvDataTypeTypestr(cv_dtype)).decode())


class Tensor:
    """An n-d array in GPU memory, described by shape, element type, byte strides and an optional layout.

    ``Tensor(shape, dtype, layout=None, rowalign=0)`` allocates a C-contiguous tensor on the current device (see
    :attr:`device`; operators allocate their outputs on their stream's device instead); its
    memory is uninitialised and is freed (stream-ordered) once the last reference is gone and every GPU operation
    using it has completed. The allocation is stream-ordered on a library-internal stream that every operator waits
    for. The arguments are the reference library's.

    :param shape: extents in elements, outermost first, at most ``CV_MAX_DIMS`` (8) of them: a tuple or list of
        integers (ints or numpy integers, never bools: the package's rule, see :mod:`cvcuda._integers`).
    :param dtype: anything ``numpy.dtype()`` accepts (``numpy.uint8``, ``"float32"``, :class:`cvcuda.Type` members,
        ...), a ``torch.dtype``, or ``"bfloat16"`` / ``ml_dtypes.bfloat16``. Supported: bool, (u)int8/16/32/64,
        float16, bfloat16, float32/64, complex64/128.
    :param layout: one upper-case label per dimension from N, C, H, W, D, F (``"NHWC"`` or
        :class:`cvcuda.TensorLayout`), or None.
    :param rowalign: the alignment in bytes the reference gives the row pitch (the stride of H, else of the
        second-innermost dimension); 0 or a power of two. Rows here are packed, so a ``rowalign`` that the packed row
        size is not a multiple of raises NotSupportedError rather than being ignored.
    :raises TypeError: shape, dtype, layout or rowalign of a wrong Python type.
    :raises ValueError: a rowalign that is negative or not a power of two; a layout with a NUL character.
    :raises InvalidArgumentError: a negative extent, too many dimensions, a bad layout (the message names it).
    :raises NotSupportedError: an unsupported dtype (e.g. complex256), a rowalign the packed rows do not meet.
    :raises NoDeviceError, OutOfMemoryError, CudaError: from the allocation.

    Tensors returned by :func:`as_tensor` wrap foreign memory instead (never freed by cvcuda).
    """

    # _export (set by the first cuda(), unset until then): the immutable parts of the tensor's CAI.
    __slots__ = ("_cv", "_info", "_like", "_owner", "_export", "__weakref__")

    def __init__(self, shape: Sequence[int], dtype: Any, layout: Optional[str] = None, rowalign: int = 0) -> None:
        cv_dtype = _cv_dtype(dtype)
        layout_arg = _layout_argument(layout, "cvcuda.Tensor")
        extents = integers(shape, "cvcuda.Tensor: shape")
        _check_rowalign(extents, cv_dtype, layout_arg, integer(rowalign, "cvcuda.Tensor: rowalign"))
        out = ffi.new("cvTensor *")
        status = _create(len(extents), ffi.new("int64_t[]", extents or (0,)), cv_dtype, layout_arg, out)
        if status:
            raise error_from_status(lib, status)
        self._cv = out[0]  # released by __del__
        self._info = None
        self._like = None
        self._owner = None

    def __del__(self, _release=_release) -> None:  # bound at definition: module globals go at exit
        # The handle is released here rather than by an ffi.gc wrapper, a second cdata object per tensor: an
        # allocating operator makes one tensor per call.
        try:
            handle = self._cv
        except AttributeError:  # __init__ raised before the handle existed
            return
        _release(handle)

    def _get_info(self):
        info = ffi.new("cvTensorInfo *")
        info.structSize = ffi.sizeof("cvTensorInfo")
        status = lib.cvTensorGetInfo(self._cv, info)
        if status:
            raise error_from_status(lib, status)
        self._info = info
        return info

    def _make_like(self):
        """(ndim, shape, dtype, layout, owner) with the first four as cvTensorCreate arguments, for operators that
        allocate their output; new_like gives the output the same tuple."""
        info = self._info or self._get_info()
        layout = ffi.string(info.layout)
        # info.shape is passed as the shape array itself (no copy), a view into the struct, which cffi does not keep
        # alive for it: the tuple holds the struct, so the shape stays valid wherever the tuple goes.
        self._like = (info.ndim, info.shape, info.dtype, layout or _NULL, info)
        return self._like

    @property
    def shape(self) -> Tuple[int, ...]:
        """Extents in elements, outermost first."""
        info = self._info or self._get_info()
        return tuple(info.shape[0 : info.ndim])

    @property
    def ndim(self) -> int:
        """Number of dimensions (0 to 8)."""
        return (self._info or self._get_info()).ndim

    @property
    def strides(self) -> Tuple[int, ...]:
        """Strides in BYTES (as in the CUDA Array Interface), always explicit; may be negative or zero."""
        info = self._info or self._get_info()
        return tuple(info.strides[0 : info.ndim])

    @property
    def dtype(self) -> numpy.dtype:
        """The element type as a numpy dtype; bfloat16 is ``ml_dtypes.bfloat16`` (raises ``TypeError`` with
        install instructions when ml_dtypes is missing)."""
        return _numpy_dtype((self._info or self._get_info()).dtype)

    @property
    def device(self) -> int:
        """The CUDA device index holding the memory (an int, as :attr:`Stream.device`; ``torch.device(t.device)`` is
        ``cuda:N``; the reference library has no such property). For wrapped memory it is read from the pointer
        (``cudaPointerGetAttributes``), whatever the current device: a torch tensor on ``cuda:1`` wrapped while
        device 0 is current reports 1, and operators on it need a stream of device 1 (``cvcuda.Stream(device=1)``,
        ``stream=torch.cuda.current_stream(1)``, or ``with torch.cuda.device(1):`` so that :attr:`Stream.current`
        is device 1's). An empty wrapped tensor reports the current device. Never blocks.
        :raises InvalidArgumentError: wrapped memory that is not device memory. :raises NoDeviceError."""
        return _dlpack.dlpack_device(self)[1]

    @property
    def layout(self) -> Optional[TensorLayout]:
        """The layout as a :class:`TensorLayout` (a ``str``: ``t.layout == "NHWC"``), or None when it has none."""
        layout = ffi.string((self._info or self._get_info()).layout)
        return TensorLayout(layout.decode()) if layout else None

    def reshape(self, shape: Sequence[int], layout: Optional[str] = None) -> "Tensor":
        """A view of the same memory with another shape and layout (the reference's ``Tensor.reshape``; also
        :func:`cvcuda.reshape`). The view shares the memory's stream-ordering state with this tensor (pending writes
        on either are waited for by operations on the other) and keeps this tensor alive as long as the view or its
        GPU work lives.

        :param shape: the new extents (integers); their product must equal this tensor's element count.
        :param layout: the view's layout (str or :class:`TensorLayout`), or None for no layout (as the reference:
            the layout is not carried over, since the dimensions change).
        This tensor must be C-contiguous (a tensor made by :class:`Tensor` or by an operator is; a strided wrapper
        is rejected rather than copied). Does not block, except once for a wrapper whose producer stream is unknown
        and that no operation has used yet: it pays its defensive device synchronisation here, as
        :meth:`cuda` does (see :func:`as_tensor`).
        :raises TypeError: shape or layout of a wrong type. :raises ValueError: another element count, a strided
            tensor. :raises InvalidArgumentError: a bad layout or a negative extent (C's message).
        """
        extents = integers(shape, "cvcuda.Tensor.reshape: shape")
        layout_arg = _layout_argument(layout, "cvcuda.Tensor.reshape")
        info = self._info or self._get_info()
        n = info.ndim
        current = tuple(info.shape[0:n])
        if _product(extents) != _product(current) or any(e < 0 for e in extents):
            raise ValueError(f"cvcuda.Tensor.reshape: shape={extents} does not hold the {_product(current)} elements "
                             f"of shape={current}")
        itemsize = lib.cvDataTypeItemSize(info.dtype)
        if _product(current) > 0 and not _contiguous(current, itemsize, tuple(info.strides[0:n])):
            raise ValueError(f"cvcuda.Tensor.reshape: the tensor (shape={current}, strides={tuple(info.strides[0:n])} "
                             f"bytes) is not C-contiguous, so no view of shape={extents} exists")
        # The export carries the memory's pending-writer stream (or None) and settles an unknown producer, so the
        # view, which finds the same memory's hazard state, starts exactly where this tensor is.
        cai = ffi.new("cvArrayInterface *")
        cai.structSize = _CAI_SIZE
        writer = ffi.new("cvStream *")
        status = lib.cvTensorExport(self._cv, cai, writer)
        if status:
            raise error_from_status(lib, status)
        writer_stream = _gc(writer[0], lib.cvStreamRelease) if writer[0] != _NULL else None
        k = len(extents)
        cai.ndim = k
        cai.shape[0:k] = extents
        cai.hasStrides = 0
        out = ffi.new("cvTensor *")
        status = _wrap(cai, layout_arg, out)
        if status:
            raise error_from_status(lib, status)
        return _adopt_wrapped(out[0], (self, writer_stream))

    def cuda(self) -> "CudaArray":
        """Describes this tensor as a CUDA Array Interface v3 object, zero-copy: ``torch.as_tensor(t.cuda())``,
        ``cupy.asarray(t.cuda())`` share its memory.

        The CAI ``stream`` is the stream of the last write still pending on the tensor (None when nothing is
        pending; never 0, 1 or 2). CAI v3 consumers such as CuPy wait on it; **PyTorch ignores it**, so call
        ``stream.sync()`` before ``torch.as_tensor(t.cuda())`` when the tensor was just written.
        The returned object keeps this tensor and that stream alive. For a wrapper whose producer stream is unknown
        (e.g. a PyTorch tensor), the first export pays the defensive device synchronisation, as a first use does.
        Caveats of consumers: ``torch.as_tensor`` raises on ``readonly`` data and aborts the process on negative
        strides (which only wrapped CuPy/numba views can have here) — copy such tensors with another library first.
        Does not block otherwise. Raises :class:`NoDeviceError`, :class:`CudaError`.
        """
        scratch = _export_scratch
        cai = scratch.cai
        status = _export(self._cv, cai, scratch.writer)  # the one C call: everything but the stream is cached
        if status:
            raise error_from_status(lib, status)
        try:
            base = self._export
        except AttributeError:
            base = self._export = _export_base(cai)
        writer = scratch.writer[0]
        if writer == _NULL:
            return CudaArray(self, base, None, None)
        return CudaArray(self, base, _gc(writer, _stream_release), _shared_value(_shared_streams, cai.stream))

    def __dlpack__(self, *, stream: Optional[int] = None, max_version: Optional[Tuple[int, int]] = None,
                   dl_device: Optional[Tuple[int, int]] = None, copy: Optional[bool] = None) -> Any:
        """Exports this tensor through DLPack (Python array API standard; DLPack 1.1), zero-copy unless ``copy=True``:
        ``torch.from_dlpack(t)``, ``cupy.from_dlpack(t)``.

        :param stream: the consumer's stream, DLPack values: None or 1 = the legacy default stream of the tensor's
            device, an int > 2 = a ``cudaStream_t`` (of the tensor's device); it waits (event, no host sync) on the
            writes still pending on the memory, and on pending reads too unless the tensor is read-only; -1 = no
            synchronisation. 0 and 2 raise BufferError.
        :param max_version: ``>= (1, 0)`` gives a "dltensor_versioned" capsule with the read-only flag; None or
            older gives the legacy "dltensor" capsule (a read-only tensor then raises BufferError).
        :param dl_device: must equal :meth:`__dlpack_device__` (BufferError otherwise: no cross-device copy).
        :param copy: True = a copy made on the consumer's stream (flagged IS_COPIED); False or None = never a copy.
        :returns: a PyCapsule. Its deleter (called once by the consumer, or when an unconsumed capsule is collected)
            records an event on the consumer's stream: this tensor's memory is released, and later cvcuda writes to it
            wait, only after the work the consumer had queued on it (the consumer stream must still exist then).
        DLTensor strides are in elements (``Tensor.strides`` are bytes). A wrapper whose producer stream is unknown
        pays its one defensive device sync here, as a first use does.
        :raises BufferError, CudaError, InvalidStateError (the defensive sync while the consumer stream captures).
        """
        return _dlpack.export(self, stream, max_version, dl_device, copy)

    def __dlpack_device__(self) -> Tuple[int, int]:
        """``(2, device)``: DLPack's kDLCUDA and the CUDA device holding the memory."""
        return _dlpack.dlpack_device(self)

    def __repr__(self) -> str:
        info = self._info or self._get_info()
        dtype = ffi.string(lib.cvDataTypeName(info.dtype)).decode()
        layout = ffi.string(info.layout).decode() or None
        owner = "owned" if info.ownsMemory else "wrapped"
        return (f"<cvcuda.Tensor shape={self.shape} dtype={dtype} layout={layout!r} strides={self.strides} "
                f"data=0x{info.data:x}{' readonly' if info.readonly else ''} ({owner})>")


def _product(extents: Sequence[int]) -> int:
    p = 1
    for e in extents:
        p *= e
    return p


def _contiguous(shape: Tuple[int, ...], itemsize: int, strides: Tuple[int, ...]) -> bool:
    """C-contiguous, ignoring the strides of size-1 dimensions (numpy's rule)."""
    expected = itemsize
    for extent, stride in zip(reversed(shape), reversed(strides)):
        if extent != 1 and stride != expected:
            return False
        expected *= extent
    return True


def _check_rowalign(shape: Tuple[int, ...], cv_dtype: int, layout: Any, rowalign: int) -> None:
    if rowalign < 0 or rowalign & (rowalign - 1):
        raise ValueError(f"cvcuda.Tensor: rowalign={rowalign} must be 0 or a power of two (bytes)")
    if rowalign <= 1 or len(shape) < 2:
        return
    labels = layout.decode() if isinstance(layout, bytes) else ""
    row_dim = labels.index("H") if "H" in labels and len(labels) == len(shape) else len(shape) - 2
    pitch = lib.cvDataTypeItemSize(cv_dtype) * _product(shape[row_dim + 1:])
    if pitch % rowalign:
        raise NotSupportedError(f"cvcuda.Tensor: rowalign={rowalign} needs padded rows, but tensors here are packed "
                                f"and a row of shape={shape} is {pitch} bytes; use rowalign=0")


def reshape(tensor: Tensor, shape: Sequence[int], layout: Optional[str] = None) -> Tensor:
    """``tensor.reshape(shape, layout)`` (the reference's module-level spelling): see :meth:`Tensor.reshape`.
    Raises TypeError when ``tensor`` is not a :class:`Tensor`."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"cvcuda.reshape: tensor must be a cvcuda.Tensor, got {type(tensor).__name__}")
    return tensor.reshape(shape, layout)


class CudaArray:
    """The CUDA Array Interface (v3) view of a :class:`Tensor`, returned by :meth:`Tensor.cuda`.

    ``__cuda_array_interface__`` is a dict with ``shape``, ``typestr``, ``data`` (pointer, readonly), ``version``
    (3), ``strides`` (bytes, always explicit) and ``stream`` (int ``cudaStream_t`` of the pending writer, or None).
    bfloat16 is exported as the opaque typestr ``'<V2'`` (as PyTorch does); :func:`as_tensor` given this object
    keeps the exact dtype and the layout. Keeps the tensor and the advertised stream alive.
    """

    __slots__ = ("tensor", "_writer", "_base", "_stream", "_interface", "_read")

    def __init__(self, tensor: Tensor, base, writer, stream: Optional[int]) -> None:
        # base: (the tensor's CAI struct with stream None, shape, typestr, data, strides), made once per tensor. The
        # struct says None because wrapping it back finds the memory's hazard state, which orders the new wrapper.
        self.tensor = tensor
        self._writer = writer  # the advertised stream must outlive every consumer of this dict (CAI v3)
        self._base = base
        self._stream = stream
        self._interface: Optional[Dict[str, Any]] = None  # made on first read: an export handed on unread needs none
        self._read = False

    @property
    def __cuda_array_interface__(self) -> Dict[str, Any]:
        """The CAI dict (the same object on every read). Reading it marks the export as consumed (see ``__del__``)."""
        interface = self._interface
        if interface is None:
            base = self._base
            interface = self._interface = {"shape": base[1], "typestr": base[2], "data": base[3], "version": 3,
                                           "strides": base[4], "stream": self._stream}
        self._read = True
        return interface

    def __del__(self) -> None:
        # The consumer (torch.as_tensor keeps this object as its tensor's owner) drops it right after queuing reads
        # on its current stream; the memory must not be released before they ran (docs/streams.md, "Exports"). An
        # export whose dict nobody read has no consumer, so nothing can be queued on the memory through it.
        if self._read and _order_cai_release:
            _dlpack.order_release_after_consumers(self.tensor)

    def __repr__(self) -> str:
        return f"<cvcuda.CudaArray {self.__cuda_array_interface__!r}>"


class _ExportScratch(threading.local):
    """Per-thread out-parameters of Tensor.cuda() (read before the next export on the same thread)."""

    def __init__(self) -> None:
        self.cai = ffi.new("cvArrayInterface *")
        self.cai.structSize = _CAI_SIZE
        self.writer = ffi.new("cvStream *")


_export_scratch = _ExportScratch()
_export = lib.cvTensorExport
_stream_release = lib.cvStreamRelease


# PyTorch's torch.as_tensor(obj) (tensor_from_cuda_array_interface, torch 2.x) takes a reference to each value it
# reads from the CAI dict ("shape", "typestr", "data", "strides") and never drops it: every value object it has read
# lives for the rest of the process. Fresh objects per exported tensor would leak about 330 bytes per
# torch.as_tensor(t.cuda()) of a new tensor. So the values are shared: one object per distinct value, from tables of
# bounded size (past the bound values are made anew, and only torch's references pin them).
_SHARED_MAX = 4096
_shared_tuples: Dict[Tuple[int, ...], Tuple[int, ...]] = {}  # shapes and strides (ints only)
_shared_data: Dict[Tuple[int, bool], Tuple[int, bool]] = {}  # (pointer, readonly)
_shared_strs: Dict[str, str] = {}  # typestrs
_shared_streams: Dict[int, int] = {}  # advertised stream handles


def _shared_value(table: Dict[Any, Any], value: Any) -> Any:
    """The object of `table` equal to `value` (added when there is room), else `value` itself."""
    shared = table.get(value)
    if shared is not None:
        return shared
    if len(table) < _SHARED_MAX:
        table[value] = value
    return value


def _export_base(cai):
    """The parts of a tensor's CAI that never change, from its first export (shared objects, see _shared_value), and
    a copy of the struct that says stream None (see CudaArray)."""
    n = cai.ndim
    own = ffi.new("cvArrayInterface *")
    ffi.memmove(own, cai, _CAI_SIZE)
    own.streamKind = _NONE
    own.stream = 0
    return (own, _shared_value(_shared_tuples, tuple(cai.shape[0:n])),
            _shared_value(_shared_strs, ffi.string(cai.typestr).decode()),
            _shared_value(_shared_data, (cai.data, bool(cai.readonly))),
            _shared_value(_shared_tuples, tuple(cai.strides[0:n])))


# --- as_tensor
def _key_error(key: str, value: Any, rule: str, exc_type=TypeError):
    return exc_type(f"cvcuda.as_tensor: __cuda_array_interface__[{key!r}]={value!r} {rule}")


def _key_integers(key: str, values: tuple) -> tuple:
    """`values` (a tuple) as plain ints under the package's integer rule; the common all-int case costs one scan."""
    for v in values:
        if v.__class__ is not int:
            break
    else:
        return values
    try:
        return tuple([integer(v, "") for v in values])
    except TypeError:
        raise _key_error(key, values, "must hold ints (int or __index__, never bool)") from None


def _key_integer(key: str, value: Any, d_value: Any) -> int:
    if value.__class__ is int:
        return value
    try:
        return integer(value, "")
    except TypeError:
        raise _key_error(key, d_value, "must hold ints (int or __index__, never bool)") from None


_typestrs: Dict[str, bytes] = {}  # typestrs seen, ASCII-encoded: most programs use a handful


def _encode_typestr(typestr: Any) -> bytes:
    if type(typestr) is not str:
        raise _key_error("typestr", typestr, "must be a str such as '|u1' or '<f4'")
    try:
        encoded = typestr.encode("ascii")
    except UnicodeEncodeError:
        raise _key_error("typestr", typestr, "is not a numpy typestr (non-ASCII)", ValueError) from None
    if b"\0" in encoded:
        raise _key_error("typestr", typestr, "contains a NUL character", ValueError)
    if len(encoded) >= 16:
        raise _key_error("typestr", typestr, "is too long to be a numpy typestr", ValueError)
    if len(_typestrs) < 64:
        _typestrs[typestr] = encoded
    return encoded


_RANGES = (("version", -(2**31), 2**31 - 1), ("shape", -(2**63), 2**63 - 1), ("data", 0, 2**64 - 1),
           ("strides", -(2**63), 2**63 - 1), ("stream", -(2**63), 2**63 - 1))


def _fill_from_dict(cai, d: Any) -> None:
    """Translates a __cuda_array_interface__ dict into `cai` in two phases: first every value becomes a plain Python
    value (int, bytes, None), which runs all the user code the dict can hold (``__index__``, ``__bool__``,
    ``__len__`` of its values); only then is the shared per-thread struct written, by code that runs none, so a
    nested as_tensor from such user code cannot corrupt this call. Only what C cannot see is checked here (Python
    types, missing keys, mask, the fixed capacity of the struct, NUL bytes); the C library validates the values."""
    if type(d) is not dict:
        raise TypeError(f"cvcuda.as_tensor: __cuda_array_interface__ must be a dict, got {type(d).__name__}")
    try:
        shape = d["shape"]
        typestr = d["typestr"]
        data = d["data"]
        version = d["version"]
    except KeyError as exc:
        raise ValueError(f"cvcuda.as_tensor: __cuda_array_interface__ lacks the required key {exc.args[0]!r}") from None
    strides = d.get("strides")
    mask = d.get("mask")
    has_stream = "stream" in d
    stream = d.get("stream")

    if version.__class__ is not int:
        version = _key_integer("version", version, version)
    if shape.__class__ is not tuple:
        if not isinstance(shape, (tuple, list)):
            raise _key_error("shape", shape, "must be a tuple of ints")
        shape = tuple(shape)  # a snapshot: nothing below can change its length
    n = len(shape)
    if n > _MAX_DIMS:
        raise _key_error("shape", shape, f"has {n} dimensions; at most CV_MAX_DIMS={_MAX_DIMS} are supported",
                         ValueError)
    shape = _key_integers("shape", shape)

    encoded = _typestrs.get(typestr) if typestr.__class__ is str else None
    if encoded is None:
        encoded = _encode_typestr(typestr)

    if not isinstance(data, (tuple, list)) or len(data) != 2:
        raise _key_error("data", data, "must be a tuple (pointer: int, readonly: bool)")
    pointer, readonly = data
    if pointer.__class__ is not int:
        pointer = _key_integer("data", pointer, data)
    if readonly.__class__ is bool:
        readonly = 1 if readonly else 0
    elif isinstance(readonly, int):
        readonly = 1 if int(readonly) else 0
    else:
        raise _key_error("data", data, "must have a bool readonly flag")

    if strides is not None:
        if not isinstance(strides, (tuple, list)):
            raise _key_error("strides", strides, "must be None or a tuple of ints (bytes)")
        strides = tuple(strides)
        if len(strides) != n:
            raise _key_error("strides", strides, f"has {len(strides)} entries but shape has {n}", ValueError)
        strides = _key_integers("strides", strides)

    if mask is not None:
        raise _key_error("mask", mask, "is not supported (masked arrays cannot be wrapped; it must be None)",
                         NotSupportedError)

    if not has_stream:
        stream_kind = _ABSENT
    elif stream is None:
        stream_kind = _NONE
    else:
        if stream.__class__ is not int:
            try:
                stream = integer(stream, "")
            except TypeError:
                raise _key_error("stream", stream, "must be None or an int (cudaStream_t, 1, 2 or -1)") from None
        stream_kind = _INTEGER

    # Phase 2: plain values only from here on.
    n = len(shape)
    try:
        cai.version = version
        cai.ndim = n
        cai.shape[0:n] = shape
        cai.data = pointer
        if strides is None:
            cai.hasStrides = 0
        else:
            cai.strides[0:n] = strides
            cai.hasStrides = 1
        if stream_kind == _INTEGER:
            cai.stream = stream
    except OverflowError:
        given = {"version": (version,), "shape": shape, "data": (pointer,), "strides": strides or (),
                 "stream": (stream,) if stream_kind == _INTEGER else ()}
        for key, lo, hi in _RANGES:
            if any(not lo <= v <= hi for v in given[key]):
                raise _key_error(key, given[key] if len(given[key]) != 1 else given[key][0],
                                 f"has a value outside {lo}..{hi}", ValueError) from None
        raise
    cai.typestr = encoded
    cai.dtype = _UNSPECIFIED
    cai.readonly = readonly
    cai.streamKind = stream_kind


def _wrap_dict(owner: Any, interface: Any, layout: Any) -> "Tensor":
    layout_arg = _layout_argument(layout, "cvcuda.as_tensor")
    scratch = _scratch
    cai = scratch.cai
    _fill_from_dict(cai, interface)
    out = scratch.tensor
    status = _wrap(cai, layout_arg, out)
    if status:
        raise error_from_status(lib, status)
    return _adopt_wrapped(out[0], owner)


# --- torch bridge: reads torch's metadata directly (its CAI getter costs ~4 us) and knows bfloat16.
_torch_tensor_type = None
_torch_strided = None
_torch_table = None


def _torch_dtypes(torch) -> Dict[Any, Tuple[bytes, int, int]]:
    """torch dtype -> (typestr, cvDataType to pass (0: derive from typestr), itemsize)."""
    global _torch_table
    if _torch_table is None:
        names = {"bool": "|b1", "uint8": "|u1", "int8": "|i1", "uint16": "<u2", "int16": "<i2", "uint32": "<u4",
                 "int32": "<i4", "uint64": "<u8", "int64": "<i8", "float16": "<f2", "bfloat16": "<V2",
                 "float32": "<f4", "float64": "<f8", "complex64": "<c8", "complex128": "<c16"}
        table = {}
        for name, typestr in names.items():
            dtype = getattr(torch, name, None)
            if dtype is not None:
                table[dtype] = (typestr.encode(), _BFLOAT16 if name == "bfloat16" else _UNSPECIFIED, int(typestr[2:]))
        _torch_table = table
    return _torch_table


def _find_torch():
    global _torch_tensor_type, _torch_strided
    torch = sys.modules.get("torch")
    if torch is None or not hasattr(torch, "Tensor"):
        return None
    _torch_dtypes(torch)
    _torch_strided = torch.strided
    _torch_tensor_type = torch.Tensor
    return _torch_tensor_type


_torch_stream_key = None  # does this torch's CAI carry a "stream" key? Read off the first tensor wrapped.


def _torch_reports_stream(t: Any) -> bool:
    """True when torch's own CAI names the producer stream (CAI v3). The fast bridge below reads torch's metadata
    directly and assumes torch's CAI v2 (producer stream unknown, as PyTorch 2.x exports); a torch that adopts CAI v3
    is detected here and then always goes through its CAI, so its real writer stream skips the defensive sync."""
    global _torch_stream_key
    if _torch_stream_key is None:
        _torch_stream_key = "stream" in t.__cuda_array_interface__
    return _torch_stream_key


def _wrap_torch(t: Any, layout: Any, ready: bool = False) -> "Tensor":
    """as_tensor of a torch tensor. `ready` (cvcuda.tv): the work is enqueued on the stream torch produced `t` on, so
    the wrapper is CAI stream -1 (no ordering needed, no defensive sync) and keeps no owner: torch's caching allocator
    orders the reuse of `t`'s memory on that stream, as it does for torch's own kernels."""
    if not t.is_cuda:
        raise TypeError(
            f"cvcuda.as_tensor: the torch tensor is on device '{t.device}'; CV-CUDA works on GPU memory: move it to "
            f"the GPU first with .cuda()"
        )
    if t.requires_grad:
        raise ValueError(
            "cvcuda.as_tensor: the torch tensor requires grad; wrap tensor.detach() instead (same memory, no autograd)"
        )
    entry = _torch_table.get(t.dtype)
    if entry is None or t.layout is not _torch_strided or (not ready and _torch_reports_stream(t)):
        if ready:
            raise NotSupportedError(f"cvcuda.tv: torch tensors of dtype {t.dtype} and layout {t.layout} cannot be wrapped")
        return _wrap_dict(t, t.__cuda_array_interface__, layout)  # let C judge what torch exports
    layout_arg = _layout_argument(layout, "cvcuda.as_tensor")
    shape = t.shape
    n = len(shape)
    if n > _MAX_DIMS:
        raise ValueError(f"cvcuda.as_tensor: shape={tuple(shape)} has {n} dimensions; at most {_MAX_DIMS}")
    typestr, dtype, itemsize = entry
    # Everything is read from torch before the shared struct is filled (see _fill_from_dict).
    pointer = t.data_ptr()
    strides = None if t.is_contiguous() else [s * itemsize for s in t.stride()]
    scratch = _scratch
    cai = scratch.ready_cai if ready else scratch.torch_cai  # torch itself exports v2: the producer stream is unknown
    cai.data = pointer
    cai.ndim = n
    cai.shape[0:n] = shape
    if strides is None:
        cai.hasStrides = 0
    else:
        cai.strides[0:n] = strides
        cai.hasStrides = 1
    cai.typestr = typestr
    cai.dtype = dtype
    out = scratch.tensor
    status = _wrap(cai, layout_arg, out)
    if status:
        raise error_from_status(lib, status)
    return _adopt_wrapped(out[0], None if ready else t)


def as_tensor(buffer: Any, layout: Optional[str] = None) -> Tensor:
    """Wraps GPU memory exposed through ``__cuda_array_interface__`` (PyTorch, CuPy, Numba, :meth:`Tensor.cuda`,
    any object holding a CAI dict) as a :class:`Tensor`, zero-copy: both share the memory, writes are visible
    both ways.

    :param buffer: the producer (the reference library's argument name). Its CAI dict (spec: CUDA Array Interface v3, Numba docs) must have ``shape``,
        ``typestr``, ``data`` = (pointer, readonly) and ``version`` (2 or 3); ``strides`` (bytes; absent or None =
        C-contiguous; negative and zero allowed); ``mask`` absent or None; ``stream`` absent, None or an int.
        Every integer (extents, strides, pointer, version, stream) follows the package's rule: an int or anything
        with ``__index__`` (numpy integers), never a bool (:mod:`cvcuda._integers`); a NUL character in
        ``typestr`` or ``layout`` is rejected, not cut. The dict is read completely before anything is written,
        so code it runs (an ``__index__``) may itself call ``as_tensor``.
        PyTorch tensors are read directly (faster than their CAI getter) as long as torch's CAI names no stream
        (checked once: a torch exporting CAI v3 with its writer stream is read through its CAI, so that stream is
        used and the defensive sync skipped), and torch.bfloat16 is recognised.
    :param layout: one upper-case label per dimension from N, C, H, W, D, F (``"NHWC"``) or None. For an object
        returned by :meth:`Tensor.cuda`, None keeps that tensor's layout.
    :returns: a Tensor that keeps ``buffer`` alive until the Tensor is gone **and** every GPU operation that used it
        has completed (no ``record_stream`` or sync needed). ``buffer`` is released after that: with the Tensor if no
        operator used it, else inside the cvcuda call that finds the work completed (the Tensor's release,
        ``Stream.sync()``, a later operator, :func:`sync_and_collect`).

    Objects that expose only ``__dlpack__`` (JAX, other DLPack producers) are wrapped with :func:`from_dlpack` on
    :attr:`Stream.current` (the producer orders itself before that stream; no host sync). PyTorch and CuPy expose
    a CAI and keep the CAI path below; :func:`from_dlpack` is their zero-sync path (docs/interop.md compares both).

    Stream ordering (the producer table of docs/streams.md): CAI ``stream`` absent (CAI v2, e.g. **every PyTorch
    tensor**), 0, 1 or 2 = producer stream unknown: the first operation using the tensor pays one
    ``cudaDeviceSynchronize``, later ones are event-ordered; an int > 2 = the producer's stream: an event is recorded
    on it now and waited on by the first operation's stream (no host sync); None = ready; -1 = opt-out, the caller has
    synchronised. ``as_tensor`` itself never synchronises and makes no GPU call except that event record.

    :raises TypeError: ``buffer`` has no ``__cuda_array_interface__`` (a host array or CPU tensor: move it to the GPU
        with ``.cuda()`` first), or a CAI value of the wrong Python type (the message names the key).
    :raises ValueError: a torch tensor that requires grad (wrap ``.detach()``), a missing key, and, as
        :class:`InvalidArgumentError`, every value the C library rejects (message from C, naming the key: shape,
        strides, typestr, data, version, stream, layout).
    :raises NotSupportedError: a well-formed but unsupported typestr (datetime, ``'<c32'`` ...), or a non-None ``mask``.
    :raises CudaError: recording the event on the producer stream failed.
    """
    tensor_type = _torch_tensor_type
    if tensor_type is None:
        tensor_type = _find_torch()
    if tensor_type is not None and isinstance(buffer, tensor_type):
        return _wrap_torch(buffer, layout)
    if type(buffer) is CudaArray:
        if layout is None:
            exported = buffer.tensor.layout
            layout_arg = exported.encode() if exported else _NULL
        else:
            layout_arg = _layout_argument(layout, "cvcuda.as_tensor")
        out = _scratch.tensor
        status = _wrap(buffer._base[0], layout_arg, out)
        if status:
            raise error_from_status(lib, status)
        return _adopt_wrapped(out[0], buffer)
    try:
        interface = buffer.__cuda_array_interface__
    except AttributeError:
        if hasattr(buffer, "__dlpack__") and not hasattr(buffer, "__array_interface__"):
            return _dlpack.from_dlpack(buffer, layout)
        if hasattr(buffer, "__array_interface__") or hasattr(buffer, "__array__"):
            raise TypeError(
                f"cvcuda.as_tensor: {type(buffer).__name__} is a host (CPU) array; CV-CUDA works on GPU memory: move it "
                f"to the GPU first (e.g. torch's .cuda(), cupy.asarray)"
            ) from None
        raise TypeError(
            f"cvcuda.as_tensor: {type(buffer).__name__} does not expose __cuda_array_interface__ (expected a GPU array "
            f"such as a CUDA torch tensor, a CuPy array or the result of Tensor.cuda())"
        ) from None
    return _wrap_dict(buffer, interface, layout)


from . import _dlpack  # noqa: E402  (DLPack needs Tensor; Tensor's __dlpack__ delegates to it)
