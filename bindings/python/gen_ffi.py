"""Generates the cffi modules of the public C header: cvcuda/_ffi_abi.py (out-of-line ABI mode, committed) and the C
source of cvcuda._capi (out-of-line API mode, a build output compiled by Meson).

Both come from one cdef text (cdef_text): the C preprocessor's output of include/cvcuda/cvcuda.h (comments and include
guards gone, CV_API empty), so Python and C cannot drift; tests/python/test_ffi_drift.py regenerates the ABI module and
compares, tests/python/test_ffi_mode.py compares the compiled API module's declarations with it.
Integer macros (CV_MAX_DIMS, CVCUDA_C_VERSION_*) are evaluated by the same preprocessor and added as cffi "#define"s, so
they reach Python as lib.CV_MAX_DIMS and ffi-level constants without being copied by hand (in API mode the C compiler
also checks each value against the header's macro).

Usage: python gen_ffi.py [--include DIR] [--output FILE] [--cc CC]            the ABI module (default: the committed one)
       python gen_ffi.py [--include DIR] --api-output FILE.c [--depfile FILE] [--cc CC]   the API module's C source
The API module's wrappers release the GIL around each call, as cffi writes them, except those of GIL_KEPT (keep_gil).
Needs a C compiler driver for its preprocessor (cc -E); cffi and pycparser. The ABI module is committed: users and the
GPU machine need neither a compiler nor this script for it; the API module is optional (meson option python_capi).
"""

import argparse
import ast
import os
import re
import shlex
import subprocess
import sys
import tempfile

import cffi

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INCLUDE = os.path.join(HERE, "..", "..", "include")
DEFAULT_OUTPUT = os.path.join(HERE, "cvcuda", "_ffi_abi.py")
MODULE = "cvcuda._ffi_abi"
API_MODULE = "cvcuda._capi"
# The API module's C source includes the real header, so the C compiler checks every declaration of the cdef against
# it (struct layouts, enum and macro values, function types).
API_SOURCE = '#include "cvcuda/cvcuda.h"'


# C functions whose API-mode wrapper keeps the GIL through the call, where cffi releases it around every call. Each one
# makes no CUDA call, takes none of the library's locks, never waits and never calls back into Python (its header
# says so), so holding the GIL cannot stall or deadlock another thread: a CUDA call made with the GIL held could
# deadlock against a stream callback that waits for the GIL while the driver holds its lock, which is why
# cvStreamQueryReusable, which may ask CUDA, is not here. What it saves is the GIL's release and retake, about 35 ns
# of Stream()'s kept path (bench/cffi_modes.py).
GIL_KEPT = ("cvStreamPeekReusable",)
_ALLOW_THREADS = ("  Py_BEGIN_ALLOW_THREADS\n", "  Py_END_ALLOW_THREADS\n")


def keep_gil(source, names=GIL_KEPT):
    """`source` (cffi's API-mode C code) with the GIL release removed from the CPython wrapper of each of `names`.
    Raises RuntimeError when a wrapper or its release is not where cffi writes it, so that a cffi version that
    writes them differently fails the build instead of leaving the GIL released unnoticed."""
    for name in names:
        head = f"\n_cffi_f_{name}(PyObject *self, "
        start = source.find(head)
        end = source.find("\n}\n", start)
        body = source[start:end]
        if start < 0 or any(body.count(line) != 1 for line in _ALLOW_THREADS):
            raise RuntimeError(f"gen_ffi: cffi's wrapper of {name} is not in the expected form (one "
                               f"Py_BEGIN_ALLOW_THREADS and one Py_END_ALLOW_THREADS); cannot keep the GIL")
        for line in _ALLOW_THREADS:
            body = body.replace(line, "")
        source = source[:start] + body + source[end:]
    return source


# An object-like macro whose body may be an integer expression (function-like macros and initialisers are skipped).
_DEFINE = re.compile(r"^\s*#\s*define\s+((?:CV|CVCUDA_C)_[A-Z0-9_]+)\s+(.+?)\s*$", re.MULTILINE)
_INTEGER_EXPRESSION = re.compile(r"^[0-9xXa-fA-F\s()+\-*/<>|&~uUlL]+$")


def _preprocess(cc, include_dir, source):
    """Runs `cc -E` on `source` (C text) with the public headers on the include path.

    <stdint.h> and <stddef.h> (included by DLPack's dlpack.h) are replaced by empty files: cffi knows the
    fixed-width integer types and size_t itself, and the system headers hold compiler extensions cffi cannot parse."""
    with tempfile.TemporaryDirectory() as tmp:
        for stub in ("stdint.h", "stddef.h"):
            open(os.path.join(tmp, stub), "w").close()
        path = os.path.join(tmp, "probe.c")
        with open(path, "w") as f:
            f.write(source)
        cmd = shlex.split(cc) + ["-E", "-P", "-nostdinc", "-I", tmp, "-I", include_dir, "-x", "c", path]
        return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


def _integer_macros(cc, include_dir):
    """{name: value} for every CV_ and CVCUDA_C_ macro in the public headers whose expansion is a constant integer expression."""
    names = []
    hdr_dir = os.path.join(include_dir, "cvcuda")
    for name in sorted(os.listdir(hdr_dir)):
        if name.endswith(".h"):
            with open(os.path.join(hdr_dir, name)) as f:
                names += [m.group(1) for m in _DEFINE.finditer(f.read()) if "(" not in m.group(1)]
    names = sorted(set(names))
    probe = '#include "cvcuda/cvcuda.h"\n' + "".join(f'"{n}" {n}\n' for n in names)
    values = {}
    for line in _preprocess(cc, include_dir, probe).splitlines():
        m = re.match(r'^"(\w+)" (.*)$', line)
        if m and _INTEGER_EXPRESSION.match(m.group(2)):
            expr = re.sub(r"(?<=[0-9a-fA-F])[uUlL]+\b", "", m.group(2))
            values[m.group(1)] = _evaluate(ast.parse(expr, mode="eval").body)
    return values


def _evaluate(node):
    """Integer arithmetic only (no eval of arbitrary text)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd, ast.Invert)):
        v = _evaluate(node.operand)
        return -v if isinstance(node.op, ast.USub) else (~v if isinstance(node.op, ast.Invert) else v)
    ops = {ast.Add: int.__add__, ast.Sub: int.__sub__, ast.Mult: int.__mul__, ast.FloorDiv: int.__floordiv__,
           ast.Div: int.__floordiv__, ast.LShift: int.__lshift__, ast.RShift: int.__rshift__,
           ast.BitOr: int.__or__, ast.BitAnd: int.__and__}
    if isinstance(node, ast.BinOp) and type(node.op) in ops:
        return ops[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    raise ValueError(f"not an integer constant expression: {ast.dump(node)}")


def cdef_text(cc="cc", include_dir=DEFAULT_INCLUDE):
    """The cdef of both modules: every declaration of cvcuda/cvcuda.h, then its integer macros as cffi #defines."""
    include_dir = os.path.abspath(include_dir)
    declarations = _preprocess(cc, include_dir, '#include "cvcuda/cvcuda.h"\n')
    macros = _integer_macros(cc, include_dir)
    return declarations + "".join(f"#define {name} {value}\n" for name, value in sorted(macros.items()))


def build_ffi(cc="cc", include_dir=DEFAULT_INCLUDE, api=False):
    """The cffi.FFI of cdef_text: the ABI module cvcuda._ffi_abi, or with api=True the API module cvcuda._capi."""
    ffi = cffi.FFI()
    ffi.cdef(cdef_text(cc, include_dir))
    if api:
        ffi.set_source(API_MODULE, API_SOURCE)
    else:
        ffi.set_source(MODULE, None)
    return ffi


def _write_depfile(path, target, include_dir):
    """A Makefile rule naming every public header and this script, so that Ninja regenerates the C source when one
    changes (Meson cannot glob include/ itself)."""
    inputs = [os.path.abspath(__file__)]
    for sub in ("cvcuda", "dlpack"):
        folder = os.path.join(os.path.abspath(include_dir), sub)
        inputs += [os.path.join(folder, n) for n in sorted(os.listdir(folder)) if n.endswith(".h")]
    with open(path, "w") as f:
        f.write(target.replace(" ", "\\ ") + ": " + " ".join(p.replace(" ", "\\ ") for p in inputs) + "\n")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--include", default=DEFAULT_INCLUDE, help="directory holding cvcuda/cvcuda.h")
    parser.add_argument("--output", default=None, help=f"the ABI module to write (default {DEFAULT_OUTPUT}, unless "
                                                       f"--api-output is given)")
    parser.add_argument("--api-output", default=None, help="write the C source of the API module cvcuda._capi here")
    parser.add_argument("--depfile", default=None, help="with --api-output: a Makefile depfile of the headers read")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"), help="C compiler driver used as preprocessor")
    args = parser.parse_args(argv)
    if args.api_output:
        build_ffi(args.cc, args.include, api=True).emit_c_code(args.api_output)
        with open(args.api_output) as f:
            source = keep_gil(f.read())
        with open(args.api_output, "w") as f:
            f.write(source)
        if args.depfile:
            _write_depfile(args.depfile, args.api_output, args.include)
    if args.output or not args.api_output:
        build_ffi(args.cc, args.include).emit_python_code(args.output or DEFAULT_OUTPUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
