//------------------------------------------------------------------------------
// tests/vec_pattern_util.h: what tests/test_vec_pattern.c builds and compares
//------------------------------------------------------------------------------

// Header-only (include after cmocka.h, GraphBLAS.h, grbgpu.h and
// tests/resident_util.h): random values with Inf, NaN and -0, a resident
// vector t and its twin, a pattern s of a given density and type, the
// comparison of a result with the CPU library's (entries, values, sparsity
// status, iso), reductions and their comparison.

#ifndef GG_VEC_PATTERN_UTIL_H
#define GG_VEC_PATTERN_UTIL_H

enum { N = 2000 } ;

static uint64_t rng = 0x2545f4914f6cdd1dULL ;
static uint64_t rnd (void) { return xorshift (&rng) ; }

// a random value, 1 in 8 special; mild: ordinary values of magnitude in
// [0.5, 2] (a product of many cannot overflow in one order and not another)
static double value (bool mild)
{
    switch (rnd ( ) % 32)
    {
        case 0: return INFINITY ;
        case 1: return -INFINITY ;
        case 2: return NAN ;
        case 3: return -0.0 ;
    }
    double sign = (rnd ( ) % 2) ? -1.0 : 1.0 ;
    if (mild) return sign * (0.5 + (double) (rnd ( ) % 1537) / 1024.0) ;
    return sign * (double) (rnd ( ) % 2000001) / 1024.0 ;
}

// t (made resident on the device by an apply of IDENTITY) and its twin on
// the host, of type ty, values from `value`
static void make_t (GrB_Type ty, bool mild, GrB_Vector *t, GrB_Vector *tt)
{
    OK (GrB_Vector_new (t, ty, N)) ;
    OK (GrB_Vector_new (tt, ty, N)) ;
    for (GrB_Index i = 0 ; i < N ; i++)
    {
        double x = value (mild) ;
        OK (GrB_Vector_setElement_FP64 (*t, x, i)) ;
        OK (GrB_Vector_setElement_FP64 (*tt, x, i)) ;
    }
    OK (GrB_Vector_wait (*t, GrB_MATERIALIZE)) ;
    OK (GrB_Vector_wait (*tt, GrB_MATERIALIZE)) ;
    device_on ( ) ;
    GrB_UnaryOp id = (ty == GrB_FP32) ? GrB_IDENTITY_FP32 : GrB_IDENTITY_FP64 ;
    uint64_t kept = stats ( ).resident_kept ;
    OK (GrB_Vector_apply (*t, NULL, NULL, id, *t, NULL)) ;
    assert_true (stats ( ).resident_kept > kept) ;
}

// a pattern of about permille/1000 of the positions (0: empty, 1000: all),
// of type sty, held with sparsity control `control`
static GrB_Vector make_s (GrB_Type sty, int permille, int control)
{
    GrB_Vector s ;
    OK (GrB_Vector_new (&s, sty, N)) ;
    for (GrB_Index i = 0 ; i < N ; i++)
    {
        if ((int) (rnd ( ) % 1000) >= permille) continue ;
        OK (GrB_Vector_setElement_INT32 (s, (int32_t) (rnd ( ) % 3), i)) ;
    }
    OK (GxB_Vector_Option_set (s, GxB_SPARSITY_CONTROL, control)) ;
    OK (GrB_Vector_wait (s, GrB_MATERIALIZE)) ;
    return s ;
}

static bool same_value (double x, double y)
{
    return (isnan (x) && isnan (y)) || (x == y && signbit (x) == signbit (y)) ;
}

// w (materialised by this) is the CPU library's wt: entries, values bit for
// bit, sparsity status and iso flag
static void assert_same_object (GrB_Vector w, GrB_Vector wt, const char *what)
{
    GrB_Index nw, nt ;
    OK (GrB_Vector_nvals (&nw, w)) ;
    OK (GrB_Vector_nvals (&nt, wt)) ;
    assert_int_equal (nw, nt) ;
    static GrB_Index I [N], J [N] ;
    static double X [N], Y [N] ;
    OK (GrB_Vector_extractTuples_FP64 (I, X, &nw, w)) ;
    OK (GrB_Vector_extractTuples_FP64 (J, Y, &nt, wt)) ;
    for (GrB_Index k = 0 ; k < nw ; k++)
    {
        assert_int_equal (I [k], J [k]) ;
        if (!same_value (X [k], Y [k]))
        {
            fail_msg ("%s: entry %llu: %g, expected %g", what, (unsigned long long) I [k], X [k], Y [k]) ;
        }
    }
    int sw, st ;
    bool iw, it ;
    OK (GxB_Vector_Option_get (w, GxB_SPARSITY_STATUS, &sw)) ;
    OK (GxB_Vector_Option_get (wt, GxB_SPARSITY_STATUS, &st)) ;
    if (sw != st) fail_msg ("%s: sparsity status %d, expected %d", what, sw, st) ;
    OK (GxB_Vector_iso (&iw, w)) ;
    OK (GxB_Vector_iso (&it, wt)) ;
    assert_int_equal (iw, it) ;
}

static GrB_Monoid monoid (GrB_Type ty, int k)
{
    const GrB_Monoid f32 [4] = { GrB_PLUS_MONOID_FP32, GrB_TIMES_MONOID_FP32,
        GrB_MIN_MONOID_FP32, GrB_MAX_MONOID_FP32 } ;
    const GrB_Monoid f64 [4] = { GrB_PLUS_MONOID_FP64, GrB_TIMES_MONOID_FP64,
        GrB_MIN_MONOID_FP64, GrB_MAX_MONOID_FP64 } ;
    return (ty == GrB_FP32) ? f32 [k] : f64 [k] ;
}

static double reduce (GrB_Type ty, GrB_Monoid m, GrB_Vector w)
{
    if (ty == GrB_FP32)
    {
        float x = 12345 ;
        OK (GrB_Vector_reduce_FP32 (&x, NULL, m, w, NULL)) ;
        return x ;
    }
    double x = 12345 ;
    OK (GrB_Vector_reduce_FP64 (&x, NULL, m, w, NULL)) ;
    return x ;
}

// a reduction of the device (got) against the CPU library's (ref): sums and
// products up to their order (mag: the sum of the magnitudes), MIN / MAX
// exactly (+0 and -0 alike), Inf / NaN as the CPU library's, and a zero's
// sign wherever the result is exactly zero in both
static void assert_reduced (int k, GrB_Type ty, double got, double ref, double mag, const char *what)
{
    bool ok ;
    if (isnan (ref) || isinf (ref)) ok = same_value (got, ref) ;
    else if (k >= 2) ok = (got == ref) ;
    else if (got == 0 && ref == 0) ok = (signbit (got) == signbit (ref)) ;
    else
    {
        double eps = (ty == GrB_FP32) ? 1e-5 : 1e-12 ;
        ok = fabs (got - ref) <= eps * (k == 0 ? mag : fabs (ref)) ;
    }
    if (!ok) fail_msg ("%s: monoid %d: %.17g, expected %.17g", what, k, got, ref) ;
}

#endif
