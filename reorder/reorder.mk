# reorder/: row permutations (issue 15, step 1): RSH-style locality-aware
# reordering, a first-column baseline, and window statistics.  Pure C with
# OpenMP; includes nothing from backend/ (only kernels/gg_kernels.h for the
# error codes).  In libgrbgpu.so, not yet used by the dispatcher.
libgrbgpu_la_SOURCES += reorder/reorder.c reorder/rsh.c reorder/reorder.h \
	reorder/reorder_private.h
EXTRA_DIST += reorder/reorder_util.h

if HAVE_CMOCKA
# Bijection, determinism, recovery of a shuffled block structure, the time
# budget, the window statistics against a brute-force count, and the real
# matrices of $GRBGPU_TEST_DATA (skipped when absent).  Compiles
# reorder/*.c itself, so that it needs neither GraphBLAS nor the
# interposer.
check_PROGRAMS += tests/test_reorder
TESTS += tests/test_reorder
tests_test_reorder_SOURCES = tests/test_reorder.c reorder/reorder.c \
	reorder/rsh.c reorder/reorder.h reorder/reorder_private.h \
	reorder/reorder_util.h
tests_test_reorder_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_reorder_LDFLAGS = $(OPENMP_CFLAGS)
tests_test_reorder_LDADD = $(CMOCKA_LIBS) -lm
endif

# Reordering time, distinct columns per 8-row window and the tensor-core
# share (T = 3) before and after, per shared matrix and for R-MAT 2^16 and
# 2^18 (a benchmark, not a test; host only).
noinst_PROGRAMS += bench/reorder_bench
bench_reorder_bench_SOURCES = bench/reorder_bench.c reorder/reorder.c \
	reorder/rsh.c reorder/reorder.h reorder/reorder_private.h \
	reorder/reorder_util.h
bench_reorder_bench_CFLAGS = $(AM_CFLAGS)
bench_reorder_bench_LDFLAGS = $(OPENMP_CFLAGS)
bench_reorder_bench_LDADD = -lm
