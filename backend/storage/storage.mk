# backend/storage/storage.mk: views of GraphBLAS storage (O(1)), room for the
# result T, and the exact write-back.
libgrbgpu_la_SOURCES += backend/storage/storage.c backend/storage/storage.h
