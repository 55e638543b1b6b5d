//------------------------------------------------------------------------------
// tests/objver_stubs.c: what objver/cache/fault need from the rest of backend/
//------------------------------------------------------------------------------

// The unit tests of backend/interpose/objver.c, objver_wrappers.c, cache.c and
// fault.c link those files directly (their functions are hidden in
// libgrbgpu.so).  This file stands in for settings.c, log.c, stats.c and
// interpose.c: weak, so that the real definitions win wherever they are linked
// too (test_fault links settings.c, log.c and stats.c).  The counters are
// kept here so that tests can read them (gg_test_counts).

#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>

#include "backend/grbgpu_internal.h"

__attribute__ ((weak)) gg_settings grbgpu_settings =
{
    .cache_bytes = (uint64_t) 1 << 30,
    .min_work = -1,
} ;

__attribute__ ((weak)) void grbgpu_settings_init (void) { }

atomic_uint_fast64_t gg_test_counts [GG_STAT_NCOUNTERS] ;

__attribute__ ((weak)) void grbgpu_count (gg_stat which, uint64_t n)
{
    if ((unsigned) which < GG_STAT_NCOUNTERS)
    {
        atomic_fetch_add_explicit (&gg_test_counts [which], n,
            memory_order_relaxed) ;
    }
}

__attribute__ ((weak)) void grbgpu_log (int level, const char *fmt, ...)
{
    if (level > grbgpu_settings.verbose) return ;
    va_list ap ;
    va_start (ap, fmt) ;
    fprintf (stderr, "grbgpu: ") ;
    vfprintf (stderr, fmt, ap) ;
    fprintf (stderr, "\n") ;
    va_end (ap) ;
}

// From the test program, RTLD_NEXT is libgraphblas.
__attribute__ ((weak)) void *grbgpu_real (const char *name)
{
    void *f = dlsym (RTLD_NEXT, name) ;
    if (f == NULL)
    {
        fprintf (stderr, "grbgpu: %s not found in the GraphBLAS library\n",
            name) ;
        abort ( ) ;
    }
    return f ;
}

// backend/resident/resident.c: nothing is ever resident in these tests
__attribute__ ((weak)) atomic_int grbgpu_resident_live = 0 ;

__attribute__ ((weak)) GrB_Info grbgpu_resident_touch_slow (const void *obj, const char *fn)
{
    (void) obj ; (void) fn ;
    return GrB_SUCCESS ;
}

__attribute__ ((weak)) void grbgpu_resident_forget (const void *obj)
{
    (void) obj ;
}

// backend/dispatch/vec_dispatch.c: no vector or matrix operation is ever taken here
#include "backend/dispatch/vec_dispatch.h"

__attribute__ ((weak)) bool grbgpu_vec_assign (GrB_Vector w, const GrB_Vector mask,
    const GrB_BinaryOp accum, gg_type xt, double x, const GrB_Index *I,
    GrB_Index ni, const GrB_Descriptor desc, GrB_Info *info)
{
    (void) w ; (void) mask ; (void) accum ; (void) xt ; (void) x ; (void) I ;
    (void) ni ; (void) desc ; (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_dense_ewise (bool is_vector, GrB_Matrix C,
    const GrB_Matrix mask, const GrB_BinaryOp accum, const GrB_BinaryOp op,
    const GrB_Matrix A, const GrB_Matrix B, const GrB_Descriptor desc, GrB_Info *info)
{
    (void) is_vector ; (void) C ; (void) mask ; (void) accum ; (void) op ; (void) A ;
    (void) B ; (void) desc ; (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_dense_apply (bool is_vector, GrB_Matrix C,
    const GrB_Matrix mask, const GrB_BinaryOp accum, const GrB_UnaryOp op,
    const GrB_Matrix A, const GrB_Descriptor desc, GrB_Info *info)
{
    (void) is_vector ; (void) C ; (void) mask ; (void) accum ; (void) op ; (void) A ;
    (void) desc ; (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_dense_apply_bind (bool is_vector, GrB_Matrix C,
    const GrB_Matrix mask, const GrB_BinaryOp accum, const GrB_BinaryOp op,
    const GrB_Matrix A, gg_type st, double s, bool first, const GrB_Descriptor desc,
    GrB_Info *info)
{
    (void) is_vector ; (void) C ; (void) mask ; (void) accum ; (void) op ; (void) A ;
    (void) st ; (void) s ; (void) first ; (void) desc ; (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_vec_reduce (void *c, gg_type ct,
    const GrB_BinaryOp accum, const GrB_Monoid monoid, const GrB_Vector u,
    const GrB_Descriptor desc, GrB_Info *info)
{
    (void) c ; (void) ct ; (void) accum ; (void) monoid ; (void) u ; (void) desc ;
    (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_pattern_reduce (GrB_Vector w, const GrB_Vector mask,
    const GrB_BinaryOp accum, const GrB_Monoid monoid, const GrB_Matrix A,
    const GrB_Descriptor desc, GrB_Info *info)
{
    (void) w ; (void) mask ; (void) accum ; (void) monoid ; (void) A ; (void) desc ;
    (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_pattern_diag (GrB_Matrix *C, const GrB_Vector v,
    int64_t k, GrB_Info *info)
{
    (void) C ; (void) v ; (void) k ; (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_dense_dup (bool is_vector, void *handle,
    const GrB_Matrix A, GrB_Info *info)
{
    (void) is_vector ; (void) handle ; (void) A ; (void) info ;
    return false ;
}

__attribute__ ((weak)) bool grbgpu_dense_ewise_mult (bool is_vector, GrB_Matrix C,
    const GrB_Matrix mask, const GrB_BinaryOp accum, const GrB_BinaryOp op,
    const GrB_Matrix A, const GrB_Matrix B, const GrB_Descriptor desc, GrB_Info *info)
{
    (void) is_vector ; (void) C ; (void) mask ; (void) accum ; (void) op ; (void) A ;
    (void) B ; (void) desc ; (void) info ;
    return false ;
}
