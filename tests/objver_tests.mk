# tests/objver_tests.mk: object versions, wrappers, cache, threads, faults.
#
# The internals are hidden in libgrbgpu.so, so these tests compile the files
# they test themselves, with tests/objver_stubs.c in place of settings.c,
# log.c, stats.c and interpose.c.  (Per-program CFLAGS keep their objects apart from
# the library's.)

# regenerating the wrappers reproduces the committed file (skips without
# python3 or the 7.4.0 header)
TESTS += tests/test_objver_gen.sh
EXTRA_DIST += tests/test_objver_gen.sh

OBJVER_TEST_CORE = backend/interpose/objver.c backend/cache/cache.c \
	tests/objver_stubs.c

if HAVE_CMOCKA
OBJVER_TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
OBJVER_TEST_LIBS = -lgraphblas $(CMOCKA_LIBS) -ldl -lm

check_PROGRAMS += tests/test_objver tests/test_cache tests/test_threads \
	tests/test_fault
TESTS += tests/test_objver tests/test_cache tests/test_threads \
	tests/test_fault

tests_test_objver_SOURCES = tests/test_objver.c tests/objver_test.h \
	tests/objver_families.c \
	backend/interpose/objver_wrappers.c $(OBJVER_TEST_CORE)
tests_test_objver_CFLAGS = $(OBJVER_TEST_CFLAGS)
tests_test_objver_LDADD = $(OBJVER_TEST_LIBS)

tests_test_cache_SOURCES = tests/test_cache.c $(OBJVER_TEST_CORE)
tests_test_cache_CFLAGS = $(OBJVER_TEST_CFLAGS)
tests_test_cache_LDADD = $(OBJVER_TEST_LIBS)

tests_test_threads_SOURCES = tests/test_threads.c \
	backend/interpose/objver_wrappers.c $(OBJVER_TEST_CORE)
tests_test_threads_CFLAGS = $(OBJVER_TEST_CFLAGS)
tests_test_threads_LDADD = $(OBJVER_TEST_LIBS)

# (with the real settings, logging and statistics: settings.c pushes
# GRBGPU_FAULT into fault.c)
tests_test_fault_SOURCES = tests/test_fault.c backend/fault.c \
	backend/settings.c backend/log.c backend/stats.c $(OBJVER_TEST_CORE)
tests_test_fault_CFLAGS = $(OBJVER_TEST_CFLAGS)
tests_test_fault_LDADD = $(OBJVER_TEST_LIBS)
endif

# the cost of a wrapped GrB_Matrix_setElement_FP64 (built, not run)
check_PROGRAMS += bench/objver_overhead
bench_objver_overhead_SOURCES = bench/objver_overhead.c \
	backend/interpose/objver_wrappers.c $(OBJVER_TEST_CORE)
bench_objver_overhead_CFLAGS = $(AM_CFLAGS)
bench_objver_overhead_LDADD = -lgraphblas -ldl -lm

# products before and after every kind of change, on several threads, and
# with faults injected: through the public API (links libgrbgpu)
if HAVE_CMOCKA
check_PROGRAMS += tests/test_mutation
TESTS += tests/test_mutation
tests_test_mutation_SOURCES = tests/test_mutation.c
tests_test_mutation_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_mutation_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS)
endif
