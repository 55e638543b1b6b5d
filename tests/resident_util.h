//------------------------------------------------------------------------------
// tests/resident_util.h: what the residency tests share
//------------------------------------------------------------------------------

// Header-only, for tests/test_resident.c, test_vec_ops.c and test_vec_pattern.c (include
// after cmocka.h, GraphBLAS.h and grbgpu.h): which device the offload side
// uses (GRBGPU_TEST_DEVICE=cuda: the GPU, else the host emulation), settings,
// statistics, a vector's values read through the CPU library, and a
// xorshift stream whose state each test keeps.

#ifndef GG_RESIDENT_UTIL_H
#define GG_RESIDENT_UTIL_H

#define OK(call) assert_int_equal ((call), GrB_SUCCESS)

static inline uint64_t xorshift (uint64_t *s)
{
    *s ^= *s << 13 ;
    *s ^= *s >> 7 ;
    *s ^= *s << 17 ;
    return *s ;
}

static inline bool on_cuda (void)
{
    const char *d = getenv ("GRBGPU_TEST_DEVICE") ;
    return d != NULL && strcmp (d, "cuda") == 0 ;
}

static inline void set (const char *name, const char *value)
{
    assert_int_equal (grbgpu_set (name, value), 0) ;
}

static inline void device_on (void)  { set ("DEVICE", on_cuda ( ) ? "cuda" : "host") ; }
static inline void device_cpu (void) { set ("DEVICE", "cpu") ; }

// With GRBGPU_TEST_DEVICE=cuda and no usable CUDA device: say so and
// return 77, the exit status of a skipped test, as the other GPU tests do;
// else 0.  The probe: a scalar assigned to a full vector (residency on), which
// runs on the device when there is one.
static inline int skip_without_cuda (const char *prog)
{
    if (!on_cuda ( )) return 0 ;
    GrB_Vector p ;
    OK (GrB_Vector_new (&p, GrB_FP64, 1000)) ;
    OK (GrB_Vector_assign_FP64 (p, NULL, NULL, 1.0, GrB_ALL, 1000, NULL)) ;
    const char *d = grbgpu_last_decision ( ) ;
    const bool cuda = (d != NULL && strcmp (d, "cuda") == 0) ;
    GrB_Vector_free (&p) ;
    if (cuda) return 0 ;
    printf ("%s: no usable CUDA device (%s): skipped\n", prog, d ? d : "?") ;
    return 77 ;
}

static inline grbgpu_stats stats (void)
{
    grbgpu_stats s ;
    grbgpu_stats_get (&s) ;
    return s ;
}

// w's values through extractTuples (the CPU library's own read); w must be
// full (every one of its size entries present)
static inline void values_of (GrB_Vector w, double *x)
{
    GrB_Index size = 0 ;
    OK (GrB_Vector_size (&size, w)) ;
    GrB_Index n = size ;
    GrB_Index *I = malloc ((size_t) (size + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((size_t) (size + 1) * sizeof (double)) ;
    assert_non_null (I) ;
    assert_non_null (X) ;
    OK (GrB_Vector_extractTuples_FP64 (I, X, &n, w)) ;
    assert_int_equal (n, size) ;
    for (GrB_Index k = 0 ; k < n ; k++) x [I [k]] = X [k] ;
    free (I) ;
    free (X) ;
}

#endif
