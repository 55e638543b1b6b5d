//------------------------------------------------------------------------------
// tests/test_reorder.c: row reorderings (reorder/) and their window statistics
//------------------------------------------------------------------------------

// Checked, on inputs drawn fresh each run (seed: GRBGPU_TEST_SEED, else the
// time; printed):
//  - both orders (RSH-style and first-column) are bijections whose inverse
//    is right, with the empty rows last in their original order: random,
//    all-empty, half-empty, single-row, 0-row and duplicate-row matrices;
//    identical rows come out as one run per distinct row;
//  - RSH is deterministic: same answer twice, and with 1 and 2 threads;
//  - a row-shuffled block-structured matrix (the rows of a block share its
//    columns) gets its tensor-core share (T = 3, 8-row windows) back: at
//    least 2x the shuffled one's (and 0.3 above it) and 75 % of the
//    unshuffled one's (RSH; 82-89 % over 12 seeds when written), at least 2x
//    the shuffled one's and 0.15 above it (baseline; ~0.33 vs ~0.001);
//  - the other linearisation (GG_REORDER_CHAINS): bijection, block
//    structure recovered, a bad option refused;
//  - a tiny time budget still returns a valid permutation (and says so),
//    and so do budgets that run out in the later stages;
//  - gg_reorder_window_stats equals a brute-force count (window 1, 3, 8, 64,
//    identity and random permutations), and a hand-made case;
//  - the real matrices of $GRBGPU_TEST_DATA (skipped when absent; files over
//    1 MB compressed skipped to keep the test short): bijection, empty rows
//    last, determinism across thread counts, statistics conserve entries.

#include "reorder/reorder.h"
#include "reorder/reorder_util.h"

#include <dirent.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>
#include <time.h>
#include <cmocka.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static uint64_t seed0 ;

static void set_threads (int nt)
{
#ifdef _OPENMP
    omp_set_num_threads (nt) ;
#else
    (void) nt ;
#endif
}

//------------------------------------------------------------------------------
// helpers
//------------------------------------------------------------------------------

// m x k, each row of 0..maxlen random columns (a share `empty` of rows empty)
static ru_csr random_csr (int64_t m, int64_t k, int maxlen, double empty,
    uint64_t *s)
{
    int64_t cap = m * maxlen + 1, n = 0 ;
    int32_t *row = malloc ((size_t) cap * sizeof (int32_t)) ;
    int32_t *col = malloc ((size_t) cap * sizeof (int32_t)) ;
    assert_non_null (row) ; assert_non_null (col) ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        if ((double) (ru_next (s) >> 11) * (1.0 / 9007199254740992.0) < empty) continue ;
        const int len = 1 + (int) ru_below (s, maxlen) ;
        for (int x = 0 ; x < len ; x++)
        {
            row [n] = (int32_t) r ; col [n] = (int32_t) ru_below (s, k) ; n++ ;
        }
    }
    ru_csr A = { 0 } ;
    assert_true (ru_from_pairs (&A, m, k, row, col, n)) ;
    free (row) ; free (col) ;
    return A ;
}

// perm is a bijection, iperm its inverse, empty rows last in row order
static void check_perm (const ru_csr *A, const int32_t *perm, const int32_t *iperm)
{
    const int64_t m = A->m ;
    uint8_t *seen = calloc ((size_t) (m + 1), 1) ;
    assert_non_null (seen) ;
    int64_t ne = 0 ;
    for (int64_t r = 0 ; r < m ; r++) ne += (A->p [r+1] > A->p [r]) ;
    int32_t last_empty = -1 ;
    for (int64_t t = 0 ; t < m ; t++)
    {
        const int32_t r = perm [t] ;
        assert_true (r >= 0 && r < m) ;
        assert_false (seen [r]) ;
        seen [r] = 1 ;
        assert_int_equal (iperm [r], t) ;
        const bool empty = (A->p [r+1] == A->p [r]) ;
        assert_int_equal (empty, t >= ne) ;
        if (empty) { assert_true (r > last_empty) ; last_empty = r ; }
    }
    free (seen) ;
}

// both orders of A, checked; RSH's order returned in perm (m entries)
static void both_orders (const ru_csr *A, const gg_reorder_options *opt,
    int32_t *perm)
{
    const int64_t m = A->m ;
    int32_t *pr = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    int32_t *ip = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    assert_non_null (pr) ; assert_non_null (ip) ;
    gg_reorder_info info ;
    assert_int_equal (gg_reorder_rsh (A->p, A->i, m, A->k, opt, pr, ip, &info), GG_OK) ;
    check_perm (A, pr, ip) ;
    assert_false (info.budget_hit) ;
    if (perm != NULL) memcpy (perm, pr, (size_t) m * sizeof (int32_t)) ;
    assert_int_equal (gg_reorder_first_column (A->p, A->i, m, A->k, pr, ip), GG_OK) ;
    check_perm (A, pr, ip) ;
    free (pr) ; free (ip) ;
}

static double tc_share3 (const ru_csr *A, const int32_t *perm)
{
    gg_reorder_stats st ;
    assert_int_equal (gg_reorder_window_stats (A->p, A->i, A->m, A->k, perm, 8, &st), GG_OK) ;
    assert_int_equal (st.nnz, A->p [A->m]) ;
    return st.tc_share [3] ;
}

//------------------------------------------------------------------------------
// bijections
//------------------------------------------------------------------------------

static void test_bijection_random (void **state)
{
    (void) state ;
    uint64_t s = seed0 ^ 1 ;
    const int64_t shapes [][3] = { { 1000, 300, 20 }, { 3000, 50, 4 },
        { 517, 10000, 60 }, { 64, 8, 8 } } ;
    for (int x = 0 ; x < 4 ; x++)
    {
        ru_csr A = random_csr (shapes [x][0], shapes [x][1], (int) shapes [x][2], 0.1, &s) ;
        both_orders (&A, NULL, NULL) ;
        ru_free (&A) ;
    }
}

static void test_bijection_edge (void **state)
{
    (void) state ;
    uint64_t s = seed0 ^ 2 ;
    // all rows empty; half empty; one row; one empty row; 0 rows; 0 columns
    const int64_t shapes [][2] = { { 50, 40 }, { 333, 100 }, { 1, 30 }, { 1, 30 },
        { 0, 10 }, { 7, 0 } } ;
    const double empty [] = { 1.0, 0.5, 0.0, 1.0, 0.0, 1.0 } ;
    for (int x = 0 ; x < 6 ; x++)
    {
        ru_csr A = shapes [x][1] > 0
            ? random_csr (shapes [x][0], shapes [x][1], 5, empty [x], &s)
            : random_csr (shapes [x][0], 1, 1, 1.0, &s) ;
        both_orders (&A, NULL, NULL) ;
        ru_free (&A) ;
    }
}

// 7 distinct rows on disjoint columns, each repeated 10-60 times in random
// row order (and some empty rows): each distinct row comes out as one run
static void test_duplicate_rows (void **state)
{
    (void) state ;
    uint64_t s = seed0 ^ 3 ;
    const int np = 7 ;
    int64_t m = 0 ;
    int32_t copies [7] ;
    for (int q = 0 ; q < np ; q++) { copies [q] = 10 + (int32_t) ru_below (&s, 51) ; m += copies [q] ; }
    m += 13 ;   // empty rows
    int32_t *pat = malloc ((size_t) m * sizeof (int32_t)) ;
    int32_t *sh = malloc ((size_t) m * sizeof (int32_t)) ;
    int32_t *row = malloc ((size_t) m * 8 * sizeof (int32_t)) ;
    int32_t *col = malloc ((size_t) m * 8 * sizeof (int32_t)) ;
    int32_t *perm = malloc ((size_t) m * sizeof (int32_t)) ;
    assert_non_null (pat) ; assert_non_null (sh) ; assert_non_null (row) ;
    assert_non_null (col) ; assert_non_null (perm) ;
    // pattern q (len 1 + q % 8) on columns 8q .. 8q + len - 1; -1: empty
    int64_t t = 0 ;
    for (int q = 0 ; q < np ; q++) for (int c = 0 ; c < copies [q] ; c++) pat [t++] = q ;
    while (t < m) pat [t++] = -1 ;
    ru_shuffle (sh, m, seed0 ^ 4) ;
    int64_t n = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        const int q = pat [sh [r]] ;
        for (int c = 0 ; q >= 0 && c < 1 + q % 8 ; c++) { row [n] = (int32_t) r ; col [n] = 8 * q + c ; n++ ; }
    }
    ru_csr A = { 0 } ;
    assert_true (ru_from_pairs (&A, m, 8 * np, row, col, n)) ;
    both_orders (&A, NULL, perm) ;
    // runs of equal rows in RSH's order: exactly np among non-empty rows
    int runs = 0 ;
    for (int64_t x = 0 ; x < m ; x++)
    {
        const int q = pat [sh [perm [x]]] ;
        if (q >= 0 && (x == 0 || pat [sh [perm [x-1]]] != q)) runs++ ;
    }
    assert_int_equal (runs, np) ;
    ru_free (&A) ;
    free (pat) ; free (sh) ; free (row) ; free (col) ; free (perm) ;
}

//------------------------------------------------------------------------------
// determinism
//------------------------------------------------------------------------------

static void same_answer (const ru_csr *A)
{
    const int64_t m = A->m ;
    int32_t *a = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    int32_t *b = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    assert_non_null (a) ; assert_non_null (b) ;
    gg_reorder_options opt ;
    gg_reorder_options_default (&opt) ;
    opt.seed = seed0 ;
    set_threads (2) ;
    assert_int_equal (gg_reorder_rsh (A->p, A->i, m, A->k, &opt, a, NULL, NULL), GG_OK) ;
    assert_int_equal (gg_reorder_rsh (A->p, A->i, m, A->k, &opt, b, NULL, NULL), GG_OK) ;
    assert_memory_equal (a, b, (size_t) m * sizeof (int32_t)) ;
    set_threads (1) ;
    assert_int_equal (gg_reorder_rsh (A->p, A->i, m, A->k, &opt, b, NULL, NULL), GG_OK) ;
    assert_memory_equal (a, b, (size_t) m * sizeof (int32_t)) ;
    set_threads (2) ;
    free (a) ; free (b) ;
}

// both linearisations keep identical rows together and are bijections
static void test_chains (void **state)
{
    (void) state ;
    gg_reorder_options opt ;
    gg_reorder_options_default (&opt) ;
    opt.linear = GG_REORDER_CHAINS ;
    uint64_t s = seed0 ^ 12 ;
    ru_csr A = random_csr (1500, 400, 16, 0.1, &s) ;
    both_orders (&A, &opt, NULL) ;
    ru_free (&A) ;
    ru_csr B = { 0 }, S = { 0 } ;
    assert_true (ru_blocks (&B, 48, 16, 24, 0.5, 1, seed0 ^ 13)) ;
    int32_t *sh = malloc ((size_t) B.m * sizeof (int32_t)) ;
    int32_t *perm = malloc ((size_t) B.m * sizeof (int32_t)) ;
    assert_non_null (sh) ; assert_non_null (perm) ;
    ru_shuffle (sh, B.m, seed0 ^ 14) ;
    assert_true (ru_permute_rows (&S, &B, sh)) ;
    both_orders (&S, &opt, perm) ;
    const double unshuffled = tc_share3 (&B, NULL), rsh = tc_share3 (&S, perm) ;
    printf ("blocks, chains: TC share (T=3) unshuffled %.3f rsh %.3f\n", unshuffled, rsh) ;
    assert_true (rsh >= 0.75 * unshuffled) ;
    opt.linear = 2 ;
    assert_int_equal (gg_reorder_rsh (S.p, S.i, S.m, S.k, &opt, perm, NULL, NULL),
        GG_ERR_UNSUPPORTED) ;
    ru_free (&B) ; ru_free (&S) ;
    free (sh) ; free (perm) ;
}

static void test_determinism (void **state)
{
    (void) state ;
    uint64_t s = seed0 ^ 5 ;
    ru_csr A = random_csr (5000, 2000, 30, 0.05, &s) ;
    same_answer (&A) ;
    ru_free (&A) ;
    assert_true (ru_rmat (&A, 12, seed0 ^ 6)) ;
    same_answer (&A) ;
    ru_free (&A) ;
}

//------------------------------------------------------------------------------
// a shuffled block structure comes back
//------------------------------------------------------------------------------

static void test_blocks_recovered (void **state)
{
    (void) state ;
    // 96 blocks of 16 rows on 24 columns each, half full, one noise column
    ru_csr A = { 0 }, S = { 0 } ;
    assert_true (ru_blocks (&A, 96, 16, 24, 0.5, 1, seed0 ^ 7)) ;
    const int64_t m = A.m ;
    int32_t *sh = malloc ((size_t) m * sizeof (int32_t)) ;
    int32_t *perm = malloc ((size_t) m * sizeof (int32_t)) ;
    assert_non_null (sh) ; assert_non_null (perm) ;
    ru_shuffle (sh, m, seed0 ^ 8) ;
    assert_true (ru_permute_rows (&S, &A, sh)) ;
    const double unshuffled = tc_share3 (&A, NULL) ;
    const double shuffled = tc_share3 (&S, NULL) ;
    both_orders (&S, NULL, perm) ;
    const double rsh = tc_share3 (&S, perm) ;
    assert_int_equal (gg_reorder_first_column (S.p, S.i, m, S.k, perm, NULL), GG_OK) ;
    const double base = tc_share3 (&S, perm) ;
    printf ("blocks: TC share (T=3) unshuffled %.3f shuffled %.3f rsh %.3f "
        "first-column %.3f\n", unshuffled, shuffled, rsh, base) ;
    assert_true (unshuffled > 0.5) ;
    assert_true (rsh >= 2 * shuffled && rsh >= shuffled + 0.3) ;
    assert_true (rsh >= 0.75 * unshuffled) ;
    assert_true (base >= 2 * shuffled && base >= shuffled + 0.15) ;
    ru_free (&A) ; ru_free (&S) ;
    free (sh) ; free (perm) ;
}

//------------------------------------------------------------------------------
// the time budget
//------------------------------------------------------------------------------

static void test_budget (void **state)
{
    (void) state ;
    ru_csr A = { 0 } ;
    assert_true (ru_rmat (&A, 14, seed0 ^ 9)) ;
    const int64_t m = A.m ;
    int32_t *pr = malloc ((size_t) m * sizeof (int32_t)) ;
    int32_t *ip = malloc ((size_t) m * sizeof (int32_t)) ;
    assert_non_null (pr) ; assert_non_null (ip) ;
    gg_reorder_options opt ;
    gg_reorder_options_default (&opt) ;
    opt.budget_s = 1e-9 ;
    gg_reorder_info info ;
    assert_int_equal (gg_reorder_rsh (A.p, A.i, m, A.k, &opt, pr, ip, &info), GG_OK) ;
    check_perm (&A, pr, ip) ;
    assert_true (info.budget_hit) ;
    assert_true (info.fallback) ;
    // the fallback is the first-column order
    int32_t *pb = malloc ((size_t) m * sizeof (int32_t)) ;
    assert_non_null (pb) ;
    assert_int_equal (gg_reorder_first_column (A.p, A.i, m, A.k, pb, NULL), GG_OK) ;
    assert_memory_equal (pr, pb, (size_t) m * sizeof (int32_t)) ;
    // budgets that run out in later stages (kNN, refinement): still a
    // valid permutation
    const double budgets [] = { 1e-4, 1e-3, 3e-3, 1e-2, 3e-2 } ;
    for (int x = 0 ; x < 5 ; x++)
    {
        opt.budget_s = budgets [x] ;
        assert_int_equal (gg_reorder_rsh (A.p, A.i, m, A.k, &opt, pr, ip, &info), GG_OK) ;
        check_perm (&A, pr, ip) ;
        assert_true (info.fallback <= info.budget_hit) ;
    }
    // a generous budget is not hit
    opt.budget_s = 1000 ;
    assert_int_equal (gg_reorder_rsh (A.p, A.i, m, A.k, &opt, pr, ip, &info), GG_OK) ;
    check_perm (&A, pr, ip) ;
    assert_false (info.budget_hit) ;
    assert_false (info.fallback) ;
    assert_true (info.tree_edges > 0) ;
    ru_free (&A) ;
    free (pr) ; free (ip) ; free (pb) ;
}

//------------------------------------------------------------------------------
// window statistics
//------------------------------------------------------------------------------

// brute force: a dense count per window
static void check_stats (const ru_csr *A, const int32_t *perm, int W)
{
    gg_reorder_stats st ;
    assert_int_equal (gg_reorder_window_stats (A->p, A->i, A->m, A->k, perm, W, &st), GG_OK) ;
    int32_t *cnt = calloc ((size_t) (A->k + 1), sizeof (int32_t)) ;
    assert_non_null (cnt) ;
    int64_t ent [GG_REORDER_MAX_WINDOW + 1] = { 0 } ;
    int64_t distinct = 0, nonempty = 0 ;
    for (int64_t w0 = 0 ; w0 < A->m ; w0 += W)
    {
        const int64_t w1 = (w0 + W < A->m) ? w0 + W : A->m ;
        bool any = false ;
        for (int pass = 0 ; pass < 3 ; pass++)
        {
            for (int64_t t = w0 ; t < w1 ; t++)
            {
                const int32_t r = perm ? perm [t] : (int32_t) t ;
                for (int64_t e = A->p [r] ; e < A->p [r+1] ; e++)
                {
                    const int32_t c = A->i [e] ;
                    any = true ;
                    if (pass == 0) cnt [c]++ ;
                    else if (pass == 1 && cnt [c] > 0)
                    {
                        distinct++ ; ent [cnt [c]] += cnt [c] ; cnt [c] = -cnt [c] ;
                    }
                    else if (pass == 2) cnt [c] = 0 ;
                }
            }
        }
        nonempty += any ;
    }
    const int64_t nnz = A->p [A->m] ;
    assert_int_equal (st.nnz, nnz) ;
    assert_int_equal (st.windows, (A->m + W - 1) / W) ;
    assert_int_equal (st.nonempty_windows, nonempty) ;
    assert_true (fabs (st.avg_distinct - (nonempty ? (double) distinct / nonempty : 0)) < 1e-12) ;
    int64_t at_least = 0 ;
    for (int T = W ; T >= 1 ; T--)
    {
        at_least += ent [T] ;
        assert_true (fabs (st.tc_share [T] - (nnz ? (double) at_least / nnz : 0)) < 1e-12) ;
    }
    assert_int_equal (at_least, nnz) ;
    free (cnt) ;
}

static void test_window_stats (void **state)
{
    (void) state ;
    // hand-made: 10 rows; window 0 has column 3 in all 8 rows and column 5
    // in rows 0 and 1; window 1 (rows 8, 9) holds column 7 in row 9 only
    int32_t p [11], i [32] ;
    int64_t n = 0 ;
    p [0] = 0 ;
    for (int r = 0 ; r < 10 ; r++)
    {
        if (r < 8) i [n++] = 3 ;
        if (r < 2) i [n++] = 5 ;
        if (r == 9) i [n++] = 7 ;
        p [r+1] = (int32_t) n ;
    }
    gg_reorder_stats st ;
    assert_int_equal (gg_reorder_window_stats (p, i, 10, 8, NULL, 8, &st), GG_OK) ;
    assert_int_equal (st.nnz, 11) ;
    assert_int_equal (st.windows, 2) ;
    assert_int_equal (st.nonempty_windows, 2) ;
    assert_true (fabs (st.avg_distinct - 1.5) < 1e-12) ;        // (2 + 1) / 2
    assert_true (fabs (st.tc_share [3] - 8.0 / 11) < 1e-12) ;
    assert_true (fabs (st.tc_share [2] - 10.0 / 11) < 1e-12) ;
    assert_true (fabs (st.tc_share [1] - 1.0) < 1e-12) ;
    assert_int_equal (gg_reorder_window_stats (p, i, 10, 8, NULL, 0, &st), GG_ERR_UNSUPPORTED) ;

    // random, against the brute force
    uint64_t s = seed0 ^ 10 ;
    ru_csr A = random_csr (2000, 64, 12, 0.2, &s) ;
    int32_t *sh = malloc ((size_t) A.m * sizeof (int32_t)) ;
    assert_non_null (sh) ;
    ru_shuffle (sh, A.m, seed0 ^ 11) ;
    const int Ws [] = { 1, 3, 8, 64 } ;
    for (int x = 0 ; x < 4 ; x++)
    {
        check_stats (&A, NULL, Ws [x]) ;
        check_stats (&A, sh, Ws [x]) ;
    }
    ru_free (&A) ;
    free (sh) ;
}

//------------------------------------------------------------------------------
// real matrices
//------------------------------------------------------------------------------

static void test_real_matrices (void **state)
{
    (void) state ;
    const char *dir = getenv ("GRBGPU_TEST_DATA") ;
    DIR *d = (dir != NULL) ? opendir (dir) : NULL ;
    if (d == NULL)
    {
        printf ("real-matrix cases skipped: GRBGPU_TEST_DATA (%s) is not a folder\n",
            dir ? dir : "unset") ;
        skip () ;
    }
    int done = 0 ;
    struct dirent *e ;
    while ((e = readdir (d)) != NULL)
    {
        const size_t len = strlen (e->d_name) ;
        if (len <= 7 || strcmp (e->d_name + len - 7, ".mtx.gz") != 0) continue ;
        char path [4096] ;
        const int pl = snprintf (path, sizeof (path), "%s/%s", dir, e->d_name) ;
        if (pl < 0 || pl >= (int) sizeof (path)) continue ;
        struct stat sb ;
        if (stat (path, &sb) != 0 || sb.st_size > 1000000) continue ;
        ru_csr A = { 0 } ;
        if (!ru_read_mtx_gz (&A, path)) fail_msg ("cannot read %s", path) ;
        both_orders (&A, NULL, NULL) ;
        same_answer (&A) ;
        (void) tc_share3 (&A, NULL) ;
        ru_free (&A) ;
        done++ ;
    }
    closedir (d) ;
    printf ("real matrices: %d checked\n", done) ;
    if (done == 0)
    {
        printf ("real-matrix cases skipped: no *.mtx.gz of <= 1 MB in %s\n", dir) ;
        skip () ;
    }
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (void)
{
    const char *env = getenv ("GRBGPU_TEST_SEED") ;
    seed0 = (env != NULL) ? strtoull (env, NULL, 10) : (uint64_t) time (NULL) ;
    printf ("test_reorder: GRBGPU_TEST_SEED=%llu\n", (unsigned long long) seed0) ;
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_bijection_random),
        cmocka_unit_test (test_bijection_edge),
        cmocka_unit_test (test_duplicate_rows),
        cmocka_unit_test (test_chains),
        cmocka_unit_test (test_determinism),
        cmocka_unit_test (test_blocks_recovered),
        cmocka_unit_test (test_budget),
        cmocka_unit_test (test_window_stats),
        cmocka_unit_test (test_real_matrices),
    } ;
    return cmocka_run_group_tests (tests, NULL, NULL) ;
}
