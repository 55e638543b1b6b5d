#!/bin/sh
# bench/ncu_tc.sh: hardware counters of the tensor-core hybrid against the
# CUDA-core kernel and cuSPARSE on a few matrices (run on the GPU host, from
# the build directory, after bench/gpu_round.sh has built the tree).
#   sh ../bench/ncu_tc.sh OUTDIR [matrix.mtx.gz ...]
# One tc_bench pass per matrix (N = 128, one run of each variant), every
# kernel launch profiled with the SpeedOfLight, memory, occupancy and
# warp-state sections (clocks left alone); the raw report goes to
# OUTDIR/ncu_<matrix>.txt and one line per kernel to OUTDIR/ncu_summary.txt.
set -u
out=$1 ; shift
mkdir -p "$out"
for m in "$@"; do
    name=$(basename "$m" .mtx.gz)
    d=$(mktemp -d) ; cp "$m" "$d/"
    timeout 200 ncu --clock-control none --launch-count ${NCU_LAUNCHES:-60} \
        -k "regex:${NCU_KERNELS:-tc_spmm_kernel|tc_dmma|spmm_row|spmm_nnz|csrmm}" \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
        --section WarpStateStats --section LaunchStats \
        ./bench/tc_bench --scales "" --ns 128 --data "$d" --reps 1 --warmups 0 \
        --thresholds 3 --segs 16 ${NCU_ARGS:-} > "$out/ncu_$name.txt" 2>&1
    echo "ncu $name: exit $?" >> "$out/ncu_summary.txt"
    # kernel name, duration, DRAM and memory throughput, achieved occupancy
    awk -v M="$name" '
        /^  [A-Za-z_].*\(.*\)x\(.*\)/ { k = ($1 == "void") ? $2 : $1 }
        /Duration/ && k != "" { d = $NF; u = $(NF-1) }
        /^    Memory Throughput/ && k != "" { mt = $NF }
        /DRAM Throughput/ && k != "" { dr = $NF }
        /Achieved Occupancy/ && k != "" { printf "%s %-40.40s %s %s mem %s%% dram %s%% occ %s%%\n", M, k, d, u, mt, dr, $NF ; k = "" }
    ' "$out/ncu_$name.txt" >> "$out/ncu_summary.txt"
    rm -rf "$d"
done
