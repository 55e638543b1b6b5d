# backend/: the exported entry points, classification, dispatch, settings,
# statistics, operand views and write-back.
libgrbgpu_la_SOURCES += \
	backend/grbgpu_internal.h \
	backend/cache.h \
	backend/interpose.c \
	backend/classify.c backend/classify.h \
	backend/storage.c backend/storage.h \
	backend/galloc.c backend/galloc.h \
	backend/dispatch.c \
	backend/settings.c \
	backend/stats.c \
	kernels/gg_kernels.h
