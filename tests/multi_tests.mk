# tests/multi_tests.mk: the split path of GRBGPU_DEVICES (tests/test_multi.c).
#
# tests/test_multi: the partitioner, and products split across slots on the
# host emulation backend (which models the slots, on the same persistent
# workers), in `make check`; tests/test_multi_slots.c: workers reused across
# slot counts, a failure in the middle of a stream of split calls;
# tests/test_multi_sddmm.c: SDDMM split across slots (masks, accumulator,
# replace, a slot made to fail).
# tests/test_multi_cuda: the same sources with the CUDA module's objects
# linked in (as tests/gpu_tests.mk does), on the GPU with GRBGPU_DEVICES=0,0,
# plus a failure made on the second slot, and slots on "other devices" of one
# GPU (the test hook gg_cuda_fake_devices: "0,1", "all"); exits 77 without a
# GPU.
if HAVE_CMOCKA
# tests/test_team: backend/team.c (the slots' persistent workers) alone.
check_PROGRAMS += tests/test_team
TESTS += tests/test_team
tests_test_team_SOURCES = tests/test_team.c backend/team.c backend/team.h
tests_test_team_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_team_LDADD = $(CMOCKA_LIBS)
tests_test_team_LDFLAGS = $(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)

check_PROGRAMS += tests/test_multi
TESTS += tests/test_multi
tests_test_multi_SOURCES = tests/test_multi.c tests/test_multi_slots.c tests/test_multi_sddmm.c tests/multi_util.h \
	formats/partition.c formats/partition.h $(CONFORMANCE_UTIL_SOURCES)
tests_test_multi_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_multi_LDADD = libgrbgpu.la -lgraphblas $(CMOCKA_LIBS) -lm

if HAVE_CUDA
check_PROGRAMS += tests/test_multi_cuda
TESTS += tests/test_multi_cuda
tests_test_multi_cuda_SOURCES = tests/test_multi.c tests/test_multi_slots.c tests/test_multi_sddmm.c tests/multi_util.h \
	$(CONFORMANCE_UTIL_SOURCES)
tests_test_multi_cuda_CPPFLAGS = $(AM_CPPFLAGS) -DGG_TEST_MULTI_CUDA
tests_test_multi_cuda_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_test_multi_cuda_LDADD = $(libgrbgpu_la_OBJECTS) \
	$(libgrbgpu_la_LIBADD) $(GG_CUDA_MODULE_OBJS) $(CUDA_LIBS) $(CMOCKA_LIBS) -lm
tests_test_multi_cuda_LDFLAGS = $(OPENMP_CFLAGS) $(AX_PTHREAD_FLAGS)
tests_test_multi_cuda_DEPENDENCIES = libgrbgpu.la libgrbgpu-cuda.la
endif
endif
