//------------------------------------------------------------------------------
// tests/test_decisions.c: the declined-call fast paths keep every decision
//------------------------------------------------------------------------------

// The dispatcher remembers what it found about operands (dimensions, type,
// entries) by (handle, object version), the library's own semirings and
// descriptors by address, and counts declines per thread.  These must never
// change a decision.  Checked here on the host backend (GRBGPU_DEVICE=host,
// MIN_WORK=0), each call's decision read back with grbgpu_last_decision:
//   - an operand changed between calls in each way that changes the
//     decision (an entry removed, so a dense operand turns sparse; resized;
//     cleared; freed and made again with another type) gives the new
//     decision at once, and the product stays right;
//   - a program's semiring freed and made again (often at the same
//     address) with other operators is classified afresh;
//   - a program's descriptor changed between calls is read afresh;
//   - the decline table: reasons in the order first seen, counts exact,
//     from several threads (some of which exit before the table is read),
//     and zero after grbgpu_stats_reset.

#include <pthread.h>
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

#define OK(call) assert_int_equal ((call), GrB_SUCCESS)

static void host (void)
{
    assert_int_equal (grbgpu_set ("DEVICE", "host"), 0) ;
    assert_int_equal (grbgpu_set ("MIN_WORK", "0"), 0) ;
}

// n x n FP64, every entry present (held full), value i + 2j + 1
static GrB_Matrix dense (GrB_Index n)
{
    GrB_Matrix B ;
    OK (GrB_Matrix_new (&B, GrB_FP64, n, n)) ;
    for (GrB_Index i = 0 ; i < n ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            OK (GrB_Matrix_setElement_FP64 (B, (double) (i + 2 * j + 1), i, j)) ;
    OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
    return B ;
}

// n x n FP64 with a random ~30 % of entries
static GrB_Matrix sparse (GrB_Index n, unsigned seed)
{
    GrB_Matrix A ;
    OK (GrB_Matrix_new (&A, GrB_FP64, n, n)) ;
    srand (seed) ;
    for (GrB_Index i = 0 ; i < n ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
            if (rand () % 10 < 3) OK (GrB_Matrix_setElement_FP64 (A, (double) (rand () % 7) - 3, i, j)) ;
    OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    return A ;
}

// C = A*B on the current setting, and the same on the CPU library: equal
// (integers times integers: exact in any order); returns the decision
static const char *product_checked (GrB_Matrix A, GrB_Matrix B, GrB_Semiring s,
    GrB_Descriptor d)
{
    GrB_Index m, n, k1, k2 ;
    OK (GrB_Matrix_nrows (&m, A)) ; OK (GrB_Matrix_ncols (&k1, A)) ;
    OK (GrB_Matrix_nrows (&k2, B)) ; OK (GrB_Matrix_ncols (&n, B)) ;
    GrB_Matrix C, R ;
    OK (GrB_Matrix_new (&C, GrB_FP64, m, n)) ;
    OK (GrB_Matrix_new (&R, GrB_FP64, m, n)) ;
    GrB_Info info = GrB_mxm (C, NULL, NULL, s, A, B, d) ;
    static char decision [128] ;
    snprintf (decision, sizeof (decision), "%s", grbgpu_last_decision ( )) ;
    char mode [16] ;
    assert_int_equal (grbgpu_get ("DEVICE", mode, sizeof (mode)), 0) ;
    assert_int_equal (grbgpu_set ("DEVICE", "cpu"), 0) ;
    GrB_Info rinfo = GrB_mxm (R, NULL, NULL, s, A, B, d) ;
    assert_int_equal (grbgpu_set ("DEVICE", mode), 0) ;
    assert_int_equal (info, rinfo) ;
    if (info == GrB_SUCCESS)
    {
        GrB_Index cn, rn ;
        OK (GrB_Matrix_nvals (&cn, C)) ; OK (GrB_Matrix_nvals (&rn, R)) ;
        assert_int_equal (cn, rn) ;
        for (GrB_Index i = 0 ; i < m ; i++)
            for (GrB_Index j = 0 ; j < n ; j++)
            {
                double c = 0, r = 0 ;
                GrB_Info ci = GrB_Matrix_extractElement_FP64 (&c, C, i, j) ;
                GrB_Info ri = GrB_Matrix_extractElement_FP64 (&r, R, i, j) ;
                assert_int_equal (ci, ri) ;
                if (ci == GrB_SUCCESS && c != r)
                    fail_msg ("C(%llu,%llu) = %g, CPU library %g (%s)", (unsigned long long) i,
                        (unsigned long long) j, c, r, decision) ;
            }
    }
    GrB_free (&C) ; GrB_free (&R) ;
    return decision ;
}

//------------------------------------------------------------------------------
// operands changed between calls
//------------------------------------------------------------------------------

static void test_operand_changes (void **state)
{
    (void) state ;
    host ( ) ;
    const GrB_Index n = 24 ;
    GrB_Matrix A = sparse (n, 1), B = dense (n) ;
    GrB_Semiring s = GrB_PLUS_TIMES_SEMIRING_FP64 ;
    for (int rep = 0 ; rep < 3 ; rep++)
        assert_string_equal (product_checked (A, B, s, NULL), "host") ;

    // an entry removed: B is no longer dense (sparse x sparse is declined)
    OK (GrB_Matrix_removeElement (B, 3, 5)) ;
    assert_string_equal (product_checked (A, B, s, NULL), "declined: sparse x sparse") ;
    // put back: dense again
    OK (GrB_Matrix_setElement_FP64 (B, 1.0, 3, 5)) ;
    OK (GrB_Matrix_wait (B, GrB_MATERIALIZE)) ;
    assert_string_equal (product_checked (A, B, s, NULL), "host") ;

    // A resized: the inner dimensions no longer match (the CPU library's
    // GrB_DIMENSION_MISMATCH), then back to fit
    OK (GrB_Matrix_resize (A, n, n + 1)) ;
    const char *d = product_checked (A, B, s, NULL) ;
    assert_true (strncmp (d, "declined", 8) == 0) ;
    OK (GrB_Matrix_resize (A, n, n)) ;
    assert_string_equal (product_checked (A, B, s, NULL), "host") ;

    // B cleared: no entries at all
    OK (GrB_Matrix_clear (B)) ;
    d = product_checked (A, B, s, NULL) ;
    assert_true (strncmp (d, "declined", 8) == 0) ;

    // B freed and made again (malloc often gives the same address) with
    // another type and size: the dimension check must see the new object
    GrB_free (&B) ;
    GrB_Matrix B2 ;
    OK (GrB_Matrix_new (&B2, GrB_INT32, n + 2, n)) ;
    for (GrB_Index i = 0 ; i < n + 2 ; i++)
        for (GrB_Index j = 0 ; j < n ; j++) OK (GrB_Matrix_setElement_INT32 (B2, 1, i, j)) ;
    OK (GrB_Matrix_wait (B2, GrB_MATERIALIZE)) ;
    d = product_checked (A, B2, s, NULL) ;
    assert_true (strncmp (d, "declined", 8) == 0) ;             // n x n times (n+2) x n
    GrB_free (&B2) ;
    B = dense (n) ;
    assert_string_equal (product_checked (A, B, s, NULL), "host") ;
    GrB_free (&A) ; GrB_free (&B) ;
}

//------------------------------------------------------------------------------
// a program's semiring and descriptor changed between calls
//------------------------------------------------------------------------------

static void test_program_semiring_and_descriptor (void **state)
{
    (void) state ;
    host ( ) ;
    const GrB_Index n = 16 ;
    GrB_Matrix A = sparse (n, 2), B = dense (n) ;
    for (int rep = 0 ; rep < 4 ; rep++)
    {
        // supported (PLUS_TIMES), then one grbgpu declines (a user-defined
        // operator), each made after the other was freed
        GrB_Semiring s ;
        OK (GrB_Semiring_new (&s, GrB_PLUS_MONOID_FP64, GrB_TIMES_FP64)) ;
        assert_string_equal (product_checked (A, B, s, NULL), "host") ;
        GrB_free (&s) ;
        OK (GrB_Semiring_new (&s, GrB_MIN_MONOID_FP64, GrB_PLUS_FP64)) ;
        assert_string_equal (product_checked (A, B, s, NULL), "host") ;
        GrB_free (&s) ;
    }

    // a descriptor of the program's, changed between calls: A transposed
    GrB_Descriptor d ;
    OK (GrB_Descriptor_new (&d)) ;
    assert_string_equal (product_checked (A, B, GrB_PLUS_TIMES_SEMIRING_FP64, d), "host") ;
    OK (GrB_Descriptor_set (d, GrB_INP0, GrB_TRAN)) ;
    assert_string_equal (product_checked (A, B, GrB_PLUS_TIMES_SEMIRING_FP64, d), "host") ;
    OK (GrB_Descriptor_set (d, GrB_INP0, GxB_DEFAULT)) ;
    OK (GrB_Descriptor_set (d, GrB_INP1, GrB_TRAN)) ;
    assert_string_equal (product_checked (A, B, GrB_PLUS_TIMES_SEMIRING_FP64, d), "host") ;
    GrB_free (&d) ;
    GrB_free (&A) ; GrB_free (&B) ;
}

//------------------------------------------------------------------------------
// the decline table
//------------------------------------------------------------------------------

#define NTHREADS 6
#define PER_THREAD 250

// sparse x sparse products (declined), and with an odd index also products
// whose inner dimensions differ (declined for another reason)
static void *decliner (void *arg)
{
    int id = (int) (intptr_t) arg ;
    GrB_Matrix A, B, C, W ;
    if (GrB_Matrix_new (&A, GrB_FP64, 8, 8) != GrB_SUCCESS) return (void *) 1 ;
    GrB_Matrix_new (&B, GrB_FP64, 8, 8) ;
    GrB_Matrix_new (&W, GrB_FP64, 9, 8) ;
    GrB_Matrix_new (&C, GrB_FP64, 8, 8) ;
    GrB_Matrix_setElement_FP64 (A, 1, 0, 0) ;
    GrB_Matrix_setElement_FP64 (B, 2, 0, 1) ;
    intptr_t bad = 0 ;
    for (int k = 0 ; k < PER_THREAD ; k++)
    {
        if (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) != GrB_SUCCESS) bad++ ;
        if (strcmp (grbgpu_last_decision ( ), "declined: sparse x sparse") != 0) bad++ ;
        if (id % 2 == 1)
        {
            (void) GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, W, NULL) ;
            if (strncmp (grbgpu_last_decision ( ), "declined", 8) != 0) bad++ ;
        }
    }
    GrB_free (&A) ; GrB_free (&B) ; GrB_free (&W) ; GrB_free (&C) ;
    return (void *) bad ;
}

static uint64_t count_of (const char *reason)
{
    const char *reasons [64] ;
    uint64_t counts [64] ;
    int n = grbgpu_stats_declines (reasons, counts, 64) ;
    for (int k = 0 ; k < n && k < 64 ; k++) if (!strcmp (reasons [k], reason)) return counts [k] ;
    return 0 ;
}

static void test_decline_table (void **state)
{
    (void) state ;
    host ( ) ;
    grbgpu_stats_reset ( ) ;
    grbgpu_stats st ;
    grbgpu_stats_get (&st) ;
    assert_int_equal (st.declined, 0) ;
    assert_int_equal (count_of ("sparse x sparse"), 0) ;

    // the first reason seen in this test comes first among non-zero ones
    GrB_Matrix A, B, C ;
    OK (GrB_Matrix_new (&A, GrB_FP64, 4, 4)) ; OK (GrB_Matrix_new (&B, GrB_FP64, 4, 4)) ;
    OK (GrB_Matrix_new (&C, GrB_FP64, 4, 4)) ;
    OK (GrB_Matrix_setElement_FP64 (A, 1, 0, 0)) ; OK (GrB_Matrix_setElement_FP64 (B, 1, 0, 0)) ;
    OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    assert_int_equal (count_of ("sparse x sparse"), 1) ;

    // threads, each exiting before the table is read
    pthread_t th [NTHREADS] ;
    for (int t = 0 ; t < NTHREADS ; t++)
        assert_int_equal (pthread_create (&th [t], NULL, decliner, (void *) (intptr_t) t), 0) ;
    for (int t = 0 ; t < NTHREADS ; t++)
    {
        void *bad ;
        assert_int_equal (pthread_join (th [t], &bad), 0) ;
        assert_int_equal ((intptr_t) bad, 0) ;
    }
    const uint64_t odd = NTHREADS / 2 ;
    assert_int_equal (count_of ("sparse x sparse"), 1 + (uint64_t) NTHREADS * PER_THREAD) ;
    grbgpu_stats_get (&st) ;
    assert_int_equal (st.declined, 1 + (uint64_t) NTHREADS * PER_THREAD + odd * PER_THREAD) ;
    assert_true (st.intercepted >= st.declined) ;

    // the table lists every reason once, counts summing to the declines
    const char *reasons [64] ;
    uint64_t counts [64], sum = 0 ;
    int nr = grbgpu_stats_declines (reasons, counts, 64) ;
    assert_true (nr >= 2 && nr <= 64) ;
    for (int k = 0 ; k < nr ; k++)
    {
        sum += counts [k] ;
        for (int j = 0 ; j < k ; j++) assert_string_not_equal (reasons [j], reasons [k]) ;
    }
    assert_int_equal (sum, st.declined) ;

    // reset: everything zero, and counting starts again from there
    grbgpu_stats_reset ( ) ;
    grbgpu_stats_get (&st) ;
    assert_int_equal (st.declined, 0) ;
    assert_int_equal (st.intercepted, 0) ;
    assert_int_equal (count_of ("sparse x sparse"), 0) ;
    OK (GrB_mxm (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    assert_int_equal (count_of ("sparse x sparse"), 1) ;
    grbgpu_stats_get (&st) ;
    assert_int_equal (st.declined, 1) ;
    GrB_free (&A) ; GrB_free (&B) ; GrB_free (&C) ;
}

//------------------------------------------------------------------------------
// settings of this session
//------------------------------------------------------------------------------

// grbgpu_get (name) reads back want
static void setting_is (const char *name, const char *want)
{
    char buf [16] ;
    assert_int_equal (grbgpu_get (name, buf, sizeof (buf)), 0) ;
    assert_string_equal (buf, want) ;
}

static void test_tune_setting (void **state)
{
    (void) state ;
    setting_is ("TUNE", "1") ;                          // on by default
    assert_int_equal (grbgpu_set ("TUNE", "0"), 0) ;
    setting_is ("GRBGPU_TUNE", "0") ;
    assert_int_equal (grbgpu_set ("TUNE", "maybe"), -1) ;   // unchanged
    setting_is ("TUNE", "0") ;
    assert_int_equal (grbgpu_set ("TUNE", "on"), 0) ;
    setting_is ("TUNE", "1") ;
}

// GRBGPU_REORDER: auto (the default), 1, 0; words as for a boolean
static void test_reorder_setting (void **state)
{
    (void) state ;
    setting_is ("REORDER", "auto") ;
    assert_int_equal (grbgpu_set ("REORDER", "on"), 0) ;
    setting_is ("GRBGPU_REORDER", "1") ;
    assert_int_equal (grbgpu_set ("REORDER", "sometimes"), -1) ;   // unchanged
    setting_is ("REORDER", "1") ;
    assert_int_equal (grbgpu_set ("REORDER", "0"), 0) ;
    setting_is ("REORDER", "0") ;
    assert_int_equal (grbgpu_set ("REORDER", "AUTO"), 0) ;
    setting_is ("REORDER", "auto") ;
}

int main (void)
{
    if (getenv ("GRBGPU_TUNE") != NULL) unsetenv ("GRBGPU_TUNE") ;
    if (getenv ("GRBGPU_REORDER") != NULL) unsetenv ("GRBGPU_REORDER") ;
    OK (GrB_init (GrB_NONBLOCKING)) ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_tune_setting),
        cmocka_unit_test (test_reorder_setting),
        cmocka_unit_test (test_operand_changes),
        cmocka_unit_test (test_program_semiring_and_descriptor),
        cmocka_unit_test (test_decline_table),
    } ;
    int failed = cmocka_run_group_tests (tests, NULL, NULL) ;
    GrB_finalize ( ) ;
    return failed ;
}
