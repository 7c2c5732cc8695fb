#!/usr/bin/env bash
# The one benchmark command (bench/run.py), given the reference library (CV-CUDA 0.19) as its folder or as the
# tarball that ../shared/tools/cvcuda-reference.sh packs (unpacked once into $CVCUDA_REFERENCE_DIR, default /tmp/cvref).
# Usage: bench/run.sh [--reference TARBALL_OR_DIR] [bench/run.py arguments...]   (without --reference: no CV-CUDA column)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
args=()
ref=
while [ $# -gt 0 ]; do
    case "$1" in
    --reference) ref=${2:?bench/run.sh: --reference needs a tarball or a folder}; shift 2 ;;
    --reference=*) ref=${1#*=}; shift ;;
    *) args+=("$1"); shift ;;
    esac
done
if [ -n "$ref" ]; then
    if [ -f "$ref" ]; then
        dir=${CVCUDA_REFERENCE_DIR:-/tmp/cvref}
        if [ ! -d "$dir/cvcuda" ]; then
            mkdir -p "$dir"
            tar -xJf "$ref" -C "$dir"
        fi
        ref=$dir
    fi
    if [ ! -f "$ref/cvcuda/__init__.py" ]; then
        echo "bench/run.sh: $ref holds no cvcuda package (the reference library)" >&2
        exit 2
    fi
    args+=(--reference "$ref")
fi
exec python3 "$root/bench/run.py" ${args[@]+"${args[@]}"}
