"""The committed cffi ABI-mode module (bindings/python/cvcuda/_ffi_abi.py) must be what gen_ffi.py makes of the current
headers. (The compiled API-mode module is generated at build time from the same cdef text: tests/python/test_ffi_mode.py
compares the two.)"""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GENERATOR = os.path.join(ROOT, "bindings", "python", "gen_ffi.py")
COMMITTED = os.path.join(ROOT, "bindings", "python", "cvcuda", "_ffi_abi.py")


def _declarations(text: str) -> str:
    # The cffi version stamp is not a declaration: a newer cffi must not make the check fail.
    return re.sub(r"_version = 0x[0-9a-fA-F]+", "_version = <cffi>", text)


def test_generated_module_matches_headers(tmp_path):
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc.split()[0]) is None:
        pytest.skip(f"no C preprocessor ({cc}) to regenerate the cffi module")
    out = tmp_path / "_ffi_abi.py"
    subprocess.run([sys.executable, GENERATOR, "--output", str(out)], check=True, capture_output=True)
    with open(COMMITTED) as f:
        committed = f.read()
    assert _declarations(out.read_text()) == _declarations(committed), (
        "bindings/python/cvcuda/_ffi_abi.py is stale: run `python bindings/python/gen_ffi.py` and commit the result"
    )


def test_header_constants_reach_python():
    # Through the FFI the package selected (API or ABI mode) and through the committed module itself.
    import cvcuda._ffi as selected
    import cvcuda._ffi_abi as generated
    from cvcuda._library import lib

    with open(os.path.join(ROOT, "include", "cvcuda", "types.h")) as f:
        max_dims = int(re.search(r"#define CV_MAX_DIMS (\d+)", f.read()).group(1))
    assert lib.CV_MAX_DIMS == max_dims
    assert generated.ffi.integer_const("CVCUDA_C_VERSION_NUMBER") == lib.cvGetVersion()
    assert selected.ffi.integer_const("CVCUDA_C_VERSION_NUMBER") == lib.cvGetVersion()
