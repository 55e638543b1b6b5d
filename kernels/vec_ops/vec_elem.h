//------------------------------------------------------------------------------
// kernels/vec_ops/vec_elem.h: one entry of a dense vector operation
//------------------------------------------------------------------------------

// The semantics of gg_vec_args (kernels/gg_kernels.h), one entry at a time,
// for the host emulation (backend/host/host_vec_ops.c) and the CUDA kernels
// (kernels/vec_ops/vec_ops.cu) alike: each operator is the single C operator
// the CPU library applies (x / y, x - y, -x, fabs (x), x > y, ...), so Inf,
// NaN and -0 come out as there.  No operation here can be contracted into an
// FMA (one arithmetic operation per entry).  MIN / MAX are the CPU library's
// fmin / fmax (glibc's), spelled out because C leaves the choice between -0
// and +0 open: a NaN loses against a number (of two NaNs, x is the answer),
// and of two equal operands (-0 and +0 among them) y is.  The comparisons
// (ISEQ ... ISLE) give 1 or 0 in the type; any comparison with a NaN is false
// (ISNE: true).  The reduction's combine follows the monoids: PLUS starts
// from -0 (the identity that keeps an all -0 sum -0, as the CPU library's
// first-entry start does), TIMES from 1, MIN / MAX omit NaNs (the same MIN /
// MAX, identity NaN: an all-NaN vector gives NaN).  A reduction on a pattern
// skips the absent positions (as if they held the identity), so the values
// there never reach a result.

#ifndef GG_VEC_ELEM_H
#define GG_VEC_ELEM_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include "kernels/gg_kernels.h"
#include "kernels/gg_hd.h"

#define GG_VEC_ELEM(T, SUFFIX)                                                \
GG_HD T gg_vec_min_ ## SUFFIX (T x, T y)                                      \
{                                                                             \
    return (y != y) ? x : (x != x) ? y : (x < y) ? x : y ;                    \
}                                                                             \
GG_HD T gg_vec_max_ ## SUFFIX (T x, T y)                                      \
{                                                                             \
    return (y != y) ? x : (x != x) ? y : (x > y) ? x : y ;                    \
}                                                                             \
GG_HD T gg_vec_apply_ ## SUFFIX (gg_vop op, T x, T y)                         \
{                                                                             \
    switch (op)                                                               \
    {                                                                         \
        case GG_VOP_FIRST:    return x ;                                      \
        case GG_VOP_SECOND:   return y ;                                      \
        case GG_VOP_PLUS:     return x + y ;                                  \
        case GG_VOP_MINUS:    return x - y ;                                  \
        case GG_VOP_TIMES:    return x * y ;                                  \
        case GG_VOP_DIV:      return x / y ;                                  \
        case GG_VOP_MIN:      return gg_vec_min_ ## SUFFIX (x, y) ;           \
        case GG_VOP_MAX:      return gg_vec_max_ ## SUFFIX (x, y) ;           \
        case GG_VOP_ISEQ:     return (T) (x == y) ;                           \
        case GG_VOP_ISNE:     return (T) (x != y) ;                           \
        case GG_VOP_ISGT:     return (T) (x > y) ;                            \
        case GG_VOP_ISLT:     return (T) (x < y) ;                            \
        case GG_VOP_ISGE:     return (T) (x >= y) ;                           \
        case GG_VOP_ISLE:     return (T) (x <= y) ;                           \
        case GG_VOP_IDENTITY: return x ;                                      \
        case GG_VOP_AINV:     return -x ;                                     \
        default:              return (T) fabs (x) ;     /* GG_VOP_ABS */      \
    }                                                                         \
}                                                                             \
GG_HD T gg_vec_combine_ ## SUFFIX (gg_add add, T a, T b)                      \
{                                                                             \
    switch (add)                                                              \
    {                                                                         \
        case GG_ADD_MIN: return gg_vec_min_ ## SUFFIX (a, b) ;                \
        case GG_ADD_MAX: return gg_vec_max_ ## SUFFIX (a, b) ;                \
        case GG_ADD_TIMES: return a * b ;                                     \
        default:         return a + b ;                                       \
    }                                                                         \
}                                                                             \
/* MIN / MAX of a matrix's row as the CPU library reduces one: in order,  */\
/* z = op (z, a) keeping z on a tie (of equal values, -0 and +0 among      */\
/* them, the first wins) and omitting NaNs (all NaN: the first NaN).  Free  */\
/* of order with the entries' positions: of (x, i) and (y, j), true when    */\
/* the in-order reduction keeps (x, i).                                     */\
GG_HD bool gg_vec_keep_ ## SUFFIX (gg_add add, T x, int64_t i, T y, int64_t j) \
{                                                                             \
    const bool xn = (x != x), yn = (y != y) ;                                 \
    if (xn || yn) return (xn && yn) ? (i <= j) : yn ;                         \
    if (x == y) return i <= j ;                                               \
    return (add == GG_ADD_MIN) ? (x < y) : (x > y) ;                          \
}                                                                             \
GG_HD T gg_vec_identity_ ## SUFFIX (gg_add add)                               \
{                                                                             \
    return (add == GG_ADD_PLUS) ? (T) -0.0                                    \
        : (add == GG_ADD_TIMES) ? (T) 1 : (T) NAN ;                           \
}

GG_VEC_ELEM (float, fp32)
GG_VEC_ELEM (double, fp64)

// a resident vector on a pattern: the value kept at position i
#define GG_VEC_SELECT(pb, x, i) ((pb) [i] ? (x) [i] : 0)

#undef GG_VEC_ELEM

#endif
