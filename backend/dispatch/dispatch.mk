# backend/dispatch/dispatch.mk: what is this call, and what to do with it.
#   semiring.c    the semirings the kernels run: operator tables, the standard
#                 identity / terminal checks, built-in semirings remembered
#   classify.c    a call -> a plan (canonical product) or a named reason to
#                 decline: operands (and their memo), descriptor, shapes
#   dispatch.c    cost model, backend choice, room for T, kernel, write-back
#   forms.c       a product's operands as converted forms through the cache
#                 (dispatch_private.h: what the two share)
#   vec_dispatch.c  dense vector operations on resident buffers (assign of a
#                 scalar, eWise, apply, reduce, dup), and a product's
#                 accumulation into a resident output (vec_accum.c), a
#                 resident vector on a pattern (vec_pattern.c: t .* sink);
#                 vec_private.h: what they share
#   mat_pattern.c a matrix resident on a pattern (an SDDMM's result): apply
#                 (EXP among them), row reductions, the product by a diagonal
libgrbgpu_la_SOURCES += \
	backend/dispatch/semiring.c backend/dispatch/semiring.h \
	backend/dispatch/classify.c backend/dispatch/classify.h \
	backend/dispatch/dispatch.c backend/dispatch/dispatch_private.h \
	backend/dispatch/forms.c \
	backend/dispatch/vec_dispatch.c backend/dispatch/vec_dispatch.h \
	backend/dispatch/vec_accum.c backend/dispatch/vec_private.h \
	backend/dispatch/vec_pattern.c backend/dispatch/mat_pattern.c
