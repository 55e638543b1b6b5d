# kernels/spmm/spmm.mk: the own CUDA-core SpMM / SpMV (Y = S (+.*) X, S in
# CSR, any supported semiring), behind gg_cuda_spmm / gg_cuda_spmm_plan.
#   spmm.cu   the schedules, the variants and the chooser
# Test and benchmark: tests/test_cuda_kernels, bench/kernels_bench
# (kernels/kernels.mk).
EXTRA_DIST += kernels/spmm/spmm.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/spmm/spmm.cu
GG_SPMM_OBJS = kernels/spmm/spmm.lo
$(GG_SPMM_OBJS): $(GG_CUDA_INCS)
endif
