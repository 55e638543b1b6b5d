//------------------------------------------------------------------------------
// tests/test_vec_ops.c: dense vector operations on resident vectors
//------------------------------------------------------------------------------

// Through the public API only (linked with libgrbgpu), with GRBGPU_RESIDENT=1
// on the host emulation backend (GRBGPU_TEST_DEVICE=cuda: the GPU).  Every
// operation the device takes (assign of a scalar, eWiseMult / eWiseAdd with
// FIRST, SECOND, PLUS, MINUS, TIMES, DIV, MIN, MAX, ISEQ, ISNE, ISGT, ISLT,
// ISGE, ISLE, apply of IDENTITY, AINV, ABS and of
// bound binary operators, reduce with PLUS / MIN / MAX, dup) runs on fresh
// random FP32 and FP64 vectors holding Inf, -Inf, NaN, -0, 0, subnormals and
// ordinary values, once with host operands (sent up) and once with resident
// ones, and is compared with the CPU library (GRBGPU_DEVICE=cpu) on twins:
// element-wise results bit for bit (any NaN for a NaN, -0 kept), sums up to
// summation order, MIN / MAX exactly (+0 and -0 alike); t .* sink (FIRST /
// SECOND with a sparse or bitmap pattern) stays on the device on that
// pattern (tests/test_vec_pattern.c tests it in depth).  A
// LAGraph-style PageRank iteration chain (sinks included) runs with residency
// on and equals the CPU library's ranks while its vectors stay on the device
// (the materialised count stays at the setup's and the final read's), also
// under injected faults.  Masks, accumulators and descriptors are declined
// with the CPU library's answer; free and eviction while resident keep
// values.

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

enum { N = 1000 } ;

static uint64_t rng = 0x9e3779b97f4a7c15ULL ;
static uint64_t rnd (void) { return xorshift (&rng) ; }


//------------------------------------------------------------------------------
// values
//------------------------------------------------------------------------------

// a random value: 1 in 4 special
static double value (bool specials)
{
    if (specials)
    {
        switch (rnd ( ) % 16)
        {
            case 0: return INFINITY ;
            case 1: return -INFINITY ;
            case 2: return NAN ;
            case 3: return -0.0 ;
        }
    }
    switch (rnd ( ) % 8)
    {
        case 0: return 0.0 ;
        case 1: return 1e-310 * (double) (rnd ( ) % 7) ;     // FP64 subnormals
        default: return ((double) (rnd ( ) % 2000001) - 1e6) / 1024.0 ;
    }
}

// a full vector of type t with values vals, and its twin
static void make (GrB_Type t, const double *vals, GrB_Vector *v, GrB_Vector *twin)
{
    GrB_Vector *w [2] = { v, twin } ;
    for (int k = 0 ; k < 2 ; k++)
    {
        OK (GrB_Vector_new (w [k], t, N)) ;
        for (GrB_Index i = 0 ; i < N ; i++)
        {
            if (t == GrB_FP32) OK (GrB_Vector_setElement_FP32 (*w [k], (float) vals [i], i)) ;
            else OK (GrB_Vector_setElement_FP64 (*w [k], vals [i], i)) ;
        }
        OK (GrB_Vector_wait (*w [k], GrB_MATERIALIZE)) ;
    }
}

static void random_vector (GrB_Type t, bool specials, GrB_Vector *v, GrB_Vector *twin)
{
    double vals [N] ;
    for (int i = 0 ; i < N ; i++) vals [i] = value (specials) ;
    make (t, vals, v, twin) ;
}


// w (device) and ref (CPU library) hold the same values: bit for bit, a NaN
// for a NaN (its payload may differ on a GPU), the sign of a zero kept
static void assert_same_vector (GrB_Vector w, GrB_Vector ref, const char *what)
{
    GrB_Index nw, nr ;
    OK (GrB_Vector_nvals (&nw, w)) ;
    OK (GrB_Vector_nvals (&nr, ref)) ;
    assert_int_equal (nw, nr) ;
    double x [N], y [N] ;
    values_of (w, x) ;
    values_of (ref, y) ;
    for (int i = 0 ; i < N ; i++)
    {
        bool same = (isnan (x [i]) && isnan (y [i]))
            || (x [i] == y [i] && signbit (x [i]) == signbit (y [i])) ;
        if (!same) fail_msg ("%s: entry %d: %g, expected %g", what, i, x [i], y [i]) ;
    }
}

//------------------------------------------------------------------------------
// the operations, each against the CPU library
//------------------------------------------------------------------------------

typedef struct { GrB_Type t ; bool resident ; } variant ;

// u, v (device side) and their twins; resident: u and v are made resident
// first (by an apply of IDENTITY on the device)
static void operands (variant *var, GrB_Vector *u, GrB_Vector *v, GrB_Vector *ut, GrB_Vector *vt)
{
    random_vector (var->t, true, u, ut) ;
    random_vector (var->t, true, v, vt) ;
    if (var->resident)
    {
        device_on ( ) ;
        uint64_t kept = stats ( ).resident_kept ;
        OK (GrB_Vector_apply (*u, NULL, NULL, test_unop (var->t, 0), *u, NULL)) ;
        OK (GrB_Vector_apply (*v, NULL, NULL, test_unop (var->t, 0), *v, NULL)) ;
        assert_true (stats ( ).resident_kept >= kept + 2) ;
    }
}

static void run_ops (variant *var)
{
    const GrB_Type t = var->t ;
    for (int k = 0 ; k < NBINOPS ; k++)
    {
        for (int add = 0 ; add < 2 ; add++)
        {
            GrB_Vector u, v, ut, vt, w, wt ;
            operands (var, &u, &v, &ut, &vt) ;
            OK (GrB_Vector_new (&w, t, N)) ;
            OK (GrB_Vector_new (&wt, t, N)) ;
            device_on ( ) ;
            uint64_t done = stats ( ).offloaded_host + stats ( ).offloaded_cuda ;
            if (add) OK (GrB_Vector_eWiseAdd_BinaryOp (w, NULL, NULL, test_binop (t, k), u, v, NULL)) ;
            else OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, test_binop (t, k), u, v, NULL)) ;
            assert_true (stats ( ).offloaded_host + stats ( ).offloaded_cuda > done) ;
            device_cpu ( ) ;
            if (add) OK (GrB_Vector_eWiseAdd_BinaryOp (wt, NULL, NULL, test_binop (t, k), ut, vt, NULL)) ;
            else OK (GrB_Vector_eWiseMult_BinaryOp (wt, NULL, NULL, test_binop (t, k), ut, vt, NULL)) ;
            assert_same_vector (w, wt, add ? "eWiseAdd" : "eWiseMult") ;
            // in place, aliased: u = u op v
            device_on ( ) ;
            OK (GrB_Vector_eWiseAdd_BinaryOp (u, NULL, NULL, test_binop (t, k), u, v, NULL)) ;
            device_cpu ( ) ;
            OK (GrB_Vector_eWiseAdd_BinaryOp (ut, NULL, NULL, test_binop (t, k), ut, vt, NULL)) ;
            assert_same_vector (u, ut, "eWiseAdd in place") ;
            // bound: w = op (s, v), w = op (u, s), s special or not
            double s = value (true) ;
            device_on ( ) ;
            if (t == GrB_FP32)
            {
                OK (GrB_Vector_apply_BinaryOp1st_FP32 (w, NULL, NULL, test_binop (t, k), (float) s, v, NULL)) ;
                OK (GrB_Vector_apply_BinaryOp2nd_FP32 (u, NULL, NULL, test_binop (t, k), v, (float) s, NULL)) ;
                device_cpu ( ) ;
                OK (GrB_Vector_apply_BinaryOp1st_FP32 (wt, NULL, NULL, test_binop (t, k), (float) s, vt, NULL)) ;
                OK (GrB_Vector_apply_BinaryOp2nd_FP32 (ut, NULL, NULL, test_binop (t, k), vt, (float) s, NULL)) ;
            }
            else
            {
                OK (GrB_Vector_apply_BinaryOp1st_FP64 (w, NULL, NULL, test_binop (t, k), s, v, NULL)) ;
                OK (GrB_Vector_apply_BinaryOp2nd_FP64 (u, NULL, NULL, test_binop (t, k), v, s, NULL)) ;
                device_cpu ( ) ;
                OK (GrB_Vector_apply_BinaryOp1st_FP64 (wt, NULL, NULL, test_binop (t, k), s, vt, NULL)) ;
                OK (GrB_Vector_apply_BinaryOp2nd_FP64 (ut, NULL, NULL, test_binop (t, k), vt, s, NULL)) ;
            }
            assert_same_vector (w, wt, "apply BinaryOp1st") ;
            assert_same_vector (u, ut, "apply BinaryOp2nd") ;
            GrB_Vector_free (&u) ; GrB_Vector_free (&v) ; GrB_Vector_free (&w) ;
            GrB_Vector_free (&ut) ; GrB_Vector_free (&vt) ; GrB_Vector_free (&wt) ;
        }
    }
    for (int k = 0 ; k < 3 ; k++)
    {
        GrB_Vector u, v, ut, vt ;
        operands (var, &u, &v, &ut, &vt) ;
        device_on ( ) ;
        OK (GrB_Vector_apply (v, NULL, NULL, test_unop (t, k), u, NULL)) ;
        device_cpu ( ) ;
        OK (GrB_Vector_apply (vt, NULL, NULL, test_unop (t, k), ut, NULL)) ;
        assert_same_vector (v, vt, "apply") ;
        GrB_Vector_free (&u) ; GrB_Vector_free (&v) ;
        GrB_Vector_free (&ut) ; GrB_Vector_free (&vt) ;
    }
}

static void test_ops_fp32 (void **state)      { (void) state ; variant v = { GrB_FP32, false } ; run_ops (&v) ; }
static void test_ops_fp32_res (void **state)  { (void) state ; variant v = { GrB_FP32, true } ; run_ops (&v) ; }
static void test_ops_fp64 (void **state)      { (void) state ; variant v = { GrB_FP64, false } ; run_ops (&v) ; }
static void test_ops_fp64_res (void **state)  { (void) state ; variant v = { GrB_FP64, true } ; run_ops (&v) ; }

// assign of a scalar (specials too), then dup of the resident result
static void test_assign_dup (void **state)
{
    (void) state ;
    const double scalars [5] = { -0.0, NAN, -INFINITY, 0.75, 0.0 } ;
    for (int k = 0 ; k < 10 ; k++)
    {
        GrB_Type t = (k % 2) ? GrB_FP64 : GrB_FP32 ;
        double s = scalars [k / 2] ;
        GrB_Vector w, wt, d, dt ;
        random_vector (t, true, &w, &wt) ;
        device_on ( ) ;
        uint64_t kept = stats ( ).resident_kept ;
        if (t == GrB_FP32) OK (GrB_Vector_assign_FP32 (w, NULL, NULL, (float) s, GrB_ALL, N, NULL)) ;
        else OK (GrB_Vector_assign_FP64 (w, NULL, NULL, s, GrB_ALL, N, NULL)) ;
        assert_true (stats ( ).resident_kept > kept) ;
        kept = stats ( ).resident_kept ;
        OK (GrB_Vector_dup (&d, w)) ;
        assert_true (stats ( ).resident_kept > kept) ;
        device_cpu ( ) ;
        if (t == GrB_FP32) OK (GrB_Vector_assign_FP32 (wt, NULL, NULL, (float) s, GrB_ALL, N, NULL)) ;
        else OK (GrB_Vector_assign_FP64 (wt, NULL, NULL, s, GrB_ALL, N, NULL)) ;
        OK (GrB_Vector_dup (&dt, wt)) ;
        device_on ( ) ;
        OK (GrB_Vector_free (&w)) ;         // freed while resident: d is its own
        assert_same_vector (d, dt, "dup of assign") ;
        GrB_Vector_free (&wt) ; GrB_Vector_free (&d) ; GrB_Vector_free (&dt) ;
    }
}

// reduce: sums up to summation order, MIN / MAX exactly (+0 == -0)
static void test_reduce (void **state)
{
    (void) state ;
    for (int k = 0 ; k < 8 ; k++)
    {
        GrB_Type t = (k % 2) ? GrB_FP64 : GrB_FP32 ;
        bool specials = (k >= 4) ;
        GrB_Vector u, ut ;
        random_vector (t, specials, &u, &ut) ;
        device_on ( ) ;
        OK (GrB_Vector_apply (u, NULL, NULL, test_unop (t, 0), u, NULL)) ;      // resident
        const GrB_Monoid m32 [3] = { GrB_PLUS_MONOID_FP32, GrB_MIN_MONOID_FP32, GrB_MAX_MONOID_FP32 } ;
        const GrB_Monoid m64 [3] = { GrB_PLUS_MONOID_FP64, GrB_MIN_MONOID_FP64, GrB_MAX_MONOID_FP64 } ;
        for (int j = 0 ; j < 3 ; j++)
        {
            double got, want ;
            uint64_t done = stats ( ).offloaded_host + stats ( ).offloaded_cuda ;
            uint64_t mat = stats ( ).materialised ;
            device_on ( ) ;
            if (t == GrB_FP32)
            {
                float g, w ;
                OK (GrB_Vector_reduce_FP32 (&g, NULL, m32 [j], u, NULL)) ;
                device_cpu ( ) ;
                OK (GrB_Vector_reduce_FP32 (&w, NULL, m32 [j], ut, NULL)) ;
                got = g ; want = w ;
            }
            else
            {
                OK (GrB_Vector_reduce_FP64 (&got, NULL, m64 [j], u, NULL)) ;
                device_cpu ( ) ;
                OK (GrB_Vector_reduce_FP64 (&want, NULL, m64 [j], ut, NULL)) ;
            }
            // on the device, nothing came down
            assert_true (stats ( ).offloaded_host + stats ( ).offloaded_cuda > done) ;
            assert_int_equal (stats ( ).materialised, mat) ;
            if (isnan (want) || isinf (want) || j > 0)
            {
                bool same = (isnan (got) && isnan (want)) || got == want ;
                if (!same) fail_msg ("reduce %d: %g, expected %g", j, got, want) ;
            }
            else
            {
                double tol = (t == GrB_FP32 ? 1e-4 : 1e-10) * (1 + fabs (want)) * 1e3 ;
                if (fabs (got - want) > tol) fail_msg ("sum %.17g, expected %.17g", got, want) ;
            }
        }
        device_on ( ) ;
        GrB_Vector_free (&u) ; GrB_Vector_free (&ut) ;
    }
}

// FIRST / SECOND of a resident full vector and a sparse (or bitmap) BOOL
// one: the resident values on the sparse pattern, without materialising
// (kept on the device on that pattern, vec_pattern.c; read here through
// extractTuples)
static void test_pattern_gather (void **state)
{
    (void) state ;
    for (int k = 0 ; k < 12 ; k++)
    {
        GrB_Type t = (k % 2) ? GrB_FP64 : GrB_FP32 ;
        bool second = (k / 2) % 2 ;
        bool bitmap = (k >= 4) ;
        int every = (k >= 8) ? 2 : 10 ;
        GrB_Vector u, ut, s, w, wt ;
        random_vector (t, true, &u, &ut) ;
        OK (GrB_Vector_new (&s, GrB_BOOL, N)) ;
        for (int e = 0 ; e < N / every ; e++) OK (GrB_Vector_setElement_BOOL (s, true, rnd ( ) % N)) ;
        OK (GxB_Vector_Option_set (s, GxB_SPARSITY_CONTROL, bitmap ? GxB_BITMAP : GxB_SPARSE)) ;
        OK (GrB_Vector_wait (s, GrB_MATERIALIZE)) ;
        OK (GrB_Vector_new (&w, t, N)) ;
        OK (GrB_Vector_new (&wt, t, N)) ;
        device_on ( ) ;
        OK (GrB_Vector_apply (u, NULL, NULL, test_unop (t, 0), u, NULL)) ;      // resident
        grbgpu_stats s0 = stats ( ) ;
        GrB_BinaryOp op = test_binop (t, second ? 1 : 0) ;
        if (second) OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, op, s, u, NULL)) ;
        else OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, op, u, s, NULL)) ;
        grbgpu_stats s1 = stats ( ) ;
        assert_true (s1.offloaded_host + s1.offloaded_cuda > s0.offloaded_host + s0.offloaded_cuda) ;
        assert_int_equal (s1.materialised, s0.materialised) ;
        device_cpu ( ) ;
        if (second) OK (GrB_Vector_eWiseMult_BinaryOp (wt, NULL, NULL, op, s, ut, NULL)) ;
        else OK (GrB_Vector_eWiseMult_BinaryOp (wt, NULL, NULL, op, ut, s, NULL)) ;
        device_on ( ) ;
        GrB_Index nw, nt ;
        OK (GrB_Vector_nvals (&nw, w)) ;
        OK (GrB_Vector_nvals (&nt, wt)) ;
        assert_int_equal (nw, nt) ;
        GrB_Index I [N], J [N] ;
        double X [N], Y [N] ;
        OK (GrB_Vector_extractTuples_FP64 (I, X, &nw, w)) ;
        OK (GrB_Vector_extractTuples_FP64 (J, Y, &nt, wt)) ;
        for (GrB_Index e = 0 ; e < nw ; e++)
        {
            assert_int_equal (I [e], J [e]) ;
            bool same = (isnan (X [e]) && isnan (Y [e]))
                || (X [e] == Y [e] && signbit (X [e]) == signbit (Y [e])) ;
            if (!same) fail_msg ("gather entry %llu: %g, expected %g", (unsigned long long) I [e], X [e], Y [e]) ;
        }
        assert_same_vector (u, ut, "gather's resident input") ;
        GrB_Vector_free (&u) ; GrB_Vector_free (&ut) ; GrB_Vector_free (&s) ;
        GrB_Vector_free (&w) ; GrB_Vector_free (&wt) ;
    }
}

// masks, accumulators, descriptors and other types are declined; the CPU
// library's answer comes back
static void test_declined (void **state)
{
    (void) state ;
    GrB_Vector u, v, ut, vt, m, mt ;
    random_vector (GrB_FP64, false, &u, &ut) ;
    random_vector (GrB_FP64, false, &v, &vt) ;
    random_vector (GrB_FP64, false, &m, &mt) ;
    device_on ( ) ;
    OK (GrB_Vector_apply (u, NULL, NULL, GrB_IDENTITY_FP64, u, NULL)) ;     // resident
    uint64_t dec = stats ( ).declined ;
    OK (GrB_Vector_eWiseMult_BinaryOp (v, m, NULL, GrB_DIV_FP64, u, v, NULL)) ;
    OK (GrB_Vector_eWiseAdd_BinaryOp (v, NULL, GrB_PLUS_FP64, GrB_TIMES_FP64, u, v, NULL)) ;
    OK (GrB_Vector_apply (v, NULL, NULL, GrB_ABS_FP64, u, GrB_DESC_R)) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (v, NULL, NULL, GxB_ATAN2_FP64, u, v, NULL)) ;
    assert_true (stats ( ).declined >= dec + 4) ;
    device_cpu ( ) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (vt, mt, NULL, GrB_DIV_FP64, ut, vt, NULL)) ;
    OK (GrB_Vector_eWiseAdd_BinaryOp (vt, NULL, GrB_PLUS_FP64, GrB_TIMES_FP64, ut, vt, NULL)) ;
    OK (GrB_Vector_apply (vt, NULL, NULL, GrB_ABS_FP64, ut, GrB_DESC_R)) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (vt, NULL, NULL, GxB_ATAN2_FP64, ut, vt, NULL)) ;
    device_on ( ) ;
    assert_same_vector (v, vt, "declined chain") ;
    assert_same_vector (u, ut, "declined chain's input") ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&v) ; GrB_Vector_free (&m) ;
    GrB_Vector_free (&ut) ; GrB_Vector_free (&vt) ; GrB_Vector_free (&mt) ;
}

// a small GRBGPU_DEVICE_MEMORY: results evict one another, values stay right
static void test_eviction (void **state)
{
    (void) state ;
    char mem [32] ;
    snprintf (mem, sizeof (mem), "%d", (int) (3 * N * sizeof (double) + 16)) ;
    set ("DEVICE_MEMORY", mem) ;
    grbgpu_stats s0 = stats ( ) ;
    GrB_Vector w [5], wt [5] ;
    for (int k = 0 ; k < 5 ; k++)
    {
        random_vector (GrB_FP64, true, &w [k], &wt [k]) ;
        device_on ( ) ;
        OK (GrB_Vector_apply (w [k], NULL, NULL, GrB_AINV_FP64, w [k], NULL)) ;
        device_cpu ( ) ;
        OK (GrB_Vector_apply (wt [k], NULL, NULL, GrB_AINV_FP64, wt [k], NULL)) ;
    }
    device_on ( ) ;
    assert_true (stats ( ).resident_evicted > s0.resident_evicted) ;
    OK (GrB_Vector_free (&w [2])) ;        // freed while (maybe) resident
    GrB_Vector_free (&wt [2]) ;
    for (int k = 0 ; k < 5 ; k++)
    {
        if (k == 2) continue ;
        assert_same_vector (w [k], wt [k], "after eviction") ;
        GrB_Vector_free (&w [k]) ; GrB_Vector_free (&wt [k]) ;
    }
    set ("DEVICE_MEMORY", "0") ;
}

//------------------------------------------------------------------------------
// a product accumulated into a resident vector, the matrix changing
//------------------------------------------------------------------------------

// r<accum> = A*w with r resident: the rows of A that hold entries (r keeps
// its value in the others) are kept in the backend's memory per version of
// A; after an empty row of A gets an entry the next product must see it.
// The accumulator SECOND (r (i) = (A*w) (i) where row i has entries) shows
// a wrong set of rows, which PLUS (adding the 0 of an empty row) would not.
// Small integer values: every sum is exact, so the comparison is bit for bit.
static void test_accum_rows (void **state)
{
    (void) state ;
    GrB_Matrix A ;
    GrB_Vector w, r, rt ;
    OK (GrB_Matrix_new (&A, GrB_FP32, N, N)) ;
    for (GrB_Index i = 0 ; i < N ; i++)
    {
        // rows 0, 3, 6, ... empty
        if (i % 3 != 0) OK (GrB_Matrix_setElement_FP32 (A, 1, i, rnd ( ) % N)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    OK (GrB_Vector_new (&w, GrB_FP32, N)) ;
    for (GrB_Index i = 0 ; i < N ; i++)
        OK (GrB_Vector_setElement_FP32 (w, (float) (rnd ( ) % 7), i)) ;
    OK (GrB_Vector_wait (w, GrB_MATERIALIZE)) ;
    OK (GrB_Vector_new (&r, GrB_FP32, N)) ;
    OK (GrB_Vector_new (&rt, GrB_FP32, N)) ;
    device_on ( ) ;
    OK (GrB_Vector_assign_FP32 (r, NULL, NULL, 1, GrB_ALL, N, NULL)) ;
    device_cpu ( ) ;
    OK (GrB_Vector_assign_FP32 (rt, NULL, NULL, 1, GrB_ALL, N, NULL)) ;
    for (int phase = 0 ; phase < 3 ; phase++)
    {
        for (int rep = 0 ; rep < 3 ; rep++)
        {
            device_on ( ) ;
            uint64_t kept = stats ( ).resident_kept ;
            OK (GrB_mxv (r, NULL, GrB_SECOND_FP32, GxB_PLUS_SECOND_FP32, A, w, NULL)) ;
            assert_true (stats ( ).resident_kept > kept) ;
            device_cpu ( ) ;
            OK (GrB_mxv (rt, NULL, GrB_SECOND_FP32, GxB_PLUS_SECOND_FP32, A, w, NULL)) ;
        }
        device_on ( ) ;
        assert_same_vector (r, rt, "r<SECOND> = A*w") ;
        // an empty row gets an entry: a new version of A
        OK (GrB_Matrix_setElement_FP32 (A, 2, (GrB_Index) (3 * (phase + 1)), rnd ( ) % N)) ;
        OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    }
    GrB_Matrix_free (&A) ;
    GrB_Vector_free (&w) ; GrB_Vector_free (&r) ; GrB_Vector_free (&rt) ;
}

//------------------------------------------------------------------------------
// a PageRank iteration chain (examples/pagerank.c, LAGraph style)
//------------------------------------------------------------------------------

enum { PN = 3000, PITERS = 20 } ;

// some vertices without out-edges (sinks), some without in-edges
static GrB_Matrix graph (void)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP32, PN, PN)) ;
    for (GrB_Index i = 0 ; i < PN ; i++)
    {
        int deg = (rnd ( ) % 10 == 0) ? 0 : 1 + (int) (rnd ( ) % 6) ;
        for (int e = 0 ; e < deg ; e++)
        {
            GrB_Index j = (rnd ( ) % 4 == 0) ? rnd ( ) % PN : rnd ( ) % (PN / 2) ;
            OK (GrB_Matrix_setElement_FP32 (A, 1, i, j)) ;
        }
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

// ranks after PITERS iterations; rdiff of each iteration in diffs
static void pagerank (GrB_Matrix A, float *ranks, float *diffs)
{
    const float damping = 0.85f ;
    GrB_Matrix AT ;
    GrB_Vector d_out, d, t, w, r, ones, sink, tsink ;
    GrB_Index nsinks ;
    OK (GrB_Matrix_new (&AT, GrB_FP32, PN, PN)) ;
    OK (GrB_transpose (AT, NULL, NULL, A, NULL)) ;
    OK (GrB_Vector_new (&ones, GrB_FP32, PN)) ;
    OK (GrB_Vector_assign_FP32 (ones, NULL, NULL, 0, GrB_ALL, PN, NULL)) ;
    OK (GrB_Vector_new (&d_out, GrB_FP32, PN)) ;
    OK (GrB_mxv (d_out, NULL, NULL, GxB_PLUS_PAIR_FP32, A, ones, NULL)) ;
    OK (GrB_Vector_new (&sink, GrB_BOOL, PN)) ;
    OK (GrB_Vector_assign_BOOL (sink, d_out, NULL, true, GrB_ALL, PN, GrB_DESC_SC)) ;
    OK (GrB_Vector_nvals (&nsinks, sink)) ;
    assert_true (nsinks > 0) ;
    OK (GrB_Vector_new (&tsink, GrB_FP32, PN)) ;
    OK (GrB_Vector_new (&d, GrB_FP32, PN)) ;
    OK (GrB_Vector_assign_FP32 (d, NULL, NULL, 1, GrB_ALL, PN, NULL)) ;
    OK (GrB_Vector_eWiseAdd_BinaryOp (d, NULL, NULL, GrB_MAX_FP32, d, d_out, NULL)) ;
    OK (GrB_Vector_apply_BinaryOp2nd_FP32 (d, NULL, NULL, GrB_DIV_FP32, d, damping, NULL)) ;
    const float teleport = (1 - damping) / (float) PN ;
    OK (GrB_Vector_new (&r, GrB_FP32, PN)) ;
    OK (GrB_Vector_assign_FP32 (r, NULL, NULL, 1.0f / PN, GrB_ALL, PN, NULL)) ;
    OK (GrB_Vector_new (&t, GrB_FP32, PN)) ;
    OK (GrB_Vector_new (&w, GrB_FP32, PN)) ;
    for (int k = 0 ; k < PITERS ; k++)
    {
        GrB_Vector tmp = t ; t = r ; r = tmp ;
        float sink_rank = 0 ;
        OK (GrB_Vector_eWiseMult_BinaryOp (tsink, NULL, NULL, GrB_FIRST_FP32, t, sink, NULL)) ;
        OK (GrB_Vector_reduce_FP32 (&sink_rank, NULL, GrB_PLUS_MONOID_FP32, tsink, NULL)) ;
        OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, GrB_DIV_FP32, t, d, NULL)) ;
        float base = teleport + damping * sink_rank / (float) PN ;
        OK (GrB_Vector_assign_FP32 (r, NULL, NULL, base, GrB_ALL, PN, NULL)) ;
        OK (GrB_mxv (r, NULL, GrB_PLUS_FP32, GxB_PLUS_SECOND_FP32, AT, w, NULL)) ;
        OK (GrB_Vector_eWiseAdd_BinaryOp (t, NULL, NULL, GrB_MINUS_FP32, t, r, NULL)) ;
        OK (GrB_Vector_apply (t, NULL, NULL, GrB_ABS_FP32, t, NULL)) ;
        OK (GrB_Vector_reduce_FP32 (&diffs [k], NULL, GrB_PLUS_MONOID_FP32, t, NULL)) ;
    }
    GrB_Index n = PN, *I = malloc (PN * sizeof (GrB_Index)) ;
    float *X = malloc (PN * sizeof (float)) ;
    assert_non_null (I) ; assert_non_null (X) ;
    OK (GrB_Vector_extractTuples_FP32 (I, X, &n, r)) ;
    assert_int_equal (n, PN) ;
    for (GrB_Index k = 0 ; k < n ; k++) ranks [I [k]] = X [k] ;
    free (I) ; free (X) ;
    GrB_Matrix_free (&AT) ; GrB_Vector_free (&d_out) ; GrB_Vector_free (&d) ;
    GrB_Vector_free (&t) ; GrB_Vector_free (&w) ; GrB_Vector_free (&r) ;
    GrB_Vector_free (&ones) ; GrB_Vector_free (&sink) ; GrB_Vector_free (&tsink) ;
}

static void test_pagerank_chain (void **state)
{
    (void) state ;
    GrB_Matrix A = graph ( ) ;
    static float ref [PN], got [PN], dref [PITERS], dgot [PITERS] ;
    device_cpu ( ) ;
    pagerank (A, ref, dref) ;
    device_on ( ) ;
    grbgpu_stats s0 = stats ( ) ;
    pagerank (A, got, dgot) ;
    grbgpu_stats s1 = stats ( ) ;
    for (int i = 0 ; i < PN ; i++)
    {
        if (fabsf (got [i] - ref [i]) > 1e-5f * fabsf (ref [i]) + 1e-9f)
        {
            fail_msg ("rank %d: %g, expected %g", i, got [i], ref [i]) ;
        }
    }
    for (int k = 0 ; k < PITERS ; k++)
    {
        // (near convergence rdiff is a difference of nearly equal ranks: the
        // products' summation order shows in its last digits; with each
        // rank within 1e-5 of the CPU library's, as checked above, and the
        // ranks summing to 1, rdiff can differ by up to 2e-5)
        if (fabsf (dgot [k] - dref [k]) > 1e-3f * dref [k] + 2e-5f)
        {
            fail_msg ("rdiff %d: %g, expected %g", k, dgot [k], dref [k]) ;
        }
    }
    // the iterations ran on the device (6 calls each) and the vectors stayed
    // there: what came down is the setup's and the final read's, not one per
    // iteration
    uint64_t done = (s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda) ;
    uint64_t mat = s1.materialised - s0.materialised ;
    printf ("  pagerank chain: %llu calls on the device, %llu kept, %llu materialised\n",
        (unsigned long long) done, (unsigned long long) (s1.resident_kept - s0.resident_kept),
        (unsigned long long) mat) ;
    assert_true (done >= 7 * PITERS) ;
    assert_true (mat <= 4) ;
    GrB_Matrix_free (&A) ;
}

// injected faults (allocations, launches) in the chain: every failed
// operation is answered by the CPU library, the ranks are the same
static void test_pagerank_faults (void **state)
{
    (void) state ;
    GrB_Matrix A = graph ( ) ;
    static float ref [PN], got [PN], dref [PITERS], dgot [PITERS] ;
    device_cpu ( ) ;
    pagerank (A, ref, dref) ;
    device_on ( ) ;
    grbgpu_stats s0 = stats ( ) ;
    set ("FAULT", "alloc:0.2,launch:0.2") ;
    pagerank (A, got, dgot) ;
    set ("FAULT", "") ;
    grbgpu_stats s1 = stats ( ) ;
    for (int i = 0 ; i < PN ; i++)
    {
        if (fabsf (got [i] - ref [i]) > 1e-5f * fabsf (ref [i]) + 1e-9f)
        {
            fail_msg ("rank %d: %g, expected %g", i, got [i], ref [i]) ;
        }
    }
    printf ("  pagerank chain with faults: %llu fallbacks, %llu on the device\n",
        (unsigned long long) (s1.fallbacks - s0.fallbacks),
        (unsigned long long) ((s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda))) ;
    assert_true (s1.fallbacks > s0.fallbacks) ;
    GrB_Matrix_free (&A) ;
}

int main (void)
{
    int skip = resident_test_start ("test_vec_ops") ;
    if (skip != 0) return skip ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_ops_fp32),
        cmocka_unit_test (test_ops_fp32_res),
        cmocka_unit_test (test_ops_fp64),
        cmocka_unit_test (test_ops_fp64_res),
        cmocka_unit_test (test_assign_dup),
        cmocka_unit_test (test_reduce),
        cmocka_unit_test (test_pattern_gather),
        cmocka_unit_test (test_declined),
        cmocka_unit_test (test_eviction),
        cmocka_unit_test (test_accum_rows),
        cmocka_unit_test (test_pagerank_chain),
        cmocka_unit_test (test_pagerank_faults),
    } ;
    int rc = cmocka_run_group_tests (tests, NULL, NULL) ;
    GrB_finalize ( ) ;
    return rc ;
}
