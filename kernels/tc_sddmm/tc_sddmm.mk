# kernels/tc_sddmm/tc_sddmm.mk: SDDMM on tensor cores (issue 14's SDDMM split):
# the index form of a mask (formats/hybrid.cu, gg_tc_build), the mma.sync /
# DMMA kernels and the CUDA-core remainder (gg_cuda_sddmm_at), its test.
# spmm_bench times it (--sddmm-kernels tc2, tc3, ...).  Built only when
# configure found nvcc.
EXTRA_DIST += kernels/tc_sddmm/tc_sddmm.h kernels/tc_sddmm/tc_sddmm.cu \
	kernels/tc_sddmm/tc_sddmm.mk tests/test_tc_sddmm.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/tc_sddmm/tc_sddmm.cu
GG_TCS_OBJS = kernels/tc_sddmm/tc_sddmm.lo
CLEANFILES += $(GG_TCS_OBJS) kernels/tc_sddmm/tc_sddmm.o kernels/tc_sddmm/.libs/tc_sddmm.o
$(GG_TCS_OBJS): $(GG_TC_INCS) $(srcdir)/kernels/tc_sddmm/tc_sddmm.h

check_PROGRAMS += tests/test_tc_sddmm
TESTS += tests/test_tc_sddmm
tests_test_tc_sddmm_SOURCES = tests/test_tc_sddmm.cu
tests_test_tc_sddmm_LDADD = $(GG_TCS_OBJS) $(GG_TC_OBJS) $(GG_CUDA_KERNEL_OBJS) \
	reorder/reorder.lo reorder/rsh.lo $(CUDA_LIBS) $(OPENMP_CFLAGS) -lm
tests_test_tc_sddmm_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@
tests/test_tc_sddmm.o: $(GG_TC_INCS) $(srcdir)/kernels/tc_sddmm/tc_sddmm.h \
	$(srcdir)/bench/bench_matrices.h $(srcdir)/tests/cuda_check.h
endif
