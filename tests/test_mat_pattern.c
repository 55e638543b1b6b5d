//------------------------------------------------------------------------------
// tests/test_mat_pattern.c: a matrix resident on a pattern (graph attention)
//------------------------------------------------------------------------------

// An SDDMM's result kept on the device on its mask's pattern, then what a
// row softmax and an aggregation do with it (backend/dispatch/mat_pattern.c):
// apply (bound TIMES, EXP, unary), row reductions (MAX, PLUS), products by a
// diagonal (PLUS_RMINUS, PLUS_TIMES) in place, SpMM reading it in place.
// Each run is compared with the CPU library's on the same inputs (twin
// objects): with one term per SDDMM entry (k = 1) every step is exact and the
// values must be equal bit for bit (the row sum excepted: its order); with
// k > 1 within a relative bound.  Inf, NaN and -0 in the features; empty
// rows; declines (valued mask, by-column output, a non-diagonal left
// operand); mutation and free of a resident result; injected faults.
// GRBGPU_TEST_DEVICE=cuda runs the offloaded side on the GPU.

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <GraphBLAS.h>
#include "grbgpu.h"
#include "tests/resident_util.h"

// A: n x n, by row, each row empty with probability 1/8, else ~deg entries
static GrB_Matrix random_graph (int64_t n, int deg, uint64_t *seed)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP32, n, n)) ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        if (xorshift (seed) % 8 == 0) continue ;
        int d = 1 + (int) (xorshift (seed) % (uint64_t) (2 * deg)) ;
        for (int k = 0 ; k < d ; k++)
        {
            OK (GrB_Matrix_setElement_FP32 (A, 1.0f, i, xorshift (seed) % (uint64_t) n)) ;
        }
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

// H: n x d full, uniform in [-1, 1]; special: a few Inf, NaN, -0 entries
static GrB_Matrix random_features (int64_t n, int64_t d, bool special, uint64_t *seed)
{
    GrB_Matrix H ;
    OK (GrB_Matrix_new (&H, GrB_FP32, n, d)) ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        for (int64_t j = 0 ; j < d ; j++)
        {
            float v = (float) ((double) (xorshift (seed) % 2000001) / 1e6 - 1) ;
            if (special)
            {
                uint64_t r = xorshift (seed) % 64 ;
                if (r == 0) v = INFINITY ; else if (r == 1) v = -INFINITY ;
                else if (r == 2) v = NAN ; else if (r == 3) v = -0.0f ;
                else if (r == 4) v = 100.0f ;      // exp overflows
            }
            OK (GrB_Matrix_setElement_FP32 (H, v, i, j)) ;
        }
    }
    OK (GrB_Matrix_wait (H, GrB_MATERIALIZE)) ;
    return H ;
}

// The attention step of examples/attention.c, each stage's result kept: S
// after the scores (S0), after the shift and exp (S1), the final weights (S),
// the row sums v and the output O
typedef struct { GrB_Matrix S0, S1, S, O ; GrB_Vector v ; } att_out ;

static void attention (att_out *o, GrB_Matrix A, GrB_Matrix H, float scale)
{
    GrB_Index n, d ;
    GrB_Matrix S, Dg = NULL ;
    GrB_Vector v ;
    OK (GrB_Matrix_nrows (&n, H)) ;
    OK (GrB_Matrix_ncols (&d, H)) ;
    OK (GrB_Matrix_new (&S, GrB_FP32, n, n)) ;
    OK (GrB_Matrix_new (&o->O, GrB_FP32, n, d)) ;
    OK (GrB_Vector_new (&v, GrB_FP32, n)) ;
    OK (GrB_mxm (S, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_ST1)) ;
    OK (GrB_Matrix_apply_BinaryOp2nd_FP32 (S, NULL, NULL, GrB_TIMES_FP32, S, scale, NULL)) ;
    OK (GrB_Matrix_dup (&o->S0, S)) ;
    OK (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_MAX_MONOID_FP32, S, NULL)) ;
    OK (GrB_Matrix_diag (&Dg, v, 0)) ;
    OK (GrB_mxm (S, NULL, NULL, GxB_PLUS_RMINUS_FP32, Dg, S, NULL)) ;
    OK (GrB_Matrix_free (&Dg)) ;
    OK (GrB_Matrix_apply (S, NULL, NULL, GxB_EXP_FP32, S, NULL)) ;
    OK (GrB_Matrix_dup (&o->S1, S)) ;
    OK (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_PLUS_MONOID_FP32, S, NULL)) ;
    OK (GrB_Vector_apply (v, NULL, NULL, GrB_MINV_FP32, v, NULL)) ;
    OK (GrB_Matrix_diag (&Dg, v, 0)) ;
    OK (GrB_mxm (S, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, Dg, S, NULL)) ;
    OK (GrB_Matrix_free (&Dg)) ;
    OK (GrB_mxm (o->O, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, S, H, NULL)) ;
    o->S = S ;
    o->v = v ;
}

static void att_free (att_out *o)
{
    GrB_Matrix_free (&o->S0) ; GrB_Matrix_free (&o->S1) ; GrB_Matrix_free (&o->S) ;
    GrB_Matrix_free (&o->O) ; GrB_Vector_free (&o->v) ;
}

// same pattern; values equal (both NaN, or bit for bit when rtol < 0, else
// within rtol of the larger magnitude, or both the same infinity)
static void same_matrix (GrB_Matrix X, GrB_Matrix Y, double rtol)
{
    GrB_Index nx, ny ;
    OK (GrB_Matrix_nvals (&nx, X)) ;
    OK (GrB_Matrix_nvals (&ny, Y)) ;
    assert_int_equal (nx, ny) ;
    size_t sz = (nx > 0 ? nx : 1) ;
    GrB_Index *I = malloc (sz * 8), *J = malloc (sz * 8), *I2 = malloc (sz * 8), *J2 = malloc (sz * 8) ;
    float *a = malloc (sz * 4), *b = malloc (sz * 4) ;
    GrB_Index k1 = nx, k2 = ny ;
    OK (GrB_Matrix_extractTuples_FP32 (I, J, a, &k1, X)) ;
    OK (GrB_Matrix_extractTuples_FP32 (I2, J2, b, &k2, Y)) ;
    int bad = 0 ;
    for (GrB_Index k = 0 ; k < nx ; k++)
    {
        assert_true (I [k] == I2 [k] && J [k] == J2 [k]) ;
        bool ok ;
        if (isnan (a [k]) || isnan (b [k])) ok = isnan (a [k]) && isnan (b [k]) ;
        else if (rtol < 0) ok = (memcmp (&a [k], &b [k], 4) == 0) ;
        else if (isinf (a [k]) || isinf (b [k])) ok = (a [k] == b [k]) ;
        else ok = fabs ((double) a [k] - b [k]) <= rtol * fmax (fabs (a [k]), fabs (b [k])) + rtol / 10 ;
        if (!ok && bad++ < 5) printf ("  (%llu,%llu): %.9g vs %.9g\n", (unsigned long long) I [k],
            (unsigned long long) J [k], a [k], b [k]) ;
    }
    free (I) ; free (J) ; free (I2) ; free (J2) ; free (a) ; free (b) ;
    assert_int_equal (bad, 0) ;
}

static void run_case (int64_t n, int64_t d, int deg, bool special, uint64_t seed0, bool check)
{
    uint64_t seed = seed0 ;
    GrB_Matrix A = random_graph (n, deg, &seed) ;
    GrB_Matrix H = random_features (n, d, special, &seed) ;
    att_out ref, dev ;
    const float scale = (float) (1 / sqrt ((double) d)) ;
    device_cpu ( ) ;
    attention (&ref, A, H, scale) ;
    device_on ( ) ;
    grbgpu_stats s0 = stats ( ) ;
    attention (&dev, A, H, scale) ;
    grbgpu_stats s1 = stats ( ) ;
    // every step but the two GrB_Matrix_diag and MINV (v not full) ran on
    // the device: SDDMM, 2 apply, 2 dup, 2 reduce, 2 scalings, SpMM; 4 new
    // objects kept (S, 2 dups; O is not: rows without entries), the rest in place
    if (check)
    {
        assert_true ((s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda) >= 10) ;
        assert_true (s1.resident_kept - s0.resident_kept >= 3) ;
    }
    // k == 1: one term per score, every step exact
    const double rtol = (d == 1) ? -1 : 1e-5 ;
    same_matrix (dev.S0, ref.S0, rtol) ;
    same_matrix (dev.S1, ref.S1, rtol) ;
    same_matrix (dev.S, ref.S, (d == 1) ? 1e-6 : 1e-5) ;
    same_matrix (dev.O, ref.O, 1e-4) ;
    att_free (&ref) ;
    att_free (&dev) ;
    GrB_Matrix_free (&A) ;
    GrB_Matrix_free (&H) ;
}

static void test_attention_exact (void **state)
{
    (void) state ;
    run_case (300, 1, 6, false, 11, true) ;
    run_case (257, 1, 3, true, 12, true) ;
}

static void test_attention (void **state)
{
    (void) state ;
    run_case (500, 16, 8, false, 21, true) ;
    run_case (333, 7, 4, true, 22, true) ;
    run_case (1, 3, 1, false, 23, false) ;
}

// what stays on the device, and what comes down when read or changed
static void test_reads_mutation_free (void **state)
{
    (void) state ;
    uint64_t seed = 31 ;
    GrB_Matrix A = random_graph (200, 5, &seed) ;
    GrB_Matrix H = random_features (200, 4, false, &seed) ;
    GrB_Matrix S, R ;
    GrB_Index nv, nr ;
    OK (GrB_Matrix_new (&S, GrB_FP32, 200, 200)) ;
    OK (GrB_Matrix_new (&R, GrB_FP32, 200, 200)) ;
    device_cpu ( ) ;
    OK (GrB_mxm (R, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_ST1)) ;
    device_on ( ) ;
    grbgpu_stats s0 = stats ( ) ;
    OK (GrB_mxm (S, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_ST1)) ;
    assert_int_equal (stats ( ).resident_kept, s0.resident_kept + 1) ;
    // the structure is exact on the host: nvals reads nothing down
    OK (GrB_Matrix_nvals (&nv, S)) ;
    OK (GrB_Matrix_nvals (&nr, R)) ;
    assert_int_equal (nv, nr) ;
    assert_int_equal (stats ( ).materialised, s0.materialised) ;
    // a change comes down first
    GrB_Index *I = malloc (nr * sizeof (GrB_Index)), *J = malloc (nr * sizeof (GrB_Index)) ;
    float *x = malloc (nr * sizeof (float)) ;
    GrB_Index cap = nr ;
    assert_true (nr > 0) ;
    OK (GrB_Matrix_extractTuples_FP32 (I, J, x, &cap, R)) ;
    OK (GrB_Matrix_setElement_FP32 (S, 42.0f, I [0], J [0])) ;
    OK (GrB_Matrix_setElement_FP32 (R, 42.0f, I [0], J [0])) ;
    assert_int_equal (stats ( ).materialised, s0.materialised + 1) ;
    same_matrix (S, R, 1e-5) ;
    free (I) ; free (J) ; free (x) ;
    // kept again, then freed while resident (nothing comes down)
    OK (GrB_Matrix_clear (S)) ;
    OK (GrB_mxm (S, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_ST1)) ;
    grbgpu_stats s1 = stats ( ) ;
    OK (GrB_Matrix_free (&S)) ;
    assert_int_equal (stats ( ).materialised, s1.materialised) ;
    GrB_Matrix_free (&R) ; GrB_Matrix_free (&A) ; GrB_Matrix_free (&H) ;
}

// cases that must not stay (or must decline) and still answer right
static void test_declines (void **state)
{
    (void) state ;
    uint64_t seed = 41 ;
    GrB_Matrix A = random_graph (150, 4, &seed) ;
    GrB_Matrix H = random_features (150, 3, false, &seed) ;
    GrB_Matrix S [2], C [2], B = random_graph (150, 2, &seed) ;
    for (int w = 0 ; w < 2 ; w++)
    {
        if (w == 0) device_cpu ( ) ; else device_on ( ) ;
        OK (GrB_Matrix_new (&S [w], GrB_FP32, 150, 150)) ;
        OK (GrB_Matrix_new (&C [w], GrB_FP32, 150, 150)) ;
        // valued mask: T's pattern is M's true entries (not kept on a pattern)
        OK (GrB_mxm (C [w], A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_T1)) ;
        OK (GrB_mxm (S [w], A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_ST1)) ;
        // a left operand that is not diagonal: sparse x sparse on the CPU library
        OK (GrB_mxm (S [w], NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, B, S [w], NULL)) ;
        // a diagonal without the entry of a row that S has: that row would
        // vanish (declined: the CPU library's answer)
        GrB_Vector v ;
        GrB_Matrix D ;
        OK (GrB_Vector_new (&v, GrB_FP32, 150)) ;
        OK (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_MAX_MONOID_FP32, S [w], NULL)) ;
        OK (GrB_Vector_assign_FP32 (v, NULL, NULL, 2.0f, GrB_ALL, 150, NULL)) ;
        OK (GrB_Vector_removeElement (v, 17)) ;
        OK (GrB_Matrix_diag (&D, v, 0)) ;
        OK (GrB_mxm (S [w], NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, D, S [w], NULL)) ;
        GrB_Matrix_free (&D) ; GrB_Vector_free (&v) ;
        // with an accumulator: declined, S comes down
        OK (GrB_Matrix_apply (S [w], NULL, GrB_PLUS_FP32, GrB_AINV_FP32, S [w], NULL)) ;
    }
    same_matrix (C [1], C [0], 1e-5) ;
    same_matrix (S [1], S [0], 1e-5) ;
    for (int w = 0 ; w < 2 ; w++) { GrB_Matrix_free (&S [w]) ; GrB_Matrix_free (&C [w]) ; }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&H) ; GrB_Matrix_free (&B) ;
}

// D = diag (v), made by grbgpu while something is resident, against the
// CPU library's: vectors held sparse, bitmap, full, iso, empty
static void test_diag (void **state)
{
    (void) state ;
    uint64_t seed = 61 ;
    GrB_Matrix A = random_graph (100, 3, &seed) ;
    GrB_Matrix H = random_features (100, 2, false, &seed) ;
    GrB_Matrix S ;
    OK (GrB_Matrix_new (&S, GrB_FP32, 100, 100)) ;
    device_on ( ) ;
    OK (GrB_mxm (S, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_ST1)) ;   // resident
    const int64_t n = 777 ;
    for (int kind = 0 ; kind < 5 ; kind++)
    {
        GrB_Vector v ;
        OK (GrB_Vector_new (&v, kind == 4 ? GrB_FP64 : GrB_FP32, n)) ;
        for (int64_t i = 0 ; i < n ; i++)
        {
            bool put = (kind == 0) ? (xorshift (&seed) % 9 == 0)          // sparse
                     : (kind == 1) ? (xorshift (&seed) % 3 != 0)          // bitmap
                     : (kind == 2 || kind == 4) ;                         // full
            float x = (float) ((double) (xorshift (&seed) % 1000) - 500) ;
            if (i % 97 == 5) x = -0.0f ;
            if (kind == 4) x = 2.5f ;                                     // iso
            if (put) OK (GrB_Vector_setElement_FP32 (v, x, i)) ;
        }
        if (kind == 1) OK (GxB_Vector_Option_set (v, GxB_SPARSITY_CONTROL, GxB_BITMAP)) ;
        OK (GrB_Vector_wait (v, GrB_MATERIALIZE)) ;
        GrB_Matrix D [2] ;
        device_cpu ( ) ;
        OK (GrB_Matrix_diag (&D [0], v, 0)) ;
        device_on ( ) ;
        OK (GrB_Matrix_diag (&D [1], v, 0)) ;
        GrB_Index r0, c0, r1, c1 ;
        OK (GrB_Matrix_nrows (&r0, D [0])) ; OK (GrB_Matrix_ncols (&c0, D [0])) ;
        OK (GrB_Matrix_nrows (&r1, D [1])) ; OK (GrB_Matrix_ncols (&c1, D [1])) ;
        assert_true (r0 == r1 && c0 == c1) ;
        GrB_Type t0, t1 ;
        OK (GxB_Matrix_type (&t0, D [0])) ; OK (GxB_Matrix_type (&t1, D [1])) ;
        assert_ptr_equal (t0, t1) ;
        if (kind != 4) same_matrix (D [1], D [0], -1) ;
        else
        {
            GrB_Index nv0, nv1 ;
            double x0, x1 ;
            OK (GrB_Matrix_nvals (&nv0, D [0])) ; OK (GrB_Matrix_nvals (&nv1, D [1])) ;
            assert_int_equal (nv0, nv1) ;
            OK (GrB_Matrix_extractElement_FP64 (&x0, D [0], 7, 7)) ;
            OK (GrB_Matrix_extractElement_FP64 (&x1, D [1], 7, 7)) ;
            assert_true (x0 == x1) ;
        }
        GrB_Matrix_free (&D [0]) ; GrB_Matrix_free (&D [1]) ; GrB_Vector_free (&v) ;
    }
    GrB_Matrix_free (&S) ; GrB_Matrix_free (&A) ; GrB_Matrix_free (&H) ;
}

// MIN / MAX row reductions of a matrix on a pattern, bit for bit the CPU
// library's: of equal values (-0 and +0) the first in the row, NaNs omitted
// (all NaN: NaN); scores of one term from features among -0, +0, +-1, NaN
static void test_reduce_ties (void **state)
{
    (void) state ;
    uint64_t seed = 71 ;
    const int64_t n = 300 ;
    const float pick [6] = { -0.0f, 0.0f, 1.0f, -1.0f, NAN, 2.0f } ;
    GrB_Matrix A = random_graph (n, 5, &seed), H ;
    OK (GrB_Matrix_new (&H, GrB_FP32, n, 1)) ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        OK (GrB_Matrix_setElement_FP32 (H, pick [xorshift (&seed) % (i % 7 == 0 ? 6 : 2)], i, 0)) ;
    }
    const GrB_Monoid mon [2] = { GrB_MAX_MONOID_FP32, GrB_MIN_MONOID_FP32 } ;
    for (int k = 0 ; k < 2 ; k++)
    {
        GrB_Vector v [2] ;
        for (int w = 0 ; w < 2 ; w++)
        {
            GrB_Matrix S ;
            if (w == 0) device_cpu ( ) ; else device_on ( ) ;
            OK (GrB_Matrix_new (&S, GrB_FP32, n, n)) ;
            OK (GrB_Vector_new (&v [w], GrB_FP32, n)) ;
            OK (GrB_mxm (S, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H, GrB_DESC_ST1)) ;
            OK (GrB_Matrix_reduce_Monoid (v [w], NULL, NULL, mon [k], S, NULL)) ;
            GrB_Matrix_free (&S) ;
        }
        GrB_Index n0, n1 ;
        OK (GrB_Vector_nvals (&n0, v [0])) ;
        OK (GrB_Vector_nvals (&n1, v [1])) ;
        assert_int_equal (n0, n1) ;
        int zeros = 0 ;
        for (int64_t i = 0 ; i < n ; i++)
        {
            float a = 7, b = 7 ;
            GrB_Info ia = GrB_Vector_extractElement_FP32 (&a, v [0], i) ;
            GrB_Info ib = GrB_Vector_extractElement_FP32 (&b, v [1], i) ;
            assert_int_equal (ia, ib) ;
            if (ia != GrB_SUCCESS) continue ;
            zeros += (a == 0) ;
            if (isnan (a) || isnan (b)) assert_true (isnan (a) && isnan (b)) ;
            else assert_memory_equal (&a, &b, sizeof (float)) ;
        }
        assert_true (zeros > 10) ;      // (the ties are there to be decided)
        GrB_Vector_free (&v [0]) ; GrB_Vector_free (&v [1]) ;
    }
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&H) ;
}

// injected faults anywhere on the path: the answer is still the CPU library's
static void test_faults (void **state)
{
    (void) state ;
    // (copy faults rarely: three in a row make a materialisation answer
    // GrB_OUT_OF_MEMORY, as designed, which the chain here does not expect)
    set ("FAULT", "alloc:0.3,launch:0.3,copy:0.05") ;
    for (int r = 0 ; r < 6 ; r++) run_case (120, 4, 3, r % 2, 50 + (uint64_t) r, false) ;
    set ("FAULT", "") ;
}

int main (void)
{
    int skip = resident_test_start ("test_mat_pattern") ;
    if (skip != 0) return skip ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_attention_exact),
        cmocka_unit_test (test_attention),
        cmocka_unit_test (test_reads_mutation_free),
        cmocka_unit_test (test_declines),
        cmocka_unit_test (test_diag),
        cmocka_unit_test (test_reduce_ties),
        cmocka_unit_test (test_faults),
    } ;
    int rc = cmocka_run_group_tests (tests, NULL, NULL) ;
    GrB_finalize ( ) ;
    return rc ;
}
