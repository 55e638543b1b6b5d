# kernels/kernels.mk: grbgpu's own CUDA kernels (SpMM / SpMV, SDDMM, GEMM for
# every supported semiring), their test and their benchmark.  Built only when
# configure found nvcc (HAVE_CUDA); the .cu.lo rule and NVCCFLAGS are in the
# top Makefile.am.
EXTRA_DIST += kernels/gg_cuda.h kernels/gg_semiring.cuh \
	kernels/spmm.cu kernels/sddmm.cu kernels/gemm.cu kernels/spmv_push.cu \
	kernels/spmv_band.cu \
	tests/test_cuda_kernels.cu bench/kernels_bench.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/spmm.cu kernels/sddmm.cu kernels/gemm.cu \
	kernels/spmv_push.cu kernels/spmv_band.cu

# Programs built from .cu: plain objects through nvcc, linked by libtool as C
# against the kernels' libtool objects (not the whole library, so the test does
# not depend on the rest of the tree).
.cu.o:
	$(AM_V_CC)$(NVCC) $(filter-out -prefer-non-pic,$(NVCCFLAGS)) -c $< -o $@

GG_CUDA_KERNEL_OBJS = kernels/spmm.lo kernels/sddmm.lo kernels/gemm.lo \
	kernels/spmv_push.lo kernels/spmv_band.lo

check_PROGRAMS += tests/test_cuda_kernels
TESTS += tests/test_cuda_kernels
tests_test_cuda_kernels_SOURCES = tests/test_cuda_kernels.cu
tests_test_cuda_kernels_LDADD = $(GG_CUDA_KERNEL_OBJS) $(CUDA_LIBS) -lm
tests_test_cuda_kernels_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

noinst_PROGRAMS += bench/kernels_bench
bench_kernels_bench_SOURCES = bench/kernels_bench.cu
bench_kernels_bench_LDADD = $(GG_CUDA_KERNEL_OBJS) $(CUDA_LIBS) -lm
bench_kernels_bench_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@
endif

# nvcc objects have no dependency tracking: name the headers they include
if HAVE_CUDA
GG_CUDA_INCS = $(srcdir)/kernels/gg_cuda.h $(srcdir)/kernels/gg_semiring.cuh \
	$(srcdir)/kernels/gg_kernels.h
$(GG_CUDA_KERNEL_OBJS) tests/test_cuda_kernels.o bench/kernels_bench.o: $(GG_CUDA_INCS)
endif
