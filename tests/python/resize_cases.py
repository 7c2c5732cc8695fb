"""What the resize GPU tests share (and scripts/reference_agreement.py, which holds the reference library to the same
cases and rule): the interpolation tables against OpenCV and torchvision, random images per dtype, the tolerance rule,
and moving arrays between numpy, torch and cvcuda."""

import math

import numpy as np

import cvcuda

# (our interp, OpenCV's constant name): cv2 is imported by the tests, so names stay strings here.
CV2_INTERP = {
    cvcuda.Interp.NEAREST: "INTER_NEAREST_EXACT",
    cvcuda.Interp.NEAREST_FLOOR: "INTER_NEAREST",
    cvcuda.Interp.LINEAR: "INTER_LINEAR",
    cvcuda.Interp.CUBIC: "INTER_CUBIC",
    cvcuda.Interp.AREA: "INTER_AREA",
}

DTYPES = (np.uint8, np.uint16, np.int16, np.float16, np.float32)

# (src H, W) -> (dst H, W): the ratios (1080x1920 -> 1x1 among them), the others between 1/8 and 8 per axis,
# mixed up/down, integer factors.
SIZES = (
    ((534, 800), (224, 224)),
    ((960, 1280), (225, 300)),
    ((1, 1), (7, 5)),
    ((1080, 1920), (1, 1)),
    ((64, 48), (8, 6)),
    ((8, 6), (64, 48)),
    ((37, 53), (111, 29)),
    ((100, 120), (50, 40)),
    ((99, 101), (33, 101)),
    ((5, 7), (13, 3)),
)

# torchvision's resize (tvresize): (src H, W) -> (dst H, W), torchvision's mode names and ours.
TV_SIZES = (
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
TV_MODES = ("BILINEAR", "BICUBIC", "NEAREST", "NEAREST_EXACT")
TV_INTERP = {"BILINEAR": cvcuda.Interp.LINEAR, "BICUBIC": cvcuda.Interp.CUBIC, "NEAREST": cvcuda.Interp.NEAREST_FLOOR,
             "NEAREST_EXACT": cvcuda.Interp.NEAREST}


def window_taps(mode, antialias, src, dst):
    """Taps one output sums in torch's separable antialias filter: 2 * ceil(support * scale) + 1 per downscaled axis
    (support 1 for bilinear, 2 for bicubic, as torch's antialias kernels), their product over the two axes."""
    if not antialias or mode.startswith("NEAREST"):
        return 0
    support = 1 if mode == "BILINEAR" else 2
    taps = 1
    for s, d in zip(src, dst):
        taps *= 2 * math.ceil(support * max(s / d, 1.0)) + 1
    return taps


def random_image(rng, shape, dtype):
    """Random values over the dtype's range (floats: [-100, 300), images with overshoot)."""
    dtype = np.dtype(dtype)
    if dtype.kind in "ui":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)
    return rng.uniform(-100.0, 300.0, size=shape).astype(dtype)


def cv2_resize(cv2, img_hwc, dst_hw, interp):
    """cv2.resize of one HWC image; float16 is resized in float32 (OpenCV has no float16 resize) and cast back.
    OpenCV's INTER_AREA refuses more than 4 channels for non-integer factors: such images are resized in groups
    of at most 4 channels (channels are independent in every interpolation)."""
    flag = getattr(cv2, CV2_INTERP[interp])
    src = img_hwc.astype(np.float32) if img_hwc.dtype == np.float16 else img_hwc
    if src.ndim == 3 and src.shape[2] > 4:
        out = np.concatenate([cv2_resize(cv2, src[:, :, c:c + 4], dst_hw, interp) for c in range(0, src.shape[2], 4)], 2)
    else:
        out = cv2.resize(np.ascontiguousarray(src), (dst_hw[1], dst_hw[0]), interpolation=flag)
    if out.ndim == 2:
        out = out[:, :, None]
    return out.astype(img_hwc.dtype) if img_hwc.dtype == np.float16 else out


def outside_rule(ours, ref, src_scale=1.0, taps=0):
    """(mask of the values of `ours` outside the rule against `ref`, |ours - ref|), arrays of one shape. Integers:
    within +-1 (OpenCV's SIMD and scalar code round the last pass differently). float32: 1e-4 relative (of
    max(|ref|, 1)) plus 2e-6 of the source's magnitude `src_scale` (max |src|): float32 sums of a few dozen weighted
    taps, added in another order or fused into multiply-adds, differ by that much. A sum of more `taps` (antialias
    windows: hundreds) may differ by up to taps * 2^-24 of the magnitude, the float32 bound of a sum of that many
    terms, and gets that instead when it is larger. float16: one float16 rounding (2^-10 relative) on top of the same
    float32 bound. NaN is outside."""
    if ours.dtype.kind in "ui":
        diff = np.abs(ours.astype(np.int64) - ref.astype(np.int64))
        return diff > 1, diff
    a, b = ours.astype(np.float64), ref.astype(np.float64)
    rel = 1e-4 if ours.dtype == np.float32 else 2.0**-10
    diff = np.abs(a - b)
    return ~(diff <= rel * np.maximum(np.abs(b), 1.0) + max(2e-6, taps * 2.0**-24) * src_scale), diff


def assert_close(ours, ref, what, src_scale=1.0, taps=0):
    """Fails unless every value of `ours` is within the rule of outside_rule against `ref`."""
    assert ours.shape == ref.shape, f"{what}: shape {ours.shape} != {ref.shape}"
    bad, diff = outside_rule(ours, ref, src_scale, taps)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        raise AssertionError(
            f"{what}: {int(bad.sum())} of {bad.size} values differ; first at {idx}: ours {ours[idx]} ref {ref[idx]}; "
            f"max diff {diff.max()}"
        )


def magnitude(array):
    """max |array| as a float (the src_scale of assert_close)."""
    return float(np.abs(array.astype(np.float64)).max()) if array.size else 1.0


def to_device(cupy, array, layout):
    """(CuPy array on the GPU, cvcuda wrapper): CuPy holds every dtype of the table (torch lacks uint16 kernels)."""
    a = cupy.asarray(np.ascontiguousarray(array))
    cupy.cuda.get_current_stream().synchronize()
    return a, cvcuda.as_tensor(a, layout)


def to_host(cupy, tensor):
    """A cvcuda Tensor's values as numpy, after the current stream finished."""
    cvcuda.Stream.current.sync()
    return cupy.asnumpy(cupy.asarray(tensor.cuda()))
