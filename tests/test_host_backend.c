//------------------------------------------------------------------------------
// tests/test_host_backend.c: the host backend against SuiteSparse:GraphBLAS
//------------------------------------------------------------------------------

// For every supported semiring (type x monoid x multiply) this computes SpMM
// (and SpMV, n = 1), SDDMM and GEMM with grbgpu_host_backend and the same
// product with GrB_mxm and the corresponding built-in semiring, on inputs
// drawn fresh each run (seed: GRBGPU_TEST_SEED, else the time; printed), and
// compares: integers and BOOL exactly, FP32 / FP64 to a relative 1e-5 / 1e-12
// (the FP inputs are multiples of 1/8 in [-1,1], so most sums are exact).
// For ANY, both answers must be one of the candidate terms.  The shapes cover
// rows of 0, 1, 31, 33 and 200 entries, k == 1, n == 1, n not a multiple of
// 4, n wider than one column slice, iso values, NULL value arrays (as the
// dispatcher passes them) and 32- and 64-bit indices.  Also: the empty sum
// (k == 0), FP MIN/MAX with NaN, -0 sums, unsupported semirings, and fault
// injection.  backend/host/host_backend.c is compiled into this program (its
// symbols are hidden in libgrbgpu.so); grbgpu_fault, the settings, counts and
// logging are stubbed below.
//
// The helpers (stubs, values, builders, checks): tests/host_backend_util.c.

#include "tests/host_backend_test.h"

//------------------------------------------------------------------------------
// SpMM / SpMV
//------------------------------------------------------------------------------

// One S (nrows x k, row lengths len) and X (k x n), all semirings of type t,
// iso and not, 32- and 64-bit indices.
static void spmm_case (gg_type t, int64_t nrows, int64_t k, int64_t n,
    const int64_t *len)
{
    size_t size = gg_type_size (t) ;
    test_csr S ;
    csr_random (&S, nrows, k, len) ;
    char *Sx = random_values (t, S.nnz) ;
    char *Xx = random_values (t, k * n) ;
    char *Y = malloc ((size_t) (nrows * n + 1) * size) ;
    char *D = malloc ((size_t) (nrows * n + 1) * size) ;
    uint8_t *present = malloc ((size_t) (nrows * n + 1)) ;
    assert_true (Y && D && present) ;
    GrB_Matrix X = grb_dense (t, k, n, Xx) ;
    int64_t nonempty = 0 ;
    for (int64_t i = 0 ; i < nrows ; i++) nonempty += (len [i] > 0) ;

    for (int iso = 0 ; iso <= 1 ; iso++)
    {
        // iso: every entry of S holds Sx [0]
        char *Sfull = malloc ((size_t) (S.nnz + 1) * size) ;
        assert_non_null (Sfull) ;
        for (int64_t q = 0 ; q < S.nnz ; q++)
        {
            memcpy (Sfull + q * size, Sx + (iso ? 0 : q) * size, size) ;
        }
        GrB_Matrix A ;
        grb_build (&A, t, nrows, k, S.I, S.J, Sfull, S.nnz) ;

        for (int a = 0 ; a < GG_NADD ; a++)
        {
            if (!in_set (t, a)) continue ;
            for (int m = 0 ; m < GG_NMUL ; m++)
            {
                // C = A (+.*) X in GraphBLAS
                GrB_Semiring sr = grb_semiring (t, a, m) ;
                GrB_Matrix C ;
                OK (GrB_Matrix_new (&C, grb_type (t), nrows, n)) ;
                OK (GrB_mxm (C, NULL, NULL, sr, A, X, NULL)) ;
                memset (present, 0, (size_t) (nrows * n + 1)) ;
                GrB_Index nvals ;
                grb_unpack (C, t, n, D, present, &nvals) ;
                assert_int_equal (nvals, nonempty * n) ;

                for (int wide = 0 ; wide <= 1 ; wide++)
                {
                    // Y = S (+.*) X on the host, unread value arrays NULL
                    gg_semiring gs = { a, m, t } ;
                    gg_csr Sv = csr_view (&S, wide, reads_s (m) ? Sx : NULL, iso) ;
                    gg_dense Xv = { k, n, reads_x (m) ? Xx : NULL, NULL } ;
                    memset (Y, 0x5a, (size_t) (nrows * n) * size) ;
                    assert_int_equal (grbgpu_host_backend.spmm (&gs, &Sv, &Xv, Y), GG_OK) ;

                    for (int64_t i = 0 ; i < nrows ; i++)
                    {
                        if (len [i] == 0) continue ;
                        int64_t p0 = S.p64 [i] ;
                        for (int64_t j = 0 ; j < n ; j++)
                        {
                            // terms: Sfull [p0+r], X (col_r, j)
                            test_terms T = { Sfull + p0 * size, 1, NULL, 0, len [i] } ;
                            // X (col_r, j) is not at a fixed stride: check ANY
                            // candidates row by row through a gathered copy
                            char xg [8 * 256] ;
                            assert_true (len [i] <= 256) ;
                            for (int64_t r = 0 ; r < len [i] ; r++)
                            {
                                memcpy (xg + r * size,
                                    Xx + (S.i64 [p0 + r] * n + j) * size, size) ;
                            }
                            T.x = xg ; T.x_stride = 1 ;
                            check_entry (wide ? "spmm64" : "spmm32", t, a, m,
                                Y + (i * n + j) * size, D + (i * n + j) * size,
                                present [i * n + j], &T, i, j) ;
                            checked++ ;
                        }
                    }
                }
                OK (GrB_Matrix_free (&C)) ;
                OK (GrB_Semiring_free (&sr)) ;
            }
        }
        OK (GrB_Matrix_free (&A)) ;
        free (Sfull) ;
    }
    OK (GrB_Matrix_free (&X)) ;
    csr_free (&S) ;
    free (Sx) ; free (Xx) ; free (Y) ; free (D) ; free (present) ;
}

static void test_spmm (void **state)
{
    gg_type t = (gg_type) (intptr_t) *state ;

    // rows of 0, 1, 31, 33 and 200 entries among short random ones
    enum { NROWS = 40, K = 257 } ;
    int64_t len [NROWS] ;
    for (int i = 0 ; i < NROWS ; i++) len [i] = rng_below (6) ;
    len [0] = 0 ; len [3] = 1 ; len [7] = 31 ; len [8] = 33 ; len [20] = 200 ;
    len [NROWS-1] = 0 ;
    const int64_t widths [] = { 1, 5, 32, 600 } ;   // 600: two column slices
    for (int w = 0 ; w < 4 ; w++) spmm_case (t, NROWS, K, widths [w], len) ;

    // k == 1: rows of 0 or 1 entries
    int64_t len1 [20] ;
    for (int i = 0 ; i < 20 ; i++) len1 [i] = rng_below (2) ;
    len1 [0] = 1 ; len1 [1] = 0 ;
    spmm_case (t, 20, 1, 1, len1) ;
    spmm_case (t, 20, 1, 3, len1) ;
}

//------------------------------------------------------------------------------
// SDDMM
//------------------------------------------------------------------------------

static void sddmm_case (gg_type t, int64_t m, int64_t n, int64_t k)
{
    size_t size = gg_type_size (t) ;
    int64_t len [64] ;
    assert_true (m <= 64) ;
    for (int64_t i = 0 ; i < m ; i++) len [i] = rng_below (n / 3 + 1) ;
    len [0] = 0 ; len [1] = 1 ; len [2] = n ; len [m-1] = 0 ;
    test_csr M ;
    csr_random (&M, m, n, len) ;
    char *Ax = random_values (t, m * k) ;
    char *Bx = random_values (t, n * k) ;
    char *y = malloc ((size_t) (M.nnz + 1) * size) ;
    char *D = malloc ((size_t) (m * n + 1) * size) ;
    uint8_t *present = malloc ((size_t) (m * n + 1)) ;
    uint8_t *ones = malloc ((size_t) M.nnz + 1) ;
    assert_true (y && D && present && ones) ;
    memset (ones, 1, (size_t) M.nnz + 1) ;
    GrB_Matrix A = grb_dense (t, m, k, Ax), B = grb_dense (t, n, k, Bx), Mask ;
    grb_build (&Mask, GG_BOOL, m, n, M.I, M.J, ones, M.nnz) ;

    for (int a = 0 ; a < GG_NADD ; a++)
    {
        if (!in_set (t, a)) continue ;
        for (int mu = 0 ; mu < GG_NMUL ; mu++)
        {
            // C<struct(M)> = A (+.*) B' in GraphBLAS
            GrB_Semiring sr = grb_semiring (t, a, mu) ;
            GrB_Matrix C ;
            OK (GrB_Matrix_new (&C, grb_type (t), m, n)) ;
            OK (GrB_mxm (C, Mask, NULL, sr, A, B, GrB_DESC_ST1)) ;
            memset (present, 0, (size_t) (m * n + 1)) ;
            GrB_Index nvals ;
            grb_unpack (C, t, n, D, present, &nvals) ;
            assert_int_equal (nvals, M.nnz) ;

            for (int wide = 0 ; wide <= 1 ; wide++)
            {
                gg_semiring gs = { a, mu, t } ;
                gg_csr Mv = csr_view (&M, wide, NULL, false) ;
                gg_dense Av = { m, k, reads_s (mu) ? Ax : NULL, NULL } ;
                gg_dense Bv = { n, k, reads_x (mu) ? Bx : NULL, NULL } ;
                memset (y, 0x5a, (size_t) M.nnz * size) ;
                assert_int_equal (grbgpu_host_backend.sddmm (&gs, &Mv, &Av, &Bv, y), GG_OK) ;
                for (int64_t q = 0 ; q < M.nnz ; q++)
                {
                    int64_t i = (int64_t) M.I [q], j = (int64_t) M.J [q] ;
                    test_terms T = { Ax + i * k * size, 1, Bx + j * k * size, 1, k } ;
                    check_entry (wide ? "sddmm64" : "sddmm32", t, a, mu,
                        y + q * size, D + (i * n + j) * size, present [i * n + j],
                        &T, i, j) ;
                    checked++ ;
                }
            }
            OK (GrB_Matrix_free (&C)) ;
            OK (GrB_Semiring_free (&sr)) ;
        }
    }
    OK (GrB_Matrix_free (&A)) ; OK (GrB_Matrix_free (&B)) ;
    OK (GrB_Matrix_free (&Mask)) ;
    csr_free (&M) ;
    free (Ax) ; free (Bx) ; free (y) ; free (D) ; free (present) ; free (ones) ;
}

static void test_sddmm (void **state)
{
    gg_type t = (gg_type) (intptr_t) *state ;
    sddmm_case (t, 37, 45, 1) ;
    sddmm_case (t, 37, 45, 7) ;
    sddmm_case (t, 21, 50, 200) ;
}

//------------------------------------------------------------------------------
// GEMM
//------------------------------------------------------------------------------

static void gemm_case (gg_type t, int64_t m, int64_t n, int64_t k)
{
    size_t size = gg_type_size (t) ;
    char *Ax = random_values (t, m * k) ;
    char *Bx = random_values (t, n * k) ;
    char *Y = malloc ((size_t) (m * n + 1) * size) ;
    char *D = malloc ((size_t) (m * n + 1) * size) ;
    uint8_t *present = malloc ((size_t) (m * n + 1)) ;
    assert_true (Y && D && present) ;
    GrB_Matrix A = grb_dense (t, m, k, Ax), B = grb_dense (t, n, k, Bx) ;

    for (int a = 0 ; a < GG_NADD ; a++)
    {
        if (!in_set (t, a)) continue ;
        for (int mu = 0 ; mu < GG_NMUL ; mu++)
        {
            // C = A (+.*) B' in GraphBLAS
            GrB_Semiring sr = grb_semiring (t, a, mu) ;
            GrB_Matrix C ;
            OK (GrB_Matrix_new (&C, grb_type (t), m, n)) ;
            OK (GrB_mxm (C, NULL, NULL, sr, A, B, GrB_DESC_T1)) ;
            memset (present, 0, (size_t) (m * n + 1)) ;
            GrB_Index nvals ;
            grb_unpack (C, t, n, D, present, &nvals) ;
            assert_int_equal (nvals, m * n) ;

            gg_semiring gs = { a, mu, t } ;
            gg_dense Av = { m, k, reads_s (mu) ? Ax : NULL, NULL } ;
            gg_dense Bv = { n, k, reads_x (mu) ? Bx : NULL, NULL } ;
            memset (Y, 0x5a, (size_t) (m * n) * size) ;
            assert_int_equal (grbgpu_host_backend.gemm (&gs, &Av, &Bv, Y), GG_OK) ;
            for (int64_t i = 0 ; i < m ; i++)
            {
                for (int64_t j = 0 ; j < n ; j++)
                {
                    test_terms T = { Ax + i * k * size, 1, Bx + j * k * size, 1, k } ;
                    check_entry ("gemm", t, a, mu, Y + (i * n + j) * size,
                        D + (i * n + j) * size, present [i * n + j], &T, i, j) ;
                    checked++ ;
                }
            }
            OK (GrB_Matrix_free (&C)) ;
            OK (GrB_Semiring_free (&sr)) ;
        }
    }
    OK (GrB_Matrix_free (&A)) ; OK (GrB_Matrix_free (&B)) ;
    free (Ax) ; free (Bx) ; free (Y) ; free (D) ; free (present) ;
}

static void test_gemm (void **state)
{
    gg_type t = (gg_type) (intptr_t) *state ;
    gemm_case (t, 19, 5, 1) ;       // k == 1
    gemm_case (t, 33, 17, 70) ;     // rows not a multiple of the row block
    gemm_case (t, 9, 300, 40) ;     // two column blocks
}

//------------------------------------------------------------------------------
// the empty sum (k == 0): every result is the monoid's identity
//------------------------------------------------------------------------------

static void test_empty_sum (void **state)
{
    (void) state ;
    double y [6] ;
    float yf [6] ;
    int32_t yi [6] ;
    int32_t p [4] = { 0, 2, 2, 3 }, ci [3] = { 0, 1, 1 } ;
    gg_csr M = { .nrows = 3, .ncols = 2, .nnz = 3, .p32 = p, .i32 = ci } ;
    gg_dense A = { 3, 0, NULL, NULL }, B = { 2, 0, NULL, NULL } ;

    // FP64: PLUS 0, TIMES 1, MIN +inf, MAX -inf
    const double want [4] = { 0, 1, INFINITY, -INFINITY } ;
    for (int a = 0 ; a < 4 ; a++)
    {
        gg_semiring sr = { a, GG_MUL_TIMES, GG_FP64 } ;
        assert_int_equal (grbgpu_host_backend.sddmm (&sr, &M, &A, &B, y), GG_OK) ;
        for (int q = 0 ; q < 3 ; q++) assert_true (y [q] == want [a]) ;
        assert_int_equal (grbgpu_host_backend.gemm (&sr, &A, &B, y), GG_OK) ;
        for (int q = 0 ; q < 6 ; q++) assert_true (y [q] == want [a]) ;
    }
    // INT32 MIN / MAX: the type's limits; FP32 MIN: +inf
    gg_semiring smin = { GG_ADD_MIN, GG_MUL_PLUS, GG_INT32 } ;
    assert_int_equal (grbgpu_host_backend.gemm (&smin, &A, &B, yi), GG_OK) ;
    for (int q = 0 ; q < 6 ; q++) assert_int_equal (yi [q], INT32_MAX) ;
    gg_semiring smax = { GG_ADD_MAX, GG_MUL_PLUS, GG_INT32 } ;
    assert_int_equal (grbgpu_host_backend.sddmm (&smax, &M, &A, &B, yi), GG_OK) ;
    for (int q = 0 ; q < 3 ; q++) assert_int_equal (yi [q], INT32_MIN) ;
    gg_semiring fmin32 = { GG_ADD_MIN, GG_MUL_TIMES, GG_FP32 } ;
    assert_int_equal (grbgpu_host_backend.gemm (&fmin32, &A, &B, yf), GG_OK) ;
    for (int q = 0 ; q < 6 ; q++) assert_true (isinf (yf [q]) && yf [q] > 0) ;
    // BOOL LAND: true, LOR: false
    uint8_t yb [6] ;
    gg_semiring land = { GG_ADD_LAND, GG_MUL_LOR, GG_BOOL } ;
    assert_int_equal (grbgpu_host_backend.gemm (&land, &A, &B, yb), GG_OK) ;
    for (int q = 0 ; q < 6 ; q++) assert_int_equal (yb [q], 1) ;
    gg_semiring lor = { GG_ADD_LOR, GG_MUL_LAND, GG_BOOL } ;
    assert_int_equal (grbgpu_host_backend.sddmm (&lor, &M, &A, &B, yb), GG_OK) ;
    for (int q = 0 ; q < 3 ; q++) assert_int_equal (yb [q], 0) ;
}

//------------------------------------------------------------------------------
// FP corner cases: fmin / fmax skip NaN; a sum of one -0 is -0
//------------------------------------------------------------------------------

static void test_fp_corners (void **state)
{
    (void) state ;
    // rows: {NaN, 2}, {NaN}, {-0}, {3, NaN}
    int64_t p [5] = { 0, 2, 3, 4, 6 }, ci [6] = { 0, 1, 0, 0, 1, 0 } ;
    double sx [6] = { NAN, 2, NAN, -0.0, 3, NAN } ;
    double x [2] = { 1, 1 }, y [4] ;
    gg_csr S = { .nrows = 4, .ncols = 2, .nnz = 6, .p64 = p, .i64 = ci, .x = sx } ;
    gg_dense X = { 2, 1, x, NULL } ;

    gg_semiring smin = { GG_ADD_MIN, GG_MUL_FIRST, GG_FP64 } ;
    gg_dense X0 = { 2, 1, NULL, NULL } ;
    assert_int_equal (grbgpu_host_backend.spmm (&smin, &S, &X0, y), GG_OK) ;
    assert_true (y [0] == 2 && isnan (y [1]) && y [2] == 0 && signbit (y [2])) ;
    assert_true (y [3] == 3) ;

    gg_semiring smax = { GG_ADD_MAX, GG_MUL_TIMES, GG_FP64 } ;
    assert_int_equal (grbgpu_host_backend.spmm (&smax, &S, &X, y), GG_OK) ;
    assert_true (y [0] == 2 && isnan (y [1]) && y [3] == 3) ;

    gg_semiring splus = { GG_ADD_PLUS, GG_MUL_FIRST, GG_FP64 } ;
    assert_int_equal (grbgpu_host_backend.spmm (&splus, &S, &X0, y), GG_OK) ;
    assert_true (y [2] == 0 && signbit (y [2])) ;
}

//------------------------------------------------------------------------------
// unsupported semirings and fault injection
//------------------------------------------------------------------------------

static void test_unsupported_and_fault (void **state)
{
    (void) state ;
    int32_t p [2] = { 0, 1 }, ci [1] = { 0 } ;
    double sx [1] = { 2 }, x [1] = { 3 }, y [1] = { 0 } ;
    gg_csr S = { .nrows = 1, .ncols = 1, .nnz = 1, .p32 = p, .i32 = ci, .x = sx } ;
    gg_dense X = { 1, 1, x, NULL } ;

    // LOR / LAND monoids exist for BOOL only; out-of-range enums
    gg_semiring bad [3] = { { GG_ADD_LOR, GG_MUL_TIMES, GG_FP64 },
        { GG_ADD_LAND, GG_MUL_FIRST, GG_FP64 },
        { GG_ADD_PLUS, GG_NMUL, GG_FP64 } } ;
    for (int b = 0 ; b < 3 ; b++)
    {
        assert_int_equal (grbgpu_host_backend.spmm (&bad [b], &S, &X, y),
            GG_ERR_UNSUPPORTED) ;
        assert_int_equal (grbgpu_host_backend.sddmm (&bad [b], &S, &X, &X, y),
            GG_ERR_UNSUPPORTED) ;
        assert_int_equal (grbgpu_host_backend.gemm (&bad [b], &X, &X, y),
            GG_ERR_UNSUPPORTED) ;
    }
    gg_semiring badtype = { GG_ADD_PLUS, GG_MUL_TIMES, GG_NTYPES } ;
    assert_int_equal (grbgpu_host_backend.gemm (&badtype, &X, &X, y),
        GG_ERR_UNSUPPORTED) ;

    // the supported one works, and fails when a fault is injected
    gg_semiring ok = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 } ;
    assert_int_equal (grbgpu_host_backend.spmm (&ok, &S, &X, y), GG_OK) ;
    assert_true (y [0] == 6) ;
    assert_int_equal (grbgpu_host_backend.sddmm (&ok, &S, &X, &X, y), GG_OK) ;
    assert_true (y [0] == 9) ;
    assert_int_equal (grbgpu_host_backend.gemm (&ok, &X, &X, y), GG_OK) ;
    assert_true (y [0] == 9) ;
    fault_now = true ;
    assert_int_equal (grbgpu_host_backend.spmm (&ok, &S, &X, y), GG_ERR_FAULT) ;
    assert_int_equal (grbgpu_host_backend.sddmm (&ok, &S, &X, &X, y), GG_ERR_FAULT) ;
    assert_int_equal (grbgpu_host_backend.gemm (&ok, &X, &X, y), GG_ERR_FAULT) ;
    fault_now = false ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

// One test per (operation, type), named e.g. "test_spmm FP32".
#define PER_TYPE(fn, T) { #fn " " #T, fn, NULL, NULL, (void *) (intptr_t) GG_ ## T }
#define ALL_TYPES(fn) PER_TYPE (fn, BOOL), PER_TYPE (fn, INT32), \
    PER_TYPE (fn, INT64), PER_TYPE (fn, UINT32), PER_TYPE (fn, UINT64), \
    PER_TYPE (fn, FP32), PER_TYPE (fn, FP64)

int main (void)
{
    const char *s = getenv ("GRBGPU_TEST_SEED") ;
    uint64_t seed = (s != NULL && *s) ? strtoull (s, NULL, 0)
        : (uint64_t) time (NULL) ^ ((uint64_t) clock () << 20) ;
    rng_state = seed ;
    printf ("test_host_backend: GRBGPU_TEST_SEED=%llu\n", (unsigned long long) seed) ;
    fflush (stdout) ;
    if (GrB_init (GrB_NONBLOCKING) != GrB_SUCCESS) return 1 ;

    const struct CMUnitTest tests [] =
    {
        ALL_TYPES (test_spmm),
        ALL_TYPES (test_sddmm),
        ALL_TYPES (test_gemm),
        cmocka_unit_test (test_empty_sum),
        cmocka_unit_test (test_fp_corners),
        cmocka_unit_test (test_unsupported_and_fault),
    } ;
    int failed = cmocka_run_group_tests (tests, NULL, NULL) ;
    printf ("test_host_backend: %llu result entries compared (seed %llu)\n",
        (unsigned long long) checked, (unsigned long long) seed) ;
    GrB_finalize () ;
    return failed ;
}
