# kernels/csr_transpose/csr_transpose.mk: the CSR transpose on the device
# (the form GrB_vxm pulls from), its test and its benchmark.  CUDA only; the
# .cu.lo and .cu.o rules and NVCCFLAGS come from Makefile.am and
# kernels/kernels.mk.
EXTRA_DIST += kernels/csr_transpose/csr_transpose.h \
	kernels/csr_transpose/csr_transpose.cu \
	kernels/csr_transpose/csr_transpose_ref.h \
	tests/test_csr_transpose.cu bench/transpose_bench.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/csr_transpose/csr_transpose.cu
GG_CSR_TRANSPOSE_OBJS = kernels/csr_transpose/csr_transpose.lo

# linked as C by libtool against the kernel's object only (as in kernels.mk)
check_PROGRAMS += tests/test_csr_transpose
TESTS += tests/test_csr_transpose
tests_test_csr_transpose_SOURCES = tests/test_csr_transpose.cu
tests_test_csr_transpose_LDADD = $(GG_CSR_TRANSPOSE_OBJS) $(CUDA_LIBS) -lm
tests_test_csr_transpose_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

# against formats/convert.c's host transpose (OpenMP: AM_CFLAGS at link)
noinst_PROGRAMS += bench/transpose_bench
bench_transpose_bench_SOURCES = bench/transpose_bench.cu
bench_transpose_bench_LDADD = $(GG_CSR_TRANSPOSE_OBJS) formats/convert.lo \
	$(CUDA_LIBS) -lm
bench_transpose_bench_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC --mode=link $(CCLD) \
	$(AM_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@

# nvcc objects have no dependency tracking: name the headers they include
GG_CSR_TRANSPOSE_INCS = $(srcdir)/kernels/csr_transpose/csr_transpose.h \
	$(srcdir)/kernels/csr_transpose/csr_transpose_ref.h \
	$(srcdir)/kernels/gg_kernels.h
$(GG_CSR_TRANSPOSE_OBJS) tests/test_csr_transpose.o bench/transpose_bench.o: \
	$(GG_CSR_TRANSPOSE_INCS)
bench/transpose_bench.o: $(srcdir)/formats/convert.h $(srcdir)/tests/need_device.h
endif
