"""Without a device every call that needs one raises NoDeviceError carrying the C message, and nothing crashes.

Runs in a child interpreter with CUDA_VISIBLE_DEVICES='' so that it tests the same path on a GPU machine."""

import os
import subprocess
import sys

import pytest

# One row per call: (name, Python expression run in the child, C function its message must name).
CALLS = [
    ("Stream()", "cvcuda.Stream()", "cvStreamCreate"),
    ("Stream(device=0)", "cvcuda.Stream(device=0)", "cvStreamCreateOnDevice"),
    ("Stream(device='cuda:1')", "cvcuda.Stream(device='cuda:1')", "cvStreamCreateOnDevice"),
    ("Stream.default", "cvcuda.Stream.default", "cvStreamWrapDefault"),
    ("Stream.current", "cvcuda.Stream.current", "cvStreamWrapDefault"),
    ("as_stream(int)", "cvcuda.as_stream(12345)", "cvStreamWrap"),
    ("Tensor()", "cvcuda.Tensor((2, 3), 'uint8', 'HW')", "cvTensorCreate"),
    ("Tensor.device", "wrapped.device", "cvTensorGetDevice"),
    ("flip(default stream)", "cvcuda.flip(wrapped, 1)", "cvStreamWrapDefault"),
]

CHILD = """
import cvcuda
class Obj:
    __cuda_array_interface__ = {{'shape': (2, 3), 'typestr': '|u1', 'data': (1 << 40, False), 'version': 3,
                                 'stream': None}}
wrapped = cvcuda.as_tensor(Obj(), 'HW')
try:
    {expression}
except cvcuda.NoDeviceError as exc:
    assert isinstance(exc, cvcuda.Error) and isinstance(exc, RuntimeError)
    assert exc.status_name == 'CV_ERROR_NO_DEVICE', exc.status_name
    print(exc)
else:
    raise SystemExit('no exception')
"""


@pytest.mark.parametrize("name,expression,function", CALLS, ids=[row[0] for row in CALLS])
def test_call_without_device_raises_no_device_error(name, expression, function):
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
    result = subprocess.run([sys.executable, "-c", CHILD.format(expression=expression)], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    message = result.stdout.strip()
    assert message.startswith(function + ":"), message
    assert "device" in message
    assert result.stderr == ""
