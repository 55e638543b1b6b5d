# backend/objver.mk: filled in by its owner
