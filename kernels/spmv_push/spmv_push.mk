# kernels/spmv_push/spmv_push.mk: the push SpMV, w = A' (+.*) u from A's own
# CSR with one monoid atomic per entry (gg_cuda_spmv_push).  Measured against
# the pull on a transposed CSR; the backend does not call it.
#   spmv_push.cu   the kernels and the launcher
# Test: tests/test_cuda_backend (tests/gpu_tests.mk); benchmark:
# bench/spmm_bench's vxm rows.
EXTRA_DIST += kernels/spmv_push/spmv_push.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/spmv_push/spmv_push.cu
GG_SPMV_PUSH_OBJS = kernels/spmv_push/spmv_push.lo
$(GG_SPMV_PUSH_OBJS): $(GG_CUDA_INCS)
endif
