# backend/storage/storage.mk: GraphBLAS storage, read and written (storage.h):
#   view.c        operands read in place (iterator attach), O(1)
#   result.c      room for the result T (C's own arrays, scratch, fresh)
#   writeback.c   the exact write-back, C<M,replace> = accum (C, T)
#   buffer.c      buffers for T: GraphBLAS's memory functions (huge pages),
#                 the per-thread scratch buffer
# (arrows: result.c -> writeback.c -> buffer.c; storage_private.h)
libgrbgpu_la_SOURCES += backend/storage/storage.h \
	backend/storage/storage_private.h \
	backend/storage/view.c \
	backend/storage/result.c \
	backend/storage/writeback.c \
	backend/storage/buffer.c
