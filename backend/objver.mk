# backend/objver.mk: object versions (and the generated wrappers that keep
# them), the cache of converted operands, fault injection.
libgrbgpu_la_SOURCES += \
	backend/objver.c \
	backend/objver_wrappers.c \
	backend/cache.c \
	backend/fault.c

# backend/objver_wrappers.c is generated from GraphBLAS.h and committed; after
# a GraphBLAS upgrade run `make regen-objver` and review the diff
# (tests/test_objver_gen.sh fails until then).
GRAPHBLAS_H ?= /usr/include/GraphBLAS.h
regen-objver:
	python3 $(srcdir)/scripts/gen_objver.py $(GRAPHBLAS_H) $(srcdir)/backend/objver_wrappers.c
.PHONY: regen-objver
