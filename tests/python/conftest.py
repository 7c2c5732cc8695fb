"""Shared fixtures of the pytest suite.

GPU gating: tests that take the `gpu`, `torch` or `cupy` fixture are marked `gpu`. Without a usable GPU (or without
torch / CuPy) they SKIP with the reason; with CVCUDA_REQUIRE_GPU=1 (scripts/gpu-check.sh) they FAIL instead, so that
a GPU run cannot pass by skipping. Tests that take `two_gpus` (torch and at least two CUDA devices) skip with the
count on a one-GPU machine, even with CVCUDA_REQUIRE_GPU=1, and fail instead with CVCUDA_REQUIRE_MULTI_GPU=1.
"""

import os
import sys

import pytest
from hypothesis import settings

import cvcuda

# No example database: the suite runs from a build directory and must not write into the source tree.
settings.register_profile("cvcuda", database=None, deadline=None, max_examples=300)
settings.load_profile("cvcuda")

GPU_FIXTURES = ("gpu", "torch", "cupy", "two_gpus")


def pytest_addoption(parser):
    parser.addoption(
        "--sample-every",
        type=int,
        default=1,
        metavar="N",
        help="keep the first of every N cases of each test function (its table rows in collection order), so that a "
        "slow run (compute-sanitizer, scripts/gpu-check.sh) still reaches every test function; 1 (default): all cases",
    )


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA GPU (skips without one; fails with CVCUDA_REQUIRE_GPU=1)")


def sampled(items, every):
    """(kept, deselected): per test function (its node id without the parameters), cases 0, N, 2N, ... kept."""
    if every < 1:
        raise pytest.UsageError(f"--sample-every must be >= 1, got {every}")
    seen = {}
    kept, dropped = [], []
    for item in items:
        key = item.nodeid.split("[")[0]
        index = seen.get(key, 0)
        seen[key] = index + 1
        (kept if index % every == 0 else dropped).append(item)
    return kept, dropped


def pytest_collection_modifyitems(config, items):
    for item in items:
        if any(name in item.fixturenames for name in GPU_FIXTURES):
            item.add_marker(pytest.mark.gpu)
    every = config.getoption("--sample-every")
    if every != 1:
        kept, dropped = sampled(items, every)
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def unavailable(reason: str) -> None:
    """Skips the test, or fails it when the run requires a GPU."""
    if os.environ.get("CVCUDA_REQUIRE_GPU") == "1":
        pytest.fail(f"CVCUDA_REQUIRE_GPU=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def gpu_problem():
    """None when cvcuda can use a GPU, else why not (the C library's message)."""
    try:
        cvcuda.Stream()
    except cvcuda.NoDeviceError as exc:
        return f"no usable GPU: {exc}"
    return None


def _device_idle() -> None:
    """Waits for every stream of the device, through whichever library that can has been loaded already. Every GPU
    test starts so: a spin kernel an earlier test left running (a negative control's) would still hold the GPU's
    attention and delay this test's work behind it, which can hide the race a later negative control forces."""
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        torch.cuda.synchronize()
    cupy = sys.modules.get("cupy")
    if cupy is not None:
        cupy.cuda.Device().synchronize()
    cvcuda.sync_and_collect()


@pytest.fixture
def gpu(gpu_problem):
    if gpu_problem:
        unavailable(gpu_problem)
    _device_idle()


@pytest.fixture
def torch(gpu):
    try:
        import torch
    except ImportError:
        unavailable("torch is not installed")
    if not torch.cuda.is_available():
        unavailable("torch sees no CUDA device")
    return torch


@pytest.fixture
def tvf(torch):
    """torchvision.transforms.v2.functional, where torchvision is installed."""
    try:
        from torchvision.transforms.v2 import functional
    except ImportError:
        unavailable("torchvision is not installed")
    return functional


@pytest.fixture
def cupy(gpu):
    try:
        import cupy
    except ImportError:
        unavailable("cupy is not installed")
    return cupy


@pytest.fixture
def two_gpus(torch):
    """torch, on a machine where it sees at least two CUDA devices."""
    count = torch.cuda.device_count()
    if count < 2:
        reason = f"needs 2 CUDA devices; this machine has {count}"
        if os.environ.get("CVCUDA_REQUIRE_MULTI_GPU") == "1":
            pytest.fail(f"CVCUDA_REQUIRE_MULTI_GPU=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    return torch
