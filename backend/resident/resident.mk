# backend/resident/resident.mk: results kept on the device (the registry,
# materialisation, eviction); the wrappers that materialise are generated
# with the version wrappers (scripts/gen_objver.py).
libgrbgpu_la_SOURCES += backend/resident/resident.c backend/resident/resident.h

# tests/test_resident: chains of products kept resident, read and changed in
# every way, freed, evicted, with faults (the host emulation backend;
# GRBGPU_TEST_DEVICE=cuda runs it on the GPU)
if HAVE_CMOCKA
check_PROGRAMS += tests/test_resident
TESTS += tests/test_resident
tests_test_resident_SOURCES = tests/test_resident.c
tests_test_resident_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_resident_LDFLAGS = $(AX_PTHREAD_FLAGS)
tests_test_resident_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm
endif
