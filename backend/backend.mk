# backend/backend.mk: what every part of the backend shares (settings,
# statistics, fault injection, logging; backend/grbgpu_internal.h).  Arrows:
# settings.c -> fault.c -> log.c, settings.c -> log.c, settings.c -> stats.c.  Each concern has
# its folder and its fragment, all in libgrbgpu.so unless said otherwise:
#   backend/interpose/  the exported GraphBLAS symbols, object versions,
#                       GraphBLAS's memory functions      (interpose.mk)
#   backend/dispatch/   a call -> a plan or a reason; the dispatcher
#                                                         (dispatch.mk)
#   backend/cache/      converted operands by (handle, version, form)
#                                                         (cache.mk)
#   backend/storage/    views of GraphBLAS storage, room for T, the write-back
#                                                         (storage.mk)
#   backend/host/       the host emulation backend        (host.mk)
#   backend/cuda/       the CUDA module libgrbgpu-cuda.so, and its loader
#                       (in libgrbgpu.so)                 (cuda.mk)
libgrbgpu_la_SOURCES += \
	backend/grbgpu_internal.h \
	backend/settings.c \
	backend/stats.c \
	backend/fault.c \
	backend/log.c \
	backend/team.c backend/team.h \
	kernels/gg_kernels.h
