# backend/host/host.mk: the host emulation backend (plain-C SpMM, SpMV, SDDMM,
# GEMM) and its test against SuiteSparse:GraphBLAS.
libgrbgpu_la_SOURCES += backend/host/host_backend.c backend/host/host_kernels.h \
	backend/host/host_vec_ops.c backend/host/host_vec_ops.h
libgrbgpu_la_SOURCES += backend/host/host_exp.c kernels/vec_ops/vec_exp.h

if HAVE_CMOCKA
# The backend's symbols are hidden in libgrbgpu.so, so the test compiles
# backend/host/host_backend.c itself and links GraphBLAS directly (no
# interposer).
check_PROGRAMS += tests/test_host_backend
TESTS += tests/test_host_backend
tests_test_host_backend_SOURCES = tests/test_host_backend.c \
	tests/host_backend_test.h tests/host_backend_util.c \
	backend/host/host_backend.c backend/host/host_kernels.h \
	backend/host/host_vec_ops.c backend/host/host_vec_ops.h \
	backend/host/host_exp.c kernels/vec_ops/vec_exp.h \
	formats/partition.c formats/partition.h formats/csr_t.c \
	backend/team.c backend/team.h
tests_test_host_backend_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_host_backend_LDFLAGS = $(OPENMP_CFLAGS)
tests_test_host_backend_LDADD = -lgraphblas $(CMOCKA_LIBS) -lm
endif
