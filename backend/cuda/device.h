//------------------------------------------------------------------------------
// backend/cuda/device.h: what the CUDA module offers beyond grbgpu_cuda_backend
//------------------------------------------------------------------------------

// grbgpu_cuda_backend () itself is declared in backend/grbgpu_internal.h.
// These are for tests and benchmarks: they never start CUDA.

#ifndef GRBGPU_DEVICE_H
#define GRBGPU_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/grbgpu_internal.h"

// Wait until device forms dropped so far are really freed (their frees are
// stream-ordered); a no-op before start-up or without CUDA.
GG_INTERNAL void grbgpu_cuda_sync (void) ;

// The device budget handed to the cache at start-up (0 before start-up).
GG_INTERNAL size_t grbgpu_cuda_budget (void) ;

// Benchmarks: when on, the product of each call (the cuSPARSE / cuBLAS call
// or own kernel, without copies) is timed with CUDA events; the time of this
// thread's last successful call, in ms (-1 when not timed).
GG_INTERNAL void grbgpu_cuda_timing (bool on) ;
GG_INTERNAL double grbgpu_cuda_last_product_ms (void) ;

#endif
