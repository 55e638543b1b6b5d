//------------------------------------------------------------------------------
// tests/cuda_backend_dense.c: SDDMM, GEMM, the device cache
//------------------------------------------------------------------------------

#include "config.h"

#include "tests/cuda_backend_test.h"

//------------------------------------------------------------------------------
// SDDMM and GEMM
//------------------------------------------------------------------------------

// When set, sddmm_case puts a +0 and a -0 in A (the first row): a value
// the tensor-core row declines (tc3 forced: the rule's kernel answers)
static bool sddmm_zero_in_a = false ;

// One SDDMM with GRBGPU_KERNEL = kernel (cached M when `cached`) against the
// reference; returns the mismatches.
static int sddmm_case (gg_type t, gg_mul mul, int64_t m, int64_t n, int64_t k,
    double density, const char *kernel, bool cached, int calls)
{
    gg_semiring sr = { GG_ADD_PLUS, mul, t } ;
    test_csr M = make_csr (m, n, density, t) ;
    double *Av, *Bv ;
    void *A = make_dense (m, k, t, &Av) ;
    void *B = make_dense (n, k, t, &Bv) ;
    if (sddmm_zero_in_a)
    {
        put (A, 0, t, 0.0) ; Av [0] = 0.0 ;
        if (k > 1) { put (A, 1, t, -0.0) ; Av [1] = -0.0 ; }
    }
    void *y = malloc ((size_t) M.nnz * 8 + 8) ;
    gg_csr Mv = view_csr (&M, false, cached ? make_entry () : NULL) ;
    Mv.x = NULL ;
    gg_dense Ad = { .nrows = m, .ncols = k, .x = (mul == GG_MUL_SECOND
        || mul == GG_MUL_PAIR) ? NULL : A } ;
    gg_dense Bd = { .nrows = n, .ncols = k, .x = (mul == GG_MUL_FIRST
        || mul == GG_MUL_PAIR) ? NULL : B } ;
    set_kernel (kernel) ;
    int bad = 0 ;
    for (int call = 0 ; call < calls ; call++)
    {
        memset (y, 0x7f, (size_t) M.nnz * 8 + 8) ;
        assert_int_equal (be->sddmm (&sr, &Mv, &Ad, &Bd, y), GG_OK) ;
        for (int64_t r = 0 ; r < m ; r++)
        for (int32_t q = M.p [r] ; q < M.p [r+1] ; q++)
        {
            double acc = 0, mag = 0 ;
            for (int64_t u = 0 ; u < k ; u++)
            {
                double term = mul_ref (sr.mul, Av [r * k + u],
                    Bv [M.i [q] * k + u]) ;
                acc += term ; mag += fabs (term) ;
            }
            if (!close_enough (get (y, (size_t) q, t), acc, mag, t)) bad++ ;
        }
    }
    set_kernel ("") ;
    if (bad) print_message ("sddmm type %d mul %d k %ld kernel '%s': %d wrong\n",
        t, sr.mul, (long) k, kernel, bad) ;
    if (cached) grbgpu_cache_release ((gg_cache_entry *) Mv.cache) ;
    free_csr (&M) ; free (A) ; free (Av) ; free (B) ; free (Bv) ;
    free (y) ;
    return bad ;
}

// Every row of the SDDMM table (backend/cuda/dense.c) forced: "" (the
// static rule: row sums for FIRST / SECOND / PAIR, the own kernel for
// TIMES), "cusparse" (cusparseSDDMM for TIMES), "g8", "w", "w4", "grpl",
// "w4l" (the own kernel's group and batch schedules, and two in long runs),
// "tc3" (the tensor-core SDDMM).
void test_sddmm (void **state)
{
    (void) state ;
    const gg_mul muls [4] = { GG_MUL_TIMES, GG_MUL_FIRST, GG_MUL_SECOND,
        GG_MUL_PAIR } ;
    const int64_t ks [3] = { 1, 16, 33 } ;
    const char *kernels [7] = { "", "cusparse", "g8", "w", "w4", "grpl", "w4l" } ;
    for (int ki2 = 0 ; ki2 < 7 ; ki2++)
    for (int ti = 0 ; ti < 2 ; ti++)
    for (int mi = 0 ; mi < 4 ; mi++)
    for (int ki = 0 ; ki < 3 ; ki++)
    {
        assert_int_equal (sddmm_case (ti ? GG_FP64 : GG_FP32, muls [mi], 211,
            150, ks [ki], 0.04, kernels [ki2], false, 1), 0) ;
    }
    // "tc3" (the tensor-core SDDMM; a cached M only): sparse and dense masks
    // (a small and a large tensor-core share), twice (the form made, then
    // reused), every multiply (FIRST / SECOND / PAIR: not its own, the
    // rule's kernel answers); with a zero in A it declines and the rule's
    // kernel answers
    const int64_t tks [4] = { 1, 16, 33, 128 } ;
    for (int z = 0 ; z < 2 ; z++)
    for (int ti = 0 ; ti < 2 ; ti++)
    for (int mi = 0 ; mi < 4 ; mi++)
    for (int ki = 0 ; ki < 4 ; ki++)
    for (int di = 0 ; di < 2 ; di++)
    {
        sddmm_zero_in_a = (z == 1) ;
        assert_int_equal (sddmm_case (ti ? GG_FP64 : GG_FP32, muls [mi], 211,
            150, tks [ki], di ? 0.5 : 0.04, "tc3", true, 2), 0) ;
        sddmm_zero_in_a = false ;
    }
}

// One GEMM with GRBGPU_KERNEL = kernel against the reference, `calls` times.
static int gemm_case (gg_type t, gg_mul mul, int64_t m, int64_t n, int64_t k,
    const char *kernel, int calls)
{
    gg_semiring sr = { GG_ADD_PLUS, mul, t } ;
    double *Av, *Bv ;
    void *A = make_dense (m, k, t, &Av) ;
    void *B = make_dense (n, k, t, &Bv) ;
    void *Y = malloc ((size_t) (m * n) * 8) ;
    gg_dense Ad = { .nrows = m, .ncols = k, .x = A } ;
    gg_dense Bd = { .nrows = n, .ncols = k, .x = B } ;
    set_kernel (kernel) ;
    int bad = 0 ;
    for (int call = 0 ; call < calls ; call++)
    {
        memset (Y, 0x7f, (size_t) (m * n) * 8) ;
        assert_int_equal (be->gemm (&sr, &Ad, &Bd, Y), GG_OK) ;
        for (int64_t i = 0 ; i < m ; i++)
        for (int64_t j = 0 ; j < n ; j++)
        {
            double acc = 0, mag = 0 ;
            for (int64_t u = 0 ; u < k ; u++)
            {
                double term = mul_ref (sr.mul, Av [i * k + u], Bv [j * k + u]) ;
                acc += term ; mag += fabs (term) ;
            }
            if (!close_enough (get (Y, (size_t) (i * n + j), t), acc, mag, t))
                bad++ ;
        }
    }
    set_kernel ("") ;
    if (bad) print_message ("gemm type %d mul %d kernel '%s': %d wrong\n", t,
        sr.mul, kernel, bad) ;
    free (A) ; free (Av) ; free (B) ; free (Bv) ; free (Y) ;
    return bad ;
}

// Every row of the GEMM table forced: "" (row sums / cuBLAS), "cusparse"
// (the vendor rows), "own" (kernels/gemm).
void test_gemm (void **state)
{
    (void) state ;
    const gg_mul muls [4] = { GG_MUL_TIMES, GG_MUL_FIRST, GG_MUL_SECOND,
        GG_MUL_PAIR } ;
    const char *kernels [3] = { "", "cusparse", "own" } ;
    for (int ki = 0 ; ki < 3 ; ki++)
    for (int ti = 0 ; ti < 2 ; ti++)
    for (int mi = 0 ; mi < 4 ; mi++)
    {
        assert_int_equal (gemm_case (ti ? GG_FP64 : GG_FP32, muls [mi], 70,
            51, 33, kernels [ki], 1), 0) ;
    }
}

// The chooser that measures on the SDDMM and GEMM tables (GRBGPU_TUNE, on by
// default): products of enough work time each supporting row once and
// remember the winner; the first call (timed) and the second (remembered)
// both give the reference's answer.
void test_dense_tuned (void **state)
{
    (void) state ;
    bool tune = grbgpu_settings.tune ;
    grbgpu_settings.tune = true ;
    for (int ti = 0 ; ti < 2 ; ti++)
    {
        gg_type t = ti ? GG_FP64 : GG_FP32 ;
        // SDDMM FIRST / SECOND: row sums against the own kernel (40K
        // entries x K = 128 on a cached M)
        assert_int_equal (sddmm_case (t, GG_MUL_FIRST, 2000, 2000, 128, 0.01,
            "", true, 2), 0) ;
        assert_int_equal (sddmm_case (t, GG_MUL_SECOND, 2000, 1500, 128, 0.01,
            "", true, 2), 0) ;
        // SDDMM TIMES: the rule's schedule (own) against the 8-entry batch
        // (own_w, FP32) and the long runs (own_l)
        assert_int_equal (sddmm_case (t, GG_MUL_TIMES, 2000, 2000, 128, 0.01,
            "", true, 2), 0) ;
        // GEMM TIMES: cuBLAS against kernels/gemm (512^3)
        assert_int_equal (gemm_case (t, GG_MUL_TIMES, 512, 512, 512, "", 2), 0) ;
    }
    grbgpu_settings.tune = tune ;
}

//------------------------------------------------------------------------------
// the device cache
//------------------------------------------------------------------------------

// A second call with the same cache entry uploads only the uncached X; with X
// cached too it uploads nothing.  A new X with the cached S (and its kept
// cuSPARSE plan) still gives the right answer.
void test_cache_reuse (void **state)
{
    (void) state ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
    int64_t m = 1000, k = 800, n = 32 ;
    test_csr S = make_csr (m, k, 0.02, GG_FP32) ;
    double *Xv, *X2v ;
    void *X = make_dense (k, n, GG_FP32, &Xv) ;
    void *X2 = make_dense (k, n, GG_FP32, &X2v) ;
    float *Y = malloc ((size_t) (m * n) * sizeof (float)) ;
    gg_cache_entry *es = make_entry (), *ex = make_entry () ;
    gg_csr Sv = view_csr (&S, false, es) ;
    gg_dense Xd = { .nrows = k, .ncols = n, .x = X } ;
    size_t sbytes = (size_t) (m + 1) * 4 + (size_t) S.nnz * 8 ;
    size_t xbytes = (size_t) (k * n) * 4 ;

    uint64_t b0 = h2d_bytes () ;
    assert_int_equal (be->spmm (&sr, &Sv, &Xd, Y), GG_OK) ;
    uint64_t b1 = h2d_bytes () ;
    assert_int_equal (b1 - b0, sbytes + xbytes) ;
    assert_non_null (es->dev) ;
    assert_int_equal (check_spmm (&sr, &S, false, Xv, n, Y), 0) ;

    // same S, a different X: only X goes up
    Xd.x = X2 ;
    assert_int_equal (be->spmm (&sr, &Sv, &Xd, Y), GG_OK) ;
    uint64_t b2 = h2d_bytes () ;
    assert_int_equal (b2 - b1, xbytes) ;
    assert_int_equal (check_spmm (&sr, &S, false, X2v, n, Y), 0) ;

    // X cached too: the first call uploads it, the next uploads nothing
    Xd.cache = ex ;
    assert_int_equal (be->spmm (&sr, &Sv, &Xd, Y), GG_OK) ;
    uint64_t b3 = h2d_bytes () ;
    assert_int_equal (b3 - b2, xbytes) ;
    memset (Y, 0, (size_t) (m * n) * sizeof (float)) ;
    assert_int_equal (be->spmm (&sr, &Sv, &Xd, Y), GG_OK) ;
    assert_int_equal (h2d_bytes () - b3, 0) ;
    assert_int_equal (check_spmm (&sr, &S, false, X2v, n, Y), 0) ;

    // the same entry asked for SECOND needs all-ones values: a new form
    gg_semiring sr2 = { GG_ADD_PLUS, GG_MUL_SECOND, GG_FP32 } ;
    assert_int_equal (be->spmm (&sr2, &Sv, &Xd, Y), GG_OK) ;
    assert_int_equal (check_spmm (&sr2, &S, false, X2v, n, Y), 0) ;

    grbgpu_cache_release (es) ;
    grbgpu_cache_release (ex) ;
    grbgpu_cache_clear () ;
    free_csr (&S) ; free (X) ; free (Xv) ; free (X2) ; free (X2v) ; free (Y) ;
}

// Under a budget that holds one form, attaching a second evicts the first;
// the evicted one is uploaded again on its next use and stays correct.
void test_cache_eviction (void **state)
{
    (void) state ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 } ;
    int64_t m = 2000, k = 1500, n = 8 ;
    test_csr S1 = make_csr (m, k, 0.01, GG_FP64) ;
    test_csr S2 = make_csr (m, k, 0.01, GG_FP64) ;
    double *Xv ;
    void *X = make_dense (k, n, GG_FP64, &Xv) ;
    double *Y = malloc ((size_t) (m * n) * sizeof (double)) ;
    size_t f1 = (size_t) (m + 1) * 4 + (size_t) S1.nnz * 12 ;
    size_t f2 = (size_t) (m + 1) * 4 + (size_t) S2.nnz * 12 ;
    size_t budget = (f1 > f2 ? f1 : f2) * 3 / 2 ;
    grbgpu_cache_set_device_budget (-1, budget) ;

    gg_cache_entry *e1 = make_entry (), *e2 = make_entry () ;
    gg_csr S1v = view_csr (&S1, false, e1), S2v = view_csr (&S2, false, e2) ;
    gg_dense Xd = { .nrows = k, .ncols = n, .x = X } ;
    assert_int_equal (be->spmm (&sr, &S1v, &Xd, Y), GG_OK) ;
    assert_non_null (e1->dev) ;
    assert_int_equal (check_spmm (&sr, &S1, false, Xv, n, Y), 0) ;
    assert_int_equal (be->spmm (&sr, &S2v, &Xd, Y), GG_OK) ;
    assert_non_null (e2->dev) ;
    assert_null (e1->dev) ;                   // evicted to make room
    size_t hb, db ;
    grbgpu_cache_usage (&hb, &db) ;
    assert_true (db <= budget) ;
    assert_int_equal (check_spmm (&sr, &S2, false, Xv, n, Y), 0) ;

    uint64_t b0 = h2d_bytes () ;
    assert_int_equal (be->spmm (&sr, &S1v, &Xd, Y), GG_OK) ;
    assert_true (h2d_bytes () - b0 >= f1) ;   // S1 went up again
    assert_int_equal (check_spmm (&sr, &S1, false, Xv, n, Y), 0) ;

    grbgpu_cache_release (e1) ;
    grbgpu_cache_release (e2) ;
    grbgpu_cache_clear () ;
    grbgpu_cache_set_device_budget (-1, grbgpu_cuda_budget ()) ;
    free_csr (&S1) ; free_csr (&S2) ; free (X) ; free (Xv) ; free (Y) ;
}
