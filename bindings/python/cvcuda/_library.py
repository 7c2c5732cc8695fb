"""Loading libcvcuda_c and choosing the cffi mode (the one place that does), and the process-wide functions of the C
library (statistics, collection).

Where the library comes from, first match wins:
1. the environment variable ``CVCUDA_C_LIBRARY`` (a path to ``libcvcuda_c.so*``), e.g. a build tree;
2. ``libcvcuda_c.so.1`` next to this package (the wheel built by ``pip install .``);
3. ``libcvcuda_c.so.1`` through the system loader (``LD_LIBRARY_PATH``, ``ldconfig``).

How Python calls it (:data:`ffi_mode`), chosen once here for every module (``cvcuda._ffi`` re-exports this ``ffi``;
cdata of two FFI instances do not mix):

- ``"api"``: the compiled cffi API-mode module ``cvcuda._capi`` (``_capi`` + one of this Python's extension suffixes,
  e.g. ``_capi.cpython-311-x86_64-linux-gnu.so``), used when it lies in the SAME DIRECTORY as the library path
  chosen above (the path as given, not resolved through symlinks). The installed package has that layout
  (``cvcuda/libcvcuda_c.so.1`` beside ``cvcuda/_capi.*.so``) and so has a Meson build tree (Meson builds the
  extension in ``build/bindings/python/`` and copies it next to ``build/libcvcuda_c.so.1``; meson option
  ``python_capi``). The library file is loaded by its path first, so the extension's DT_NEEDED
  ``libcvcuda_c.so.1`` resolves to that file (the loader matches sonames of loaded objects), never to another copy;
  that is checked. Its calls skip libffi: about half the host time of a C call in ABI mode.
- ``"abi"``: the committed out-of-line ABI-mode module ``cvcuda._ffi_abi`` (``ffi.dlopen``, calls through libffi;
  needs no compiler): without the extension beside the library (or with the system loader, case 3), silently.

In API mode, ``cvcuda._streambase`` (``bindings/python/_streambase.c``: Stream's base class in C, see
``cvcuda/_stream.py``) is loaded from the same directory when it is there (Meson builds it with ``_capi``); without
it, and in ABI mode, Stream's base is Python's (:data:`stream_base` is None).

The environment variable ``CVCUDA_C_FFI`` overrides the choice: ``abi`` forces ABI mode, ``api`` requires the
extension (ImportError naming the files looked for when absent); unset, empty or ``auto``: as above.
An extension that is found but fails to load raises ImportError (``CVCUDA_C_FFI=abi`` ignores it).
Both modes check the library's major version against the headers the bindings were generated from.
Loading does no CUDA work and starts no thread (safe before ``fork``); the first call that needs a device does.
"""

import ctypes
import importlib.machinery
import importlib.util
import os
import sys
from typing import Dict, List, Optional, Tuple

_SONAME = "libcvcuda_c.so.1"
_EXTENSION = "_capi"
_STREAM_BASE = "_streambase"
_MODE_VARIABLE = "CVCUDA_C_FFI"
_MODES = ("abi", "api", "auto")


def _library_path() -> str:
    explicit = os.environ.get("CVCUDA_C_LIBRARY")
    if explicit:
        return explicit
    bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), _SONAME)
    return bundled if os.path.exists(bundled) else _SONAME


def find_extension(library_path: str, name: str = _EXTENSION) -> Tuple[Optional[str], List[str]]:
    """(the extension module `name` beside `library_path` or None, the paths looked at). A bare soname (the system
    loader) has no directory: nothing is looked at."""
    if os.sep not in library_path:
        return None, []
    folder = os.path.dirname(os.path.abspath(library_path))
    looked = [os.path.join(folder, name + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    for path in looked:
        if os.path.isfile(path):
            return path, looked
    return None, looked


def _requested_mode() -> str:
    mode = os.environ.get(_MODE_VARIABLE, "")
    if mode == "":
        return "auto"
    if mode not in _MODES:
        raise ImportError(
            f"cvcuda: {_MODE_VARIABLE}={mode!r} is not a cffi mode: expected one of "
            f"{', '.join(repr(m) for m in _MODES)} (or unset)"
        )
    return mode


def _load_abi(path: str):
    from ._ffi_abi import ffi

    try:
        return ffi, ffi.dlopen(path)
    except OSError as exc:
        raise _cannot_load(path, exc) from exc


def _cannot_load(path: str, exc: BaseException) -> ImportError:
    return ImportError(
        f"cvcuda: cannot load the C library {path!r} ({exc}); set CVCUDA_C_LIBRARY to the path of "
        f"libcvcuda_c.so.1 or install the package with pip"
    )


def _load_api(path: str, extension: str):
    # The library by its path first, so that the extension's DT_NEEDED libcvcuda_c.so.1 matches this loaded object
    # (the loader compares the sonames of loaded objects) and its RUNPATH is never searched. The soname is looked up
    # without loading (RTLD_NOLOAD) to check that it names this very file: a file of another soname, or another copy
    # loaded earlier under this one, would bind the extension to a second library. ctypes keeps the handles open.
    try:
        library = ctypes.CDLL(path)
    except OSError as exc:
        raise _cannot_load(path, exc) from exc
    try:
        by_soname = ctypes.CDLL(_SONAME, mode=os.RTLD_NOLOAD | os.RTLD_NOW)
        same = ctypes.cast(by_soname.cvGetVersion, ctypes.c_void_p).value == \
            ctypes.cast(library.cvGetVersion, ctypes.c_void_p).value
    except (OSError, AttributeError):
        same = False
    if not same:
        raise ImportError(
            f"cvcuda: the cffi API-mode module {extension!r} would not call {path!r}: the loaded object of soname "
            f"{_SONAME} is another file (or none); {_MODE_VARIABLE}=abi uses {path!r} alone"
        )
    module = _import_beside(path, _EXTENSION, extension)
    return module.ffi, module.lib


def _import_beside(path: str, name: str, extension: str):
    """Imports the extension module file `extension` as cvcuda.`name` (it lies beside the library `path`)."""
    qualified = f"{__package__}.{name}"
    try:
        spec = importlib.util.spec_from_file_location(qualified, extension)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError as exc:
        raise ImportError(
            f"cvcuda: the API-mode module {extension!r} beside {path!r} does not load ({exc}); "
            f"{_MODE_VARIABLE}=abi ignores it"
        ) from exc
    sys.modules[qualified] = module
    return module


def _load_stream_base(mode: str, path: str):
    """cvcuda._streambase (Stream's base class in C, bindings/python/_streambase.c) when API mode is used and it lies
    beside the library (Meson builds it with cvcuda._capi), else None: Stream's base is then Python's."""
    if mode != "api":
        return None
    extension, _ = find_extension(path, _STREAM_BASE)
    return None if extension is None else _import_beside(path, _STREAM_BASE, extension)


def _load():
    mode = _requested_mode()
    path = _library_path()
    extension, looked = (None, []) if mode == "abi" else find_extension(path)
    if mode == "api" and extension is None:
        try:  # a library that does not load is the first thing to report
            ctypes.CDLL(path)
        except OSError as exc:
            raise _cannot_load(path, exc) from exc
        where = " or ".join(looked) if looked else f"nowhere: {path!r} is found by the system loader, not by a path"
        raise ImportError(
            f"cvcuda: {_MODE_VARIABLE}=api needs the cffi API-mode module {__package__}.{_EXTENSION} beside the "
            f"library; looked for {where} (build it with meson option python_capi, or unset {_MODE_VARIABLE})"
        )
    if extension is None:
        ffi, library = _load_abi(path)
    else:
        ffi, library = _load_api(path, extension)
    loaded = library.cvGetVersion()
    if loaded // 10000 != library.CVCUDA_C_VERSION_MAJOR:
        raise ImportError(
            f"cvcuda: {path!r} is version {loaded} but these bindings were generated from headers of version "
            f"{library.CVCUDA_C_VERSION_NUMBER}: the major versions differ"
        )
    return ("abi" if extension is None else "api"), path, extension, ffi, library


#: ``"api"`` (the compiled module ``cvcuda._capi``) or ``"abi"`` (``cvcuda._ffi_abi`` through libffi).
ffi_mode: str
#: The library path loaded (as given: CVCUDA_C_LIBRARY, the bundled copy, or the bare soname for the system loader).
library_path: str
#: The API-mode extension file loaded, None in ABI mode.
extension_path: Optional[str]
ffi_mode, library_path, extension_path, ffi, lib = _load()
#: cvcuda._streambase, Stream's base class in C (API mode, where built), else None.
stream_base = _load_stream_base(ffi_mode, library_path)

#: Version of the loaded C library, ``MAJOR*10000 + MINOR*100 + PATCH``.
__c_version__: int = lib.cvGetVersion()

_STAT_NAMES = ("deviceSyncs", "eventRecords", "eventWaits", "kernelLaunches", "liveTensors", "liveStreams")


def stats() -> Dict[str, int]:
    """Process-wide counters of the C library (all threads), as a dict with the C names.

    ``deviceSyncs``: defensive ``cudaDeviceSynchronize`` calls (one per wrapper whose producer stream is unknown, e.g.
    every PyTorch tensor, at its first use); ``eventRecords`` / ``eventWaits``: ``cudaEventRecord`` /
    ``cudaStreamWaitEvent`` calls made for cross-stream ordering; ``kernelLaunches``: operator kernels launched;
    ``liveTensors`` / ``liveStreams``: tensors and streams alive now, held by a handle (a Python object) or by
    tracked GPU work; the library's own per-device streams and its pool of released streams are not counted, the up
    to 2 released streams the package keeps for the next :class:`Stream` are until :func:`sync_and_collect`
    releases them (docs/streams.md), so both are 0 after :func:`sync_and_collect` once every object is gone.
    Needs no GPU; never blocks. Raises :class:`InternalError` only on a library bug.
    """
    out = ffi.new("cvStats *")
    out.structSize = ffi.sizeof("cvStats")
    status = lib.cvGetStats(out)
    if status:
        raise _error(status)
    return {name: getattr(out, name) for name in _STAT_NAMES}


def reset_stats() -> None:
    """Sets ``deviceSyncs``, ``eventRecords``, ``eventWaits`` and ``kernelLaunches`` to 0 (live counts are kept)."""
    lib.cvResetStats()


def sync_and_collect() -> None:
    """BLOCKS until all GPU work the library tracks has completed, then releases everything waiting on it (memory the
    library allocated, and the Python objects that :func:`cvcuda.as_tensor` keeps alive). Releases the GIL while it
    waits. Also releases the streams kept for the next :class:`Stream` to the library's pool. Without a device it
    does nothing else. Raises :class:`CudaError` if an earlier asynchronous failure surfaces."""
    from ._stream import release_kept  # not at the top: see _error

    release_kept()
    status = lib.cvSyncAndCollect()
    if status:
        raise _error(status)


def _error(status: int) -> Exception:
    # Imported here: cvcuda._errors imports cvcuda._ffi, which imports this module, so this module imports no other
    # module of the package at its top.
    from ._errors import error_from_status

    return error_from_status(lib, status)
