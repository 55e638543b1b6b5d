//------------------------------------------------------------------------------
// kernels/vec_ops/vec_exp.h: expf, bit for bit the host libm's, one entry
//------------------------------------------------------------------------------

// gg_backend.vec_exp (kernels/gg_kernels.h) must give exactly the bits of the
// host's expf (glibc), which the CPU library's GxB_EXP_FP32 calls.  The
// device has no such expf, so each entry is classified here, for the CUDA
// kernels (kernels/vec_ops/vec_exp.cu) and the host emulation
// (backend/host/host_exp.c) alike:
//
//  - x outside [-87, 88] (NaN and +-Inf among them: every comparison with a
//    NaN is false) is a hard case: overflow, underflow, subnormal results and
//    glibc's special paths all lie out there (exp (-87) = 1.6e-38 is still
//    normal, exp (88) = 1.65e38 still finite).
//  - Otherwise y = exp ((double) x) (the double exp of the machine it runs
//    on: CUDA's and glibc's both err by at most 1 ulp of double, relative
//    2^-52) and r = (float) y.  If y is a float, r is the answer.  Else nb is
//    the float next to r on y's side, mid = (r + nb) / 2 (exact in double)
//    and ulp = |nb - r|.  If |y - mid| > 0.005 ulp, r is the answer; else the
//    entry is a hard case.
//
// Why r is then glibc's answer: glibc's expf (sysdeps/ieee754/flt-32, since
// 2.28) computes a double approximation d of e = exp (x) with relative error
// below 1.69 * 2^-34 and rounds d to float once.  For a normal float the gap
// between neighbours is at least e * 2^-24, so |d - e| < 1.69 * 2^-10 gap =
// 0.00165 gap, and |y - e| < 2^-52 e is far smaller still.  So when y is more
// than 0.005 gap away from the midpoint between r and nb (the only rounding
// boundary between y and the floats next to it), d is on the same side of it
// and rounds to r too; when y is a float, d is within 0.002 gap of it and
// rounds to it.  (At a power of two the gap below is half the gap above; the
// bound is in terms of the gap on y's side, where the boundary is.)  About 1 %
// of the entries in range are hard (2 * 0.005 of the uniformly spread
// fractions); the caller computes them with the host's expf itself.
//
// No FMA contraction matters here (the CUDA build has -fmad=false anyway): a
// different rounding of the test near the 0.005 threshold only moves an entry
// between "easy" and "hard", both of which give the right answer.

#ifndef GG_VEC_EXP_H
#define GG_VEC_EXP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include "kernels/gg_hd.h"

// the float next to r > 0 (finite, normal), up or down
GG_HD float gg_exp_fp32_next (float r, bool up)
{
    const uint32_t u = gg_f32_bits (r) ;
    return gg_f32_of_bits (up ? u + 1u : u - 1u) ;
}

// True, with *r = expf (x) exactly as the host's libm gives it, when x is an
// easy entry; false (*r untouched) when the caller must ask the host's expf.
GG_HD bool gg_exp_fp32_easy (float x, float *r)
{
    if (!(x >= -87.0f && x <= 88.0f)) return false ;
    const double y = exp ((double) x) ;
    const float f = (float) y ;
    const double fd = (double) f ;
    if (fd == y)
    {
        *r = f ;
        return true ;
    }
    const double nb = (double) gg_exp_fp32_next (f, y > fd) ;
    const double mid = (fd + nb) * 0.5 ;
    const double ulp = fabs (nb - fd) ;
    if (fabs (y - mid) > 0.005 * ulp)
    {
        *r = f ;
        return true ;
    }
    return false ;
}

#endif
