"""Python-level argument checks and C validation reached through the bindings, on a CPU machine."""

import pytest

import cvcuda
from cai_objects import BASE, CaiObject

# One row per bad cvcuda.Tensor(...) call: (args, exception, text the message must contain). The C library validates
# shapes, dtypes and layouts before it needs a device, so these run without a GPU.
BAD_TENSORS = [
    (((2, -1), "uint8"), cvcuda.InvalidArgumentError, "shape[1]=-1"),
    (((2,) * 9, "uint8"), cvcuda.InvalidArgumentError, "ndim=9"),
    (((2, 2), "complex256"), cvcuda.NotSupportedError, "complex"),
    (((2, 2), ">f4"), cvcuda.InvalidArgumentError, "big-endian"),
    (((2, 2), "uint8", "NHWC"), cvcuda.InvalidArgumentError, "layout"),
    (((2, 2), "uint8", "HH"), cvcuda.InvalidArgumentError, "repeats"),
    (((2, 2), "uint8", 4), TypeError, "layout"),
    (((2, 2), object()), TypeError, "dtype"),
    (((2, "a"), "uint8"), TypeError, "shape"),
]


@pytest.mark.parametrize("args,error,text", BAD_TENSORS, ids=[str(row[0]) for row in BAD_TENSORS])
def test_bad_tensor_arguments(args, error, text):
    with pytest.raises(error, match=None) as info:
        cvcuda.Tensor(*args)
    assert text in str(info.value)


# One row per non-array argument of as_tensor: (object, text of the TypeError).
NOT_ARRAYS = [
    (42, "does not expose __cuda_array_interface__"),
    (CaiObject([1, 2]), "must be a dict"),
]


@pytest.mark.parametrize("obj,text", NOT_ARRAYS, ids=["int", "list-cai"])
def test_as_tensor_rejects_non_arrays(obj, text):
    with pytest.raises(TypeError, match=text):
        cvcuda.as_tensor(obj)


def test_host_array_asks_for_cuda():
    numpy = pytest.importorskip("numpy")
    with pytest.raises(TypeError, match=r"\.cuda\(\)"):
        cvcuda.as_tensor(numpy.zeros(3))


@pytest.mark.parametrize("value", ["x", 1.5, None, -3, 1 << 64])
def test_as_stream_rejects_non_streams(value):
    with pytest.raises((TypeError, ValueError)):
        cvcuda.as_stream(value)


def test_readonly_wrapper_reports_it():
    t = cvcuda.as_tensor(CaiObject({"shape": (2, 3), "typestr": "<i2", "data": (BASE, True), "version": 2}), "HW")
    assert "readonly" in repr(t)
    assert t.strides == (6, 2)


def test_errors_carry_status():
    with pytest.raises(cvcuda.InvalidArgumentError) as info:
        cvcuda.as_tensor(CaiObject({"shape": (2,), "typestr": "|u1", "data": (0, False), "version": 3}))
    assert info.value.status_name == "CV_ERROR_INVALID_ARGUMENT"
    assert info.value.status == 1
    assert str(info.value).startswith("cvTensorWrap: data=0")


# One row per allocating operator and into-operator pair: a raw cffi pointer is not a stream argument for either
# (cvcuda.as_stream's TypeError, before anything is allocated), so both spellings reject it alike.
RAW_STREAM_CALLS = [
    ("flip", lambda src, s: cvcuda.flip(src, 1, stream=s)),
    ("flip_into", lambda src, s: cvcuda.flip_into(src, src, 1, stream=s)),
    ("normalize", lambda src, s: cvcuda.normalize(src, [0.0], [1.0], stream=s)),
]


@pytest.mark.parametrize("call", [row[1] for row in RAW_STREAM_CALLS], ids=[row[0] for row in RAW_STREAM_CALLS])
def test_raw_cffi_pointer_is_not_a_stream(call):
    from cvcuda._ffi import ffi

    src = cvcuda.as_tensor(CaiObject({"shape": (4, 5, 1), "typestr": "<f4", "data": (BASE, False), "version": 3,
                                      "stream": None}), "HWC")
    with pytest.raises(TypeError, match="cvcuda.as_stream"):
        call(src, ffi.NULL)
