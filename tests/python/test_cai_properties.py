"""Property-based tests of cvcuda.as_tensor on plain objects carrying CAI dicts (CPU: nothing is dereferenced).

Valid dicts are built constructively and must wrap, describe themselves, and round-trip through Tensor.cuda()
unchanged; dicts with exactly one defect must raise ValueError/TypeError naming the defective key; arbitrary dicts
must never raise anything else."""

import numpy
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import cvcuda
from cai_objects import BASE, LABELS, TYPESTRS, CaiObject, contiguous_strides, itemsize, numel

# Producer-stream states that need no GPU at wrap time. Export (.cuda()) of a wrapper whose producer is unknown
# (absent, 0, 1, 2) pays the defensive device sync first, so only the "ready" states round-trip on a CPU machine.
READY_STREAMS = [None, -1]
UNKNOWN_STREAMS = ["absent", 0, 1, 2]


@st.composite
def valid_cai(draw, streams):
    typestr = draw(st.sampled_from(TYPESTRS))
    ndim = draw(st.integers(0, 8))
    shape = tuple(draw(st.lists(st.integers(0, 5), min_size=ndim, max_size=ndim)))
    version = 3 if streams is READY_STREAMS else draw(st.sampled_from([2, 3]))
    empty = numel(shape) == 0
    pointer = 0 if empty and draw(st.booleans()) else BASE + draw(st.integers(0, 1 << 20)) * 256
    d = {"shape": shape, "typestr": typestr, "data": (pointer, draw(st.booleans())), "version": version}
    strides_form = draw(st.sampled_from(["absent", "none", "explicit"]))
    if strides_form == "none":
        d["strides"] = None
    elif strides_form == "explicit":
        d["strides"] = tuple(draw(st.integers(-64, 64)) * itemsize(typestr) for _ in range(ndim))
    if draw(st.booleans()):
        d["mask"] = None
    if version == 3:
        stream = draw(st.sampled_from(streams))
        if stream != "absent":
            d["stream"] = stream
    layout = None
    if 0 < ndim <= len(LABELS) and draw(st.booleans()):
        layout = "".join(draw(st.permutations(LABELS))[:ndim])
    return d, layout


def expected_strides(d):
    return d["strides"] if d.get("strides") is not None else contiguous_strides(d["shape"], itemsize(d["typestr"]))


@given(valid_cai(READY_STREAMS))
def test_valid_dict_round_trips_through_cuda(case):
    d, layout = case
    t = cvcuda.as_tensor(CaiObject(d), layout)
    assert t.shape == d["shape"]
    assert t.ndim == len(d["shape"])
    assert t.layout == layout
    assert t.dtype == numpy.dtype(d["typestr"])
    exported = t.cuda().__cuda_array_interface__
    assert exported["version"] == 3
    assert exported["shape"] == d["shape"]
    assert exported["typestr"] == d["typestr"]
    assert exported["data"] == d["data"]
    assert exported["stream"] is None
    if numel(d["shape"]) > 0:  # strides of an empty array address nothing
        assert exported["strides"] == expected_strides(d)
    again = cvcuda.as_tensor(t.cuda())
    assert again.layout == layout
    assert again.cuda().__cuda_array_interface__ == exported


@given(valid_cai(UNKNOWN_STREAMS))
def test_valid_dict_with_unknown_producer_wraps(case):
    d, layout = case
    t = cvcuda.as_tensor(CaiObject(d), layout)
    assert (t.shape, t.layout, t.dtype) == (d["shape"], layout, numpy.dtype(d["typestr"]))
    if numel(d["shape"]) > 0:
        assert t.strides == expected_strides(d)


def _drop(key):
    def mutate(d, layout):
        del d[key]
        return d, layout
    return mutate


def _set(key, value):
    def mutate(d, layout):
        d[key] = value
        return d, layout
    return mutate


def _bad_extent(d, layout):
    d["shape"] = (-3,) + d["shape"][1:]
    return d, layout


def _float_extent(d, layout):
    d["shape"] = (2.0,) + d["shape"][1:]
    return d, layout


def _too_many_dims(d, layout):
    d["shape"] = (1,) * 9
    d.pop("strides", None)
    return d, None


def _odd_stride(d, layout):
    strides = list(expected_strides(d))
    strides[0] += 1
    d["strides"] = tuple(strides)
    return d, layout


def _short_strides(d, layout):
    d["strides"] = tuple(expected_strides(d))[1:]
    return d, layout


def _null_data(d, layout):
    d["data"] = (0, d["data"][1])
    return d, layout


def _readonly_str(d, layout):
    d["data"] = (d["data"][0], "yes")
    return d, layout


def _long_layout(d, layout):
    return d, "NCHWDF"[: len(d["shape"]) + 1] if len(d["shape"]) < 6 else "NN"


nonscalar = lambda d: len(d["shape"]) >= 1  # noqa: E731
nonempty = lambda d: numel(d["shape"]) > 0  # noqa: E731
strideable = lambda d: len(d["shape"]) >= 1 and d["shape"][0] > 1 and itemsize(d["typestr"]) > 1  # noqa: E731
always = lambda d: True  # noqa: E731

# One row per defect: (key the message must name, precondition on the valid dict, mutation, exception type).
DEFECTS = [
    ("shape", always, _drop("shape"), ValueError),
    ("shape", always, _set("shape", 5), TypeError),
    ("shape", nonscalar, _bad_extent, ValueError),
    ("shape", nonscalar, _float_extent, TypeError),
    ("shape", always, _too_many_dims, ValueError),
    ("typestr", always, _drop("typestr"), ValueError),
    ("typestr", always, _set("typestr", 42), TypeError),
    ("typestr", always, _set("typestr", ">f4"), ValueError),
    ("typestr", always, _set("typestr", "<c32"), cvcuda.NotSupportedError),
    ("typestr", always, _set("typestr", "<V2"), ValueError),
    ("typestr", always, _set("typestr", "u1"), ValueError),
    ("typestr", always, _set("typestr", "<f\u00e9"), ValueError),
    ("typestr", always, _set("typestr", "<f" + "4" * 20), ValueError),
    ("data", always, _drop("data"), ValueError),
    ("data", always, _set("data", BASE), TypeError),
    ("data", always, _set("data", ("0x10000", False)), TypeError),
    ("data", always, _set("data", (-1, False)), ValueError),
    ("data", always, _set("data", (1 << 64, False)), ValueError),
    ("data", always, _readonly_str, TypeError),
    ("data", nonempty, _null_data, ValueError),
    ("version", always, _drop("version"), ValueError),
    ("version", always, _set("version", "3"), TypeError),
    ("version", always, _set("version", 4), ValueError),
    ("strides", always, _set("strides", "abc"), TypeError),
    ("strides", nonscalar, _short_strides, ValueError),
    ("strides", strideable, _odd_stride, ValueError),
    ("mask", always, _set("mask", object()), cvcuda.NotSupportedError),
    ("stream", always, _set("stream", "default"), TypeError),
    ("stream", always, _set("stream", 1.5), TypeError),
    ("stream", always, _set("stream", -2), ValueError),
    ("stream", always, _set("stream", 1 << 70), ValueError),
    ("layout", always, _long_layout, ValueError),
]


@pytest.mark.parametrize("key,precondition,mutate,error", DEFECTS,
                         ids=[f"{row[0]}-{i}" for i, row in enumerate(DEFECTS)])
@given(case=valid_cai(READY_STREAMS))
def test_one_defect_raises_naming_the_key(key, precondition, mutate, error, case):
    d, layout = case
    assume(precondition(d))
    bad, layout = mutate(dict(d), layout)
    with pytest.raises(error) as info:
        cvcuda.as_tensor(CaiObject(bad), layout)
    assert key in str(info.value)


VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-(1 << 70), 1 << 70), st.floats(), st.text(max_size=20),
    st.tuples(st.integers(-(1 << 65), 1 << 65), st.booleans()),
    st.lists(st.integers(-(1 << 65), 1 << 65), max_size=10).map(tuple), st.sampled_from(TYPESTRS),
)


@given(st.dictionaries(st.sampled_from(["shape", "typestr", "data", "version", "strides", "mask", "stream", "descr"]),
                       VALUES),
       st.one_of(st.none(), st.text(max_size=10)))
def test_arbitrary_dicts_raise_only_type_or_value_errors(d, layout):
    try:
        cvcuda.as_tensor(CaiObject(d), layout)
    except (TypeError, ValueError):
        pass


def test_each_export_is_a_fresh_dict_with_the_same_description():
    """Tensor.cuda() caches the immutable parts of the CAI per tensor: every call still returns its own dict (a
    consumer may change it) holding equal values, and the wrapped-back tensor describes the same memory."""
    owner = CaiObject({"shape": (2, 3, 4), "typestr": "<f4", "data": (BASE, False), "version": 3, "stream": None})
    t = cvcuda.as_tensor(owner, "HWC")
    first, second = t.cuda(), t.cuda()
    assert first.__cuda_array_interface__ is not second.__cuda_array_interface__
    assert first.__cuda_array_interface__ == second.__cuda_array_interface__
    first.__cuda_array_interface__["shape"] = (1,)
    assert t.cuda().__cuda_array_interface__["shape"] == (2, 3, 4)
    back = cvcuda.as_tensor(second)
    assert (back.shape, back.strides, back.layout, back.dtype) == (t.shape, t.strides, "HWC", numpy.dtype("float32"))
    assert back.cuda().__cuda_array_interface__ == second.__cuda_array_interface__
