#!/bin/sh
# bench/run_bench.sh: run bench/spmm_bench from a build tree and keep its output.
#
#   bench/run_bench.sh [BUILD_DIR] [OUT_DIR] [spmm_bench options...]
#
# Defaults: BUILD_DIR = ., OUT_DIR = ./bench-out.  Writes OUT_DIR/spmm_bench.log
# and OUT_DIR/spmm_bench.csv, and prints the table.  Real matrices come from
# $GRBGPU_TEST_DATA (default ../shared/data/matrices beside the source tree);
# without options it runs R-MAT scales 18 and 20, N = 1, 32, 64, 128, 256,
# and the real matrices listed in REAL (default: the four largest).
set -eu
build=${1:-.}
out=${2:-./bench-out}
[ $# -ge 1 ] && shift
[ $# -ge 1 ] && shift
here=$(cd "$(dirname "$0")" && pwd)
: "${GRBGPU_TEST_DATA:=$here/../../shared/data/matrices}"
export GRBGPU_TEST_DATA
: "${REAL:=road_usa_col,road_usa_bay,musae_facebook,amazon_photo}"
: "${OMP_NUM_THREADS:=$(nproc)}"
export OMP_NUM_THREADS
mkdir -p "$out"
if [ $# -eq 0 ]; then set -- --scales 18,20 --real "$REAL"; fi
"$build/bench/spmm_bench" --csv "$out/spmm_bench.csv" "$@" 2>&1 | tee "$out/spmm_bench.log"
