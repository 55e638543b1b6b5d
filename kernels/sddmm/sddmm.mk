# kernels/sddmm/sddmm.mk: SDDMM, y (q) = A (i,:) (+.*) B (j,:) for each entry
# q = (i,j) of a CSR pattern, any supported semiring (gg_cuda_sddmm).
#   sddmm.cu   the kernel (variants g4 .. g32) and the launcher
# Test and benchmark: tests/test_cuda_kernels, bench/kernels_bench
# (kernels/kernels.mk).
EXTRA_DIST += kernels/sddmm/sddmm.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/sddmm/sddmm.cu
GG_SDDMM_OBJS = kernels/sddmm/sddmm.lo
$(GG_SDDMM_OBJS): $(GG_CUDA_INCS)
endif
