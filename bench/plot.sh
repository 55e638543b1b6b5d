#!/bin/sh
# bench/plot.sh: PNG plots from the benchmark CSVs (gnuplot).
#
#   bench/plot.sh SPMM_BENCH_CSV KERNELS_BENCH_CSV OUT_DIR [TITLE]
#   bench/plot.sh --tc TC_BENCH_CSV OUT_DIR [TITLE]
#
# Writes OUT_DIR/e2e_speedup.png (GrB_mxm / GrB_mxv through grbgpu, warm and
# first call, over the CPU library), OUT_DIR/kernels_vs_cusparse.png (our
# SpMM/SpMV chooser's pick over cuSPARSE's best algorithm, PLUS_TIMES FP32),
# and OUT_DIR/time_split.png (where a call's time goes: kernel, transfers,
# host-side work, first-call conversion and upload).  With --tc:
# OUT_DIR/tc_vs_cusparse.png from bench/tc_bench's CSV (the hybrid's fastest
# variant per mode, the CUDA-core kernel, and the tensor-core part alone,
# each over cuSPARSE's best algorithm, per matrix, at N = 32 and 128).
set -eu
common="set terminal pngcairo size 1100,520 font 'sans,10'; set style data histograms; set style fill solid 0.85 border -1; set xtics rotate by -40 left noenhanced; set grid ytics; set key top left noenhanced"
need_gnuplot () {
    command -v gnuplot >/dev/null 2>&1 && return 0
    echo "plot.sh: gnuplot not found here; copy $* to a machine with gnuplot and run bench/plot.sh there"
    exit 0
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ "${1:-}" = "--tc" ]; then
    tc=$2; out=$3; title=${4:-}
    mkdir -p "$out"
    need_gnuplot "$tc"
    # per (matrix, N): cuSPARSE's best ms, the fastest complete variant of
    # each mode (exact, tf32; the parts-only rows "x/tc", "x/rem" aside),
    # the CUDA-core kernel, and the exact tensor-core part alone
    for n in 32 128; do
        awk -F, -v N=$n 'NR > 1 && $5 == N && $10 > 0 {
            m = $1 ; if (!(m in seen)) { seen [m] = 1 ; order [++k] = m }
            key = m SUBSEP $6
            if ($6 == "cusparse" || $6 == "cuda" || (($6 == "exact" || $6 == "tf32") && $7 !~ /\//)) {
                if (!(key in best) || $10 < best [key]) best [key] = $10 }
            if ($6 == "exact" && $7 ~ /\/tc$/ && $8 == 3 && $9 == 16) tcpart [m] = $10
          }
          END { for (q = 1 ; q <= k ; q++) { m = order [q] ; c = best [m SUBSEP "cusparse"]
            if (c == "") continue
            printf "%s %.3f %.3f %.3f %.3f\n", m, c / best [m SUBSEP "cuda"],
                c / best [m SUBSEP "exact"], c / best [m SUBSEP "tf32"], (m in tcpart) ? c / tcpart [m] : 0 } }' \
            "$tc" > "$tmp/tc$n.dat"
    done
    gnuplot <<GP
$common
set terminal pngcairo size 1400,900 font 'sans,9'
set output '$out/tc_vs_cusparse.png'
set key outside right top vertical
set multiplot layout 2,1 title 'SpMM FP32 vs cuSPARSE best algorithm, per matrix $title'
set logscale y
set yrange [0.1:30]
set ylabel 'speedup over cuSPARSE (>1: ours faster)'
set style histogram clustered gap 1
do for [nn in "32 128"] {
  set title 'N = '.nn
  plot '$tmp/tc'.nn.'.dat' using 2:xtic(1) title 'CUDA-core kernel', '' using 3 title 'hybrid, exact', '' using 4 title 'hybrid, tf32 (opt-in)', '' using 5 title 'TC part alone, exact (partial)', 1 with lines lc rgb 'black' notitle
}
unset multiplot
GP
    ls "$out"/tc_vs_cusparse.png
    exit 0
fi

spmm=$1; kern=$2; out=$3; title=${4:-}
mkdir -p "$out"
need_gnuplot "$spmm and $kern"

# e2e: label, warm speedup, first-call speedup (FP32 only)
awk -F, 'NR > 1 && ($1 == "mxm" || $1 == "mxv") && $6 == "fp32" && $11 > 0 && $12 > 0 {
    printf "%s/N=%s %.3f %.3f\n", $2, $7, $19 / $11, $19 / $12 }' "$spmm" > "$tmp/e2e.dat"

# kernels: label, speedup of the chooser's pick ("auto=...") over cuSPARSE
awk -F, 'NR > 1 && $7 == "PLUS_TIMES" && $8 ~ /^auto=/ && ($6 == 1 || $6 == 32 || $6 == 128) && $12 > 0 {
    printf "%s/N=%s %.3f\n", $1, $6, $12 }' "$kern" > "$tmp/kern.dat"

# time split of the FP32 calls on the largest matrix: kernel, transfers
# (backend call - kernel), host side (GrB call - backend call), first-call
# extra (conversion + upload)
awk -F, 'NR > 1 && $6 == "fp32" {
    key = $2 "/N=" $7
    if ($1 == "spmm" && $8 != "") { kern [key] = $8 ; call [key] = $11 }
    if ($1 == "mxm" || $1 == "mxv") { warm [key] = $11 ; first [key] = $12 ; nnz [key] = $5 }
  }
  END { for (k in warm) if (k in kern) {
    t = call [k] - kern [k] ; if (t < 0) t = 0
    h = warm [k] - call [k] ; if (h < 0) h = 0
    f = first [k] - warm [k] ; if (f < 0) f = 0
    printf "%s %.3f %.3f %.3f %.3f\n", k, kern [k], t, h, f } }' "$spmm" | sort > "$tmp/split.dat"

if [ -s "$tmp/e2e.dat" ]; then
gnuplot <<GP
$common
set output '$out/e2e_speedup.png'
set title 'GrB\\_mxm / GrB\\_mxv through grbgpu vs the CPU library (FP32, exact) $title'
set logscale y
set ylabel 'speedup over SuiteSparse:GraphBLAS (all host cores)'
set style histogram clustered gap 1
plot '$tmp/e2e.dat' using 2:xtic(1) title 'warm call (operands cached on the GPU)', '' using 3 title 'first call (conversion + upload)', 1 with lines lc rgb 'black' notitle
GP
fi

if [ -s "$tmp/kern.dat" ]; then
gnuplot <<GP
$common
set terminal pngcairo size 1700,560 font 'sans,9'
set output '$out/kernels_vs_cusparse.png'
set title 'grbgpu SpMM/SpMV kernels (chooser pick) vs cuSPARSE best algorithm, PLUS\\_TIMES FP32 $title'
set logscale y
set ylabel 'speedup over cuSPARSE (>1: ours faster)'
set style histogram clustered gap 1
plot '$tmp/kern.dat' using 2:xtic(1) title 'ours / cuSPARSE best', 1 with lines lc rgb 'black' notitle
GP
fi

if [ -s "$tmp/split.dat" ]; then
gnuplot <<GP
$common
set output '$out/time_split.png'
set title 'Where the time of one FP32 call goes (ms) $title'
set ylabel 'milliseconds'
set style histogram rowstacked
set boxwidth 0.6
plot '$tmp/split.dat' using 2:xtic(1) title 'kernel', '' using 3 title 'host<->device transfers', '' using 4 title 'host side (views, write-back)', '' using 5 title 'first call only: conversion + upload'
GP
fi
ls "$out"/*.png 2>/dev/null || true
