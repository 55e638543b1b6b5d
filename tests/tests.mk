# tests/tests.mk: filled in by its owner
