# kernels/spmv_band/spmv_band.mk: band SpMV (issue #5): x served from shared
# memory band after band of columns ranked by their entries, behind
# gg_cuda_spmv_band_build / gg_cuda_spmv_band.
#   spmv_band.cu   the band form and the product
# Test and benchmark: tests/test_cuda_kernels, bench/kernels_bench
# (kernels/kernels.mk).
EXTRA_DIST += kernels/spmv_band/spmv_band.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/spmv_band/spmv_band.cu
GG_SPMV_BAND_OBJS = kernels/spmv_band/spmv_band.lo
$(GG_SPMV_BAND_OBJS): $(GG_CUDA_INCS)
endif
