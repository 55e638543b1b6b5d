# tests/gpu_tests.mk: filled in by its owner
