"""The seed's three snippets (the PyTorch interop page of the reference library), verbatim, with assertions."""

import numpy

import cvcuda


def test_pytorch_to_cvcuda(torch):
    torch_tensor = torch.randn(10, 10)
    torch_tensor = torch_tensor.cuda()  # move to GPU
    cvcuda_tensor = cvcuda.as_tensor(torch_tensor)

    assert cvcuda_tensor.shape == (10, 10)
    assert cvcuda_tensor.dtype == numpy.float32
    assert cvcuda_tensor.layout is None
    assert cvcuda_tensor.cuda().__cuda_array_interface__["data"][0] == torch_tensor.data_ptr()


def test_cvcuda_to_pytorch(torch):
    torch_tensor = torch.randn(10, 10).cuda()
    cvcuda_tensor = cvcuda.as_tensor(torch_tensor)

    # Clone so all tensors aren't sharing same GPU buffer
    new_torch_tensor = torch.as_tensor(cvcuda_tensor.cuda())
    cloned_tensor = (
        new_torch_tensor.clone()
    )  # clone so that all tensors don't share same GPU buffer
    assert cloned_tensor.data_ptr() != new_torch_tensor.data_ptr()

    assert new_torch_tensor.is_cuda
    assert new_torch_tensor.data_ptr() == torch_tensor.data_ptr()
    assert torch.equal(cloned_tensor, torch_tensor)


def test_stream_synchronization(torch):
    src = torch.randint(0, 256, (2, 64, 64, 3), dtype=torch.uint8).cuda()
    src_nv = cvcuda.as_tensor(src, "NHWC")
    target = cvcuda.Stream()
    with target:
        out_nv = cvcuda.flip(src_nv, -1, stream=target)
    target.sync()

    assert (out_nv.shape, out_nv.layout, out_nv.dtype) == ((2, 64, 64, 3), "NHWC", numpy.uint8)
    out = torch.as_tensor(out_nv.cuda(), device="cuda")
    assert torch.equal(out, torch.flip(src, [1, 2]))
