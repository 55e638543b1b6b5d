#!/bin/sh
# bench/ncu_sddmm.sh: hardware counters of the SDDMM kernels (our group and
# batch schedules, cuSPARSE's) next to the SpMM kernels on the same matrix
# at N = K (run on the GPU host from the build directory, after the tree is
# built; clocks left alone).
#   sh ../bench/ncu_sddmm.sh OUTDIR [scale] [K]
# One spmm_bench pass each (R-MAT 2^scale, FP32 and FP64, one timed run per
# variant); CSV of the metrics below per kernel launch in OUTDIR/ncu_*.csv.
set -u
out=$1 ; scale=${2:-20} ; K=${3:-128}
mkdir -p "$out"
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,l1tex__t_sector_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,lts__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_active,sm__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active
timeout ${NCU_TIMEOUT:-150} ncu --clock-control none --csv --launch-count ${NCU_LAUNCHES:-40} \
    -k "regex:sddmm|SDDMM|Sddmm" --metrics "$metrics" \
    ./bench/spmm_bench --sddmm-only --scales "$scale" --ns "$K" --reps 1 --no-e2e \
    --csv /dev/null > "$out/ncu_sddmm.csv" 2> "$out/ncu_sddmm.err"
echo "ncu sddmm: exit $?"
timeout ${NCU_TIMEOUT:-150} ncu --clock-control none --csv --launch-count ${NCU_LAUNCHES:-40} \
    -k "regex:spmm_row|spmm_nnz|csrmm|SpMM|spmm" --metrics "$metrics" \
    ./bench/spmm_bench --no-sddmm --scales "$scale" --ns "$K" --reps 1 --no-e2e \
    --csv /dev/null > "$out/ncu_spmm.csv" 2> "$out/ncu_spmm.err"
echo "ncu spmm: exit $?"
