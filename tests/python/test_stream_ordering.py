"""The seed's stream semantics driven from Python: torch side streams made busy (torch.cuda._sleep) write the input
while a cvcuda stream consumes it. One test per row of the producer table, plus the negative control."""

import numpy
import pytest

import cvcuda
from gpu_helpers import make_busy, with_stream

SHAPE = (2, 37, 53, 3)
BUSY_MS = 50


def produce_late(torch, side):
    """(x, values): x is written with `values` on `side` after BUSY_MS of sleep; x holds zeros until then."""
    values = torch.randint(1, 256, SHAPE, dtype=torch.uint8, device="cuda")
    x = torch.zeros_like(values)
    torch.cuda.synchronize()
    make_busy(torch, side, BUSY_MS)
    with torch.cuda.stream(side):
        x.copy_(values)
    return x, values


def result(torch, out, stream):
    stream.sync()
    return torch.as_tensor(out.cuda(), device="cuda")


def test_unknown_producer_costs_exactly_one_device_sync(torch):
    side = torch.cuda.Stream()
    x, values = produce_late(torch, side)
    cvcuda.reset_stats()
    nv = cvcuda.as_tensor(x, "NHWC")  # torch exports CAI v2: producer stream unknown
    assert cvcuda.stats()["deviceSyncs"] == 0  # as_tensor never synchronises
    target = cvcuda.Stream()
    out = cvcuda.flip(nv, 1, stream=target)
    assert cvcuda.stats()["deviceSyncs"] == 1
    again = cvcuda.flip(nv, 0, stream=target)
    assert cvcuda.stats()["deviceSyncs"] == 1  # later uses take the event path
    assert torch.equal(result(torch, out, target), torch.flip(values, [2]))
    assert torch.equal(result(torch, again, target), torch.flip(values, [1]))


def test_declared_producer_stream_is_waited_on_without_host_sync(torch):
    side = torch.cuda.Stream()
    x, values = produce_late(torch, side)
    cvcuda.reset_stats()
    nv = cvcuda.as_tensor(with_stream(x, side.cuda_stream), "NHWC")
    target = cvcuda.Stream()
    out = cvcuda.flip(nv, -1, stream=target)
    stats = cvcuda.stats()
    assert stats["deviceSyncs"] == 0
    assert stats["eventWaits"] >= 1
    assert torch.equal(result(torch, out, target), torch.flip(values, [1, 2]))


def test_operator_on_the_producers_torch_stream(torch):
    side = torch.cuda.Stream()
    x, values = produce_late(torch, side)
    cvcuda.reset_stats()
    nv = cvcuda.as_tensor(with_stream(x, side.cuda_stream), "NHWC")
    out = cvcuda.flip(nv, 1, stream=side)  # a torch stream as stream=
    assert cvcuda.stats()["deviceSyncs"] == 0
    assert torch.equal(result(torch, out, cvcuda.as_stream(side)), torch.flip(values, [2]))


def test_opt_out_after_manual_sync(torch):
    side = torch.cuda.Stream()
    x, values = produce_late(torch, side)
    torch.cuda.synchronize()  # the caller synchronised: stream -1 says so
    cvcuda.reset_stats()
    target = cvcuda.Stream()
    out = cvcuda.flip(cvcuda.as_tensor(with_stream(x, -1), "NHWC"), 1, stream=target)
    assert cvcuda.stats()["deviceSyncs"] == 0
    assert torch.equal(result(torch, out, target), torch.flip(values, [2]))


def test_negative_control_opt_out_without_sync_reads_stale_data(torch):
    # The same scenario with the barrier switched off (stream -1, no manual sync) must be seen to go wrong, proving
    # that the tests above can see a missing barrier.
    side = torch.cuda.Stream()
    target = cvcuda.Stream()
    wrong = 0
    for _ in range(5):
        x, values = produce_late(torch, side)
        out = cvcuda.flip(cvcuda.as_tensor(with_stream(x, -1), "NHWC"), 1, stream=target)
        wrong += not torch.equal(result(torch, out, target), torch.flip(values, [2]))
        torch.cuda.synchronize()
    assert wrong >= 1


def test_cupy_producer_stream_from_cai_v3(torch, cupy):
    values = cupy.random.randint(1, 256, SHAPE, dtype=cupy.uint8)
    cupy.cuda.Device().synchronize()
    producer = cupy.cuda.Stream(non_blocking=True)
    make_busy(torch, torch.cuda.ExternalStream(producer.ptr), BUSY_MS)
    with producer:
        x = values.copy()  # enqueued on `producer`, behind the sleep
        assert x.__cuda_array_interface__["stream"] == producer.ptr
        cvcuda.reset_stats()
        nv = cvcuda.as_tensor(x, "NHWC")
    target = cvcuda.Stream()
    out = cvcuda.flip(nv, 0, stream=target)
    assert cvcuda.stats()["deviceSyncs"] == 0
    got = cupy.asarray(out.cuda())  # CuPy waits on the exported writer stream itself
    assert numpy.array_equal(cupy.asnumpy(got), numpy.flip(cupy.asnumpy(values), 1))


def test_cupy_negative_strides_and_zero_copy(cupy):
    values = cupy.random.randint(0, 256, (3, 8, 9, 2), dtype=cupy.uint8)
    reversed_view = values[:, :, ::-1]  # negative column stride, data points at the first logical element
    stream = cvcuda.Stream()
    out = cvcuda.flip(cvcuda.as_tensor(reversed_view, "NHWC"), 1, stream=stream)
    stream.sync()
    assert cupy.array_equal(cupy.asarray(out.cuda()), values)
    view = cupy.asarray(out.cuda())
    assert view.data.ptr == out.cuda().__cuda_array_interface__["data"][0]


@pytest.mark.parametrize("flip_code,axes", [(0, (1,)), (1, (2,)), (-1, (1, 2))])
def test_cupy_writes_visible_to_cvcuda(cupy, flip_code, axes):
    src = cupy.random.randint(0, 256, (2, 5, 7, 3), dtype=cupy.uint8)
    dst = cupy.full_like(src, 99)
    stream = cvcuda.Stream()
    cvcuda.flip_into(cvcuda.as_tensor(dst, "NHWC"), cvcuda.as_tensor(src, "NHWC"), flip_code, stream=stream)
    stream.sync()
    assert cupy.array_equal(dst, cupy.flip(src, axes))
