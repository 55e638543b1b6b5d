//------------------------------------------------------------------------------
// tests/need_device.h: the start of a GPU test or benchmark
//------------------------------------------------------------------------------

// Without a CUDA device: print "SKIP: no CUDA device" and exit 77 (automake's
// code for a skipped test); else *prop (when not NULL) = the properties of
// device 0 (exit 1 if they cannot be read).  For the test programs under
// tests/ and the benchmarks under bench/ that call the kernels directly.

#ifndef GG_NEED_DEVICE_H
#define GG_NEED_DEVICE_H

#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime_api.h>

static inline void gg_need_device (cudaDeviceProp *prop)
{
    int ndev = 0 ;
    if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev == 0)
    {
        printf ("SKIP: no CUDA device\n") ;
        exit (77) ;
    }
    if (prop != NULL && cudaGetDeviceProperties (prop, 0) != cudaSuccess)
    {
        printf ("cudaGetDeviceProperties failed\n") ;
        exit (1) ;
    }
}

#endif
