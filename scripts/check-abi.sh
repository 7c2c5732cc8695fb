#!/usr/bin/env bash
# ABI gate: builds libcvcuda_c with debug info, describes its ABI with libabigail's abidw (public headers
# only) and compares it with the committed baseline abi/libcvcuda_c.abi using abidiff.
#   scripts/check-abi.sh            fail when the ABI differs from the baseline
#   scripts/check-abi.sh --update   rewrite the baseline (commit it with the API change it reflects)
# Policy (docs/c-api.md): until 1.0.0 every ABI change updates the baseline in the same commit; abidiff's exit bits
# 4 (ABI changed, e.g. a struct grew) and 8 (incompatible, e.g. a symbol removed) both fail, as do 1 and 2 (errors).
# Needs abidw/abidiff (Debian: apt-get install abigail-tools). Build directory: $CVCUDA_ABI_BUILD_DIR or build-abidw/.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=${CVCUDA_ABI_BUILD_DIR:-$root/build-abidw}
baseline=$root/abi/libcvcuda_c.abi
mode=check
case "${1:-}" in
  "") ;;
  --update) mode=update ;;
  *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac

for tool in abidw abidiff meson ninja; do
  command -v "$tool" >/dev/null || { echo "check-abi: $tool not found (abidw/abidiff: apt-get install abigail-tools)" >&2; exit 2; }
done

# The ABI does not depend on the GPU architectures: build one, with the debug info abidw reads.
if [ ! -f "$build/build.ninja" ]; then
  meson setup "$build" "$root" -Dbuildtype=debugoptimized -Dtests=false -Dgpu_arch=90 >/dev/null
fi
ninja -C "$build" libcvcuda_c.so.1.0.0 >/dev/null
library=$build/libcvcuda_c.so.1.0.0

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
current=$work/current.abi
# Only the public ABI: types declared in include/cvcuda/*.h and the cv* functions. The C++ internals and the libc
# declarations the C++ headers drag in are dropped, so the baseline stays small and changes only with the API.
public_headers=$(cd "$root/include/cvcuda" && ls -- *.h | paste -sd, - | sed 's/,/, /g')
cat >"$work/public-only.abignore" <<SUPPRESSIONS
[suppress_type]
  source_location_not_in = $public_headers
  drop = yes
[suppress_function]
  name_not_regexp = ^cv[A-Z]
  drop = yes
SUPPRESSIONS
# No paths in the output: the baseline must not depend on where the checkout lies.
abidw --suppressions "$work/public-only.abignore" --headers-dir "$root/include/cvcuda" --drop-private-types \
  --no-corpus-path --no-comp-dir-path --short-locs --out-file "$current" "$library"

if [ "$mode" = update ]; then
  cat "$current" >"$baseline"
  echo "check-abi: baseline updated: ${baseline#"$root"/} ($(grep -c '<elf-symbol ' "$baseline") ELF symbols)"
  exit 0
fi

[ -f "$baseline" ] || { echo "check-abi: no baseline at $baseline; run $0 --update" >&2; exit 1; }
status=0
abidiff --no-show-locs "$baseline" "$current" || status=$?
if [ $((status & 3)) -ne 0 ]; then
  echo "check-abi: abidiff failed to compare (exit $status)" >&2
  exit 1
fi
if [ $((status & 12)) -ne 0 ]; then
  echo "check-abi: the ABI differs from ${baseline#"$root"/} (abidiff exit $status: 4 = changed, 8 = incompatible)." >&2
  echo "check-abi: if the change is intended, run scripts/check-abi.sh --update and commit the new baseline with it." >&2
  exit 1
fi
echo "check-abi: the ABI matches ${baseline#"$root"/}"
