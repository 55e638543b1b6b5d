# backend/host.mk: filled in by its owner
