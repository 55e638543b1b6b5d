#!/bin/sh
# bench/gpu_round.sh: one full round on the GPU host, in one command.
#
#   sh bench/gpu_round.sh            (from the repository root, on the GPU host)
#
# Expects .gpudeps/ (staged by ../shared/gpu/stage-deps.sh) and, optionally,
# .gpudata/ (a copy of ../shared/data/matrices) carried along.  Builds the
# whole tree with all cores, runs `make check` (the GPU tests run, not skip),
# the conformance suite on the GPU, compute-sanitizer on the GPU tests, the
# benchmarks and the demo; writes every log under $OUT and prints a short
# summary last.  Steps are selected with STEPS (default: all).
set -u
OUT=${OUT:-$PWD/gpu-out}
STEPS=${STEPS:-build check conformance sanitizer overhead profile xfer kbench bench e2e tc xpose nm demo}
mkdir -p "$OUT"
root=$PWD
summary="$OUT/summary.txt"
: > "$summary"
say () { echo "$*" | tee -a "$summary" ; }
has () { case " $STEPS " in *" $1 "*) return 0 ;; esac ; return 1 ; }

sh .gpudeps/install.sh > "$OUT/deps.log" 2>&1 || { cat "$OUT/deps.log"; exit 1; }
[ -d .gpudata ] && export GRBGPU_TEST_DATA="$root/.gpudata"
nvidia-smi -L | tee -a "$summary"
ncores=$(nproc)

if has build && [ -f build/Makefile ] && [ -f build/.libs/libgrbgpu.so ]; then
    # a warm machine from the previous call of this session: rebuild only
    (cd build && make -j"$ncores") > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; say "build: FAILED"; exit 1; }
    say "build: incremental ok"
elif has build; then
    t0=$(date +%s)
    (autoreconf -fi && mkdir -p build && cd build && ../configure -q && make -j"$ncores") \
        > "$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; say "build: FAILED"; exit 1; }
    say "build: ok ($(( $(date +%s) - t0 )) s)"
fi
cd build || exit 1

# the test programs, built even when `check` does not run them
make -j"$ncores" check TESTS= > "$OUT/build_tests.log" 2>&1 || say "building the test programs: FAILED"

if has check; then
    t0=$(date +%s)
    timeout 240 make -j8 check > "$OUT/check.log" 2>&1
    say "make check: $(grep -E '^# (PASS|FAIL|SKIP|ERROR):' "$OUT/check.log" | tr -s ' ' | tr '\n' ' ') ($(( $(date +%s) - t0 )) s)"
    grep -E '^(FAIL|ERROR|SKIP):' "$OUT/check.log" | tee -a "$summary"
    cp tests/*.log examples/*.log "$OUT/" 2>/dev/null
fi

if has conformance; then
    GRBGPU_TEST_DEVICE=cuda timeout 150 ./tests/test_conformance > "$OUT/conformance_cuda.log" 2>&1
    say "conformance on cuda: exit $? : $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/conformance_cuda.log" | tr '\n' ' ')"
    GRBGPU_TEST_DEVICE=cuda timeout 120 ./tests/test_allocator > "$OUT/allocator_cuda.log" 2>&1
    say "allocator on cuda: exit $? : $(grep -E '^\[  (PASSED|FAILED)  \]|^allocator: [0-9]' "$OUT/allocator_cuda.log" | tr '\n' ' ')"
fi

if has sanitizer; then
    for t in ${SANITIZE:-tests/test_cuda_backend}; do
        [ -x "$t" ] || continue
        GRBGPU_TEST_UNDER_SANITIZER=1 timeout 120 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 "$t" \
            > "$OUT/sanitizer_$(basename "$t").log" 2>&1
        say "compute-sanitizer $t: exit $? : $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer_$(basename "$t").log" | tail -1)"
    done
fi

if has overhead; then
    # what preloading grbgpu adds to a process start, and to a declined call
    timeout 60 ./bench/startup_bench "$PWD/.libs/libgrbgpu.so" 40 > "$OUT/startup_bench.log" 2>&1
    say "startup_bench: exit $?"
    grep -E "^[A-Za-z/]|median" "$OUT/startup_bench.log" | tee -a "$summary"
    timeout 60 ./bench/decline_overhead > "$OUT/decline_overhead.log" 2>&1
    say "decline_overhead: exit $? : $(grep -E 'overhead' "$OUT/decline_overhead.log" | tail -2 | tr '\n' ' ')"
fi

if has xfer; then
    timeout 120 ./bench/xfer_bench 512 > "$OUT/xfer_bench.log" 2>&1
    say "xfer_bench: exit $?"
    grep -E "^(dma|host .*16 thr|register|staged .* 4 x 16)" "$OUT/xfer_bench.log" | tee -a "$summary"
fi

if has kbench; then
    timeout ${KBENCH_TIMEOUT:-150} ./bench/kernels_bench --csv "$OUT/kernels_bench.csv" ${KBENCH_ARGS:-} > "$OUT/kernels_bench.log" 2>&1
    say "kernels_bench: exit $?"
fi

if has bench; then
    timeout ${SBENCH_TIMEOUT:-200} sh ../bench/run_bench.sh . "$OUT/bench" ${SBENCH_ARGS:-} > "$OUT/spmm_bench_run.log" 2>&1
    say "spmm_bench: exit $?"
fi

if has profile; then
    # where the time of a warm offloaded call goes (GRBGPU_VERBOSE=2 phases)
    for ex in "pagerank --scale 20 --iters 6" "gcn --epochs 2"; do
        GRBGPU_DEVICE=cuda GRBGPU_VERBOSE=2 GRBGPU_STATS=1 LD_PRELOAD=$PWD/.libs/libgrbgpu.so \
            timeout 120 ./examples/$ex > "$OUT/profile.log.tmp" 2>&1
        say "profile $ex: exit $?"
        grep -E "ms:|stats:" "$OUT/profile.log.tmp" | tail -6 | tee -a "$summary"
        cat "$OUT/profile.log.tmp" >> "$OUT/profile.log"
    done
    rm -f "$OUT/profile.log.tmp"
fi

if has e2e; then
    # the end-to-end rows alone (R-MAT 2^20), with the per-phase timings
    GRBGPU_VERBOSE=2 timeout ${E2E_TIMEOUT:-150} ./bench/spmm_bench --scales ${E2E_SCALES:-20} \
        --ns ${E2E_NS:-1,32,128} --real "" --no-sddmm --csv "$OUT/e2e.csv" > "$OUT/e2e.log" 2>&1
    say "e2e: exit $?"
    grep -E " (mxm|mxv|vxm) " "$OUT/e2e.log" | sed 's/ | / |\n    /g' | tee -a "$summary"
fi

if has tc; then
    # the tensor-core hybrid SpMM (kernels/tc_spmm): its test, then its benchmark
    timeout 150 ./tests/test_tc_spmm > "$OUT/test_tc_spmm.log" 2>&1
    say "test_tc_spmm: exit $? : $(grep -E 'checks,' "$OUT/test_tc_spmm.log" | tail -1)"
    grep -E '^FAIL' "$OUT/test_tc_spmm.log" | head -10 | tee -a "$summary"
    timeout ${TC_TIMEOUT:-240} ./bench/tc_bench --csv "$OUT/tc_bench.csv" ${TC_ARGS:-} > "$OUT/tc_bench.log" 2>&1
    say "tc_bench: exit $?"
fi

if has xpose; then
    # the CSR transpose built on the device (kernels/csr_transpose)
    timeout 120 ./tests/test_csr_transpose > "$OUT/test_csr_transpose.log" 2>&1
    say "test_csr_transpose: exit $? : $(tail -1 "$OUT/test_csr_transpose.log")"
    timeout 120 ./bench/transpose_bench > "$OUT/transpose_bench.log" 2>&1
    say "transpose_bench: exit $?"
    tail -12 "$OUT/transpose_bench.log" | tee -a "$summary"
fi

if has nm; then
    # dense x N:M (kernels/nm_spmm): the exact test (every element bit for bit
    # against the host's sum in the kernel's order, and against FP64), then
    # the benchmark against cuBLAS SGEMM on the issue's three shapes
    timeout 60 ./tests/test_nm_spmm > "$OUT/test_nm_spmm.log" 2>&1
    say "test_nm_spmm: exit $? : $(grep -E 'checks,' "$OUT/test_nm_spmm.log" | tail -1)"
    grep -E '^FAIL' "$OUT/test_nm_spmm.log" | head -10 | tee -a "$summary"
    timeout ${NM_TIMEOUT:-90} ./bench/nm_gpu_bench ${NM_ARGS:-} > "$OUT/nm_gpu_bench.log" 2>&1
    say "nm_gpu_bench: exit $?"
    grep -E 'SGEMM|nm ' "$OUT/nm_gpu_bench.log" | sed 's/; SGEMM this W.*vs cuBLAS/; vs cuBLAS/' | tee -a "$summary"
fi

if has demo; then
    timeout ${DEMO_TIMEOUT:-200} make demo > "$OUT/demo.log" 2>&1
    say "demo: exit $?"
fi

echo "================ logs: $OUT ================"
[ -f "$OUT/kernels_bench.log" ] && tail -30 "$OUT/kernels_bench.log"
[ -f "$OUT/bench/spmm_bench.log" ] && tail -40 "$OUT/bench/spmm_bench.log"
[ -f "$OUT/demo.log" ] && tail -12 "$OUT/demo.log"
[ -f "$OUT/tc_bench.log" ] && sed -n '/# TABLE/,$p' "$OUT/tc_bench.log" | head -60
echo "================ summary ================"
cat "$summary"
