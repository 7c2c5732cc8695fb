"""The API-mode module's C source (gen_ffi.py --api-output) keeps the GIL through the calls of gen_ffi.GIL_KEPT and
releases it around every other call, as cffi writes it; a wrapper not in the form cffi writes fails the generation."""

import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GENERATOR = os.path.join(ROOT, "bindings", "python", "gen_ffi.py")
sys.path.insert(0, os.path.dirname(GENERATOR))
import gen_ffi  # noqa: E402

BEGIN, END = "Py_BEGIN_ALLOW_THREADS", "Py_END_ALLOW_THREADS"
_WRAPPER = re.compile(r"\n_cffi_f_(\w+)\(PyObject \*self, .*?\n}\n", re.DOTALL)


@pytest.fixture(scope="module")
def wrappers(tmp_path_factory):
    """C function name -> its CPython wrapper in the generated source, through the script as Meson runs it."""
    cc = os.environ.get("CC", "cc")
    if shutil.which(cc.split()[0]) is None:
        pytest.skip(f"no C preprocessor ({cc}) to generate the API module's source")
    out = tmp_path_factory.mktemp("capi") / "_capi.c"
    subprocess.run([sys.executable, GENERATOR, "--api-output", str(out)], check=True, capture_output=True)
    found = {m.group(1): m.group(0) for m in _WRAPPER.finditer(out.read_text())}
    assert len(found) > 50, "the pattern no longer finds cffi's wrappers"
    return found


def test_only_the_peek_keeps_the_gil():
    # The list itself: a call that may ask CUDA (cvStreamQueryReusable, cvStreamQuery) or wait must never be on it.
    assert gen_ffi.GIL_KEPT == ("cvStreamPeekReusable",)


@pytest.mark.parametrize("name", gen_ffi.GIL_KEPT)
def test_listed_call_keeps_the_gil(wrappers, name):
    body = wrappers[name]
    assert BEGIN not in body and END not in body
    assert f"{name}(x0)" in body  # the call itself is still there


def test_every_other_call_releases_the_gil(wrappers):
    releasing = {name for name, body in wrappers.items() if body.count(BEGIN) == 1 and body.count(END) == 1}
    assert releasing == set(wrappers) - set(gen_ffi.GIL_KEPT)
    # the blocking calls above all: a GIL held through them would stall every Python thread
    assert {"cvStreamSync", "cvSyncAndCollect", "cvFlip"} <= releasing
    # and the calls that may ask CUDA about a stream: holding the GIL through a CUDA call can deadlock (docs/threading.md)
    assert {"cvStreamQueryReusable", "cvStreamQuery"} <= releasing


SAMPLE = (
    "\nstatic PyObject *\n_cffi_f_cvA(PyObject *self, PyObject *arg0)\n{\n"
    "  Py_BEGIN_ALLOW_THREADS\n  { result = cvA(x0); }\n  Py_END_ALLOW_THREADS\n  return pyresult;\n}\n"
)


@pytest.mark.parametrize(
    "source, name, message",
    [
        (SAMPLE, "cvB", "cvB"),  # no such wrapper
        (SAMPLE.replace("  Py_END_ALLOW_THREADS\n", ""), "cvA", "cvA"),  # a release without its retake
        (SAMPLE.replace("  Py_BEGIN_ALLOW_THREADS\n", "  Py_BEGIN_ALLOW_THREADS\n" * 2), "cvA", "cvA"),  # two
    ],
)
def test_unexpected_wrapper_fails_the_generation(source, name, message):
    with pytest.raises(RuntimeError, match=message):
        gen_ffi.keep_gil(source, (name,))


def test_rewrite_touches_only_the_named_wrapper():
    other = SAMPLE.replace("cvA", "cvC")
    out = gen_ffi.keep_gil(SAMPLE + other, ("cvA",))
    assert out == SAMPLE.replace("  Py_BEGIN_ALLOW_THREADS\n", "").replace("  Py_END_ALLOW_THREADS\n", "") + other
