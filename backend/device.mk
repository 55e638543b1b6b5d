# backend/device.mk: the CUDA backend (backend/cuda/, one file per concern:
# backend/cuda/cuda_internal.h).  It is a module of its own,
# libgrbgpu-cuda.so, which libgrbgpu.so opens with dlopen on the first call
# that wants a GPU (backend/cuda_loader.c, backend/cuda_module.h), so that
# libgrbgpu.so names no CUDA library and a process that never offloads never
# maps one.  The loader is always in libgrbgpu.so; the module is built only
# when configure found CUDA.  The kernels' makefiles (kernels/*.mk) add their
# sources to libgrbgpu_cuda_la_SOURCES.
libgrbgpu_la_SOURCES += backend/cuda_loader.c backend/cuda_module.h \
	backend/device.h
GG_CUDA_MODULE_C = backend/cuda/runtime.c backend/cuda/copies.c \
	backend/cuda/forms.c backend/cuda/vendor.c backend/cuda/choose.c \
	backend/cuda/spmm.c backend/cuda/dense.c backend/cuda/backend.c
EXTRA_DIST += $(GG_CUDA_MODULE_C) backend/cuda/cuda_internal.h \
	backend/hostcopy.h backend/cuda_module.c backend/cuda_shim.c

if HAVE_CUDA
lib_LTLIBRARIES += libgrbgpu-cuda.la
libgrbgpu_cuda_la_SOURCES = $(GG_CUDA_MODULE_C) backend/cuda/cuda_internal.h \
	backend/hostcopy.h backend/cuda_module.c backend/cuda_shim.c
# every symbol resolved inside (the host's services come as a table);
# -lgraphblas is not needed: the module calls no GraphBLAS function
libgrbgpu_cuda_la_LDFLAGS = -avoid-version -module -Wl,--no-undefined \
	$(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
libgrbgpu_cuda_la_LIBADD = $(CUDA_LIBS) -lm

# The module's objects without the shim, for programs that link them beside
# the host's objects (the GPU tests and benchmarks): there the grbgpu_*
# services are the host's own and grbgpu_cuda_module_open is found linked in.
GG_CUDA_MODULE_OBJS = $(GG_CUDA_MODULE_C:.c=.lo) backend/cuda_module.lo \
	$(GG_CUDA_KERNEL_OBJS) $(GG_CSR_TRANSPOSE_OBJS)
endif
