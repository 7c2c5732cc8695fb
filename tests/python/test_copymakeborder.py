"""copymakeborder on the GPU against an independent numpy reference (numpy.pad) and cv2.copyMakeBorder (random data,
poisoned outputs, odd sizes, every dtype x channel count x layout x mode, strided sources and pitched outputs, paddings
larger than the image), plus the Python-side argument checks (no GPU needed)."""

import numpy
import pytest

import cvcuda
from cai_objects import BASE, CaiObject

# cvcuda.Border -> numpy.pad mode (OpenCV's REFLECT repeats the edge pixel: numpy's "symmetric").
MODES = {"CONSTANT": "constant", "REPLICATE": "edge", "REFLECT": "symmetric", "WRAP": "wrap", "REFLECT101": "reflect"}
# torch dtype name -> the numpy dtype the result is compared as (uint16/uint32/uint64 travel as their signed bits).
DTYPES = {"uint8": "uint8", "int8": "int8", "int16": "int16", "uint16": "uint16", "int32": "int32", "uint32": "uint32",
          "int64": "int64", "float16": "float16", "bfloat16": None, "float32": "float32", "float64": "float64",
          "bool": "bool"}
SIGNED_BITS = {"uint16": ("int16", "<u2"), "uint32": ("int32", "<u4")}
SIZES = [(1, 1), (3, 5), (1081, 1919)]


@pytest.fixture
def cv2(gpu):
    try:
        import cv2
    except ImportError:
        from conftest import unavailable

        unavailable("OpenCV (cv2) is not installed")
    return cv2


def random_image(torch, dtype, shape):
    bits = SIGNED_BITS.get(dtype, (dtype,))[0]
    if dtype == "bool":
        return torch.rand(shape, device="cuda") > 0.5
    if bits in ("uint8", "int8", "int16", "int32", "int64"):
        info = torch.iinfo(getattr(torch, bits))
        lo, hi = max(info.min, -(2**31)), min(info.max, 2**31 - 1)
        return torch.randint(lo, hi, shape, dtype=getattr(torch, bits), device="cuda")
    return (torch.rand(shape, device="cuda") * 200 - 100).to(getattr(torch, dtype))


def wrap(torch, t, layout, dtype):
    if dtype not in SIGNED_BITS:
        return cvcuda.as_tensor(t, layout)
    torch.cuda.synchronize()
    holder = CaiObject(dict(t.__cuda_array_interface__, typestr=SIGNED_BITS[dtype][1], version=3, stream=None))
    holder.owner = t
    return cvcuda.as_tensor(holder, layout)


def host(t, dtype):
    if dtype == "bfloat16":
        return t.view(__import__("torch").int16).cpu().numpy()
    out = t.cpu().numpy()
    return out.view(numpy.dtype(DTYPES[dtype])) if dtype in SIGNED_BITS else out


def constant_value(value, dtype):
    """OpenCV's saturate_cast of the border value to the element type (round half to even, clamp)."""
    if dtype == "bool":
        return numpy.array(value != 0)
    if dtype in ("float16", "float32", "float64"):
        return numpy.array(value, dtype=dtype)
    info = numpy.iinfo(dtype)
    return numpy.array(min(max(numpy.rint(value), info.min), info.max)).astype(dtype)


def reference(src, top, bottom, left, right, mode, values, dtype):
    pad = [(0, 0)] * (src.ndim - 3) + [(top, bottom), (left, right), (0, 0)]
    if mode != "CONSTANT":
        return numpy.pad(src, pad, mode=MODES[mode])
    out = numpy.pad(src, pad, mode="constant")
    mask = numpy.ones(out.shape[:-1], dtype=bool)
    mask[..., top:top + src.shape[-3], left:left + src.shape[-2]] = False
    for c in range(src.shape[-1]):
        v = values[c] if c < len(values) else 0.0
        out[..., c][mask] = constant_value(v, dtype)
    return out


def run(torch, src, dtype, layout, mode, values, top, bottom, left, right):
    shape = list(src.shape)
    shape[-3] += top + bottom
    shape[-2] += left + right
    dst = torch.full(shape, 1, dtype=src.dtype, device="cuda")  # poisoned
    if dst.dtype != torch.bool:
        dst.view(torch.uint8).fill_(0xA5)
    dst_cv = wrap(torch, dst, layout, dtype)
    out = cvcuda.copymakeborder_into(dst_cv, wrap(torch, src, layout, dtype), getattr(cvcuda.Border, mode), values,
                                     top=top, left=left)
    assert out is dst_cv
    torch.cuda.synchronize()
    return dst


def check(torch, src, dst, dtype, mode, values, top, bottom, left, right):
    if dtype == "bfloat16":  # a float type numpy lacks: the reference in float32, then float32 -> bfloat16 rounding
        exp = reference(src.float().cpu().numpy(), top, bottom, left, right, mode, values, "float32")
        got = dst.float().cpu().numpy()
        numpy.testing.assert_array_equal(got, torch.tensor(exp).to(torch.bfloat16).float().numpy())
        return
    expected = reference(host(src, dtype), top, bottom, left, right, mode, values, dtype)
    numpy.testing.assert_array_equal(host(dst, dtype), expected)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("channels", [1, 2, 3, 4])
@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("layout", ["HWC", "NHWC"])
def test_every_dtype_channels_layout_mode(torch, layout, dtype, channels, mode):
    shape = (7, 9, channels) if layout == "HWC" else (2, 7, 9, channels)
    src = random_image(torch, dtype, shape)
    values = [3.0, 250.0, -7.5, 1.0][:channels]
    pads = (2, 3, 5, 1)
    dst = run(torch, src, dtype, layout, mode, values, *pads)
    check(torch, src, dst, dtype, mode, values, *pads)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("pads", [(0, 0, 0, 0), (1, 2, 3, 4), (16, 16, 32, 32), (7, 0, 0, 13)])
def test_sizes_and_paddings(torch, size, mode, pads):
    src = random_image(torch, "uint8", (2, size[0], size[1], 3))
    dst = run(torch, src, "uint8", "NHWC", mode, [10, 20, 30], *pads)
    check(torch, src, dst, "uint8", mode, [10, 20, 30], *pads)


@pytest.mark.parametrize("mode", ["REFLECT", "REFLECT101", "WRAP", "REPLICATE"])
def test_padding_larger_than_the_image(torch, mode):
    src = random_image(torch, "uint8", (3, 2, 3))
    pads = (9, 10, 11, 7)
    dst = run(torch, src, "uint8", "HWC", mode, [], *pads)
    check(torch, src, dst, "uint8", mode, [], *pads)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_matches_opencv(torch, cv2, mode, dtype, channels):
    src = random_image(torch, dtype, (37, 53, channels))
    values = [5.0, 6.0, 7.0, 8.0][:channels]
    dst = run(torch, src, dtype, "HWC", mode, values, 4, 6, 9, 2)
    cv_mode = {"CONSTANT": cv2.BORDER_CONSTANT, "REPLICATE": cv2.BORDER_REPLICATE, "REFLECT": cv2.BORDER_REFLECT,
               "WRAP": cv2.BORDER_WRAP, "REFLECT101": cv2.BORDER_REFLECT_101}[mode]
    expected = cv2.copyMakeBorder(host(src, dtype), 4, 6, 9, 2, cv_mode, value=values + [0] * (4 - channels))
    numpy.testing.assert_array_equal(host(dst, dtype), expected.reshape(dst.shape))


@pytest.mark.parametrize("view", ["column-slice", "pitched-rows", "channel-slice"])
@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT101"])
def test_strided_sources(torch, view, mode):
    base = random_image(torch, "uint8", (2, 31, 70, 4))
    src = {"column-slice": base[:, :, 1::2, :3], "pitched-rows": base[:, :, 5:66, :],
           "channel-slice": base[..., 1:3]}[view]
    c = src.shape[-1]
    pads = (3, 2, 17, 5)
    dst = run(torch, src, "uint8", "NHWC", mode, [9, 8, 7][:c], *pads)
    check(torch, src, dst, "uint8", mode, [9, 8, 7][:c], *pads)


def test_pitched_destination(torch):
    src = random_image(torch, "uint8", (13, 11, 3))
    big = torch.full((20, 40, 3), 5, dtype=torch.uint8, device="cuda")
    dst = big[2:18, 3:20, :]  # 16 x 17 view with a 120-byte row pitch
    cvcuda.copymakeborder_into(cvcuda.as_tensor(dst, "HWC"), cvcuda.as_tensor(src, "HWC"), cvcuda.Border.WRAP,
                               top=1, left=4)
    torch.cuda.synchronize()
    numpy.testing.assert_array_equal(dst.cpu().numpy(), reference(src.cpu().numpy(), 1, 2, 4, 2, "WRAP", [], "uint8"))
    outside = big.clone()
    outside[2:18, 3:20, :] = 5
    assert bool((outside == 5).all()), "bytes outside the dst view were written"


def test_new_output_shape_and_value_saturation(torch):
    src = random_image(torch, "uint8", (1, 4, 5, 3))
    out = cvcuda.copymakeborder(cvcuda.as_tensor(src, "NHWC"), border_value=[254.5, 300, -1], top=1, bottom=2, left=3,
                                right=4)
    torch.cuda.synchronize()
    assert out.shape == (1, 7, 12, 3) and out.layout == "NHWC"
    got = torch.as_tensor(out.cuda(), device="cuda").cpu().numpy()
    assert got[0, 0, 0].tolist() == [254, 255, 0]
    numpy.testing.assert_array_equal(got[:, 1:5, 3:8], src.cpu().numpy())


def test_empty_source_needs_constant(torch):
    src = cvcuda.as_tensor(torch.empty((0, 5, 3), dtype=torch.uint8, device="cuda"), "HWC")
    out = cvcuda.copymakeborder(src, cvcuda.Border.CONSTANT, [1, 2, 3], top=2, bottom=0, left=0, right=0)
    torch.cuda.synchronize()
    assert torch.as_tensor(out.cuda(), device="cuda").cpu().numpy().tolist() == [[[1, 2, 3]] * 5] * 2
    with pytest.raises(cvcuda.InvalidArgumentError, match="only CV_BORDER_MODE_CONSTANT"):
        cvcuda.copymakeborder(src, cvcuda.Border.REFLECT, top=2, bottom=0, left=0, right=0)


def test_benchmark_shape(torch):
    """The benchmark's batch (32 x 1080 x 1920 RGB) through the chunk path, with a left padding that shifts the
    interior off 16-byte alignment."""
    src = random_image(torch, "uint8", (32, 1080, 1920, 3))
    dst = run(torch, src, "uint8", "NHWC", "CONSTANT", [1, 2, 3], 8, 8, 5, 11)
    exp = torch.zeros_like(dst)
    exp[..., 0], exp[..., 1], exp[..., 2] = 1, 2, 3
    exp[:, 8:1088, 5:1925] = src
    assert torch.equal(dst, exp)


# --- Python-side checks (no GPU) ------------------------------------------------------------------------------------

def fake_tensor(shape=(4, 6, 3)):
    cai = {"shape": shape, "typestr": "|u1", "data": (BASE, False), "version": 3, "strides": None, "stream": None}
    return cvcuda.as_tensor(CaiObject(cai), "HWC")


PAD = dict(top=1, bottom=1, left=1, right=1)


@pytest.mark.parametrize("call,error,match", [
    (lambda t: cvcuda.copymakeborder(t, **dict(PAD, top=-1)), ValueError, "cvcuda.copymakeborder: top=-1 is outside"),
    (lambda t: cvcuda.copymakeborder(t, **dict(PAD, right=-3)), ValueError, "right=-3 is outside"),
    (lambda t: cvcuda.copymakeborder(t, **dict(PAD, left=1.0)), TypeError, "left must be an int"),
    (lambda t: cvcuda.copymakeborder(t, 9, **PAD), ValueError, "border_mode=9 is not a cvcuda.Border"),
    (lambda t: cvcuda.copymakeborder(t, cvcuda.Border.CONSTANT_COVERAGE, **PAD), ValueError, "interpolating"),
    (lambda t: cvcuda.copymakeborder(t, "REFLECT", **PAD), TypeError, "border_mode must be an int"),
    (lambda t: cvcuda.copymakeborder(t, 0, [1, 2, 3, 4, 5], **PAD), ValueError, "5 values"),
    (lambda t: cvcuda.copymakeborder(t, 0, ["a"], **PAD), TypeError, r"border_value\[0\] must be a number"),
    (lambda t: cvcuda.copymakeborder(t, 0, 5, **PAD), TypeError, "border_value must be a sequence"),
    (lambda t: cvcuda.copymakeborder("x", **PAD), TypeError, "src must be a cvcuda.Tensor"),
    (lambda t: cvcuda.copymakeborder_into(t, t, top=-1, left=0), ValueError, "copymakeborder_into: top=-1"),
])
def test_python_argument_checks(call, error, match):
    with pytest.raises(error, match=match):
        call(fake_tensor())


def test_keyword_only_paddings():
    with pytest.raises(TypeError):
        cvcuda.copymakeborder(fake_tensor(), 0, [], 1, 1, 1, 1)
