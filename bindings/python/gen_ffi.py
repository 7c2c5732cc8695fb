"""Generates cvcuda/_ffi.py, the cffi out-of-line ABI-mode module, from the public C header.

The declarations are the C preprocessor's output of include/cvcuda/cvcuda.h (comments and include guards gone,
CV_API empty), so Python and C cannot drift; tests/python/test_ffi_drift.py regenerates the module and compares.
Integer macros (CV_MAX_DIMS, CVCUDA_C_VERSION_*) are evaluated by the same preprocessor and added as cffi "#define"s, so
they reach Python as lib.CV_MAX_DIMS and ffi-level constants without being copied by hand.

Usage: python gen_ffi.py [--include DIR] [--output FILE] [--cc CC]
Needs a C compiler driver for its preprocessor (cc -E); cffi and pycparser. The output is committed: users and the
GPU machine need neither a compiler nor this script.
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
DEFAULT_OUTPUT = os.path.join(HERE, "cvcuda", "_ffi.py")
MODULE = "cvcuda._ffi"

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


def build_ffi(cc="cc", include_dir=DEFAULT_INCLUDE):
    """The cffi.FFI holding every declaration of cvcuda/cvcuda.h plus its integer macros."""
    include_dir = os.path.abspath(include_dir)
    declarations = _preprocess(cc, include_dir, '#include "cvcuda/cvcuda.h"\n')
    macros = _integer_macros(cc, include_dir)
    ffi = cffi.FFI()
    ffi.cdef(declarations + "".join(f"#define {name} {value}\n" for name, value in sorted(macros.items())))
    ffi.set_source(MODULE, None)
    return ffi


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--include", default=DEFAULT_INCLUDE, help="directory holding cvcuda/cvcuda.h")
    parser.add_argument("--output", default=DEFAULT_OUTPUT, help="the module to write")
    parser.add_argument("--cc", default=os.environ.get("CC", "cc"), help="C compiler driver used as preprocessor")
    args = parser.parse_args(argv)
    build_ffi(args.cc, args.include).emit_python_code(args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
