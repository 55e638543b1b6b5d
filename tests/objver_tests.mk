# tests/objver_tests.mk: filled in by its owner
