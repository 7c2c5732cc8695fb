#!/usr/bin/env python3
"""Every public header compiles on its own, with no CUDA header on the include path: the C headers as C99
and C11 and as C++11 and C++17, cvcuda.hpp as C++11 and C++17, each with -Wall -Wextra -pedantic -Werror.

Usage: check_headers.py INCLUDE_DIR --cc CC [--cc CC2] --cxx CXX [--cxx CXX2]
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

WARNINGS = ["-Wall", "-Wextra", "-pedantic", "-Werror"]
C_STANDARDS = ["c99", "c11"]
CXX_STANDARDS = ["c++11", "c++17"]


def compile_alone(compiler: str, language: str, std: str, include_dir: pathlib.Path, header: str, work: pathlib.Path):
    suffix = ".c" if language == "c" else ".cpp"
    source = work / f"{header.replace('.', '_')}_{std.replace('+', 'x')}{suffix}"
    # The typedef keeps the translation unit non-empty for a header made of macros only (-pedantic).
    source.write_text(f"#include <cvcuda/{header}>\ntypedef int cvtest_header_alone;\n")
    command = [compiler, f"-std={std}", *WARNINGS, "-fsyntax-only", f"-I{include_dir}", str(source)]
    return subprocess.run(command, capture_output=True, text=True), command


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("include_dir", type=pathlib.Path)
    parser.add_argument("--cc", action="append", required=True)
    parser.add_argument("--cxx", action="append", required=True)
    args = parser.parse_args()
    headers = sorted(p.name for p in (args.include_dir / "cvcuda").iterdir() if p.suffix in (".h", ".hpp"))
    if "cvcuda.h" not in headers or "cvcuda.hpp" not in headers:
        print("FAIL: cvcuda.h or cvcuda.hpp missing from", args.include_dir)
        return 1
    failures = checks = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        for header in headers:
            runs = [(cxx, "c++", std) for cxx in args.cxx for std in CXX_STANDARDS]
            if header.endswith(".h"):
                runs = [(cc, "c", std) for cc in args.cc for std in C_STANDARDS] + runs
            for compiler, language, std in runs:
                result, command = compile_alone(compiler, language, std, args.include_dir, header, work)
                checks += 1
                if result.returncode != 0:
                    failures += 1
                    print(f"FAIL: {header} alone, {compiler} -std={std}:\n  {' '.join(command)}\n{result.stderr}")
    print(f"{checks - failures}/{checks} header compilations passed ({len(headers)} headers)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
