//------------------------------------------------------------------------------
// tests/test_mutation.c: products stay right while their operands change
//------------------------------------------------------------------------------

// Through the public API only (linked with libgrbgpu): products are offloaded
// to the host emulation backend (GRBGPU_DEVICE=host, MIN_WORK=0), whose
// cache keeps converted operands by object version.  Between products the
// operands are changed in every common way; each product must equal the CPU
// library's answer on the current operands, computed in-process with
// GRBGPU_DEVICE=cpu (every call to the CPU library) on a GrB_Matrix_dup of
// the operands, and by hand.  A cache that served a stale form would give the
// old product.
//
// Also: products on several threads at once (a shared read-only operand and
// private ones that change), and fault injection during real offloads (every
// answer still right; some calls fell back, some were offloaded).
//
// Values are small integers, so every sum is exact in FP64 in any order.

#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <GraphBLAS.h>
#include "grbgpu.h"

#define OK(call) assert_int_equal ((call), GrB_SUCCESS)

enum { M = 48, K = 40, N = 8 } ;      // A is M x K sparse, B is K x N full

static uint64_t rng = 0x5851f42d4c957f2dULL ;
static uint64_t rnd (void)
{
    rng ^= rng << 13 ;
    rng ^= rng >> 7 ;
    rng ^= rng << 17 ;
    return rng ;
}

static GrB_Matrix sparse_matrix (GrB_Index m, GrB_Index k, int nnz)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, m, k)) ;
    for (int e = 0 ; e < nnz ; e++)
    {
        OK (GrB_Matrix_setElement_FP64 (A, (double) (1 + rnd ( ) % 9),
            rnd ( ) % m, rnd ( ) % k)) ;
    }
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

static GrB_Matrix full_matrix (GrB_Index k, GrB_Index n)
{
    GrB_Matrix B ;
    OK (GrB_Matrix_new (&B, GrB_FP64, k, n)) ;
    for (GrB_Index i = 0 ; i < k ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            OK (GrB_Matrix_setElement_FP64 (B, (double) (rnd ( ) % 7) - 3, i, j)) ;
    OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
    return B ;
}

// C and R have the same entries with the same values
static bool same_matrix (GrB_Matrix C, GrB_Matrix R)
{
    GrB_Index cm, cn, rm, rn, cnv, rnv ;
    if (GrB_Matrix_nrows (&cm, C) || GrB_Matrix_ncols (&cn, C)) return false ;
    if (GrB_Matrix_nrows (&rm, R) || GrB_Matrix_ncols (&rn, R)) return false ;
    if (cm != rm || cn != rn) return false ;
    if (GrB_Matrix_nvals (&cnv, C) || GrB_Matrix_nvals (&rnv, R)) return false ;
    if (cnv != rnv) return false ;
    for (GrB_Index i = 0 ; i < cm ; i++)
    {
        for (GrB_Index j = 0 ; j < cn ; j++)
        {
            double x, y ;
            GrB_Info a = GrB_Matrix_extractElement_FP64 (&x, C, i, j) ;
            GrB_Info b = GrB_Matrix_extractElement_FP64 (&y, R, i, j) ;
            if (a != b || (a == GrB_SUCCESS && x != y)) return false ;
        }
    }
    return true ;
}

// C = A*B by hand (PLUS_TIMES; B full: row i of C exists iff row i of A has
// an entry)
static GrB_Matrix product_by_hand (GrB_Matrix A, GrB_Matrix B)
{
    GrB_Index m, k, n, nv ;
    GrB_Matrix_nrows (&m, A) ;
    GrB_Matrix_ncols (&k, A) ;
    GrB_Matrix_ncols (&n, B) ;
    GrB_Matrix_nvals (&nv, A) ;
    GrB_Index *I = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nv + 1) * sizeof (GrB_Index)) ;
    double *X = malloc ((nv + 1) * sizeof (double)) ;
    double *T = calloc (m * n, sizeof (double)) ;
    bool *row = calloc (m, sizeof (bool)) ;
    GrB_Matrix_extractTuples_FP64 (I, J, X, &nv, A) ;
    for (GrB_Index e = 0 ; e < nv ; e++)
    {
        row [I [e]] = true ;
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            double b ;
            if (GrB_Matrix_extractElement_FP64 (&b, B, J [e], j) == GrB_SUCCESS)
                T [I [e] * n + j] += X [e] * b ;
        }
    }
    GrB_Matrix C ;
    GrB_Matrix_new (&C, GrB_FP64, m, n) ;
    for (GrB_Index i = 0 ; i < m ; i++)
        if (row [i])
            for (GrB_Index j = 0 ; j < n ; j++)
                GrB_Matrix_setElement_FP64 (C, T [i * n + j], i, j) ;
    GrB_Matrix_wait (C, GrB_MATERIALIZE) ;
    free (I) ; free (J) ; free (X) ; free (T) ; free (row) ;
    return C ;
}

// C = A*B through grbgpu; returns the decision
static const char *offloaded_product (GrB_Matrix *C, GrB_Matrix A, GrB_Matrix B)
{
    GrB_Index m, n ;
    GrB_Matrix_nrows (&m, A) ;
    GrB_Matrix_ncols (&n, B) ;
    OK (GrB_Matrix_new (C, GrB_FP64, m, n)) ;
    OK (GrB_mxm (*C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    return grbgpu_last_decision ( ) ;
}

// the CPU library's C = A*B, on copies of the operands
static GrB_Matrix cpu_product (GrB_Matrix A, GrB_Matrix B)
{
    GrB_Matrix A2, B2, R ;
    OK (GrB_Matrix_dup (&A2, A)) ;
    OK (GrB_Matrix_dup (&B2, B)) ;
    GrB_Index m, n ;
    GrB_Matrix_nrows (&m, A) ;
    GrB_Matrix_ncols (&n, B) ;
    OK (GrB_Matrix_new (&R, GrB_FP64, m, n)) ;
    assert_int_equal (grbgpu_set ("DEVICE", "cpu"), 0) ;
    OK (GrB_mxm (R, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A2, B2, NULL)) ;
    assert_int_equal (strncmp (grbgpu_last_decision ( ), "declined", 8), 0) ;
    assert_int_equal (grbgpu_set ("DEVICE", "host"), 0) ;
    OK (GrB_Matrix_free (&A2)) ;
    OK (GrB_Matrix_free (&B2)) ;
    return R ;
}

// product through grbgpu == the CPU library's == by hand; offloaded
static void check_product (GrB_Matrix A, GrB_Matrix B, const char *after)
{
    GrB_Matrix C, R, H ;
    const char *d = offloaded_product (&C, A, B) ;
    if (strcmp (d, "host") != 0) fail_msg ("after %s: not offloaded: %s", after, d) ;
    R = cpu_product (A, B) ;
    H = product_by_hand (A, B) ;
    if (!same_matrix (R, H)) fail_msg ("after %s: CPU library != by hand", after) ;
    if (!same_matrix (C, R)) fail_msg ("after %s: offloaded product is wrong", after) ;
    OK (GrB_Matrix_free (&C)) ;
    OK (GrB_Matrix_free (&R)) ;
    OK (GrB_Matrix_free (&H)) ;
}

static int setup (void **state)
{
    (void) state ;
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return -1 ;
    if (grbgpu_set ("DEVICE", "host") != 0) return -1 ;
    if (grbgpu_set ("MIN_WORK", "0") != 0) return -1 ;
    if (grbgpu_set ("FAULT", "off") != 0) return -1 ;
    return 0 ;
}

static int teardown (void **state)
{
    (void) state ;
    GrB_finalize ( ) ;
    return 0 ;
}

//------------------------------------------------------------------------------
// the cache is used, and never stale
//------------------------------------------------------------------------------

static void test_cache_reuse (void **state)
{
    (void) state ;
    GrB_Matrix A = sparse_matrix (M, K, 150), B = full_matrix (K, N) ;
    grbgpu_stats s0, s1, s2 ;
    grbgpu_stats_get (&s0) ;
    check_product (A, B, "start") ;
    grbgpu_stats_get (&s1) ;
    assert_true (s1.cache_misses > s0.cache_misses) ;
    check_product (A, B, "nothing") ;
    grbgpu_stats_get (&s2) ;
    assert_true (s2.cache_hits > s1.cache_hits) ;
    // a change: A's old form is dropped and rebuilt
    OK (GrB_Matrix_setElement_FP64 (A, 5, 0, 0)) ;
    check_product (A, B, "setElement") ;
    grbgpu_stats s3 ;
    grbgpu_stats_get (&s3) ;
    assert_true (s3.cache_invalidations > s2.cache_invalidations) ;
    assert_true (s3.cache_misses > s2.cache_misses) ;
    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Matrix_free (&B)) ;
}

static void test_mutations (void **state)
{
    (void) state ;
    GrB_Matrix A = sparse_matrix (M, K, 200), B = full_matrix (K, N) ;
    GrB_Index I [4] = { 1, 5, 9, 13 } ;
    check_product (A, B, "start") ;

    OK (GrB_Matrix_setElement_FP64 (A, 7, 3, 4)) ;
    check_product (A, B, "setElement (pending)") ;
    OK (GrB_Matrix_removeElement (A, 3, 4)) ;
    check_product (A, B, "removeElement") ;
    OK (GrB_Matrix_assign_FP64 (A, NULL, NULL, 2, I, 4, I, 4, NULL)) ;
    check_product (A, B, "assign") ;
    OK (GxB_Matrix_subassign_FP64 (A, NULL, GrB_PLUS_FP64, 1, I, 2, I, 3, NULL)) ;
    check_product (A, B, "subassign with accum") ;
    OK (GrB_Matrix_apply (A, NULL, NULL, GrB_AINV_FP64, A, NULL)) ;
    check_product (A, B, "apply in place") ;
    OK (GrB_Matrix_apply_BinaryOp2nd_FP64 (A, NULL, NULL, GrB_TIMES_FP64, A, 3, NULL)) ;
    check_product (A, B, "apply BinaryOp2nd") ;
    OK (GrB_Matrix_select_INT64 (A, NULL, NULL, GrB_TRIL, A, 0, NULL)) ;
    check_product (A, B, "select") ;
    GrB_Matrix D = sparse_matrix (M, K, 60) ;
    OK (GrB_Matrix_eWiseAdd_BinaryOp (A, NULL, NULL, GrB_PLUS_FP64, A, D, NULL)) ;
    check_product (A, B, "eWiseAdd") ;
    OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_COL)) ;
    check_product (A, B, "format by column") ;
    OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_BITMAP)) ;
    check_product (A, B, "bitmap") ;
    OK (GxB_Matrix_Option_set (A, GxB_SPARSITY_CONTROL, GxB_AUTO_SPARSITY)) ;
    OK (GxB_Matrix_Option_set (A, GxB_FORMAT, GxB_BY_ROW)) ;
    // unpack and pack back a changed value array (same arrays, new values)
    GrB_Index *Ap, *Aj, Ap_size, Aj_size, Ax_size ;
    void *Ax ;
    bool iso, jumbled ;
    OK (GxB_Matrix_unpack_CSR (A, &Ap, &Aj, &Ax, &Ap_size, &Aj_size, &Ax_size,
        &iso, &jumbled, NULL)) ;
    if (!iso) ((double *) Ax) [0] += 100 ;
    OK (GxB_Matrix_pack_CSR (A, &Ap, &Aj, &Ax, Ap_size, Aj_size, Ax_size,
        iso, jumbled, NULL)) ;
    check_product (A, B, "unpack/pack") ;
    OK (GrB_Matrix_clear (A)) ;
    // (enough rows that A is not hypersparse: grbgpu declines those)
    GrB_Index Bi [2*M], Bj [2*M] ;
    double Bx [2*M] ;
    for (int e = 0 ; e < 2*M ; e++)
    {
        Bi [e] = e % M ; Bj [e] = rnd ( ) % K ; Bx [e] = (double) (e % 5) ;
    }
    OK (GrB_Matrix_build_FP64 (A, Bi, Bj, Bx, 2*M, GrB_PLUS_FP64)) ;
    check_product (A, B, "clear + build") ;
    // A = A*B' style: the product's own output, through the interposed mxm
    GrB_Matrix E = sparse_matrix (M, M, 100) ;
    OK (GrB_mxm (A, NULL, NULL, GxB_PLUS_TIMES_FP64, E, A, NULL)) ;
    check_product (A, B, "A = E*A through grbgpu") ;
    // the dense operand changes too
    OK (GrB_Matrix_setElement_FP64 (B, 9, 1, 1)) ;
    check_product (A, B, "B setElement") ;
    OK (GrB_Matrix_assign_FP64 (B, NULL, NULL, -2, GrB_ALL, K, I, 2, NULL)) ;
    check_product (A, B, "B assign column") ;

    // free A, and a new matrix (very likely at the same address)
    OK (GrB_Matrix_free (&A)) ;
    A = sparse_matrix (M, K, 120) ;
    check_product (A, B, "free + new") ;

    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Matrix_free (&B)) ;
    OK (GrB_Matrix_free (&D)) ;
    OK (GrB_Matrix_free (&E)) ;
}

//------------------------------------------------------------------------------
// several threads
//------------------------------------------------------------------------------

enum { NTHREADS = 4, ROUNDS = 12 } ;
static GrB_Matrix shared_B ;
static atomic_int thread_failures ;
static atomic_int thread_offloads ;

static void *product_worker (void *arg)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL * ((uintptr_t) arg + 1) ;
    GrB_Matrix A ;
    GrB_Matrix_new (&A, GrB_FP64, M, K) ;
    for (int r = 0 ; r < ROUNDS ; r++)
    {
        // change A, then A*B (B shared, read only)
        for (int e = 0 ; e < 20 ; e++)
        {
            seed ^= seed << 13 ; seed ^= seed >> 7 ; seed ^= seed << 17 ;
            GrB_Matrix_setElement_FP64 (A, (double) (1 + seed % 5),
                (seed >> 8) % M, (seed >> 24) % K) ;
        }
        if (r % 3 == 2) GrB_Matrix_removeElement (A, (seed >> 8) % M, (seed >> 24) % K) ;
        GrB_Matrix C ;
        GrB_Matrix_new (&C, GrB_FP64, M, N) ;
        GrB_Info info = GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, shared_B, NULL) ;
        if (strcmp (grbgpu_last_decision ( ), "host") == 0) atomic_fetch_add (&thread_offloads, 1) ;
        GrB_Matrix H = product_by_hand (A, shared_B) ;
        if (info != GrB_SUCCESS || !same_matrix (C, H))
        {
            atomic_fetch_add (&thread_failures, 1) ;
        }
        GrB_Matrix_free (&C) ;
        GrB_Matrix_free (&H) ;
    }
    GrB_Matrix_free (&A) ;
    return NULL ;
}

static void test_threads (void **state)
{
    (void) state ;
    shared_B = full_matrix (K, N) ;
    atomic_store (&thread_failures, 0) ;
    atomic_store (&thread_offloads, 0) ;
    pthread_t tid [NTHREADS] ;
    for (int t = 0 ; t < NTHREADS ; t++)
        pthread_create (&tid [t], NULL, product_worker, (void *) (uintptr_t) t) ;
    for (int t = 0 ; t < NTHREADS ; t++) pthread_join (tid [t], NULL) ;
    assert_int_equal (atomic_load (&thread_failures), 0) ;
    assert_int_equal (atomic_load (&thread_offloads), NTHREADS * ROUNDS) ;
    OK (GrB_Matrix_free (&shared_B)) ;
}

//------------------------------------------------------------------------------
// faults during real offloads
//------------------------------------------------------------------------------

static void test_faults (void **state)
{
    (void) state ;
    setenv ("GRBGPU_FAULT_SEED", "7", 1) ;
    // (results written back: a result kept on the device whose download
    // fails three times answers the read with GrB_OUT_OF_MEMORY, as designed;
    // residency under faults is test_resident's and test_mat_pattern's)
    assert_int_equal (grbgpu_set ("RESIDENT", "0"), 0) ;
    assert_int_equal (grbgpu_set ("FAULT", "alloc:0.2,convert:0.2,launch:0.2,copy:0.2"), 0) ;
    assert_int_equal (grbgpu_set ("FAULT", "alloc:2"), -1) ;     // refused
    grbgpu_stats s0, s1 ;
    grbgpu_stats_get (&s0) ;
    GrB_Matrix A = sparse_matrix (M, K, 150), B = full_matrix (K, N) ;
    int fallbacks = 0, offloads = 0 ;
    for (int r = 0 ; r < 60 ; r++)
    {
        OK (GrB_Matrix_setElement_FP64 (A, (double) (1 + r % 4), rnd ( ) % M, rnd ( ) % K)) ;
        GrB_Matrix C, H ;
        const char *d = offloaded_product (&C, A, B) ;
        if (strncmp (d, "fallback", 8) == 0) fallbacks++ ;
        else if (strcmp (d, "host") == 0) offloads++ ;
        else fail_msg ("unexpected decision: %s", d) ;
        H = product_by_hand (A, B) ;
        if (!same_matrix (C, H)) fail_msg ("round %d (%s): wrong product", r, d) ;
        OK (GrB_Matrix_free (&C)) ;
        OK (GrB_Matrix_free (&H)) ;
    }
    grbgpu_stats_get (&s1) ;
    assert_true (fallbacks > 0) ;
    assert_true (offloads > 0) ;
    assert_int_equal (s1.fallbacks - s0.fallbacks, (uint64_t) fallbacks) ;
    assert_int_equal (grbgpu_set ("FAULT", "off"), 0) ;
    assert_int_equal (grbgpu_set ("RESIDENT", "1"), 0) ;
    unsetenv ("GRBGPU_FAULT_SEED") ;
    check_product (A, B, "faults off again") ;
    OK (GrB_Matrix_free (&A)) ;
    OK (GrB_Matrix_free (&B)) ;
}

int main (void)
{
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_cache_reuse),
        cmocka_unit_test (test_mutations),
        cmocka_unit_test (test_threads),
        cmocka_unit_test (test_faults),
    } ;
    return cmocka_run_group_tests (tests, setup, teardown) ;
}
