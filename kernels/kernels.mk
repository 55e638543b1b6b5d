# kernels/kernels.mk: filled in by its owner
