"""Python-level argument checks of the image operators: TypeErrors and ValueErrors before any stream or allocation
(no GPU needed)."""

import pytest

import cvcuda
from cai_objects import BASE, CaiObject


def fake(shape=(2, 10, 12, 3), typestr="|u1", layout="NHWC"):
    return cvcuda.as_tensor(CaiObject({"shape": shape, "typestr": typestr, "data": (BASE, False), "version": 3,
                                       "stream": None}), layout)


@pytest.mark.parametrize("call,message", [
    (lambda s: cvcuda.customcrop(s, (0, 0, 1, 1)), "cvcuda.customcrop: rect must be a cvcuda.RectI, got tuple"),
    (lambda s: cvcuda.customcrop_into(s, "x", cvcuda.RectI(0, 0, 1, 1)), "cvcuda.customcrop_into: src must be a cvcuda.Tensor"),
    (lambda s: cvcuda.customcrop("x", cvcuda.RectI(0, 0, 1, 1)), "cvcuda.customcrop: src must be a cvcuda.Tensor"),
    (lambda s: cvcuda.center_crop(s, 5), r"cvcuda.center_crop: crop_size must be a \(width, height\) pair"),
    (lambda s: cvcuda.center_crop(s, (5.0, 4)), r"cvcuda.center_crop: crop_size\[0\] \(width\) must be an int"),
    (lambda s: cvcuda.convertto(s, "float32", "2"), "cvcuda.convertto: scale must be a number, got str"),
    (lambda s: cvcuda.convertto(s, "float32", 1, None), "cvcuda.convertto: offset must be a number, got NoneType"),
    (lambda s: cvcuda.convertto_into(s, s, round="nearest"), "cvcuda.convertto_into: round must be an int, got str"),
    (lambda s: cvcuda.convertto_into(s, s, round=4), None),
    (lambda s: cvcuda.normalize(s, "abc", [1.0]), "cvcuda.normalize: base\\[0\\] must be a number, got str"),
    (lambda s: cvcuda.normalize(s, 3.0, [1.0]), "cvcuda.normalize: base must be a cvcuda.Tensor or a sequence of floats"),
    (lambda s: cvcuda.normalize(s, [0.0], [1.0], 1.5), "cvcuda.normalize: flags must be an int, got float"),
    (lambda s: cvcuda.normalize(s, [0.0], [1.0], globalscale="x"), "cvcuda.normalize: globalscale must be a number"),
    (lambda s: cvcuda.normalize_into(s, s, [0.0], [1.0], epsilon=None), "cvcuda.normalize_into: epsilon must be a number"),
    (lambda s: cvcuda.reformat(s, 4), "cvcuda.reformat: layout must be a str"),
    (lambda s: cvcuda.reformat_into(3, s), "cvcuda.reformat_into: dst must be a cvcuda.Tensor"),
])
def test_type_errors_come_first(call, message):
    with pytest.raises(ValueError if message is None else TypeError,
                       match=r"round=4 is outside \[0, 3\]" if message is None else message):
        call(fake())


def test_reformat_layout_labels_must_match():
    with pytest.raises(ValueError, match="cvcuda.reformat: layout='NCH' must hold the labels of src's layout 'NHWC'"):
        cvcuda.reformat(fake(), "NCH")


def test_flags_range():
    with pytest.raises(ValueError, match=r"cvcuda.normalize: flags=-1 is outside \[0, 4294967295\]"):
        cvcuda.normalize(fake(), [0.0], [1.0], -1)
