"""Reproducers of review defects of the Python layer, on a CPU machine with plain CAI objects: re-entrant as_tensor,
garbage accepted (NUL bytes, bools as integers), arguments checked before the stream, and one exception base."""

import numpy
import pytest

import cvcuda
from cai_objects import BASE, CaiObject


def cai(shape=(2, 3), typestr="|u1", data=(BASE, False), **extra):
    d = {"shape": shape, "typestr": typestr, "data": data, "version": 3, "stream": None}
    d.update(extra)
    return d


class Nested:
    """An integer whose __index__ wraps another array first, as user code inside a CAI dict may."""

    def __init__(self, value, inner):
        self.value, self.inner, self.seen = value, inner, None

    def __index__(self):
        self.seen = cvcuda.as_tensor(CaiObject(self.inner))
        return self.value


# One row per place where user code runs while as_tensor reads the dict: (the key holding the hook, the dict).
REENTRANT = [
    ("shape", lambda hook: cai(shape=(2, hook))),
    ("strides", lambda hook: cai(strides=(hook, 1))),
    ("data", lambda hook: cai(data=(hook, False))),
    ("stream", lambda hook: cai(stream=hook)),
]


@pytest.mark.parametrize("key,make", REENTRANT, ids=[row[0] for row in REENTRANT])
def test_as_tensor_is_reentrant(key, make):
    inner = cai(shape=(5, 7, 4), typestr="<f4", data=(BASE + (1 << 20), True))
    value = {"shape": 3, "strides": 3, "data": BASE + 512, "stream": -1}[key]
    hook = Nested(value, inner)
    outer = cvcuda.as_tensor(CaiObject(make(hook)), "HW")
    assert hook.seen is not None and hook.seen.shape == (5, 7, 4)
    assert outer.shape == (2, 3)
    assert outer.dtype == numpy.uint8
    info_repr = repr(outer)
    assert "readonly" not in info_repr
    assert f"data=0x{(BASE + 512 if key == 'data' else BASE):x}" in info_repr


# One row per malformed value: (id, dict or (dict, layout), exception, text the message must contain).
GARBAGE = [
    ("typestr NUL", cai(typestr="|u1\x00junk"), ValueError, "NUL"),
    ("layout NUL", (cai(), "HW\x00"), ValueError, "NUL"),
    ("shape bool", cai(shape=(2, True)), TypeError, "shape"),
    ("strides bool", cai(strides=(True, 1)), TypeError, "strides"),
    ("data bool", cai(data=(True, False)), TypeError, "data"),
    ("version bool", dict(cai(), version=True), TypeError, "version"),
    ("stream bool", cai(stream=True), TypeError, "stream"),
    ("shape float", cai(shape=(2, 3.0)), TypeError, "shape"),
]


@pytest.mark.parametrize("case,d,error,text", GARBAGE, ids=[row[0] for row in GARBAGE])
def test_garbage_is_rejected(case, d, error, text):
    d, layout = d if isinstance(d, tuple) else (d, None)
    with pytest.raises(error) as info:
        cvcuda.as_tensor(CaiObject(d), layout)
    assert text in str(info.value)


# numpy integers are integers everywhere (the same rule as int): one row per field.
NUMPY_INTEGERS = [
    ("shape", cai(shape=(numpy.int64(2), numpy.uint8(3)))),
    ("strides", cai(strides=(numpy.int32(3), numpy.int64(1)))),
    ("data", cai(data=(numpy.uint64(BASE), False))),
    ("version", dict(cai(), version=numpy.int8(3))),
    ("stream", cai(stream=numpy.int64(-1))),
]


@pytest.mark.parametrize("key,d", NUMPY_INTEGERS, ids=[row[0] for row in NUMPY_INTEGERS])
def test_numpy_integers_are_integers(key, d):
    t = cvcuda.as_tensor(CaiObject(d))
    assert t.shape == (2, 3)
    assert t.strides == (3, 1)


def test_tensor_shape_follows_the_integer_rule():
    with pytest.raises(TypeError, match="shape"):
        cvcuda.Tensor((2, True), numpy.uint8)
    with pytest.raises(TypeError, match="rowalign"):
        cvcuda.Tensor((2, 2), numpy.uint8, None, True)


def test_stream_argument_follows_the_integer_rule():
    src = cvcuda.as_tensor(CaiObject(cai()), "HW")
    with pytest.raises(TypeError, match="stream"):
        cvcuda.flip(src, 0, stream=True)
    with pytest.raises(TypeError):
        cvcuda.as_stream(False)


# Arguments are checked before the stream is resolved or anything allocated: on a CPU machine resolving the stream
# would raise NoDeviceError, so the TypeError/ValueError proves the order. One row per call.
def _src():
    return cvcuda.as_tensor(CaiObject(cai()), "HW")


CHECKED_FIRST = [
    ("flip src", lambda: cvcuda.flip(object(), 0), TypeError, "cvcuda.flip: src"),
    ("flip flipCode type", lambda: cvcuda.flip(_src(), "x"), TypeError, "flipCode"),
    ("flip flipCode bool", lambda: cvcuda.flip(_src(), True), TypeError, "flipCode"),
    ("flip flipCode range", lambda: cvcuda.flip(_src(), 2**31), ValueError, "flipCode"),
    ("flip_into dst", lambda: cvcuda.flip_into(object(), _src(), 0), TypeError, "dst"),
    ("flip_into src", lambda: cvcuda.flip_into(_src(), None, 0), TypeError, "src"),
    ("flip_into flipCode", lambda: cvcuda.flip_into(_src(), _src(), 1.0), TypeError, "flipCode"),
]


@pytest.mark.parametrize("case,call,error,text", CHECKED_FIRST, ids=[row[0] for row in CHECKED_FIRST])
def test_arguments_are_checked_before_the_stream(case, call, error, text, monkeypatch):
    import cvcuda._op as op
    import cvcuda._ops as ops

    def no_stream(*args):
        raise AssertionError("the stream was resolved, or the output allocated, before the arguments were checked")

    for module in (op, ops):
        monkeypatch.setattr(module, "stream_argument", no_stream)
    monkeypatch.setattr(op, "_create_on_stream", no_stream)
    with pytest.raises(error) as info:
        call()
    assert text in str(info.value)


# Every exception class of the library is a cvcuda.Error and keeps its built-in base: one row per class.
EXCEPTIONS = [
    (cvcuda.InvalidArgumentError, ValueError),
    (cvcuda.NotSupportedError, ValueError),
    (cvcuda.OutOfMemoryError, MemoryError),
    (cvcuda.NoDeviceError, RuntimeError),
    (cvcuda.CudaError, RuntimeError),
    (cvcuda.InvalidStateError, RuntimeError),
    (cvcuda.InternalError, RuntimeError),
]


@pytest.mark.parametrize("cls,builtin", EXCEPTIONS, ids=[row[0].__name__ for row in EXCEPTIONS])
def test_every_exception_is_a_cvcuda_error(cls, builtin):
    assert issubclass(cls, cvcuda.Error)
    assert issubclass(cls, builtin)


def test_c_errors_are_caught_as_cvcuda_error():
    with pytest.raises(cvcuda.Error) as info:
        cvcuda.as_tensor(CaiObject(cai(data=(0, False))))
    assert isinstance(info.value, ValueError)
    assert info.value.status_name == "CV_ERROR_INVALID_ARGUMENT"
