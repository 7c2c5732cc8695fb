"""cvtcolor / advcvtcolor on the GPU against an independent numpy restatement of OpenCV's arithmetic and against
cv2.cvtColor (random data, poisoned outputs, odd sizes, every dtype x code x layout, strided sources), plus the
Python-side argument checks (no GPU needed)."""

import numpy
import pytest

import cvcuda
from cai_objects import BASE, CaiObject, contiguous_strides

SIZES = [(1, 1), (3, 5), (1081, 1919)]
YUV_SIZES = [(2, 2), (6, 10), (1082, 1918)]  # even; 6 rows give an odd chroma height (I420's V starts mid-row)
DTYPES = ["uint8", "uint16", "float16", "float32"]

# code -> (src channels, dst channels, what): independent of the library's own table.
RGB_CODES = {
    0: (3, 4, "alpha"), 1: (4, 3, "keep"), 2: (3, 4, "swap+alpha"), 3: (4, 3, "swap"), 4: (3, 3, "swap"),
    5: (4, 4, "swap"), 6: (3, 1, "gray-bgr"), 7: (3, 1, "gray-rgb"), 8: (1, 3, "replicate"), 9: (1, 4, "replicate+alpha"),
    10: (4, 1, "gray-bgr"), 11: (4, 1, "gray-rgb"),
}
ALPHA = {"uint8": 255, "uint16": 65535, "float16": 1.0, "float32": 1.0}


@pytest.fixture
def cv2(gpu):
    try:
        import cv2
    except ImportError:
        from conftest import unavailable

        unavailable("OpenCV (cv2) is not installed")
    return cv2


def random_image(torch, dtype, shape):
    """Random data (never zeros). uint16 images are torch int16 tensors holding the bits (see wrap)."""
    if dtype == "uint8":
        return torch.randint(0, 256, shape, dtype=torch.uint8, device="cuda")
    if dtype == "uint16":
        return torch.randint(-32768, 32768, shape, dtype=torch.int16, device="cuda")
    return torch.rand(shape, dtype=torch.float32, device="cuda").to(getattr(torch, dtype))


def wrap(torch, t, layout, dtype="uint8"):
    """cvcuda.as_tensor(t); uint16 through a CAI dict that relabels the int16 bits as <u2."""
    if dtype != "uint16":
        return cvcuda.as_tensor(t, layout)
    torch.cuda.synchronize()
    cai = dict(t.__cuda_array_interface__, typestr="<u2", version=3, stream=None)
    holder = CaiObject(cai)
    holder.owner = t
    return cvcuda.as_tensor(holder, layout)


def host(torch, t, dtype="uint8"):
    out = t.cpu().numpy()
    return out.view(numpy.uint16) if dtype == "uint16" else out


def reference_rgb(src: numpy.ndarray, code: int, dtype: str) -> numpy.ndarray:
    sc, dc, what = RGB_CODES[code]
    if what.startswith("gray"):
        b, g, r = (src[..., 0], src[..., 1], src[..., 2]) if what == "gray-bgr" else (src[..., 2], src[..., 1], src[..., 0])
        if dtype in ("uint8", "uint16"):
            y = (b.astype(numpy.int64) * 3735 + g.astype(numpy.int64) * 19235 + r.astype(numpy.int64) * 9798 + 16384) >> 15
            return y.astype(src.dtype)[..., None]
        y = b.astype(numpy.float32) * numpy.float32(0.114) + g.astype(numpy.float32) * numpy.float32(0.587) + \
            r.astype(numpy.float32) * numpy.float32(0.299)
        return y.astype(src.dtype)[..., None]
    if what.startswith("replicate"):
        rgb = numpy.repeat(src[..., :1], 3, axis=-1)
    else:
        rgb = src[..., :3][..., ::-1] if what.startswith("swap") else src[..., :3]
    if dc == 4:
        alpha = src[..., 3:4] if sc == 4 else numpy.full(src.shape[:-1] + (1,), ALPHA[dtype], dtype=src.dtype)
        rgb = numpy.concatenate([rgb, alpha], axis=-1)
    return numpy.ascontiguousarray(rgb)


def compare(out: numpy.ndarray, expected: numpy.ndarray, dtype: str) -> None:
    assert out.shape == expected.shape
    if dtype in ("uint8", "uint16"):
        numpy.testing.assert_array_equal(out, expected)
    else:
        tol = 1e-3 if dtype == "float16" else 1e-6
        numpy.testing.assert_allclose(out.astype(numpy.float32), expected.astype(numpy.float32), rtol=tol, atol=tol)


# Every code x dtype x layout x size, except the large size in NHWC for uint16 and float16 (HWC covers it for those
# dtypes): keeps the suite's run time bounded without skipping.
RGB_CASES = [(code, dtype, layout, size) for code in sorted(RGB_CODES) for dtype in DTYPES for layout in ("HWC", "NHWC")
             for size in SIZES if not (size[0] > 1000 and layout == "NHWC" and dtype in ("uint16", "float16"))]


@pytest.mark.parametrize("code,dtype,layout,size", RGB_CASES,
                         ids=[f"{c}-{d}-{l}-{s[0]}x{s[1]}" for c, d, l, s in RGB_CASES])
def test_rgb_codes_match_numpy(torch, code, dtype, layout, size):
    sc, dc, _ = RGB_CODES[code]
    shape = (size[0], size[1], sc) if layout == "HWC" else (2, size[0], size[1], sc)
    src = random_image(torch, dtype, shape)
    dst = torch.full(shape[:-1] + (dc,), 77, dtype=src.dtype, device="cuda")  # poisoned
    dst_cv = wrap(torch, dst, layout, dtype)
    out = cvcuda.cvtcolor_into(dst_cv, wrap(torch, src, layout, dtype), cvcuda.ColorConversion(code))
    assert out is dst_cv
    torch.cuda.synchronize()
    compare(host(torch, dst, dtype), reference_rgb(host(torch, src, dtype), code, dtype), dtype)
    new = cvcuda.cvtcolor(wrap(torch, src, layout, dtype), code)
    torch.cuda.synchronize()
    assert new.shape == tuple(dst.shape) and new.layout == layout and new.dtype == numpy.dtype(dtype)
    got = torch.as_tensor(new.cuda(), device="cuda") if dtype != "uint16" else None
    if got is not None:
        assert torch.equal(got, dst)


# The torchvision-exact gray codes: code -> (src channels, blue first).
TV_GRAY_CODES = {148: (3, False), 149: (3, True), 150: (4, False), 151: (4, True)}


def reference_gray_torchvision(src: numpy.ndarray, blue_first: bool, dtype: str) -> numpy.ndarray:
    """torchvision's r.mul(0.2989).add_(g, alpha=0.587).add_(b, alpha=0.114).to(dtype) as PyTorch runs it on the GPU:
    a float32 product, then two fused multiply-adds (here exact in float64, rounded once to float32: the product of a
    float32 and a pixel value and the sum span fewer than 53 bits), float16 rounding after each step for float16,
    truncation for integers."""
    f32 = numpy.float32
    b, g, r = (src[..., 0], src[..., 1], src[..., 2]) if blue_first else (src[..., 2], src[..., 1], src[..., 0])
    step = (lambda v: v.astype(numpy.float16).astype(f32)) if dtype == "float16" else (lambda v: v)

    def fma(weight, x, acc):
        return (numpy.float64(f32(weight)) * x.astype(numpy.float64) + acc.astype(numpy.float64)).astype(f32)

    y = step(r.astype(f32) * f32(0.2989))
    y = step(fma(0.587, g, y))
    y = fma(0.114, b, y)
    if dtype in ("uint8", "uint16"):
        return numpy.trunc(y).astype(src.dtype)[..., None]
    return y.astype(src.dtype)[..., None]


@pytest.mark.parametrize("layout", ["HWC", "NHWC"])
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("code", sorted(TV_GRAY_CODES))
def test_torchvision_gray_codes_match_numpy_bit_for_bit(torch, code, dtype, layout):
    channels, blue_first = TV_GRAY_CODES[code]
    shape = (301, 517, channels) if layout == "HWC" else (2, 301, 517, channels)
    src = random_image(torch, dtype, shape)
    dst = torch.full(shape[:-1] + (1,), 77, dtype=src.dtype, device="cuda")  # poisoned
    cvcuda.cvtcolor_into(wrap(torch, dst, layout, dtype), wrap(torch, src, layout, dtype), code)
    torch.cuda.synchronize()
    expected = reference_gray_torchvision(host(torch, src, dtype), blue_first, dtype)
    numpy.testing.assert_array_equal(host(torch, dst, dtype), expected)
    if dtype == "uint8":  # the weights sum to 0.9999: white is 254 (OpenCV's RGB2GRAY gives 255)
        white = torch.full(shape, 255, dtype=torch.uint8, device="cuda")
        gray = cvcuda.cvtcolor(cvcuda.as_tensor(white, layout), code)
        torch.cuda.synchronize()
        assert int(torch.as_tensor(gray.cuda(), device="cuda").max()) == 254


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
@pytest.mark.parametrize("code", sorted(RGB_CODES))
def test_rgb_codes_match_opencv(torch, cv2, code, dtype):
    sc, dc, _ = RGB_CODES[code]
    src = random_image(torch, dtype, (37, 53, sc))
    dst = torch.full((37, 53, dc), 77, dtype=src.dtype, device="cuda")
    cvcuda.cvtcolor_into(wrap(torch, dst, "HWC", dtype), wrap(torch, src, "HWC", dtype), code)
    torch.cuda.synchronize()
    got = host(torch, dst, dtype)
    expected = cv2.cvtColor(host(torch, src, dtype), code)
    compare(got, expected.reshape(got.shape), dtype)


@pytest.mark.parametrize("view", ["column-slice", "pitched-aligned", "pitched-odd", "negative-rows"])
@pytest.mark.parametrize("code", [4, 7, 0, 9])
def test_strided_sources(torch, code, view):
    sc, dc, _ = RGB_CODES[code]
    base = random_image(torch, "uint8", (2, 41, 96, sc))
    src = {"column-slice": base[:, :, 1::2, :], "pitched-aligned": base[:, :, :64, :],
           "pitched-odd": base[:, :, 3:70, :], "negative-rows": None}[view]
    if src is None:
        rows = base.flip(1)  # torch copies; build a negative-stride view through CAI instead
        src_cv = cvcuda.as_tensor(negative_row_view(base), "NHWC")
        expected_src = host(torch, rows)
    else:
        src_cv = cvcuda.as_tensor(src, "NHWC")
        expected_src = host(torch, src)
    out = cvcuda.cvtcolor(src_cv, code)
    torch.cuda.synchronize()
    got = host(torch, torch.as_tensor(out.cuda(), device="cuda"))
    numpy.testing.assert_array_equal(got, reference_rgb(expected_src, code, "uint8"))


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "float32"])
@pytest.mark.parametrize("first", [0, 1, 5])
def test_swap_on_pitched_rows_at_a_common_offset(torch, dtype, first):
    """RGB2BGR (code 4) between column slices of two tensors of the same pitch: the rows of both start `first`
    pixels past the same 16-byte boundary offsets, so the block-wise swap runs with partial blocks at every row's
    ends. Bytes outside the destination slice keep their poison."""
    base = random_image(torch, dtype, (2, 9, 40, 3))
    wide = torch.empty(base.shape, dtype=base.dtype, device="cuda")
    wide.view(torch.uint8).fill_(0x5A)
    width = 40 - first - 2
    src, dst = base[:, :, first:first + width, :], wide[:, :, first:first + width, :]
    stream = cvcuda.Stream()
    cvcuda.cvtcolor_into(wrap(torch, dst, "NHWC", dtype), wrap(torch, src, "NHWC", dtype), 4, stream=stream)
    stream.sync()
    assert torch.equal(dst, src.flip(3))
    outside = torch.ones(wide.shape, dtype=torch.bool, device="cuda")
    outside[:, :, first:first + width, :] = False
    assert bool((wide.view(torch.uint8)[outside.repeat_interleave(wide.element_size(), dim=3)] == 0x5A).all())


def negative_row_view(t):
    """A CAI object viewing torch tensor t (NHWC, contiguous) with its rows in reverse order (negative H stride)."""
    cai = dict(t.__cuda_array_interface__)
    n, h, w, c = t.shape
    strides = contiguous_strides(t.shape, t.element_size())
    cai["data"] = (cai["data"][0] + (h - 1) * strides[1], False)
    cai["strides"] = (strides[0], -strides[1], strides[2], strides[3])
    cai["version"] = 3
    cai["stream"] = None
    holder = CaiObject(cai)
    holder.owner = t
    return holder


# --- YUV 4:2:0 -----------------------------------------------------------------------------------------------------

# code -> (layout, U first, blue index, dst channels)
YUV_DECODE = {90: ("sp", 1, 2, 3), 91: ("sp", 1, 0, 3), 92: ("sp", 0, 2, 3), 93: ("sp", 0, 0, 3), 94: ("sp", 1, 2, 4),
              95: ("sp", 1, 0, 4), 96: ("sp", 0, 2, 4), 97: ("sp", 0, 0, 4), 98: ("p", 0, 2, 3), 99: ("p", 0, 0, 3),
              100: ("p", 1, 2, 3), 101: ("p", 1, 0, 3), 102: ("p", 0, 2, 4), 103: ("p", 0, 0, 4), 104: ("p", 1, 2, 4),
              105: ("p", 1, 0, 4)}
YUV_ENCODE = {140: (1, 2, 3), 141: (1, 0, 3), 142: (0, 2, 3), 143: (0, 0, 3), 144: (1, 2, 4), 145: (1, 0, 4),
              146: (0, 2, 4), 147: (0, 0, 4)}  # code -> (U first, blue index, src channels)
SPECS = {"BT601": (0.299, 0.114, False), "BT601_ER": (0.299, 0.114, True), "BT709": (0.2126, 0.0722, False),
         "BT709_ER": (0.2126, 0.0722, True), "BT2020": (0.2627, 0.0593, False), "BT2020_ER": (0.2627, 0.0593, True)}


def fixed(v):
    return int(numpy.floor(v * (1 << 20) + 0.5))


def matrix(spec):
    """20-bit integer coefficients: OpenCV's own integers for BT.601 limited range, else from Kr, Kb and the range."""
    if spec == "BT601":
        return dict(off=16, cy=1220542, cvr=1673527, cug=-409993, cvg=-852492, cub=2116026, cry=269484, cgy=528482,
                    cby=102760, cru=-155188, cgu=-305135, cbu=460324, crv=460324, cgv=-385875, cbv=-74448)
    kr, kb, full = SPECS[spec]
    kg = 1 - kr - kb
    ys, cs = (1.0, 1.0) if full else (219 / 255, 224 / 255)
    ur, vr = 2 * (1 - kb), 2 * (1 - kr)
    return dict(off=0 if full else 16, cy=fixed(1 / ys), cvr=fixed(vr / cs), cub=fixed(ur / cs),
                cug=fixed(-ur * kb / kg / cs), cvg=fixed(-vr * kr / kg / cs), cry=fixed(kr * ys), cgy=fixed(kg * ys),
                cby=fixed(kb * ys), cru=fixed(-kr / ur * cs), cgu=fixed(-kg / ur * cs), cbu=fixed(0.5 * cs),
                crv=fixed(0.5 * cs), cgv=fixed(-kg / vr * cs), cbv=fixed(-kb / vr * cs))


def chroma_planes(yuv, h, w, kind, u_first):
    """(U, V) of one image, each (h/2, w/2), from a C-contiguous (h*3/2, w) array."""
    rest = yuv[h:].reshape(-1)
    if kind == "sp":
        pairs = rest.reshape(h // 2, w // 2, 2)
        first, second = pairs[..., 0], pairs[..., 1]
    else:
        n = (h // 2) * (w // 2)
        first, second = rest[:n].reshape(h // 2, w // 2), rest[n:].reshape(h // 2, w // 2)
    return (first, second) if u_first else (second, first)


def reference_decode(yuv, code, spec="BT601"):
    kind, u_first, blue, dc = YUV_DECODE[code]
    h, w = yuv.shape[0] * 2 // 3, yuv.shape[1]
    m = matrix(spec)
    u, v = (p.astype(numpy.int64).repeat(2, 0).repeat(2, 1) - 128 for p in chroma_planes(yuv, h, w, kind, u_first))
    y = numpy.maximum(yuv[:h].astype(numpy.int64) - m["off"], 0) * m["cy"]
    half = 1 << 19
    r = numpy.clip((y + half + m["cvr"] * v) >> 20, 0, 255)
    g = numpy.clip((y + half + m["cvg"] * v + m["cug"] * u) >> 20, 0, 255)
    b = numpy.clip((y + half + m["cub"] * u) >> 20, 0, 255)
    chans = [b, g, r] if blue == 0 else [r, g, b]
    if dc == 4:
        chans.append(numpy.full_like(r, 255))
    return numpy.stack(chans, axis=-1).astype(numpy.uint8)


def reference_encode(rgb, code, spec="BT601"):
    u_first, blue, _ = YUV_ENCODE[code]
    m = matrix(spec)
    px = rgb.astype(numpy.int64)
    b, g, r = px[..., blue], px[..., 1], px[..., 2 - blue]
    h, w = rgb.shape[:2]
    y = numpy.clip((m["cry"] * r + m["cgy"] * g + m["cby"] * b + (1 << 19) + (m["off"] << 20)) >> 20, 0, 255)

    def block_sum(x):
        return x.reshape(h // 2, 2, w // 2, 2).sum(axis=(1, 3))

    sr, sg, sb = block_sum(r), block_sum(g), block_sum(b)
    u = numpy.clip((m["cru"] * sr + m["cgu"] * sg + m["cbu"] * sb + (128 << 22) + (1 << 21)) >> 22, 0, 255)
    v = numpy.clip((m["crv"] * sr + m["cgv"] * sg + m["cbv"] * sb + (128 << 22) + (1 << 21)) >> 22, 0, 255)
    pairs = numpy.stack([u, v] if u_first else [v, u], axis=-1).reshape(h // 2, w)
    return numpy.concatenate([y, pairs], axis=0).astype(numpy.uint8)


@pytest.mark.parametrize("size", YUV_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("code", sorted(YUV_DECODE))
def test_yuv_decode_matches_opencv(torch, cv2, code, size):
    h, w = size
    yuv = random_image(torch, "uint8", (2, h * 3 // 2, w, 1))
    dc = YUV_DECODE[code][3]
    dst = torch.full((2, h, w, dc), 77, dtype=torch.uint8, device="cuda")
    cvcuda.cvtcolor_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(yuv, "NHWC"), code)
    torch.cuda.synchronize()
    got = host(torch, dst)
    for i in range(2):
        image = host(torch, yuv[i, ..., 0])
        expected = cv2.cvtColor(image, code)
        diff = numpy.abs(got[i].astype(int) - expected.astype(int))
        assert diff.max() <= 1, f"image {i}: {int((diff > 1).sum())} values differ by more than 1"
        numpy.testing.assert_array_equal(got[i], reference_decode(image, code))


@pytest.mark.parametrize("spec", sorted(SPECS))
@pytest.mark.parametrize("code", [90, 93, 100, 103])
def test_yuv_decode_specs_match_numpy(torch, code, spec):
    h, w = 6, 10
    yuv = random_image(torch, "uint8", (h * 3 // 2, w, 1))
    out = cvcuda.advcvtcolor(cvcuda.as_tensor(yuv, "HWC"), code, getattr(cvcuda.ColorSpec, spec))
    torch.cuda.synchronize()
    got = host(torch, torch.as_tensor(out.cuda(), device="cuda"))
    numpy.testing.assert_array_equal(got, reference_decode(host(torch, yuv[..., 0]), code, spec))


# Every code x size x spec, the large size with BT601 only (the other specs differ in constants, not addressing).
YUV_ENCODE_CASES = [(code, size, spec) for code in sorted(YUV_ENCODE) for size in YUV_SIZES for spec in sorted(SPECS)
                    if spec == "BT601" or size[0] < 1000]


@pytest.mark.parametrize("code,size,spec", YUV_ENCODE_CASES,
                         ids=[f"{c}-{s[0]}x{s[1]}-{sp}" for c, s, sp in YUV_ENCODE_CASES])
def test_yuv_encode_matches_numpy(torch, code, size, spec):
    h, w = size
    sc = YUV_ENCODE[code][2]
    rgb = random_image(torch, "uint8", (h, w, sc))
    dst = torch.full((h * 3 // 2, w, 1), 77, dtype=torch.uint8, device="cuda")
    cvcuda.advcvtcolor_into(cvcuda.as_tensor(dst, "HWC"), cvcuda.as_tensor(rgb, "HWC"), code,
                            getattr(cvcuda.ColorSpec, spec))
    torch.cuda.synchronize()
    numpy.testing.assert_array_equal(host(torch, dst)[..., 0], reference_encode(host(torch, rgb), code, spec))


@pytest.mark.parametrize("code,cv_code", [(140, "COLOR_RGB2YUV_I420"), (141, "COLOR_BGR2YUV_I420")])
def test_yuv_encode_against_opencv(torch, cv2, code, cv_code):
    """OpenCV has no RGB-to-NV12 code; its I420 encoder gives the same Y plane, and, on images whose 2x2 blocks are
    uniform, the same chroma (it samples each block's top-left pixel where we, as the reference library, average)."""
    h, w = 10, 14
    blocks = random_image(torch, "uint8", (h // 2, w // 2, 3))
    rgb = blocks.repeat_interleave(2, 0).repeat_interleave(2, 1).contiguous()
    noisy = random_image(torch, "uint8", (h, w, 3))
    for image, uniform in ((noisy, False), (rgb, True)):
        out = cvcuda.cvtcolor(cvcuda.as_tensor(image, "HWC"), code)
        torch.cuda.synchronize()
        got = host(torch, torch.as_tensor(out.cuda(), device="cuda"))[..., 0]
        expected = cv2.cvtColor(host(torch, image), getattr(cv2, cv_code))
        numpy.testing.assert_array_equal(got[:h], expected[:h])
        if uniform:
            n = (h // 2) * (w // 2)
            planes = expected[h:].reshape(-1)
            u, v = planes[:n].reshape(h // 2, w // 2), planes[n:].reshape(h // 2, w // 2)
            pairs = got[h:].reshape(h // 2, w // 2, 2)
            assert numpy.abs(pairs[..., 0].astype(int) - u).max() <= 1
            assert numpy.abs(pairs[..., 1].astype(int) - v).max() <= 1


def test_nv12_roundtrip_is_close(torch):
    rgb = random_image(torch, "uint8", (64, 64, 3))
    smooth = torch.nn.functional.avg_pool2d(rgb.permute(2, 0, 1)[None].float(), 9, 1, 4)[0].permute(1, 2, 0)
    smooth = smooth.round().to(torch.uint8).contiguous()
    nv12 = cvcuda.cvtcolor(cvcuda.as_tensor(smooth, "HWC"), cvcuda.ColorConversion.RGB2YUV_NV12)
    back = cvcuda.cvtcolor(nv12, cvcuda.ColorConversion.YUV2RGB_NV12)
    torch.cuda.synchronize()
    diff = (torch.as_tensor(back.cuda(), device="cuda").int() - smooth.int()).abs()
    assert diff.float().mean().item() < 3.0


def test_unknown_and_unimplemented_codes(torch):
    src = cvcuda.as_tensor(random_image(torch, "uint8", (4, 6, 3)), "HWC")
    with pytest.raises(cvcuda.InvalidArgumentError, match=r"cvCvtColor: code=1000 is not a colour conversion code"):
        cvcuda.cvtcolor(src, 1000)
    with pytest.raises(cvcuda.NotSupportedError, match=r"code=40 "):
        cvcuda.cvtcolor(src, cvcuda.ColorConversion.BGR2HSV)
    with pytest.raises(cvcuda.InvalidArgumentError, match=r"src shape \(4, 6, 3\) has 3 channels; code BGRA2RGBA"):
        cvcuda.cvtcolor(src, cvcuda.ColorConversion.RGBA2BGRA)


# --- Python-side checks (no GPU: they happen before the stream is resolved) ------------------------------------------

def fake_tensor(shape=(4, 6, 3)):
    cai = {"shape": shape, "typestr": "|u1", "data": (BASE, False), "version": 3, "strides": None, "stream": None}
    return cvcuda.as_tensor(CaiObject(cai), "HWC")


@pytest.mark.parametrize("call,error,match", [
    (lambda t: cvcuda.cvtcolor(t, "RGB2BGR"), TypeError, "cvcuda.cvtcolor: code must be an int"),
    (lambda t: cvcuda.cvtcolor(t, True), TypeError, "code must be an int"),
    (lambda t: cvcuda.cvtcolor(t, 2**40), ValueError, "code=1099511627776 is outside"),
    (lambda t: cvcuda.cvtcolor("x", 4), TypeError, "src must be a cvcuda.Tensor"),
    (lambda t: cvcuda.cvtcolor_into(t, "x", 4), TypeError, "cvcuda.cvtcolor_into: src must be a cvcuda.Tensor"),
    (lambda t: cvcuda.advcvtcolor(t, 90, 0), ValueError, "spec=0 is not a cvcuda.ColorSpec"),
    (lambda t: cvcuda.advcvtcolor(t, 90, 1.0), TypeError, "spec must be an int"),
])
def test_python_argument_checks(call, error, match):
    with pytest.raises(error, match=match):
        call(fake_tensor())


def test_color_spec_members():
    assert [m.name for m in cvcuda.ColorSpec] == ["BT601", "BT601_ER", "BT709", "BT709_ER", "BT2020", "BT2020_ER"]
    assert int(cvcuda.ColorConversion.YUV2RGB_NV12) == 90 and int(cvcuda.ColorConversion.RGB2YUV_NV12) == 140
