# backend/cache/cache.mk: converted operands, keyed by (handle, version, form).
libgrbgpu_la_SOURCES += backend/cache/cache.c backend/cache/cache.h
