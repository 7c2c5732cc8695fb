"""cvcuda.Tensor, its CAI export (Tensor.cuda()), and cvcuda.as_tensor: zero-copy wrapping of foreign GPU memory
with its Python owner kept alive until the GPU no longer uses it."""

import itertools
import sys
import threading
from typing import Any, Dict, Optional, Sequence, Tuple

import numpy

from ._errors import NotSupportedError, error_from_status
from ._ffi import ffi
from ._library import lib

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


_scratch = _Scratch()

# --- keep-alive: the producer's Python object lives until the library's cleanup callback says the memory is unused.
_owners: Dict[int, Any] = {}
_next_key = itertools.count(1).__next__
_owner_lock = threading.Lock()
_keepalive = True


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
    tensor._cv = _gc(handle, _release)
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


def _adopt_owned(handle) -> "Tensor":
    """A Tensor for a fresh handle from cvTensorCreate."""
    tensor = _new_object(Tensor)
    tensor._cv = _gc(handle, _release)
    tensor._info = None
    tensor._like = None
    tensor._owner = None
    return tensor


def _layout_argument(layout: Optional[str], function: str):
    if layout is None:
        return _NULL
    if type(layout) is not str:
        raise TypeError(f"{function}: layout must be a str such as 'NHWC' or None, got {type(layout).__name__}")
    try:
        return layout.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError(f"{function}: layout={layout!r} must be ASCII labels such as 'NHWC'") from None


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

    ``Tensor(shape, dtype, layout=None)`` allocates a C-contiguous tensor on the current device; its memory is
    uninitialised and is freed (stream-ordered) once the last reference is gone and every GPU operation using it has
    completed. The allocation is stream-ordered on a library-internal stream that every operator waits for.

    :param shape: extents in elements, outermost first, at most ``CV_MAX_DIMS`` (8) of them.
    :param dtype: anything ``numpy.dtype()`` accepts (``numpy.uint8``, ``"float32"``, ...), a ``torch.dtype``, or
        ``"bfloat16"`` / ``ml_dtypes.bfloat16``. Supported: bool, (u)int8/16/32/64, float16, bfloat16, float32/64.
    :param layout: one upper-case label per dimension from N, C, H, W, D, F (e.g. ``"NHWC"``), or None.
    :raises TypeError: dtype or layout of a wrong Python type.
    :raises InvalidArgumentError: a negative extent, too many dimensions, a bad layout (the message names it).
    :raises NotSupportedError: an unsupported dtype (e.g. complex).
    :raises NoDeviceError, OutOfMemoryError, CudaError: from the allocation.

    Tensors returned by :func:`as_tensor` wrap foreign memory instead (never freed by cvcuda).
    """

    # _export (set by the first cuda(), unset until then): the immutable parts of the tensor's CAI.
    __slots__ = ("_cv", "_info", "_like", "_owner", "_export", "__weakref__")

    def __init__(self, shape: Sequence[int], dtype: Any, layout: Optional[str] = None) -> None:
        cv_dtype = _cv_dtype(dtype)
        layout_arg = _layout_argument(layout, "cvcuda.Tensor")
        try:
            extents = ffi.new("int64_t[]", list(shape))
        except (TypeError, OverflowError) as exc:
            raise TypeError(f"cvcuda.Tensor: shape={shape!r} must be a sequence of ints >= 0 ({exc})") from None
        out = ffi.new("cvTensor *")
        status = _create(len(extents), extents, cv_dtype, layout_arg, out)
        if status:
            raise error_from_status(lib, status)
        self._cv = _gc(out[0], _release)
        self._info = None
        self._like = None
        self._owner = None

    def _get_info(self):
        info = ffi.new("cvTensorInfo *")
        info.structSize = ffi.sizeof("cvTensorInfo")
        status = lib.cvTensorGetInfo(self._cv, info)
        if status:
            raise error_from_status(lib, status)
        self._info = info
        return info

    def _make_like(self):
        """(ndim, shape, dtype, layout) as cvTensorCreate arguments, for operators that allocate their output."""
        info = self._info or self._get_info()
        layout = ffi.string(info.layout)
        # info.shape is passed as the shape array itself (no copy): self._info keeps the struct alive with the tensor.
        self._like = (info.ndim, info.shape, info.dtype, layout or _NULL)
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
    def layout(self) -> Optional[str]:
        """The layout labels (``"NHWC"``), or None when the tensor has none."""
        layout = ffi.string((self._info or self._get_info()).layout)
        return layout.decode() if layout else None

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
        return CudaArray(self, base, _gc(writer, _stream_release), cai.stream)

    def __repr__(self) -> str:
        info = self._info or self._get_info()
        dtype = ffi.string(lib.cvDataTypeName(info.dtype)).decode()
        layout = ffi.string(info.layout).decode() or None
        owner = "owned" if info.ownsMemory else "wrapped"
        return (f"<cvcuda.Tensor shape={self.shape} dtype={dtype} layout={layout!r} strides={self.strides} "
                f"data=0x{info.data:x}{' readonly' if info.readonly else ''} ({owner})>")


class CudaArray:
    """The CUDA Array Interface (v3) view of a :class:`Tensor`, returned by :meth:`Tensor.cuda`.

    ``__cuda_array_interface__`` is a dict with ``shape``, ``typestr``, ``data`` (pointer, readonly), ``version``
    (3), ``strides`` (bytes, always explicit) and ``stream`` (int ``cudaStream_t`` of the pending writer, or None).
    bfloat16 is exported as the opaque typestr ``'<V2'`` (as PyTorch does); :func:`as_tensor` given this object
    keeps the exact dtype and the layout. Keeps the tensor and the advertised stream alive.
    """

    __slots__ = ("__cuda_array_interface__", "tensor", "_cai", "_writer")

    def __init__(self, tensor: Tensor, base, writer, stream: Optional[int]) -> None:
        # base: (the tensor's CAI struct with stream None, shape, typestr, data, strides), made once per tensor. The
        # struct says None because wrapping it back finds the memory's hazard state, which orders the new wrapper.
        self.tensor = tensor
        self._cai = base[0]
        self._writer = writer  # the advertised stream must outlive every consumer of this dict (CAI v3)
        self.__cuda_array_interface__: Dict[str, Any] = {
            "shape": base[1],
            "typestr": base[2],
            "data": base[3],
            "version": 3,
            "strides": base[4],
            "stream": stream,
        }

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


def _export_base(cai):
    """The parts of a tensor's CAI that never change, from its first export, and a copy of the struct that says
    stream None (see CudaArray)."""
    n = cai.ndim
    own = ffi.new("cvArrayInterface *")
    ffi.memmove(own, cai, _CAI_SIZE)
    own.streamKind = _NONE
    own.stream = 0
    return (own, tuple(cai.shape[0:n]), ffi.string(cai.typestr).decode(), (cai.data, bool(cai.readonly)),
            tuple(cai.strides[0:n]))


# --- as_tensor
def _key_error(key: str, value: Any, rule: str, exc_type=TypeError):
    return exc_type(f"cvcuda.as_tensor: __cuda_array_interface__[{key!r}]={value!r} {rule}")


def _fill_from_dict(cai, d: Any) -> None:
    """Translates a __cuda_array_interface__ dict into `cai`. Only what C cannot see is checked here (Python types,
    missing keys, mask, the fixed capacity of the struct); the C library validates the values."""
    if type(d) is not dict:
        raise TypeError(f"cvcuda.as_tensor: __cuda_array_interface__ must be a dict, got {type(d).__name__}")
    try:
        shape = d["shape"]
        typestr = d["typestr"]
        data = d["data"]
        version = d["version"]
    except KeyError as exc:
        raise ValueError(f"cvcuda.as_tensor: __cuda_array_interface__ lacks the required key {exc.args[0]!r}") from None
    try:
        cai.version = version
    except TypeError:
        raise _key_error("version", version, "must be an int") from None
    except OverflowError:
        raise _key_error("version", version, "is out of range", ValueError) from None

    if not isinstance(shape, (tuple, list)):
        raise _key_error("shape", shape, "must be a tuple of ints")
    n = len(shape)
    if n > _MAX_DIMS:
        raise _key_error("shape", shape, f"has {n} dimensions; at most CV_MAX_DIMS={_MAX_DIMS} are supported",
                         ValueError)
    cai.ndim = n
    try:
        cai.shape[0:n] = shape
    except TypeError:
        raise _key_error("shape", shape, "must be a tuple of ints") from None
    except OverflowError:
        raise _key_error("shape", shape, "has an extent outside the int64 range", ValueError) from None

    if type(typestr) is not str:
        raise _key_error("typestr", typestr, "must be a str such as '|u1' or '<f4'")
    try:
        encoded = typestr.encode("ascii")
    except UnicodeEncodeError:
        raise _key_error("typestr", typestr, "is not a numpy typestr (non-ASCII)", ValueError) from None
    if len(encoded) >= 16:
        raise _key_error("typestr", typestr, "is too long to be a numpy typestr", ValueError)
    cai.typestr = encoded
    cai.dtype = _UNSPECIFIED

    if not isinstance(data, (tuple, list)) or len(data) != 2:
        raise _key_error("data", data, "must be a tuple (pointer: int, readonly: bool)")
    pointer, readonly = data
    try:
        cai.data = pointer
    except TypeError:
        raise _key_error("data", data, "must have an int pointer") from None
    except OverflowError:
        raise _key_error("data", data, "has a pointer outside 0..2**64-1", ValueError) from None
    if not isinstance(readonly, int):
        raise _key_error("data", data, "must have a bool readonly flag")
    cai.readonly = 1 if readonly else 0

    strides = d.get("strides")
    if strides is None:
        cai.hasStrides = 0
    else:
        if not isinstance(strides, (tuple, list)):
            raise _key_error("strides", strides, "must be None or a tuple of ints (bytes)")
        if len(strides) != n:
            raise _key_error("strides", strides, f"has {len(strides)} entries but shape has {n}", ValueError)
        try:
            cai.strides[0:n] = strides
        except TypeError:
            raise _key_error("strides", strides, "must be None or a tuple of ints (bytes)") from None
        except OverflowError:
            raise _key_error("strides", strides, "has a stride outside the int64 range", ValueError) from None
        cai.hasStrides = 1

    mask = d.get("mask")
    if mask is not None:
        raise _key_error("mask", mask, "is not supported (masked arrays cannot be wrapped; it must be None)",
                         NotSupportedError)

    if "stream" in d:
        stream = d["stream"]
        if stream is None:
            cai.streamKind = _NONE
        else:
            if not isinstance(stream, int) or isinstance(stream, bool):
                raise _key_error("stream", stream, "must be None or an int (cudaStream_t, 1, 2 or -1)")
            try:
                cai.stream = stream
            except OverflowError:
                raise _key_error("stream", stream, "is outside the int64 range", ValueError) from None
            cai.streamKind = _INTEGER
    else:
        cai.streamKind = _ABSENT


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
                 "float32": "<f4", "float64": "<f8"}
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


def _wrap_torch(t: Any, layout: Any) -> "Tensor":
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
    if entry is None or t.layout is not _torch_strided or _torch_reports_stream(t):
        return _wrap_dict(t, t.__cuda_array_interface__, layout)  # let C judge what torch exports
    layout_arg = _layout_argument(layout, "cvcuda.as_tensor")
    scratch = _scratch
    cai = scratch.cai
    shape = t.shape
    n = len(shape)
    if n > _MAX_DIMS:
        raise ValueError(f"cvcuda.as_tensor: shape={tuple(shape)} has {n} dimensions; at most {_MAX_DIMS}")
    cai.version = 2  # what torch itself exports: no stream key, so the producer stream is unknown
    cai.data = t.data_ptr()
    cai.readonly = 0
    cai.ndim = n
    cai.shape[0:n] = shape
    typestr, dtype, itemsize = entry
    if t.is_contiguous():
        cai.hasStrides = 0
    else:
        cai.strides[0:n] = [s * itemsize for s in t.stride()]
        cai.hasStrides = 1
    cai.typestr = typestr
    cai.dtype = dtype
    cai.streamKind = _ABSENT
    out = scratch.tensor
    status = _wrap(cai, layout_arg, out)
    if status:
        raise error_from_status(lib, status)
    return _adopt_wrapped(out[0], t)


def as_tensor(obj: Any, layout: Optional[str] = None) -> Tensor:
    """Wraps GPU memory exposed through ``__cuda_array_interface__`` (PyTorch, CuPy, Numba, :meth:`Tensor.cuda`,
    any object holding a CAI dict) as a :class:`Tensor`, zero-copy: both share the memory, writes are visible
    both ways.

    :param obj: the producer. Its CAI dict (spec: CUDA Array Interface v3, Numba docs) must have ``shape``,
        ``typestr``, ``data`` = (pointer, readonly) and ``version`` (2 or 3); ``strides`` (bytes; absent or None =
        C-contiguous; negative and zero allowed); ``mask`` absent or None; ``stream`` absent, None or an int.
        PyTorch tensors are read directly (faster than their CAI getter) as long as torch's CAI names no stream
        (checked once: a torch exporting CAI v3 with its writer stream is read through its CAI, so that stream is
        used and the defensive sync skipped), and torch.bfloat16 is recognised.
    :param layout: one upper-case label per dimension from N, C, H, W, D, F (``"NHWC"``) or None. For an object
        returned by :meth:`Tensor.cuda`, None keeps that tensor's layout.
    :returns: a Tensor that keeps ``obj`` alive until the Tensor is gone **and** every GPU operation that used it
        has completed (no ``record_stream`` or sync needed). ``obj`` is released after that: with the Tensor if no
        operator used it, else inside the cvcuda call that finds the work completed (the Tensor's release,
        ``Stream.sync()``, a later operator, :func:`sync_and_collect`).

    Stream ordering (the producer table of docs/streams.md): CAI ``stream`` absent (CAI v2, e.g. **every PyTorch
    tensor**), 0, 1 or 2 = producer stream unknown: the first operation using the tensor pays one
    ``cudaDeviceSynchronize``, later ones are event-ordered; an int > 2 = the producer's stream: an event is recorded
    on it now and waited on by the first operation's stream (no host sync); None = ready; -1 = opt-out, the caller has
    synchronised. ``as_tensor`` itself never synchronises and makes no GPU call except that event record.

    :raises TypeError: ``obj`` has no ``__cuda_array_interface__`` (a host array or CPU tensor: move it to the GPU
        with ``.cuda()`` first), or a CAI value of the wrong Python type (the message names the key).
    :raises ValueError: a torch tensor that requires grad (wrap ``.detach()``), a missing key, and, as
        :class:`InvalidArgumentError`, every value the C library rejects (message from C, naming the key: shape,
        strides, typestr, data, version, stream, layout).
    :raises NotSupportedError: a well-formed but unsupported typestr (complex ...), or a non-None ``mask``.
    :raises CudaError: recording the event on the producer stream failed.
    """
    tensor_type = _torch_tensor_type
    if tensor_type is None:
        tensor_type = _find_torch()
    if tensor_type is not None and isinstance(obj, tensor_type):
        return _wrap_torch(obj, layout)
    if type(obj) is CudaArray:
        if layout is None:
            exported = obj.tensor.layout
            layout_arg = exported.encode() if exported else _NULL
        else:
            layout_arg = _layout_argument(layout, "cvcuda.as_tensor")
        out = _scratch.tensor
        status = _wrap(obj._cai, layout_arg, out)
        if status:
            raise error_from_status(lib, status)
        return _adopt_wrapped(out[0], obj)
    try:
        interface = obj.__cuda_array_interface__
    except AttributeError:
        if hasattr(obj, "__array_interface__") or hasattr(obj, "__array__"):
            raise TypeError(
                f"cvcuda.as_tensor: {type(obj).__name__} is a host (CPU) array; CV-CUDA works on GPU memory: move it "
                f"to the GPU first (e.g. torch's .cuda(), cupy.asarray)"
            ) from None
        raise TypeError(
            f"cvcuda.as_tensor: {type(obj).__name__} does not expose __cuda_array_interface__ (expected a GPU array "
            f"such as a CUDA torch tensor, a CuPy array or the result of Tensor.cuda())"
        ) from None
    return _wrap_dict(obj, interface, layout)
