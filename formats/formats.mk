# formats/: conversions from a view of GraphBLAS storage to the kernels' forms.
libgrbgpu_la_SOURCES += formats/convert.c formats/convert.h formats/csr_t.c

# Row blocks balanced by entries (GRBGPU_DEVICES): the host emulation's split
# and the CUDA module's (backend/cuda/cuda.mk compiles it into the module too).
libgrbgpu_la_SOURCES += formats/partition.c formats/partition.h

# N:M structured sparsity (issue 16): detection, packed form, unpacking.
libgrbgpu_la_SOURCES += formats/nm.c formats/nm_pack.c formats/nm.h \
	formats/nm_private.h

# Its test compiles formats/nm*.c (and csr_t.c, the transpose nm_pack.c uses)
# itself: no GraphBLAS, no library needed.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_nm
TESTS += tests/test_nm
tests_test_nm_SOURCES = tests/test_nm.c tests/nm_test.h tests/nm_test_util.c \
	formats/nm.c formats/nm_pack.c formats/csr_t.c \
	formats/nm.h formats/nm_private.h
tests_test_nm_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_nm_LDADD = $(CMOCKA_LIBS)
endif

# Detection time against one conversion pass (a benchmark, not a test).
noinst_PROGRAMS += bench/nm_bench
bench_nm_bench_SOURCES = bench/nm_bench.c formats/nm.c formats/nm_pack.c \
	formats/nm.h formats/nm_private.h \
	formats/convert.c formats/convert.h formats/csr_t.c \
	formats/nm_layout.c formats/nm_layout.h
bench_nm_bench_CFLAGS = $(AM_CFLAGS)
bench_nm_bench_LDADD = -lm
