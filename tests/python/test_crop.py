"""customcrop and center_crop against numpy slicing: every dtype x layout x channel count, odd sizes, strided and
negative-stride sources, poisoned outputs; argument errors."""

import numpy
import pytest

import cvcuda
from image_helpers import seed, ARITHMETIC, LAYOUTS, host, poisoned, random_tensor, reversed_view, shape_of


def crop_reference(src: numpy.ndarray, layout: str, x: int, y: int, w: int, h: int) -> numpy.ndarray:
    index = [slice(None)] * src.ndim
    index[layout.index("H")] = slice(y, y + h)
    index[layout.index("W")] = slice(x, x + w)
    return src[tuple(index)]


def run_crop_into(torch, src_t, layout, rect, dtype):
    x, y, w, h = rect
    n = src_t.shape[layout.index("N")] if "N" in layout else 1
    c = src_t.shape[layout.index("C")]
    dst_t = poisoned(torch, shape_of(layout, n, h, w, c) if "N" in layout else shape_of(layout, 1, h, w, c), dtype)
    stream = cvcuda.Stream()
    out = cvcuda.customcrop_into(cvcuda.as_tensor(dst_t, layout), cvcuda.as_tensor(src_t, layout),
                                 cvcuda.RectI(x, y, w, h), stream=stream)
    stream.sync()
    assert out.shape == tuple(dst_t.shape)
    return dst_t


@pytest.mark.parametrize("dtype", ARITHMETIC + ["int64", "bool"])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("channels", [1, 3, 4])
def test_customcrop_every_dtype_layout_channels(torch, dtype, layout, channels):
    rng = numpy.random.default_rng(seed(dtype, layout, channels))
    shape = shape_of(layout, 2, 9, 11, channels)
    src = (random_tensor(torch, shape, "uint8", rng) % 2).bool() if dtype == "bool" else random_tensor(torch, shape, dtype, rng)
    rect = (3, 2, 5, 4)
    dst = run_crop_into(torch, src, layout, rect, dtype)
    assert numpy.array_equal(host(dst), crop_reference(host(src), layout, *rect))


@pytest.mark.parametrize("size,rect", [
    ((1, 1), (0, 0, 1, 1)),
    ((3, 5), (1, 1, 3, 2)),
    ((3, 5), (0, 0, 5, 3)),
    ((1081, 1919), (1, 3, 1917, 1077)),   # odd offsets: rows not 16-byte aligned
    ((1081, 1919), (16, 0, 1888, 1081)),  # x * C = 48 bytes: aligned rows on both sides for C=3 u8
    ((1080, 1920), (320, 180, 1280, 720)),  # whole 16-byte blocks, every row start aligned: the flat launch
    ((1080, 1920), (321, 180, 1280, 720)),  # the same one pixel on: shifted spans
])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_customcrop_odd_sizes(torch, size, rect, dtype):
    rng = numpy.random.default_rng(7)
    src = random_tensor(torch, (2,) + size + (3,), dtype, rng)
    dst = run_crop_into(torch, src, "NHWC", rect, dtype)
    assert numpy.array_equal(host(dst), crop_reference(host(src), "NHWC", *rect))


@pytest.mark.parametrize("x", range(16))
@pytest.mark.parametrize("width", [1, 2, 15, 17, 33, 300])
def test_customcrop_every_byte_offset(torch, x, width):
    """One uint8 channel, so x is the source rows' offset in bytes from a 16-byte boundary: every offset against
    destination rows 5 bytes past one (a column slice of a wider poisoned tensor, pitch width + 37), odd widths and
    1-byte rows: the head, body and tail blocks of the shifted row copy. Bytes outside the slice keep their poison."""
    rng = numpy.random.default_rng(100 + 17 * x + width)
    src = random_tensor(torch, (2, 5, 340, 1), "uint8", rng)
    wide = poisoned(torch, (2, 4, width + 37, 1), "uint8")
    dst = wide[:, :, 5:5 + width, :]
    stream = cvcuda.Stream()
    cvcuda.customcrop_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(src, "NHWC"), cvcuda.RectI(x, 1, width, 4),
                           stream=stream)
    stream.sync()
    assert torch.equal(dst, src[:, 1:5, x:x + width, :])
    outside = torch.ones(wide.shape, dtype=torch.bool, device="cuda")
    outside[:, :, 5:5 + width, :] = False
    assert bool((wide[outside] == 0x5A).all())


def test_customcrop_returns_a_new_tensor(torch):
    rng = numpy.random.default_rng(1)
    src = random_tensor(torch, (3, 20, 30), "float16", rng)
    stream = cvcuda.Stream()
    out = cvcuda.customcrop(cvcuda.as_tensor(src, "CHW"), cvcuda.RectI(4, 5, 10, 7), stream=stream)
    stream.sync()
    assert out.shape == (3, 7, 10) and out.layout == "CHW" and out.dtype == numpy.float16
    result = torch.as_tensor(out.cuda(), device="cuda")
    assert torch.equal(result, src[:, 5:12, 4:14])


def test_customcrop_of_strided_and_reversed_sources(torch):
    rng = numpy.random.default_rng(2)
    big = random_tensor(torch, (2, 40, 50, 4), "uint8", rng)
    strided = big[:, 3:33, 5:45:2, 1:]  # pitched rows, every second pixel, 3 of 4 channels
    dst = run_crop_into(torch, strided, "NHWC", (2, 1, 7, 9), "uint8")
    assert torch.equal(dst, strided[:, 1:10, 2:9, :])
    for dim in (1, 2):
        holder, flipped = reversed_view(big, dim, "NHWC")
        out_t = poisoned(torch, (2, 9, 7, 4), "uint8")
        stream = cvcuda.Stream()
        cvcuda.customcrop_into(cvcuda.as_tensor(out_t, "NHWC"), cvcuda.as_tensor(holder, "NHWC"),
                               cvcuda.RectI(2, 1, 7, 9), stream=stream)
        stream.sync()
        assert torch.equal(out_t, flipped[:, 1:10, 2:9, :])


@pytest.mark.parametrize("size,crop,corner", [
    ((10, 12), (5, 4), (3, 3)),   # even differences: the exact centre
    ((9, 12), (4, 6), (4, 1)),    # odd differences: rounded down (torchvision would start at (4, 2))
    ((1, 1), (1, 1), (0, 0)),
])
def test_center_crop(torch, size, crop, corner):
    """The reference library rounds the corner down; torchvision's center_crop rounds (H - h) / 2 to the nearest
    (banker's rounding of Python's round), one pixel further for odd differences. We follow the reference."""
    rng = numpy.random.default_rng(3)
    h, w = size
    src = random_tensor(torch, (2, h, w, 3), "int16", rng)
    stream = cvcuda.Stream()
    out = cvcuda.center_crop(cvcuda.as_tensor(src, "NHWC"), crop, stream=stream)
    stream.sync()
    x, y = corner
    cw, ch = crop
    assert out.shape == (2, ch, cw, 3)
    assert torch.equal(torch.as_tensor(out.cuda(), device="cuda"), src[:, y:y + ch, x:x + cw, :])


def test_crop_errors_carry_the_c_message(torch):
    src = cvcuda.as_tensor(torch.zeros((2, 10, 12, 3), dtype=torch.uint8, device="cuda"), "NHWC")
    with pytest.raises(cvcuda.InvalidArgumentError, match=r"cvCustomCrop: rect \(x=8, y=0, width=5, height=4\) is outside src"):
        cvcuda.customcrop(src, cvcuda.RectI(8, 0, 5, 4))
    with pytest.raises(cvcuda.InvalidArgumentError, match="cvCustomCrop: rect width=0"):
        cvcuda.customcrop(src, cvcuda.RectI(0, 0, 0, 4))
    with pytest.raises(cvcuda.InvalidArgumentError, match="cvCenterCrop: cropWidth=13"):
        cvcuda.center_crop(src, (13, 4))
    dst = cvcuda.as_tensor(torch.zeros((2, 4, 4, 3), dtype=torch.uint8, device="cuda"), "NHWC")
    with pytest.raises(cvcuda.InvalidArgumentError, match="does not match the crop"):
        cvcuda.customcrop_into(dst, src, cvcuda.RectI(0, 0, 5, 4))
