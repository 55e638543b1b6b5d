//------------------------------------------------------------------------------
// tests/test_vec_pattern.c: resident vectors on a pattern (t .* sink)
//------------------------------------------------------------------------------

// Through the public API only (linked with libgrbgpu), with GRBGPU_RESIDENT=1
// on the host emulation backend (GRBGPU_TEST_DEVICE=cuda: the GPU).  FIRST /
// SECOND of a resident full FP32 / FP64 vector t and a pattern s on the host
// (sparse or bitmap, of BOOL, INT32 or FP64, empty, a few entries, half)
// keeps the result w on the device on s's pattern (backend/dispatch/
// vec_pattern.c; a pattern with every entry is declined and answered by the
// CPU library); each w is compared with the CPU library's on twins
// (GRBGPU_DEVICE=cpu) on fresh random values holding Inf, -Inf, NaN, -0:
//   - reductions with PLUS, TIMES, MIN, MAX run on the device over the
//     pattern only (nothing materialised), sums and products up to their
//     order, MIN / MAX exactly, an empty pattern the CPU library's answer,
//     patterns whose entries are all -0 or all NaN exactly the CPU
//     library's (which depends on w being held bitmap or sparse);
//   - nvals and GrB_wait leave w on the device (nothing is pending in it);
//     extractTuples, extractElement, setElement, eWiseAdd, apply, dup, mxv
//     (w as the product's vector) materialise, and then w is the CPU library's
//     object: same entries, values bit for bit, same sparsity status, same
//     iso flag, for every sparsity control of w;
//   - free drops w without a download; a small GRBGPU_DEVICE_MEMORY evicts
//     (materialises) it and its values stay right;
//   - the PageRank sink sequence (tsink = t .* sink, sum (tsink)) with t
//     changing every iteration equals the CPU library's, materialises
//     nothing, sends the pattern up once and (on the GPU) brings down only
//     the sum; under injected faults it is still right.

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
#include "tests/vec_pattern_util.h"

// how w is read after the reductions (each materialises but nvals)
enum { READ_NVALS, READ_TUPLES, READ_ELEMENT, READ_SET, READ_WAIT, READ_ADD, READ_APPLY,
    READ_DUP, READ_MXV, NREAD } ;

// a random sparse N x N matrix of type ty (for READ_MXV)
static GrB_Matrix random_matrix (GrB_Type ty)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, ty, N, N)) ;
    for (int e = 0 ; e < 4 * N ; e++)
    {
        OK (GrB_Matrix_setElement_FP64 (A, (double) (rnd ( ) % 7) - 3.0, rnd ( ) % N, rnd ( ) % N)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

//------------------------------------------------------------------------------
// every case against the CPU library
//------------------------------------------------------------------------------

static void test_pattern_cases (void **state)
{
    (void) state ;
    const GrB_Type stypes [3] = { GrB_BOOL, GrB_INT32, GrB_FP64 } ;
    const int density [5] = { 0, 3, 100, 500, 1000 } ;
    const int wcontrol [5] = { GxB_AUTO_SPARSITY, GxB_SPARSE, GxB_BITMAP, GxB_FULL,
        GxB_SPARSE + GxB_BITMAP } ;
    int kept_patterned = 0, all_present = 0, cases = 0 ;
    for (int c = 0 ; c < 90 ; c++)
    {
        GrB_Type ty = (c % 2) ? GrB_FP64 : GrB_FP32 ;
        bool second = (c / 2) % 2 ;
        bool bitmap = (c / 4) % 2 ;
        int dens = density [(c / 8) % 5] ;
        bool mild = (c / 40) % 2 == 1 ;
        GrB_Vector t, tt, w, wt ;
        make_t (ty, mild, &t, &tt) ;
        GrB_Vector s = make_s (stypes [rnd ( ) % 3], dens, bitmap ? GxB_BITMAP : GxB_SPARSE) ;
        OK (GrB_Vector_new (&w, ty, N)) ;
        OK (GrB_Vector_new (&wt, ty, N)) ;
        int ctl = wcontrol [rnd ( ) % 5] ;
        OK (GxB_Vector_Option_set (w, GxB_SPARSITY_CONTROL, ctl)) ;
        OK (GxB_Vector_Option_set (wt, GxB_SPARSITY_CONTROL, ctl)) ;
        GrB_BinaryOp op = second ? (ty == GrB_FP32 ? GrB_SECOND_FP32 : GrB_SECOND_FP64)
            : (ty == GrB_FP32 ? GrB_FIRST_FP32 : GrB_FIRST_FP64) ;
        // the device: w kept on s's pattern, nothing comes down
        grbgpu_stats s0 = stats ( ) ;
        if (second) OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, op, s, t, NULL)) ;
        else OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, op, t, s, NULL)) ;
        grbgpu_stats s1 = stats ( ) ;
        if (dens < 1000)
        {
            assert_int_equal (s1.resident_kept, s0.resident_kept + 1) ;
            assert_int_equal (s1.materialised, s0.materialised) ;
        }
        device_cpu ( ) ;
        if (second) OK (GrB_Vector_eWiseMult_BinaryOp (wt, NULL, NULL, op, s, tt, NULL)) ;
        else OK (GrB_Vector_eWiseMult_BinaryOp (wt, NULL, NULL, op, tt, s, NULL)) ;
        device_on ( ) ;
        GrB_Index nt ;
        OK (GrB_Vector_nvals (&nt, wt)) ;
        int st ;
        OK (GxB_Vector_Option_get (wt, GxB_SPARSITY_STATUS, &st)) ;
        // every entry present: declined (the CPU library answers)
        if (dens == 1000) all_present++ ; else kept_patterned++ ;
        // the reductions on the device, against the CPU library's
        double mag = 0 ;
        {
            static GrB_Index I [N] ;
            static double X [N] ;
            GrB_Index m = nt ;
            OK (GrB_Vector_extractTuples_FP64 (I, X, &m, wt)) ;
            for (GrB_Index e = 0 ; e < m ; e++) if (isfinite (X [e])) mag += fabs (X [e]) ;
        }
        for (int k = 0 ; k < 4 ; k++)
        {
            GrB_Monoid m = monoid (ty, k) ;
            grbgpu_stats r0 = stats ( ) ;
            double got = reduce (ty, m, w) ;
            grbgpu_stats r1 = stats ( ) ;
            if (dens < 1000)
            {
                assert_int_equal (r1.materialised, r0.materialised) ;
                assert_true (r1.offloaded_host + r1.offloaded_cuda > r0.offloaded_host + r0.offloaded_cuda) ;
            }
            device_cpu ( ) ;
            double ref = reduce (ty, m, wt) ;
            device_on ( ) ;
            assert_reduced (k, ty, got, ref, mag, "reduce on a pattern") ;
        }
        // read it, as a program would
        int how = c % NREAD ;
        grbgpu_stats m0 = stats ( ) ;
        GrB_Index nw ;
        switch (how)
        {
            case READ_NVALS:
                OK (GrB_Vector_nvals (&nw, w)) ;
                assert_int_equal (nw, nt) ;
                assert_int_equal (stats ( ).materialised, m0.materialised) ;
                break ;
            case READ_TUPLES:
                break ;     // (assert_same_object reads the tuples)
            case READ_ELEMENT:
            {
                GrB_Index i = rnd ( ) % N ;
                double x = 0, y = 0 ;
                GrB_Info a = GrB_Vector_extractElement_FP64 (&x, w, i) ;
                GrB_Info b = GrB_Vector_extractElement_FP64 (&y, wt, i) ;
                assert_int_equal (a, b) ;
                if (a == GrB_SUCCESS) assert_true (same_value (x, y)) ;
                break ;
            }
            case READ_SET:
                OK (GrB_Vector_setElement_FP64 (w, -0.0, 7)) ;
                OK (GrB_Vector_setElement_FP64 (wt, -0.0, 7)) ;
                break ;
            case READ_WAIT:
                OK (GrB_Vector_wait (w, GrB_MATERIALIZE)) ;
                assert_int_equal (stats ( ).materialised, m0.materialised) ;
                break ;
            case READ_ADD:
            {
                GrB_BinaryOp plus = (ty == GrB_FP32) ? GrB_PLUS_FP32 : GrB_PLUS_FP64 ;
                OK (GrB_Vector_eWiseAdd_BinaryOp (w, NULL, NULL, plus, w, t, NULL)) ;
                device_cpu ( ) ;
                OK (GrB_Vector_eWiseAdd_BinaryOp (wt, NULL, NULL, plus, wt, tt, NULL)) ;
                device_on ( ) ;
                break ;
            }
            case READ_APPLY:
            {
                GrB_UnaryOp ainv = (ty == GrB_FP32) ? GrB_AINV_FP32 : GrB_AINV_FP64 ;
                OK (GrB_Vector_apply (w, NULL, NULL, ainv, w, NULL)) ;
                device_cpu ( ) ;
                OK (GrB_Vector_apply (wt, NULL, NULL, ainv, wt, NULL)) ;
                device_on ( ) ;
                break ;
            }
            case READ_DUP:
            {
                // (w itself is read below; its copy must be the same)
                GrB_Vector d, dt ;
                OK (GrB_Vector_dup (&d, w)) ;
                device_cpu ( ) ;
                OK (GrB_Vector_dup (&dt, wt)) ;
                device_on ( ) ;
                assert_same_object (d, dt, "dup of t .* s") ;
                GrB_Vector_free (&d) ; GrB_Vector_free (&dt) ;
                break ;
            }
            case READ_MXV:
            {
                // a product reading w: w is not read in place as a dense x
                GrB_Matrix A = random_matrix (ty) ;
                GrB_Semiring sr = (ty == GrB_FP32) ? GrB_PLUS_TIMES_SEMIRING_FP32
                    : GrB_PLUS_TIMES_SEMIRING_FP64 ;
                GrB_Vector y, yt ;
                OK (GrB_Vector_new (&y, ty, N)) ;
                OK (GrB_Vector_new (&yt, ty, N)) ;
                OK (GrB_mxv (y, NULL, NULL, sr, A, w, NULL)) ;
                device_cpu ( ) ;
                OK (GrB_mxv (yt, NULL, NULL, sr, A, wt, NULL)) ;
                device_on ( ) ;
                // (sums of a row in another order: compare within rounding)
                static GrB_Index I [N], J [N] ;
                static double X [N], Y [N] ;
                GrB_Index ny = N, nyt = N ;
                OK (GrB_Vector_extractTuples_FP64 (I, X, &ny, y)) ;
                OK (GrB_Vector_extractTuples_FP64 (J, Y, &nyt, yt)) ;
                assert_int_equal (ny, nyt) ;
                for (GrB_Index e = 0 ; e < ny ; e++)
                {
                    assert_int_equal (I [e], J [e]) ;
                    bool ok = same_value (X [e], Y [e]) || (isfinite (Y [e])
                        && fabs (X [e] - Y [e]) <= 1e-4 * (fabs (Y [e]) + 1e3)) ;
                    if (!ok) fail_msg ("mxv of t .* s: %llu: %g, expected %g",
                        (unsigned long long) I [e], X [e], Y [e]) ;
                }
                GrB_Vector_free (&y) ; GrB_Vector_free (&yt) ; GrB_Matrix_free (&A) ;
                break ;
            }
        }
        if (how != READ_NVALS && how != READ_WAIT && how != READ_TUPLES && how != READ_MXV
            && dens < 1000)
        {
            assert_true (stats ( ).materialised > m0.materialised) ;
        }
        char what [64] ;
        snprintf (what, sizeof (what), "t .* s (case %d, read %d, %d of %d entries)", c, how,
            (int) nt, N) ;
        assert_same_object (w, wt, what) ;
        assert_same_object (t, tt, "t, read in place") ;
        GrB_Vector_free (&t) ; GrB_Vector_free (&tt) ; GrB_Vector_free (&s) ;
        GrB_Vector_free (&w) ; GrB_Vector_free (&wt) ;
        cases++ ;
    }
    printf ("  %d cases: %d kept on a pattern, %d with every entry (declined)\n", cases,
        kept_patterned, all_present) ;
    assert_true (kept_patterned > 0 && all_present > 0) ;
}

//------------------------------------------------------------------------------
// patterns whose entries are all -0, or all NaN
//------------------------------------------------------------------------------

// the CPU library reduces a bitmap vector from the monoid's identity and a
// sparse one from its first entry: all -0 sums to +0 or -0, all NaN gives
// +-Inf or NaN (MIN / MAX), by the format w is held in
static void test_special_entries (void **state)
{
    (void) state ;
    const double specials [3] = { -0.0, NAN, 0.0 } ;
    const int wcontrol [3] = { GxB_BITMAP, GxB_SPARSE, GxB_AUTO_SPARSITY } ;
    for (int c = 0 ; c < 36 ; c++)
    {
        GrB_Type ty = (c % 2) ? GrB_FP64 : GrB_FP32 ;
        double x = specials [(c / 2) % 3] ;
        int ctl = wcontrol [(c / 6) % 3] ;
        int nent = (c / 18) ? 5 : 1 ;
        GrB_Vector t, tt, w, wt ;
        make_t (ty, false, &t, &tt) ;
        GrB_Vector s ;
        OK (GrB_Vector_new (&s, GrB_BOOL, N)) ;
        for (int e = 0 ; e < nent ; e++)
        {
            GrB_Index i = rnd ( ) % N ;
            OK (GrB_Vector_setElement_BOOL (s, true, i)) ;
            // t (i) = x on the device and in the twin
            OK (GrB_Vector_setElement_FP64 (tt, x, i)) ;
        }
        OK (GrB_Vector_wait (s, GrB_MATERIALIZE)) ;
        OK (GrB_Vector_free (&t)) ;
        OK (GrB_Vector_dup (&t, tt)) ;
        GrB_UnaryOp id = (ty == GrB_FP32) ? GrB_IDENTITY_FP32 : GrB_IDENTITY_FP64 ;
        OK (GrB_Vector_apply (t, NULL, NULL, id, t, NULL)) ;     // resident again
        OK (GrB_Vector_new (&w, ty, N)) ;
        OK (GrB_Vector_new (&wt, ty, N)) ;
        OK (GxB_Vector_Option_set (w, GxB_SPARSITY_CONTROL, ctl)) ;
        OK (GxB_Vector_Option_set (wt, GxB_SPARSITY_CONTROL, ctl)) ;
        GrB_BinaryOp first = (ty == GrB_FP32) ? GrB_FIRST_FP32 : GrB_FIRST_FP64 ;
        uint64_t kept = stats ( ).resident_kept ;
        OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, first, t, s, NULL)) ;
        assert_true (stats ( ).resident_kept > kept) ;
        device_cpu ( ) ;
        OK (GrB_Vector_eWiseMult_BinaryOp (wt, NULL, NULL, first, tt, s, NULL)) ;
        device_on ( ) ;
        for (int k = 0 ; k < 4 ; k++)
        {
            GrB_Monoid m = monoid (ty, k) ;
            uint64_t mat = stats ( ).materialised ;
            double got = reduce (ty, m, w) ;
            assert_int_equal (stats ( ).materialised, mat) ;
            device_cpu ( ) ;
            double ref = reduce (ty, m, wt) ;
            device_on ( ) ;
            if (!same_value (got, ref))
            {
                fail_msg ("entries %g (%d of them), control %d, monoid %d: %g, expected %g",
                    x, nent, ctl, k, got, ref) ;
            }
        }
        assert_same_object (w, wt, "special entries") ;
        GrB_Vector_free (&t) ; GrB_Vector_free (&tt) ; GrB_Vector_free (&s) ;
        GrB_Vector_free (&w) ; GrB_Vector_free (&wt) ;
    }
}

//------------------------------------------------------------------------------
// free and eviction
//------------------------------------------------------------------------------

static void test_free_and_eviction (void **state)
{
    (void) state ;
    GrB_Vector t, tt ;
    make_t (GrB_FP64, false, &t, &tt) ;
    GrB_Vector s = make_s (GrB_BOOL, 300, GxB_BITMAP) ;
    GrB_Vector s2 = make_s (GrB_BOOL, 50, GxB_SPARSE) ;
    // free without materialising
    GrB_Vector w ;
    OK (GrB_Vector_new (&w, GrB_FP64, N)) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, GrB_FIRST_FP64, t, s, NULL)) ;
    grbgpu_stats s0 = stats ( ) ;
    OK (GrB_Vector_free (&w)) ;
    assert_int_equal (stats ( ).materialised, s0.materialised) ;
    // eviction: room for t and about one result on a pattern
    char mem [32] ;
    snprintf (mem, sizeof (mem), "%d", (int) (2 * N * (sizeof (double) + 1) + 64)) ;
    set ("DEVICE_MEMORY", mem) ;
    GrB_Vector w1, w2, w1t, w2t ;
    OK (GrB_Vector_new (&w1, GrB_FP64, N)) ;
    OK (GrB_Vector_new (&w2, GrB_FP64, N)) ;
    OK (GrB_Vector_new (&w1t, GrB_FP64, N)) ;
    OK (GrB_Vector_new (&w2t, GrB_FP64, N)) ;
    s0 = stats ( ) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (w1, NULL, NULL, GrB_FIRST_FP64, t, s, NULL)) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (w2, NULL, NULL, GrB_SECOND_FP64, s2, t, NULL)) ;
    grbgpu_stats s1 = stats ( ) ;
    printf ("  eviction: %llu evicted, %llu materialised\n",
        (unsigned long long) (s1.resident_evicted - s0.resident_evicted),
        (unsigned long long) (s1.materialised - s0.materialised)) ;
    assert_true (s1.resident_evicted > s0.resident_evicted) ;
    device_cpu ( ) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (w1t, NULL, NULL, GrB_FIRST_FP64, tt, s, NULL)) ;
    OK (GrB_Vector_eWiseMult_BinaryOp (w2t, NULL, NULL, GrB_SECOND_FP64, s2, tt, NULL)) ;
    device_on ( ) ;
    assert_same_object (w1, w1t, "evicted") ;
    assert_same_object (w2, w2t, "kept") ;
    assert_same_object (t, tt, "t") ;
    set ("DEVICE_MEMORY", "0") ;
    GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ; GrB_Vector_free (&w1t) ; GrB_Vector_free (&w2t) ;
    GrB_Vector_free (&t) ; GrB_Vector_free (&tt) ; GrB_Vector_free (&s) ; GrB_Vector_free (&s2) ;
}

//------------------------------------------------------------------------------
// the PageRank sink sequence
//------------------------------------------------------------------------------

// sink: the vertices without out-edges of a random graph (sink<!struct(d_out)>
// = true, as examples/pagerank.c makes it); per iteration t changes on the
// device, tsink = t .* sink, sink_rank = sum (tsink)
static void sink_sequence (bool faults)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP32, N, N)) ;
    for (int e = 0 ; e < 3 * N ; e++)
    {
        GrB_Index i = rnd ( ) % N ;
        if (i % 3 == 0) continue ;      // a third of the vertices are sinks
        OK (GrB_Matrix_setElement_FP32 (A, 1.0f, i, rnd ( ) % N)) ;
    }
    GrB_Vector d_out, sink, t, tt, tsink, tsinkt ;
    OK (GrB_Vector_new (&d_out, GrB_FP32, N)) ;
    OK (GrB_Matrix_reduce_Monoid (d_out, NULL, NULL, GrB_PLUS_MONOID_FP32, A, NULL)) ;
    OK (GrB_Vector_new (&sink, GrB_BOOL, N)) ;
    OK (GrB_Vector_assign_BOOL (sink, d_out, NULL, true, GrB_ALL, N, GrB_DESC_SC)) ;
    make_t (GrB_FP32, false, &t, &tt) ;
    OK (GrB_Vector_new (&tsink, GrB_FP32, N)) ;
    OK (GrB_Vector_new (&tsinkt, GrB_FP32, N)) ;
    grbgpu_stats s0 = stats ( ) ;
    // (copy faults rarely: a materialisation that fails three downloads in a
    // row answers GrB_OUT_OF_MEMORY, as documented)
    if (faults) set ("FAULT", "alloc:0.2,launch:0.2,copy:0.02") ;
    const int iters = faults ? 24 : 8 ;
    for (int it = 0 ; it < iters ; it++)
    {
        // t = t * 0.75 (on the device; the twin on the CPU library)
        OK (GrB_Vector_apply_BinaryOp2nd_FP32 (t, NULL, NULL, GrB_TIMES_FP32, t, 0.75f, NULL)) ;
        device_cpu ( ) ;
        OK (GrB_Vector_apply_BinaryOp2nd_FP32 (tt, NULL, NULL, GrB_TIMES_FP32, tt, 0.75f, NULL)) ;
        device_on ( ) ;
        grbgpu_stats i0 = stats ( ) ;
        float got = 0, ref = 0 ;
        OK (GrB_Vector_eWiseMult_BinaryOp (tsink, NULL, NULL, GrB_FIRST_FP32, t, sink, NULL)) ;
        OK (GrB_Vector_reduce_FP32 (&got, NULL, GrB_PLUS_MONOID_FP32, tsink, NULL)) ;
        grbgpu_stats i1 = stats ( ) ;
        device_cpu ( ) ;
        OK (GrB_Vector_eWiseMult_BinaryOp (tsinkt, NULL, NULL, GrB_FIRST_FP32, tt, sink, NULL)) ;
        OK (GrB_Vector_reduce_FP32 (&ref, NULL, GrB_PLUS_MONOID_FP32, tsinkt, NULL)) ;
        device_on ( ) ;
        assert_reduced (0, GrB_FP32, got, ref, fabsf (ref) + 1e3f, "sink rank") ;
        if (!faults)
        {
            // nothing materialised; on the GPU only the sum comes down (and
            // the pattern goes up at the first iteration only)
            assert_int_equal (i1.materialised, i0.materialised) ;
            if (on_cuda ( ))
            {
                assert_true (i1.bytes_d2h - i0.bytes_d2h <= 16) ;
                if (it > 0) assert_true (i1.bytes_h2d - i0.bytes_h2d <= 64) ;
            }
            if (it == 0 || it == iters - 1)
            {
                printf ("  sink iteration %d: %llu bytes up, %llu down, %llu materialised\n", it,
                    (unsigned long long) (i1.bytes_h2d - i0.bytes_h2d),
                    (unsigned long long) (i1.bytes_d2h - i0.bytes_d2h),
                    (unsigned long long) (i1.materialised - i0.materialised)) ;
            }
        }
    }
    if (faults) set ("FAULT", "") ;
    grbgpu_stats s1 = stats ( ) ;
    printf ("  sink sequence%s: %llu on the device, %llu fallbacks, %llu materialised\n",
        faults ? " with faults" : "",
        (unsigned long long) ((s1.offloaded_host + s1.offloaded_cuda) - (s0.offloaded_host + s0.offloaded_cuda)),
        (unsigned long long) (s1.fallbacks - s0.fallbacks),
        (unsigned long long) (s1.materialised - s0.materialised)) ;
    // (an injected allocation fault may also turn a call into a decline)
    if (faults) assert_true (s1.fallbacks + s1.declined > s0.fallbacks + s0.declined) ;
    assert_same_object (tsink, tsinkt, "tsink") ;
    assert_same_object (t, tt, "t") ;
    GrB_Matrix_free (&A) ;
    GrB_Vector_free (&d_out) ; GrB_Vector_free (&sink) ; GrB_Vector_free (&t) ;
    GrB_Vector_free (&tt) ; GrB_Vector_free (&tsink) ; GrB_Vector_free (&tsinkt) ;
}

static void test_sink_sequence (void **state)        { (void) state ; sink_sequence (false) ; }
static void test_sink_sequence_faults (void **state) { (void) state ; sink_sequence (true) ; }

int main (void)
{
    int skip = resident_test_start ("test_vec_pattern") ;
    if (skip != 0) return skip ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_pattern_cases),
        cmocka_unit_test (test_special_entries),
        cmocka_unit_test (test_free_and_eviction),
        cmocka_unit_test (test_sink_sequence),
        cmocka_unit_test (test_sink_sequence_faults),
    } ;
    int rc = cmocka_run_group_tests (tests, NULL, NULL) ;
    GrB_finalize ( ) ;
    return rc ;
}
