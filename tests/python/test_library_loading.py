"""Importing cvcuda: which library it loads, and that the import does no CUDA work (safe before fork). Each case runs
in a fresh interpreter, so the test process's own state cannot hide a CUDA initialisation."""

import os
import subprocess
import sys

import pytest

LIBRARY = os.environ.get("CVCUDA_C_LIBRARY", "")


def run_python(code: str, **env_changes) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    for key, value in env_changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_import_does_no_cuda_work():
    # The CUDA driver (libcuda) is loaded by the runtime's first call, and it starts threads: neither may happen.
    # numpy is imported first: its BLAS starts a thread pool of its own.
    result = run_python(
        "import os, numpy\n"
        "before = set(os.listdir('/proc/self/task'))\n"
        "import cvcuda\n"
        "maps = open('/proc/self/maps').read()\n"
        "assert 'libcuda.so' not in maps, 'import loaded the CUDA driver'\n"
        "started = set(os.listdir('/proc/self/task')) - before\n"
        "assert not started, f'import started threads: {started}'\n"
        "assert cvcuda.stats()['liveStreams'] == 0\n"
        "print('ok')\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
    assert result.stderr == ""


def test_bad_library_path_is_a_clear_import_error():
    result = run_python("import cvcuda", CVCUDA_C_LIBRARY="/nonexistent/libcvcuda_c.so.1")
    assert result.returncode != 0
    assert "ImportError" in result.stderr
    assert "CVCUDA_C_LIBRARY" in result.stderr


@pytest.mark.skipif(not LIBRARY, reason="CVCUDA_C_LIBRARY is not set (the meson test sets it)")
def test_system_loader_is_the_last_resort():
    # CVCUDA_C_FFI unset: the system loader gives no directory to find the API-mode module in, so an inherited
    # CVCUDA_C_FFI=api (scripts/sanitizers.sh) would fail the import (tests/python/test_ffi_mode.py covers that).
    result = run_python("import cvcuda; print(cvcuda.__c_version__)", CVCUDA_C_LIBRARY=None, CVCUDA_C_FFI=None,
                        LD_LIBRARY_PATH=os.path.dirname(os.path.abspath(LIBRARY)))
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 0
