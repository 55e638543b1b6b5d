# kernels/tc_spmm/tc_spmm.mk: the tensor-core hybrid SpMM family (issue 14):
# the hybrid form of a CSR operand (formats/hybrid.cu, built on the device),
# the mma.sync kernel with its CUDA-core remainder (kernels/tc_spmm/), its
# test and its benchmark.  In the CUDA module as the SpMM table's rows tc3
# and tc4 (backend/cuda/family_tc.c).  Built only when configure found nvcc; the
# .cu.lo / .cu.o rules, NVCCFLAGS and GG_CUDA_KERNEL_OBJS come from
# Makefile.am and kernels/kernels.mk.
EXTRA_DIST += kernels/tc_spmm/tc_layout.h formats/hybrid.cu \
	kernels/tc_spmm/tc_spmm.h kernels/tc_spmm/tc_spmm.cu kernels/tc_spmm/tc_round.h \
	kernels/tc_spmm/tc_fused.cu kernels/tc_spmm/tc_device.cuh \
	kernels/tc_spmm/tc_spmm.mk bench/bench_matrices.h \
	tests/test_tc_spmm.cu bench/tc_bench.cu bench/tc_bench.cuh \
	bench/tc_bench_util.cu bench/tc_bench_fp64.cu

# The TF32 rounding and split the FP32 kernels compile (tc_round.h), run on
# the CPU against a reference in double arithmetic: every build checks it.
if HAVE_CMOCKA
check_PROGRAMS += tests/test_tc_round
TESTS += tests/test_tc_round
tests_test_tc_round_SOURCES = tests/test_tc_round.c kernels/tc_spmm/tc_round.h kernels/gg_hd.h
tests_test_tc_round_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_tc_round_LDADD = $(CMOCKA_LIBS) -lm
endif

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += formats/hybrid.cu kernels/tc_spmm/tc_spmm.cu \
	kernels/tc_spmm/tc_fused.cu
# the family's objects, as libtool objects made by the .cu.lo rule
GG_TC_OBJS = formats/hybrid.lo kernels/tc_spmm/tc_spmm.lo kernels/tc_spmm/tc_fused.lo
CLEANFILES += $(GG_TC_OBJS) formats/hybrid.o kernels/tc_spmm/tc_spmm.o \
	formats/.libs/hybrid.o kernels/tc_spmm/.libs/tc_spmm.o kernels/tc_spmm/tc_fused.o \
	kernels/tc_spmm/.libs/tc_fused.o

check_PROGRAMS += tests/test_tc_spmm
TESTS += tests/test_tc_spmm
tests_test_tc_spmm_SOURCES = tests/test_tc_spmm.cu
tests_test_tc_spmm_LDADD = $(GG_TC_OBJS) $(GG_CUDA_KERNEL_OBJS) reorder/reorder.lo \
	reorder/rsh.lo $(CUDA_LIBS) $(OPENMP_CFLAGS) -lm
tests_test_tc_spmm_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

noinst_PROGRAMS += bench/tc_bench
bench_tc_bench_SOURCES = bench/tc_bench.cu bench/tc_bench.cuh \
	bench/tc_bench_util.cu bench/tc_bench_fp64.cu bench/bench_cuda.cuh
bench_tc_bench_LDADD = $(GG_TC_OBJS) $(GG_CUDA_KERNEL_OBJS) reorder/reorder.lo \
	reorder/rsh.lo $(CUDA_LIBS) $(OPENMP_CFLAGS) -lm
bench_tc_bench_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

# nvcc objects have no dependency tracking: name the headers they include
GG_TC_INCS = $(srcdir)/kernels/tc_spmm/tc_layout.h $(srcdir)/kernels/tc_spmm/tc_spmm.h \
	$(srcdir)/kernels/tc_spmm/tc_device.cuh $(srcdir)/kernels/tc_spmm/tc_round.h $(srcdir)/kernels/gg_hd.h \
	$(srcdir)/kernels/gg_cuda.h $(srcdir)/kernels/gg_kernels.h
$(GG_TC_OBJS): $(GG_TC_INCS)
TC_BENCH_OBJS = bench/tc_bench.o bench/tc_bench_util.o bench/tc_bench_fp64.o
tests/test_tc_spmm.o $(TC_BENCH_OBJS): $(GG_TC_INCS) $(srcdir)/bench/bench_matrices.h
$(TC_BENCH_OBJS) tests/test_tc_spmm.o: $(srcdir)/reorder/reorder.h
$(TC_BENCH_OBJS): $(srcdir)/bench/tc_bench.cuh $(srcdir)/bench/bench_cuda.cuh
endif
