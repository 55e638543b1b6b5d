# kernels/nm_spmm/nm_spmm.mk: dense X times N:M-sparse W (issue 16): the
# NM-SpMM kernel (kernels/nm_spmm/), the layout it reads
# (formats/nm_layout.c, plain C, in the library with formats/nm*.c), its GPU
# test and its benchmark.  The CUDA module links the kernel and its own copy
# of formats/nm*.c and formats/csr_t.c (whose transpose nm_pack.c uses) (the
# "nm" row of the SpMM table, backend/cuda/
# family_nm.c and form_nm.c; programs that link the module's objects get
# formats/nm*.c with libgrbgpu.so's).  Built only when configure found
# nvcc; the .cu.lo / .cu.o rules, NVCCFLAGS and GG_CUDA_KERNEL_OBJS come from
# Makefile.am and kernels/kernels.mk.
libgrbgpu_la_SOURCES += formats/nm_layout.c formats/nm_layout.h
EXTRA_DIST += kernels/nm_spmm/nm_spmm.h kernels/nm_spmm/nm_geom.h \
	kernels/nm_spmm/nm_spmm.cu kernels/nm_spmm/nm_spmm_tc.cu kernels/nm_spmm/nm_spmm_tc_prep.cu \
	kernels/nm_spmm/nm_tc_common.cuh kernels/nm_spmm/nm_spmm.mk \
	formats/nm_layout_dev.cu formats/nm_layout_dev.h \
	tests/test_nm_spmm.cu tests/nm_gen.h bench/nm_gpu_bench.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/nm_spmm/nm_spmm.cu kernels/nm_spmm/nm_spmm_tc.cu \
	kernels/nm_spmm/nm_spmm_tc_prep.cu \
	formats/nm_layout_dev.cu formats/nm.c \
	formats/nm_pack.c formats/nm_layout.c formats/csr_t.c
GG_NM_OBJS = kernels/nm_spmm/nm_spmm.lo kernels/nm_spmm/nm_spmm_tc.lo kernels/nm_spmm/nm_spmm_tc_prep.lo \
	formats/nm_layout_dev.lo
# the host side (packing, layout) as libtool objects of the library
GG_NM_HOST_OBJS = formats/nm.lo formats/nm_pack.lo formats/nm_layout.lo formats/csr_t.lo
CLEANFILES += $(GG_NM_OBJS) kernels/nm_spmm/nm_spmm.o \
	kernels/nm_spmm/.libs/nm_spmm.o kernels/nm_spmm/nm_spmm_tc.o \
	kernels/nm_spmm/.libs/nm_spmm_tc.o kernels/nm_spmm/nm_spmm_tc_prep.o \
	kernels/nm_spmm/.libs/nm_spmm_tc_prep.o formats/nm_layout_dev.o formats/.libs/nm_layout_dev.o

check_PROGRAMS += tests/test_nm_spmm
TESTS += tests/test_nm_spmm
tests_test_nm_spmm_SOURCES = tests/test_nm_spmm.cu
tests_test_nm_spmm_LDADD = $(GG_NM_OBJS) $(GG_NM_HOST_OBJS) $(CUDA_LIBS) -lm
tests_test_nm_spmm_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

noinst_PROGRAMS += bench/nm_gpu_bench
bench_nm_gpu_bench_SOURCES = bench/nm_gpu_bench.cu
bench_nm_gpu_bench_LDADD = $(GG_NM_OBJS) $(GG_NM_HOST_OBJS) $(CUDA_LIBS) -lm
bench_nm_gpu_bench_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

# nvcc objects have no dependency tracking: name the headers they include
GG_NM_INCS = $(srcdir)/kernels/nm_spmm/nm_spmm.h \
	$(srcdir)/kernels/nm_spmm/nm_geom.h $(srcdir)/kernels/nm_spmm/nm_tc_common.cuh \
	$(srcdir)/kernels/gg_kernels.h \
	$(srcdir)/formats/nm.h $(srcdir)/formats/nm_layout.h $(srcdir)/formats/nm_layout_dev.h \
	$(srcdir)/kernels/tc_spmm/tc_device.cuh $(srcdir)/kernels/tc_spmm/tc_round.h $(srcdir)/kernels/gg_hd.h $(srcdir)/kernels/tc_spmm/tc_spmm.h
$(GG_NM_OBJS): $(GG_NM_INCS)
tests/test_nm_spmm.o bench/nm_gpu_bench.o: $(GG_NM_INCS) $(srcdir)/tests/nm_gen.h
endif
