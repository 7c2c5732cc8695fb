"""Loading libcvcuda_c, and the process-wide functions of the C library (statistics, collection).

Where the library comes from, first match wins:
1. the environment variable ``CVCUDA_C_LIBRARY`` (a path to ``libcvcuda_c.so*``), e.g. a build tree;
2. ``libcvcuda_c.so.1`` next to this package (the wheel built by ``pip install .``);
3. ``libcvcuda_c.so.1`` through the system loader (``LD_LIBRARY_PATH``, ``ldconfig``).
Loading does no CUDA work and starts no thread (safe before ``fork``); the first call that needs a device does.
"""

import os
from typing import Dict

from ._errors import error_from_status
from ._ffi import ffi

_SONAME = "libcvcuda_c.so.1"


def _load():
    explicit = os.environ.get("CVCUDA_C_LIBRARY")
    if explicit:
        candidates = [explicit]
    else:
        bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), _SONAME)
        candidates = [bundled] if os.path.exists(bundled) else [_SONAME]
    try:
        library = ffi.dlopen(candidates[0])
    except OSError as exc:
        raise ImportError(
            f"cvcuda: cannot load the C library {candidates[0]!r} ({exc}); set CVCUDA_C_LIBRARY to the path of "
            f"libcvcuda_c.so.1 or install the package with pip"
        ) from exc
    loaded = library.cvGetVersion()
    if loaded // 10000 != library.CVCUDA_C_VERSION_MAJOR:
        raise ImportError(
            f"cvcuda: {candidates[0]!r} is version {loaded} but these bindings were generated from headers of version "
            f"{library.CVCUDA_C_VERSION_NUMBER}: the major versions differ"
        )
    return library


lib = _load()

#: Version of the loaded C library, ``MAJOR*10000 + MINOR*100 + PATCH``.
__c_version__: int = lib.cvGetVersion()

_STAT_NAMES = ("deviceSyncs", "eventRecords", "eventWaits", "kernelLaunches", "liveTensors", "liveStreams")


def stats() -> Dict[str, int]:
    """Process-wide counters of the C library (all threads), as a dict with the C names.

    ``deviceSyncs``: defensive ``cudaDeviceSynchronize`` calls (one per wrapper whose producer stream is unknown, e.g.
    every PyTorch tensor, at its first use); ``eventRecords`` / ``eventWaits``: ``cudaEventRecord`` /
    ``cudaStreamWaitEvent`` calls made for cross-stream ordering; ``kernelLaunches``: operator kernels launched;
    ``liveTensors`` / ``liveStreams``: tensors and streams alive now, held by a handle (a Python object) or by
    tracked GPU work; the library's own per-device streams and its pool of released streams are not counted
    (so both are 0 after :func:`sync_and_collect` once every object is gone).
    Needs no GPU; never blocks. Raises :class:`InternalError` only on a library bug.
    """
    out = ffi.new("cvStats *")
    out.structSize = ffi.sizeof("cvStats")
    status = lib.cvGetStats(out)
    if status:
        raise error_from_status(lib, status)
    return {name: getattr(out, name) for name in _STAT_NAMES}


def reset_stats() -> None:
    """Sets ``deviceSyncs``, ``eventRecords``, ``eventWaits`` and ``kernelLaunches`` to 0 (live counts are kept)."""
    lib.cvResetStats()


def sync_and_collect() -> None:
    """BLOCKS until all GPU work the library tracks has completed, then releases everything waiting on it (memory the
    library allocated, and the Python objects that :func:`cvcuda.as_tensor` keeps alive). Releases the GIL while it
    waits. Without a device it does nothing. Raises :class:`CudaError` if an earlier asynchronous failure surfaces."""
    status = lib.cvSyncAndCollect()
    if status:
        raise error_from_status(lib, status)
