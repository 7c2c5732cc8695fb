"""cvcuda.tv.Compose's fused step (Resize -> CenterCrop -> ToDtype(float32, scale=True) -> Normalize as one
cvcuda.tvresize_crop_convert_reformat_into kernel) on the GPU: against torchvision v2's Compose of the same
transforms and against our own unfused chain, one kernel launch per call, no host or device sync; the images it
does not take run the four functions and still equal torchvision. Also the C entry point through
cvcuda.tvresize_crop_convert_reformat_into against tvresize_into followed by the same float arithmetic."""

import pytest

import cvcuda
import cvcuda.tv as tv
from conftest import unavailable
from test_tv import FORMATS, MEAN, STD, close_after_uint8_stage, image


@pytest.fixture
def v2(torch):
    try:
        from torchvision.transforms import v2
    except ImportError:
        unavailable("torchvision is not installed")
    return v2


def chain(v2, torch, size, crop, mode="BILINEAR", antialias=True, mean=MEAN, std=STD):
    from torchvision.transforms import InterpolationMode
    return [v2.Resize(size, interpolation=getattr(InterpolationMode, mode), antialias=antialias), v2.CenterCrop(crop),
            v2.ToDtype(torch.float32, scale=True), v2.Normalize(mean, std)]


def unfused(torch, x, size, crop, mode="BILINEAR", antialias=True, mean=MEAN, std=STD):
    interpolation = getattr(tv.InterpolationMode, mode)
    y = tv.resize(x, size, interpolation=interpolation, antialias=antialias)
    return tv.normalize(tv.to_dtype(tv.center_crop(y, crop), torch.float32, scale=True), mean, std)


def launches(torch, function, x):
    """function(x) and the operator kernels it launched, with no host sync (torch's sync debug mode) allowed."""
    cvcuda.reset_stats()
    torch.cuda.set_sync_debug_mode("error")
    try:
        out = function(x)
    finally:
        torch.cuda.set_sync_debug_mode("default")
    stats = cvcuda.stats()
    assert stats["deviceSyncs"] == 0
    return out, stats["kernelLaunches"]


# (shape, Resize size, CenterCrop size, mode, antialias): the ImageNet chain, scaled and odd, every torch mode.
CASES = [
    ((2, 3, 1080, 1920), 256, 224, "BILINEAR", True),       # the benchmark's chain (fewer images)
    ((3, 3, 270, 481), 64, [56, 57], "BILINEAR", True),     # crop corner rounded half to even
    ((2, 3, 270, 481), [61, 97], 33, "BICUBIC", True),
    ((2, 1, 300, 290), 33, 29, "BICUBIC", True),            # 9x down: 37-tap windows
    ((2, 4, 53, 37), 111, 101, "BILINEAR", True),           # enlarging, 4 channels
    ((2, 3, 270, 481), 64, 56, "BILINEAR", False),
    ((2, 3, 270, 481), 64, 56, "BICUBIC", False),
    ((2, 3, 270, 481), 64, 56, "NEAREST", True),
    ((2, 3, 270, 481), 64, 56, "NEAREST_EXACT", True),
    ((1, 3, 1200, 1600), 30, 28, "BILINEAR", True),         # 40x down: per pixel, not the tiles
    ((3, 270, 481), 64, 56, "BILINEAR", True),              # one image (CHW)
]


@pytest.mark.parametrize("channels_last", FORMATS)
@pytest.mark.parametrize("shape,size,crop,mode,antialias", CASES)
def test_fused_compose_equals_torchvision_and_the_unfused_chain(torch, v2, shape, size, crop, mode, antialias,
                                                                channels_last):
    x = image(torch, shape, "uint8", channels_last, seed=shape[-1])
    c = shape[-3]
    mean, std = (MEAN, STD) if c == 3 else ([0.45] * c, [0.226] * c)
    ref = v2.Compose(chain(v2, torch, size, crop, mode, antialias, mean, std))(x)
    out, kernels = launches(torch, tv.Compose(chain(v2, torch, size, crop, mode, antialias, mean, std)), x)
    assert kernels == 1, "the four transforms ran as one kernel"
    assert out.dtype == torch.float32 and tuple(out.shape) == tuple(ref.shape)
    close_after_uint8_stage(out, ref, f"fused {shape} {mode} aa={antialias}")
    ours_unfused = unfused(torch, x, size, crop, mode, antialias, mean, std)
    # The same resized uint8 values; normalize multiplies by 1 / std where the fused pass divides (1 ulp).
    diff = (out.cpu().double() - ours_unfused.cpu().double()).abs()
    assert diff.max().item() <= 4e-7 * 2.7, f"fused vs unfused {shape} {mode}: {diff.max().item()}"


def test_fused_compose_equals_torchvision_bit_for_bit_on_a_photo(torch, v2):
    try:
        from skimage import data
    except ImportError:
        unavailable("scikit-image is not installed (its data module provides the photograph)")
    import numpy as np

    photo = torch.from_numpy(np.ascontiguousarray(data.astronaut())).cuda().permute(2, 0, 1).contiguous()
    batch = torch.stack([photo, photo.flip(-1)])
    ref = v2.Compose(chain(v2, torch, 256, 224))(batch)
    out, kernels = launches(torch, tv.Compose(chain(v2, torch, 256, 224)), batch)
    assert kernels == 1
    close_after_uint8_stage(out, ref, "astronaut")
    # After the rounded uint8 the fused pass does torchvision's own float32 steps (product by 1/255, subtraction,
    # division): where the uint8 stages agree, the floats are equal.
    if torch.equal(v2.functional.resize(batch, [256], antialias=True), tv.resize(batch, [256])):
        assert torch.equal(out, ref)


@pytest.mark.parametrize("what,make,inpt", [
    ("float input", lambda v2, torch: chain(v2, torch, 20, 16), lambda torch: image(torch, (2, 3, 37, 53), "float32")),
    ("crop larger than the resized image (padding)", lambda v2, torch: chain(v2, torch, 20, 24),
     lambda torch: image(torch, (2, 3, 37, 53), "uint8")),
    ("five channels", lambda v2, torch: chain(v2, torch, 20, 16, mean=[0.5] * 5, std=[0.25] * 5),
     lambda torch: image(torch, (2, 5, 37, 53), "uint8")),
    ("the same size (resize returns its input)", lambda v2, torch: chain(v2, torch, 37, 31),
     lambda torch: image(torch, (2, 3, 37, 53), "uint8")),
])
def test_images_the_fused_step_does_not_take_run_unfused(torch, v2, what, make, inpt):
    x = inpt(torch)
    ref = v2.Compose(make(v2, torch))(x)
    out, kernels = launches(torch, tv.Compose(make(v2, torch)), x)
    assert kernels > 1, what
    assert tuple(out.shape) == tuple(ref.shape), what
    if x.dtype == torch.uint8:
        close_after_uint8_stage(out, ref, what)
    else:
        assert (out - ref).abs().max().item() < 1e-4, what


def test_other_sequences_are_not_fused(torch, v2):
    x = image(torch, (2, 3, 70, 90), "uint8")
    steps = chain(v2, torch, 40, 32)
    steps[2] = v2.ToDtype(torch.float16, scale=True)  # float16: torchvision normalises in float16
    out, kernels = launches(torch, tv.Compose(steps), x)
    assert kernels > 1
    ref = v2.Compose(steps)(x)
    assert out.dtype == torch.float16 and (out.float() - ref.float()).abs().max().item() < 0.02


def test_tvresize_crop_convert_reformat_into_equals_tvresize_then_the_float_chain(torch):
    x = image(torch, (2, 3, 270, 481), "uint8", seed=3)
    for interp, antialias in ((cvcuda.Interp.LINEAR, True), (cvcuda.Interp.CUBIC, True), (cvcuda.Interp.LINEAR, False),
                              (cvcuda.Interp.NEAREST, False)):
        resized = torch.empty((2, 3, 64, 114), dtype=torch.uint8, device="cuda")
        cvcuda.tvresize_into(cvcuda.as_tensor(resized, "NCHW"), cvcuda.as_tensor(x, "NCHW"), interp, antialias)
        crop = resized[:, :, 4:60, 29:85].float()
        k = torch.tensor(1.0 / 255, dtype=torch.float32)
        mean = torch.tensor(MEAN, dtype=torch.float32, device="cuda").view(1, 3, 1, 1)
        std = torch.tensor(STD, dtype=torch.float32, device="cuda").view(1, 3, 1, 1)
        want = (crop * k.cuda() - mean) / std
        dst = torch.full((2, 3, 56, 56), float("nan"), device="cuda")  # poisoned
        cvcuda.tvresize_crop_convert_reformat_into(cvcuda.as_tensor(dst, "NCHW"), cvcuda.as_tensor(x, "NCHW"), (114, 64),
                                                   interp, (29, 4), antialias, scale=1.0 / 255, mean=MEAN, std=STD)
        cvcuda.Stream.current.sync()
        assert torch.equal(dst, want), f"{interp} antialias={antialias}"


def test_tvresize_crop_convert_reformat_into_checks_its_arguments(torch):
    x = cvcuda.as_tensor(image(torch, (2, 3, 40, 50), "uint8"), "NCHW")
    dst = cvcuda.as_tensor(torch.empty((2, 3, 16, 16), device="cuda"), "NCHW")
    with pytest.raises(TypeError, match="antialias must be a bool or None"):
        cvcuda.tvresize_crop_convert_reformat_into(dst, x, (20, 20), cvcuda.Interp.LINEAR, (0, 0), antialias=1)
    with pytest.raises(cvcuda.InvalidArgumentError, match="params->interp=5"):
        cvcuda.tvresize_crop_convert_reformat_into(dst, x, (20, 20), cvcuda.Interp.AREA, (0, 0))
    with pytest.raises(cvcuda.InvalidArgumentError, match="does not lie inside the resized image"):
        cvcuda.tvresize_crop_convert_reformat_into(dst, x, (20, 20), cvcuda.Interp.LINEAR, (5, 5))
