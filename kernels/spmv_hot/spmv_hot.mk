# kernels/spmv_hot/spmv_hot.mk: hot/cold SpMV (issue #5): the columns of S
# with the most entries served from shared memory (gg_cuda_spmv_hot_build,
# gg_cuda_spmv_hot_max, gg_cuda_spmv_hot).
#   spmv_hot.cu   the hot form of a pattern (degree histogram, slots,
#                 renumbered column indices) and the launcher
# Builds on the SpMM family: the product is warp_t8's kernel with its hot
# stage (kernels/spmm/spmv_warp.cu), reached through
# kernels/spmm/spmm_internal.cuh.  Test and benchmark: tests/test_cuda_kernels,
# bench/kernels_bench (kernels/kernels.mk).
EXTRA_DIST += kernels/spmv_hot/spmv_hot.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/spmv_hot/spmv_hot.cu
GG_SPMV_HOT_OBJS = kernels/spmv_hot/spmv_hot.lo
$(GG_SPMV_HOT_OBJS): $(GG_CUDA_INCS) $(srcdir)/kernels/spmm/spmm_internal.cuh
endif
