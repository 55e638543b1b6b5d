# reorder/: row permutations (issue 15, step 1): RSH-style locality-aware
# reordering, a first-column baseline, and window statistics.  Pure C with
# OpenMP; includes nothing from backend/ (only kernels/gg_kernels.h for the
# error codes).  In libgrbgpu.so, not yet used by the dispatcher.
libgrbgpu_la_SOURCES += reorder/reorder.c reorder/reorder.h
EXTRA_DIST += reorder/reorder_util.h

# Reordering time, distinct columns per 8-row window and the tensor-core
# share (T = 3) before and after, per shared matrix and for R-MAT 2^16 and
# 2^18 (a benchmark, not a test; host only).
noinst_PROGRAMS += bench/reorder_bench
bench_reorder_bench_SOURCES = bench/reorder_bench.c reorder/reorder.c \
	reorder/reorder.h reorder/reorder_util.h
bench_reorder_bench_CFLAGS = $(AM_CFLAGS)
bench_reorder_bench_LDFLAGS = $(OPENMP_CFLAGS)
bench_reorder_bench_LDADD = -lm
