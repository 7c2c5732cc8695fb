"""cvcuda.resize against cv2.resize on the GPU machine: every interp x dtype x channel count x ratio (NHWC batches of
random images), the other layouts, strided sources, unaligned destinations, poisoned outputs. Tolerances:
resize_cases.assert_close."""

import itertools

import numpy as np
import pytest

import cvcuda
from conftest import unavailable
from resize_cases import CV2_INTERP, DTYPES, SIZES, assert_close, cv2_resize, magnitude, random_image, to_device, to_host

CHANNELS = (1, 3, 4, 5)


@pytest.fixture
def cv2(gpu):
    try:
        import cv2
    except ImportError:
        unavailable("OpenCV (cv2) is not installed")
    return cv2


def _case_id(interp, dtype, channels, sizes):
    (sh, sw), (dh, dw) = sizes
    return f"{interp.name}-{np.dtype(dtype).name}-c{channels}-{sh}x{sw}to{dh}x{dw}"


TABLE = [
    pytest.param(i, d, c, s, id=_case_id(i, d, c, s))
    for i, d, c, s in itertools.product(CV2_INTERP, DTYPES, CHANNELS, SIZES)
    # the 1080x1920 source once per interp x dtype, with 3 channels: it is the slow row
    if s[0] != (1080, 1920) or c == 3
]


@pytest.mark.parametrize("interp,dtype,channels,sizes", TABLE)
def test_resize_matches_opencv(cupy, cv2, interp, dtype, channels, sizes):
    (sh, sw), (dh, dw) = sizes
    rng = np.random.default_rng(sh * 7919 + sw * 31 + dh * 17 + dw + channels)
    batch = random_image(rng, (2, sh, sw, channels), dtype)
    _, src = to_device(cupy, batch, "NHWC")
    _, poisoned = to_device(cupy, np.full((2, dh, dw, channels), 77, dtype), "NHWC")
    out = cvcuda.resize_into(poisoned, src, interp)
    ours = to_host(cupy, out)
    for n in range(2):
        assert_close(ours[n], cv2_resize(cv2, batch[n], (dh, dw), interp), f"image {n}", magnitude(batch))


@pytest.mark.parametrize("interp", list(CV2_INTERP))
@pytest.mark.parametrize("layout", ["HWC", "CHW", "NCHW", "HW", "NHW"])
def test_resize_layouts(cupy, cv2, interp, layout):
    rng = np.random.default_rng(5)
    hwc = random_image(rng, (2, 45, 61, 3), np.uint8)
    if "C" not in layout:
        hwc = hwc[..., :1]
    dh, dw = 17, 90
    arrays = {
        "HWC": hwc[0], "CHW": hwc[0].transpose(2, 0, 1), "NCHW": hwc.transpose(0, 3, 1, 2),
        "HW": hwc[0, :, :, 0], "NHW": hwc[:, :, :, 0],
    }
    _, src = to_device(cupy, arrays[layout], layout)
    shape = {"HWC": (dh, dw, 3), "CHW": (3, dh, dw), "NCHW": (2, 3, dh, dw), "HW": (dh, dw), "NHW": (2, dh, dw)}[layout]
    ours = to_host(cupy, cvcuda.resize(src, shape, interp))
    images = 1 if "N" not in layout else 2
    for n in range(images):
        ref = cv2_resize(cv2, hwc[n], (dh, dw), interp)
        got = {
            "HWC": lambda: ours, "CHW": lambda: ours.transpose(1, 2, 0), "NCHW": lambda: ours[n].transpose(1, 2, 0),
            "HW": lambda: ours[:, :, None], "NHW": lambda: ours[n][:, :, None],
        }[layout]()
        assert_close(got, ref, f"{layout} image {n}")


@pytest.mark.parametrize("interp", list(CV2_INTERP))
@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
def test_resize_strided_source_and_destination(cupy, cv2, interp, dtype):
    """A window of a larger image (row pitch > row bytes, offset start) into a window of a poisoned buffer: only the
    window is written."""
    rng = np.random.default_rng(11)
    big = random_image(rng, (2, 70, 90, 4), dtype)
    big_t, _ = to_device(cupy, big, "NHWC")
    window = big_t[:, 3:3 + 41, 5:5 + 67, :3]  # strided NHWC: pitch 90*4, pixel stride 4, 3 channels
    out_t, _ = to_device(cupy, np.full((2, 40, 50, 4), 7, dtype), "NHWC")
    dst = cvcuda.as_tensor(out_t[:, 2:2 + 23, 1:1 + 31, 1:4], "NHWC")
    cvcuda.resize_into(dst, cvcuda.as_tensor(window, "NHWC"), interp)
    cvcuda.Stream.current.sync()
    got = cupy.asnumpy(out_t)
    for n in range(2):
        ref = cv2_resize(cv2, np.ascontiguousarray(big[n, 3:44, 5:72, :3]), (23, 31), interp)
        assert_close(got[n, 2:25, 1:32, 1:4], ref, f"window of image {n}", magnitude(big))
    untouched = got.copy()
    untouched[:, 2:25, 1:32, 1:4] = 7
    assert (untouched == 7).all(), "resize wrote outside dst's window"


@pytest.mark.parametrize("interp", list(CV2_INTERP))
def test_resize_packed_windows_with_unaligned_destination(cupy, cv2, interp):
    """Packed 3-channel pixels (the fast paths: row paths, tiled AREA) from a window of a larger image (4-byte
    aligned rows, pitch > row bytes) into a destination starting at an odd byte with an odd row pitch (their
    bytewise stores): values as cv2's, nothing outside the window written."""
    rng = np.random.default_rng(13)
    big = random_image(rng, (2, 60, 84, 3), np.uint8)  # row pitch 252 bytes
    big_t, _ = to_device(cupy, big, "NHWC")
    window = big_t[:, 2:2 + 41, 4:4 + 67, :]  # starts at byte 2 * 252 + 12 of each image
    dh, dw, pitch, image = 23, 40, 121, 23 * 121 + 6
    flat = cupy.full(2 * image + 8, 7, cupy.uint8)
    dst = cupy.lib.stride_tricks.as_strided(flat[1:], shape=(2, dh, dw, 3), strides=(image, pitch, 3, 1))
    cvcuda.resize_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(window, "NHWC"), interp)
    cvcuda.Stream.current.sync()
    got = cupy.asnumpy(flat)
    written = np.zeros(got.shape, bool)
    for n in range(2):
        at = 1 + n * image + np.arange(dh)[:, None] * pitch + np.arange(dw * 3)[None, :]
        ref = cv2_resize(cv2, np.ascontiguousarray(big[n, 2:43, 4:71]), (dh, dw), interp)
        assert_close(got[at].reshape(dh, dw, 3), ref, f"window of image {n}")
        written[at] = True
    assert (got[~written] == 7).all(), "resize wrote outside dst's window"


@pytest.mark.parametrize("interp", list(CV2_INTERP))
def test_resize_identity_and_extreme_edges(cupy, cv2, interp):
    """Same size is a copy for every interp (OpenCV too); 1-pixel-wide sources replicate their one column."""
    rng = np.random.default_rng(3)
    img = random_image(rng, (1, 33, 47, 3), np.uint8)
    _, src = to_device(cupy, img, "NHWC")
    assert np.array_equal(to_host(cupy, cvcuda.resize(src, (1, 33, 47, 3), interp)), img)
    column = random_image(rng, (1, 9, 1, 3), np.uint8)
    _, src = to_device(cupy, column, "NHWC")
    ours = to_host(cupy, cvcuda.resize(src, (1, 20, 6, 3), interp))
    assert_close(ours[0], cv2_resize(cv2, column[0], (20, 6), interp), "9x1 -> 20x6")


def test_resize_photos(cupy, cv2):
    """Real photographs (scikit-image's bundled data) at the issue's ratios, every interp, uint8 and float32."""
    try:
        from skimage import data
    except ImportError:
        unavailable("scikit-image is not installed (its data module provides the photographs)")
    for name in ("astronaut", "chelsea", "coffee"):
        photo = getattr(data, name)()
        _, src = to_device(cupy, photo[None], "NHWC")
        _, src_f = to_device(cupy, photo[None].astype(np.float32), "NHWC")
        for interp, (dh, dw) in itertools.product(CV2_INTERP, [(224, 224), (225, 300), (1, 1), (1031, 1537)]):
            ours = to_host(cupy, cvcuda.resize(src, (1, dh, dw, 3), interp))
            assert_close(ours[0], cv2_resize(cv2, photo, (dh, dw), interp), f"{name} {interp.name} {dh}x{dw}")
            ours_f = to_host(cupy, cvcuda.resize(src_f, (1, dh, dw, 3), interp))
            assert_close(ours_f[0], cv2_resize(cv2, photo.astype(np.float32), (dh, dw), interp), f"{name} f32 {interp.name}",
                         255.0)


def test_resize_contact_sheet(cupy, cv2):
    """The repository's contact sheet of photographs (docs/img), every interp, down and up, uint8."""
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[2] / "docs" / "img" / "contact_sheet.png"
    photo = cv2.imread(str(path), cv2.IMREAD_COLOR)
    assert photo is not None, f"cannot read {path}"
    _, src = to_device(cupy, photo[None], "NHWC")
    h, w = photo.shape[:2]
    for interp, (dh, dw) in itertools.product(CV2_INTERP, [(224, 224), (h // 3, w // 3), (h // 2 + 1, w * 2 - 1)]):
        ours = to_host(cupy, cvcuda.resize(src, (1, dh, dw, 3), interp))
        assert_close(ours[0], cv2_resize(cv2, photo, (dh, dw), interp), f"contact sheet {interp.name} {dh}x{dw}")


def test_resize_empty_batch_is_a_no_op(cupy):
    src = cvcuda.as_tensor(cupy.zeros((0, 8, 8, 3), dtype=cupy.uint8), "NHWC")
    before = cvcuda.stats()["kernelLaunches"]
    out = cvcuda.resize(src, (0, 4, 4, 3), cvcuda.Interp.LINEAR)
    assert out.shape == (0, 4, 4, 3)
    assert cvcuda.stats()["kernelLaunches"] == before
