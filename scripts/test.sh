#!/usr/bin/env bash
# Sets up this machine (scripts/setup.sh), builds cvcuda-c and runs every test: the Catch2 suites and pytest, then
# the sanitizer, thread and fuzz jobs of scripts/sanitizers.sh (their own build directories, host code only).
# GPU tests skip with a visible reason on machines without a GPU (CVCUDA_REQUIRE_GPU=1 turns those skips into failures).
# Ends with one line "N passed, N failed, N skipped". Environment: CVCUDA_GPU_ARCH (default "all"), BUILD_DIR (default build).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/setup.sh
build=${BUILD_DIR:-build}
if [ -f "$build/build.ninja" ]; then
    meson configure "$build" -Dgpu_arch="${CVCUDA_GPU_ARCH:-all}" >/dev/null
else
    meson setup "$build" -Dgpu_arch="${CVCUDA_GPU_ARCH:-all}" >/dev/null
fi
meson compile -C "$build"
rm -rf "$build/test-results"/*.xml
status=0
meson test -C "$build" --print-errorlogs --num-processes 1 || status=$?
# ASan + UBSan, TSan and libFuzzer runs of the host code (CPU), counted in the summary below.
bash scripts/sanitizers.sh || status=1
python scripts/summarize_tests.py "$build" build-asan build-tsan build-clang build-fuzz
exit $status
