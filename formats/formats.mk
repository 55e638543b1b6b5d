# formats/formats.mk: filled in by its owner
