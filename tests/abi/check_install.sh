#!/bin/sh
# `meson install` lays out headers, the versioned library, cvcuda_c.pc and the CMake package, and the C and C++
# samples build against the installed tree with pkg-config and with find_package(cvcuda_c). The built
# samples then run: exit 0 (flipped on a GPU) or 77 (no GPU) proves they load the installed library.
# Usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR CUDA_ROOT
set -eu
build=$1 source=$2 work=$3 cuda=$4
rm -rf "$work"
mkdir -p "$work"
root="$work/root"
meson install -C "$build" --destdir "$root" --no-rebuild --quiet

fail() { echo "FAIL: $*"; exit 1; }
pc=$(find "$root" -name cvcuda_c.pc)
[ -n "$pc" ] || fail "no cvcuda_c.pc installed"
libdir=$(dirname "$(dirname "$pc")")
[ -f "$libdir/libcvcuda_c.so.1.0.0" ] || fail "no libcvcuda_c.so.1.0.0 in $libdir"
[ "$(readlink "$libdir/libcvcuda_c.so.1")" = libcvcuda_c.so.1.0.0 ] || fail "libcvcuda_c.so.1 does not point at 1.0.0"
[ "$(readlink "$libdir/libcvcuda_c.so")" = libcvcuda_c.so.1 ] || fail "libcvcuda_c.so does not point at .so.1"
for f in cvcuda_cConfig.cmake cvcuda_cConfigVersion.cmake; do
  [ -f "$libdir/cmake/cvcuda_c/$f" ] || fail "no $f in $libdir/cmake/cvcuda_c"
done
includedir=$(find "$root" -type d -name cvcuda -path '*/include/*')
for h in "$source"/include/cvcuda/*; do
  cmp -s "$h" "$includedir/$(basename "$h")" || fail "installed $(basename "$h") differs from the source"
done
echo "installed layout: ok ($libdir, $includedir)"

# pkg-config: the sysroot prefix maps the .pc's absolute paths into the destdir.
export PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_SYSROOT_DIR="$root"
header_version=$(awk '/^#define CVCUDA_C_VERSION_(MAJOR|MINOR|PATCH) /{v = v (v == "" ? "" : ".") $3} END{print v}' \
  "$source/include/cvcuda/version.h")
[ "$(pkg-config --modversion cvcuda_c)" = "$header_version" ] ||
  fail "pkg-config says version $(pkg-config --modversion cvcuda_c), the header $header_version"
cuda_flags="-I$cuda/include -L$cuda/lib64 -lcudart"
# shellcheck disable=SC2046
cc -std=c99 -Wall -Wextra -Werror "$source/samples/c/flip.c" -o "$work/flip_c_pkgconfig" $(pkg-config --cflags --libs cvcuda_c) $cuda_flags
# shellcheck disable=SC2046
c++ -std=c++11 -Wall -Wextra -Werror "$source/samples/cpp/flip.cpp" -o "$work/flip_cpp_pkgconfig" $(pkg-config --cflags --libs cvcuda_c) $cuda_flags
echo "pkg-config builds: ok"

# CMake: find_package(cvcuda_c) from the installed tree only.
prefix=${libdir%/lib*}
for lang in c cpp; do
  cmake -S "$source/samples/$lang" -B "$work/cmake-$lang" -DCMAKE_PREFIX_PATH="$prefix" -DCUDAToolkit_ROOT="$cuda" \
    -DCMAKE_BUILD_TYPE=Release >"$work/cmake-$lang.log" 2>&1 || { cat "$work/cmake-$lang.log"; fail "cmake configure of samples/$lang"; }
  cmake --build "$work/cmake-$lang" >>"$work/cmake-$lang.log" 2>&1 || { cat "$work/cmake-$lang.log"; fail "cmake build of samples/$lang"; }
done
echo "CMake builds: ok"

for program in "$work/flip_c_pkgconfig" "$work/flip_cpp_pkgconfig" "$work/cmake-c/flip_c" "$work/cmake-cpp/flip_cpp"; do
  LD_LIBRARY_PATH="$libdir:$cuda/lib64" ldd "$program" | grep -q "libcvcuda_c.so.1 => $libdir/libcvcuda_c.so.1" ||
    fail "$program does not resolve libcvcuda_c.so.1 to the installed one"
  status=0
  LD_LIBRARY_PATH="$libdir:$cuda/lib64" "$program" >"$work/run.log" 2>&1 || status=$?
  case $status in
    0) echo "$(basename "$program"): ran on a GPU: $(tail -n 1 "$work/run.log")" ;;
    77) echo "$(basename "$program"): loaded the installed library; no GPU here ($(cat "$work/run.log"))" ;;
    *) cat "$work/run.log"; fail "$program exited $status" ;;
  esac
done
echo "install check: ok"
