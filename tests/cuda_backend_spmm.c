//------------------------------------------------------------------------------
// tests/cuda_backend_spmm.c: SpMM / SpMV, plus-times family
//------------------------------------------------------------------------------

#include "config.h"

#include "tests/cuda_backend_test.h"

//------------------------------------------------------------------------------
// SpMM / SpMV, the plus-times family
//------------------------------------------------------------------------------

static int64_t spmm_case_rows = 301 ;    // rows of S in run_spmm_case
static bool spmm_case_cached = false ;   // S cached and the call made twice
                                         // (the chooser times, then reuses)

static void run_spmm_case (gg_type t, gg_mul mul, int64_t n, bool iso,
    const char *kernel)
{
    gg_semiring sr = { .add = GG_ADD_PLUS, .mul = mul, .type = t } ;
    int64_t m = spmm_case_rows, k = 203 ;
    test_csr S = make_csr (m, k, 0.05, t) ;
    double *Xv ;
    void *X = make_dense (k, n, t, &Xv) ;
    void *Y = malloc ((size_t) (m * n) * 8) ;
    set_kernel (kernel) ;
    gg_csr Sv = view_csr (&S, iso, spmm_case_cached ? make_entry () : NULL) ;
    // values never read are NULL, as the dispatcher passes them
    if (mul == GG_MUL_SECOND || mul == GG_MUL_PAIR) Sv.x = NULL ;
    gg_dense Xd = { .nrows = k, .ncols = n, .x = (mul == GG_MUL_FIRST ||
        mul == GG_MUL_PAIR) ? NULL : X } ;
    int bad = 0 ;
    for (int call = 0 ; call < (spmm_case_cached ? 2 : 1) ; call++)
    {
        memset (Y, 0x7f, (size_t) (m * n) * 8) ;
        int rc = be->spmm (&sr, &Sv, &Xd, Y) ;
        assert_int_equal (rc, GG_OK) ;
        bad += check_spmm (&sr, &S, iso, Xv, n, Y) ;
    }
    if (spmm_case_cached) grbgpu_cache_release ((gg_cache_entry *) Sv.cache) ;
    if (bad) print_message ("spmm type %d mul %d n %ld iso %d kernel '%s': "
        "%d wrong\n", t, mul, (long) n, iso, kernel, bad) ;
    assert_int_equal (bad, 0) ;
    set_kernel ("") ;
    free_csr (&S) ; free (X) ; free (Xv) ; free (Y) ;
}

// An m x k CSR whose 8-row windows share columns (each window picks `cols`
// columns, each of its rows takes each with probability 0.6), plus a few
// random entries per row: the tensor-core hybrid's part and remainder both
// hold entries.  Values from rnd_value: nonzero, normal.
void test_spmm_plus_times (void **state)
{
    (void) state ;
    const gg_mul muls [4] = { GG_MUL_TIMES, GG_MUL_FIRST, GG_MUL_SECOND,
        GG_MUL_PAIR } ;
    const int64_t ns [4] = { 1, 7, 32, 130 } ;
    for (int ti = 0 ; ti < 2 ; ti++)
    {
        gg_type t = ti ? GG_FP64 : GG_FP32 ;
        for (int mi = 0 ; mi < 4 ; mi++)
        {
            for (int ni = 0 ; ni < 4 ; ni++)
            {
                run_spmm_case (t, muls [mi], ns [ni], false, "") ;
            }
            run_spmm_case (t, muls [mi], 16, true, "") ;     // iso values
            // SpMV on a small matrix of 3001 rows without skew: our
            // row-split kernel instead of cuSPARSE (spmm_use_vendor)
            spmm_case_rows = 3001 ;
            run_spmm_case (t, muls [mi], 1, false, "") ;
            run_spmm_case (t, muls [mi], 1, true, "") ;
            spmm_case_rows = 301 ;
        }
    }
}

// Every cuSPARSE SpMM algorithm with row-major operands.
void test_spmm_algorithms (void **state)
{
    (void) state ;
    const char *algs [4] = { "cusparse", "cusparse:alg1", "cusparse:alg2",
        "cusparse:alg3" } ;
    for (int a = 0 ; a < 4 ; a++)
    {
        run_spmm_case (GG_FP32, GG_MUL_TIMES, 64, false, algs [a]) ;
        run_spmm_case (GG_FP64, GG_MUL_TIMES, 128, false, algs [a]) ;
        run_spmm_case (GG_FP32, GG_MUL_SECOND, 33, false, algs [a]) ;
        run_spmm_case (GG_FP64, GG_MUL_TIMES, 1, false, algs [a]) ;
    }
}

// The chooser that measures on the SpMM table, with the cuSPARSE algorithm
// rows (cusparse_alg1..3; SpMV ALG1..2): a cached S of enough work (about
// 100K entries x N) is timed on every supporting row at the first call and
// the winner reused at the second; both answers are checked.
void test_spmm_tuned (void **state)
{
    (void) state ;
    bool tune = grbgpu_settings.tune ;
    grbgpu_settings.tune = true ;
    spmm_case_rows = 10000 ;        // x 203 columns x 0.05: ~100K entries
    spmm_case_cached = true ;
    const int64_t ns [3] = { 64, 128, 256 } ;
    for (int ti = 0 ; ti < 2 ; ti++)
    for (int ni = 0 ; ni < 3 ; ni++)
    {
        gg_type t = ti ? GG_FP64 : GG_FP32 ;
        run_spmm_case (t, GG_MUL_TIMES, ns [ni], false, "") ;
        run_spmm_case (t, GG_MUL_SECOND, ns [ni], false, "") ;
        // (the vendor's row sums, run many times by the chooser)
        run_spmm_case (t, GG_MUL_FIRST, ns [ni], false, "") ;
    }
    spmm_case_cached = false ;
    spmm_case_rows = 301 ;
    grbgpu_settings.tune = tune ;
}

// Other semirings go to grbgpu's own kernels (kernels/gg_cuda.h).
void test_spmm_own_kernels (void **state)
{
    (void) state ;
    const gg_semiring srs [3] = {
        { GG_ADD_MIN, GG_MUL_PLUS, GG_FP64 },
        { GG_ADD_MAX, GG_MUL_TIMES, GG_FP32 },
        { GG_ADD_PLUS, GG_MUL_TIMES, GG_INT32 } } ;
    int ran = 0 ;
    for (int s = 0 ; s < 3 ; s++)
    {
        const gg_semiring *sr = &srs [s] ;
        int64_t m = 157, k = 111, n = 19 ;
        test_csr S = make_csr (m, k, 0.06, sr->type) ;
        double *Xv ;
        void *X = make_dense (k, n, sr->type, &Xv) ;
        void *Y = malloc ((size_t) (m * n) * 8) ;
        gg_csr Sv = view_csr (&S, false, NULL) ;
        gg_dense Xd = { .nrows = k, .ncols = n, .x = X } ;
        int rc = be->spmm (sr, &Sv, &Xd, Y) ;
        if (rc == GG_ERR_UNSUPPORTED)
        {
            print_message ("  own kernels: no kernel for add %d mul %d type "
                "%d (not built yet?)\n", sr->add, sr->mul, sr->type) ;
        }
        else
        {
            assert_int_equal (rc, GG_OK) ;
            assert_int_equal (check_spmm (sr, &S, false, Xv, n, Y), 0) ;
            ran++ ;
        }
        free_csr (&S) ; free (X) ; free (Xv) ; free (Y) ;
    }
    if (ran == 0) skip () ;
}

void test_spmm_edge_cases (void **state)
{
    (void) state ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
    test_csr S = make_csr (50, 40, 0.1, GG_FP32) ;
    double *Xv ;
    void *X = make_dense (40, 8, GG_FP32, &Xv) ;
    float Y [50 * 8] ;
    // 64-bit indices only: not this backend's case
    int64_t p64 [51] = { 0 } ;
    gg_csr S64 = { .nrows = 50, .ncols = 40, .nnz = 0, .p64 = p64,
        .i64 = p64, .x = S.x } ;
    gg_dense Xd = { .nrows = 40, .ncols = 8, .x = X } ;
    assert_int_equal (be->spmm (&sr, &S64, &Xd, Y), GG_ERR_UNSUPPORTED) ;
    // no entries: nothing to compute, nothing written
    int32_t p0 [51] = { 0 } ;
    gg_csr S0 = { .nrows = 50, .ncols = 40, .nnz = 0, .p32 = p0, .i32 = p0,
        .x = S.x } ;
    assert_int_equal (be->spmm (&sr, &S0, &Xd, Y), GG_OK) ;
    free_csr (&S) ; free (X) ; free (Xv) ;
}

// The push SpMV (kernels/spmv_push.cu, w = A' u with one atomic per entry,
// measured against the pull for GrB_vxm): every monoid's atomic (PLUS, MIN,
// MAX, TIMES through compare-and-swap), ignored operands, iso values, columns
// without entries (the identity), against a reference on the host.
void test_spmv_push (void **state)
{
    (void) state ;
    const gg_semiring srs [] = {
        { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 },
        { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 },
        { GG_ADD_MIN, GG_MUL_PLUS, GG_FP64 },
        { GG_ADD_MAX, GG_MUL_TIMES, GG_FP32 },
        { GG_ADD_MIN, GG_MUL_SECOND, GG_INT32 },
        { GG_ADD_PLUS, GG_MUL_PAIR, GG_FP64 },
        { GG_ADD_TIMES, GG_MUL_FIRST, GG_FP64 } } ;
    const int nsr = (int) (sizeof (srs) / sizeof (srs [0])) ;
    for (int s = 0 ; s < 2 * nsr ; s++)
    {
        const gg_semiring *sr = &srs [s % nsr] ;
        const bool iso = (s >= nsr) ;
        const gg_type t = sr->type ;
        const size_t es = (t == GG_FP32 || t == GG_INT32) ? 4 : 8 ;
        // the last 7 columns of A have no entries
        int64_t m = 203, k0 = 131 + 40 * (s % 3), k = k0 + 7 ;
        test_csr A = make_csr (m, k0, 0.05, t) ;
        if (iso) for (int64_t e = 0 ; e < A.nnz ; e++)
        {
            memcpy ((char *) A.x + e * es, A.x, es) ;
            A.v [e] = A.v [0] ;
        }
        double *uv ;
        void *u = make_dense (m, 1, t, &uv) ;
        void *w = malloc ((size_t) k * es) ;
        int32_t *dp, *di ;
        void *dx, *du, *dw ;
        assert_int_equal (cudaMalloc ((void **) &dp, (m + 1) * 4), cudaSuccess) ;
        assert_int_equal (cudaMalloc ((void **) &di, A.nnz * 4 + 4), cudaSuccess) ;
        assert_int_equal (cudaMalloc (&dx, A.nnz * es + 8), cudaSuccess) ;
        assert_int_equal (cudaMalloc (&du, m * es), cudaSuccess) ;
        assert_int_equal (cudaMalloc (&dw, k * es), cudaSuccess) ;
        cudaMemcpy (dp, A.p, (m + 1) * 4, cudaMemcpyHostToDevice) ;
        cudaMemcpy (di, A.i, A.nnz * 4, cudaMemcpyHostToDevice) ;
        cudaMemcpy (dx, A.x, A.nnz * es, cudaMemcpyHostToDevice) ;
        cudaMemcpy (du, u, m * es, cudaMemcpyHostToDevice) ;
        assert_int_equal (gg_cuda_spmv_push (sr, m, k, A.nnz, dp, di, dx, iso,
            du, dw, 0), GG_OK) ;
        assert_int_equal (cudaMemcpy (w, dw, k * es, cudaMemcpyDeviceToHost),
            cudaSuccess) ;
        // reference: w (j) = (+)_i mul (A (i,j), u (i)), the kernels' start
        // value if none (gg_identity)
        double *ref = malloc (k * sizeof (double)), *mag = calloc (k, sizeof (double)) ;
        bool *has = calloc (k, sizeof (bool)) ;
        for (int64_t r = 0 ; r < m ; r++)
            for (int32_t e = A.p [r] ; e < A.p [r+1] ; e++)
            {
                int32_t j = A.i [e] ;
                double z = mul_ref (sr->mul, A.v [e], uv [r]) ;
                ref [j] = has [j] ? add_ref (sr->add, ref [j], z) : z ;
                mag [j] += fabs (z) ;
                has [j] = true ;
            }
        int bad = 0 ;
        for (int64_t j = 0 ; j < k ; j++)
        {
            double g = get (w, (size_t) j, t) ;
            double want ;
            if (has [j]) want = ref [j] ;
            else if (sr->add == GG_ADD_PLUS) want = 0 ;
            else if (sr->add == GG_ADD_TIMES) want = 1 ;
            else if (t == GG_INT32) want = (sr->add == GG_ADD_MIN) ? INT32_MAX : INT32_MIN ;
            else want = NAN ;   // FP MIN / MAX start from NaN (neutral for NaN terms too)
            double tol = (sr->add == GG_ADD_PLUS) ? (t == GG_FP32 ? 1e-5 : 1e-12) * mag [j] + 1e-30
                : (sr->add == GG_ADD_TIMES) ? 1e-12 * fabs (want)
                : (t == GG_FP32) ? 1e-6 * fabs (want) : 0 ;
            if (!(g == want || fabs (g - want) <= tol || (isnan (g) && isnan (want))))
            {
                if (bad++ < 3) print_message ("  push %d: w (%lld) = %g, want %g\n",
                    s, (long long) j, g, want) ;
            }
        }
        assert_int_equal (bad, 0) ;
        cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ; cudaFree (du) ; cudaFree (dw) ;
        free (ref) ; free (mag) ; free (has) ; free (u) ; free (uv) ; free (w) ;
        free_csr (&A) ;
    }
}

// SpMV through the hot/cold kernel (GRBGPU_KERNEL=hot), on a matrix whose
// columns are skewed (a few hold most entries) with a hub row and empty rows:
// the form is made at the first call and reused by the second, for a
// semiring with a fast path, one that never reads S's values, one without a
// fast path and an integer one (which may fall back to the other kernels).
static test_csr make_skewed_csr (int64_t m, int64_t k, gg_type t)
{
    test_csr S = { .m = m, .k = k } ;
    size_t cap = (size_t) (m * 24 + k) ;
    S.p = malloc ((m + 1) * sizeof (int32_t)) ;
    S.i = malloc (cap * sizeof (int32_t)) ;
    S.v = malloc (cap * sizeof (double)) ;
    S.x = malloc (cap * 8) ;
    char *seen = calloc ((size_t) k, 1) ;
    S.p [0] = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        int64_t len = (r % 5 == 2) ? 0 : (r == 7) ? k / 2 : 1 + (int64_t) (rng () % 33) ;
        int64_t start = S.nnz ;
        for (int64_t q = 0 ; q < len ; q++)
        {
            double u = (double) (rng () >> 11) / 9007199254740992.0 ;
            int32_t c = (int32_t) ((double) k * u * u * u) ;
            if (seen [c]) continue ;
            seen [c] = 1 ;
            double v = rnd_value () ;
            if (t == GG_INT32) v = (double) (int) (v * 8) + 1 ;
            S.i [S.nnz] = c ;
            put (S.x, (size_t) S.nnz, t, v) ;
            S.v [S.nnz] = get (S.x, (size_t) S.nnz, t) ;
            S.nnz++ ;
        }
        for (int64_t q = start ; q < S.nnz ; q++) seen [S.i [q]] = 0 ;
        // sorted within the row
        for (int64_t a = start + 1 ; a < S.nnz ; a++)
            for (int64_t b = a ; b > start && S.i [b-1] > S.i [b] ; b--)
            {
                int32_t ti = S.i [b] ; S.i [b] = S.i [b-1] ; S.i [b-1] = ti ;
                double tv = S.v [b] ; S.v [b] = S.v [b-1] ; S.v [b-1] = tv ;
                put (S.x, (size_t) b, t, S.v [b]) ;
                put (S.x, (size_t) b - 1, t, S.v [b-1]) ;
            }
        S.p [r+1] = (int32_t) S.nnz ;
    }
    free (seen) ;
    return S ;
}

// SpMV on a skewed matrix with GRBGPU_KERNEL = kernel, for each semiring s
// of srs on an m (s) x k (s) matrix (m0 + dm s, k0 + dk s), twice (the form
// made, then reused): both calls must be right.
static void forced_spmv_cases (const char *kernel, const gg_semiring *srs,
    int nsr, int64_t m0, int64_t dm, int64_t k0, int64_t dk)
{
    set_kernel (kernel) ;
    for (int s = 0 ; s < nsr ; s++)
    {
        const gg_semiring *sr = &srs [s] ;
        int64_t m = m0 + dm * s, k = k0 + dk * s ;
        test_csr S = make_skewed_csr (m, k, sr->type) ;
        double *Xv ;
        void *X = make_dense (k, 1, sr->type, &Xv) ;
        void *Y = malloc ((size_t) m * 8) ;
        int64_t max_row = 0 ;
        for (int64_t r = 0 ; r < m ; r++)
            if (S.p [r+1] - S.p [r] > max_row) max_row = S.p [r+1] - S.p [r] ;
        gg_csr Sv = view_csr (&S, false, make_entry ()) ;
        Sv.max_row = max_row ;
        if (sr->mul == GG_MUL_SECOND) Sv.x = NULL ;
        gg_dense Xd = { .nrows = k, .ncols = 1, .x = X } ;
        for (int call = 0 ; call < 2 ; call++)
        {
            memset (Y, 0x7f, (size_t) m * 8) ;
            assert_int_equal (be->spmm (sr, &Sv, &Xd, Y), GG_OK) ;
            int bad = check_spmm (sr, &S, false, Xv, 1, Y) ;
            if (bad) print_message ("  %s SpMV semiring %d call %d: %d wrong\n",
                kernel, s, call, bad) ;
            assert_int_equal (bad, 0) ;
        }
        grbgpu_cache_release ((gg_cache_entry *) Sv.cache) ;
        free_csr (&S) ; free (X) ; free (Xv) ; free (Y) ;
    }
    set_kernel ("") ;
}

void test_spmv_hot (void **state)
{
    (void) state ;
    const gg_semiring srs [] = {
        { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 },
        { GG_ADD_PLUS, GG_MUL_SECOND, GG_FP32 },
        { GG_ADD_MIN, GG_MUL_PLUS, GG_FP64 },
        { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 },
        { GG_ADD_MAX, GG_MUL_TIMES, GG_INT32 } } ;
    forced_spmv_cases ("hot", srs, (int) (sizeof (srs) / sizeof (srs [0])), 4001, 0, 3001, 1000) ;
}

// The band SpMV through the backend (GRBGPU_KERNEL=band: every band with
// entries kept, whatever the share): 4-byte types run it, the others (FP64)
// must answer through the other kernels.
void test_spmv_band (void **state)
{
    (void) state ;
    const gg_semiring srs [] = {
        { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 },
        { GG_ADD_PLUS, GG_MUL_SECOND, GG_FP32 },
        { GG_ADD_MIN, GG_MUL_PLUS, GG_FP32 },
        { GG_ADD_MAX, GG_MUL_TIMES, GG_INT32 },
        { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 } } ;
    forced_spmv_cases ("band", srs, (int) (sizeof (srs) / sizeof (srs [0])), 3001, 500, 4001, 0) ;
}
