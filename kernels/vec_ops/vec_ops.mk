# kernels/vec_ops/vec_ops.mk: element-wise operations and reductions on dense
# device vectors, a full matrix's values being one (gg_cuda_vec_op,
# gg_cuda_vec_reduce, also over a pattern, gg_cuda_vec_gather,
# gg_cuda_vec_select), run by the CUDA backend on resident buffers
# (backend/cuda/form_resident.c).
#   vec_elem.h   one entry's semantics, shared with the host emulation
#                (backend/host/host_vec_ops.c)
#   vec_ops.cu   the kernels and the launchers
# Tests: tests/test_vec_ops, tests/test_mat_ops, tests/test_vec_pattern (the
# host emulation in make check; the GPU with GRBGPU_TEST_DEVICE=cuda,
# gpu_round.sh steps res2, sink, mres).
EXTRA_DIST += kernels/vec_ops/vec_elem.h kernels/vec_ops/vec_ops.cu
EXTRA_DIST += kernels/vec_ops/vec_exp.h kernels/vec_ops/vec_exp_cuda.h kernels/vec_ops/vec_exp.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/vec_ops/vec_ops.cu
libgrbgpu_cuda_la_SOURCES += kernels/vec_ops/vec_exp.cu
GG_VEC_OPS_OBJS = kernels/vec_ops/vec_ops.lo kernels/vec_ops/vec_exp.lo
$(GG_VEC_OPS_OBJS): $(GG_CUDA_INCS) $(srcdir)/kernels/vec_ops/vec_elem.h $(srcdir)/kernels/gg_hd.h
$(GG_VEC_OPS_OBJS): $(srcdir)/kernels/vec_ops/vec_exp.h $(srcdir)/kernels/vec_ops/vec_exp_cuda.h
endif
