"""cvcuda.tvresize against torchvision.transforms.v2.functional.resize on GPU tensors: bilinear, bicubic, nearest
and nearest-exact, antialias on and off, uint8 (within 1) and float32 (1e-4 relative), up and down, NCHW and NHWC."""

import itertools

import pytest

import cvcuda
from resize_cases import TV_INTERP, TV_MODES, TV_SIZES, assert_close, magnitude, window_taps


def _ids():
    for mode, aa, dtype, sizes in itertools.product(TV_MODES, (True, False), ("uint8", "float32"), TV_SIZES):
        if mode.startswith("NEAREST") and not aa:
            continue  # antialias does not apply to nearest: one row each
        (sh, sw), (dh, dw) = sizes
        yield pytest.param(mode, aa, dtype, sizes, id=f"{mode}-aa{int(aa)}-{dtype}-{sh}x{sw}to{dh}x{dw}")


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
    cvcuda.tvresize_into(cvcuda.as_tensor(dst, "NCHW"), cvcuda.as_tensor(src, "NCHW"), TV_INTERP[mode], antialias)
    cvcuda.Stream.current.sync()
    scale = magnitude(src.cpu().numpy())
    taps = window_taps(mode, antialias, (sh, sw), (dh, dw))
    assert_close(dst.cpu().numpy(), ref.cpu().numpy(), f"{mode} antialias={antialias}", scale, taps)
    # NHWC gives the same values (layout only changes the addressing)
    nhwc = cvcuda.tvresize(cvcuda.as_tensor(src.permute(0, 2, 3, 1).contiguous(), "NHWC"), (dh, dw), TV_INTERP[mode],
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
