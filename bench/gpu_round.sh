#!/bin/sh
# bench/gpu_round.sh: one full round on the GPU host, in one command.
#
#   sh bench/gpu_round.sh            (from the repository root, on the GPU host)
#
# Expects .gpudeps/ (staged by ../shared/gpu/stage-deps.sh) and, optionally,
# .gpudata/ (a copy of ../shared/data/matrices) carried along.  Builds the
# whole tree with all cores, runs `make check` (the GPU tests run, not skip),
# the conformance suite on the GPU, compute-sanitizer on the GPU tests, the
# benchmarks and the demo; writes every log to a work folder, packs them into
# $OUT/logs.tar.gz with $OUT/summary.txt as it goes, and prints a short
# summary last.  Steps are selected with STEPS (default: all).
set -u
# What comes back is $OUT (the caller's; default ./gpu-out): summary.txt,
# refreshed at every line, and logs.tar.gz, every log so far, repacked at
# most every 20 s and at exit, so that a call cut at its time limit still
# returns what ran
# (a folder of many logs may come back as a count only).  The logs
# themselves are written to a work folder ($GPU_ROUND_LOGS, default a new
# one under /tmp).
DEST=${OUT:-$PWD/gpu-out}
OUT=${GPU_ROUND_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/gpu-round.XXXXXX")}
mkdir -p "$DEST"
STEPS=${STEPS:-build check conformance sanitizer overhead profile xfer kbench bench e2e ba tc reorder xpose xpose2 rules fam multi resident res2 sink chain mres nm lt nm2 demo}
mkdir -p "$OUT"
root=$PWD
summary="$OUT/summary.txt"
: > "$summary"
last_pack=0
pack () {
    cp "$summary" "$DEST/summary.txt" 2>/dev/null
    # the logs at most every 20 s (and at exit): a big round has ~100 lines
    now=$(date +%s)
    [ "${1:-}" = final ] || [ $((now - last_pack)) -ge 20 ] || return 0
    last_pack=$now
    tar -C "$OUT" --exclude='*.chk' -czf "$DEST/logs.tar.gz.part" . 2>/dev/null \
        && mv "$DEST/logs.tar.gz.part" "$DEST/logs.tar.gz"
}
say () { echo "$*" | tee -a "$summary" ; pack ; }
trap 'pack final' EXIT
has () { case " $STEPS " in *" $1 "*) return 0 ;; esac ; return 1 ; }

sh .gpudeps/install.sh > "$OUT/deps.log" 2>&1 || { cat "$OUT/deps.log"; exit 1; }
[ -d .gpudata ] && export GRBGPU_TEST_DATA="$root/.gpudata"
nvidia-smi -L | tee -a "$summary"
ncores=$(nproc)

# PageRank R-MAT 2^20, 20 iterations, --steps, under LD_PRELOAD: the CPU library
# (ranks saved), then the GPU with each GRBGPU_RESIDENT value given (ranks
# compared); per run the time per iteration and the check, the statistics
# (calls on the GPU, bytes, results kept / materialised), the top decline, and
# each step's ms and bytes up / down per iteration.  pagerank_ways TAG RES...
pagerank_ways () {
    tag=$1 ; shift
    pr="./examples/pagerank --scale 20 --itermax 20 --tol 1e-30 --steps"
    for res in cpu "$@"; do
        log="$OUT/${tag}_pagerank_$res.log"
        if [ "$res" = cpu ]; then
            env GRBGPU_DEVICE=cpu LD_PRELOAD="$PWD/.libs/libgrbgpu.so" timeout 40 \
                $pr --save "$OUT/${tag}_pagerank_ranks.chk" > "$log" 2>&1
        else
            env GRBGPU_DEVICE=cuda GRBGPU_RESIDENT=$res GRBGPU_STATS=1 LD_PRELOAD="$PWD/.libs/libgrbgpu.so" \
                timeout 40 $pr --compare "$OUT/${tag}_pagerank_ranks.chk" > "$log" 2>&1
        fi
        say "$tag pagerank RESIDENT=$res: exit $? : $(grep -E '^pagerank: [0-9]+ iterations' "$log" | tail -1) $(grep -E '^check:' "$log" | tail -1)"
        grep -o 'offloaded_cuda=[0-9]*\|h2d_bytes=[0-9]* d2h_bytes=[0-9]*\|resident_kept=[0-9]* materialised=[0-9]* resident_evicted=[0-9]*' "$log" \
            | tr '\n' ' ' | sed 's/^/    /' | tee -a "$summary" ; echo | tee -a "$summary"
        grep -o 'declined_by:.*' "$log" | head -1 | sed 's/^/    /' | tee -a "$summary"
        grep -E '^pagerank: step' "$log" | sed 's/^pagerank: step /    /; s/ per iteration (after the first)//' | tee -a "$summary"
    done
}

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

# the test programs, built even when `check` does not run them (unless
# NO_TEST_BUILD=1: a call that runs benches only)
[ "${NO_TEST_BUILD:-0}" = 1 ] || make -j"$ncores" check TESTS= > "$OUT/build_tests.log" 2>&1 \
    || say "building the test programs: FAILED"

if has check; then
    t0=$(date +%s)
    timeout 420 make -j8 check > "$OUT/check.log" 2>&1
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

if has ba; then
    # issue 12's before / after, one run: .before is the tree of the last commit before the
    # split (carried; `git archive b86c312`), built here with its own configure.  spmm_bench
    # (kernel rows against cuSPARSE's best, end-to-end warm / first call) before, after with
    # the static rule (GRBGPU_TUNE=0) and after with the chooser (=1); kernels_bench (the
    # CUDA-core kernels alone) before and after.  Tables: before_after.py, chooser_table.py.
    bb="$root/.before/build"
    if [ -d "$root/.before" ] && [ ! -x "$bb/bench/spmm_bench" ]; then
        t0=$(date +%s)
        (cd "$root/.before" && autoreconf -fi && mkdir -p build && cd build && ../configure -q \
            && make -j"$ncores" all bench/spmm_bench bench/kernels_bench) > "$OUT/ba_build.log" 2>&1
        say "ba: before tree built: exit $? ($(( $(date +%s) - t0 )) s)"
    fi
    ba_args="--scales ${BA_SCALES:-18,20} --ns ${BA_NS:-1,32,128} --no-sddmm ${BA_ARGS:-}"
    if [ -x "$bb/bench/spmm_bench" ]; then
        timeout ${BA_TIMEOUT:-150} "$bb/bench/spmm_bench" $ba_args --csv "$OUT/ba_before.csv" > "$OUT/ba_before.log" 2>&1
        say "ba spmm_bench before: exit $?"
    fi
    GRBGPU_TUNE=0 timeout ${BA_TIMEOUT:-150} ./bench/spmm_bench $ba_args --csv "$OUT/ba_static.csv" > "$OUT/ba_static.log" 2>&1
    say "ba spmm_bench after, GRBGPU_TUNE=0: exit $?"
    GRBGPU_TUNE=1 GRBGPU_VERBOSE=2 timeout ${BA_TIMEOUT:-150} ./bench/spmm_bench $ba_args --csv "$OUT/ba_tuned.csv" > "$OUT/ba_tuned.log" 2>&1
    say "ba spmm_bench after, GRBGPU_TUNE=1: exit $?"
    python3 ../bench/before_after.py "$OUT/ba_before.csv" "$OUT/ba_static.csv" > "$OUT/ba_table_static.txt" 2>&1
    python3 ../bench/before_after.py "$OUT/ba_before.csv" "$OUT/ba_tuned.csv" > "$OUT/ba_table_tuned.txt" 2>&1
    python3 ../bench/chooser_table.py "$OUT/ba_tuned.log" "$OUT/ba_tuned.csv" "$OUT/ba_static.csv" > "$OUT/chooser_table.txt" 2>&1
    if [ -z "${BA_NO_KBENCH:-}" ] && [ -x "$bb/bench/kernels_bench" ]; then
        kb_args="--scales ${BA_KSCALES:-20,22} --semirings 1 --reps 10 --csv"
        timeout 120 "$bb/bench/kernels_bench" $kb_args "$OUT/ba_kbench_before.csv" > "$OUT/ba_kbench_before.log" 2>&1
        say "ba kernels_bench before: exit $?"
        timeout 120 ./bench/kernels_bench $kb_args "$OUT/ba_kbench_after.csv" > "$OUT/ba_kbench_after.log" 2>&1
        say "ba kernels_bench after: exit $?"
        python3 ../bench/before_after.py "$OUT/ba_kbench_before.csv" "$OUT/ba_kbench_after.csv" > "$OUT/ba_table_kbench.txt" 2>&1
        tail -8 "$OUT/ba_table_kbench.txt" | tee -a "$summary"
    fi
    tail -12 "$OUT/ba_table_static.txt" | tee -a "$summary"
    grep -A12 '^geometric mean' "$OUT/chooser_table.txt" | tee -a "$summary"
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
    timeout ${TC_TIMEOUT:-240} ./bench/tc_bench --csv "$OUT/tc_bench.csv" ${TC_ARGS:---fp64} > "$OUT/tc_bench.log" 2>&1
    say "tc_bench: exit $?"
    grep -E "^# (FP64 geomean|geomean|GEOMEAN|REM)|wrong results" "$OUT/tc_bench.log" | tee -a "$summary"
fi

if has reorder; then
    # row reordering (reorder/): the hybrid of the RSH-permuted S, and what
    # the order alone buys cuSPARSE and our CUDA-core kernel (issue 15)
    timeout ${REORDER_TIMEOUT:-300} ./bench/tc_bench --reorder-only --scales ${REORDER_SCALES:-18,20} \
        --ns 32,128 --csv "$OUT/reorder_bench.csv" > "$OUT/reorder_bench.log" 2>&1
    say "tc_bench --reorder-only: exit $?"
    grep -E "^# REORDER|wrong results" "$OUT/reorder_bench.log" | tee -a "$summary"
fi

if has xpose; then
    # the CSR transpose built on the device (kernels/csr_transpose)
    timeout 120 ./tests/test_csr_transpose > "$OUT/test_csr_transpose.log" 2>&1
    say "test_csr_transpose: exit $? : $(tail -1 "$OUT/test_csr_transpose.log")"
    timeout 120 ./bench/transpose_bench > "$OUT/transpose_bench.log" 2>&1
    say "transpose_bench: exit $?"
    tail -12 "$OUT/transpose_bench.log" | tee -a "$summary"
fi

if has xpose2; then
    # GrB_vxm through the transpose made on the device (backend/cuda/form_csrt.c): the end-to-end
    # test against the CPU library (semirings, types, masks, versions, faults), then first / warm
    # vxm on R-MAT 2^20 against the CPU library (one line per type and semiring)
    timeout 60 ./tests/test_vxm_device > "$OUT/test_vxm_device.log" 2>&1
    say "test_vxm_device: exit $? : $(tail -1 "$OUT/test_vxm_device.log")"
    grep -E '^FAIL' "$OUT/test_vxm_device.log" | head -10 | tee -a "$summary"
    timeout 60 ./bench/vxm_bench --scale 20 --reps 5 > "$OUT/vxm_bench.log" 2>&1
    say "vxm_bench: exit $?"
    grep -E '^rmat|^# (all|FAILED)' "$OUT/vxm_bench.log" | tee -a "$summary"
    # the device transpose's allocations and kernels under memcheck (leaks too)
    timeout 45 compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
        ./tests/test_vxm_device > "$OUT/sanitizer_test_vxm_device.log" 2>&1
    say "compute-sanitizer test_vxm_device: exit $? : $(grep -E 'ERROR SUMMARY' "$OUT/sanitizer_test_vxm_device.log" | tail -1)"
fi

if has rules; then
    # the constants of the static rules (backend/cuda/choose.c) measured: each rule's families
    # forced over a sweep of synthetic matrices; one line per rule: the constant in the code and
    # the measured crossover (the sweep's lines are in the log)
    timeout 120 ./bench/rules_bench --reps 7 > "$OUT/rules_bench.log" 2>&1
    say "rules_bench: exit $?"
    grep -E '^rule |^# (all|FAILED)|WRONG' "$OUT/rules_bench.log" | tee -a "$summary"
fi

if has fam; then
    # the family tables (backend/cuda/family.h, spmm.c, dense.c): every SpMM / SDDMM / GEMM row
    # forced, and the chooser's tuned paths, against references (test_cuda_backend)
    timeout 120 ./tests/test_cuda_backend > "$OUT/fam_test_cuda_backend.log" 2>&1
    say "fam test_cuda_backend: exit $? : $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/fam_test_cuda_backend.log" | tr '\n' ' ')"
    grep -E '^\[  FAILED  \]|wrong' "$OUT/fam_test_cuda_backend.log" | head -10 | tee -a "$summary"
    # the cuSPARSE algorithm rows: the backend's kernel time against cuSPARSE's best algorithm
    # (spmm_bench, same run) with the chooser off (GRBGPU_TUNE=0: the static rule, one algorithm
    # per N) and on (every supporting row timed, cusparse_alg1..3 included); one line per case:
    # matrix type N, backend ms, cuSPARSE best ms, the ratio (> 1: the backend is faster)
    for tune in 0 1; do
        GRBGPU_TUNE=$tune GRBGPU_VERBOSE=2 timeout 60 ./bench/spmm_bench --scales 18 --ns 32,128 \
            --real "${FAM_REAL:-bayer10,amazon_photo,musae_facebook}" --no-e2e --no-sddmm \
            --csv "$OUT/fam_spmm_tune$tune.csv" > "$OUT/fam_spmm_tune$tune.log" 2>&1
        say "fam spmm_bench GRBGPU_TUNE=$tune: exit $?"
        grep -E ' N=[0-9]+ +kernel ' "$OUT/fam_spmm_tune$tune.log" \
            | sed -E 's/^([^ ]+) +(fp[0-9]+) +N=([0-9]+) +kernel +([0-9.]+) ms.*cusparse\(alg +[0-9]+\) +([0-9.]+) ms +(x[0-9.]+).*/  tune='"$tune"' \1 \2 N=\3 backend \4 ms cusparse best \5 ms \6/' \
            | tee -a "$summary"
    done
    grep -E 'tuned spmm' "$OUT/fam_spmm_tune1.log" | sed -E 's/.*n=([0-9]+): (.*)/  tuned n=\1: \2/' | head -12 | tee -a "$summary"
    # vxm on R-MAT 2^20: first call and warm against the CPU library (the transposed CSR is still
    # built on the host: the baseline for the device transpose)
    timeout 90 ./bench/spmm_bench --scales 20 --ns 1 --real "" --no-sddmm \
        --csv "$OUT/fam_vxm.csv" > "$OUT/fam_vxm.log" 2>&1
    say "fam vxm spmm_bench: exit $?"
    grep -E ' vxm ' "$OUT/fam_vxm.log" | sed 's/ | / |\n    /g' | tee -a "$summary"
fi

# The split path's checks (steps multi and multi2).  split_conformance TAG
# DEVICES FAKE LABEL: the conformance suite with every product split over
# DEVICES (FAKE: GRBGPU_TEST_FAKE_DEVICES); split_tests TAG LABEL: the split
# test, then its slot failures under compute-sanitizer; split_bench TAG LABEL
# TIMEOUT ARGS: spmm_bench's split rows.
split_conformance () {
    GRBGPU_DEVICES=$2 GRBGPU_TEST_FAKE_DEVICES=$3 GRBGPU_STATS=1 GRBGPU_TEST_DEVICE=cuda \
        GRBGPU_TEST_FILTER="${MULTI_FILTER:-}" \
        timeout ${MULTI_CONF_TIMEOUT:-60} ./tests/test_conformance > "$OUT/conformance_$1.log" 2>&1
    say "$1 conformance (cuda, DEVICES=$2, $4): exit $? : $(grep -E '^\[  (PASSED|FAILED)  \]' "$OUT/conformance_$1.log" | tr '\n' ' ')$(grep -oE 'offloaded_cuda=[0-9]+|fallbacks=[0-9]+|split=[0-9]+|split_workers=[0-9]+' "$OUT/conformance_$1.log" | tr '\n' ' ')"
}
split_tests () {
    timeout 90 ./tests/test_multi_cuda > "$OUT/test_$1_cuda.log" 2>&1
    say "test_multi_cuda ($2): exit $? : $(grep -E 'checks,|slot fails|^workers:|^fake devices|^sddmm ' "$OUT/test_$1_cuda.log" | tr '\n' ' ')"
    grep -E '^FAIL|FAILED' "$OUT/test_$1_cuda.log" | head -10 | tee -a "$summary"
    GRBGPU_TEST_FILTER='test_*slot_fails' timeout 60 compute-sanitizer --tool memcheck \
        --leak-check full --error-exitcode 9 ./tests/test_multi_cuda > "$OUT/test_$1_sanitizer.log" 2>&1
    say "test_multi_cuda slot failures under compute-sanitizer ($2): exit $? : $(grep -E 'ERROR SUMMARY|slot fails' "$OUT/test_$1_sanitizer.log" | tr '\n' ' ')"
}
split_bench () {
    tag=$1 ; label=$2 ; limit=$3 ; shift 3
    timeout "$limit" ./bench/spmm_bench "$@" --real "" --csv "$OUT/${tag}_bench.csv" > "$OUT/${tag}_bench.log" 2>&1
    say "$label: exit $?"
    grep -E '^split ' "$OUT/${tag}_bench.log" | tee -a "$summary"
}

if has multi; then
    # GRBGPU_DEVICES (issue 18) on one GPU: 0,0 is two slots on the same device,
    # so these rows check the split path and measure its overhead, not scaling.
    # The conformance suite with every product split (MULTI_FILTER narrows it), by
    # default over 0,1 with device 1 pretended on this GPU (GRBGPU_TEST_FAKE_DEVICES):
    # slot 1's forms recorded and freed on "device 1", X copied to it or uploaded
    # (MULTI_DEVICES=0,0 gives the run of before).  The split test: products on
    # 2 and 3 slots, cache, faults, second slot failing, workers reused
    # (split_workers), a failure mid-stream, and slots on pretended devices (the
    # test hook: 0,1 and all over this one GPU; X copied or uploaded, then kept);
    # SDDMM split over 2, 3, 4 slots ("sddmm LIST: N cases, S split"), its
    # second slot failing (pool before / after), and the failures under
    # compute-sanitizer (leaks, bad accesses)
    split_conformance multi "${MULTI_DEVICES:-0,1}" 2 "device 1 pretended"
    split_tests multi "one GPU"
    split_bench multi "multi bench (R-MAT 2^${MULTI_SCALES:-22}, 1 slot vs 0,0 on one GPU, persistent workers)" \
        ${MULTI_BENCH_TIMEOUT:-70} --split 0,0 --scales ${MULTI_SCALES:-22} --ns 128,1
    # slot 1 on a pretended device 1 (this GPU): X copied from the main device
    # once and kept there, the slot's forms recorded on device 1
    split_bench multi_fake "multi bench (R-MAT 2^20, 1 slot vs 0,1 with device 1 pretended on this GPU)" \
        30 --split 0,1 --fake-devices 2 --scales 20 --ns 128,1
    # SDDMM split: C<A, structural> = L * R' (L, R full FP32, K = 64), 1 slot vs
    # 0,0 on this GPU (overhead of splitting, not scaling), checked against the
    # CPU library ("split ... sddmm ... ok")
    split_bench multi_sddmm "multi sddmm bench (R-MAT 2^${MULTI_SDDMM_SCALES:-20}, K=64, 1 slot vs 0,0 on one GPU)" \
        60 --split 0,0 --split-sddmm --scales ${MULTI_SDDMM_SCALES:-20} --ns 64
fi

if has multi2; then
    # GRBGPU_DEVICES over two real GPUs of one host (issue 18): how they are
    # linked; the conformance suite with every product split over 0,1; the
    # split tests (on a two-GPU host "device 1" is real) and the slot
    # failures under compute-sanitizer; then one GPU against two on R-MAT
    # 2^22: SpMM FP32 N=128 and 32, SpMV, and the SDDMM (K=64); one GPU
    # with residency off against two at N=128; the cut with rows weighed
    # (GRBGPU_SPLIT_ROW_WEIGHT).  MULTI2_PARTS picks the parts.
    parts=" ${MULTI2_PARTS:-conf tests bench sddmm resoff weight} "
    part () { case "$parts" in *" $1 "*) return 0 ;; esac ; return 1 ; }
    nvidia-smi topo -m > "$OUT/topo.log" 2>&1
    say "topology: $(grep -E '^GPU[01]' "$OUT/topo.log" | tr -s ' \t' ' ' | tr '\n' ';')"
    part conf && split_conformance multi2 0,1 0 "two GPUs"
    part tests && split_tests multi2 "two GPUs"
    part bench && split_bench multi2 "multi2 bench (R-MAT 2^${MULTI_SCALES:-22}, 1 GPU vs 0,1 = two GPUs)" \
        ${MULTI_BENCH_TIMEOUT:-150} --split 0,1 --scales ${MULTI_SCALES:-22} --ns 128,32,1
    if part resoff; then
        export GRBGPU_RESIDENT=0
        split_bench multi2_resoff "multi2 bench, residency off (R-MAT 2^${MULTI_SCALES:-22}, 1 GPU vs two)" \
            90 --split 0,1 --scales ${MULTI_SCALES:-22} --ns 128
        unset GRBGPU_RESIDENT
    fi
    # the cut weighing each row of Y as MULTI2_ROW_WEIGHT entries (its
    # download; docs/SCALING.md predicts ~35 ms warm at N=128 with ~70)
    if part weight; then
        export GRBGPU_SPLIT_ROW_WEIGHT=${MULTI2_ROW_WEIGHT:-70}
        split_bench multi2_weight "multi2 bench, rows weighed $GRBGPU_SPLIT_ROW_WEIGHT (R-MAT 2^${MULTI_SCALES:-22}, 1 GPU vs two)" \
            120 --split 0,1 --scales ${MULTI_SCALES:-22} --ns 128,32
        unset GRBGPU_SPLIT_ROW_WEIGHT
    fi
    part sddmm && split_bench multi2_sddmm "multi2 sddmm bench (R-MAT 2^${MULTI_SCALES:-22}, K=64, 1 GPU vs two)" \
        120 --split 0,1 --split-sddmm --scales ${MULTI_SCALES:-22} --ns 64
fi

if has floor; then
    # the launch floor, dependent loads, row gathers and HBM's read rate
    # (bench/floor_bench.cu, built here by hand): what bounds a speedup
    nvcc -O3 -std=c++17 -gencode=arch=compute_90,code=sm_90 -I.. ../bench/floor_bench.cu \
        -o floor_bench > "$OUT/floor_build.log" 2>&1 \
        && timeout 60 ./floor_bench > "$OUT/floor_bench.log" 2>&1
    say "floor_bench: exit $?"
    cat "$OUT/floor_bench.log" | tee -a "$summary"
fi

if has peer; then
    # X to the second GPU: peer to peer against uploads from the host (issue
    # 18's item 2), bench/peer_bench.cu, built here by hand
    nvcc -O2 -std=c++17 ../bench/peer_bench.cu -o peer_bench > "$OUT/peer_build.log" 2>&1 \
        && timeout 60 ./peer_bench > "$OUT/peer_bench.log" 2>&1
    say "peer_bench: exit $?"
    cat "$OUT/peer_bench.log" | tee -a "$summary"
fi

if has big; then
    # a product larger than one GPU (issue 18): R-MAT 2^25 (about 500M
    # entries) times X of N=320 columns: X and Y 42.9 GB each, with S about
    # 90 GB, more than one GPU holds (80 GB); split over two GPUs each holds
    # S/2 + X + Y/2, about 67 GB.  The split row only, checked by 16 blocks of
    # rows against the CPU library; the static rule (no tuning).
    GRBGPU_TUNE=0 GRBGPU_STATS=1 GRBGPU_VERBOSE=1 timeout ${BIG_TIMEOUT:-420} ./bench/spmm_bench --split 0,1 --split-only \
        --split-reps 2 --scales ${BIG_SCALE:-25} --ns ${BIG_N:-320} --real "" --csv "$OUT/big_bench.csv" \
        > "$OUT/big_bench.log" 2>&1
    say "big (R-MAT 2^${BIG_SCALE:-25}, N=${BIG_N:-320}, split over 0,1): exit $?"
    grep -E '^split |^# ' "$OUT/big_bench.log" | tee -a "$summary"
    tail -5 "$OUT/big_bench.log" | tee -a "$summary"
fi

if has resident; then
    # results kept on the device (backend/resident/): the residency tests on
    # the GPU, then PageRank (R-MAT 2^20) with GRBGPU_RESIDENT=1 and =0 and the
    # CPU library, times per iteration as the example prints them
    GRBGPU_TEST_DEVICE=cuda timeout 120 ./tests/test_resident > "$OUT/test_resident.log" 2>&1
    say "test_resident (cuda): exit $? : $(grep -E 'PASSED|FAILED|skipped' "$OUT/test_resident.log" | tail -1)"
    for res in 1 0 cpu; do
        if [ "$res" = cpu ]; then
            env GRBGPU_DEVICE=cpu LD_PRELOAD="$PWD/.libs/libgrbgpu.so" timeout 60 \
                ./examples/pagerank --scale 20 --iters 20 > "$OUT/pagerank_resident_$res.log" 2>&1
        else
            env GRBGPU_DEVICE=cuda GRBGPU_RESIDENT=$res GRBGPU_STATS=1 LD_PRELOAD="$PWD/.libs/libgrbgpu.so" \
                timeout 60 ./examples/pagerank --scale 20 --iters 20 > "$OUT/pagerank_resident_$res.log" 2>&1
        fi
        say "pagerank RESIDENT=$res: exit $? : $(grep -E 'iterations' "$OUT/pagerank_resident_$res.log" | tail -1)"
        grep -o 'resident_kept=[0-9]* materialised=[0-9]* resident_evicted=[0-9]*' \
            "$OUT/pagerank_resident_$res.log" | sed 's/^/    /' | tee -a "$summary"
    done
fi

if has res2; then
    # dense vector operations on resident vectors (kernels/vec_ops/,
    # backend/dispatch/vec_dispatch.c): their tests on the GPU, then the whole
    # PageRank iteration (R-MAT 2^20, 20 iterations with the rdiff chain:
    # --tol 1e-30 never converges) on the CPU library (its ranks saved), with
    # GRBGPU_RESIDENT=1 and =0 (ranks compared); per line: time per
    # iteration, calls on the GPU, results kept / materialised, top declines
    GRBGPU_TEST_DEVICE=cuda timeout 60 ./tests/test_vec_ops > "$OUT/test_vec_ops.log" 2>&1
    say "test_vec_ops (cuda): exit $? : $(grep -E 'PASSED|FAILED|skipped' "$OUT/test_vec_ops.log" | tail -1)"
    grep -E 'pagerank chain|ERROR' "$OUT/test_vec_ops.log" | head -5 | sed 's/^/    /' | tee -a "$summary"
    GRBGPU_TEST_DEVICE=cuda timeout 60 ./tests/test_resident > "$OUT/test_resident_res2.log" 2>&1
    say "test_resident (cuda): exit $? : $(grep -E 'PASSED|FAILED|skipped' "$OUT/test_resident_res2.log" | tail -1)"
    pagerank_ways res2 1 0
fi

if has sink; then
    # resident vectors on a pattern (backend/dispatch/vec_pattern.c: t .* sink
    # stays on the device, its sum runs there): 1. tests/test_vec_pattern on
    # the GPU (its "sink iteration" lines: bytes up / down per t .* sink +
    # sum, expected 0 up after the first and at most 8 down), then
    # test_vec_ops and test_resident (the gather path it replaced, reduce);
    # 2. compute-sanitizer memcheck on test_vec_pattern; 3. PageRank R-MAT
    # 2^20, 20 iterations, --steps: the CPU library (ranks saved), then
    # GRBGPU_RESIDENT=1 (ranks compared); per run: time per iteration, the
    # check, and each step's ms and bytes up / down per iteration (the sink
    # step should show about 4 bytes down: no download of t)
    GRBGPU_TEST_DEVICE=cuda timeout 60 ./tests/test_vec_pattern > "$OUT/sink_test_vec_pattern.log" 2>&1
    say "sink test_vec_pattern (cuda): exit $? : $(grep -E 'PASSED|FAILED|skipped' "$OUT/sink_test_vec_pattern.log" | tail -1)"
    grep -E 'sink iteration|sink sequence|cases:|eviction:|ERROR|LINE' "$OUT/sink_test_vec_pattern.log" | head -8 \
        | sed 's/^ */    /' | tee -a "$summary"
    for t in test_vec_ops test_resident; do
        GRBGPU_TEST_DEVICE=cuda timeout 60 ./tests/$t > "$OUT/sink_$t.log" 2>&1
        say "sink $t (cuda): exit $? : $(grep -E 'PASSED|FAILED|skipped' "$OUT/sink_$t.log" | tail -1)"
    done
    GRBGPU_TEST_DEVICE=cuda GRBGPU_TEST_UNDER_SANITIZER=1 timeout 120 compute-sanitizer --tool memcheck \
        --leak-check full --error-exitcode 9 ./tests/test_vec_pattern > "$OUT/sink_sanitizer.log" 2>&1
    say "sink compute-sanitizer test_vec_pattern: exit $? : $(grep -E 'ERROR SUMMARY' "$OUT/sink_sanitizer.log" | tail -1)"
    pagerank_ways sink 0 1
fi

if has mres; then
    # dense element-wise operations on resident matrices (backend/dispatch/
    # vec_dispatch.c, the vectors' path): 1. tests/test_mat_ops on the GPU
    # (its "chain pass" lines: calls on the device, results kept and
    # materialised per mxm -> apply -> eWiseMult -> mxm pass, expected 5, 5
    # (6 the first), 0; "with faults": fallbacks taken); 2. compute-sanitizer
    # memcheck on it (fewer sizes: GRBGPU_TEST_UNDER_SANITIZER); 3. GCN,
    # 100000 nodes, 10 epochs: the CPU library (results saved), then
    # GRBGPU_RESIDENT=0 and 1 (compared); per run the summary and the check, every
    # epoch's seconds, and for the GPU run the statistics (calls on the GPU,
    # bytes up / down, results kept / materialised) and what each
    # materialisation was for (count, reason)
    GRBGPU_TEST_DEVICE=cuda timeout 60 ./tests/test_mat_ops > "$OUT/mres_test_mat_ops.log" 2>&1
    say "mres test_mat_ops (cuda): exit $? : $(grep -E 'PASSED|FAILED|skipped' "$OUT/mres_test_mat_ops.log" | tail -1)"
    grep -E 'chain pass|with faults|ERROR' "$OUT/mres_test_mat_ops.log" | head -8 | sed 's/^ */    /' | tee -a "$summary"
    GRBGPU_TEST_DEVICE=cuda GRBGPU_TEST_UNDER_SANITIZER=1 timeout 120 compute-sanitizer --tool memcheck \
        --leak-check full --error-exitcode 9 ./tests/test_mat_ops > "$OUT/mres_sanitizer.log" 2>&1
    say "mres compute-sanitizer test_mat_ops: exit $? : $(grep -E 'ERROR SUMMARY' "$OUT/mres_sanitizer.log" | tail -1)"
    gcn="./examples/gcn --nodes 100000 --epochs 10"
    for res in cpu 0 1; do
        log="$OUT/mres_gcn_$res.log"
        if [ "$res" = cpu ]; then
            env GRBGPU_DEVICE=cpu LD_PRELOAD="$PWD/.libs/libgrbgpu.so" timeout 60 \
                $gcn --save "$OUT/mres_gcn.chk" > "$log" 2>&1
        else
            env GRBGPU_DEVICE=cuda GRBGPU_RESIDENT=$res GRBGPU_STATS=1 GRBGPU_VERBOSE=1 \
                LD_PRELOAD="$PWD/.libs/libgrbgpu.so" timeout 60 $gcn --compare "$OUT/mres_gcn.chk" > "$log" 2>&1
        fi
        say "mres gcn RESIDENT=$res: exit $? : $(grep -E '^gcn: [0-9]+ epochs' "$log" | tail -1) $(grep -E '^check: (PASS|FAIL)' "$log" | tail -1)"
        echo "    epoch s: $(grep -E '^epoch ' "$log" | awk '{ printf "%s ", $(NF-1) }')" | tee -a "$summary"
        [ "$res" = cpu ] && continue
        grep -o 'offloaded_cuda=[0-9]*\|h2d_bytes=[0-9]* d2h_bytes=[0-9]*\|resident_kept=[0-9]* materialised=[0-9]*' "$log" \
            | tr '\n' ' ' | sed 's/^/    /' | tee -a "$summary" ; echo | tee -a "$summary"
        grep -o 'resident: materialised .* for .*' "$log" | sed 's/.* for //' | sort | uniq -c | sort -rn \
            | head -6 | sed 's/^ */    materialised /' | tee -a "$summary"
    done
fi

if has nm; then
    # dense x N:M (kernels/nm_spmm): the exact test (every element bit for bit
    # against the host's sum in the kernel's order, and against FP64), then
    # the benchmark against cuBLAS SGEMM on the issue's three shapes
    if [ "${NM_TEST:-1}" = 1 ]; then
        timeout 150 ./tests/test_nm_spmm > "$OUT/test_nm_spmm.log" 2>&1
        say "test_nm_spmm: exit $? : $(grep -E 'checks,' "$OUT/test_nm_spmm.log" | tail -1)"
        grep -E '^FAIL' "$OUT/test_nm_spmm.log" | head -10 | tee -a "$summary"
    fi
    timeout ${NM_TIMEOUT:-90} ./bench/nm_gpu_bench ${NM_ARGS:-} > "$OUT/nm_gpu_bench.log" 2>&1
    say "nm_gpu_bench: exit $?"
    grep -E 'SGEMM|nm ' "$OUT/nm_gpu_bench.log" | sed 's/; SGEMM this W.*vs cuBLAS/; vs cuBLAS/' | tee -a "$summary"
fi

if has gcnr; then
    # issue 15: the GCN loop (examples/gcn) on reordered rows: the CPU library
    # (saves), then the GPU with GRBGPU_REORDER=0, auto and 1 (the chooser may take
    # the rows lenr / tc3r) and with GRBGPU_KERNEL=lenr (every SpMM the row
    # takes on S's rows ordered by length), each compared with the CPU's
    # outputs; per run the time per epoch and the SpMM rows that ran
    gcn="./examples/gcn --epochs ${GCNR_EPOCHS:-10} ${GCNR_GRAPH:-}"
    for mode in cpu r0 rauto r1 lenr; do
        log="$OUT/gcnr_$mode.log"
        case $mode in
            cpu)  env GRBGPU_DEVICE=cpu LD_PRELOAD="$PWD/.libs/libgrbgpu.so" timeout 120 \
                      $gcn --save "$OUT/gcnr.chk" > "$log" 2>&1 ;;
            r*)   env GRBGPU_DEVICE=cuda GRBGPU_REORDER=${mode#r} GRBGPU_VERBOSE=2 LD_PRELOAD="$PWD/.libs/libgrbgpu.so" \
                      timeout 120 $gcn --compare "$OUT/gcnr.chk" > "$log" 2>&1 ;;
            lenr) env GRBGPU_DEVICE=cuda GRBGPU_KERNEL=lenr GRBGPU_VERBOSE=2 LD_PRELOAD="$PWD/.libs/libgrbgpu.so" \
                      timeout 120 $gcn --compare "$OUT/gcnr.chk" > "$log" 2>&1 ;;
        esac
        # (per_step_s: the epochs after the first; the first holds the tuning)
        say "gcnr $mode: exit $? : $(grep -oE 'per_step_s=[0-9.]+ first_s=[0-9.]+' "$log" | tail -1) $(grep -E '^check: (PASS|FAIL)' "$log" | tail -1)"
        [ "$mode" = cpu ] && continue
        say "  rows: $(grep -oE 'cuda: spmm [0-9]+x[0-9]+ n=[0-9]+: [a-z0-9_]+' "$log" | sed 's/.*: //' | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
        grep -E 'rows ordered by length|tuned spmm' "$log" | head -4 | sed 's/^/  /' | tee -a "$summary"
    done
fi

if has nmncu; then
    # hardware counters of the N:M tensor-core kernel's rule launch (exact)
    # on one cell (default the batch-256 4:32 one): where its time goes
    # (issue, stalls, L2 and shared-memory throughput)
    env NM_BENCH_ONLY=${NMNCU_PAT:-4:32} timeout 240 ncu --clock-control none --launch-count 1 \
        -k "regex:${NMNCU_KERNEL:-nm_tc_kernel2}" --section SpeedOfLight --section ComputeWorkloadAnalysis \
        --section InstructionStats --section WarpStateStats --section MemoryWorkloadAnalysis \
        --section Occupancy --section SchedulerStats --section LaunchStats \
        ./bench/nm_gpu_bench ${NMNCU_SHAPE:-256 4096 16384} > "$OUT/nm_ncu.log" 2>&1
    say "ncu nm_gpu_bench ${NMNCU_PAT:-4:32}: exit $?"
    grep -E '^  [a-z_ ]*nm_tc|Duration|Throughput|Issue Slots Busy|Issued Ipc|Executed Ipc|No Eligible|Warp Cycles Per Issued|Stall|Achieved Occupancy|Registers Per|Pipe|Theoretical Occupancy|Eligible Warps|Active Warps' "$OUT/nm_ncu.log" \
        | head -60 | tee -a "$summary"
fi

if has lt; then
    # cuSPARSELt (2:4 fp16 / bf16, 1:2 tf32) against dense cuBLAS on the N:M
    # shapes: a lower-precision reference for issue 16, built here against
    # the cuSPARSELt the image carries in a Python package (none: skipped)
    h=$(find / -name cusparseLt.h -path '*site-packages*' 2>/dev/null | head -1)
    if [ -n "$h" ]; then
        lt=$(dirname "$(dirname "$h")")
        lib=$(ls "$lt/lib" | grep -m1 '^libcusparseLt\.so')
        nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -I"$lt/include" \
            bench/cusparselt_bench.cu -o build/cusparselt_bench -L"$lt/lib" -l:"$lib" \
            -lcublas -Xlinker -rpath="$lt/lib" > "$OUT/cusparselt_build.log" 2>&1 \
            && timeout 120 ./build/cusparselt_bench > "$OUT/cusparselt.log" 2>&1
        say "cusparselt_bench: exit $?"
        grep -E 'cuSPARSELt|SGEMM' "$OUT/cusparselt.log" | tee -a "$summary"
    else
        say "cusparselt_bench: no cuSPARSELt on this machine"
    fi
fi

if has chain; then
    # a chain of 10 GrB_mxm at N=128 on R-MAT 2^20 (+ I, rows scaled), each
    # output the next input (bench/chain_bench.c, 4 chains, the first paying
    # A's conversion): the CPU library (result saved), then the GPU with
    # GRBGPU_RESIDENT=0 and =1 (compared); per run the median ms per product
    # and the final read; for =1 also each product's device time as the
    # dispatcher logs it ("compute", GRBGPU_VERBOSE=2): the kernel time a
    # product would cost with nothing crossing PCIe
    cb="./bench/chain_bench --scale 20 --n 128 --chain 10 --reps 4"
    for res in cpu 0 1; do
        log="$OUT/chain_$res.log"
        if [ "$res" = cpu ]; then
            env GRBGPU_DEVICE=cpu LD_PRELOAD="$PWD/.libs/libgrbgpu.so" timeout 120 $cb --save "$OUT/chain.chk" > "$log" 2>&1
        else
            env GRBGPU_DEVICE=cuda GRBGPU_RESIDENT=$res GRBGPU_STATS=1 GRBGPU_VERBOSE=2 \
                LD_PRELOAD="$PWD/.libs/libgrbgpu.so" timeout 120 $cb --compare "$OUT/chain.chk" > "$log" 2>&1
        fi
        say "chain RESIDENT=$res: exit $? : $(grep -E '^summary:' "$log" | sed 's/summary: example=chain_bench step=product //') $(grep -E '^check:' "$log" | tail -1)"
        grep -o 'h2d_bytes=[0-9]* d2h_bytes=[0-9]*\|resident_kept=[0-9]* materialised=[0-9]*' "$log" \
            | tr '\n' ' ' | sed 's/^/    /' | tee -a "$summary" ; echo | tee -a "$summary"
        [ "$res" = cpu ] || grep -oE 'spmm 1048576x1048576x128 .* compute [0-9.]+' "$log" | sed 's/.* compute //' \
            | sort -n | awk '{ a [NR] = $1 } END { if (NR) printf "    device time per product (dispatcher): median %.3f ms, min %.3f, max %.3f over %d\n", a [int ((NR + 1) / 2)], a [1], a [NR], NR }' \
            | tee -a "$summary"
    done
fi

if has nm2; then
    # dense x N:M through GraphBLAS (the "nm" SpMM row, backend/cuda/family_nm.c):
    # 1. its backend test (forced on 2:4 / 1:4 / 1:8, FP32 / FP64, near-miss refused; tuned:
    #    the winner the chooser measured for each pair and type, "call 1" being the remembered one)
    GRBGPU_TEST_FILTER='test_nm_family' timeout 60 ./tests/test_cuda_backend > "$OUT/nm2_cuda_backend.log" 2>&1
    say "nm2 test_cuda_backend test_nm_family: exit $? : $(grep -E '^\[  (PASSED|FAILED)  \] [0-9]+ test' "$OUT/nm2_cuda_backend.log" | tr '\n' ' ')"
    grep -E 'nm [0-9]+:[0-9]+ (tuned|type)|wrong' "$OUT/nm2_cuda_backend.log" | head -16 | tee -a "$summary"
    # 2. conformance, dense x N:M group and the special values, the row forced, against the CPU library
    for f in nm nonfinite_kernel/nm; do
        log="$OUT/nm2_conformance_$(echo "$f" | tr / _).log"
        GRBGPU_KERNEL=nm GRBGPU_TEST_DEVICE=cuda GRBGPU_TEST_FILTER="$f/*" timeout 40 ./tests/test_conformance \
            > "$log" 2>&1
        say "nm2 conformance '$f/*' on cuda: exit $? : $(grep -E '^\[  (PASSED|FAILED)  \] [0-9]+ test' "$log" | tr '\n' ' ')"
        grep -E '^\[  FAILED  \] [a-z]' "$log" | sort -u | head -5 | tee -a "$summary"
    done
    # 3. the pruned MLP (examples/mlp): CPU library (saves), then grbgpu on the GPU with the chooser
    #    (GRBGPU_TUNE) and with GRBGPU_KERNEL=nm / nmtc (nmtc takes the vector-wise model only; the
    #    others decline to the other rows), each compared with the CPU's outputs; per model the
    #    seconds per forward pass (mean after the first, which pays conversion and tuning), and
    #    which SpMM rows ran (GRBGPU_VERBOSE=2 "cuda: spmm ... : ROW" lines, counted)
    mlp_args=${NM2_MLP_ARGS:-"--batch 1024 --width 2048 --layers 3 --reps 4"}
    timeout 60 ./examples/mlp $mlp_args --save "$OUT/nm2_mlp.chk" > "$OUT/nm2_mlp_cpu.log" 2>&1
    say "nm2 mlp cpu ($mlp_args): exit $? : $(grep -E '^mlp: (dense|2:4|1:4|8:32v)' "$OUT/nm2_mlp_cpu.log" | sed 's/^mlp: *//; s/ s per forward (first \([0-9.]*\) s), \([0-9.]*\) GFLOP.*/ s per forward (first \1 s, \2 GFLOP\/s)/' | tr '\n' ';')"
    for mode in tuned nm nmtc; do
        kern=""; [ "$mode" != tuned ] && kern=$mode
        env LD_PRELOAD="$PWD/.libs/libgrbgpu.so" GRBGPU_DEVICE=cuda GRBGPU_KERNEL="$kern" GRBGPU_VERBOSE=2 \
            GRBGPU_STATS=1 timeout 40 ./examples/mlp $mlp_args --compare "$OUT/nm2_mlp.chk" \
            > "$OUT/nm2_mlp_$mode.log" 2>&1
        say "nm2 mlp cuda $mode: exit $? : $(grep -E '^mlp: (dense|2:4|1:4|8:32v)' "$OUT/nm2_mlp_$mode.log" | sed 's/^mlp: *//; s/ s per forward (first \([0-9.]*\) s), \([0-9.]*\) GFLOP.*/ s per forward (first \1 s, \2 GFLOP\/s)/' | tr '\n' ';') $(grep -E '^check: (PASS|FAIL)' "$OUT/nm2_mlp_$mode.log")"
        say "  rows: $(grep -oE 'cuda: spmm [0-9]+x[0-9]+ n=[0-9]+: [a-z0-9_]+' "$OUT/nm2_mlp_$mode.log" | sort | uniq -c | tr -s ' ' | tr '\n' ';')"
        grep -E 'N:M form|tuned spmm' "$OUT/nm2_mlp_$mode.log" | head -6 | sed 's/^/  /' | tee -a "$summary"
    done
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
