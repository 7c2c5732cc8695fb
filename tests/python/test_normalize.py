"""normalize against a numpy reference: per-channel and per-tensor constants as sequences and as tensors, the
standard-deviation flag, every supported dtype pair, interleaved and planar layouts, odd sizes, in place."""

import numpy
import pytest

import cvcuda
from image_helpers import seed, host, poisoned, random_tensor, shape_of

PAIRS = [(s, d) for s in ["uint8", "uint16", "int16", "float16", "float32"] for d in sorted({"float32", "float16", s})]


def reference(src, base, scale, layout, stddev, globalscale, globalshift, epsilon):
    c_axis = layout.index("C")
    shape = [1] * src.ndim
    shape[c_axis] = -1
    b = numpy.asarray(base, dtype=numpy.float32).reshape(shape)
    s = numpy.asarray(scale, dtype=numpy.float32).reshape(shape)
    if stddev:
        s = 1.0 / numpy.sqrt(s * s + numpy.float32(epsilon))
    return (src.astype(numpy.float64) - b) * s * globalscale + globalshift


def to_dtype(v, dtype, torch):
    if dtype in ("float32", "float16"):
        return host(torch.from_numpy(v).to(getattr(torch, dtype))).astype(numpy.float64)
    info = numpy.iinfo(dtype)
    return numpy.clip(numpy.rint(v), info.min, info.max)


def check(got, want, dtype):
    if dtype in ("float32", "float16"):
        tol = 1e-5 if dtype == "float32" else 1e-3
        numpy.testing.assert_allclose(got, want, rtol=tol, atol=tol)
    else:
        # Integer outputs: the float32 order of operations may move a value across a rounding boundary by one.
        assert numpy.max(numpy.abs(got - want)) <= 1
        assert numpy.mean(got == want) > 0.99


@pytest.mark.parametrize("src_dtype,dst_dtype", PAIRS)
@pytest.mark.parametrize("layout", ["NHWC", "HWC", "NCHW", "CHW"])
@pytest.mark.parametrize("channels,per_channel", [(1, False), (3, True), (3, False), (4, True)])
def test_normalize_sequences(torch, src_dtype, dst_dtype, layout, channels, per_channel):
    rng = numpy.random.default_rng(seed(src_dtype, dst_dtype, layout, channels))
    shape = shape_of(layout, 2, 9, 13, channels)
    lo, hi = (0, 200) if src_dtype in ("uint8", "uint16") else (-100, 100)
    src_t = random_tensor(torch, shape, src_dtype, rng, lo, hi)
    count = channels if per_channel else 1
    base = list(rng.uniform(0, 50, size=count))
    scale = list(rng.uniform(0.5, 2.0, size=count))
    dst_t = poisoned(torch, shape, dst_dtype)
    stream = cvcuda.Stream()
    out = cvcuda.normalize_into(cvcuda.as_tensor(dst_t, layout), cvcuda.as_tensor(src_t, layout), base, scale,
                                globalscale=1.5, globalshift=4.0, stream=stream)
    stream.sync()
    assert out is not None
    want = to_dtype(reference(host(src_t), base if per_channel else base * channels,
                              scale if per_channel else scale * channels, layout, False, 1.5, 4.0, 0.0), dst_dtype, torch)
    check(host(dst_t).astype(numpy.float64), want, dst_dtype)


@pytest.mark.parametrize("size", [(1, 1), (3, 5), (1081, 1919)])
def test_normalize_tensors_and_stddev(torch, size):
    rng = numpy.random.default_rng(17)
    h, w = size
    src_t = random_tensor(torch, (2, h, w, 3), "uint8", rng)
    mean = [123.675, 116.28, 103.53]
    std = [58.395, 57.12, 57.375]
    base_t = torch.tensor(mean, dtype=torch.float32, device="cuda").reshape(1, 1, 1, 3)
    scale_t = torch.tensor(std, dtype=torch.float32, device="cuda").reshape(1, 1, 1, 3)
    stream = cvcuda.Stream()
    out = cvcuda.normalize(cvcuda.as_tensor(src_t, "NHWC"), cvcuda.as_tensor(base_t, "NHWC"),
                           cvcuda.as_tensor(scale_t, "NHWC"), cvcuda.NormalizeFlags.SCALE_IS_STDDEV,
                           globalscale=1.0, globalshift=0.0, epsilon=0.25, stream=stream)
    dst_t = poisoned(torch, (2, h, w, 3), "float32")
    cvcuda.normalize_into(cvcuda.as_tensor(dst_t, "NHWC"), cvcuda.as_tensor(src_t, "NHWC"),
                          cvcuda.as_tensor(base_t, "NHWC"), cvcuda.as_tensor(scale_t, "NHWC"),
                          cvcuda.NormalizeFlags.SCALE_IS_STDDEV, epsilon=0.25, stream=stream)
    stream.sync()
    assert out.dtype == numpy.uint8  # normalize() keeps src's dtype, as the reference library
    want = reference(host(src_t), mean, std, "NHWC", True, 1.0, 0.0, 0.25)
    numpy.testing.assert_allclose(host(dst_t), want, rtol=1e-5, atol=1e-5)
    check(host(torch.as_tensor(out.cuda(), device="cuda")).astype(numpy.float64), to_dtype(want, "uint8", torch), "uint8")


@pytest.mark.parametrize("src_dtype,dst_dtype", [("uint8", "float32"), ("float32", "float32"), ("uint8", "uint8"),
                                               ("float16", "float16")])
@pytest.mark.parametrize(
    "layout,channels,count,strided",
    [("NHWC", 1, 1, False), ("NHWC", 2, 2, False), ("NHWC", 3, 3, False), ("NHWC", 4, 4, False),
     ("NHWC", 3, 1, False),  # one value for every channel
     ("NHWC", 5, 5, False),  # past the register path: shared memory both times
     ("NCHW", 1, 1, False), ("NCHW", 2, 2, False), ("NCHW", 3, 3, False), ("NCHW", 4, 4, False),
     ("CHW", 3, 3, False), ("HWC", 4, 4, False),
     ("NHWC", 3, 3, True), ("NCHW", 3, 3, True)],  # a sliced source: the strided element path
)
def test_normalize_sequences_equal_tensors_bit_for_bit(torch, src_dtype, dst_dtype, layout, channels, count, strided):
    """Constants as sequences (carried in registers for up to 4 channels, kernels/normalize.cu) and the same constants
    as device tensors (staged in shared memory) give the same bits: the two paths compute the same floats. Which path
    a launch takes is tested on the CPU (tests/kernels/test_normalize_dispatch.cpp)."""
    rng = numpy.random.default_rng(seed(src_dtype, dst_dtype, layout, channels, count, strided, "paths"))
    shape = shape_of(layout, 2, 17, 29, channels)
    if strided:
        whole = random_tensor(torch, shape_of(layout, 2, 17, 35, channels), src_dtype, rng, 0, 200)
        src_t = whole[..., 3:32] if layout.endswith("W") else whole[..., 3:32, :]
    else:
        src_t = random_tensor(torch, shape, src_dtype, rng, 0, 200)
    base = [float(v) for v in rng.uniform(0, 50, size=count)]
    scale = [float(v) for v in rng.uniform(0.01, 2.0, size=count)]
    c_shape = [1] * len(layout)
    c_shape[layout.index("C")] = count
    base_t = torch.tensor(base, dtype=torch.float32, device="cuda").reshape(c_shape)
    scale_t = torch.tensor(scale, dtype=torch.float32, device="cuda").reshape(c_shape)
    by_value, by_tensor = poisoned(torch, shape, dst_dtype), poisoned(torch, shape, dst_dtype)
    src = cvcuda.as_tensor(src_t, layout)
    stream = cvcuda.Stream()
    cvcuda.normalize_into(cvcuda.as_tensor(by_value, layout), src, base, scale, globalscale=1.7, globalshift=-3.0,
                          stream=stream)
    cvcuda.normalize_into(cvcuda.as_tensor(by_tensor, layout), src, cvcuda.as_tensor(base_t, layout),
                          cvcuda.as_tensor(scale_t, layout), globalscale=1.7, globalshift=-3.0, stream=stream)
    stream.sync()
    got, want = host(by_value), host(by_tensor)
    assert numpy.array_equal(got.view(numpy.uint8), want.view(numpy.uint8))
    full_base, full_scale = (base, scale) if count == channels else (base * channels, scale * channels)
    check(got.astype(numpy.float64), to_dtype(reference(host(src_t), full_base, full_scale, layout, False, 1.7, -3.0, 0.0),
                                              dst_dtype, torch), dst_dtype)


def test_normalize_in_place_and_strided(torch):
    rng = numpy.random.default_rng(19)
    t = random_tensor(torch, (2, 11, 7, 3), "float32", rng)
    want = reference(host(t), [1.0, 2.0, 3.0], [0.5], "NHWC", False, 2.0, -1.0, 0.0)
    cv = cvcuda.as_tensor(t, "NHWC")
    stream = cvcuda.Stream()
    cvcuda.normalize_into(cv, cv, [1.0, 2.0, 3.0], [0.5], globalscale=2.0, globalshift=-1.0, stream=stream)
    stream.sync()
    numpy.testing.assert_allclose(host(t), want, rtol=1e-6, atol=1e-5)
    big = random_tensor(torch, (2, 20, 30, 4), "uint8", rng)
    view = big[:, 1:19:2, 3:, 1:]
    dst_t = poisoned(torch, tuple(view.shape), "float32")
    cvcuda.normalize_into(cvcuda.as_tensor(dst_t, "NHWC"), cvcuda.as_tensor(view, "NHWC"), [10.0], [0.25, 0.5, 1.0],
                          stream=stream)
    stream.sync()
    numpy.testing.assert_allclose(host(dst_t), reference(host(view), [10.0] * 3, [0.25, 0.5, 1.0], "NHWC", False, 1, 0, 0),
                                  rtol=1e-6)


def test_normalize_errors(torch):
    src = cvcuda.as_tensor(torch.zeros((1, 4, 4, 3), dtype=torch.uint8, device="cuda"), "NHWC")
    with pytest.raises(cvcuda.InvalidArgumentError, match="cvNormalize: baseCount=2 must be 1 or the channel count C=3"):
        cvcuda.normalize(src, [1.0, 2.0], [1.0])
    dst = cvcuda.as_tensor(torch.zeros((1, 4, 4, 3), dtype=torch.int16, device="cuda"), "NHWC")
    with pytest.raises(cvcuda.NotSupportedError, match="src dtype uint8 to dst dtype int16 is not supported"):
        cvcuda.normalize_into(dst, src, [1.0], [1.0])
