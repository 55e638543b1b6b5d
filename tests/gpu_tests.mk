# tests/gpu_tests.mk: tests and benchmarks of the CUDA backend.
#
# They drive backend/cuda/ through internal interfaces, which are hidden in
# libgrbgpu.so, so they link the library's objects themselves (the whole
# library: the cache, settings, statistics, fault injection, object versions
# and the interposer come with it) and the CUDA module's (without its shim:
# backend/cuda/cuda.mk).  Without a GPU the test exits 77 (SKIP).
if HAVE_CUDA
if HAVE_CMOCKA
check_PROGRAMS += tests/test_cuda_backend
TESTS += tests/test_cuda_backend
tests_test_cuda_backend_SOURCES = tests/test_cuda_backend.c \
	tests/cuda_backend_test.h tests/cuda_backend_util.c \
	tests/cuda_backend_spmm.c tests/cuda_backend_families.c \
	tests/cuda_backend_dense.c
tests_test_cuda_backend_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_cuda_backend_LDADD = $(libgrbgpu_la_OBJECTS) \
	$(libgrbgpu_la_LIBADD) $(GG_CUDA_MODULE_OBJS) $(CUDA_LIBS) $(CMOCKA_LIBS)
tests_test_cuda_backend_LDFLAGS = $(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
tests_test_cuda_backend_DEPENDENCIES = libgrbgpu.la libgrbgpu-cuda.la
endif

# GrB_vxm (and the other products by a transpose) through the transpose made
# on the device (backend/cuda/form_csrt.c), end to end against the CPU library
check_PROGRAMS += tests/test_vxm_device
TESTS += tests/test_vxm_device
tests_test_vxm_device_SOURCES = tests/test_vxm_device.c
tests_test_vxm_device_LDADD = $(libgrbgpu_la_OBJECTS) \
	$(libgrbgpu_la_LIBADD) $(GG_CUDA_MODULE_OBJS) $(CUDA_LIBS) -lm
tests_test_vxm_device_LDFLAGS = $(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
tests_test_vxm_device_DEPENDENCIES = libgrbgpu.la libgrbgpu-cuda.la

# bench/vxm_bench: GrB_vxm's first (cold, and after an mxv) and warm calls on
# R-MAT against the CPU library (the transpose made on the device)
noinst_PROGRAMS += bench/vxm_bench
bench_vxm_bench_SOURCES = bench/vxm_bench.cu
bench_vxm_bench_LDADD = $(libgrbgpu_la_OBJECTS) $(libgrbgpu_la_LIBADD) \
	$(GG_CUDA_MODULE_OBJS) $(CUDA_LIBS) -lm
bench_vxm_bench_LDFLAGS = $(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
bench_vxm_bench_DEPENDENCIES = libgrbgpu.la libgrbgpu-cuda.la
bench_vxm_bench_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@
bench/vxm_bench.o: $(srcdir)/bench/bench_matrices.h $(srcdir)/include/grbgpu.h

# bench/rules_bench: the constants of the static rules (backend/cuda/choose.c)
# measured: the families each rule decides between, forced, over sweeps of
# synthetic matrices; the crossover printed beside the constant in the code
noinst_PROGRAMS += bench/rules_bench
bench_rules_bench_SOURCES = bench/rules_bench.c
bench_rules_bench_LDADD = $(libgrbgpu_la_OBJECTS) $(libgrbgpu_la_LIBADD) \
	$(GG_CUDA_MODULE_OBJS) $(CUDA_LIBS) -lm
bench_rules_bench_LDFLAGS = $(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
bench_rules_bench_DEPENDENCIES = libgrbgpu.la libgrbgpu-cuda.la

# bench/spmm_bench: the backend vs cuSPARSE, and GrB_mxm / GrB_mxv end to end
# (GG_BENCH_E2E: the interposer is linked in, so its GrB_mxm is this
# program's); run it with bench/run_bench.sh.  Not part of make check.
noinst_PROGRAMS += bench/spmm_bench
bench_spmm_bench_SOURCES = bench/spmm_bench.c bench/spmm_bench.h \
	bench/spmm_bench_util.c bench/spmm_bench_kernels.c \
	bench/spmm_bench_vxm.c bench/spmm_bench_e2e.c bench/spmm_bench_split.c
bench_spmm_bench_CPPFLAGS = $(AM_CPPFLAGS) -DGG_BENCH_E2E
bench_spmm_bench_LDADD = $(libgrbgpu_la_OBJECTS) $(libgrbgpu_la_LIBADD) \
	$(GG_CUDA_MODULE_OBJS) $(CUDA_LIBS)
bench_spmm_bench_LDFLAGS = $(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
bench_spmm_bench_DEPENDENCIES = libgrbgpu.la libgrbgpu-cuda.la

# bench/xfer_bench: the pieces of a staged host<->device copy (DMA, host copy
# variants, registering the caller's buffer), behind backend/cuda/copies.c.
noinst_PROGRAMS += bench/xfer_bench
bench_xfer_bench_SOURCES = bench/xfer_bench.c
bench_xfer_bench_CFLAGS = $(AM_CFLAGS) $(OPENMP_CFLAGS)
bench_xfer_bench_LDADD = $(CUDA_LIBS)
bench_xfer_bench_LDFLAGS = $(OPENMP_CFLAGS)
endif
