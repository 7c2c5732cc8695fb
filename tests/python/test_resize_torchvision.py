"""cvcuda.tvresize against torchvision.transforms.v2.functional.resize on GPU tensors: bilinear, bicubic, nearest
and nearest-exact, antialias on and off, uint8 (within 1) and float32 (1e-4 relative), up and down, NCHW and NHWC."""

import itertools
import math

import numpy as np
import pytest

import cvcuda
from resize_cases import assert_close, magnitude

SIZES = (
    ((534, 800), (224, 224)),
    ((960, 1280), (225, 300)),
    ((1080, 1920), (135, 240)),
    ((37, 53), (111, 129)),
    ((1, 1), (7, 5)),
    ((64, 48), (8, 6)),
    ((37, 53), (111, 29)),
    ((1080, 1920), (256, 455)),  # the benchmark's resize (separable path: 11 and 19 taps)
    ((1200, 1600), (30, 40)),    # 40x down: windows past the separable path's 48 taps, per pixel
)
MODES = ("BILINEAR", "BICUBIC", "NEAREST", "NEAREST_EXACT")
OURS = {"BILINEAR": cvcuda.Interp.LINEAR, "BICUBIC": cvcuda.Interp.CUBIC, "NEAREST": cvcuda.Interp.NEAREST_FLOOR,
        "NEAREST_EXACT": cvcuda.Interp.NEAREST}


def _ids():
    for mode, aa, dtype, sizes in itertools.product(MODES, (True, False), ("uint8", "float32"), SIZES):
        if mode.startswith("NEAREST") and not aa:
            continue  # antialias does not apply to nearest: one row each
        (sh, sw), (dh, dw) = sizes
        yield pytest.param(mode, aa, dtype, sizes, id=f"{mode}-aa{int(aa)}-{dtype}-{sh}x{sw}to{dh}x{dw}")


def _window_taps(mode, antialias, src, dst):
    """Taps one output sums in torch's separable antialias filter: 2 * ceil(support * scale) + 1 per downscaled axis
    (support 1 for bilinear, 2 for bicubic, as torch's antialias kernels), their product over the two axes."""
    if not antialias or mode.startswith("NEAREST"):
        return 0
    support = 1 if mode == "BILINEAR" else 2
    taps = 1
    for s, d in zip(src, dst):
        taps *= 2 * math.ceil(support * max(s / d, 1.0)) + 1
    return taps


@pytest.mark.parametrize("mode,antialias,dtype,sizes", list(_ids()))
def test_tvresize_matches_torchvision(torch, tvf, mode, antialias, dtype, sizes):
    from torchvision.transforms import InterpolationMode

    (sh, sw), (dh, dw) = sizes
    g = torch.Generator(device="cuda").manual_seed(sh * 131 + dw)
    if dtype == "uint8":
        src = torch.randint(0, 256, (2, 3, sh, sw), dtype=torch.uint8, device="cuda", generator=g)
    else:
        src = torch.rand((2, 3, sh, sw), device="cuda", generator=g) * 400 - 100
    ref = tvf.resize(src, [dh, dw], interpolation=getattr(InterpolationMode, mode), antialias=antialias)
    dst = torch.full((2, 3, dh, dw), 99, dtype=src.dtype, device="cuda")  # poisoned
    cvcuda.tvresize_into(cvcuda.as_tensor(dst, "NCHW"), cvcuda.as_tensor(src, "NCHW"), OURS[mode], antialias)
    cvcuda.Stream.current.sync()
    scale = magnitude(src.cpu().numpy())
    taps = _window_taps(mode, antialias, (sh, sw), (dh, dw))
    assert_close(dst.cpu().numpy(), ref.cpu().numpy(), f"{mode} antialias={antialias}", scale, taps)
    # NHWC gives the same values (layout only changes the addressing)
    nhwc = cvcuda.tvresize(cvcuda.as_tensor(src.permute(0, 2, 3, 1).contiguous(), "NHWC"), (dh, dw), OURS[mode],
                           antialias=antialias)
    cvcuda.Stream.current.sync()
    got = torch.as_tensor(nhwc.cuda(), device="cuda").permute(0, 3, 1, 2).cpu().numpy()
    assert_close(got, ref.cpu().numpy(), f"{mode} antialias={antialias} NHWC", scale, taps)


@pytest.mark.parametrize("size,max_size,expected", [
    (224, None, (224, 298)),       # shorter edge 534 -> 224, longer truncated: int(224 * 712 / 534)
    ([224], None, (224, 298)),
    ((100, 50), None, (100, 50)),
    (224, 250, (187, 250)),        # the longer edge capped: int(250 * 224 / 298)
    (None, 300, (225, 300)),
])
def test_tvresize_output_size_as_torchvision(torch, tvf, size, max_size, expected):
    src = torch.randint(0, 256, (1, 3, 534, 712), dtype=torch.uint8, device="cuda")
    ours = cvcuda.tvresize(cvcuda.as_tensor(src, "NCHW"), size, cvcuda.Interp.LINEAR, max_size)
    ref = tvf.resize(src, size, max_size=max_size, antialias=True)
    assert ours.shape == tuple(ref.shape) == (1, 3) + expected
    cvcuda.Stream.current.sync()
    assert_close(torch.as_tensor(ours.cuda(), device="cuda").cpu().numpy(), ref.cpu().numpy(), "sized")


def test_tvresize_rejects_area(torch):
    src = cvcuda.as_tensor(torch.zeros((1, 3, 8, 8), dtype=torch.uint8, device="cuda"), "NCHW")
    with pytest.raises(cvcuda.InvalidArgumentError, match="cvResizeTorchvision: interp=5"):
        cvcuda.tvresize(src, (4, 4), cvcuda.Interp.AREA)
