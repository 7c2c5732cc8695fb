#!/usr/bin/env bash
# The GPU suite, for the GPU test machine (see docs/verification/README.md): builds cvcuda-c there, runs every test
# with CVCUDA_REQUIRE_GPU=1 (a skipped GPU test fails), compute-sanitizer (memcheck, racecheck, synccheck, initcheck)
# over the Catch2 GPU suites and memcheck over a sample of every Python operator suite, the main job (contact sheet),
# and the benchmarks (the sanitizers skip the negative controls, whose races they would hide by slowing kernels, and
# the [large] cases, too slow under them); writes the record to docs/verification/gpu-check.md and logs to
# docs/verification/logs/. The benchmarks: bench/host_overhead (C API against raw CUDA calls) and the one benchmark
# command bench/run.sh, which writes docs/perf.md's generated section and docs/img/bench_*.png; with --reference it
# also measures the reference library (CV-CUDA 0.19, the tarball from ../shared/tools/cvcuda-reference.sh or its
# unpacked folder) in its own process.
# Usage: scripts/gpu-check.sh [--quick] [--no-bench] [--no-sanitizer] [--sanitizer-tools "memcheck racecheck ..."]
#                             [--no-tests] [--ordering-runs N (default 5)] [--reference TARBALL_OR_DIR]
#                             [--record FILE (default docs/verification/gpu-check.md)]
#                             [--deadline SECONDS] [--pack FILE.tgz]
# --no-tests leaves out the full test run, the soak and the samples, so that a lease whose calls are limited to
# 10 minutes can run the parts in turn, each writing its own record (--record); the build is reused when present.
# --deadline and --pack are for a machine lent one command at a time, under a time limit that kills the command: with
# --deadline S every step runs under `timeout` so as to end S seconds after the script started, less a reserve for
# the record (a step cut there is recorded as cut, and the steps after it as not run), and the record is written
# however far the run got; --pack FILE rewrites FILE (docs/verification and docs/img, gzipped tar) with the record so
# far after every step, so that what ran comes back even if the command is killed.
# Exit status: 0 every step passed, 1 a step failed (or was cut at the deadline), 2 bad arguments, 3 none failed but
# --deadline left some not run.
# --sanitizer-tools picks the compute-sanitizer tools of such a part (memcheck also runs over the pytest suites).
# Python packages missing there (cffi, pycparser) are taken from wheels in .whl/ when present.
# CVCUDA_COMMIT=<hash> names the commit in the record where the checkout has no .git (the GPU machine's copy).
# CVCUDA_RUST_SAMPLE=<binary> also runs the Rust sample built elsewhere (no cargo on the GPU machine).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bench=1 sanitizer=1 tests=1 reference= ordering_runs=5 record=docs/verification/gpu-check.md deadline= pack=
sanitizer_tools="memcheck racecheck synccheck initcheck"
args="$*"
while [ $# -gt 0 ]; do
    case "$1" in
    --no-bench) bench=0 ;;
    --no-sanitizer) sanitizer=0 ;;
    --sanitizer-tools) sanitizer_tools=${2:?gpu-check: --sanitizer-tools needs a list}; shift ;;
    --no-tests) tests=0 ;;
    --record) record=${2:?gpu-check: --record needs a file}; shift ;;
    --quick) bench=0 sanitizer=0 ;;
    --ordering-runs) ordering_runs=${2:?gpu-check: --ordering-runs needs a count}; shift ;;
    --reference) reference=${2:?gpu-check: --reference needs a tarball or a folder}; shift ;;
    --reference=*) reference=${1#*=} ;;
    --deadline) deadline=${2:?gpu-check: --deadline needs seconds}; shift ;;
    --pack) pack=${2:?gpu-check: --pack needs a file}; shift ;;
    *) echo "gpu-check: unknown argument $1" >&2; exit 2 ;;
    esac
    shift
done
case "$reference" in /*|'') ;; *) reference=$root/$reference ;; esac
case "$deadline" in '') ;; *[!0-9]* | 0*) echo "gpu-check: --deadline takes whole seconds > 0 (digits only), not '$deadline'" >&2; exit 2 ;; esac
case "$pack" in /*|'') ;; *) pack=$root/$pack ;; esac
ver=docs/verification
logs=$ver/logs
mkdir -p "$logs" docs/img
export CVCUDA_REQUIRE_GPU=1 PYTHONUNBUFFERED=1
# Before the build: Meson's python3 imports cffi at configure time to build the cffi API-mode module cvcuda._capi
# (python_capi=enabled below fails the build step without it), so the wheels' PYTHONPATH must be exported first.
if compgen -G ".whl/*.whl" >/dev/null; then
    python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/cvcuda-site .whl/*.whl >"$logs/pip.log" 2>&1
    export PYTHONPATH=/tmp/cvcuda-site${PYTHONPATH:+:$PYTHONPATH}
fi
# OpenCV's headers for the abi-opencv-headers check, where they cannot be installed: a copy of /usr/include/opencv4
# carried in .opencv4/ (tests/abi/check_opencv_headers.py).
if [ -f .opencv4/opencv2/imgproc.hpp ]; then export CVCUDA_OPENCV_INCLUDE=$root/.opencv4; fi
build=${BUILD_DIR:-build-gpu}
rows=()
declare -A ran=() # the logs this run wrote (the steps it ran)
summary="not run in this part (--no-tests)" ordering_passed=0
record_reserve=30 # seconds kept after the last step for the record (its header imports torch) and the pack
step() { # step NAME LOGFILE COMMAND... : runs, keeps the log, records the result row (and packs, with --pack)
    local name=$1 log=$2; shift 2
    local t0=$SECONDS rc limit=()
    if [ -n "$deadline" ]; then
        local left=$((deadline - record_reserve - SECONDS))
        if [ $left -lt 5 ]; then
            rows+=("| $name | NOT RUN (--deadline $deadline s) | 0 s | — |")
            echo "gpu-check: $name -> not run (--deadline $deadline s)"
            return 3
        fi
        limit=(timeout --kill-after=5 "$left")
    fi
    ran[$log]=1
    if [ -n "$pack" ]; then # what comes back if the command is killed during this step says so
        rows+=("| $name | RUNNING (where this is the last record, the command was killed here) | — | logs/$log |")
        write_record && pack_logs
        unset 'rows[-1]'
    fi
    ${limit[@]+"${limit[@]}"} "$@" >"$logs/$log" 2>&1
    rc=$?
    if [ -n "$deadline" ]; then
        case $rc in 124 | 137) rc="$rc, cut at --deadline $deadline s" ;; esac # 137: killed 5 s after the TERM
    fi
    rows+=("| $name | $([ "$rc" = 0 ] && echo PASS || echo "FAIL (exit $rc)") | $((SECONDS - t0)) s | logs/$log |")
    echo "gpu-check: $name -> exit $rc ($((SECONDS - t0)) s)"
    [ -n "$pack" ] && write_record && pack_logs
    [ "$rc" = 0 ]
}
# The record (--record), from this run's rows and logs only: a section whose step did not run in this run is left out
# (the logs folder holds earlier runs' logs too). Called at the end, and after every step with --pack.
record_header=
write_record() {
    if [ -z "$record_header" ]; then # once: it imports torch
        record_header=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
            nvcc --version | tail -2
            python3 -c 'import torch, sys; print("python", sys.version.split()[0], "torch", torch.__version__)' 2>&1)
    fi
    {
        echo "# GPU check — $(date -u '+%Y-%m-%d %H:%M UTC')"
        echo
        echo "Written by \`scripts/gpu-check.sh $args\` on the GPU test machine. Logs: \`docs/verification/logs/\`."
        echo
        echo '```'
        echo "$record_header"
        # The cffi mode of the pytest run (pytest-abi, the suite again with CVCUDA_C_FFI=abi, runs in CI, not here: --no-suite abi-mode).
        CVCUDA_C_LIBRARY="$root/$build/libcvcuda_c.so.1" PYTHONPATH="$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}" python3 -c 'import cvcuda._library as L; print("cffi mode", L.ffi_mode, L.extension_path or "")' 2>&1
        echo "commit ${CVCUDA_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}"
        echo '```'
        echo
        echo "| step | result | time | log |"
        echo "|---|---|---|---|"
        printf '%s\n' "${rows[@]}"
        echo
        echo "Test cases (Catch2 + pytest, GPU tests required): **$summary**"
        echo
        echo "Ordering and lifetime suites: **$ordering_passed/$ordering_runs runs passed** in a row (rows above)."
        echo
        if [ -n "${ran[tests.log]:-}" ] && [ -f "$logs/test-summary.log" ]; then # (removed before the tests step)
            echo "Skipped cases (a GPU test may not skip here for want of a GPU; each line gives the reason it could not run on this machine):"
            echo '```'
            grep '^- skipped' "$logs/test-summary.log" || echo "(none)"
            echo '```'
            echo
            echo "Every Meson test of the run (the ABI consumers among them: C, C++, dlopen plugin host, install tree):"
            echo
            echo "| meson test | result | time |"
            echo "|---|---|---|"
            [ -f "$build/meson-logs/testlog.json" ] && python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    t = json.loads(line)
    print(f"| {t['name'].split(':')[-1]} | {t['result']} | {t['duration']:.1f} s |")
PY
            echo
            echo "Counts the stream-engine suite reported (Catch2 WARN lines of tests/engine):"
            echo '```'
            [ -f "$logs/testlog.txt" ] && awk '/warning:$/ {grab=1; next} grab && NF == 0 {grab=0; print "--"; next} grab {sub(/^ +/, ""); printf "%s ", $0}' \
                "$logs/testlog.txt" | tr -s ' ' | sed 's/ -- /\n/g; s/ --$//'
            echo
            echo '```'
            echo
        fi
        if [ -n "${ran[bench-run.log]:-}" ]; then
            echo "Benchmark summary (all tables and the plots in docs/perf.md; the run in logs/bench-run.log):"
            echo '```'
            sed -n '/^GPU time per call/,$p' "$logs/bench-run.log"
            echo '```'
            echo
        fi
        if [ -n "${ran[sample.log]:-}" ]; then
            echo "Main job summary:"
            echo '```'
            tail -n 20 "$logs/sample.log"
            echo '```'
        fi
    } >"$record"
}
pack_logs() { # docs/perf.md (the benchmark writes it) and the record too where --record puts it outside docs/verification
    local extra=()
    case "$record" in docs/verification/*) ;; *) extra=(-C "$(dirname "$record")" "$(basename "$record")") ;; esac
    tar czf "$pack.part" docs/verification docs/img docs/perf.md ${extra[@]+"${extra[@]}"} && mv -f "$pack.part" "$pack" ||
        echo "gpu-check: --pack $pack failed" >&2
}

if [ -f "$build/build.ninja" ]; then
    step "build (gpu_arch=90, incremental)" build.log bash -c "meson configure $build -Dpython_capi=enabled && ninja -C $build"
else
    step "build (gpu_arch=90)" build.log bash -c "meson setup $build -Dgpu_arch=90 -Dpython_capi=enabled && ninja -C $build"
fi
rm -f "$build"/test-results/*.xml
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
# On a machine with several GPUs the two-GPU tests must run: skipping them there fails the run.
if [ "${ngpu:-0}" -ge 2 ]; then export CVCUDA_REQUIRE_MULTI_GPU=1; fi
# The Python steps below and the record's cffi line load this build's library.
export CVCUDA_C_LIBRARY="$root/$build/libcvcuda_c.so.1"
export PYTHONPATH="$root/bindings/python${PYTHONPATH:+:$PYTHONPATH}"
if [ $tests = 1 ]; then
    # no earlier run's logs (the build folder may be an earlier call's) can pass for this one's
    rm -f "$build/meson-logs/testlog.txt" "$build/meson-logs/testlog.json" "$logs/testlog.txt" "$logs/test-summary.log"
    summary="not finished (the record was written while the tests ran)"
    step "all tests, CVCUDA_REQUIRE_GPU=1" tests.log meson test -C "$build" --print-errorlogs --num-processes 1 --timeout-multiplier 4 --no-suite abi-mode
    if [ -n "${ran[tests.log]:-}" ]; then
        [ -f "$build/meson-logs/testlog.txt" ] && cp "$build/meson-logs/testlog.txt" "$logs/testlog.txt" # every test's own output, passing ones too
        python3 scripts/summarize_tests.py "$build" --list-skips >"$logs/test-summary.log"
        summary=$(tail -n 1 "$logs/test-summary.log")
        [ -n "$pack" ] && write_record && pack_logs
    else
        summary="not run (--deadline $deadline s)"
    fi
fi
if [ $sanitizer = 1 ]; then
    # Every tool over every GPU suite, one run at a time: side by side, the tools' device memory ran out (each
    # reserves its own shadow memory on the one GPU). The negative controls are left out (a sanitizer slows kernels
    # and so hides the races they force), and so are [large] cases, the 8-thread stress case (too slow under it),
    # [timing] cases (they observe a spin kernel still running, which a sanitizer's serialised launches can end first)
    # and [cuda-error] cases (they provoke a CUDA API error on purpose, which the tools count as errors).
    for tool in $sanitizer_tools; do
        for exe in tests/engine/test_engine tests/kernels/test_kernels; do
            [ -x "$build/$exe" ] || continue
            step "compute-sanitizer $tool $(basename "$exe")" "$tool-$(basename "$exe").log" \
                compute-sanitizer --tool "$tool" --error-exitcode 1 "$build/$exe" '~[negative-control]~[large]~[threads]~[timing]~[cuda-error]'
        done
    done
fi
# The Rust sample is built where cargo is (the development machine has it, this one has not): pass its binary in
# CVCUDA_RUST_SAMPLE to run its GPU path here against this build of the library.
if [ -n "${CVCUDA_RUST_SAMPLE:-}" ] && [ -x "$CVCUDA_RUST_SAMPLE" ]; then
    step "Rust sample (binary built on the development machine)" rust-sample.log \
        env LD_LIBRARY_PATH="$root/$build" "$CVCUDA_RUST_SAMPLE"
fi
if [ $sanitizer = 1 ] && [[ " $sanitizer_tools " == *" memcheck "* ]]; then
    # The operator suites are Python (they compare with OpenCV and torchvision): memcheck over every test function of
    # them, the first of every 20 cases of each (--sample-every, tests/python/conftest.py), which keeps the run within
    # a few minutes. API errors are not reported here: torch and OpenCV make CUDA calls of their own that may fail by
    # design; the Catch2 runs above report ours.
    step "compute-sanitizer memcheck, pytest operator suites (every 20th case of each test function)" memcheck-pytest-ops.log \
        compute-sanitizer --tool memcheck --error-exitcode 1 --report-api-errors no \
        python3 -m pytest -q -p no:cacheprovider --sample-every 20 tests/python/test_crop.py tests/python/test_convertto.py \
        tests/python/test_normalize.py tests/python/test_reformat.py tests/python/test_cvtcolor.py \
        tests/python/test_copymakeborder.py tests/python/test_resize_opencv.py tests/python/test_resize_tiled.py \
        tests/python/test_resize_torchvision.py tests/python/test_resize_fused.py tests/python/test_tv.py \
        tests/python/test_tv_fused.py
fi
# The ordering and lifetime suites again, 5 runs in a row: their negative controls force their races, so a suite that
# passes once but not every time is broken. Each run is one row of the record; any failed run fails the check.
for i in $(seq 1 $ordering_runs); do
    step "ordering suites, run $i/$ordering_runs (engine Catch2 + pytest ordering, lifetime, threads, torch and DLPack interop)" \
        "ordering-$i.log" bash -c "'$build/tests/engine/test_engine' --allow-running-no-tests && python3 -m pytest -q -p no:cacheprovider -rs \
            tests/python/test_stream_ordering.py tests/python/test_lifetime.py tests/python/test_threads_ordering.py \
            tests/python/test_torch_interop.py tests/python/test_dlpack_torch.py" && ordering_passed=$((ordering_passed + 1))
done
echo "gpu-check: ordering suites passed $ordering_passed/$ordering_runs runs"
if [ $tests = 1 ]; then
    step "soak: 100000 round trips torch -> flip -> torch (scripts/soak.py)" soak.log python3 scripts/soak.py
    step "torchrun sample, $ngpu GPU(s) (samples/distributed/preprocess_ddp.py)" ddp.log \
        python3 -m torch.distributed.run --standalone --nproc_per_node="${ngpu:-1}" samples/distributed/preprocess_ddp.py
    step "main job (samples/interoperability/pytorch_interop.py)" sample.log \
        python3 samples/interoperability/pytorch_interop.py --out docs/img/contact_sheet.png
fi
if [ $bench = 1 ]; then
    step "benchmark host_overhead (C API vs raw CUDA calls)" bench-host_overhead.log "$build/bench/host_overhead"
    step "benchmark bench/run.sh (ours, ${reference:+CV-CUDA 0.19, }torch, copy -> docs/perf.md, docs/img/bench_*.png)" \
        bench-run.log bench/run.sh ${reference:+--reference "$reference"} --json "$logs/bench-results.json"
    # Threads (calls/s of tiny flips from 1, 2, 4, 8 threads, C and Python) and the host-time breakdown of the
    # Python paths: their own sections of docs/perf.md.
    step "benchmark bench/threads.py (C and Python, 1-8 threads)" bench-threads.log python3 bench/threads.py
    step "benchmark bench/host_breakdown.py (host µs per step)" bench-host_breakdown.log python3 bench/host_breakdown.py
    # The CAI path against the DLPack path (batches/s, device syncs per batch, host µs per interop call): the figures
    # of docs/interop.md, the reference library's column in its own process.
    ref_dir=
    if [ -n "$reference" ]; then ref_dir=$reference; [ -f "$reference" ] && ref_dir=${CVCUDA_REFERENCE_DIR:-/tmp/cvref}; fi
    step "benchmark bench/interop_bench.py (CAI vs DLPack${reference:+, CV-CUDA 0.19})" bench-interop.log \
        python3 bench/interop_bench.py ${ref_dir:+--reference "$ref_dir"}
    # Which resize agrees with cv2.resize and torchvision's (ours, and the reference's where given): the table of
    # docs/resize-agreement.md, every case's figures in the JSON.
    step "resize agreement with OpenCV and torchvision (scripts/reference_agreement.py${reference:+, CV-CUDA 0.19})" \
        reference-agreement.log python3 scripts/reference_agreement.py ${ref_dir:+--reference "$ref_dir"} \
        --json "$logs/reference-agreement.json"
fi

write_record
[ -n "$pack" ] && pack_logs
echo "$summary"
grep -q "FAIL" "$record" && exit 1
grep -q "NOT RUN" "$record" && exit 3 # cut by --deadline: nothing failed, but the check is not complete
exit 0
