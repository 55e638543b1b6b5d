# kernels/spmv_band/spmv_band.mk: band SpMV (issue #5): x served from shared
# memory band after band of columns ranked by their entries, the rest
# gathered (gg_cuda_spmv_band_build / _width / _info / _free,
# gg_cuda_spmv_band).
#   spmv_band_internal.cuh  private: why, the form's struct, band_width
#   spmv_band_form.cu       the form of a matrix (CUB sorts; build, free,
#                           info)
#   spmv_band.cu            the product
# Test and benchmark: tests/test_cuda_kernels, bench/kernels_bench
# (kernels/kernels.mk).
GG_SPMV_BAND_SRCS = kernels/spmv_band/spmv_band.cu \
	kernels/spmv_band/spmv_band_form.cu
EXTRA_DIST += $(GG_SPMV_BAND_SRCS) kernels/spmv_band/spmv_band_internal.cuh

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += $(GG_SPMV_BAND_SRCS)
GG_SPMV_BAND_OBJS = $(GG_SPMV_BAND_SRCS:.cu=.lo)
$(GG_SPMV_BAND_OBJS): $(GG_CUDA_INCS) \
	$(srcdir)/kernels/spmv_band/spmv_band_internal.cuh
endif
