# kernels/kernels.mk: grbgpu's own CUDA kernels, one folder per family, each
# with its fragment (kernels/<family>/<family>.mk, included from
# Makefile.am after this one).  Here: what the families share (the launcher
# contract kernels/gg_cuda.h and kernels/gg_kernels.h, the semiring device
# code kernels/gg_semiring.cuh), the list of the families' objects, and the
# test and benchmark that cover them all (tests/test_cuda_kernels,
# bench/kernels_bench).  Built only when configure found nvcc (HAVE_CUDA);
# the .cu.lo rule and NVCCFLAGS are in the top Makefile.am.
#
# Arrows point down: backend/ -> formats/ -> kernels/<family>/ -> the shared
# headers here; a family includes no other family's files.
EXTRA_DIST += kernels/gg_cuda.h kernels/gg_kernels.h kernels/gg_semiring.cuh \
	tests/test_cuda_kernels.cu bench/kernels_bench.cu

if HAVE_CUDA
# Programs built from .cu: plain objects through nvcc, linked by libtool as C
# against the kernels' libtool objects (not the whole library, so the test does
# not depend on the rest of the tree).
.cu.o:
	$(AM_V_CC)$(NVCC) $(filter-out -prefer-non-pic,$(NVCCFLAGS)) -c $< -o $@

# The families' libtool objects, in the CUDA module (backend/device.mk adds
# them to GG_CUDA_MODULE_OBJS) and linked alone by the programs below.
GG_CUDA_KERNEL_OBJS = $(GG_SPMM_OBJS) $(GG_SPMV_BAND_OBJS) \
	$(GG_SPMV_PUSH_OBJS) $(GG_SDDMM_OBJS) $(GG_GEMM_OBJS)

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

# nvcc objects have no dependency tracking: name the headers they include
# (each family's fragment names its objects' own)
GG_CUDA_INCS = $(srcdir)/kernels/gg_cuda.h $(srcdir)/kernels/gg_semiring.cuh \
	$(srcdir)/kernels/gg_kernels.h
tests/test_cuda_kernels.o bench/kernels_bench.o: $(GG_CUDA_INCS)
endif
