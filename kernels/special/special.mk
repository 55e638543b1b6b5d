# kernels/special/special.mk: whether an array of FP values holds an
# infinity, a NaN or a subnormal (gg_cuda_special_values), which the backend
# asks before it hands values to cuSPARSE or cuBLAS.
#   special_values.cu   the kernel and the launcher
# No test of its own: the conformance suite's nonfinite groups reach it
# through the backend on a GPU (tests/test_conformance).
EXTRA_DIST += kernels/special/special_values.cu

if HAVE_CUDA
libgrbgpu_cuda_la_SOURCES += kernels/special/special_values.cu
GG_SPECIAL_OBJS = kernels/special/special_values.lo
$(GG_SPECIAL_OBJS): $(GG_CUDA_INCS)
endif
