"""The memory-bound kernels' fast paths on the GPU, each case sized to reach the path it names: launches large enough
that a thread moves several units (kernels/common/rows.cuh takes U = 2 or 4 only above ~4.3 million units), the
register transpose to planar (kernels/common/transpose.cuh: 2-4 channels, 16-byte aligned planes, pitched planes
whose images end in a partial group), and the RGB <-> BGR vector kernel (kernels/cvtcolor.cu), against torch
references on random data with poisoned outputs and odd element counts."""

import pytest

import cvcuda
from image_helpers import poisoned

# Odd sizes: 1081 x 1919 pixels (an odd count), so that flat launches end in a partial vector.
ODD = (1081, 1919)


def rand(torch, shape, dtype, seed):
    """Random values of the dtype (floats in [-20, 300)), generated on the GPU: these tensors are too large for
    numpy's generator to be quick."""
    g = torch.Generator(device="cuda").manual_seed(seed)
    if dtype in ("uint8", "int16"):
        lo, hi = (0, 256) if dtype == "uint8" else (-32768, 32768)
        return torch.randint(lo, hi, shape, generator=g, device="cuda", dtype=torch.int64).to(getattr(torch, dtype))
    return (torch.rand(shape, generator=g, device="cuda", dtype=torch.float32) * 320 - 20).to(getattr(torch, dtype))


# (name, src shape, layout, src dtype, dst dtype, scale, offset): every one takes U = 4 or U = 2 (see the docstring).
CONVERT_CASES = [
    ("u8-f32-flat-odd", (3, *ODD, 3), "NHWC", "uint8", "float32", 1 / 255.0, -0.5),  # 4.67M units of 4: U = 4
    ("f32-u8-flat-odd", (3, *ODD, 3), "NHWC", "float32", "uint8", 1.0, 0.0),  # rounding and clamping, U = 4
    ("f32-f16-flat", (4, 1080, 1920, 3), "NHWC", "float32", "float16", 1.0, 0.0),  # 8 per unit: U = 2
    ("s16-f32-rows", (2, 3, 1080, 1920), "NCHW", "int16", "float32", 0.5, 1.0),
]


@pytest.mark.parametrize("name,shape,layout,src_dtype,dst_dtype,scale,offset", CONVERT_CASES,
                         ids=[c[0] for c in CONVERT_CASES])
def test_convertto_large_launches(torch, name, shape, layout, src_dtype, dst_dtype, scale, offset):
    src = rand(torch, shape, src_dtype, 1)
    dst = poisoned(torch, shape, dst_dtype)
    stream = cvcuda.Stream()
    cvcuda.convertto_into(cvcuda.as_tensor(dst, layout), cvcuda.as_tensor(src, layout), scale, offset, stream=stream)
    stream.sync()
    v = src.double() * scale + offset
    if dst_dtype == "uint8":
        expected = torch.round(v).clamp(0, 255).to(torch.uint8)  # round half to even, as saturate_cast
        assert torch.equal(dst, expected)
    else:
        expected = v.to(getattr(torch, dst_dtype))
        assert torch.allclose(dst.float(), expected.float(), rtol=1e-3 if dst_dtype == "float16" else 1e-6, atol=1e-6)


# (name, src shape, layout, src dtype): per-channel base and scale; the channel is the inner dimension (NHWC) or a row
# dimension (NCHW); NCHW u8 with an odd width takes the strided path (rows not word-aligned), still U = 4.
NORMALIZE_CASES = [
    ("f32-nhwc-odd", (3, *ODD, 3), "NHWC", "float32"),
    ("u8-nhwc-4ch", (2, 1080, 1920, 4), "NHWC", "uint8"),
    ("f32-nchw", (3, 3, 1080, 1920), "NCHW", "float32"),
    ("u8-nchw-odd-strided", (3, 3, *ODD), "NCHW", "uint8"),
]


@pytest.mark.parametrize("name,shape,layout,src_dtype", NORMALIZE_CASES, ids=[c[0] for c in NORMALIZE_CASES])
def test_normalize_large_launches(torch, name, shape, layout, src_dtype):
    channels = shape[layout.index("C")]
    src = rand(torch, shape, src_dtype, 2)
    base = [10.0, 20.0, 30.0, 40.0][:channels]
    scale = [0.5, 0.25, 2.0, 1.5][:channels]
    dst = poisoned(torch, shape, "float32")
    stream = cvcuda.Stream()
    cvcuda.normalize_into(cvcuda.as_tensor(dst, layout), cvcuda.as_tensor(src, layout), base, scale,
                          globalscale=1.5, globalshift=4.0, stream=stream)
    stream.sync()
    view = [1, 1, 1, 1]
    view[layout.index("C")] = channels
    b = torch.tensor(base, device="cuda", dtype=torch.float64).view(view)
    s = torch.tensor(scale, device="cuda", dtype=torch.float64).view(view)
    expected = ((src.double() - b) * s * 1.5 + 4.0).float()
    assert torch.allclose(dst, expected, rtol=1e-6, atol=1e-4)


def test_customcrop_large_launch(torch):
    """64 images, 1070 rows of 5664 bytes each from a 16-byte aligned column: the vector path with U = 4."""
    src = rand(torch, (64, 1080, 1920, 3), "uint8", 3)
    x, y, w, h = 16, 3, 1888, 1070
    dst = poisoned(torch, (64, h, w, 3), "uint8")
    stream = cvcuda.Stream()
    cvcuda.customcrop_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(src, "NHWC"), cvcuda.RectI(x, y, w, h),
                           stream=stream)
    stream.sync()
    assert torch.equal(dst, src[:, y:y + h, x:x + w])


@pytest.mark.parametrize("dtype", ["uint8", "float16", "float32"])
@pytest.mark.parametrize("shape,layout", [((8, *ODD, 3), "NHWC"), ((3, 5, 3), "HWC"), ((2, 7, 16, 3), "NHWC")],
                         ids=["8x1081x1919", "3x5", "2x7x16"])
def test_rgb2bgr_vector_path(torch, dtype, shape, layout):
    """Contiguous tensors: one flat row of vectors, 2 units per thread for the large one, whose element count is odd."""
    src = rand(torch, shape, dtype, 4)
    dst = poisoned(torch, shape, dtype)
    out = cvcuda.cvtcolor_into(cvcuda.as_tensor(dst, layout), cvcuda.as_tensor(src, layout), cvcuda.ColorConversion(4))
    assert out is not None
    torch.cuda.synchronize()
    assert torch.equal(dst, src.flip(-1))


@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_rgb2bgr_vector_path_pitched_rows(torch, dtype):
    """Rows 16-byte aligned but not contiguous (a pitch of 2048 pixels): the row-by-row launch of the same kernel."""
    big = rand(torch, (2, 33, 2048, 3), dtype, 5)
    src = big[:, :, :1925]
    dst_big = poisoned(torch, (2, 33, 2048, 3), dtype)
    dst = dst_big[:, :, :1925]
    cvcuda.cvtcolor_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(src, "NHWC"), cvcuda.ColorConversion(4))
    torch.cuda.synchronize()
    assert torch.equal(dst, src.flip(-1))
    assert torch.equal(dst_big[:, :, 1925:], poisoned(torch, (2, 33, 123, 3), dtype))  # nothing written past a row


@pytest.mark.parametrize("dtype", ["uint8", "int16", "float32", "float64"])
@pytest.mark.parametrize("channels", [2, 3, 4])
def test_reformat_register_transpose(torch, dtype, channels):
    """NHWC -> NCHW with planes a multiple of 16 bytes: the register transpose; then into pitched planes (17 x 15
    pixels in planes of 17 x 16), whose images end in a partial group."""
    src = rand(torch, (3, 48, 80, channels), dtype, 6)
    dst = poisoned(torch, (3, channels, 48, 80), dtype)
    stream = cvcuda.Stream()
    cvcuda.reformat_into(cvcuda.as_tensor(dst, "NCHW"), cvcuda.as_tensor(src, "NHWC"), stream=stream)
    stream.sync()
    assert torch.equal(dst, src.permute(0, 3, 1, 2))
    src = rand(torch, (3, 15, 17, channels), dtype, 7)
    big = poisoned(torch, (3, channels, 16, 17), dtype)
    dst = big[:, :, :15]
    cvcuda.reformat_into(cvcuda.as_tensor(dst, "NCHW"), cvcuda.as_tensor(src, "NHWC"), stream=stream)
    stream.sync()
    assert torch.equal(dst, src.permute(0, 3, 1, 2))
    assert torch.equal(big[:, :, 15], poisoned(torch, (3, channels, 17), dtype))


def test_reformat_small_image_fills_the_grid(torch):
    """1 x 224 x 224 x 3 u8 (the small benchmark row) through both directions."""
    src = rand(torch, (1, 224, 224, 3), "uint8", 8)
    planar = poisoned(torch, (1, 3, 224, 224), "uint8")
    stream = cvcuda.Stream()
    cvcuda.reformat_into(cvcuda.as_tensor(planar, "NCHW"), cvcuda.as_tensor(src, "NHWC"), stream=stream)
    back = poisoned(torch, (1, 224, 224, 3), "uint8")
    cvcuda.reformat_into(cvcuda.as_tensor(back, "NHWC"), cvcuda.as_tensor(planar, "NCHW"), stream=stream)
    stream.sync()
    assert torch.equal(planar, src.permute(0, 3, 1, 2))
    assert torch.equal(back, src)
