"""The fused pass (cvcuda.resize_crop_convert_reformat[_into]) against the unfused chain: cvcuda.resize on the GPU,
then crop, conversion, channel reversal and normalisation in numpy float32. Equal within float32 rounding (the GPU
may fuse v * scale + offset into one multiply-add): |diff| <= 2e-6 * max(|ref|, 1)."""

import itertools

import numpy as np
import pytest

import cvcuda
from resize_cases import CV2_INTERP, random_image, to_device, to_host

MEAN = (0.485, 0.456, 0.406)
STD = (0.229, 0.224, 0.225)


def _chain(cupy, src_np, resize_hw, interp, crop, scale, offset, reverse, mean, std, out_layout):
    """The unfused chain: our own resize, then numpy."""
    _, src = to_device(cupy, src_np, "NHWC")
    n, _, _, c = src_np.shape
    resized = to_host(cupy, cvcuda.resize(src, (n, resize_hw[0], resize_hw[1], c), interp))
    x, y, w, h = crop
    v = resized[:, y:y + h, x:x + w, :].astype(np.float32)
    if reverse:
        v = v[..., ::-1]
    v = v * np.float32(scale) + np.float32(offset)
    if mean is not None:
        v = (v - np.asarray(mean, np.float32)) / np.asarray(std, np.float32)
    return v.transpose(0, 3, 1, 2) if out_layout == "NCHW" else v


def _close(ours, ref, what, rel=2e-6):
    diff = np.abs(ours.astype(np.float64) - ref.astype(np.float64))
    bound = rel * np.maximum(np.abs(ref.astype(np.float64)), 1.0)
    assert ours.shape == ref.shape, what
    assert (diff <= bound).all(), f"{what}: max diff {diff.max()} at {np.unravel_index(diff.argmax(), diff.shape)}"


ROWS = list(itertools.product(
    list(CV2_INTERP),
    ["NCHW", "NHWC"],
    [(3, False, True), (3, True, True), (1, False, False), (4, True, False)],  # channels, reverse, normalize
    [((480, 640), (256, 341), (42, 16, 224, 224)), ((37, 53), (80, 90), (0, 0, 90, 80)), ((300, 200), (150, 100), (7, 9, 31, 17))],
))


@pytest.mark.parametrize("interp,layout,channel_case,geometry", ROWS)
def test_fused_equals_the_unfused_chain(cupy, interp, layout, channel_case, geometry):
    c, reverse, normalize = channel_case
    (sh, sw), resize_hw, crop = geometry
    rng = np.random.default_rng(sh + c)
    src_np = random_image(rng, (2, sh, sw, c), np.uint8)
    mean, std = (MEAN + (0.5,))[:c], (STD + (0.25,))[:c]
    if not normalize:
        mean = std = None
    ref = _chain(cupy, src_np, resize_hw, interp, crop, 1 / 255, 0.0, reverse, mean, std, layout)
    _, src = to_device(cupy, src_np, "NHWC")
    x, y, w, h = crop
    shape = (2, c, h, w) if layout == "NCHW" else (2, h, w, c)
    _, dst = to_device(cupy, np.full(shape, np.nan, np.float32), layout)  # poisoned
    manip = cvcuda.ChannelManip.REVERSE if reverse else cvcuda.ChannelManip.NO_OP
    cvcuda.resize_crop_convert_reformat_into(dst, src, (resize_hw[1], resize_hw[0]), interp, (x, y), manip=manip,
                                             scale=1 / 255, mean=mean, std=std)
    _close(to_host(cupy, dst), ref, f"{interp.name} {layout}")


def test_fused_reference_signature_and_float16(cupy):
    """The reference library's call (RectI-like crop_rect, layout, data_type, manip, scale, offset) and float16."""
    rng = np.random.default_rng(7)
    src_np = random_image(rng, (3, 375, 500, 3), np.uint8)
    _, src = to_device(cupy, src_np, "NHWC")

    class Rect:  # cvcuda.RectI's attributes
        x, y, width, height = 16, 16, 224, 224

    for dtype in (np.float32, np.float16):
        out = cvcuda.resize_crop_convert_reformat(src, (256, 256), cvcuda.Interp.LINEAR, Rect(), layout="NCHW",
                                                  data_type=dtype, manip=cvcuda.ChannelManip.REVERSE, scale=2 / 255,
                                                  offset=-1.0)
        assert out.shape == (3, 3, 224, 224) and out.dtype == dtype and out.layout == "NCHW"
        ref = _chain(cupy, src_np, (256, 256), cvcuda.Interp.LINEAR, (16, 16, 224, 224), 2 / 255, -1.0, True, None,
                     None, "NCHW")
        _close(to_host(cupy, out).astype(np.float32), ref.astype(dtype).astype(np.float32), dtype.__name__,
               rel=2e-6 if dtype == np.float32 else 2.0**-10)


def test_fused_unrounded_interpolation(cupy):
    """srcCast=False keeps the interpolation's fraction: within half a uint8 step of the rounded result, and not
    equal to it everywhere."""
    rng = np.random.default_rng(9)
    _, src = to_device(cupy, random_image(rng, (1, 100, 150, 3), np.uint8), "NHWC")
    args = (src, (97, 61), cvcuda.Interp.LINEAR, (0, 0, 97, 61))
    rounded = to_host(cupy, cvcuda.resize_crop_convert_reformat(*args, layout="NHWC", data_type=np.float32))
    exact = to_host(cupy, cvcuda.resize_crop_convert_reformat(*args, layout="NHWC", data_type=np.float32, srcCast=False))
    assert np.abs(rounded - exact).max() <= 0.5 + 1e-6
    assert (rounded != exact).any()


def test_fused_rejects_a_crop_outside_the_resized_image(cupy):
    _, src = to_device(cupy, np.zeros((1, 10, 10, 3), np.uint8), "NHWC")
    with pytest.raises(cvcuda.InvalidArgumentError, match="does not lie inside the resized image"):
        cvcuda.resize_crop_convert_reformat(src, (20, 20), cvcuda.Interp.LINEAR, (10, 10, 11, 5), layout="NCHW",
                                            data_type=np.float32)


@pytest.mark.parametrize("interp", list(CV2_INTERP))
@pytest.mark.parametrize("layout", ["NCHW", "NHWC"])
def test_fused_equals_the_chain_of_our_operators(cupy, interp, layout):
    """resize -> customcrop -> convertto -> normalize (SCALE_IS_STDDEV) -> reformat, each its own cvcuda call, against
    the one fused call: equal within float32 rounding (normalize multiplies by 1 / sqrt(std^2), the fused pass
    divides by std)."""
    rng = np.random.default_rng(21)
    src_np = random_image(rng, (2, 300, 400, 3), np.uint8)
    _, src = to_device(cupy, src_np, "NHWC")
    x, y, w, h = 16, 24, 224, 200
    resized = cvcuda.resize(src, (2, 256, 341, 3), interp)
    cropped = cvcuda.customcrop(resized, cvcuda.RectI(x, y, w, h))
    converted = cvcuda.convertto(cropped, np.float32, 1 / 255, 0.0)
    normalized = cvcuda.normalize(converted, list(MEAN), list(STD), cvcuda.NormalizeFlags.SCALE_IS_STDDEV)
    chain = cvcuda.reformat(normalized, layout) if layout == "NCHW" else normalized
    fused = cvcuda.resize_crop_convert_reformat(src, (341, 256), interp, cvcuda.RectI(x, y, w, h), layout=layout,
                                                data_type=np.float32, scale=1 / 255, mean=MEAN, std=STD)
    _close(to_host(cupy, fused), to_host(cupy, chain), f"{interp.name} {layout}")
