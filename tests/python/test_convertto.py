"""convertto: OpenCV's saturate_cast cases exactly (one row each), every dtype pair against a float64 reference on
random data, strided, negative-stride and in-place conversions, poisoned outputs."""

import math

import numpy
import pytest

import cvcuda
from image_helpers import seed, ARITHMETIC, host, poisoned, random_tensor, reversed_view

N, T, NW, TW = cvcuda.Round.NEAREST, cvcuda.Round.TRUNCATE, cvcuda.Round.NEAREST_WRAP, cvcuda.Round.TRUNCATE_WRAP
INF, NAN = math.inf, math.nan

# (src dtype, dst dtype, input, round, expected). OpenCV's saturate_cast (cvRound: half to even, then clamp),
# except NaN -> 0 for signed targets too (OpenCV on x86 gives INT_MIN saturated; see include/cvcuda/convert_to.h).
EXACT = [
    ("float32", "uint8", 254.5, N, 254), ("float32", "uint8", 255.5, N, 255), ("float32", "uint8", -0.1, N, 0),
    ("float32", "uint8", 300.0, N, 255), ("float32", "uint8", NAN, N, 0), ("float32", "uint8", 0.5, N, 0),
    ("float32", "uint8", 1.5, N, 2), ("float32", "uint8", 2.5, N, 2), ("float32", "uint8", -0.5, N, 0),
    ("float32", "uint8", INF, N, 255), ("float32", "uint8", -INF, N, 0),
    ("float32", "int8", 127.5, N, 127), ("float32", "int8", -128.5, N, -128), ("float32", "int8", -2.5, N, -2),
    ("float32", "int8", NAN, N, 0), ("float32", "int16", 32767.5, N, 32767), ("float32", "int16", -40000.0, N, -32768),
    ("float32", "uint16", 65535.5, N, 65535), ("float32", "uint16", 3.5, N, 4), ("float32", "uint16", -1.0, N, 0),
    ("float64", "int32", 2147483647.5, N, 2147483647), ("float64", "int32", 1e10, N, 2147483647),
    ("float64", "int32", -2147483648.5, N, -2147483648), ("float64", "int32", -2.5, N, -2), ("float64", "int32", NAN, N, 0),
    ("float64", "int32", NAN, T, 0), ("float64", "int32", NAN, NW, 0), ("float32", "int32", NAN, TW, 0),
    ("float64", "int8", NAN, N, 0),
    ("int32", "float32", 16777217, N, 16777216.0),  # nearest even float
    ("int32", "int16", 70000, N, 32767), ("int16", "uint8", -5, N, 0), ("uint16", "int8", 200, N, 127),
    ("float32", "uint8", 2.7, T, 2), ("float32", "int8", -2.7, T, -2), ("float32", "uint8", -2.7, T, 0),
    ("float32", "uint8", 300.9, T, 255), ("float32", "uint8", NAN, T, 0),
    ("float32", "uint8", 256.0, NW, 0), ("float32", "uint8", 257.4, NW, 1), ("float32", "uint8", -1.0, NW, 0),
    ("float32", "int8", 128.0, NW, -128), ("float32", "int8", 200.0, NW, -56), ("float32", "uint8", 511.9, TW, 255),
    ("float32", "int16", -32769.0, TW, 32767), ("int32", "uint8", 513, NW, 1),
    ("float32", "float16", 70000.0, N, INF), ("float32", "float16", -70000.0, N, -INF),
    ("float32", "float16", 1.0 + 2.0**-11, N, 1.0),  # tie to even
    ("float32", "bfloat16", 1.0 + 2.0**-8, N, 1.0), ("float32", "bfloat16", 1.0 + 3 * 2.0**-8, N, 1.0 + 2.0**-6),
    ("float64", "float32", 1e39, N, INF), ("float32", "float64", NAN, N, NAN), ("float16", "uint8", 255.9, T, 255),
    ("bfloat16", "int32", -3.5, N, -4), ("float32", "float32", 3.25, T, 3.25),
]


@pytest.mark.parametrize("src_dtype,dst_dtype,value,mode,expected", EXACT)
def test_saturate_cast_cases(torch, src_dtype, dst_dtype, value, mode, expected):
    src_t = torch.tensor([value] * 37, dtype=torch.float64).to(getattr(torch, src_dtype)).cuda()  # > one vector
    dst_t = poisoned(torch, (37,), dst_dtype)
    stream = cvcuda.Stream()
    cvcuda.convertto_into(cvcuda.as_tensor(dst_t), cvcuda.as_tensor(src_t), round=mode, stream=stream)
    stream.sync()
    got = host(dst_t).astype(numpy.float64)
    want = numpy.full(37, expected, dtype=numpy.float64)
    assert numpy.array_equal(got, want, equal_nan=True), (got[0], expected)


def reference(src: numpy.ndarray, dst_dtype: str, scale: float, offset: float, torch):
    """float64 arithmetic; the scales and offsets of these tests make it exact in float32 too."""
    v = src.astype(numpy.float64) * scale + offset
    if dst_dtype in ("float16", "bfloat16", "float32", "float64"):
        return host(torch.from_numpy(v).to(getattr(torch, dst_dtype))).astype(numpy.float64)
    info = numpy.iinfo(dst_dtype)
    return numpy.clip(numpy.nan_to_num(numpy.rint(v), nan=0.0), info.min, info.max)


@pytest.mark.parametrize("src_dtype", ARITHMETIC)
@pytest.mark.parametrize("dst_dtype", ARITHMETIC)
def test_every_dtype_pair(torch, src_dtype, dst_dtype):
    rng = numpy.random.default_rng(seed(src_dtype, dst_dtype))
    shape = (2, 7, 13, 3)
    if src_dtype in ("float16", "bfloat16", "float32", "float64"):
        # Quarter steps: exact in every float type, and halves exercise the ties.
        src_t = torch.from_numpy(rng.integers(-1200, 1200, size=shape) / 4.0).to(getattr(torch, src_dtype)).cuda()
    else:
        src_t = random_tensor(torch, shape, src_dtype, rng, *((-2000, 2000) if src_dtype == "int32" else (None, None)))
    scale, offset = (0.5, 3.25) if dst_dtype not in ("float16", "bfloat16") else (1.0, 0.0)
    dst_t = poisoned(torch, shape, dst_dtype)
    stream = cvcuda.Stream()
    out = cvcuda.convertto_into(cvcuda.as_tensor(dst_t, "NHWC"), cvcuda.as_tensor(src_t, "NHWC"), scale, offset,
                                stream=stream)
    stream.sync()
    assert out is not None
    want = reference(host(src_t), dst_dtype, scale, offset, torch)
    assert numpy.array_equal(host(dst_t).astype(numpy.float64), want)


@pytest.mark.parametrize("shape", [(1, 1, 1, 1), (3, 5, 3), (1081, 1919, 3), (2, 1081, 1919, 1)])
def test_odd_sizes_u8_to_f32(torch, shape):
    rng = numpy.random.default_rng(11)
    src_t = random_tensor(torch, shape, "uint8", rng)
    layout = "HWC" if len(shape) == 3 else "NHWC"
    stream = cvcuda.Stream()
    out = cvcuda.convertto(cvcuda.as_tensor(src_t, layout), numpy.float32, 1 / 255.0, -0.5, stream=stream)
    stream.sync()
    assert out.dtype == numpy.float32 and out.shape == shape and out.layout == layout
    got = torch.as_tensor(out.cuda(), device="cuda")
    expected = (src_t.double() * (1 / 255.0) - 0.5).float()
    assert torch.allclose(got, expected, rtol=0, atol=1e-6)  # one float32 rounding of the fused multiply-add


def test_strided_reversed_and_in_place(torch):
    rng = numpy.random.default_rng(5)
    big = random_tensor(torch, (2, 30, 40, 4), "int16", rng)
    view = big[:, 2:25:3, 1:, :3]
    dst_t = poisoned(torch, tuple(view.shape), "float32")
    stream = cvcuda.Stream()
    cvcuda.convertto_into(cvcuda.as_tensor(dst_t, "NHWC"), cvcuda.as_tensor(view, "NHWC"), 2.0, 1.0, stream=stream)
    stream.sync()
    assert torch.equal(dst_t, view.float() * 2 + 1)
    holder, flipped = reversed_view(big, 2, "NHWC")
    dst_t = poisoned(torch, tuple(big.shape), "int32")
    cvcuda.convertto_into(cvcuda.as_tensor(dst_t, "NHWC"), cvcuda.as_tensor(holder, "NHWC"), -1.0, stream=stream)
    stream.sync()
    assert torch.equal(dst_t, -flipped.int())
    inplace = random_tensor(torch, (3, 17, 19), "float32", rng)
    expected = (inplace.double() * 0.5 + 2).float()
    t = cvcuda.as_tensor(inplace, "CHW")
    cvcuda.convertto_into(t, t, 0.5, 2.0, stream=stream)
    stream.sync()
    assert torch.equal(inplace, expected)
