"""DLPack without a GPU: capsule names and consumption, the legacy adapter, the deleter run exactly once by an
unconsumed capsule, the C validation of managed tensors, __dlpack__ argument checks, and complex CAI dicts."""

import ctypes

import numpy
import pytest

import cvcuda
from cvcuda import _dlpack
from cvcuda._ffi import ffi
from cvcuda._library import lib

from cai_objects import BASE, CaiObject

_api = ctypes.pythonapi


class Counted:
    """A managed tensor (versioned or legacy) over fake device memory whose deleter counts its calls."""

    def __init__(self, versioned=True, dtype=(lib.kDLUInt, 8, 1), device=(lib.kDLCUDA, 0), major=1):
        self.calls = 0
        kind = "struct DLManagedTensorVersioned" if versioned else "DLManagedTensor"
        self.shape = ffi.new("int64_t[]", [2, 3, 4])
        self.managed = ffi.new(f"{kind} *")
        if versioned:
            self.managed.version.major, self.managed.version.minor = major, 1
        t = self.managed.dl_tensor
        t.data = ffi.cast("void *", BASE)
        t.device.device_type, t.device.device_id = device
        t.ndim = 3
        t.dtype.code, t.dtype.bits, t.dtype.lanes = dtype
        t.shape = self.shape
        t.strides = ffi.NULL

        @ffi.callback(f"void({kind} *)")
        def deleter(_self):
            self.calls += 1

        self._deleter = deleter
        self.managed.deleter = deleter
        self.address = int(ffi.cast("uintptr_t", self.managed))
        self.name = _dlpack._VERSIONED if versioned else _dlpack._LEGACY

    def capsule(self):
        return _api.PyCapsule_New(self.address, self.name, _dlpack._capsule_destructor)


@pytest.mark.parametrize("versioned", [True, False])
def test_unconsumed_capsule_runs_the_deleter_exactly_once(versioned):
    c = Counted(versioned)
    capsule = c.capsule()
    assert c.calls == 0
    del capsule
    assert c.calls == 1


@pytest.mark.parametrize("versioned", [True, False])
def test_consumed_capsule_is_renamed_and_never_runs_the_deleter(versioned):
    c = Counted(versioned)
    capsule = c.capsule()
    managed, rename = _dlpack.take_capsule(capsule)
    rename()
    used = b"used_" + c.name
    assert _api.PyCapsule_IsValid(ctypes.py_object(capsule), used) == 1
    with pytest.raises(BufferError, match="already consumed"):
        _dlpack.take_capsule(capsule)
    del capsule
    assert c.calls == 0
    if versioned:
        assert int(ffi.cast("uintptr_t", managed)) == c.address
    else:  # the adapter forwards to the legacy deleter, once
        assert managed.version.major == 1 and managed.manager_ctx == c.managed
        assert managed.dl_tensor.shape == c.shape and managed.dl_tensor.ndim == 3
        managed.deleter(managed)
        assert c.calls == 1


def test_take_capsule_rejects_other_objects():
    with pytest.raises(TypeError, match="DLPack capsule"):
        _dlpack.take_capsule(object())
    other = _api.PyCapsule_New(BASE, b"something_else", _dlpack._capsule_destructor)
    with pytest.raises(TypeError, match="DLPack capsule"):
        _dlpack.take_capsule(other)


@pytest.mark.parametrize(
    "kwargs, error, needle",
    [
        (dict(device=(lib.kDLCPU, 0)), cvcuda.InvalidArgumentError, "kDLCPU"),
        (dict(dtype=(lib.kDLFloat, 32, 4)), cvcuda.NotSupportedError, "lanes=4"),
        (dict(dtype=(lib.kDLFloat8_e5m2, 8, 1)), cvcuda.NotSupportedError, "code 12"),
        (dict(major=2), cvcuda.InvalidArgumentError, "major version"),
        (dict(), cvcuda.InvalidArgumentError, "producer is NULL"),  # valid: reaches the stream check
    ],
)
def test_c_validation_of_managed_tensors_keeps_ownership_with_the_caller(kwargs, error, needle):
    c = Counted(**kwargs)
    out = ffi.new("cvTensor *")
    status = lib.cvTensorWrapDLPack(c.managed, b"NHW", ffi.NULL, out)
    exc = cvcuda._errors.error_from_status(lib, status)
    assert isinstance(exc, error) and needle in str(exc)
    assert out[0] == ffi.NULL and c.calls == 0


class HostProducer:
    def __dlpack_device__(self):
        return (1, 0)

    def __dlpack__(self, **kwargs):
        raise AssertionError("a host producer must not be asked for a capsule")


def test_from_dlpack_rejects_host_producers_and_non_producers_before_any_gpu_call():
    with pytest.raises(TypeError, match="host memory"):
        cvcuda.from_dlpack(HostProducer())
    with pytest.raises(TypeError, match="no __dlpack__"):
        cvcuda.from_dlpack(object())
    with pytest.raises(TypeError, match="host"):
        cvcuda.from_dlpack(numpy.zeros(3))


def _ready(typestr, shape=(2, 3)):
    return CaiObject({"shape": shape, "typestr": typestr, "data": (BASE, False), "version": 3, "stream": None})


@pytest.mark.parametrize("stream, error, needle", [
    (0, BufferError, "stream=0"),
    (2, BufferError, "per-thread"),
    (-7, BufferError, "negative"),
    ("1", TypeError, "must be None or an int"),
])
def test_dlpack_export_rejects_bad_streams_before_any_gpu_call(stream, error, needle):
    t = cvcuda.as_tensor(_ready("|u1"), "HW")
    with pytest.raises(error, match=needle):
        t.__dlpack__(stream=stream, max_version=(1, 0))


@pytest.mark.parametrize("typestr, name", [("<c8", "complex64"), ("<c16", "complex128")])
def test_complex_cai_wraps_with_its_numpy_dtype(typestr, name):
    t = cvcuda.as_tensor(_ready(typestr), "HW")
    assert t.dtype == numpy.dtype(name)
    assert t.strides == (3 * numpy.dtype(name).itemsize, numpy.dtype(name).itemsize)


def test_complex_of_unsupported_size_is_not_supported():
    with pytest.raises(cvcuda.NotSupportedError, match="complex"):
        cvcuda.as_tensor(_ready("<c32"), "HW")
