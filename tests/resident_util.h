//------------------------------------------------------------------------------
// tests/resident_util.h: what the residency tests share
//------------------------------------------------------------------------------

// Header-only, for tests/test_resident.c, test_vec_ops.c, test_mat_ops.c and
// test_vec_pattern.c (include after cmocka.h, GraphBLAS.h and grbgpu.h):
// which device the offload side uses (GRBGPU_TEST_DEVICE=cuda: the GPU, else
// the host emulation), settings, statistics, the operators of the dense
// path, a vector's values read through the CPU library, and a xorshift
// stream whose state each test keeps.

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

// The start of a residency test's main: GraphBLAS with residency on and
// every call offloaded (MIN_WORK=0) on the test's device.  0, or 77 (and
// GraphBLAS finalized) when a GPU run finds no GPU: return it.
static inline int resident_test_start (const char *prog)
{
    OK (GrB_init (GrB_NONBLOCKING)) ;
    set ("MIN_WORK", "0") ;
    set ("RESIDENT", "1") ;
    device_on ( ) ;
    if (skip_without_cuda (prog) == 0) return 0 ;
    GrB_finalize ( ) ;
    return 77 ;
}

static inline grbgpu_stats stats (void)
{
    grbgpu_stats s ;
    grbgpu_stats_get (&s) ;
    return s ;
}

// The built-in FP32 / FP64 operators the dense path takes (backend/
// dispatch/vec_dispatch.c), listed independently of it: binary, in this
// order FIRST, SECOND, PLUS, MINUS, TIMES, DIV, MIN, MAX, ISEQ, ISNE, ISGT,
// ISLT, ISGE, ISLE; unary IDENTITY, AINV, ABS
enum { NBINOPS = 14, NUNOPS = 3 } ;

static inline GrB_BinaryOp test_binop (GrB_Type t, int k)
{
    const GrB_BinaryOp f32 [NBINOPS] = { GrB_FIRST_FP32, GrB_SECOND_FP32, GrB_PLUS_FP32,
        GrB_MINUS_FP32, GrB_TIMES_FP32, GrB_DIV_FP32, GrB_MIN_FP32, GrB_MAX_FP32,
        GxB_ISEQ_FP32, GxB_ISNE_FP32, GxB_ISGT_FP32, GxB_ISLT_FP32, GxB_ISGE_FP32,
        GxB_ISLE_FP32 } ;
    const GrB_BinaryOp f64 [NBINOPS] = { GrB_FIRST_FP64, GrB_SECOND_FP64, GrB_PLUS_FP64,
        GrB_MINUS_FP64, GrB_TIMES_FP64, GrB_DIV_FP64, GrB_MIN_FP64, GrB_MAX_FP64,
        GxB_ISEQ_FP64, GxB_ISNE_FP64, GxB_ISGT_FP64, GxB_ISLT_FP64, GxB_ISGE_FP64,
        GxB_ISLE_FP64 } ;
    return (t == GrB_FP32) ? f32 [k] : f64 [k] ;
}

static inline GrB_UnaryOp test_unop (GrB_Type t, int k)
{
    const GrB_UnaryOp f32 [NUNOPS] = { GrB_IDENTITY_FP32, GrB_AINV_FP32, GrB_ABS_FP32 } ;
    const GrB_UnaryOp f64 [NUNOPS] = { GrB_IDENTITY_FP64, GrB_AINV_FP64, GrB_ABS_FP64 } ;
    return (t == GrB_FP32) ? f32 [k] : f64 [k] ;
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
