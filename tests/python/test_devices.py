"""Devices on one GPU (and the argument checks on none): Stream(device=...), Stream.device, Tensor.device, the
current device left as it was after every kind of call (errors included), and a clear error for a device index the
machine does not have. The cases that need two GPUs are in test_multi_gpu.py."""

import pytest

import cvcuda
from cvcuda._ffi import ffi
from cvcuda._library import lib

from cai_objects import CaiObject


def current_device() -> int:
    out = ffi.new("int32_t *")
    assert lib.cvDeviceGetCurrent(out) == 0, ffi.string(lib.cvGetLastErrorMessage()).decode()
    return out[0]


def device_count() -> int:
    out = ffi.new("int32_t *")
    assert lib.cvDeviceGetCount(out) == 0
    return out[0]


# Device arguments Python rejects before any C call (so also on a machine without a GPU): (value, exception, text).
BAD_DEVICE_ARGUMENTS = [
    (True, TypeError, "not a bool"),
    (1.0, TypeError, "got float"),
    ([0], TypeError, "got list"),
    ("cpu", ValueError, "'cpu' is not a CUDA device"),
    ("cuda:", ValueError, "'cuda:' is not a CUDA device"),
    ("cuda:-1", ValueError, "'cuda:-1' is not a CUDA device"),
    ("cuda:1x", ValueError, "'cuda:1x' is not a CUDA device"),
    ("gpu:0", ValueError, "'gpu:0' is not a CUDA device"),
    (2**40, ValueError, "is not a CUDA device index"),
]


@pytest.mark.parametrize("value,exc_type,text", BAD_DEVICE_ARGUMENTS, ids=[repr(r[0]) for r in BAD_DEVICE_ARGUMENTS])
def test_stream_device_argument_errors_need_no_gpu(value, exc_type, text):
    with pytest.raises(exc_type, match="cvcuda.Stream: device") as info:
        cvcuda.Stream(device=value)
    assert text in str(info.value)


def test_device_count_is_zero_without_a_device_and_never_fails():
    assert device_count() >= 0


# A device index the machine lacks (an offset from the device count, or a fixed value): C names the value and the
# devices there are.
MISSING = [("count", 0, int), ("count + 4", 4, int), ("-1", None, int), ("'cuda:<count>'", 0, str)]


@pytest.mark.parametrize("name,offset,kind", MISSING, ids=[row[0] for row in MISSING])
def test_stream_on_a_missing_device_is_a_clear_error(gpu, name, offset, kind):
    before = current_device()
    count = device_count()
    index = -1 if offset is None else count + offset
    with pytest.raises(cvcuda.InvalidArgumentError) as info:
        cvcuda.Stream(device=f"cuda:{index}" if kind is str else index)
    message = str(info.value)
    assert message.startswith(f"cvStreamCreateOnDevice: device={index} is not a CUDA device index")
    assert f"this process sees {count} device" in message
    assert isinstance(info.value, ValueError)
    assert current_device() == before


@pytest.mark.parametrize("spelling", [0, "cuda:0", "cuda", None])
def test_stream_device_spellings(gpu, spelling):
    stream = cvcuda.Stream(device=spelling)
    assert stream.device == (0 if spelling is not None and spelling != "cuda" else current_device())
    assert stream.handle != 0
    assert f"device={stream.device}" in repr(stream)


def test_stream_accepts_a_torch_device(torch):
    assert cvcuda.Stream(device=torch.device("cuda", 0)).device == 0
    assert cvcuda.Stream(device=torch.device("cuda")).device == torch.cuda.current_device()
    with pytest.raises(ValueError, match="is not a CUDA device"):
        cvcuda.Stream(device=torch.device("cpu"))


def test_default_stream_is_the_current_devices(gpu):
    default = cvcuda.Stream.default
    assert default.handle == 0
    assert default.device == current_device()
    assert cvcuda.Stream.default is default
    assert cvcuda.as_stream(0) is default


def test_adopted_stream_knows_its_device(torch):
    side = torch.cuda.Stream(device=0)
    assert cvcuda.as_stream(side).device == 0


def test_tensor_device_comes_from_its_memory(torch):
    t = torch.arange(24, dtype=torch.uint8, device="cuda:0").reshape(2, 4, 3)
    assert cvcuda.as_tensor(t, "HWC").device == 0
    assert cvcuda.Tensor((2, 3), "uint8", "HW").device == current_device()
    assert cvcuda.from_dlpack(t, "HWC").device == 0
    out = cvcuda.flip(cvcuda.as_tensor(t, "HWC"), 1, stream=cvcuda.Stream(device=0))
    assert out.device == 0
    assert out.__dlpack_device__() == (2, 0)


def test_tensor_device_of_host_memory_is_an_error(gpu):
    host = CaiObject({"shape": (4,), "typestr": "|u1", "data": (id(object()) & ~0xFF, False), "version": 3,
                      "stream": None})
    with pytest.raises(cvcuda.InvalidArgumentError, match="cvTensorGetDevice: data="):
        cvcuda.as_tensor(host).device


def test_no_call_changes_the_current_device(torch):
    """Every kind of call, successful or failing, leaves the current device as it found it. (On one GPU the device
    never needs to change; on several, test_multi_gpu.py runs the same calls with another device current.)"""
    t = torch.randint(1, 255, (5, 7, 3), dtype=torch.uint8, device="cuda:0")
    wrapped = cvcuda.as_tensor(t, "HWC")
    stream = cvcuda.Stream(device=0)
    calls = [
        ("Stream(device=0)", lambda: cvcuda.Stream(device=0)),
        ("Stream.default", lambda: cvcuda.Stream.default),
        ("flip", lambda: cvcuda.flip(wrapped, 1, stream=stream)),
        ("flip on the default stream", lambda: cvcuda.flip(wrapped, 0)),
        ("flip_into with a shape mismatch", lambda: cvcuda.flip_into(cvcuda.Tensor((5, 6, 3), "uint8", "HWC"), wrapped, 1,
                                                                    stream=stream)),
        ("Stream(device=count)", lambda: cvcuda.Stream(device=device_count())),
        ("Tensor.cuda", lambda: wrapped.cuda()),
        ("__dlpack__", lambda: wrapped.__dlpack__(stream=torch.cuda.current_stream().cuda_stream or 1, max_version=(1, 0))),
        ("from_dlpack", lambda: cvcuda.from_dlpack(t, "HWC")),
        ("Tensor.device", lambda: wrapped.device),
        ("sync", lambda: stream.sync()),
    ]
    before = current_device()
    for name, call in calls:
        try:
            call()
        except (cvcuda.Error, ValueError):
            pass
        assert current_device() == before, name
        assert torch.cuda.current_device() == before, name
