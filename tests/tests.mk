# tests/tests.mk: the conformance suite, the LD_PRELOAD / link-order test, and
# the declined-call overhead benchmark.

# The conformance tests' generator and tables (tests/conformance_util.c),
# comparison and two-sided runner (tests/conformance_compare.c); also linked
# by tests/test_allocator and tests/multi_tests.mk's programs.
CONFORMANCE_UTIL_SOURCES = tests/conformance_util.c tests/conformance_compare.c \
	tests/conformance_util.h

# Every offloaded call compared with the CPU library (CMocka): main and the
# real-matrix group in tests/test_conformance.c, the specs and their runner in
# tests/conformance_run.c, the other groups by concern.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_conformance
TESTS += tests/test_conformance
tests_test_conformance_SOURCES = tests/test_conformance.c tests/conformance.h \
	tests/conformance_run.c tests/conformance_products.c \
	tests/conformance_storage.c tests/conformance_nonfinite.c \
	tests/conformance_calls.c tests/conformance_declines.c \
	$(CONFORMANCE_UTIL_SOURCES)
tests_test_conformance_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_conformance_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm

# The program's own GraphBLAS allocator (GxB_init): counting, tagging and
# failing memory functions; every write path of the conformance shapes.
check_PROGRAMS += tests/test_allocator
TESTS += tests/test_allocator
tests_test_allocator_SOURCES = tests/test_allocator.c \
	$(CONFORMANCE_UTIL_SOURCES) tests/count_alloc.c tests/count_alloc.h
tests_test_allocator_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_allocator_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm

# Edge cases found in review: casts of NaN/Inf/huge values, NaN and signed
# zeros in MIN/MAX, the in-place accumulation path, by-column defaults,
# hypersparse thresholds, user-built monoids.
check_PROGRAMS += tests/test_review
TESTS += tests/test_review
tests_test_review_SOURCES = tests/test_review.c tests/review_test.h \
	tests/review_values.c tests/review_paths.c
tests_test_review_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_review_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm

# The declined-call fast paths (operand memo, semiring and descriptor tables,
# per-thread decline counts) never change a decision.
check_PROGRAMS += tests/test_decisions
TESTS += tests/test_decisions
tests_test_decisions_SOURCES = tests/test_decisions.c
tests_test_decisions_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_decisions_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm

# expf by classification (kernels/vec_ops/vec_exp.h) bit for bit against the
# host's expf: backend/host/host_exp.c compiled in (its symbols are hidden in
# libgrbgpu.so)
check_PROGRAMS += tests/test_exp
TESTS += tests/test_exp
tests_test_exp_SOURCES = tests/test_exp.c backend/host/host_exp.c \
	backend/host/host_vec_ops.h kernels/vec_ops/vec_exp.h
tests_test_exp_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_exp_LDFLAGS = $(OPENMP_CFLAGS)
tests_test_exp_LDADD = $(CMOCKA_LIBS) -lm
endif

# An ordinary GraphBLAS program, three ways: linked with -lgraphblas only (run
# under LD_PRELOAD), linked -lgrbgpu -lgraphblas (the right order), and linked
# -lgraphblas -lgrbgpu with --no-as-needed (the wrong order: grbgpu is loaded
# but its GrB_mxm is not the one the program calls).  tests/test_preload.sh
# runs them.
check_PROGRAMS += tests/preload_prog tests/preload_prog_linked \
	tests/preload_prog_badorder
# (tests/count_alloc.c: the program's own memory functions, given to GxB_init
# when PRELOAD_PROG_ALLOC=count)
PRELOAD_PROG_SOURCES = tests/preload_prog.c tests/count_alloc.c tests/count_alloc.h
tests_preload_prog_SOURCES = $(PRELOAD_PROG_SOURCES)
tests_preload_prog_LDADD = -lgraphblas -lm
tests_preload_prog_linked_SOURCES = $(PRELOAD_PROG_SOURCES)
tests_preload_prog_linked_LDADD = libgrbgpu.la -lgraphblas -lm
tests_preload_prog_badorder_SOURCES = $(PRELOAD_PROG_SOURCES)
# (libtool drops a -lgraphblas that precedes libgrbgpu.la as a duplicate of
# the library's own dependency, so it goes to the linker inside -Wl,)
tests_preload_prog_badorder_LDFLAGS = $(AM_LDFLAGS) -Wl,--no-as-needed,-lgraphblas
tests_preload_prog_badorder_LDADD = libgrbgpu.la -lm
TESTS += tests/test_preload.sh
EXTRA_DIST += tests/test_preload.sh

# libgrbgpu.so maps no CUDA library until a call wants the GPU (the CUDA
# backend is a module opened on first use: backend/cuda/cuda_loader.c)
TESTS += tests/test_linkage.sh
EXTRA_DIST += tests/test_linkage.sh
# the conformance suite again, with GRBGPU_RESIDENT=1
TESTS += tests/test_conformance_resident_off.sh
EXTRA_DIST += tests/test_conformance_resident_off.sh
# and split across three slots of one device (GRBGPU_DEVICES=0,0,0)
TESTS += tests/test_conformance_split.sh
EXTRA_DIST += tests/test_conformance_split.sh

# What preloading libgrbgpu.so adds to a process start (a benchmark, not a
# test; linked -lgraphblas only, grbgpu comes by LD_PRELOAD).
noinst_PROGRAMS += bench/startup_bench
bench_startup_bench_SOURCES = bench/startup_bench.c
bench_startup_bench_LDADD = -lgraphblas

# The per-call cost of a declined call (a benchmark, not a test).
noinst_PROGRAMS += bench/decline_overhead
bench_decline_overhead_SOURCES = bench/decline_overhead.c
bench_decline_overhead_LDADD = libgrbgpu.la -lgraphblas -ldl -lm
