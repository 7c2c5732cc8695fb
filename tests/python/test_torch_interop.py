"""Zero-copy interop with PyTorch and flip results against torch.flip (random data, poisoned outputs)."""

import numpy
import pytest

import cvcuda

# flipCode -> the torch.flip dims of an NHWC tensor (OpenCV convention: 0 rows, > 0 columns, < 0 both).
FLIP_DIMS = [(0, [1]), (1, [2]), (-1, [1, 2])]
DTYPES = ["uint8", "float32"]


def random_nhwc(torch, dtype, shape=(2, 37, 53, 3)):
    if dtype == "uint8":
        return torch.randint(0, 256, shape, dtype=torch.uint8, device="cuda")
    return torch.randn(shape, dtype=getattr(torch, dtype), device="cuda")


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("flip_code,dims", FLIP_DIMS)
def test_flip_matches_torch(torch, dtype, flip_code, dims):
    src = random_nhwc(torch, dtype)
    stream = cvcuda.Stream()
    out = cvcuda.flip(cvcuda.as_tensor(src, "NHWC"), flip_code, stream=stream)
    stream.sync()
    assert torch.equal(torch.as_tensor(out.cuda(), device="cuda"), torch.flip(src, dims))


@pytest.mark.parametrize("dtype", DTYPES + ["bfloat16", "float16", "int64"])
@pytest.mark.parametrize("flip_code,dims", FLIP_DIMS)
def test_flip_into_poisoned_torch_output(torch, dtype, flip_code, dims):
    src = random_nhwc(torch, dtype) if dtype in ("uint8", "float32") else (
        torch.randn((2, 37, 53, 3), device="cuda") * 100).to(getattr(torch, dtype))
    dst = torch.full_like(src, 77)
    stream = cvcuda.Stream()
    cvcuda.flip_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(src, "NHWC"), flip_code, stream=stream)
    stream.sync()
    assert torch.equal(dst, torch.flip(src, dims))


def test_flip_of_strided_torch_views(torch):
    base = torch.randint(0, 256, (2, 3, 40, 60), dtype=torch.uint8, device="cuda")
    src = base.permute(0, 2, 3, 1)[:, 1:38, ::2, :]  # NCHW -> NHWC view, cropped, every other column
    assert not src.is_contiguous()
    stream = cvcuda.Stream()
    out = cvcuda.flip(cvcuda.as_tensor(src, "NHWC"), -1, stream=stream)
    stream.sync()
    assert torch.equal(torch.as_tensor(out.cuda(), device="cuda"), torch.flip(src, [1, 2]))


def test_bfloat16_is_recognised(torch):
    t = torch.randn((4, 5, 3), device="cuda").to(torch.bfloat16)
    nv = cvcuda.as_tensor(t, "HWC")
    assert "bfloat16" in repr(nv)
    assert nv.cuda().__cuda_array_interface__["typestr"] == "<V2"
    try:
        import ml_dtypes
    except ImportError:
        with pytest.raises(TypeError, match="ml_dtypes"):
            nv.dtype
    else:
        assert nv.dtype == numpy.dtype(ml_dtypes.bfloat16)


def test_zero_copy_torch_to_cvcuda(torch):
    src = random_nhwc(torch, "uint8", (1, 4, 5, 3))
    t = torch.zeros_like(src)
    nv = cvcuda.as_tensor(t, "NHWC")
    assert nv.cuda().__cuda_array_interface__["data"][0] == t.data_ptr()
    stream = cvcuda.Stream()
    cvcuda.flip_into(nv, cvcuda.as_tensor(src, "NHWC"), 1, stream=stream)  # cvcuda writes into torch's memory
    stream.sync()
    assert torch.equal(t, torch.flip(src, [2]))


def test_zero_copy_cvcuda_to_torch(torch):
    nv = cvcuda.Tensor((1, 4, 5, 3), numpy.uint8, "NHWC")
    torch.cuda.synchronize()  # the allocation is stream-ordered and torch ignores the exported stream
    view = torch.as_tensor(nv.cuda(), device="cuda")
    assert view.data_ptr() == nv.cuda().__cuda_array_interface__["data"][0]
    src = random_nhwc(torch, "uint8", (1, 4, 5, 3))
    view.copy_(src)  # torch writes into cvcuda's memory
    torch.cuda.synchronize()  # torch does not announce its writes: the caller orders them
    stream = cvcuda.Stream()
    out = cvcuda.flip(nv, 0, stream=stream)
    stream.sync()
    assert torch.equal(torch.as_tensor(out.cuda(), device="cuda"), torch.flip(src, [1]))


def test_cpu_tensor_asks_for_cuda(torch):
    with pytest.raises(TypeError, match=r"\.cuda\(\)"):
        cvcuda.as_tensor(torch.zeros(3))


def test_requires_grad_asks_for_detach(torch):
    with pytest.raises(ValueError, match=r"detach"):
        cvcuda.as_tensor(torch.zeros(3, device="cuda", requires_grad=True))


@pytest.mark.parametrize("name", ["complex64", "complex128"])
def test_complex_torch_tensor_wraps_with_its_dtype(torch, name):
    assert cvcuda.as_tensor(torch.zeros(3, dtype=getattr(torch, name), device="cuda")).dtype == numpy.dtype(name)


def test_tensor_accepts_torch_dtypes(torch):
    assert cvcuda.Tensor((2, 3), torch.float16).dtype == numpy.float16


def test_flip_argument_errors(torch):
    nv = cvcuda.as_tensor(torch.zeros((4, 4), dtype=torch.uint8, device="cuda"))
    with pytest.raises(TypeError, match="src"):
        cvcuda.flip(torch.zeros(3, device="cuda"), 1)
    with pytest.raises(TypeError, match="flipCode"):
        cvcuda.flip(cvcuda.as_tensor(torch.zeros((4, 4), device="cuda"), "HW"), "1")
    with pytest.raises(ValueError, match="flipCode"):
        cvcuda.flip(cvcuda.as_tensor(torch.zeros((4, 4), device="cuda"), "HW"), 1 << 40)
    with pytest.raises(cvcuda.InvalidArgumentError, match="layout"):
        cvcuda.flip(nv, 1)  # no layout: flip needs H and W


def test_stats_count_kernel_launches(torch):
    nv = cvcuda.as_tensor(random_nhwc(torch, "uint8"), "NHWC")
    stream = cvcuda.Stream()
    cvcuda.flip(nv, 1, stream=stream)
    cvcuda.reset_stats()
    for _ in range(3):
        cvcuda.flip(nv, 1, stream=stream)
    stream.sync()
    stats = cvcuda.stats()
    assert stats["kernelLaunches"] == 3
    assert stats["deviceSyncs"] == 0
    assert stats["liveStreams"] >= 1 and stats["liveTensors"] >= 1


def test_the_torch_bridge_follows_what_torch_exports(torch, monkeypatch):
    """The seed: if PyTorch adopts CAI v3 with a real writer stream, that stream is used and the defensive sync is
    skipped. The fast bridge checks torch's own CAI once; a torch that reports a stream goes through its CAI."""
    from cvcuda import _tensor

    src = random_nhwc(torch, "uint8")
    cvcuda.as_tensor(src, "NHWC")
    assert _tensor._torch_stream_key == ("stream" in src.__cuda_array_interface__)

    class TorchWithStream(torch.Tensor):  # what a CAI v3 torch would export: the stream that wrote the tensor
        @property
        def __cuda_array_interface__(self):
            cai = dict(torch.Tensor.__cuda_array_interface__.__get__(self))
            cai["version"], cai["stream"] = 3, torch.cuda.current_stream().cuda_stream
            return cai

    monkeypatch.setattr(_tensor, "_torch_stream_key", None)
    producer = torch.cuda.Stream()
    with torch.cuda.stream(producer):
        v3 = src.as_subclass(TorchWithStream)
        wrapped = cvcuda.as_tensor(v3, "NHWC")
    cvcuda.reset_stats()
    stream = cvcuda.Stream()
    out = cvcuda.flip(wrapped, -1, stream=stream)
    stream.sync()
    assert cvcuda.stats()["deviceSyncs"] == 0  # the named producer stream was waited on with an event instead
    assert torch.equal(torch.as_tensor(out.cuda(), device="cuda"), torch.flip(src, [1, 2]))
