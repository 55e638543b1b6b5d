//------------------------------------------------------------------------------
// kernels/gg_hd.h: functions compiled for both the host and the device
//------------------------------------------------------------------------------

// Headers whose functions the kernels and plain C share (an entry's
// semantics for the host emulation, kernels/vec_ops/vec_elem.h and
// vec_exp.h; the tensor cores' TF32 rounding, kernels/tc_spmm/tc_round.h)
// declare them GG_HD, and take a float's bits with these two.

#ifndef GG_HD_H
#define GG_HD_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define GG_HD __host__ __device__ __forceinline__
#else
#define GG_HD static inline
#endif

// a float's bits, and the float of some bits
GG_HD uint32_t gg_f32_bits (float a)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint (a) ;
#else
    uint32_t u ;
    memcpy (&u, &a, sizeof u) ;
    return u ;
#endif
}

GG_HD float gg_f32_of_bits (uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float (u) ;
#else
    float a ;
    memcpy (&a, &u, sizeof a) ;
    return a ;
#endif
}

#endif
