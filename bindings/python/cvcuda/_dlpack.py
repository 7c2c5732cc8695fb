"""DLPack both ways (Python array API standard, DLPack 1.1): ``Tensor.__dlpack__`` / ``__dlpack_device__`` and
``cvcuda.from_dlpack``.

DLPack carries the consumer's stream to the producer, so the producer orders itself with an event and nobody
blocks the host: ``torch.from_dlpack(cvcuda_tensor)`` makes torch's current stream wait on our pending writes;
``cvcuda.from_dlpack(torch_tensor)`` asks torch to make our stream wait on its. DLTensor strides are in ELEMENTS
(DLPack); ``Tensor.strides`` and CAI strides are in BYTES. Capsules follow the standard: "dltensor_versioned"
(``DLManagedTensorVersioned``) when the consumer asks for ``max_version >= (1, 0)``, else the legacy "dltensor";
a consumer renames the capsule "used_..." and calls the deleter exactly once; an unconsumed capsule calls it when
collected.
"""

import ctypes
import sys
from typing import Any, Optional, Tuple

from ._errors import error_from_status
from ._ffi import ffi
from ._library import lib
from ._stream import Stream, _adopt, _current_device, as_stream, current_on, default_of
from . import _tensor
from ._tensor import Tensor, _adopt_wrapped, _layout_argument

_KDL_CUDA = lib.kDLCUDA
_KDL_CUDA_MANAGED = lib.kDLCUDAManaged
_VERSIONED = b"dltensor_versioned"
_LEGACY = b"dltensor"
_USED_VERSIONED = b"used_dltensor_versioned"  # module constants: PyCapsule keeps the name pointer, never a copy
_USED_LEGACY = b"used_dltensor"

_api = ctypes.pythonapi
_Destructor = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = (ctypes.c_void_p, ctypes.c_char_p, _Destructor)
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = (ctypes.py_object, ctypes.c_char_p)
_api.PyCapsule_IsValid.restype = ctypes.c_int
_api.PyCapsule_IsValid.argtypes = (ctypes.py_object, ctypes.c_char_p)
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = (ctypes.py_object, ctypes.c_char_p)
_capsule_name = _api.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = (ctypes.c_void_p,)
# The same function with a raw PyObject * (a destructor gets no Python object), keeping the GIL as pythonapi does.
_raw_get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p)(("PyCapsule_GetPointer", _api))


# --- export: capsules we make
def _delete_unconsumed(capsule_address: int) -> None:
    """PyCapsule destructor: an export nobody consumed still owns its managed tensor, so its deleter runs here."""
    try:
        name = _capsule_name(capsule_address)
        if name == _VERSIONED:
            managed = ffi.cast("struct DLManagedTensorVersioned *", _raw_get_pointer(capsule_address, name))
            managed.deleter(managed)
        elif name == _LEGACY:
            managed = ffi.cast("DLManagedTensor *", _raw_get_pointer(capsule_address, name))
            managed.deleter(managed)
    except BaseException:  # interpreter shutdown: the process frees everything anyway
        pass


_capsule_destructor = _Destructor(_delete_unconsumed)

# Legacy (pre-1.0) capsules wrap a versioned managed tensor from C: the DLManagedTensor struct lives here until its
# deleter, which deletes the versioned one.
_legacy_exports = {}


@ffi.callback("void(DLManagedTensor *)")
def _delete_legacy_export(legacy):
    try:
        versioned = ffi.cast("struct DLManagedTensorVersioned *", legacy.manager_ctx)
        versioned.deleter(versioned)
        _legacy_exports.pop(int(ffi.cast("uintptr_t", legacy)), None)
    except BaseException:
        pass


def _consumer_stream(stream: Any, tensor: Tensor):
    """(cvStream or NULL, flags) for a __dlpack__ stream argument (DLPack / array API meaning for CUDA: a stream of
    the tensor's device)."""
    if stream is None or stream == 1:
        return default_of(dlpack_device(tensor)[1])._cv, 0  # the legacy default stream of the tensor's device
    if type(stream) is not int:
        raise TypeError(f"cvcuda.Tensor.__dlpack__: stream={stream!r} must be None or an int (DLPack stream value)")
    if stream == -1:
        return ffi.NULL, lib.CV_DLPACK_EXPORT_NO_SYNC
    if stream == 0:
        raise BufferError("cvcuda.Tensor.__dlpack__: stream=0 is not allowed by DLPack for CUDA (use None or 1 for the "
                          "legacy default stream, -1 for no synchronisation)")
    if stream == 2:
        raise BufferError("cvcuda.Tensor.__dlpack__: stream=2 (the per-thread default stream) is not supported: it names "
                          "a different stream in each thread; pass the stream's own handle")
    if stream < 0:
        raise BufferError(f"cvcuda.Tensor.__dlpack__: stream={stream} is negative (only -1, no synchronisation, is allowed)")
    return as_stream(stream)._cv, 0


def dlpack_device(tensor: Tensor) -> Tuple[int, int]:
    out = ffi.new("int32_t *")
    status = lib.cvTensorGetDevice(tensor._cv, out)
    if status:
        raise error_from_status(lib, status)
    return (_KDL_CUDA, out[0])


def export(tensor: Tensor, stream: Any, max_version: Any, dl_device: Any, copy: Optional[bool]):
    if dl_device is not None and tuple(dl_device) != dlpack_device(tensor):
        raise BufferError(f"cvcuda.Tensor.__dlpack__: dl_device={tuple(dl_device)!r} differs from the tensor's device "
                          f"{dlpack_device(tensor)!r}, and cvcuda does not copy across devices")
    cv_stream, flags = _consumer_stream(stream, tensor)
    if copy:
        flags |= lib.CV_DLPACK_EXPORT_COPY
        if cv_stream == ffi.NULL:  # copy with stream -1: the copy runs on the legacy default stream of its device
            cv_stream, flags = default_of(dlpack_device(tensor)[1])._cv, lib.CV_DLPACK_EXPORT_COPY
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    if not versioned and (tensor._info or tensor._get_info()).readonly:
        raise BufferError("cvcuda.Tensor.__dlpack__: the tensor is read-only, which a legacy (max_version < (1, 0)) "
                          "DLPack capsule cannot say; ask for max_version=(1, 0)")
    out = ffi.new("struct DLManagedTensorVersioned **")
    status = lib.cvTensorExportDLPack(tensor._cv, cv_stream, flags, out)
    if status:
        raise error_from_status(lib, status)
    managed = out[0]
    if versioned:
        return _api.PyCapsule_New(int(ffi.cast("uintptr_t", managed)), _VERSIONED, _capsule_destructor)
    legacy = ffi.new("DLManagedTensor *")
    legacy.dl_tensor = managed.dl_tensor
    legacy.manager_ctx = managed
    legacy.deleter = _delete_legacy_export
    address = int(ffi.cast("uintptr_t", legacy))
    _legacy_exports[address] = legacy
    return _api.PyCapsule_New(address, _LEGACY, _capsule_destructor)


def order_release_after_consumers(tensor: Tensor) -> None:
    """Called when a CAI export (:class:`CudaArray`) is dropped: orders the release of the tensor's memory, and later
    cvcuda writes to it, after the work already queued on the current stream of PyTorch and of CuPy (those loaded),
    on the tensor's device. Records one event per such stream; none while it is being captured. Never raises."""
    try:
        torch = sys.modules.get("torch")
        cupy = sys.modules.get("cupy")
        if torch is None and cupy is None:
            return
        streams = []
        if torch is not None and torch.cuda.is_initialized():
            streams.append(_torch_current_stream(torch, dlpack_device(tensor)[1]))
        if cupy is not None and cupy.cuda.runtime.getDevice() == dlpack_device(tensor)[1]:
            # CuPy's current stream is its current device's; on another device it cannot have read this memory.
            handle = cupy.cuda.get_current_stream().ptr
            streams.append(as_stream(handle) if handle else default_of(_current_device()))
        for stream in streams:
            lib.cvTensorAddConsumer(tensor._cv, stream._cv)
    except BaseException:  # a finaliser cannot raise; the release then follows cvcuda's own tracked work only
        pass


_torch_raw_streams = {}  # (device, cudaStream_t) -> Stream, for the raw-handle path of _torch_current_stream


def _torch_current_stream(torch, device: int) -> Stream:
    """torch's current stream on `device`, adopted. Through torch's raw-handle query when it has one (a tenth of
    torch.cuda.current_stream's cost, which builds a Python stream object per call): the adoption is kept per
    (device, handle), and a handle names the same CUDA stream for as long as work queued on it can run (CUDA frees a
    destroyed stream's handle only after that work), which is all a consumer event recorded on it needs. Handle 0
    (torch's default stream) is adopted as as_stream(torch.cuda.current_stream()) adopts it."""
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is None:
        return as_stream(torch.cuda.current_stream(device))
    handle = raw(device)
    key = (device, handle)
    stream = _torch_raw_streams.get(key)
    if stream is None:
        if len(_torch_raw_streams) >= 64:  # bounded; an adoption may hold a cvcuda stream, kept from the pool here
            _torch_raw_streams.clear()
        stream = _torch_raw_streams[key] = _adopt(handle, None)
    return stream


# --- import: capsules from other producers
_legacy_imports = {}


@ffi.callback("void(struct DLManagedTensorVersioned *)")
def _delete_legacy_import(adapter):
    try:
        legacy = ffi.cast("DLManagedTensor *", adapter.manager_ctx)
        if legacy.deleter != ffi.NULL:
            legacy.deleter(legacy)
        _legacy_imports.pop(int(ffi.cast("uintptr_t", adapter)), None)
    except BaseException:
        pass


def take_capsule(capsule: Any):
    """(managed, rename): the DLManagedTensorVersioned * of a capsule (an adapter for a legacy one) and the function
    that marks the capsule consumed. Raises BufferError for a consumed capsule, TypeError for other objects."""
    if _api.PyCapsule_IsValid(capsule, _VERSIONED):
        managed = ffi.cast("struct DLManagedTensorVersioned *", _api.PyCapsule_GetPointer(capsule, _VERSIONED))
        return managed, lambda: _api.PyCapsule_SetName(capsule, _USED_VERSIONED)
    if _api.PyCapsule_IsValid(capsule, _LEGACY):
        legacy = ffi.cast("DLManagedTensor *", _api.PyCapsule_GetPointer(capsule, _LEGACY))
        adapter = ffi.new("struct DLManagedTensorVersioned *")
        adapter.version.major, adapter.version.minor = 1, 0
        adapter.manager_ctx = legacy
        adapter.deleter = _delete_legacy_import
        adapter.flags = 0
        adapter.dl_tensor = legacy.dl_tensor

        def rename():
            _legacy_imports[int(ffi.cast("uintptr_t", adapter))] = adapter
            _api.PyCapsule_SetName(capsule, _USED_LEGACY)

        return adapter, rename
    if _api.PyCapsule_IsValid(capsule, _USED_VERSIONED) or _api.PyCapsule_IsValid(capsule, _USED_LEGACY):
        raise BufferError("cvcuda.from_dlpack: the DLPack capsule was already consumed (a capsule is used once)")
    raise TypeError(f"cvcuda.from_dlpack: expected a DLPack capsule ('dltensor_versioned' or 'dltensor'), got "
                    f"{type(capsule).__name__}")


def _producer_stream_value(cv_stream: Stream) -> int:
    """The DLPack stream value naming our stream to a producer (1: the legacy default stream)."""
    return cv_stream.handle or 1


def from_dlpack(obj: Any, layout: Optional[str] = None, *, stream: Any = None) -> Tensor:
    """Wraps a DLPack producer (``torch.Tensor``, CuPy array, JAX array, or a capsule) as a :class:`Tensor`, zero-copy.

    Calls ``obj.__dlpack__(stream=<our stream>, max_version=(1, 0))``: the producer makes our stream (``stream``, or
    :attr:`Stream.current`) wait on its pending writes (event; no host sync), so the wrapper starts as written on
    that stream and costs no ``cudaDeviceSynchronize`` (compare :func:`as_tensor` on a PyTorch tensor: one). Producers
    without ``max_version`` are asked again without it (legacy capsule). For a CUDA ``torch.Tensor`` cvcuda does
    torch's half itself, cheaper: it asks for ``stream=-1`` and records its own pooled event on torch's current
    stream, which every cvcuda operation on another stream then waits on (the same ordering, a fraction of the host
    time). The capsule is renamed "used_..." and the
    producer's deleter runs exactly once, after the Tensor is gone and every cvcuda GPU operation on the memory has
    completed. DLPack's read-only flag makes the Tensor read-only.

    :param obj: an object with ``__dlpack__`` (and ``__dlpack_device__``), or a DLPack capsule (which must be ready
        on ``stream``: nothing can be asked of its producer).
    :param layout: one upper-case label per dimension (``"NHWC"``) or None.
    :param stream: the stream the tensor will be used on: a :class:`Stream` or anything :func:`as_stream` takes. None
        is :attr:`Stream.current` when that is on the array's device, else that device's :attr:`Stream.default`
        (DLPack's producer stream lives on the array's device; a torch tensor on ``cuda:1`` is ordered on torch's
        current stream of device 1, whatever the current device).
    :raises TypeError: ``obj`` is not a DLPack producer or capsule, or is host (CPU) memory.
    :raises BufferError: the capsule was already consumed.
    :raises InvalidArgumentError, NotSupportedError: what the C library rejects (device type, dtype, lanes, shape,
        strides, layout; the message names it).
    """
    torch_type = _tensor._torch_tensor_type or _tensor._find_torch()
    if torch_type is not None and isinstance(obj, torch_type) and obj.is_cuda:
        # PyTorch's half of __dlpack__(stream=s) is "record an event on my current stream, make s wait on it"; its
        # Python implementation creates a new CUDA event and stream object per call (~30 us). The library does the
        # same with its pooled events: the wrapper starts as written on torch's current stream, and every operation
        # on another stream waits on that event. Nothing blocks the host either way.
        cv_stream = as_stream(sys.modules["torch"].cuda.current_stream(obj.device.index))
        capsule = obj.__dlpack__(stream=-1, max_version=(1, 0))
    elif type(obj).__name__ == "PyCapsule":
        cv_stream = None if stream is None else as_stream(stream)
        capsule = obj
    else:
        device = getattr(obj, "__dlpack_device__", None)
        if device is not None:
            kind = device()[0]
            if kind not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
                raise TypeError(f"cvcuda.from_dlpack: {type(obj).__name__} is on DLPack device type {kind} (1 = host "
                                f"memory); CV-CUDA works on GPU memory: move it to the GPU first")
        export_fn = getattr(obj, "__dlpack__", None)
        if export_fn is None:
            raise TypeError(f"cvcuda.from_dlpack: {type(obj).__name__} has no __dlpack__ (expected a DLPack producer "
                            f"such as a CUDA torch tensor or a CuPy array, or a capsule)")
        if stream is not None:
            cv_stream = as_stream(stream)
        elif device is not None and kind == _KDL_CUDA:
            cv_stream = current_on(int(device()[1]))  # the producer's stream must be on the array's device
        else:
            cv_stream = Stream.current
        value = _producer_stream_value(cv_stream)
        try:
            capsule = export_fn(stream=value, max_version=(1, 0))
        except TypeError:  # a producer older than DLPack 1.0's max_version keyword
            capsule = export_fn(stream=value)
    managed, rename = take_capsule(capsule)
    if cv_stream is None:  # a capsule: it says its device
        dl_device = managed.dl_tensor.device
        cv_stream = current_on(dl_device.device_id) if dl_device.device_type == _KDL_CUDA else Stream.current
    out = ffi.new("cvTensor *")
    status = lib.cvTensorWrapDLPack(managed, _layout_argument(layout, "cvcuda.from_dlpack"), cv_stream._cv, out)
    if status:
        raise error_from_status(lib, status)
    rename()
    return _adopt_wrapped(out[0], None)
