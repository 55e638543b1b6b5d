//------------------------------------------------------------------------------
// tests/cuda_check.h: a CUDA runtime call that must succeed (tests, benches)
//------------------------------------------------------------------------------

// CHECK_CUDA (call): on failure, print where and why and exit (1): the GPU
// test programs and bench/nm_gpu_bench share it.

#ifndef GG_TESTS_CUDA_CHECK_H
#define GG_TESTS_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK_CUDA(call)                                                    \
    do {                                                                    \
        cudaError_t err_ = (call) ;                                         \
        if (err_ != cudaSuccess) {                                          \
            fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,  \
                cudaGetErrorString (err_)) ;                                \
            exit (1) ;                                                      \
        }                                                                   \
    } while (0)

#endif
