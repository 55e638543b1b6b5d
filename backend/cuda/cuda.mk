# backend/cuda/cuda.mk: the CUDA backend.  It is a module of its own,
# libgrbgpu-cuda.so, which libgrbgpu.so opens with dlopen on the first call
# that wants a GPU, so that libgrbgpu.so names no CUDA library and a process
# that never offloads never maps one.  This folder holds both sides:
#
#   in libgrbgpu.so (always built):
#     cuda_loader.c     grbgpu_cuda_backend (): opens the module on first use
#     cuda_module.h     the contract between the two libraries (both include it)
#     device.h          what the module offers tests and benchmarks
#   in libgrbgpu-cuda.so (built only when configure found CUDA):
#     cuda_module.c     the one exported symbol, grbgpu_cuda_module_open
#     cuda_shim.c       the host's services, called through the host's table
#     runtime.c ... backend.c, one file per concern (cuda_internal.h), and
#     hostcopy.h        the host side of a staged copy (also bench/xfer_bench)
#
# The kernels' makefiles (kernels/*.mk) add their sources to
# libgrbgpu_cuda_la_SOURCES.

# libgrbgpu.so
libgrbgpu_la_SOURCES += backend/cuda/cuda_loader.c backend/cuda/cuda_module.h \
	backend/cuda/device.h

# libgrbgpu-cuda.so
GG_CUDA_MODULE_C = backend/cuda/runtime.c backend/cuda/copies.c \
	backend/cuda/forms.c backend/cuda/form_csr.c backend/cuda/form_dense.c \
	backend/cuda/form_band.c backend/cuda/form_hot.c backend/cuda/form_csrt.c \
	backend/cuda/vendor.c \
	backend/cuda/choose.c backend/cuda/spmm.c backend/cuda/family_tc.c \
	backend/cuda/dense.c backend/cuda/backend.c backend/cuda/slots.c \
	backend/cuda/multi.c backend/cuda/form_resident.c backend/cuda/form_exp.c \
	backend/cuda/form_nm.c backend/cuda/family_nm.c backend/cuda/family_rows.c
EXTRA_DIST += $(GG_CUDA_MODULE_C) backend/cuda/cuda_internal.h \
	backend/cuda/forms.h backend/cuda/family.h backend/cuda/multi.h \
	backend/cuda/form_nm.h \
	backend/cuda/hostcopy.h backend/cuda/cuda_module.c backend/cuda/cuda_shim.c

if HAVE_CUDA
lib_LTLIBRARIES += libgrbgpu-cuda.la
# (formats/partition.c, backend/team.c and reorder/: the module's copies; programs that link
# the module's objects get them with libgrbgpu.so's)
libgrbgpu_cuda_la_SOURCES = $(GG_CUDA_MODULE_C) formats/partition.c backend/team.c \
	reorder/reorder.c reorder/rsh.c \
	backend/cuda/cuda_internal.h backend/cuda/forms.h backend/cuda/multi.h \
	backend/cuda/form_nm.h backend/cuda/hostcopy.h backend/cuda/cuda_module.c backend/cuda/cuda_shim.c
# every symbol resolved inside (the host's services come as a table);
# -lgraphblas is not needed: the module calls no GraphBLAS function
libgrbgpu_cuda_la_LDFLAGS = -avoid-version -module -Wl,--no-undefined \
	$(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
libgrbgpu_cuda_la_LIBADD = $(CUDA_LIBS) -lm

# The module's objects without the shim, for programs that link them beside
# the host's objects (the GPU tests and benchmarks): there the grbgpu_*
# services are the host's own and grbgpu_cuda_module_open is found linked in.
GG_CUDA_MODULE_OBJS = $(GG_CUDA_MODULE_C:.c=.lo) backend/cuda/cuda_module.lo \
	$(GG_CUDA_KERNEL_OBJS) $(GG_CSR_TRANSPOSE_OBJS) $(GG_TC_OBJS) $(GG_TCS_OBJS) $(GG_NM_OBJS)
endif
