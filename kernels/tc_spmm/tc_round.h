//------------------------------------------------------------------------------
// kernels/tc_spmm/tc_round.h: the tensor-core kernels' TF32 rounding and split
//------------------------------------------------------------------------------

// Plain C for the host and __host__ __device__ for the kernels
// (tc_device.cuh), so that tests/test_tc_round.c checks on the CPU, in every
// build, what the kernels compute.  (tests/test_tc_spmm.cu also compares the
// rounding with the hardware's cvt.rna.tf32.f32 on a GPU.)

#ifndef GG_TC_ROUND_H
#define GG_TC_ROUND_H

#include "kernels/gg_hd.h"

// a rounded to TF32 (to nearest, ties away from zero), as a float's bits
// with the low 13 bits zero: what cvt.rna.tf32.f32 gives for every finite a,
// in two integer instructions (IADD3, LOP3) where sm_90's cvt is three (a
// test for Inf / NaN, a predicated add, LOP3) and a register for the
// constant (2026-11-29 eighth session, bench/NOTES.md).  Adding half a TF32
// unit to the bits rounds the magnitude (a carry into the exponent is the
// next binade, or infinity past the largest TF32 value, as the cvt); the
// sign bit is not touched.  Not for Inf or NaN (the family never multiplies
// them: a NaN with a payload in the low bits only would come out infinite).
GG_HD uint32_t gg_tc_tf32 (float a)
{
    return (gg_f32_bits (a) + 0x1000u) & 0xffffe000u ;
}

// a -> ns (1..3) TF32 parts s [0 .. ns-1] (exact differences: a - a1 is
// exact in FP32).  The third part is not rounded: a's 24 significant bits
// less the two parts' 11 + 11 leave at most 3, at or above a's lowest bit,
// so where that bit is a normal number's (|a| >= 2^-103, which the family's
// range of [2^-51, 2^63] ensures: gg_tc_values_plain) r1 - a2 is a TF32
// value and a = a1 + a2 + a3 exactly (tests/test_tc_round.c).
GG_HD void gg_tc_split (float a, int ns, uint32_t s [3])
{
    s [0] = gg_tc_tf32 (a) ;
    if (ns > 1)
    {
        const float r1 = a - gg_f32_of_bits (s [0]) ;
        s [1] = gg_tc_tf32 (r1) ;
        if (ns > 2) s [2] = gg_f32_bits (r1 - gg_f32_of_bits (s [1])) ;
    }
}

#endif
