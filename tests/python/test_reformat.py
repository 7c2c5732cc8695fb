"""reformat against numpy transposes: every element size x direction x channel count x size (tiles with tails),
1081x1919 images, pitched planes, strided and negative-stride sources, reformat() allocation."""

import numpy
import pytest

import cvcuda
from image_helpers import seed, host, poisoned, random_tensor, reversed_view, shape_of

PAIRS = [("NHWC", "NCHW"), ("NCHW", "NHWC"), ("HWC", "CHW"), ("CHW", "HWC"), ("NHWC", "NHWC")]


def transpose(src: numpy.ndarray, src_layout: str, dst_layout: str) -> numpy.ndarray:
    return numpy.transpose(src, [src_layout.index(label) for label in dst_layout])


def run(torch, src_t, src_layout, dst_layout, dtype):
    n = src_t.shape[src_layout.index("N")] if "N" in src_layout else 1
    h, w, c = (src_t.shape[src_layout.index(x)] for x in "HWC")
    dst_t = poisoned(torch, shape_of(dst_layout, n, h, w, c), dtype)
    stream = cvcuda.Stream()
    cvcuda.reformat_into(cvcuda.as_tensor(dst_t, dst_layout), cvcuda.as_tensor(src_t, src_layout), stream=stream)
    stream.sync()
    return dst_t


@pytest.mark.parametrize("dtype", ["uint8", "float16", "float32", "float64", "bfloat16", "int16"])
@pytest.mark.parametrize("src_layout,dst_layout", PAIRS)
@pytest.mark.parametrize("channels", [1, 3, 4, 5])
@pytest.mark.parametrize("size", [(1, 1), (3, 5), (67, 129)])
def test_reformat_table(torch, dtype, src_layout, dst_layout, channels, size):
    rng = numpy.random.default_rng(seed(dtype, src_layout, channels, size))
    src_t = random_tensor(torch, shape_of(src_layout, 2, size[0], size[1], channels), dtype, rng)
    dst_t = run(torch, src_t, src_layout, dst_layout, dtype)
    assert numpy.array_equal(host(dst_t), transpose(host(src_t), src_layout, dst_layout))


@pytest.mark.parametrize("src_layout,dst_layout", PAIRS[:2])
@pytest.mark.parametrize("dtype", ["uint8", "float32"])
def test_reformat_1081x1919(torch, src_layout, dst_layout, dtype):
    rng = numpy.random.default_rng(23)
    src_t = random_tensor(torch, shape_of(src_layout, 2, 1081, 1919, 3), dtype, rng)
    dst_t = run(torch, src_t, src_layout, dst_layout, dtype)
    assert torch.equal(dst_t, src_t.permute(*[src_layout.index(x) for x in dst_layout]))


def test_reformat_strided_sources(torch):
    rng = numpy.random.default_rng(29)
    big = random_tensor(torch, (2, 5, 40, 64), "uint8", rng)
    planes = big[:, 1:4, 3:30, :50]  # pitched planes and rows
    dst_t = run(torch, planes, "NCHW", "NHWC", "uint8")
    assert torch.equal(dst_t, planes.permute(0, 2, 3, 1))
    inter = random_tensor(torch, (2, 30, 40, 4), "float32", rng)[:, :, :, :3]
    dst_t = run(torch, inter, "NHWC", "NCHW", "float32")
    assert torch.equal(dst_t, inter.permute(0, 3, 1, 2))
    holder, flipped = reversed_view(big, 2, "NCHW")
    dst_t = poisoned(torch, (2, 40, 64, 5), "uint8")
    stream = cvcuda.Stream()
    cvcuda.reformat_into(cvcuda.as_tensor(dst_t, "NHWC"), cvcuda.as_tensor(holder, "NCHW"), stream=stream)
    stream.sync()
    assert torch.equal(dst_t, flipped.permute(0, 2, 3, 1))


def test_reformat_allocates(torch):
    rng = numpy.random.default_rng(31)
    src_t = random_tensor(torch, (2, 9, 11, 3), "uint8", rng)
    stream = cvcuda.Stream()
    out = cvcuda.reformat(cvcuda.as_tensor(src_t, "NHWC"), "NCHW", stream=stream)
    stream.sync()
    assert out.shape == (2, 3, 9, 11) and out.layout == "NCHW"
    assert torch.equal(torch.as_tensor(out.cuda(), device="cuda"), src_t.permute(0, 3, 1, 2))
    with pytest.raises(cvcuda.InvalidArgumentError, match="must both have N or both not"):
        cvcuda.reformat_into(cvcuda.as_tensor(torch.zeros((3, 9, 11), dtype=torch.uint8, device="cuda"), "CHW"),
                             cvcuda.as_tensor(src_t, "NHWC"))
