//------------------------------------------------------------------------------
// tests/test_cuda_backend.c: the CUDA backend through the gg_backend interface
//------------------------------------------------------------------------------

// Drives grbgpu_cuda_backend ()->spmm / sddmm / gemm directly (backend/cuda/
// is linked into this program: its symbols are hidden in the library) on fresh
// random operands and compares with a plain C reference computed here, for the
// plus-times family over FP32 / FP64 (TIMES, FIRST, SECOND, PAIR, iso values,
// n == 1 SpMV, every cuSPARSE SpMM algorithm), the own-kernel path, the device
// cache (a second call with the same entry uploads nothing), eviction under a
// tiny device budget, fault injection (an error code, nothing leaked), threads
// sharing one cached operand, a forked child, and the kernel-family rows
// (tensor cores, N:M).  GRBGPU_TEST_FILTER (a CMocka pattern) runs some only.
//
// Tolerance: |gpu - ref| <= tol * sum |terms| + tiny, tol = 1e-5 (FP32) or
// 1e-12 (FP64): sums may be reordered, products must be exact.
// Exit 77 (skip) when no CUDA device is usable.

#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "backend/grbgpu_internal.h"
#include "backend/cache/cache.h"
#include "backend/cuda/device.h"
#include "formats/convert.h"
#include "kernels/gg_cuda.h"

//------------------------------------------------------------------------------
// random operands and the reference
//------------------------------------------------------------------------------

static uint64_t rng_state = 0x9e3779b97f4a7c15ull ;

static uint64_t rng (void)
{
    // xorshift64*
    rng_state ^= rng_state >> 12 ;
    rng_state ^= rng_state << 25 ;
    rng_state ^= rng_state >> 27 ;
    return rng_state * 0x2545f4914f6cdd1dull ;
}

// uniform in [-1, 1), never exactly 0
static double rnd_value (void)
{
    double v = (double) (rng () >> 11) / 9007199254740992.0 * 2 - 1 ;
    return (v == 0) ? 0.5 : v ;
}

typedef struct
{
    int64_t m, k, nnz ;
    int32_t *p, *i ;
    double *v ;             // values as doubles (reference)
    void *x ;               // values in the test type
}
test_csr ;

static void put (void *a, size_t k, gg_type t, double v)
{
    if (t == GG_FP32) ((float *) a) [k] = (float) v ;
    else if (t == GG_FP64) ((double *) a) [k] = v ;
    else if (t == GG_INT32) ((int32_t *) a) [k] = (int32_t) v ;
}

static double get (const void *a, size_t k, gg_type t)
{
    if (t == GG_FP32) return ((const float *) a) [k] ;
    if (t == GG_FP64) return ((const double *) a) [k] ;
    return ((const int32_t *) a) [k] ;
}

// A random m x k CSR with about `density` of its entries present, sorted
// within rows; every 7th row is empty.  Integer types get small integers.
static test_csr make_csr (int64_t m, int64_t k, double density, gg_type t)
{
    test_csr S = { .m = m, .k = k } ;
    S.p = malloc ((m + 1) * sizeof (int32_t)) ;
    size_t cap = (size_t) (m * k * density * 1.5) + 16 ;
    S.i = malloc (cap * sizeof (int32_t)) ;
    S.v = malloc (cap * sizeof (double)) ;
    S.x = malloc (cap * 8) ;
    S.p [0] = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        if (r % 7 != 3)
        {
            for (int64_t c = 0 ; c < k && (size_t) S.nnz < cap ; c++)
            {
                if ((double) (rng () % 1000000) < density * 1e6)
                {
                    double v = rnd_value () ;
                    if (t == GG_INT32) v = (double) (int) (v * 8) + 1 ;
                    S.i [S.nnz] = (int32_t) c ;
                    put (S.x, (size_t) S.nnz, t, v) ;
                    S.v [S.nnz] = get (S.x, (size_t) S.nnz, t) ;
                    S.nnz++ ;
                }
            }
        }
        S.p [r+1] = (int32_t) S.nnz ;
    }
    return S ;
}

static void free_csr (test_csr *S)
{
    free (S->p) ; free (S->i) ; free (S->v) ; free (S->x) ;
}

// A random rows x cols dense array in type t (values also as doubles).
static void *make_dense (int64_t rows, int64_t cols, gg_type t, double **dv)
{
    size_t n = (size_t) (rows * cols) ;
    void *a = malloc (n * 8 + 8) ;
    *dv = malloc (n * sizeof (double) + 8) ;
    for (size_t q = 0 ; q < n ; q++)
    {
        double v = rnd_value () ;
        if (t == GG_INT32) v = (double) (int) (v * 8) + 1 ;
        put (a, q, t, v) ;
        (*dv) [q] = get (a, q, t) ;
    }
    return a ;
}

static double mul_ref (gg_mul mul, double s, double x)
{
    switch (mul)
    {
        case GG_MUL_TIMES  : return s * x ;
        case GG_MUL_FIRST  : return s ;
        case GG_MUL_SECOND : return x ;
        case GG_MUL_PAIR   : return 1 ;
        case GG_MUL_PLUS   : return s + x ;
        case GG_MUL_MIN    : return fmin (s, x) ;
        case GG_MUL_MAX    : return fmax (s, x) ;
        default            : return NAN ;
    }
}

static double add_ref (gg_add add, double a, double b)
{
    switch (add)
    {
        case GG_ADD_PLUS  : return a + b ;
        case GG_ADD_TIMES : return a * b ;
        case GG_ADD_MIN   : return fmin (a, b) ;
        case GG_ADD_MAX   : return fmax (a, b) ;
        default           : return NAN ;
    }
}

static double tol_of (gg_type t)
{
    return (t == GG_FP32) ? 1e-5 : (t == GG_FP64) ? 1e-12 : 0 ;
}

// Compare one value: got vs want, with `mag` = sum of |terms|.
static bool close_enough (double got, double want, double mag, gg_type t)
{
    // a non-finite answer is exact: the same infinity, or a NaN
    if (!isfinite (want)) return (isnan (want) && isnan (got)) || got == want ;
    return fabs (got - want) <= tol_of (t) * mag + 1e-30 ;
}

static gg_csr view_csr (const test_csr *S, bool iso, void *cache)
{
    gg_csr v = { .nrows = S->m, .ncols = S->k, .nnz = S->nnz, .p32 = S->p,
        .i32 = S->i, .x = S->x, .iso = iso, .cache = cache } ;
    return v ;
}

// Check Y = S (+.*) X against the reference; rows of S without entries are
// not compared (the backend may leave them unwritten).  Returns mismatches.
static int check_spmm (const gg_semiring *sr, const test_csr *S, bool iso,
    const double *X, int64_t n, const void *Y)
{
    int bad = 0 ;
    for (int64_t r = 0 ; r < S->m ; r++)
    {
        if (S->p [r] == S->p [r+1]) continue ;
        for (int64_t j = 0 ; j < n ; j++)
        {
            double acc = 0, mag = 0 ;
            for (int32_t q = S->p [r] ; q < S->p [r+1] ; q++)
            {
                double s = iso ? S->v [0] : S->v [q] ;
                double term = mul_ref (sr->mul, s, X [S->i [q] * n + j]) ;
                acc = (q == S->p [r]) ? term : add_ref (sr->add, acc, term) ;
                // (a NaN or Inf term the monoid drops, as MIN drops NaN,
                // must not turn the tolerance into NaN or Inf)
                if (isfinite (term)) mag += fabs (term) ;
            }
            double got = get (Y, (size_t) (r * n + j), sr->type) ;
            if (!close_enough (got, acc, mag, sr->type))
            {
                if (bad++ < 3) print_message ("  Y(%ld,%ld) = %.17g, want "
                    "%.17g\n", (long) r, (long) j, got, acc) ;
            }
        }
    }
    return bad ;
}

//------------------------------------------------------------------------------
// fixtures and helpers
//------------------------------------------------------------------------------

static const gg_backend *be ;

static uint64_t h2d_bytes (void)
{
    grbgpu_stats s ;
    grbgpu_stats_get (&s) ;
    return s.bytes_h2d ;
}

// Device memory in use from the stream-ordered pool (all of this backend's
// device memory comes from it).
static size_t pool_used (void)
{
    cudaMemPool_t pool ;
    int dev = grbgpu_settings.device_id ;
    uint64_t used = 0 ;
    grbgpu_cuda_sync () ;
    cudaDeviceSynchronize () ;
    assert_int_equal (cudaDeviceGetDefaultMemPool (&pool, dev), cudaSuccess) ;
    assert_int_equal (cudaMemPoolGetAttribute (pool,
        cudaMemPoolAttrUsedMemCurrent, &used), cudaSuccess) ;
    return (size_t) used ;
}

static uint64_t next_handle = 1 ;
static GrB_Matrix handles [256] ;
static int nhandles = 0 ;

// A fresh cache entry (acquired) standing for a matrix: the key is a real
// GrB_Matrix handle with its current version, so the cache links the entry
// (a made-up handle has version 0 and would never be linked).
static gg_cache_entry *make_entry (void)
{
    gg_cache_key key = { .form = 77 } ;
    GrB_Matrix h = NULL ;
    if (nhandles < 256 && GrB_Matrix_new (&h, GrB_BOOL, 1, 1) == GrB_SUCCESS)
    {
        handles [nhandles++] = h ;
        key.handle = h ;
        key.version = grbgpu_objver_get (h) ;
    }
    if (key.version == 0)
    {
        key.handle = (const void *) (uintptr_t) (0x1000 * next_handle++) ;
        key.version = 1 ;
    }
    void *payload = malloc (16) ;
    gg_cache_entry *e = grbgpu_cache_insert (&key, payload, 16, free) ;
    assert_non_null (e) ;
    return e ;
}

static void set_kernel (const char *name)
{
    snprintf (grbgpu_settings.kernel, sizeof (grbgpu_settings.kernel), "%s",
        name) ;
}

//------------------------------------------------------------------------------
// SpMM / SpMV, the plus-times family
//------------------------------------------------------------------------------

// the family that ran this thread's last SpMM (backend/cuda/family.h)
const char *gg_spmm_last_family (void) ;

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
static test_csr make_windowed_csr (int64_t m, int64_t k, int cols, gg_type t)
{
    test_csr S = { .m = m, .k = k } ;
    size_t cap = (size_t) m * (size_t) (cols + 4) + 16 ;
    S.p = malloc ((m + 1) * sizeof (int32_t)) ;
    S.i = malloc (cap * sizeof (int32_t)) ;
    S.v = malloc (cap * sizeof (double)) ;
    S.x = malloc (cap * 8) ;
    int32_t *wc = malloc ((size_t) cols * sizeof (int32_t)) ;
    char *mark = calloc ((size_t) k, 1) ;
    S.p [0] = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        if (r % 8 == 0) for (int q = 0 ; q < cols ; q++) wc [q] = (int32_t) (rng () % (uint64_t) k) ;
        for (int q = 0 ; q < cols ; q++) if (rng () % 10 < 6) mark [wc [q]] = 1 ;
        for (int q = 0 ; q < 3 ; q++) mark [rng () % (uint64_t) k] = 1 ;
        for (int64_t c = 0 ; c < k ; c++)
        {
            if (!mark [c]) continue ;
            mark [c] = 0 ;
            put (S.x, (size_t) S.nnz, t, rnd_value ()) ;
            S.v [S.nnz] = get (S.x, (size_t) S.nnz, t) ;
            S.i [S.nnz++] = (int32_t) c ;
        }
        S.p [r+1] = (int32_t) S.nnz ;
    }
    free (wc) ; free (mark) ;
    return S ;
}

// The tensor-core rows (backend/cuda/family_tc.c) through the backend:
// forced (GRBGPU_KERNEL=tc3 / tc4 / tc3f / tc4f / tc3r: the last on S's
// rows reordered) they run where S and X hold finite normal
// values, FP32 and FP64, and give the reference's values; a zero in X, an
// Inf in S or a semiring they do not take send the product elsewhere, still
// right; with the chooser measuring, every family is timed and the product
// is right whichever wins.
static void test_tc_family (void **state)
{
    (void) state ;
    const char *kernels [5] = { "tc3", "tc4", "tc3f", "tc4f", "tc3r" } ;
    const int64_t ns [4] = { 1, 5, 32, 130 } ;
    for (int ti = 0 ; ti < 2 ; ti++)
    {
        gg_type t = ti ? GG_FP64 : GG_FP32 ;
        gg_semiring sr = { .add = GG_ADD_PLUS, .mul = GG_MUL_TIMES, .type = t } ;
        for (int kv = 0 ; kv < 5 ; kv++)
        {
            test_csr S = make_windowed_csr (1003, 517, 12, t) ;
            gg_csr Sv = view_csr (&S, false, make_entry ()) ;
            for (int ni = 0 ; ni < 4 ; ni++)
            {
                const int64_t n = ns [ni] ;
                double *Xv ;
                void *X = make_dense (S.k, n, t, &Xv) ;
                void *Y = malloc ((size_t) (S.m * n) * 8) ;
                gg_dense Xd = { .nrows = S.k, .ncols = n, .x = X } ;
                for (int variant = 0 ; variant < 3 ; variant++)
                {
                    // 0: plain values; 1: one +0 in X; 2: an Inf in S (a
                    // copy of S: the cached form keeps the first's values)
                    test_csr S2 = S ;
                    gg_csr Sv2 = Sv ;
                    double keep = 0 ;
                    if (variant == 1) { keep = Xv [7] ; put (X, 7, t, 0.0) ; Xv [7] = 0 ; }
                    if (variant == 2)
                    {
                        S2.x = malloc ((size_t) S.nnz * 8 + 8) ;
                        S2.v = malloc ((size_t) S.nnz * sizeof (double) + 8) ;
                        memcpy (S2.x, S.x, (size_t) S.nnz * 8) ;
                        memcpy (S2.v, S.v, (size_t) S.nnz * sizeof (double)) ;
                        put (S2.x, 11, t, INFINITY) ; S2.v [11] = INFINITY ;
                        Sv2 = view_csr (&S2, false, make_entry ()) ;
                    }
                    set_kernel (kernels [kv]) ;
                    memset (Y, 0x7f, (size_t) (S.m * n) * 8) ;
                    assert_int_equal (be->spmm (&sr, &Sv2, &Xd, Y), GG_OK) ;
                    const char *fam = gg_spmm_last_family () ;
                    int bad = check_spmm (&sr, &S2, false, Xv, n, Y) ;
                    if (bad || (variant == 0) != (strcmp (fam, kernels [kv]) == 0))
                        print_message ("  tc %s type %d n %ld case %d: ran %s, %d wrong\n",
                            kernels [kv], t, (long) n, variant, fam, bad) ;
                    assert_int_equal (bad, 0) ;
                    if (variant == 0) assert_string_equal (fam, kernels [kv]) ;
                    else assert_string_not_equal (fam, kernels [kv]) ;
                    set_kernel ("") ;
                    if (variant == 1) { put (X, 7, t, keep) ; Xv [7] = keep ; }
                    if (variant == 2)
                    {
                        grbgpu_cache_release ((gg_cache_entry *) Sv2.cache) ;
                        free (S2.x) ; free (S2.v) ;
                    }
                }
                free (X) ; free (Xv) ; free (Y) ;
            }
            // a semiring the rows do not take: declined, right
            {
                gg_semiring mp = { .add = GG_ADD_MIN, .mul = GG_MUL_PLUS, .type = t } ;
                double *Xv ;
                void *X = make_dense (S.k, 8, t, &Xv) ;
                void *Y = malloc ((size_t) (S.m * 8) * 8) ;
                gg_dense Xd = { .nrows = S.k, .ncols = 8, .x = X } ;
                set_kernel (kernels [kv]) ;
                assert_int_equal (be->spmm (&mp, &Sv, &Xd, Y), GG_OK) ;
                assert_string_not_equal (gg_spmm_last_family (), kernels [kv]) ;
                assert_int_equal (check_spmm (&mp, &S, false, Xv, 8, Y), 0) ;
                set_kernel ("") ;
                free (X) ; free (Xv) ; free (Y) ;
            }
            grbgpu_cache_release ((gg_cache_entry *) Sv.cache) ;
            free_csr (&S) ;
        }
        // the chooser measures every family, the tensor-core rows among them
        // (enough work: about 150K entries x 32 columns)
        test_csr S = make_windowed_csr (20000, 4001, 12, t) ;
        gg_csr Sv = view_csr (&S, false, make_entry ()) ;
        double *Xv ;
        void *X = make_dense (S.k, 32, t, &Xv) ;
        void *Y = malloc ((size_t) (S.m * 32) * 8) ;
        gg_dense Xd = { .nrows = S.k, .ncols = 32, .x = X } ;
        for (int call = 0 ; call < 2 ; call++)
        {
            memset (Y, 0x7f, (size_t) (S.m * 32) * 8) ;
            assert_int_equal (be->spmm (&sr, &Sv, &Xd, Y), GG_OK) ;
            print_message ("  tuned, type %d, call %d: %s\n", t, call, gg_spmm_last_family ()) ;
            assert_int_equal (check_spmm (&sr, &S, false, Xv, 32, Y), 0) ;
        }
        grbgpu_cache_release ((gg_cache_entry *) Sv.cache) ;
        free_csr (&S) ; free (X) ; free (Xv) ; free (Y) ;
    }
}

// An m x k CSR that is N:M along its rows (every group of M consecutive
// columns holds at most N entries: N in most groups, fewer in some, none in
// every 7th row); extra > 0 fills every group of row 1 and puts one more
// entry into its second group (a near-miss: with N = M/2 no supported pair
// holds, at any group size).
// extra < 0: vector-wise, blocks of 8 rows share their positions (all
// groups full, no empty rows): the kernel's shared-index layout, and its
// packed X tiles from 75 % sparsity.
static test_csr make_nm_csr (int64_t m, int64_t k, int N, int M, gg_type t,
    int extra)
{
    test_csr S = { .m = m, .k = k } ;
    size_t cap = (size_t) m * (size_t) ((k + M - 1) / M) * (size_t) N + 16 ;
    S.p = malloc ((m + 1) * sizeof (int32_t)) ;
    S.i = malloc (cap * sizeof (int32_t)) ;
    S.v = malloc (cap * sizeof (double)) ;
    S.x = malloc (cap * 8) ;
    S.p [0] = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        for (int64_t g0 = 0 ; (extra < 0 || r % 7 != 3) && g0 < k ; g0 += M)
        {
            // (vector-wise: the block's own stream of positions)
            uint64_t keep = rng_state ;
            if (extra < 0) rng_state = 0x9e3779b97f4a7c15ull ^ (uint64_t) ((r / 8) * k + g0 + 1) ;
            int take = (extra == 0 && rng () % 8 == 0) ? N - 1 : N ;
            if (extra > 0 && r == 1 && g0 == M) take = N + 1 ;
            char pick [32] = { 0 } ;
            int have = 0 ;
            const int width = (int) ((k - g0 < M) ? k - g0 : M) ;
            if (take > width) take = width ;
            while (have < take)
            {
                int q = (int) (rng () % (uint64_t) width) ;
                if (!pick [q]) { pick [q] = 1 ; have++ ; }
            }
            if (extra < 0) rng_state = keep ;
            for (int q = 0 ; q < width ; q++)
            {
                if (!pick [q]) continue ;
                put (S.x, (size_t) S.nnz, t, rnd_value ()) ;
                S.v [S.nnz] = get (S.x, (size_t) S.nnz, t) ;
                S.i [S.nnz++] = (int32_t) (g0 + q) ;
            }
        }
        S.p [r+1] = (int32_t) S.nnz ;
    }
    return S ;
}

// The CSR of S' (k x m), values as in S (formats/csr_t.c's transpose): how
// the dispatcher hands S by its transpose's arrays (gg_csr.transposed), e.g.
// W held by row in GrB_mxm (Y, X, W).
static test_csr transpose_test_csr (const test_csr *S, gg_type t)
{
    test_csr T = { .m = S->k, .k = S->m, .nnz = S->nnz } ;
    assert_int_equal (gg_csr32_transpose (S->m, S->k, S->nnz, S->p, S->i, S->x,
        gg_type_size (t), &T.p, &T.i, &T.x), GG_OK) ;
    T.v = malloc ((size_t) (S->nnz + 1) * sizeof (double)) ;
    assert_non_null (T.v) ;
    for (int64_t q = 0 ; q < T.nnz ; q++) T.v [q] = get (T.x, (size_t) q, t) ;
    return T ;
}

// The N:M row (backend/cuda/family_nm.c): forced (GRBGPU_KERNEL=nm) on 2:4,
// 1:4 and 1:8 matrices, FP32 and FP64, it runs and gives the reference's
// values (an Inf and a NaN in X included; an iso S too; a vector-wise S,
// which takes the shared-index layout; S given by its transpose's arrays,
// as GrB_mxm (Y, X, W) with W held by row arrives); a near-miss (M/2:M
// with one group holding one entry too many) and a semiring it does not take go
// elsewhere, still right; with the chooser measuring (a cached S, enough
// work) the product is right whichever row wins (printed).
static void test_nm_family (void **state)
{
    (void) state ;
    static const int pairs [3][2] = { { 2, 4 }, { 1, 4 }, { 1, 8 } } ;
    const int64_t ns [4] = { 1, 5, 64, 130 } ;
    // the row runs only with GRBGPU_NM=1 (backend/cuda/family_nm.c)
    const bool nm_on = grbgpu_settings_get ()->nm ;
    for (int ti = 0 ; ti < 2 ; ti++)
    {
        gg_type t = ti ? GG_FP64 : GG_FP32 ;
        gg_semiring sr = { .add = GG_ADD_PLUS, .mul = GG_MUL_TIMES, .type = t } ;
        for (int pi = 0 ; pi < 3 ; pi++)
        {
            const int N = pairs [pi][0], M = pairs [pi][1] ;
            test_csr S = make_nm_csr (301, 517, N, M, t, 0) ;
            test_csr B = make_nm_csr (301, 517, M / 2, M, t, 1) ;
            gg_csr Sv = view_csr (&S, false, make_entry ()) ;
            gg_csr Bv = view_csr (&B, false, make_entry ()) ;
            gg_csr Iv = view_csr (&S, true, NULL) ;
            test_csr W = make_nm_csr (301, 517, N, M, t, -1) ;
            gg_csr Wv = view_csr (&W, false, make_entry ()) ;
            // S by its transpose's arrays (the N:M groups then run down
            // their columns)
            test_csr St = transpose_test_csr (&S, t) ;
            gg_csr Tsv = { .nrows = S.m, .ncols = S.k, .nnz = S.nnz, .p32 = St.p,
                .i32 = St.i, .x = St.x, .max_row = -1, .transposed = true,
                .cache = make_entry () } ;
            for (int ni = 0 ; ni < 4 ; ni++)
            {
                const int64_t n = ns [ni] ;
                double *Xv ;
                void *X = make_dense (S.k, n, t, &Xv) ;
                void *Y = malloc ((size_t) (S.m * n) * 8) ;
                gg_dense Xd = { .nrows = S.k, .ncols = n, .x = X } ;
                if (ni == 2)
                {
                    put (X, 3 * n + 1, t, INFINITY) ; Xv [3 * n + 1] = INFINITY ;
                    put (X, 40 * n + 2, t, NAN) ; Xv [40 * n + 2] = NAN ;
                }
                set_kernel ("nm") ;
                for (int which = 0 ; which < 5 ; which++)
                {
                    // 0: N:M, 1: the near-miss, 2: S iso (not cached), 3:
                    // vector-wise N:M, 4: S by its transpose's arrays
                    const gg_csr *v = (which == 0) ? &Sv : (which == 1) ? &Bv
                        : (which == 2) ? &Iv : (which == 3) ? &Wv : &Tsv ;
                    const test_csr *ref = (which == 1) ? &B : (which == 3) ? &W : &S ;
                    memset (Y, 0x7f, (size_t) (S.m * n) * 8) ;
                    assert_int_equal (be->spmm (&sr, v, &Xd, Y), GG_OK) ;
                    const char *fam = gg_spmm_last_family () ;
                    int bad = check_spmm (&sr, ref, which == 2, Xv, n, Y) ;
                    if (bad || (which != 1 && nm_on) != (strcmp (fam, "nm") == 0))
                        print_message ("  nm %d:%d type %d n %ld case %d: ran %s, %d wrong\n",
                            N, M, t, (long) n, which, fam, bad) ;
                    assert_int_equal (bad, 0) ;
                    // (with the row off every case declines it and is right)
                    if (which != 1 && nm_on) assert_string_equal (fam, "nm") ;
                    else assert_string_not_equal (fam, "nm") ;
                }
                // a semiring the row does not take: declined, right
                gg_semiring mp = { .add = GG_ADD_MIN, .mul = GG_MUL_PLUS, .type = t } ;
                assert_int_equal (be->spmm (&mp, &Sv, &Xd, Y), GG_OK) ;
                assert_string_not_equal (gg_spmm_last_family (), "nm") ;
                assert_int_equal (check_spmm (&mp, &S, false, Xv, n, Y), 0) ;
                set_kernel ("") ;
                free (X) ; free (Xv) ; free (Y) ;
            }
            grbgpu_cache_release ((gg_cache_entry *) Sv.cache) ;
            grbgpu_cache_release ((gg_cache_entry *) Bv.cache) ;
            grbgpu_cache_release ((gg_cache_entry *) Wv.cache) ;
            grbgpu_cache_release ((gg_cache_entry *) Tsv.cache) ;
            free_csr (&S) ; free_csr (&B) ; free_csr (&W) ; free_csr (&St) ;

            // the chooser measures every row, nm among them (a cached S,
            // about 300K-1M entries x 64 columns)
            test_csr T = make_nm_csr (2048, 1024, N, M, t, 0) ;
            gg_csr Tv = view_csr (&T, false, make_entry ()) ;
            double *Xv ;
            void *X = make_dense (T.k, 64, t, &Xv) ;
            void *Y = malloc ((size_t) (T.m * 64) * 8) ;
            gg_dense Xd = { .nrows = T.k, .ncols = 64, .x = X } ;
            for (int call = 0 ; call < 2 ; call++)
            {
                memset (Y, 0x7f, (size_t) (T.m * 64) * 8) ;
                assert_int_equal (be->spmm (&sr, &Tv, &Xd, Y), GG_OK) ;
                print_message ("  nm %d:%d tuned, type %d, call %d: %s\n", N, M, t, call,
                    gg_spmm_last_family ()) ;
                assert_int_equal (check_spmm (&sr, &T, false, Xv, 64, Y), 0) ;
            }
            grbgpu_cache_release ((gg_cache_entry *) Tv.cache) ;
            free_csr (&T) ; free (X) ; free (Xv) ; free (Y) ;
        }
    }
}

static void test_spmm_plus_times (void **state)
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
static void test_spmm_algorithms (void **state)
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
static void test_spmm_tuned (void **state)
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
static void test_spmm_own_kernels (void **state)
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

static void test_spmm_edge_cases (void **state)
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
static void test_spmv_push (void **state)
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

static void test_spmv_hot (void **state)
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
static void test_spmv_band (void **state)
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

//------------------------------------------------------------------------------
// SDDMM and GEMM
//------------------------------------------------------------------------------

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
// TIMES), "cusparse" (cusparseSDDMM for TIMES), "g8" (the own kernel).
static void test_sddmm (void **state)
{
    (void) state ;
    const gg_mul muls [4] = { GG_MUL_TIMES, GG_MUL_FIRST, GG_MUL_SECOND,
        GG_MUL_PAIR } ;
    const int64_t ks [3] = { 1, 16, 33 } ;
    const char *kernels [3] = { "", "cusparse", "g8" } ;
    for (int ki2 = 0 ; ki2 < 3 ; ki2++)
    for (int ti = 0 ; ti < 2 ; ti++)
    for (int mi = 0 ; mi < 4 ; mi++)
    for (int ki = 0 ; ki < 3 ; ki++)
    {
        assert_int_equal (sddmm_case (ti ? GG_FP64 : GG_FP32, muls [mi], 211,
            150, ks [ki], 0.04, kernels [ki2], false, 1), 0) ;
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
static void test_gemm (void **state)
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
static void test_dense_tuned (void **state)
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
static void test_cache_reuse (void **state)
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
static void test_cache_eviction (void **state)
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

//------------------------------------------------------------------------------
// fault injection
//------------------------------------------------------------------------------

static int configure_fault (const char *point, const char *p)
{
    char spec [64] ;
    snprintf (spec, sizeof (spec), "%s:%s", point, p) ;
    return grbgpu_fault_configure (spec) ;
}

// Every failure point: the call returns an error code, and no device memory
// stays taken (the cache is cleared, so the pool's use returns to where it
// was).  At a 30% fault rate, every call either fails or is right.
static void test_faults (void **state)
{
    (void) state ;
    const char *points [3] = { "alloc", "copy", "launch" } ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
    int64_t m = 500, k = 400, n = 16 ;
    test_csr S = make_csr (m, k, 0.03, GG_FP32) ;
    double *Xv ;
    void *X = make_dense (k, n, GG_FP32, &Xv) ;
    float *Y = malloc ((size_t) (m * n) * sizeof (float)) ;
    float *y = malloc ((size_t) S.nnz * sizeof (float) + 4) ;
    gg_dense Xd = { .nrows = k, .ncols = n, .x = X } ;
    grbgpu_cache_clear () ;
    size_t base = pool_used () ;
    for (int pt = 0 ; pt < 3 ; pt++)
    {
        assert_int_equal (configure_fault (points [pt], "1"), 0) ;
        gg_cache_entry *e = make_entry () ;
        gg_csr Sv = view_csr (&S, false, e) ;
        int rc = be->spmm (&sr, &Sv, &Xd, Y) ;
        assert_int_equal (rc, GG_ERR_FAULT) ;
        // M = S's pattern (m x k), A: m x n (Y's memory), B = X (k x n)
        memset (Y, 0, (size_t) (m * n) * sizeof (float)) ;
        gg_dense Ad = { .nrows = m, .ncols = n, .x = Y } ;
        rc = be->sddmm (&sr, &Sv, &Ad, &Xd, y) ;
        assert_true (rc != GG_OK) ;
        gg_dense A = { .nrows = 20, .ncols = 10, .x = X } ;
        rc = be->gemm (&sr, &A, &A, Y) ;
        assert_true (rc != GG_OK) ;
        assert_int_equal (grbgpu_fault_configure (""), 0) ;
        grbgpu_cache_release (e) ;
        grbgpu_cache_clear () ;
        assert_int_equal (pool_used (), base) ;

        // a fraction: right or an error, never wrong
        assert_int_equal (configure_fault (points [pt], "0.3"), 0) ;
        int ok = 0 ;
        for (int r = 0 ; r < 20 ; r++)
        {
            gg_cache_entry *e2 = (r % 2) ? make_entry () : NULL ;
            gg_csr Sv2 = view_csr (&S, false, e2) ;
            memset (Y, 0, (size_t) (m * n) * sizeof (float)) ;
            if (be->spmm (&sr, &Sv2, &Xd, Y) == GG_OK)
            {
                ok++ ;
                assert_int_equal (check_spmm (&sr, &S, false, Xv, n, Y), 0) ;
            }
            if (e2 != NULL) grbgpu_cache_release (e2) ;
        }
        assert_int_equal (grbgpu_fault_configure (""), 0) ;
        grbgpu_cache_clear () ;
        assert_int_equal (pool_used (), base) ;
        print_message ("  fault %s:0.3: %d of 20 calls succeeded\n",
            points [pt], ok) ;
    }
    free_csr (&S) ; free (X) ; free (Xv) ; free (Y) ; free (y) ;
}

//------------------------------------------------------------------------------
// threads sharing one cached operand
//------------------------------------------------------------------------------

typedef struct
{
    const test_csr *S ;
    gg_cache_entry *e ;
    gg_type t ;
    int64_t n ;
    int bad ;
    int rc ;
}
thread_job ;

static void *thread_main (void *arg)
{
    thread_job *j = arg ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, j->t } ;
    double *Xv ;
    for (int r = 0 ; r < 6 && j->rc == GG_OK && j->bad == 0 ; r++)
    {
        // make_dense draws from the shared generator: serialise the draw
        static pthread_mutex_t draw = PTHREAD_MUTEX_INITIALIZER ;
        pthread_mutex_lock (&draw) ;
        void *X = make_dense (j->S->k, j->n, j->t, &Xv) ;
        pthread_mutex_unlock (&draw) ;
        void *Y = malloc ((size_t) (j->S->m * j->n) * 8) ;
        gg_csr Sv = view_csr (j->S, false, j->e) ;
        gg_dense Xd = { .nrows = j->S->k, .ncols = j->n, .x = X } ;
        j->rc = be->spmm (&sr, &Sv, &Xd, Y) ;
        if (j->rc == GG_OK) j->bad = check_spmm (&sr, j->S, false, Xv, j->n,
            Y) ;
        free (X) ; free (Xv) ; free (Y) ;
    }
    return NULL ;
}

static void test_threads (void **state)
{
    (void) state ;
    enum { NT = 8 } ;       // more threads than contexts: some wait
    test_csr S = make_csr (3000, 2000, 0.005, GG_FP32) ;
    gg_cache_entry *e = make_entry () ;
    pthread_t th [NT] ;
    thread_job job [NT] ;
    for (int t = 0 ; t < NT ; t++)
    {
        job [t] = (thread_job) { .S = &S, .e = e, .t = GG_FP32,
            .n = (t % 2) ? 32 : 128 } ;
        assert_int_equal (pthread_create (&th [t], NULL, thread_main,
            &job [t]), 0) ;
    }
    for (int t = 0 ; t < NT ; t++)
    {
        pthread_join (th [t], NULL) ;
        assert_int_equal (job [t].rc, GG_OK) ;
        assert_int_equal (job [t].bad, 0) ;
    }
    grbgpu_cache_release (e) ;
    grbgpu_cache_clear () ;
    free_csr (&S) ;
}

//------------------------------------------------------------------------------
// fork
//------------------------------------------------------------------------------

// A child forked before this process touched CUDA starts CUDA itself and
// computes the right answer: exit 0 right, 1 wrong, 77 no device.
static int child_spmm (void)
{
    alarm (60) ;
    const gg_backend *b = grbgpu_cuda_backend () ;
    if (b == NULL) return 77 ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 } ;
    test_csr S = make_csr (100, 90, 0.1, GG_FP64) ;
    double *Xv ;
    void *X = make_dense (90, 5, GG_FP64, &Xv) ;
    double Y [100 * 5] ;
    gg_csr Sv = view_csr (&S, false, NULL) ;
    gg_dense Xd = { .nrows = 90, .ncols = 5, .x = X } ;
    if (b->spmm (&sr, &Sv, &Xd, Y) != GG_OK) return 1 ;
    return check_spmm (&sr, &S, false, Xv, 5, Y) == 0 ? 0 : 1 ;
}

static int fork_status = -1 ;

// After this process started CUDA, a forked child must not crash or give a
// wrong answer: it gets no backend, or an error, or the right result.
static void test_fork_after_start (void **state)
{
    (void) state ;
    assert_int_equal (fork_status, 0) ;     // the child forked before start
    if (getenv ("GRBGPU_TEST_UNDER_SANITIZER") != NULL)
    {
        // compute-sanitizer's injected library does not survive a fork
        // after CUDA started: the child dies in it, not in grbgpu
        print_message ("  skipped under compute-sanitizer\n") ;
        skip () ;
    }
    pid_t pid = fork () ;
    assert_true (pid >= 0) ;
    if (pid == 0)
    {
        int r = child_spmm () ;
        _exit (r == 77 ? 0 : r) ;
    }
    int st = 0 ;
    waitpid (pid, &st, 0) ;
    assert_true (WIFEXITED (st)) ;
    if (WEXITSTATUS (st) == 1) print_message ("  note: child after start "
        "got an error (expected: CUDA does not survive fork)\n") ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (void)
{
    setenv ("GRBGPU_VERBOSE", "1", 0) ;
    grbgpu_settings_init () ;

    // fork before anything here touches CUDA
    fflush (NULL) ;
    pid_t pid = fork () ;
    if (pid == 0) _exit (child_spmm ()) ;
    int st = 0 ;
    waitpid (pid, &st, 0) ;
    fork_status = WIFEXITED (st) ? WEXITSTATUS (st) : 2 ;

    GrB_init (GrB_NONBLOCKING) ;
    be = grbgpu_cuda_backend () ;
    if (be == NULL)
    {
        printf ("test_cuda_backend: SKIP: no usable CUDA device\n") ;
        return 77 ;
    }
    if (fork_status == 77) fork_status = 0 ;    // raced with a vanished GPU
    const struct CMUnitTest tests [] =
    {
        cmocka_unit_test (test_spmm_plus_times),
        cmocka_unit_test (test_spmm_algorithms),
        cmocka_unit_test (test_spmm_tuned),
        cmocka_unit_test (test_spmm_own_kernels),
        cmocka_unit_test (test_spmm_edge_cases),
        cmocka_unit_test (test_spmv_push),
        cmocka_unit_test (test_spmv_hot),
        cmocka_unit_test (test_spmv_band),
        cmocka_unit_test (test_tc_family),
        cmocka_unit_test (test_nm_family),
        cmocka_unit_test (test_sddmm),
        cmocka_unit_test (test_gemm),
        cmocka_unit_test (test_dense_tuned),
        cmocka_unit_test (test_cache_reuse),
        cmocka_unit_test (test_cache_eviction),
        cmocka_unit_test (test_faults),
        cmocka_unit_test (test_threads),
        cmocka_unit_test (test_fork_after_start),
    } ;
    // GRBGPU_TEST_FILTER (a CMocka pattern, e.g. 'test_nm*') runs some only
    const char *filter = getenv ("GRBGPU_TEST_FILTER") ;
    if (filter != NULL && *filter) cmocka_set_test_filter (filter) ;
    int failed = cmocka_run_group_tests (tests, NULL, NULL) ;
    grbgpu_cache_clear () ;
    for (int k = 0 ; k < nhandles ; k++) GrB_Matrix_free (&handles [k]) ;
    GrB_finalize () ;
    return failed ? 1 : 0 ;
}
