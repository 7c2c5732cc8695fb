#!/usr/bin/env bash
# Prepares a fresh Debian/Ubuntu machine to build and test cvcuda-c: system packages (Catch2 v3, pkg-config,
# valgrind, abigail-tools, cmake, clang with libFuzzer, OpenCV 4's core and imgproc headers, Python's headers) and a
# Python virtual environment in .venv with requirements-dev.txt.
# Sourced by scripts/test.sh and scripts/demo.sh; needs root or sudo for apt, and the CUDA toolkit (nvcc).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi
if ! command -v nvcc >/dev/null 2>&1; then
    echo "setup: nvcc not found: install the CUDA toolkit (12.8 or newer) to build cvcuda-c" >&2
    exit 1
fi

sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
need_apt=()
pkg-config --atleast-version=3.4.0 catch2-with-main 2>/dev/null || need_apt+=(libcatch2-dev)
command -v pkg-config >/dev/null || need_apt+=(pkg-config)
command -v valgrind >/dev/null || need_apt+=(valgrind)
command -v abidw >/dev/null || need_apt+=(abigail-tools)
command -v cmake >/dev/null || need_apt+=(cmake)
# scripts/sanitizers.sh: clang with libFuzzer; tests/abi/check_opencv_headers.py: OpenCV 4's core and imgproc headers.
command -v clang++ >/dev/null || need_apt+=(clang)
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || need_apt+=(libclang-rt-dev)
[ -f /usr/include/opencv4/opencv2/imgproc.hpp ] || need_apt+=(libopencv-core-dev libopencv-imgproc-dev)
# The headers of python3 (whose .venv Meson uses) for the cffi API-mode module cvcuda._capi (meson option python_capi;
# without them auto leaves it out and Python runs in ABI mode): Debian's python3.X-dev for python3 X.
python_include=$(python3 -c 'import sysconfig; print(sysconfig.get_path("include"))' 2>/dev/null || true)
if [ ! -f "$python_include/Python.h" ]; then
    need_apt+=("python$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')-dev")
fi
if [ ${#need_apt[@]} -gt 0 ] && command -v apt-get >/dev/null; then
    backports=()
    # Debian bookworm has Catch2 2.x only; v3 comes from bookworm-backports.
    if grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; then
        if ! grep -rqs bookworm-backports /etc/apt/sources.list /etc/apt/sources.list.d/; then
            printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
                | $sudo tee /etc/apt/sources.list.d/bookworm-backports.sources >/dev/null
        fi
        backports=(-t bookworm-backports)
    fi
    echo "setup: apt-get install ${need_apt[*]}"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${backports[@]}" "${need_apt[@]}" >/dev/null
fi

if [ ! -x "$root/.venv/bin/python" ]; then
    python3 -m venv "$root/.venv"
fi
"$root/.venv/bin/python" -m pip install -q --disable-pip-version-check -r "$root/requirements-dev.txt"
export PATH="$root/.venv/bin:$PATH"
