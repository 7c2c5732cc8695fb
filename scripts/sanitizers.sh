#!/usr/bin/env bash
# The CPU reliability jobs, run by scripts/test.sh after the normal tests (docs/reliability.md has their figures):
#  1. ASan + UBSan (GCC, -fno-sanitize-recover: the first report fails): the Catch2 C API and C++ wrapper suites
#     (capi, capi-no-device, abi-cvcuda-hpp) and pytest with libasan preloaded into Python, through the
#     instrumented cffi API-mode module (CVCUDA_C_FFI=api).                                      -> build-asan/
#  2. TSan: the C API from 8 threads (tests/capi/test_threads.cpp, iterations raised) and the handle tests. -> build-tsan/
#  3. clang ASan + UBSan: the same C API suite built by clang, whose UBSan also checks loads of enums.   -> build-clang/
#  4. libFuzzer (clang++ -fsanitize=fuzzer,address,undefined): tests/fuzz/fuzz_tensor_wrap.cpp from the committed corpus
#     tests/fuzz/corpus/ for CVCUDA_FUZZ_SECONDS (default 60).                                   -> build-fuzz/
# Host code only, one GPU architecture (75) to keep the builds short; GPU tests skip here as in the normal run.
# Every job writes JUnit into <dir>/test-results (runs outside Meson into test-results/direct/); scripts/test.sh's
# summary (scripts/summarize_tests.py) counts them with the normal build.
# Environment: CVCUDA_FUZZ_SECONDS, CVCUDA_TSAN_ITERATIONS (default 3000 per hammer thread), CVCUDA_JOBS (default 2). Exit status: 0 when
# every job passed (or skipped for a missing tool, with the reason in its report).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
status=0
fuzz_seconds=${CVCUDA_FUZZ_SECONDS:-60}
tsan_iterations=${CVCUDA_TSAN_ITERATIONS:-3000}
arch=75
jobs=${CVCUDA_JOBS:-2} # CI has 2 cores
stderr_stays_empty=tests/capi/stderr_stays_empty.py

configure() { # dir, meson options...
    local dir=$1
    shift
    if [ -f "$dir/build.ninja" ]; then
        meson configure "$dir" "$@" >/dev/null
    else
        meson setup "$dir" -Dgpu_arch=$arch -Dbuildtype=debugoptimized "$@" >/dev/null
    fi
    rm -rf "$dir/test-results"/*.xml "$dir/test-results/direct"
    mkdir -p "$dir/test-results/direct"
}

echo "== sanitizers: ASan + UBSan build (gpu_arch=$arch)"
# python_capi=enabled: the cffi API-mode module (cvcuda._capi) and Stream()'s C base (cvcuda._streambase) are built
# instrumented too, and the pytest run below goes through them (they lie beside build-asan/libcvcuda_c.so.1);
# scripts/test.sh's normal build runs both modes.
configure build-asan -Db_sanitize=address,undefined -Dc_args=-fno-sanitize-recover=all -Dcpp_args=-fno-sanitize-recover=all \
    -Dpython_capi=enabled
meson compile -C build-asan -j "$jobs" cvcuda_c test_capi test_cvcuda_hpp cvcuda_capi_beside_library \
    cvcuda_streambase_beside_library || status=1
export ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
meson test -C build-asan --no-rebuild --print-errorlogs capi capi-no-device abi-cvcuda-hpp || status=1
# Python is not instrumented: the runtime is preloaded, with libstdc++ (ASan's __cxa_throw interceptor needs it loaded
# first; Python does not link it); Python's own allocations are not ours, so leaks are not checked.
preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
LD_PRELOAD=$preload ASAN_OPTIONS=detect_leaks=0:protect_shadow_gap=0 CVCUDA_C_LIBRARY=$root/build-asan/libcvcuda_c.so.1 \
    PYTHONPATH=$root/bindings/python PYTHONDONTWRITEBYTECODE=1 CVCUDA_C_FFI=api \
    python3 -m pytest tests/python -q -p no:cacheprovider --junitxml=build-asan/test-results/direct/pytest-asan.xml || status=1

echo "== sanitizers: TSan build, $tsan_iterations iterations per hammer thread"
# No Python here (the extension would not be used): python_capi=disabled keeps the configure step free of cffi.
configure build-tsan -Db_sanitize=thread -Dpython_capi=disabled
meson compile -C build-tsan -j "$jobs" test_capi || status=1
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 CVCUDA_TEST_ITERATIONS=$tsan_iterations \
    python3 $stderr_stays_empty build-tsan/tests/capi/test_capi '[threads],[handles],[lifecycle]' \
    --reporter console --reporter JUnit::out=build-tsan/test-results/direct/tsan-threads.xml || status=1

# The library's host sources (core/, core/ops/, capi/), for the clang builds below.
host_sources=$(find core capi -name '*.cpp' | sort)
device_objects() { # dir, .cu files...: nvcc objects in dir/device/, for the sanitizer's architecture, $jobs at once
    local dir=$1
    shift
    mkdir -p "$dir/device"
    rm -f "$dir/device"/*.o
    printf '%s\n' "$@" | xargs -P "$jobs" -I{} sh -c 'nvcc -c "$1" -o "$2/device/$(basename "$1" .cu).o" -std=c++17 -O2 \
        -Xcompiler=-fPIC -Iinclude "-gencode=arch=compute_$3,code=sm_$3"' nvcc-job {} "$dir" "$arch"
}
# The kernels' objects, compiled once for both clang builds below (build-device/device/).
kernels_built=0
kernel_objects() {
    [ $kernels_built = 1 ] && return 0
    device_objects build-device kernels/*.cu && kernels_built=1
}

echo "== sanitizers: clang ASan + UBSan, the C API suite (clang's UBSan checks enum loads, GCC's does not)"
mkdir -p build-clang/test-results/direct
rm -f build-clang/test-results/direct/*.xml
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
if ! command -v clang++ >/dev/null; then
    python3 scripts/junit_case.py build-clang/test-results/direct/capi-clang.xml capi-clang "C API suite, clang ASan + UBSan" \
        skipped "clang++ not found (Debian: apt-get install clang, as scripts/setup.sh does)"
else
    # Device code (the kernels, the tests' busy kernel) comes from nvcc, uninstrumented; every host source is built by
    # clang.
    rm -f build-clang/test_capi # a failed build must not leave an old program to run
    kernel_objects && device_objects build-clang tests/support/*.cu &&
        clang -c -std=c99 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -Iinclude tests/capi/raw_enums.c \
            -o build-clang/raw_enums.o &&
        clang++ -std=c++17 -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -DCVCUDA_C_BUILDING \
            -DCVTEST_PROJECT_VERSION="\"$(sed -n "s/^  version: '\(.*\)',$/\1/p" meson.build)\"" \
            -Iinclude -Itests/support -I"$cuda/include" $host_sources tests/capi/*.cpp build-clang/raw_enums.o \
            build-device/device/*.o build-clang/device/*.o $(pkg-config --cflags --libs catch2-with-main) \
            -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread -o build-clang/test_capi || status=1
    ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        python3 $stderr_stays_empty build-clang/test_capi --reporter console \
        --reporter JUnit::out=build-clang/test-results/direct/capi-clang.xml || status=1
fi

echo "== sanitizers: libFuzzer over cvTensorWrap + export + re-wrap, $fuzz_seconds s"
mkdir -p build-fuzz/test-results/direct build-fuzz/corpus
rm -f build-fuzz/test-results/direct/*.xml
fuzz_case="cvTensorWrap + cvTensorExport + re-wrap, libFuzzer with ASan and UBSan"
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char *, unsigned long) { return 0; }' |
    clang++ -x c++ -fsanitize=fuzzer - -o build-fuzz/probe 2>/dev/null; then
    python3 scripts/junit_case.py build-fuzz/test-results/direct/fuzz.xml fuzz "$fuzz_case" skipped \
        "clang++ with libFuzzer not found (Debian: apt-get install clang libclang-rt-dev, as scripts/setup.sh does)"
    echo "fuzz: skipped: clang++ with libFuzzer not found"
else
    rm -f build-fuzz/fuzz_tensor_wrap
    kernel_objects || status=1
    clang++ -std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -DCVCUDA_C_BUILDING \
        -Iinclude -I"$cuda/include" $host_sources tests/fuzz/fuzz_tensor_wrap.cpp build-device/device/*.o \
        -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread -o build-fuzz/fuzz_tensor_wrap || status=1
    # New inputs go to build-fuzz/corpus; the committed corpus is only read.
    ASAN_OPTIONS=detect_leaks=1:protect_shadow_gap=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        build-fuzz/fuzz_tensor_wrap -max_total_time="$fuzz_seconds" -print_final_stats=1 -timeout=10 \
        -artifact_prefix=build-fuzz/ build-fuzz/corpus tests/fuzz/corpus >build-fuzz/fuzz.log 2>&1
    fuzz_status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' build-fuzz/fuzz.log | tail -1)
    if [ "$fuzz_status" = 0 ]; then
        python3 scripts/junit_case.py build-fuzz/test-results/direct/fuzz.xml fuzz "$fuzz_case ($runs inputs, $fuzz_seconds s)" passed
        echo "fuzz: $runs inputs in $fuzz_seconds s, no finding"
    else
        tail -40 build-fuzz/fuzz.log
        python3 scripts/junit_case.py build-fuzz/test-results/direct/fuzz.xml fuzz "$fuzz_case" failed \
            "libFuzzer exited $fuzz_status after ${runs:-?} inputs: see build-fuzz/fuzz.log and build-fuzz/crash-*"
        status=1
    fi
fi
exit $status
