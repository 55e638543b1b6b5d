#!/bin/sh
# bench/plot.sh: PNG plots from the benchmark CSVs (gnuplot).
#
#   bench/plot.sh SPMM_BENCH_CSV KERNELS_BENCH_CSV OUT_DIR [TITLE]
#
# Writes OUT_DIR/e2e_speedup.png (GrB_mxm / GrB_mxv through grbgpu, warm and
# first call, over the CPU library), OUT_DIR/kernels_vs_cusparse.png (our
# SpMM/SpMV chooser's pick over cuSPARSE's best algorithm, PLUS_TIMES FP32),
# and OUT_DIR/time_split.png (where a call's time goes: kernel, transfers,
# host-side work, first-call conversion and upload).
set -eu
spmm=$1; kern=$2; out=$3; title=${4:-}
mkdir -p "$out"
if ! command -v gnuplot >/dev/null 2>&1; then
    echo "plot.sh: gnuplot not found here; copy $spmm and $kern to a machine with gnuplot and run bench/plot.sh there"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

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

common="set terminal pngcairo size 1100,520 font 'sans,10'; set style data histograms; set style fill solid 0.85 border -1; set xtics rotate by -40 left noenhanced; set grid ytics; set key top left noenhanced"

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
