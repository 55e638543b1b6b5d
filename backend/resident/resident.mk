# backend/resident/resident.mk: results kept on the device (the registry,
# materialisation, eviction); the wrappers that materialise are generated
# with the version wrappers (scripts/gen_objver.py).
libgrbgpu_la_SOURCES += backend/resident/resident.c backend/resident/resident.h \
	backend/resident/resident_pattern.c backend/resident/resident_csr.c \
	backend/resident/resident_private.h

# tests/test_resident: chains of products kept resident, read and changed in
# every way, freed, evicted, with faults (the host emulation backend;
# GRBGPU_TEST_DEVICE=cuda runs it on the GPU)
if HAVE_CMOCKA
check_PROGRAMS += tests/test_resident
TESTS += tests/test_resident
tests_test_resident_SOURCES = tests/test_resident.c tests/resident_test.h \
	tests/resident_reads.c tests/resident_products.c tests/resident_util.h
tests_test_resident_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_resident_LDFLAGS = $(AX_PTHREAD_FLAGS)
tests_test_resident_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm
endif

# tests/test_vec_ops: dense vector operations on resident vectors against the
# CPU library (Inf, NaN, -0), a PageRank iteration chain kept on the device,
# declines, eviction (kernels/vec_ops/, backend/dispatch/vec_dispatch.c)
if HAVE_CMOCKA
check_PROGRAMS += tests/test_vec_ops
TESTS += tests/test_vec_ops
tests_test_vec_ops_SOURCES = tests/test_vec_ops.c tests/resident_util.h
tests_test_vec_ops_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_vec_ops_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm
endif

# tests/test_mat_ops: the same dense path on full matrices (by row, by
# column) and vectors against the CPU library: every operator with NaN, Inf,
# -0 / +0 in both operands, declines, a chain mxm -> apply -> eWiseMult ->
# mxm kept on the device, faults (GRBGPU_TEST_DEVICE=cuda: the GPU,
# gpu_round.sh mres)
if HAVE_CMOCKA
check_PROGRAMS += tests/test_mat_ops
TESTS += tests/test_mat_ops
tests_test_mat_ops_SOURCES = tests/test_mat_ops.c tests/mat_ops_special.c \
	tests/mat_ops_test.h tests/mat_ops_util.h tests/resident_util.h
tests_test_mat_ops_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_mat_ops_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm
endif

# tests/test_vec_pattern: resident vectors on a pattern (t .* sink,
# backend/dispatch/vec_pattern.c) against the CPU library: reductions over
# the pattern, materialisation by every kind of read, free, eviction, the
# PageRank sink sequence (GRBGPU_TEST_DEVICE=cuda: the GPU, gpu_round.sh sink)
if HAVE_CMOCKA
check_PROGRAMS += tests/test_vec_pattern
TESTS += tests/test_vec_pattern
tests_test_vec_pattern_SOURCES = tests/test_vec_pattern.c tests/resident_util.h \
	tests/vec_pattern_util.h
tests_test_vec_pattern_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_vec_pattern_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm
endif

# tests/test_mat_pattern: a matrix resident on a pattern (an SDDMM's result,
# the row softmax and aggregation of graph attention) against the CPU library
if HAVE_CMOCKA
check_PROGRAMS += tests/test_mat_pattern
TESTS += tests/test_mat_pattern
tests_test_mat_pattern_SOURCES = tests/test_mat_pattern.c tests/resident_util.h
tests_test_mat_pattern_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_mat_pattern_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm
endif

# tests/test_resident_calls: every wrapped GraphBLAS function whose arguments
# scripts/gen_resident_calls.py can make (tests/resident_calls_gen.c,
# generated and committed: `make regen-resident-calls`), called on
# device-held objects and on host twins, compared
if HAVE_CMOCKA
check_PROGRAMS += tests/test_resident_calls
TESTS += tests/test_resident_calls
tests_test_resident_calls_SOURCES = tests/test_resident_calls.c tests/resident_calls.h \
	tests/resident_calls_gen.c tests/resident_util.h
tests_test_resident_calls_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_resident_calls_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm
endif
regen-resident-calls:
	python3 $(srcdir)/scripts/gen_resident_calls.py $(GRAPHBLAS_H) $(srcdir)/tests/resident_calls_gen.c
.PHONY: regen-resident-calls
