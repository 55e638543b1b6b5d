# kernels/kernels.mk: grbgpu's own CUDA kernels, one folder per family, each
# with its fragment (kernels/<family>/<family>.mk, included from Makefile.am
# after this one, saying which file is what):
#   spmm/        CUDA-core SpMM / SpMV schedules, variants, chooser
#   spmv_hot/    hot/cold SpMV (builds on spmm's warp_t8)
#   spmv_band/   band SpMV
#   spmv_push/   push SpMV (w = A' u with atomics; not used by the backend)
#   sddmm/       SDDMM
#   gemm/        dense GEMM for the semirings cuBLAS lacks
#   special/     infinities, NaNs, subnormals in an array
#   vec_ops/     element-wise operations and reductions on dense vectors
#   tc_spmm/, tc_sddmm/, csr_transpose/  (their fragments keep their own object lists)
# Here: what the families share, namely the launcher contract
# (kernels/gg_cuda.h, kernels/gg_kernels.h), the semiring device code
# (kernels/gg_semiring.cuh) and the device services it declares (scratch
# pool, SM count: kernels/gg_device.cu); the families' objects; the test and
# the benchmark that cover them (tests/test_cuda_kernels,
# bench/kernels_bench).  Built only when configure found nvcc (HAVE_CUDA);
# the .cu.lo rule and NVCCFLAGS are in the top Makefile.am.
#
# Arrows point down: backend/ -> formats/ -> kernels/<family>/ -> the shared
# files here.  A family includes no other family's files, except spmv_hot,
# which builds on spmm (kernels/spmm/spmm_internal.cuh).
EXTRA_DIST += kernels/gg_cuda.h kernels/gg_kernels.h kernels/gg_hd.h kernels/gg_semiring.cuh \
	kernels/gg_device.cu tests/test_cuda_kernels.cu tests/cuda_kernels_test.h \
	tests/cuda_kernels_ref.cu tests/cuda_kernels_spmm.cu bench/kernels_bench.cu \
	bench/kernels_bench.cuh bench/kernels_bench_util.cu bench/bench_cuda.cuh \
	tests/cuda_check.h tests/need_device.h

if HAVE_CUDA
# Programs built from .cu: plain objects through nvcc, linked by libtool as C
# against the kernels' libtool objects (not the whole library, so the test does
# not depend on the rest of the tree).
.cu.o:
	$(AM_V_CC)$(NVCC) $(filter-out -prefer-non-pic,$(NVCCFLAGS)) -c $< -o $@

libgrbgpu_cuda_la_SOURCES += kernels/gg_device.cu

# The families' libtool objects, in the CUDA module (backend/cuda/cuda.mk adds
# them to GG_CUDA_MODULE_OBJS) and linked alone by the programs below.
GG_CUDA_KERNEL_OBJS = kernels/gg_device.lo $(GG_SPMM_OBJS) \
	$(GG_SPMV_HOT_OBJS) $(GG_SPMV_BAND_OBJS) $(GG_SPMV_PUSH_OBJS) \
	$(GG_SDDMM_OBJS) $(GG_GEMM_OBJS) $(GG_SPECIAL_OBJS) \
	$(GG_VEC_OPS_OBJS)

check_PROGRAMS += tests/test_cuda_kernels
TESTS += tests/test_cuda_kernels
tests_test_cuda_kernels_SOURCES = tests/test_cuda_kernels.cu \
	tests/cuda_kernels_test.h tests/cuda_kernels_ref.cu tests/cuda_kernels_spmm.cu
tests_test_cuda_kernels_LDADD = $(GG_CUDA_KERNEL_OBJS) $(CUDA_LIBS) -lm
tests_test_cuda_kernels_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

noinst_PROGRAMS += bench/kernels_bench
bench_kernels_bench_SOURCES = bench/kernels_bench.cu bench/kernels_bench.cuh \
	bench/kernels_bench_util.cu bench/bench_cuda.cuh
bench_kernels_bench_LDADD = $(GG_CUDA_KERNEL_OBJS) $(CUDA_LIBS) -lm
bench_kernels_bench_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

# nvcc objects have no dependency tracking: name the headers they include
# (each family's fragment names its objects' own)
GG_CUDA_INCS = $(srcdir)/kernels/gg_cuda.h $(srcdir)/kernels/gg_semiring.cuh \
	$(srcdir)/kernels/gg_kernels.h
kernels/gg_device.lo: $(GG_CUDA_INCS)
tests/test_cuda_kernels.o tests/cuda_kernels_ref.o tests/cuda_kernels_spmm.o: \
	$(GG_CUDA_INCS) $(srcdir)/tests/cuda_kernels_test.h $(srcdir)/tests/cuda_check.h
# (tests/cuda_check.h: CHECK_CUDA of the GPU tests and nm_gpu_bench)
tests/test_csr_transpose.o tests/test_tc_spmm.o tests/test_nm_spmm.o bench/nm_gpu_bench.o: \
	$(srcdir)/tests/cuda_check.h
# (tests/need_device.h: the start of the GPU tests and benches that call kernels directly)
tests/test_csr_transpose.o tests/test_cuda_kernels.o tests/test_tc_spmm.o tests/test_tc_sddmm.o \
	bench/kernels_bench.o bench/nm_gpu_bench.o bench/tc_bench.o: $(srcdir)/tests/need_device.h
bench/kernels_bench.o bench/kernels_bench_util.o: $(GG_CUDA_INCS) \
	$(srcdir)/bench/kernels_bench.cuh $(srcdir)/bench/bench_cuda.cuh
endif
