# backend/interpose/interpose.mk: the exported GrB_mxm / GrB_mxv / GrB_vxm and
# GxB_init, the object versions and the generated wrappers that keep them,
# and the memory functions GraphBLAS was given.
libgrbgpu_la_SOURCES += \
	backend/interpose/interpose.c \
	backend/interpose/objver.c backend/interpose/objver.h \
	backend/interpose/objver_wrappers.c \
	backend/interpose/galloc.c backend/interpose/galloc.h

# backend/interpose/objver_wrappers.c is generated from GraphBLAS.h and
# committed; after a GraphBLAS upgrade run `make regen-objver` and review the
# diff (tests/test_objver_gen.sh fails until then).
GRAPHBLAS_H ?= /usr/include/GraphBLAS.h
regen-objver:
	python3 $(srcdir)/scripts/gen_objver.py $(GRAPHBLAS_H) $(srcdir)/backend/interpose/objver_wrappers.c
.PHONY: regen-objver
