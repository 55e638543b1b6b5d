//------------------------------------------------------------------------------
// tests/test_resident_calls.c: every wrapped function on device-held objects
//------------------------------------------------------------------------------

// For each function of tests/resident_calls_gen.c (generated from
// GraphBLAS.h: the functions grbgpu wraps whose arguments the generator can
// make), runs on fresh objects: every matrix and vector argument held on the
// device (residency on; full, but the first matrix in the second run is held
// on a pattern, an SDDMM's result, and in the third it is an SpMM's result
// with rows absent, held as a bitmap of rows), and their twins on the host
// with the same values (the CPU library alone).  The calls must return the same GrB_Info,
// write the same outputs and leave every object with the same type, size,
// entries and values: a wrapper that let the CPU library see a placeholder,
// or a device answer that differs, shows up here.  The values are small
// integers, so every sum is exact and the comparison is exact (NaN equal to
// NaN).  GRBGPU_TEST_DEVICE=cuda: the device side on the GPU.

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tests/resident_calls.h"
#include "grbgpu.h"
#include "tests/resident_util.h"

#define N 5

static double value (int kind, int64_t i, int64_t j)
{
    return (double) ((i * 7 + j * 3 + kind * 5) % 11) - 5 ;
}

static GrB_Matrix full_matrix (int kind)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, N, N)) ;
    for (int64_t i = 0 ; i < N ; i++)
        for (int64_t j = 0 ; j < N ; j++) OK (GrB_Matrix_setElement_FP64 (A, value (kind, i, j), i, j)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static GrB_Vector full_vector (int kind)
{
    GrB_Vector v ;
    OK (GrB_Vector_new (&v, GrB_FP64, N)) ;
    for (int64_t i = 0 ; i < N ; i++) OK (GrB_Vector_setElement_FP64 (v, value (kind, i, 2), i)) ;
    OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
    return v ;
}

// the first matrix: full (kind 0); the SDDMM C<struct(P)> = X*Y' on a
// pattern P with an empty row (kind 1: a matrix on a pattern); the SpMM
// C = P*X (kind 2: full and absent rows); made on the device (kept there) or
// on the host
enum { FULL = 0, PATTERN, ROWS } ;
static GrB_Matrix first_matrix (bool device, int kind)
{
    GrB_Matrix C, X = full_matrix (1), Y = full_matrix (2), P ;
    OK (GrB_Matrix_new (&C, GrB_FP64, N, N)) ;
    if (device) device_on ( ) ; else device_cpu ( ) ;
    if (kind != FULL)
    {
        OK (GrB_Matrix_new (&P, GrB_FP64, N, N)) ;
        for (int64_t i = 0 ; i < N ; i++)
            for (int64_t j = 0 ; j < N ; j++)
                if (i != 2 && (i + 2 * j) % 3 != 0) OK (GrB_Matrix_setElement_FP64 (P, (double) (i - j), i, j)) ;
        if (kind == PATTERN) OK (GrB_mxm (C, P, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, X, Y, GrB_DESC_ST1)) ;
        else OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, P, X, NULL)) ;
        GrB_Matrix_free (&P) ;
    }
    else
    {
        OK (GrB_Matrix_apply (C, NULL, NULL, GrB_IDENTITY_FP64, X, NULL)) ;
    }
    GrB_Matrix_free (&X) ; GrB_Matrix_free (&Y) ;
    return C ;
}

// a full matrix made on the device (kept there) or on the host
static GrB_Matrix held_matrix (bool device, int kind)
{
    GrB_Matrix C, X = full_matrix (kind) ;
    OK (GrB_Matrix_new (&C, GrB_FP64, N, N)) ;
    if (device) device_on ( ) ; else device_cpu ( ) ;
    OK (GrB_Matrix_apply (C, NULL, NULL, GrB_IDENTITY_FP64, X, NULL)) ;
    GrB_Matrix_free (&X) ;
    return C ;
}

static GrB_Vector held_vector (bool device, int kind)
{
    GrB_Vector w, u = full_vector (kind) ;
    OK (GrB_Vector_new (&w, GrB_FP64, N)) ;
    if (device) device_on ( ) ; else device_cpu ( ) ;
    OK (GrB_Vector_apply (w, NULL, NULL, GrB_IDENTITY_FP64, u, NULL)) ;
    GrB_Vector_free (&u) ;
    return w ;
}

static void make_args (gg_call_args *c, bool device, int kind)
{
    memset (c, 0, sizeof (*c)) ;
    c->m [0] = first_matrix (device, kind) ;
    for (int k = 0 ; k < 4 ; k++)
    {
        if (k > 0) c->m [k] = held_matrix (device, 3 + k) ;
        c->v [k] = held_vector (device, 7 + k) ;
    }
    device_cpu ( ) ;
    OK (GrB_Scalar_new (&c->s, GrB_FP64)) ;
    OK (GrB_Scalar_setElement_FP64 (c->s, 1.5)) ;
    for (int k = 0 ; k < 4 ; k++)
    {
        c->buf [k] = malloc (GG_CALL_BUFN * 8) ;
        assert_non_null (c->buf [k]) ;
        // as GrB_Index: the capacity (extractTuples' in / out count)
        for (int e = 0 ; e < GG_CALL_BUFN ; e++) ((uint64_t *) c->buf [k]) [e] = GG_CALL_BUFN ;
    }
}

static void free_args (gg_call_args *c)
{
    for (int k = 0 ; k < 4 ; k++) { GrB_Matrix_free (&c->m [k]) ; GrB_Vector_free (&c->v [k]) ; }
    GrB_Scalar_free (&c->s) ;
    GrB_Matrix_free (&c->out_m) ;
    GrB_Vector_free (&c->out_v) ;
    for (int k = 0 ; k < 4 ; k++) free (c->buf [k]) ;
}

// the same object: type, size, entries, values (exact; NaN equals NaN)
static bool same_object (GrB_Matrix a, GrB_Matrix b, bool is_vector, const char *what,
    const char *fn)
{
    if ((a == NULL) != (b == NULL)) { printf ("%s: %s: one side NULL\n", fn, what) ; return false ; }
    if (a == NULL) return true ;
    GrB_Index ra = 1, ca = 1, rb = 1, cb = 1, na, nb ;
    GrB_Type ta, tb ;
    bool ok ;
    if (is_vector)
    {
        ok = GrB_Vector_size (&ra, (GrB_Vector) a) == GrB_SUCCESS
            && GrB_Vector_size (&rb, (GrB_Vector) b) == GrB_SUCCESS
            && GrB_Vector_nvals (&na, (GrB_Vector) a) == GrB_SUCCESS
            && GrB_Vector_nvals (&nb, (GrB_Vector) b) == GrB_SUCCESS
            && GxB_Vector_type (&ta, (GrB_Vector) a) == GrB_SUCCESS
            && GxB_Vector_type (&tb, (GrB_Vector) b) == GrB_SUCCESS ;
    }
    else
    {
        ok = GrB_Matrix_nrows (&ra, a) == GrB_SUCCESS && GrB_Matrix_ncols (&ca, a) == GrB_SUCCESS
            && GrB_Matrix_nrows (&rb, b) == GrB_SUCCESS && GrB_Matrix_ncols (&cb, b) == GrB_SUCCESS
            && GrB_Matrix_nvals (&na, a) == GrB_SUCCESS && GrB_Matrix_nvals (&nb, b) == GrB_SUCCESS
            && GxB_Matrix_type (&ta, a) == GrB_SUCCESS && GxB_Matrix_type (&tb, b) == GrB_SUCCESS ;
    }
    if (!ok || ra != rb || ca != cb || na != nb || ta != tb)
    {
        printf ("%s: %s: size, entries or type differ\n", fn, what) ;
        return false ;
    }
    size_t sz = (na > 0 ? na : 1) ;
    GrB_Index *I [2], *J [2] ;
    double *X [2] ;
    for (int s = 0 ; s < 2 ; s++)
    {
        I [s] = calloc (sz, 8) ; J [s] = calloc (sz, 8) ; X [s] = calloc (sz, 8) ;
        GrB_Index n = na ;
        GrB_Info info = is_vector
            ? GrB_Vector_extractTuples_FP64 (I [s], X [s], &n, (GrB_Vector) (s ? b : a))
            : GrB_Matrix_extractTuples_FP64 (I [s], J [s], X [s], &n, s ? b : a) ;
        // (a type that does not cast to FP64: compared by structure only)
        if (info == GrB_DOMAIN_MISMATCH) memset (X [s], 0, sz * 8) ;
        else ok = ok && info == GrB_SUCCESS ;
    }
    for (GrB_Index k = 0 ; ok && k < na ; k++)
    {
        ok = I [0][k] == I [1][k] && J [0][k] == J [1][k]
            && (X [0][k] == X [1][k] || (isnan (X [0][k]) && isnan (X [1][k]))) ;
        if (!ok) printf ("%s: %s: entry %llu differs: %g vs %g\n", fn, what,
            (unsigned long long) k, X [0][k], X [1][k]) ;
    }
    for (int s = 0 ; s < 2 ; s++) { free (I [s]) ; free (J [s]) ; free (X [s]) ; }
    return ok ;
}

static int run_all (int kind)
{
    int bad = 0 ;
    const grbgpu_stats s0 = stats ( ) ;
    for (int f = 0 ; f < gg_ncalls ; f++)
    {
        gg_call_args c [2] ;
        GrB_Info info [2] ;
        // side 0: device-held objects, residency on; side 1: the twins
        for (int side = 0 ; side < 2 ; side++)
        {
            make_args (&c [side], side == 0, kind) ;
            if (side == 0) device_on ( ) ; else device_cpu ( ) ;
            info [side] = gg_calls [f].call (&c [side]) ;
            device_cpu ( ) ;
        }
        const char *fn = gg_calls [f].name ;
        bool ok = (info [0] == info [1]) ;
        if (!ok) printf ("%s: GrB_Info %d (device side) vs %d\n", fn, (int) info [0], (int) info [1]) ;
        for (int k = 0 ; k < 4 ; k++)
        {
            if (memcmp (c [0].buf [k], c [1].buf [k], GG_CALL_BUFN * 8) != 0)
            {
                printf ("%s: output %d differs\n", fn, k) ;
                ok = false ;
            }
        }
        static const char *mname [4] = { "matrix 0", "matrix 1", "matrix 2", "matrix 3" } ;
        static const char *vname [4] = { "vector 0", "vector 1", "vector 2", "vector 3" } ;
        for (int k = 0 ; k < 4 ; k++)
        {
            ok = same_object (c [0].m [k], c [1].m [k], false, mname [k], fn) && ok ;
            ok = same_object ((GrB_Matrix) c [0].v [k], (GrB_Matrix) c [1].v [k], true, vname [k], fn) && ok ;
        }
        ok = same_object (c [0].out_m, c [1].out_m, false, "new matrix", fn) && ok ;
        ok = same_object ((GrB_Matrix) c [0].out_v, (GrB_Matrix) c [1].out_v, true, "new vector", fn) && ok ;
        double x0 = 0, x1 = 0 ;
        GrB_Info s0i = GrB_Scalar_extractElement_FP64 (&x0, c [0].s) ;
        GrB_Info s1i = GrB_Scalar_extractElement_FP64 (&x1, c [1].s) ;
        if (s0i != s1i || x0 != x1) { printf ("%s: the scalar differs\n", fn) ; ok = false ; }
        free_args (&c [0]) ;
        free_args (&c [1]) ;
        bad += !ok ;
    }
    const grbgpu_stats s1 = stats ( ) ;
    printf ("test_resident_calls (%s): %d functions, %d differ; %llu results kept, %llu "
        "materialised\n", kind == PATTERN ? "matrix on a pattern" : kind == ROWS ?
        "full and absent rows" : "full", gg_ncalls, bad,
        (unsigned long long) (s1.resident_kept - s0.resident_kept),
        (unsigned long long) (s1.materialised - s0.materialised)) ;
    // every function ran on device-held objects: one of each per function
    assert_true (s1.resident_kept - s0.resident_kept >= (uint64_t) (2 * gg_ncalls)) ;
    return bad ;
}

static void test_full (void **state)
{
    (void) state ;
    assert_int_equal (run_all (FULL), 0) ;
}

static void test_pattern (void **state)
{
    (void) state ;
    assert_int_equal (run_all (PATTERN), 0) ;
}

static void test_rows (void **state)
{
    (void) state ;
    assert_int_equal (run_all (ROWS), 0) ;
}

int main (void)
{
    int skip = resident_test_start ("test_resident_calls") ;
    if (skip != 0) return skip ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_full),
        cmocka_unit_test (test_pattern),
        cmocka_unit_test (test_rows),
    } ;
    int rc = cmocka_run_group_tests (tests, NULL, NULL) ;
    GrB_finalize ( ) ;
    return rc ;
}
