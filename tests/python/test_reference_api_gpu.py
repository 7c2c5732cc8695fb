"""The reference library's Stream and Tensor behaviours on a GPU (CV-CUDA 0.19's documented semantics, and where this
package differs on purpose): wait_stream, with-blocks, int()/id/handle, as_stream for ctypes/CuPy/numpy handles,
Tensor(shape, Type, layout), reshape views sharing stream-ordering state, flip_into returning dst."""

import ctypes
import time

import numpy
import pytest

import cvcuda
from gpu_helpers import make_busy


def _torch_stream(torch, stream):
    return torch.cuda.ExternalStream(stream.handle)


@pytest.mark.parametrize("ordered", [True, False], ids=["wait_stream", "negative-control"])
def test_wait_stream_orders_without_blocking(torch, ordered):
    producer, consumer = cvcuda.Stream(), cvcuda.Stream()
    x = torch.zeros(1 << 20, device="cuda")
    y = torch.full_like(x, -1.0)
    torch.cuda.synchronize()
    make_busy(torch, _torch_stream(torch, producer), 200)  # forces the race of the negative control
    with torch.cuda.stream(_torch_stream(torch, producer)):
        x.fill_(1.0)
    cvcuda.reset_stats()
    start = time.monotonic()
    if ordered:
        consumer.wait_stream(producer)
    elapsed = time.monotonic() - start
    with torch.cuda.stream(_torch_stream(torch, consumer)):
        y.copy_(x)
    consumer.sync()
    producer.sync()
    assert elapsed < 0.1  # the producer is busy for 200 ms: waiting on the host would show here
    assert cvcuda.stats()["deviceSyncs"] == 0
    if ordered:
        assert bool((y == 1.0).all())
    else:
        assert bool((y == 0.0).any())  # the copy ran before the fill: the test can see a missing wait


def test_wait_stream_on_itself_is_a_no_op(gpu):
    s = cvcuda.Stream()
    s.wait_stream(s)
    s.wait_stream(cvcuda.as_stream(s.handle))
    s.sync()


def test_exit_of_a_stream_that_is_not_current_raises(gpu):
    a, b = cvcuda.Stream(), cvcuda.Stream()
    a.__enter__()
    with pytest.raises(RuntimeError, match="not the current stream"):
        b.__exit__(None, None, None)
    assert cvcuda.Stream.current is a
    a.__exit__(None, None, None)
    assert cvcuda.Stream.current is cvcuda.Stream.default


def test_exit_lets_a_propagating_exception_through(gpu):
    a, b = cvcuda.Stream(), cvcuda.Stream()
    with pytest.raises(KeyError):
        with a:
            b.__enter__()  # left unbalanced on purpose
            raise KeyError("body")
    # b's stale entry is still the innermost; leaving it with the exception cleans up without masking it
    with pytest.raises(KeyError):
        try:
            raise KeyError("again")
        except KeyError as exc:
            b.__exit__(type(exc), exc, exc.__traceback__)
            raise
    assert cvcuda.Stream.current is cvcuda.Stream.default


def test_int_id_handle_repr(gpu):
    s = cvcuda.Stream()
    assert int(s) == s.handle != 0
    assert cvcuda.as_stream(s.handle).id == s.id
    assert cvcuda.Stream().id != s.id
    assert f"0x{s.handle:x}" in repr(s)
    assert int(cvcuda.Stream.default) == 0


def test_as_stream_from_ctypes_and_numpy(gpu):
    s = cvcuda.Stream()
    assert cvcuda.as_stream(ctypes.c_void_p(s.handle)).handle == s.handle
    assert cvcuda.as_stream(ctypes.c_void_p(None)) is cvcuda.Stream.default
    assert cvcuda.as_stream(numpy.uint64(s.handle)).handle == s.handle
    src = cvcuda.Tensor((4, 4), cvcuda.Type.U8, "HW")
    assert cvcuda.flip(src, 0, stream=numpy.uint64(s.handle)).shape == (4, 4)
    s.sync()


def test_as_stream_from_cupy(cupy):
    side = cupy.cuda.Stream(non_blocking=True)
    assert cvcuda.as_stream(side).handle == side.ptr


def test_tensor_with_reference_arguments(gpu):
    t = cvcuda.Tensor((2, 8, 16, 3), cvcuda.Type.F32, cvcuda.TensorLayout.NHWC, rowalign=64)
    assert t.dtype == numpy.float32 and isinstance(t.dtype, numpy.dtype)
    assert t.layout == "NHWC" and t.ndim == 4 and t.shape == (2, 8, 16, 3)


def test_flip_into_returns_dst(torch):
    src = cvcuda.as_tensor(torch.randint(0, 255, (6, 5, 3), dtype=torch.uint8, device="cuda"), "HWC")
    dst = cvcuda.Tensor((6, 5, 3), numpy.uint8, "HWC")
    assert cvcuda.flip_into(dst, src, 1) is dst


def test_reshape_view_shares_memory_and_ordering(torch):
    writer, reader = cvcuda.Stream(), cvcuda.Stream()
    data = torch.randint(0, 255, (8, 10, 3), dtype=torch.uint8, device="cuda")
    src = cvcuda.as_tensor(data, "HWC")
    base = cvcuda.Tensor((8, 10, 3), numpy.uint8, "HWC")
    cvcuda.flip_into(base, src, 0, stream=writer)  # settles src's unknown producer now, before the writer is busy
    writer.sync()
    make_busy(torch, _torch_stream(torch, writer), 100)
    cvcuda.flip_into(base, src, 1, stream=writer)  # pending on the busy writer
    view = base.reshape((1, 8, 10, 3), "NHWC")
    out = cvcuda.flip(view, 1, stream=reader)  # must wait for the writer through the shared state
    reader.sync()
    result = torch.as_tensor(out.cuda(), device="cuda")
    assert torch.equal(result[0], data)  # flipped twice around the y-axis
    shared = torch.as_tensor(view.cuda(), device="cuda")
    assert shared.data_ptr() == torch.as_tensor(base.cuda(), device="cuda").data_ptr()
