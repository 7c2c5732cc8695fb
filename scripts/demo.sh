#!/usr/bin/env bash
# Sets up this machine, builds cvcuda-c and runs the main job: real photographs go PyTorch -> cvcuda.as_tensor ->
# flip on a cvcuda.Stream -> back to PyTorch, checked against torch.flip, with a PNG contact sheet.
# Arguments are passed to samples/interoperability/pytorch_interop.py (image paths, --out FILE).
# On a machine without an NVIDIA GPU it says so in one line and exits non-zero.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
source scripts/setup.sh
build=${BUILD_DIR:-build}
[ -f "$build/build.ninja" ] || meson setup "$build" -Dgpu_arch="${CVCUDA_GPU_ARCH:-all}" >/dev/null
meson compile -C "$build" >/dev/null
if nvidia-smi -L >/dev/null 2>&1; then
    python -m pip install -q --disable-pip-version-check -r requirements-demo.txt
fi
export CVCUDA_C_LIBRARY="$root/$build/libcvcuda_c.so.1"
export PYTHONPATH="$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
exec python samples/interoperability/pytorch_interop.py "$@"
