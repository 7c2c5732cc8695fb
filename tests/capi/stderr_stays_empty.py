#!/usr/bin/env python3
"""Runs a test program and fails when anything was written to stderr: the library never prints.

Usage: stderr_stays_empty.py PROGRAM [ARGS...]. stdout passes through; the exit status is the program's (77, a
skip, included) unless stderr was not empty, then 1.
"""
import subprocess
import sys


def main() -> int:
    result = subprocess.run(sys.argv[1:], stderr=subprocess.PIPE, check=False)
    if result.stderr:
        sys.stdout.write("FAIL: the program wrote to stderr:\n")
        sys.stdout.write(result.stderr.decode(errors="replace"))
        return 1
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
