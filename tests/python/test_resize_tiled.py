"""cvResize's packed fast paths, the periodic LINEAR path (uint8 2:1 and 3:2 downscales across, at most 2 down),
the periodic NEAREST path (uint8 NEAREST/NEAREST_FLOOR, the same ratios across, any downscale down),
the band path (uint8 NEAREST/NEAREST_FLOOR/LINEAR downscales of at most 2 across:
source rows staged once per band), the separable uint8 CUBIC path (3 and 4 channels, factors up to 4), the row paths
(the NEAREST gather of every type, uint8 LINEAR and one-channel CUBIC staged rows), the uint8 AREA row path and the
shared-memory tiled path (LINEAR/CUBIC where the row paths decline), against the per-pixel sampler on the GPU, byte
for byte: one random batch resized from a contiguous tensor (a fast path: which shapes take which is
checked on the CPU by tests/kernels/test_resize_tiled.cpp) and from a view of the same pixels four channels apart
with three used (pixels not packed: the sampler), into poisoned outputs."""

import numpy as np
import pytest

import cvcuda
from resize_cases import random_image, to_device, to_host

# (interp, channels, (src H, W), (dst H, W)): the benchmark's rows (two images of 1080x1920), then the AREA
# integer box, odd sizes, enlargements and one channel; the NEAREST gather (ties on pixel edges, odd widths), row
# strips (wide rows) and LINEAR/CUBIC on the tiled path (horizontal factors the row paths decline); last the periodic
# LINEAR path's other channel counts and ratios, and odd sizes (a partial last thread span); then the periodic
# NEAREST path (3:2 and 2:1 across: channel counts, a partial last group, vertical ties) and an odd source row
# (387 bytes: not 4-byte aligned, the band path).
ROWS = (
    ("NEAREST", 3, (1080, 1920), (720, 1280)),
    ("NEAREST", 3, (960, 1280), (225, 300)),
    ("NEAREST", 1, (37, 53), (29, 71)),
    ("NEAREST_FLOOR", 4, (37, 53), (80, 101)),
    ("LINEAR", 1, (3, 4000), (5, 5003)),
    ("CUBIC", 3, (4, 1920), (3, 1280)),
    ("LINEAR", 3, (1080, 1920), (720, 640)),
    ("CUBIC", 3, (1080, 1920), (540, 400)),
    ("LINEAR", 3, (1080, 1920), (720, 1280)),
    ("CUBIC", 3, (1080, 1920), (720, 1280)),
    ("AREA", 3, (1080, 1920), (224, 224)),
    ("AREA", 3, (1080, 1920), (216, 480)),
    ("AREA", 3, (1080, 1920), (720, 1280)),
    ("CUBIC", 3, (540, 960), (1080, 1920)),
    ("CUBIC", 4, (1080, 1920), (540, 960)),
    ("AREA", 3, (534, 800), (224, 224)),
    ("AREA", 4, (96, 64), (32, 16)),
    ("AREA", 1, (70, 68), (35, 34)),
    ("LINEAR", 4, (37, 53), (80, 101)),
    ("LINEAR", 1, (101, 120), (77, 61)),
    ("CUBIC", 1, (117, 92), (30, 23)),
    ("CUBIC", 3, (5, 8), (41, 37)),
    ("CUBIC", 4, (1, 1), (7, 5)),
    ("CUBIC", 4, (1, 4), (7, 5)),
    ("LINEAR", 3, (1080, 1920), (224, 224)),
    ("NEAREST", 3, (1080, 1920), (224, 224)),
    ("LINEAR", 2, (40, 101), (30, 75)),
    ("NEAREST", 2, (37, 53), (40, 19)),
    ("LINEAR", 1, (1080, 1920), (720, 1280)),
    ("LINEAR", 4, (1080, 1920), (720, 1280)),
    ("LINEAR", 3, (1080, 1920), (540, 960)),
    ("LINEAR", 3, (37, 132), (25, 88)),
    ("LINEAR", 1, (35, 132), (19, 66)),
    ("NEAREST_FLOOR", 3, (1080, 1920), (720, 1280)),
    ("NEAREST", 1, (1080, 1920), (720, 1280)),
    ("NEAREST_FLOOR", 4, (1080, 1920), (540, 960)),
    ("NEAREST", 3, (37, 132), (25, 88)),
    ("NEAREST_FLOOR", 1, (35, 132), (19, 66)),
    ("NEAREST", 4, (30, 62), (20, 31)),
    ("NEAREST", 3, (1280, 12), (300, 8)),
    ("NEAREST", 3, (37, 129), (25, 86)),
)


def assert_fast_path_equals_sampler(cupy, fast_src, img, interp, dst_hw):
    """Resizes fast_src (a cvcuda tensor of img's pixels, packed: a fast path) and the same pixels one channel wider
    apart (not packed: the per-pixel sampler) into outputs poisoned with 0xA5, and asserts they agree byte for byte."""
    n, h, w, channels = img.shape
    wide = np.zeros((n, h, w, channels + 1), np.uint8)
    wide[..., :channels] = img
    wide_dev, _ = to_device(cupy, wide, "NHWC")
    unpacked = cvcuda.as_tensor(wide_dev[..., :channels], "NHWC")
    mode = getattr(cvcuda.Interp, interp)
    outs = []
    for src in (fast_src, unpacked):
        _, dst = to_device(cupy, np.full((n, *dst_hw, channels), 0xA5, np.uint8), "NHWC")
        cvcuda.resize_into(dst, src, mode)
        outs.append(to_host(cupy, dst))
    fast, sampler = outs
    bad = fast != sampler
    assert not bad.any(), (f"{int(bad.sum())} of {bad.size} bytes differ; first at {tuple(np.argwhere(bad)[0])}: "
                           f"fast path {fast[tuple(np.argwhere(bad)[0])]}, sampler {sampler[tuple(np.argwhere(bad)[0])]}")


@pytest.mark.parametrize("interp,channels,src_hw,dst_hw", ROWS,
                         ids=[f"{i}-c{c}-{s[0]}x{s[1]}to{d[0]}x{d[1]}" for i, c, s, d in ROWS])
def test_fast_paths_equal_the_sampler(cupy, interp, channels, src_hw, dst_hw):
    rng = np.random.default_rng(5)
    n = 2
    img = random_image(rng, (n, *src_hw, channels), np.uint8)
    _, packed = to_device(cupy, img, "NHWC")
    assert_fast_path_equals_sampler(cupy, packed, img, interp, dst_hw)


# The uint8 fast paths on sources whose rows start anywhere (the band path for the downscales of at most 2 across, the
# row paths for the enlargements: resizeBandPreferred in kernels/resize.hpp): a view cut one row and one pixel into a
# taller, wider image (rows padded, starts off every alignment), against the sampler on the same pixels four channels
# apart.
BAND_VIEWS = (
    ("NEAREST", 3, (108, 192), (72, 128)),
    ("NEAREST_FLOOR", 4, (37, 53), (29, 71)),
    ("NEAREST", 1, (37, 53), (29, 71)),
    ("LINEAR", 3, (108, 192), (72, 128)),
    ("LINEAR", 1, (64, 130), (32, 65)),
    ("LINEAR", 2, (40, 101), (30, 75)),
    ("LINEAR", 4, (41, 97), (31, 73)),
    ("LINEAR", 3, (13, 7), (40, 33)),
)


@pytest.mark.parametrize("interp,channels,src_hw,dst_hw", BAND_VIEWS,
                         ids=[f"{i}-c{c}-{s[0]}x{s[1]}to{d[0]}x{d[1]}" for i, c, s, d in BAND_VIEWS])
def test_fast_paths_on_row_views_equal_the_sampler(cupy, interp, channels, src_hw, dst_hw):
    rng = np.random.default_rng(9)
    n, (h, w) = 3, src_hw
    img = random_image(rng, (n, h, w, channels), np.uint8)
    big = random_image(rng, (n, h + 2, w + 3, channels), np.uint8)
    big[:, 1:1 + h, 1:1 + w] = img
    big_dev, _ = to_device(cupy, big, "NHWC")
    view = cvcuda.as_tensor(big_dev[:, 1:1 + h, 1:1 + w], "NHWC")
    assert_fast_path_equals_sampler(cupy, view, img, interp, dst_hw)
