# kernels/gemm/gemm.mk: dense Y = A (+.*) B' for the semirings cuBLAS cannot
# do (gg_cuda_gemm).
#   gemm.cu   the tiled kernel and the launcher
# Test and benchmark: tests/test_cuda_kernels, bench/kernels_bench
# (kernels/kernels.mk).
EXTRA_DIST += kernels/gemm/gemm.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/gemm/gemm.cu
GG_GEMM_OBJS = kernels/gemm/gemm.lo
$(GG_GEMM_OBJS): $(GG_CUDA_INCS)
endif
