#!/usr/bin/env python3
"""Runs a program that needs a GPU and exits 77 without one (the test harness's "skipped"). With
CVCUDA_REQUIRE_GPU=1 (scripts/gpu-check.sh) a missing GPU is a failure instead, as in the Catch2 suites.

Usage: run_gpu_program.py PROGRAM [ARGS...]
"""
import os
import subprocess
import sys

SKIPPED = 77


def main() -> int:
    returncode = subprocess.run(sys.argv[1:], check=False).returncode
    if returncode == SKIPPED and os.environ.get("CVCUDA_REQUIRE_GPU") == "1":
        print("FAIL: CVCUDA_REQUIRE_GPU=1 but the program found no usable GPU (exit 77)")
        return 1
    return returncode


if __name__ == "__main__":
    sys.exit(main())
