//------------------------------------------------------------------------------
// tests/mat_ops_util.h: full matrices and their twins for tests/test_mat_ops
//------------------------------------------------------------------------------

// Header-only (include after cmocka.h, GraphBLAS.h, grbgpu.h and
// tests/resident_util.h).  A test object is a GrB_Matrix, or a GrB_Vector
// cast (is_vector: n-by-1), made twice from the same values: the object the
// device path takes and its twin, on which the CPU library (GRBGPU_DEVICE=
// cpu) computes the reference.  Values: 1 in 3 special (NaN, +Inf, -Inf,
// -0, +0), the others small multiples of 1/8 (exact sums and products) and
// a few large ones.

#ifndef GG_MAT_OPS_UTIL_H
#define GG_MAT_OPS_UTIL_H

static uint64_t mrng = 0x2545f4914f6cdd1dULL ;
static inline uint64_t mrnd (void) { return xorshift (&mrng) ; }

typedef struct
{
    GrB_Type t ;
    bool is_vector ;
    bool by_col ;
    GrB_Index nrows, ncols ;
}
mshape ;

static inline double mvalue (void)
{
    switch (mrnd ( ) % 15)
    {
        case 0: return NAN ;
        case 1: return INFINITY ;
        case 2: return -INFINITY ;
        case 3: return -0.0 ;
        case 4: return 0.0 ;
        case 5: return ((double) (mrnd ( ) % 2001) - 1000) * 1e30 ;
        default: return ((double) (mrnd ( ) % 161) - 80) / 8 ;
    }
}

// a new, empty object of shape s
static inline GrB_Matrix mnew (const mshape *s)
{
    if (s->is_vector)
    {
        GrB_Vector v ;
        OK (GrB_Vector_new (&v, s->t, s->nrows)) ;
        return (GrB_Matrix) v ;
    }
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, s->t, s->nrows, s->ncols)) ;
    OK (GxB_Matrix_Option_set (A, GxB_FORMAT, s->by_col ? GxB_BY_COL : GxB_BY_ROW)) ;
    return A ;
}

static inline void mfree (GrB_Matrix *A)
{
    OK (GrB_Matrix_free (A)) ;
}

// *C and *Ct emptied (new objects).  An output is made anew for every call
// the CPU library answers: SuiteSparse:GraphBLAS 7.4 writes C = A .* B (A, B
// full) into an iso full C in place, past C's one value (the result of an
// apply with FIRST / SECOND bound is such a C; a heap overflow of the CPU
// library itself, not of the path under test)
static inline void mrenew (const mshape *s, GrB_Matrix *C, GrB_Matrix *Ct)
{
    mfree (C) ;
    mfree (Ct) ;
    *C = mnew (s) ;
    *Ct = mnew (s) ;
}

// *A and *twin: full objects of shape s holding vals (row-major, nrows*ncols)
static inline void mmake (const mshape *s, const double *vals, GrB_Matrix *A, GrB_Matrix *twin)
{
    const GrB_Index n = s->nrows * s->ncols ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((n + 1) * sizeof (GrB_Index)) ;
    assert_non_null (I) ;
    assert_non_null (J) ;
    for (GrB_Index k = 0 ; k < n ; k++) { I [k] = k / s->ncols ; J [k] = k % s->ncols ; }
    GrB_Matrix *out [2] = { A, twin } ;
    for (int w = 0 ; w < 2 ; w++)
    {
        *out [w] = mnew (s) ;
        if (s->is_vector)
        {
            OK (GrB_Vector_build_FP64 ((GrB_Vector) *out [w], I, vals, n, GrB_FIRST_FP64)) ;
        }
        else
        {
            OK (GrB_Matrix_build_FP64 (*out [w], I, J, vals, n, GrB_FIRST_FP64)) ;
        }
        OK (GrB_Matrix_wait (*out [w], GrB_MATERIALIZE)) ;
        int status = 0 ;
        OK (GxB_Matrix_Option_get (*out [w], GxB_SPARSITY_STATUS, &status)) ;
        assert_int_equal (status, GxB_FULL) ;
    }
    free (I) ;
    free (J) ;
}

static inline void mrandom (const mshape *s, GrB_Matrix *A, GrB_Matrix *twin)
{
    const GrB_Index n = s->nrows * s->ncols ;
    double *vals = malloc (n * sizeof (double)) ;
    assert_non_null (vals) ;
    for (GrB_Index k = 0 ; k < n ; k++) vals [k] = mvalue ( ) ;
    mmake (s, vals, A, twin) ;
    free (vals) ;
}

// A's values, row-major, as FP64 (exact for FP32); *present (when not
// NULL) gets which entries are there, else every one must be
static inline double *mvalues (GrB_Matrix A, const mshape *s, int8_t **present)
{
    const GrB_Index n = s->nrows * s->ncols ;
    GrB_Index got = n, nvals ;
    GrB_Index *I = malloc ((n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((n + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((n + 1) * sizeof (double)), *x = calloc (n + 1, sizeof (double)) ;
    int8_t *p = calloc (n + 1, 1) ;
    assert_true (I != NULL && J != NULL && X != NULL && x != NULL && p != NULL) ;
    OK (GrB_Matrix_nvals (&nvals, A)) ;
    if (present == NULL) assert_int_equal (nvals, n) ;
    if (s->is_vector)
    {
        OK (GrB_Vector_extractTuples_FP64 (I, X, &got, (GrB_Vector) A)) ;
        for (GrB_Index k = 0 ; k < got ; k++) J [k] = 0 ;
    }
    else
    {
        OK (GrB_Matrix_extractTuples_FP64 (I, J, X, &got, A)) ;
    }
    assert_int_equal (got, nvals) ;
    for (GrB_Index k = 0 ; k < got ; k++)
    {
        x [I [k] * s->ncols + J [k]] = X [k] ;
        p [I [k] * s->ncols + J [k]] = 1 ;
    }
    free (I) ; free (J) ; free (X) ;
    if (present != NULL) *present = p ; else free (p) ;
    return x ;
}

// C (from the device path) is the CPU library's R: the same type, size,
// orientation, sparsity status and entries, every value the same (bit for
// bit, a NaN for a NaN)
static inline void msame (GrB_Matrix C, GrB_Matrix R, const mshape *s, const char *what)
{
    GrB_Type ct, rt ;
    OK (GxB_Matrix_type (&ct, C)) ;
    OK (GxB_Matrix_type (&rt, R)) ;
    assert_ptr_equal (ct, rt) ;
    GrB_Index cr, cc, rr, rc, cn, rn ;
    OK (GrB_Matrix_nrows (&cr, C)) ; OK (GrB_Matrix_ncols (&cc, C)) ;
    OK (GrB_Matrix_nrows (&rr, R)) ; OK (GrB_Matrix_ncols (&rc, R)) ;
    assert_int_equal (cr, rr) ;
    assert_int_equal (cc, rc) ;
    OK (GrB_Matrix_nvals (&cn, C)) ;
    OK (GrB_Matrix_nvals (&rn, R)) ;
    assert_int_equal (cn, rn) ;
    int8_t *cp, *rp ;
    double *x = mvalues (C, s, &cp), *y = mvalues (R, s, &rp) ;
    for (GrB_Index k = 0 ; k < s->nrows * s->ncols ; k++)
    {
        bool same = (cp [k] == rp [k]) && ((isnan (x [k]) && isnan (y [k]))
            || (x [k] == y [k] && signbit (x [k]) == signbit (y [k]))) ;
        if (!same)
        {
            fail_msg ("%s (%llux%llu %s %s): entry (%llu,%llu): %g, expected %g", what,
                (unsigned long long) s->nrows, (unsigned long long) s->ncols,
                s->t == GrB_FP32 ? "FP32" : "FP64", s->is_vector ? "vector"
                : s->by_col ? "by col" : "by row", (unsigned long long) (k / s->ncols),
                (unsigned long long) (k % s->ncols), x [k], y [k]) ;
        }
    }
    free (x) ; free (y) ; free (cp) ; free (rp) ;
    int cs, rs ;
    OK (GxB_Matrix_Option_get (C, GxB_SPARSITY_STATUS, &cs)) ;
    OK (GxB_Matrix_Option_get (R, GxB_SPARSITY_STATUS, &rs)) ;
    assert_int_equal (cs, rs) ;
    if (!s->is_vector)
    {
        GxB_Format_Value cf, rf ;
        OK (GxB_Matrix_Option_get (C, GxB_FORMAT, &cf)) ;
        OK (GxB_Matrix_Option_get (R, GxB_FORMAT, &rf)) ;
        assert_int_equal (cf, rf) ;
    }
}

// under compute-sanitizer (GRBGPU_TEST_UNDER_SANITIZER, bench/gpu_round.sh
// mres) fewer sizes, shapes and iso cases run: the same paths, fewer launches
static inline bool quick (void)
{
    return getenv ("GRBGPU_TEST_UNDER_SANITIZER") != NULL ;
}

// the calls answered on the device so far
static inline uint64_t on_device (void)
{
    grbgpu_stats s = stats ( ) ;
    return s.offloaded_host + s.offloaded_cuda ;
}

#endif
