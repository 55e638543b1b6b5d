# backend/device.mk: the CUDA backend.  backend/device.c is always compiled:
# without CUDA (no GRBGPU_HAVE_CUDA in config.h) it is a stub whose
# grbgpu_cuda_backend () returns NULL.
libgrbgpu_la_SOURCES += backend/device.c backend/device.h backend/hostcopy.h
