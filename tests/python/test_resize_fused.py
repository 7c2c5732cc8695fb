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


# uint8 LINEAR with packed pixels takes the pair path (kernels/resize_fused_pairs.cuh: aligned words where they lie
# inside the row, bytes at the row's edges); unpacked pixels take the general kernel. Each row's source is a view cut
# `col` pixels and one row into a wider, taller image (rows padded, starting 1 to 3 bytes past a word and moving
# alignment row by row), against the same pixels four-or-more channels apart: equal bit for bit. Crops reach the
# right edge (the last pair ends at the row's end, or both taps clamp onto its last pixel) and enlargements clamp
# both borders.
PAIR_VIEWS = (
    # channels, col, src (h, w), resize (h, w), crop (x, y, w, h), reverse
    (3, 1, (108, 192), (256, 256), (16, 16, 224, 224), False),
    (1, 1, (37, 53), (80, 90), (0, 0, 90, 80), False),
    (1, 2, (30, 41), (20, 23), (3, 2, 20, 18), False),
    (1, 3, (9, 2), (6, 9), (0, 0, 9, 6), False),
    (2, 1, (40, 101), (30, 75), (0, 0, 75, 30), False),
    (2, 3, (17, 6), (40, 13), (0, 0, 13, 40), True),
    (3, 1, (300, 200), (150, 100), (69, 83, 31, 67), True),
    (3, 2, (135, 240), (64, 64), (8, 8, 56, 56), False),
    (4, 1, (41, 97), (31, 73), (5, 3, 68, 28), True),
    (4, 3, (13, 7), (40, 33), (0, 0, 33, 40), False),
)


@pytest.mark.parametrize("layout,dtype", [("NCHW", np.float32), ("NHWC", np.float32), ("NCHW", np.float16)],
                         ids=["NCHW-f32", "NHWC-f32", "NCHW-f16"])
@pytest.mark.parametrize("src_cast", [True, False], ids=["srcCast", "unrounded"])
@pytest.mark.parametrize("channels,col,src_hw,resize_hw,crop,reverse", PAIR_VIEWS,
                         ids=[f"c{c}-col{k}-{s[0]}x{s[1]}to{r[0]}x{r[1]}" for c, k, s, r, _, _ in PAIR_VIEWS])
def test_fused_pair_path_on_row_views_equals_the_general_kernel(cupy, channels, col, src_hw, resize_hw, crop, reverse,
                                                               src_cast, layout, dtype):
    rng = np.random.default_rng(channels * 100 + col)
    n, (h, w) = 2, src_hw
    img = random_image(rng, (n, h, w, channels), np.uint8)
    big = random_image(rng, (n, h + 2, w + col + 2, channels), np.uint8)
    big[:, 1:1 + h, col:col + w] = img
    big_dev, _ = to_device(cupy, big, "NHWC")
    view = cvcuda.as_tensor(big_dev[:, 1:1 + h, col:col + w], "NHWC")
    wide = random_image(rng, (n, h, w, channels + 1), np.uint8)
    wide[..., :channels] = img
    wide_dev, _ = to_device(cupy, wide, "NHWC")
    unpacked = cvcuda.as_tensor(wide_dev[..., :channels], "NHWC")
    x, y, cw, ch = crop
    shape = (n, channels, ch, cw) if layout == "NCHW" else (n, ch, cw, channels)
    mean, std = (MEAN + (0.5,))[:channels], (STD + (0.25,))[:channels]
    manip = cvcuda.ChannelManip.REVERSE if reverse else cvcuda.ChannelManip.NO_OP
    outs = []
    for src, poison in ((view, np.nan), (unpacked, -np.inf)):  # poisoned differently: a value neither writes differs
        _, dst = to_device(cupy, np.full(shape, poison, dtype), layout)
        cvcuda.resize_crop_convert_reformat_into(dst, src, (resize_hw[1], resize_hw[0]), cvcuda.Interp.LINEAR, (x, y),
                                                 manip=manip, scale=1 / 255, srcCast=src_cast, mean=mean, std=std)
        outs.append(to_host(cupy, dst))
    bits = np.uint32 if dtype == np.float32 else np.uint16
    pairs, general = (o.view(bits) for o in outs)
    bad = pairs != general
    assert not bad.any(), (f"{int(bad.sum())} of {bad.size} values differ; first at {tuple(np.argwhere(bad)[0])}: "
                           f"pair path {outs[0][tuple(np.argwhere(bad)[0])]}, general {outs[1][tuple(np.argwhere(bad)[0])]}")


# The pair kernel has no loops: launchResizeFusedPairs (kernels/resize_fused.cu) launches it on parts of at most 65535
# images and 65535 x 4 crop rows. Each row: the source shape, resize_dim (width, height), the indices compared with the
# same call on that image (images) or on a crop that starts there (rows), on both sides of a part's edge. 12 -> 2
# columns (6 a column, 1 or 3 channels) is the pair path's (fusedStagedPreferred).
PART_EDGES = [
    ("images", (65537, 1, 12, 3), (2, 1), (0, 65534, 65535, 65536)),
    ("rows", (1, 262148, 12, 1), (2, 262148), (0, 262139, 262140, 262147)),
]


@pytest.mark.parametrize("what,shape,resize_dim,indices", PART_EDGES, ids=[r[0] for r in PART_EDGES])
def test_fused_pair_path_across_launch_parts_equals_each_part_alone(cupy, what, shape, resize_dim, indices):
    n, h, w, c = shape
    rng = np.random.default_rng(11)
    src_np = random_image(rng, shape, np.uint8)
    _, src = to_device(cupy, src_np, "NHWC")
    rw, rh = resize_dim
    _, dst = to_device(cupy, np.full((n, c, rh, rw), np.nan, np.float32), "NCHW")  # poisoned
    cvcuda.resize_crop_convert_reformat_into(dst, src, resize_dim, cvcuda.Interp.LINEAR, (0, 0), scale=1 / 255)
    got = to_host(cupy, dst)
    assert not np.isnan(got).any(), f"{what}: outputs left unwritten"
    for i in indices:
        if what == "images":
            _, one_src = to_device(cupy, src_np[i:i + 1], "NHWC")
            _, one = to_device(cupy, np.full((1, c, rh, rw), np.nan, np.float32), "NCHW")
            cvcuda.resize_crop_convert_reformat_into(one, one_src, resize_dim, cvcuda.Interp.LINEAR, (0, 0), scale=1 / 255)
            want, have = to_host(cupy, one), got[i:i + 1]
        else:
            _, one = to_device(cupy, np.full((1, c, 1, rw), np.nan, np.float32), "NCHW")  # crop row i alone
            cvcuda.resize_crop_convert_reformat_into(one, src, resize_dim, cvcuda.Interp.LINEAR, (0, i), scale=1 / 255)
            want, have = to_host(cupy, one), got[:, :, i:i + 1, :]
        assert np.array_equal(have, want), f"{what} {i}"
