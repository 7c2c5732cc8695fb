"""Two GPUs (skip with the count on fewer; fail with CVCUDA_REQUIRE_MULTI_GPU=1): torch tensors on cuda:1 wrapped
and flipped while device 0 is current, flips on both GPUs at once from two threads, the device-mismatch error with
real devices, and Stream.default per device. torch.flip is the reference."""

import threading

import pytest

import cvcuda

FLIP_DIMS = {0: [0], 1: [1], -1: [0, 1]}  # flipCode (OpenCV) -> the HWC dims torch.flip reverses


def random_image(torch, device, seed, shape=(37, 53, 3)):
    generator = torch.Generator().manual_seed(seed)
    return torch.randint(1, 256, shape, dtype=torch.uint8, generator=generator).to(device)


def test_tensor_on_cuda1_while_device0_is_current(two_gpus):
    torch = two_gpus
    torch.cuda.set_device(0)
    src = random_image(torch, "cuda:1", 1)
    torch.cuda.synchronize(1)
    wrapped = cvcuda.as_tensor(src, "HWC")
    assert wrapped.device == 1
    stream = cvcuda.Stream(device=1)
    assert stream.device == 1
    for code, dims in FLIP_DIMS.items():
        out = cvcuda.flip(wrapped, code, stream=stream)
        assert out.device == 1
        stream.sync()
        assert torch.equal(torch.as_tensor(out.cuda(), device="cuda:1"), torch.flip(src, dims)), code
    # torch's current stream of device 1 works as the operator's stream too, and DLPack brings the result back.
    out = cvcuda.flip(wrapped, 1, stream=torch.cuda.current_stream(1))
    assert torch.equal(torch.from_dlpack(out), torch.flip(src, [1]))
    assert torch.cuda.current_device() == 0


def test_from_dlpack_of_cuda1_while_device0_is_current(two_gpus):
    torch = two_gpus
    torch.cuda.set_device(0)
    src = random_image(torch, "cuda:1", 2)
    wrapped = cvcuda.from_dlpack(src, "HWC")
    assert wrapped.device == 1
    out = cvcuda.flip(wrapped, -1, stream=cvcuda.Stream(device=1))
    assert torch.equal(torch.from_dlpack(out), torch.flip(src, [0, 1]))
    assert torch.cuda.current_device() == 0


def test_device_mismatch_with_real_devices_names_both(two_gpus):
    torch = two_gpus
    torch.cuda.set_device(0)
    src = cvcuda.as_tensor(random_image(torch, "cuda:1", 3), "HWC")
    with pytest.raises(cvcuda.InvalidArgumentError) as info:
        cvcuda.flip(src, 1)  # Stream.current: device 0's default stream
    assert str(info.value).startswith("cvFlip: src is on device 1 (where its memory is) but the stream is on device 0")
    dst0 = cvcuda.as_tensor(torch.zeros((37, 53, 3), dtype=torch.uint8, device="cuda:0"), "HWC")
    with pytest.raises(cvcuda.InvalidArgumentError, match="cvFlip: dst is on device 0 .* stream is on device 1"):
        cvcuda.flip_into(dst0, src, 1, stream=cvcuda.Stream(device=1))
    with pytest.raises(cvcuda.InvalidArgumentError, match="devices|device"):
        cvcuda.Stream(device=0).wait_stream(cvcuda.Stream(device=1))
    assert torch.cuda.current_device() == 0


def test_default_stream_is_per_device(two_gpus):
    torch = two_gpus
    torch.cuda.set_device(0)
    default0 = cvcuda.Stream.default
    with torch.cuda.device(1):
        default1 = cvcuda.Stream.default
        assert cvcuda.Stream.current is default1
        # Without a stream, an operator on a cuda:1 tensor runs on device 1's default stream.
        src = random_image(torch, "cuda:1", 4)
        torch.cuda.synchronize(1)
        out = cvcuda.flip(cvcuda.as_tensor(src, "HWC"), 0)
        default1.sync()
        assert torch.equal(torch.as_tensor(out.cuda(), device="cuda:1"), torch.flip(src, [0]))
    assert default0 is not default1
    assert (default0.device, default1.device) == (0, 1)
    assert default0.handle == default1.handle == 0
    assert cvcuda.Stream.default is default0


def test_flips_on_both_gpus_at_once_from_two_threads(two_gpus):
    torch = two_gpus
    errors = []

    def work(device):
        try:
            torch.cuda.set_device(1 - device)  # the other device current: operators follow their stream
            stream = cvcuda.Stream(device=device)
            for i in range(30):
                src = random_image(torch, f"cuda:{device}", 100 * device + i)
                torch.cuda.synchronize(device)
                code = i % 3 - 1
                out = cvcuda.flip(cvcuda.as_tensor(src, "HWC"), code, stream=stream)
                stream.sync()
                if not torch.equal(torch.as_tensor(out.cuda(), device=f"cuda:{device}"), torch.flip(src, FLIP_DIMS[code])):
                    errors.append(f"device {device}, image {i}, flipCode {code}: wrong result")
                if torch.cuda.current_device() != 1 - device:
                    errors.append(f"device {device}: the current device changed")
        except Exception as exc:  # reported by the main thread
            errors.append(f"device {device}: {exc!r}")

    threads = [threading.Thread(target=work, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_no_call_changes_the_current_device_with_another_device_current(two_gpus):
    torch = two_gpus
    torch.cuda.set_device(0)
    src = random_image(torch, "cuda:1", 5)
    wrapped = cvcuda.as_tensor(src, "HWC")
    stream = cvcuda.Stream(device=1)
    calls = [
        ("Stream(device=1)", lambda: cvcuda.Stream(device=1)),
        ("flip", lambda: cvcuda.flip(wrapped, 1, stream=stream)),
        ("flip with the wrong stream", lambda: cvcuda.flip(wrapped, 1)),
        ("Stream(device=count)", lambda: cvcuda.Stream(device=torch.cuda.device_count())),
        ("Tensor.cuda", lambda: wrapped.cuda()),
        ("__dlpack__", lambda: wrapped.__dlpack__(stream=torch.cuda.current_stream(1).cuda_stream, max_version=(1, 0))),
        ("__dlpack__(None)", lambda: wrapped.__dlpack__(max_version=(1, 0))),
        ("from_dlpack", lambda: cvcuda.from_dlpack(src, "HWC")),
        ("Tensor.device", lambda: wrapped.device),
        ("sync", lambda: stream.sync()),
    ]
    for name, call in calls:
        try:
            call()
        except (cvcuda.Error, ValueError):
            pass
        assert torch.cuda.current_device() == 0, name
