# kernels/spmm/spmm.mk: the own CUDA-core SpMM / SpMV, Y = S (+.*) X with S
# in CSR, any supported semiring: schedules row_gG, nnz_kK, merge_iI,
# warp_tI, the variant table and the chooser (gg_cuda_spmm,
# gg_cuda_spmm_plan, gg_cuda_spmm_choose*, gg_cuda_spmv_plan_*).
#   spmm_internal.cuh  private: the schedules described, the kernel arguments,
#                      the launchers' declarations, the (type, OP) list
#   spmm.cu            variants, chooser, type / fast-path dispatch, the
#                      public launchers
#   spmm_row_nnz.cu    row_gG (row-split) and nnz_kK (nnz-split)
#   spmm_merge.cu      merge_iI (SpMV, chunks per block)
#   spmv_warp.cu       warp_tI (SpMV, chunks per warp), its plan, and the
#                      product of its hot form (kernels/spmv_hot/)
#   spmm_rows_order.cu S's rows ordered by length on the device, the form
#                      gg_cuda_spmm_rows multiplies (gg_cuda_rows_by_length)
# Test and benchmark: tests/test_cuda_kernels, bench/kernels_bench
# (kernels/kernels.mk).
GG_SPMM_SRCS = kernels/spmm/spmm.cu kernels/spmm/spmm_row_nnz.cu \
	kernels/spmm/spmm_merge.cu kernels/spmm/spmv_warp.cu \
	kernels/spmm/spmm_rows_order.cu
EXTRA_DIST += $(GG_SPMM_SRCS) kernels/spmm/spmm_internal.cuh

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += $(GG_SPMM_SRCS)
GG_SPMM_OBJS = $(GG_SPMM_SRCS:.cu=.lo)
$(GG_SPMM_OBJS): $(GG_CUDA_INCS) $(srcdir)/kernels/spmm/spmm_internal.cuh
endif
