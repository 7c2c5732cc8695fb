"""The reference library's Python API (CV-CUDA 0.19), for what this package implements, checked without a GPU:
signatures (names, order, kinds, defaults) against the excerpt of its typed API in data/reference_api.pyi, enum
member names, and the value types (Type, TensorLayout, RectI), reshape and as_stream checks on plain CAI objects."""

import ast
import inspect
import os

import numpy
import pytest

import cvcuda
from cai_objects import BASE, CaiObject

with open(os.path.join(os.path.dirname(__file__), "data", "reference_api.pyi")) as _f:
    REFERENCE = ast.parse(_f.read())


def _reference_functions():
    """(qualified name, ast.FunctionDef) of every function and method of the excerpt, overloads included."""
    for node in REFERENCE.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.name.startswith("__") or (
                        isinstance(item, ast.FunctionDef) and item.name in ("__init__", "__enter__", "__exit__")):
                    yield f"{node.name}.{item.name}", item


def _is_property(node):
    return any(isinstance(d, ast.Name) and d.id == "property" or isinstance(d, ast.Attribute) for d in node.decorator_list)


ENUMS = ["Interp", "Border", "ColorConversion", "NormalizeFlags", "ChannelManip", "Round"]
CALLABLES = [(name, node) for name, node in _reference_functions()
             if name.split(".")[0] not in ENUMS + ["RectI", "TensorLayout"] and not _is_property(node)]


def _ours(qualified):
    obj = cvcuda
    for part in qualified.split("."):
        obj = getattr(obj, part)
    return obj


def _parameters(name, node):
    """The reference's parameters as (name, kind, default or inspect._empty), without a method's self; `...`
    defaults stay `...`."""
    args = node.args
    out = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for i, (arg, default) in enumerate(zip(positional, defaults)):
        kind = "positional-only" if i < len(args.posonlyargs) else "positional"
        out.append((arg.arg, kind, inspect.Parameter.empty if default is None else ast.literal_eval(default)))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        out.append((arg.arg, "keyword-only", inspect.Parameter.empty if default is None else ast.literal_eval(default)))
    return out[1:] if "." in name else out


@pytest.mark.parametrize("name,node", CALLABLES, ids=[f"{name}:{node.lineno}" for name, node in CALLABLES])
def test_signature_matches_the_reference(name, node):
    ours = inspect.signature(_ours(name))
    params = list(ours.parameters.values())
    if "." in name:
        params = params[1:]  # self
    reference = _parameters(name, node)
    for i, (ref_name, kind, default) in enumerate(reference):
        assert i < len(params), f"{name}: parameter {ref_name!r} missing"
        p = params[i]
        if kind == "positional-only":  # any name; must be passable by position
            assert p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL), (name, p)
            continue
        assert p.name == ref_name, f"{name}: parameter {i} is {p.name!r}, the reference's is {ref_name!r}"
        if kind == "keyword-only":
            assert p.kind is p.KEYWORD_ONLY, f"{name}: {ref_name} must be keyword-only"
        else:
            assert p.kind is p.POSITIONAL_OR_KEYWORD, f"{name}: {ref_name} must be positional"
        if default is not ...:
            assert p.default == default, f"{name}: {ref_name} defaults to {p.default!r}, the reference's {default!r}"
    extra = [p for p in params[len(reference):] if p.default is p.empty and p.kind not in (p.VAR_POSITIONAL,
                                                                                                    p.VAR_KEYWORD)]
    assert not extra, f"{name}: required parameters the reference lacks: {extra}"


def _members(class_name):
    node = next(n for n in REFERENCE.body if isinstance(n, ast.ClassDef) and n.name == class_name)
    return [item.target.id for item in node.body
            if isinstance(item, ast.AnnAssign) and not item.target.id.startswith("__")]


@pytest.mark.parametrize("class_name", ENUMS + ["TensorLayout"])
def test_members_match_the_reference(class_name):
    ours = getattr(cvcuda, class_name)
    for member in _members(class_name):
        value = getattr(ours, member)
        assert isinstance(value, ours), (class_name, member)


@pytest.mark.parametrize("class_name", ENUMS)
def test_enum_behaves_as_the_reference(class_name):
    cls = getattr(cvcuda, class_name)
    for name, member in cls.__members__.items():
        assert cls(int(member)) == member
        assert int(member) == member.__index__() == member.value
        assert hash(member) == hash(member.value)
        assert getattr(cls, name).value == member.value


def test_enum_values_follow_the_reference():
    assert int(cvcuda.Interp.NEAREST) == 0 and int(cvcuda.Interp.LINEAR) == 1 and int(cvcuda.Interp.CUBIC) == 2
    assert int(cvcuda.Border.CONSTANT) == 0 and int(cvcuda.Border.REFLECT101) == 4
    assert int(cvcuda.ColorConversion.BGR2RGB) == 4 == int(cvcuda.ColorConversion.RGB2BGR)  # OpenCV's COLOR_BGR2RGB
    assert int(cvcuda.ColorConversion.RGB2GRAY) == 7 and int(cvcuda.ColorConversion.YUV2RGB_NV12) == 90
    assert isinstance(cvcuda.Interp.LINEAR | cvcuda.Interp.WARP_INVERSE_MAP, int)


TYPES = [("U8", numpy.uint8), ("S8", numpy.int8), ("U16", numpy.uint16), ("S16", numpy.int16), ("U32", numpy.uint32),
         ("S32", numpy.int32), ("U64", numpy.uint64), ("S64", numpy.int64), ("F16", numpy.float16),
         ("F32", numpy.float32), ("F64", numpy.float64)]


@pytest.mark.parametrize("name,dtype", TYPES, ids=[row[0] for row in TYPES])
def test_type_members_are_numpy_dtypes(name, dtype):
    member = getattr(cvcuda.Type, name)
    assert isinstance(member, numpy.dtype) and member == numpy.dtype(dtype)
    t = cvcuda.as_tensor(CaiObject({"shape": (2,), "typestr": member.str, "data": (BASE, False), "version": 3,
                                    "stream": None}))
    assert t.dtype == member


def test_tensor_layout_is_a_str():
    assert cvcuda.TensorLayout("NHWC") == cvcuda.TensorLayout.NHWC == "NHWC"
    assert hash(cvcuda.TensorLayout.NHWC) == hash("NHWC")
    assert repr(cvcuda.TensorLayout.HW) == "cvcuda.TensorLayout('HW')"
    with pytest.raises(TypeError):
        cvcuda.TensorLayout(4)
    t = cvcuda.as_tensor(CaiObject({"shape": (2, 3), "typestr": "|u1", "data": (BASE, False), "version": 3,
                                    "stream": None}), cvcuda.TensorLayout.HW)
    assert type(t.layout) is cvcuda.TensorLayout and t.layout == "HW"
    none = cvcuda.as_tensor(CaiObject({"shape": (2, 3), "typestr": "|u1", "data": (BASE, False), "version": 3,
                                       "stream": None}), cvcuda.TensorLayout.NONE)
    assert none.layout is None


def test_rect():
    r = cvcuda.RectI(1, 2, numpy.int32(3), 4)
    assert (r.x, r.y, r.width, r.height) == (1, 2, 3, 4)
    assert cvcuda.RectI() == cvcuda.RectI(0, 0, 0, 0)
    r.x = 7
    assert r.x == 7
    with pytest.raises(TypeError, match="width"):
        r.width = True


def _wrapped(shape=(4, 6, 3), strides=None, readonly=False):
    d = {"shape": shape, "typestr": "<i2", "data": (BASE, readonly), "version": 3, "stream": None}
    if strides is not None:
        d["strides"] = strides
    return cvcuda.as_tensor(CaiObject(d), "HWC")


# One row per reshape: (source shape, source strides or None, new shape, layout, expected error or None).
RESHAPES = [
    ((4, 6, 3), None, (24, 3), "WC", None),
    ((4, 6, 3), None, (2, 2, 6, 3), "NHWC", None),
    ((4, 6, 3), None, (72,), None, None),
    ((4, 6, 3), None, (5, 6, 3), "HWC", ValueError),
    ((4, 6, 3), (72, 6, 2), (24, 3), "WC", ValueError),  # rows padded: no view exists
    ((4, 6, 3), None, (24, 3), "NHWC", cvcuda.InvalidArgumentError),  # layout of the wrong length
    ((4, 6, 3), None, (24, True), None, TypeError),
]


@pytest.mark.parametrize("shape,strides,new,layout,error", RESHAPES, ids=[f"{row[0]}->{row[2]}" for row in RESHAPES])
def test_reshape(shape, strides, new, layout, error):
    t = _wrapped(shape, strides, readonly=True)
    if error is not None:
        with pytest.raises(error):
            t.reshape(new, layout)
        return
    for view in (t.reshape(new, layout), cvcuda.reshape(t, new, layout=layout)):
        assert view.shape == new
        assert view.layout == layout
        assert view.dtype == numpy.int16
        assert "readonly" in repr(view) and f"data=0x{BASE:x}" in repr(view)


def test_reshape_keeps_the_base_alive():
    import gc
    import weakref

    base = _wrapped()
    ref = weakref.ref(base)
    view = base.reshape((72,))
    del base
    gc.collect()
    assert ref() is not None
    del view
    gc.collect()
    assert ref() is None


def test_as_stream_types_without_a_device():
    import ctypes

    for bad in (True, 1.5, "0", ctypes.c_int(3)):
        with pytest.raises(TypeError):
            cvcuda.as_stream(bad)


# rowalign is checked before anything is allocated: one row per value, (shape, layout, rowalign, error).
ROWALIGNS = [
    ((8, 5, 3), "HWC", 32, cvcuda.NotSupportedError),  # 15-byte packed rows cannot be 32-byte aligned
    ((8, 5, 3), "HWC", 3, ValueError),  # not a power of two
    ((8, 5, 3), "HWC", -1, ValueError),
    ((8, 5, 3), "HWC", 1.0, TypeError),
]


@pytest.mark.parametrize("shape,layout,rowalign,error", ROWALIGNS, ids=[str(row[2]) for row in ROWALIGNS])
def test_rowalign_checks(shape, layout, rowalign, error):
    with pytest.raises(error, match="rowalign"):
        cvcuda.Tensor(shape, cvcuda.Type.U8, layout, rowalign)
