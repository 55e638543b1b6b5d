//------------------------------------------------------------------------------
// tests/test_resident.c: results kept on the device (GRBGPU_RESIDENT=1)
//------------------------------------------------------------------------------

// Through the public API only (linked with libgrbgpu), on the host emulation
// backend (GRBGPU_TEST_DEVICE=cuda: the GPU).  Chains of GrB_mxv / GrB_vxm /
// GrB_mxm whose outputs are the next inputs are computed twice: with
// residency on, and by the CPU library (GRBGPU_DEVICE=cpu) on the same
// inputs.  The resident result is then read in every way a program can
// (nvals, extractElement, extractTuples, reduce, apply, eWiseAdd, dup,
// serialize, GrB and GxB export, iterators, fprint, Option_get, mxv on the
// CPU library) and must equal the CPU library's answer; it is changed
// (setElement, assign) and freed while resident; a small
// GRBGPU_DEVICE_MEMORY forces evictions; injected faults during
// materialisation give the right answer or GrB_OUT_OF_MEMORY with the
// object intact.  Statistics say that results were kept and when they came
// down (nvals must not bring one down; a read must).
//
// Values are small integers, so every sum is exact in FP64 in any order.
// The reads of a resident result: tests/resident_reads.c.

#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <GraphBLAS.h>
#include "grbgpu.h"

#include "tests/resident_test.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL ;
static uint64_t rnd (void) { return xorshift (&rng) ; }

// Results kept so far must have grown (both backends keep results).
void expect_kept (uint64_t before)
{
    assert_true (stats ( ).resident_kept > before) ;
}

// A sparse NV x NV matrix with every row non-empty (so products are full),
// values 1..3, and entries that make columns non-empty too (for A').
static GrB_Matrix sparse_matrix (void)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, NV, NV)) ;
    for (GrB_Index i = 0 ; i < NV ; i++)
    {
        OK (GrB_Matrix_setElement_FP64 (A, (double) (1 + rnd ( ) % 3), i, (i * 7 + 3) % NV)) ;
        OK (GrB_Matrix_setElement_FP64 (A, (double) (1 + rnd ( ) % 3), (i * 5 + 1) % NV, i)) ;
    }
    for (int e = 0 ; e < 3 * NV ; e++)
    {
        OK (GrB_Matrix_setElement_FP64 (A, (double) (1 + rnd ( ) % 3), rnd ( ) % NV, rnd ( ) % NV)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static GrB_Vector dense_vector (void)
{
    GrB_Vector u ;
    OK (GrB_Vector_new (&u, GrB_FP64, NV)) ;
    for (GrB_Index i = 0 ; i < NV ; i++)
    {
        OK (GrB_Vector_setElement_FP64 (u, (double) (rnd ( ) % 5) - 2.0, i)) ;
    }
    OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
    return u ;
}

GrB_Matrix full_matrix (GrB_Index m, GrB_Index n)
{
    GrB_Matrix B ;
    OK (GrB_Matrix_new (&B, GrB_FP64, m, n)) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            OK (GrB_Matrix_setElement_FP64 (B, (double) (rnd ( ) % 5) - 2.0, i, j)) ;
    OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
    return B ;
}

// the chain: w1 = A*u, w2 = A'*w1, w3' = w2'*A, w = A*w3 (each output the
// next input), with the device on (resident) or on the CPU library
GrB_Vector chain (GrB_Matrix A, GrB_Vector u, bool device)
{
    if (device) device_on ( ) ; else device_cpu ( ) ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    GrB_Vector w1, w2, w3, w ;
    OK (GrB_Vector_new (&w1, GrB_FP64, NV)) ;
    OK (GrB_Vector_new (&w2, GrB_FP64, NV)) ;
    OK (GrB_Vector_new (&w3, GrB_FP64, NV)) ;
    OK (GrB_Vector_new (&w, GrB_FP64, NV)) ;
    OK (GrB_mxv (w1, NULL, NULL, sr, A, u, NULL)) ;
    OK (GrB_mxv (w2, NULL, NULL, sr, A, w1, GrB_DESC_T0)) ;
    OK (GrB_vxm (w3, NULL, NULL, sr, w2, A, NULL)) ;
    OK (GrB_mxv (w, NULL, NULL, sr, A, w3, NULL)) ;
    OK (GrB_Vector_free (&w1)) ;        // freed while resident
    OK (GrB_Vector_free (&w2)) ;
    OK (GrB_Vector_free (&w3)) ;
    device_on ( ) ;
    return w ;
}


void assert_same (const double *x, const double *y, GrB_Index n)
{
    for (GrB_Index k = 0 ; k < n ; k++)
    {
        if (x [k] != y [k]) fail_msg ("entry %llu: %g, expected %g", (unsigned long long) k, x [k], y [k]) ;
    }
}

//------------------------------------------------------------------------------
// fixtures
//------------------------------------------------------------------------------

GrB_Matrix A ;
GrB_Vector u ;
double ref [NV] ;            // the CPU library's chain (u)

static int setup (void **state)
{
    (void) state ;
    A = sparse_matrix ( ) ;
    u = dense_vector ( ) ;
    GrB_Vector w = chain (A, u, false) ;
    values_of (w, ref) ;
    GrB_Vector_free (&w) ;
    device_on ( ) ;
    return 0 ;
}

static int teardown (void **state)
{
    (void) state ;
    GrB_Matrix_free (&A) ;
    GrB_Vector_free (&u) ;
    return 0 ;
}

// A resident result of the chain (checked to be resident on the host backend).
GrB_Vector resident (void)
{
    uint64_t kept = stats ( ).resident_kept ;
    GrB_Vector w = chain (A, u, true) ;
    expect_kept (kept) ;
    return w ;
}

//------------------------------------------------------------------------------
// changes
//------------------------------------------------------------------------------

static void test_mutation (void **state)
{
    (void) state ;
    double x [NV], y [NV] ;
    memcpy (y, ref, sizeof (y)) ;
    GrB_Vector w = resident ( ) ;
    OK (GrB_Vector_setElement_FP64 (w, 100.0, 7)) ;
    y [7] = 100.0 ;
    GrB_Index I [3] = { 1, 50, 299 } ;
    OK (GrB_Vector_assign_FP64 (w, NULL, NULL, -5.0, I, 3, NULL)) ;
    y [1] = y [50] = y [299] = -5.0 ;
    values_of (w, x) ;
    assert_same (x, y, NV) ;
    // and the changed object is used as a product's input again
    GrB_Vector z, zr, r ;
    OK (GrB_Vector_new (&z, GrB_FP64, NV)) ;
    OK (GrB_Vector_new (&zr, GrB_FP64, NV)) ;
    OK (GrB_Vector_dup (&r, w)) ;
    OK (GrB_mxv (z, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, w, NULL)) ;
    device_cpu ( ) ;
    OK (GrB_mxv (zr, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, r, NULL)) ;
    device_on ( ) ;
    values_of (z, x) ; values_of (zr, y) ;
    assert_same (x, y, NV) ;
    // removing an entry of a resident vector
    GrB_Vector_free (&z) ;
    OK (GrB_Vector_new (&z, GrB_FP64, NV)) ;
    OK (GrB_mxv (z, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, w, NULL)) ;
    OK (GrB_Vector_removeElement (z, 3)) ;
    GrB_Index n ;
    OK (GrB_Vector_nvals (&n, z)) ;
    assert_int_equal (n, NV - 1) ;
    GrB_Vector_free (&z) ; GrB_Vector_free (&zr) ; GrB_Vector_free (&r) ;
    GrB_Vector_free (&w) ;
}

static void test_free_while_resident (void **state)
{
    (void) state ;
    uint64_t m = stats ( ).materialised ;
    for (int k = 0 ; k < 5 ; k++)
    {
        GrB_Vector w = resident ( ) ;
        OK (GrB_Vector_free (&w)) ;
    }
    // nothing was brought down to be freed
    assert_int_equal (stats ( ).materialised, m) ;
}

//------------------------------------------------------------------------------
// matrices: C1 = A*B, C2 = A*C1, C3 = A'*C2
//------------------------------------------------------------------------------

static void test_mxm_chain (void **state)
{
    (void) state ;
    GrB_Matrix B = full_matrix (NV, KB) ;
    GrB_Matrix C [2][3] ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    uint64_t kept = stats ( ).resident_kept ;
    for (int d = 0 ; d < 2 ; d++)
    {
        if (d == 0) device_on ( ) ; else device_cpu ( ) ;
        for (int k = 0 ; k < 3 ; k++) OK (GrB_Matrix_new (&C [d][k], GrB_FP64, NV, KB)) ;
        OK (GrB_mxm (C [d][0], NULL, NULL, sr, A, B, NULL)) ;
        OK (GrB_mxm (C [d][1], NULL, NULL, sr, A, C [d][0], NULL)) ;
        OK (GrB_mxm (C [d][2], NULL, NULL, sr, A, C [d][1], GrB_DESC_T0)) ;
    }
    device_on ( ) ;
    expect_kept (kept) ;
    GrB_Index n = 0 ;
    uint64_t m = stats ( ).materialised ;
    OK (GrB_Matrix_nvals (&n, C [0][2])) ;
    assert_int_equal (n, NV * KB) ;
    // GrB_wait finds nothing pending: the results stay on the device
    for (int k = 0 ; k < 3 ; k++) OK (GrB_Matrix_wait (C [0][k], GrB_MATERIALIZE)) ;
    assert_int_equal (stats ( ).materialised, m) ;
    // each read: extractTuples, extractElement, reduce, transpose
    static GrB_Index I [2][NV * KB], J [2][NV * KB] ;
    static double X [2][NV * KB] ;
    for (int d = 0 ; d < 2 ; d++)
    {
        GrB_Index nn = NV * KB ;
        OK (GrB_Matrix_extractTuples_FP64 (I [d], J [d], X [d], &nn, C [d][2])) ;
        assert_int_equal (nn, NV * KB) ;
    }
    assert_memory_equal (I [0], I [1], sizeof (I [0])) ;
    assert_memory_equal (J [0], J [1], sizeof (J [0])) ;
    assert_same (X [0], X [1], NV * KB) ;
    double a = 0, b = 0 ;
    OK (GrB_Matrix_extractElement_FP64 (&a, C [0][1], 5, 2)) ;
    OK (GrB_Matrix_extractElement_FP64 (&b, C [1][1], 5, 2)) ;
    assert_true (a == b) ;
    OK (GrB_Matrix_reduce_FP64 (&a, NULL, GrB_PLUS_MONOID_FP64, C [0][1], NULL)) ;
    OK (GrB_Matrix_reduce_FP64 (&b, NULL, GrB_PLUS_MONOID_FP64, C [1][1], NULL)) ;
    assert_true (a == b) ;
    GrB_Matrix T [2] ;
    for (int d = 0 ; d < 2 ; d++)
    {
        OK (GrB_Matrix_new (&T [d], GrB_FP64, KB, NV)) ;
        OK (GrB_transpose (T [d], NULL, NULL, C [d][0], NULL)) ;
        GrB_Index nn = NV * KB ;
        OK (GrB_Matrix_extractTuples_FP64 (I [d], J [d], X [d], &nn, T [d])) ;
        GrB_Matrix_free (&T [d]) ;
    }
    assert_same (X [0], X [1], NV * KB) ;
    for (int d = 0 ; d < 2 ; d++) for (int k = 0 ; k < 3 ; k++) GrB_Matrix_free (&C [d][k]) ;
    GrB_Matrix_free (&B) ;
}

//------------------------------------------------------------------------------
// dense x dense products (GEMM) on resident operands
//------------------------------------------------------------------------------

// C1 = A*B (kept); G = C1*W reads C1 in place and is kept; H = G*W the
// same; D = C1'*G (C1 and G held in the other layout than the product
// reads: transposed in the backend's memory) and E = W*C1' (C1 read as it
// is) are kept, nothing coming down; G2 = C1*W with an accumulator is
// written on the host (C1 comes down).  Each equals the CPU library's.
static void test_gemm_resident (void **state)
{
    (void) state ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    GrB_Matrix B = full_matrix (NV, KB), W = full_matrix (KB, KB) ;
    GrB_Matrix C1 [2], G [2], H [2], D [2], E [2], G2 [2] ;
    uint64_t kept0 = 0, kept1 = 0, m0 = 0, m1 = 0, m2 = 0 ;
    for (int d = 0 ; d < 2 ; d++)
    {
        if (d == 0) device_on ( ) ; else device_cpu ( ) ;
        OK (GrB_Matrix_new (&C1 [d], GrB_FP64, NV, KB)) ;
        OK (GrB_Matrix_new (&G [d], GrB_FP64, NV, KB)) ;
        OK (GrB_Matrix_new (&H [d], GrB_FP64, NV, KB)) ;
        OK (GrB_Matrix_new (&D [d], GrB_FP64, KB, KB)) ;
        OK (GrB_Matrix_new (&E [d], GrB_FP64, KB, NV)) ;
        OK (GrB_Matrix_dup (&G2 [d], B)) ;
        OK (GrB_mxm (C1 [d], NULL, NULL, sr, A, B, NULL)) ;
        if (d == 0) { kept0 = stats ( ).resident_kept ; m0 = stats ( ).materialised ; }
        OK (GrB_mxm (G [d], NULL, NULL, sr, C1 [d], W, NULL)) ;
        OK (GrB_mxm (H [d], NULL, NULL, sr, G [d], W, NULL)) ;
        if (d == 0) { kept1 = stats ( ).resident_kept ; m1 = stats ( ).materialised ; }
        OK (GrB_mxm (D [d], NULL, NULL, sr, C1 [d], G [d], GrB_DESC_T0)) ;
        OK (GrB_mxm (E [d], NULL, NULL, sr, W, C1 [d], GrB_DESC_T1)) ;
        if (d == 0) m2 = stats ( ).materialised ;
        OK (GrB_mxm (G2 [d], NULL, GrB_PLUS_FP64, sr, C1 [d], W, NULL)) ;
    }
    device_on ( ) ;
    // G and H kept, nothing came down for them
    assert_int_equal (kept1, kept0 + 2) ;
    assert_int_equal (m1, m0) ;
    // D and E: nothing came down
    assert_int_equal (m2, m1) ;
    GrB_Matrix *all [6] = { C1, G, H, D, E, G2 } ;
    for (int k = 0 ; k < 6 ; k++)
    {
        assert_twins (all [k][0], all [k][1], false, 0) ;
        for (int d = 0 ; d < 2 ; d++) GrB_Matrix_free (&all [k][d]) ;
    }
    GrB_Matrix_free (&W) ;
    GrB_Matrix_free (&B) ;
}

//------------------------------------------------------------------------------
// eviction and faults
//------------------------------------------------------------------------------

static void test_eviction (void **state)
{
    (void) state ;
    // room for two vectors of NV doubles: the chain's third result evicts
    char mem [32] ;
    snprintf (mem, sizeof (mem), "%d", (int) (2 * NV * sizeof (double) + 16)) ;
    set ("DEVICE_MEMORY", mem) ;
    grbgpu_stats s0 = stats ( ) ;
    GrB_Vector w [4] ;
    for (int k = 0 ; k < 4 ; k++) w [k] = resident ( ) ;
    grbgpu_stats s1 = stats ( ) ;
    assert_true (s1.resident_evicted > s0.resident_evicted) ;
    for (int k = 3 ; k >= 0 ; k--)
    {
        double x [NV] ;
        values_of (w [k], x) ;
        assert_same (x, ref, NV) ;
        OK (GrB_Vector_free (&w [k])) ;
    }
    set ("DEVICE_MEMORY", "0") ;
}

static void test_faults (void **state)
{
    (void) state ;
    int failed = 0, right = 0 ;
    for (int k = 0 ; k < 40 ; k++)
    {
        GrB_Vector w = resident ( ) ;
        set ("FAULT", "copy:0.7") ;
        GrB_Index n = NV, I [NV] ;
        double X [NV] ;
        GrB_Info info = GrB_Vector_extractTuples_FP64 (I, X, &n, w) ;
        set ("FAULT", "") ;
        if (info == GrB_OUT_OF_MEMORY)
        {
            failed++ ;          // the object is intact: read it again
            double x [NV] ;
            values_of (w, x) ;
            assert_same (x, ref, NV) ;
        }
        else
        {
            OK (info) ;
            assert_int_equal (n, NV) ;
            for (GrB_Index e = 0 ; e < n ; e++) assert_true (X [e] == ref [I [e]]) ;
            right++ ;
        }
        OK (GrB_Vector_free (&w)) ;
    }
    printf ("  faults during materialisation: %d answered, %d GrB_OUT_OF_MEMORY\n", right, failed) ;
    assert_true (failed > 0 && right > 0) ;
    // faults in the products of the chain (device allocations, whose
    // failure falls back to the CPU library): every answer right
    set ("FAULT", "alloc:0.3") ;
    for (int k = 0 ; k < 10 ; k++)
    {
        GrB_Vector w = chain (A, u, true) ;
        set ("FAULT", "") ;
        double x [NV] ;
        values_of (w, x) ;
        assert_same (x, ref, NV) ;
        OK (GrB_Vector_free (&w)) ;
        set ("FAULT", "alloc:0.3") ;
    }
    set ("FAULT", "") ;
}

//------------------------------------------------------------------------------
// storage options, threads, residency off
//------------------------------------------------------------------------------

static void test_options_kept (void **state)
{
    (void) state ;
    GrB_Vector w ;
    OK (GrB_Vector_new (&w, GrB_FP64, NV)) ;
    OK (GxB_Vector_Option_set (w, GxB_SPARSITY_CONTROL, GxB_FULL + GxB_BITMAP)) ;
    OK (GxB_Vector_Option_set (w, GxB_BITMAP_SWITCH, 0.375)) ;
    uint64_t kept = stats ( ).resident_kept ;
    OK (GrB_mxv (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL)) ;
    expect_kept (kept) ;
    int control = 0 ;
    double bswitch = 0 ;
    OK (GxB_Vector_Option_get (w, GxB_SPARSITY_CONTROL, &control)) ;
    OK (GxB_Vector_Option_get (w, GxB_BITMAP_SWITCH, &bswitch)) ;
    assert_int_equal (control, GxB_FULL + GxB_BITMAP) ;
    assert_true (bswitch == 0.375) ;
    OK (GrB_Vector_free (&w)) ;
}

typedef struct { GrB_Vector w ; int first, wrong ; GrB_Info info ; } reader ;

static void *read_all (void *arg)
{
    reader *r = arg ;
    for (int k = 0 ; k < NV ; k++)
    {
        GrB_Index i = (GrB_Index) ((r->first + k) % NV) ;
        double v = 0 ;
        GrB_Info info = GrB_Vector_extractElement_FP64 (&v, r->w, i) ;
        if (info != GrB_SUCCESS) { r->info = info ; break ; }
        if (v != ref [i]) r->wrong++ ;
    }
    return NULL ;
}

// threads read one resident object at once: one of them brings it down,
// every one sees the right values
static void test_threads (void **state)
{
    (void) state ;
    enum { NT = 6 } ;
    for (int round = 0 ; round < 5 ; round++)
    {
        GrB_Vector w = resident ( ) ;
        uint64_t m = stats ( ).materialised ;
        pthread_t th [NT] ;
        reader rd [NT] ;
        for (int t = 0 ; t < NT ; t++)
        {
            rd [t] = (reader) { w, t * 37, 0, GrB_SUCCESS } ;
            assert_int_equal (pthread_create (&th [t], NULL, read_all, &rd [t]), 0) ;
        }
        for (int t = 0 ; t < NT ; t++)
        {
            pthread_join (th [t], NULL) ;
            OK (rd [t].info) ;
            assert_int_equal (rd [t].wrong, 0) ;
        }
        assert_int_equal (stats ( ).materialised, m + 1) ;
        OK (GrB_Vector_free (&w)) ;
    }
}

// fork while a result is held: the child reads it as the CPU library would
// (on the GPU the parent brings it down before the fork: a child cannot
// reach its parent's device memory)
static void test_fork (void **state)
{
    (void) state ;
    if (getenv ("GRBGPU_TEST_UNDER_SANITIZER") != NULL) { skip ( ) ; return ; }
    GrB_Vector w = resident ( ) ;
    uint64_t m = stats ( ).materialised ;
    fflush (stdout) ;
    pid_t pid = fork ( ) ;
    assert_true (pid >= 0) ;
    if (pid == 0)
    {
        double x [NV] ;
        GrB_Index n = NV, I [NV] ;
        int bad = (GrB_Vector_extractTuples_FP64 (I, x, &n, w) != GrB_SUCCESS || n != NV) ;
        for (GrB_Index i = 0 ; !bad && i < NV ; i++) bad = (I [i] != i || x [i] != ref [i]) ;
        _exit (bad) ;
    }
    int status = -1 ;
    assert_int_equal (waitpid (pid, &status, 0), pid) ;
    assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0) ;
    // on the GPU it came down in the parent (the host emulation's buffers
    // are copied with the process)
    if (on_cuda ( )) assert_int_equal (stats ( ).materialised, m + 1) ;
    double x [NV] ;
    values_of (w, x) ;
    assert_same (x, ref, NV) ;
    OK (GrB_Vector_free (&w)) ;
}

static void test_off (void **state)
{
    (void) state ;
    set ("RESIDENT", "0") ;
    uint64_t kept = stats ( ).resident_kept ;
    GrB_Vector w = chain (A, u, true) ;
    assert_int_equal (stats ( ).resident_kept, kept) ;
    double x [NV] ;
    values_of (w, x) ;
    assert_same (x, ref, NV) ;
    OK (GrB_Vector_free (&w)) ;
    set ("RESIDENT", "1") ;
}

int main (void)
{
    int skip = resident_test_start ("test_resident") ;
    if (skip != 0) return skip ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_nvals_stays),
        cmocka_unit_test (test_extract_element),
        cmocka_unit_test (test_reduce),
        cmocka_unit_test (test_apply_ewise_dup),
        cmocka_unit_test (test_serialize_export),
        cmocka_unit_test (test_iterator_fprint_option),
        cmocka_unit_test (test_declined_and_aliased),
        cmocka_unit_test (test_mutation),
        cmocka_unit_test (test_free_while_resident),
        cmocka_unit_test (test_mxm_chain),
        cmocka_unit_test (test_shadow),
        cmocka_unit_test (test_output_dropped),
        cmocka_unit_test (test_rows_again),
        cmocka_unit_test (test_gemm_resident),
        cmocka_unit_test (test_eviction),
        cmocka_unit_test (test_faults),
        cmocka_unit_test (test_options_kept),
        cmocka_unit_test (test_threads),
        cmocka_unit_test (test_fork),
        cmocka_unit_test (test_off),
    } ;
    int rc = cmocka_run_group_tests (tests, setup, teardown) ;
    GrB_finalize ( ) ;
    return rc ;
}
