#!/usr/bin/env bash
# Sets up this machine, builds cvcuda-c and runs the main job: real photographs go PyTorch -> cvcuda.as_tensor ->
# flip on a cvcuda.Stream -> back to PyTorch, checked against torch.flip, with a PNG contact sheet.
# Arguments go to samples/interoperability/pytorch_interop.py (image paths, --out FILE), relative to the current
# directory. On a machine without an NVIDIA GPU it says so in one line and exits non-zero, before building anything.
set -euo pipefail
here=$(pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "demo: no NVIDIA GPU found (nvidia-smi -L failed): the main job needs one; scripts/test.sh runs without one" >&2
    exit 2
fi
cd "$root"
echo "demo: setting up and building cvcuda-c (the first run takes a few minutes)" >&2
source scripts/setup.sh
build=${BUILD_DIR:-build}
[ -f "$build/build.ninja" ] || meson setup "$build" -Dgpu_arch="${CVCUDA_GPU_ARCH:-all}" >/dev/null
meson compile -C "$build" >/dev/null
echo "demo: installing PyTorch, scikit-image and Pillow into .venv" >&2
python -m pip install -q --disable-pip-version-check -r requirements-demo.txt
export CVCUDA_C_LIBRARY="$root/$build/libcvcuda_c.so.1"
export PYTHONPATH="$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
cd "$here"
exec python "$root/samples/interoperability/pytorch_interop.py" "$@"
