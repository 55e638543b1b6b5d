//------------------------------------------------------------------------------
// tests/cuda_backend_util.c: operands, reference, fixtures
//------------------------------------------------------------------------------

#include "config.h"

#include "tests/cuda_backend_test.h"

//------------------------------------------------------------------------------
// random operands and the reference
//------------------------------------------------------------------------------

uint64_t rng_state = 0x9e3779b97f4a7c15ull ;

uint64_t rng (void)
{
    // xorshift64*
    rng_state ^= rng_state >> 12 ;
    rng_state ^= rng_state << 25 ;
    rng_state ^= rng_state >> 27 ;
    return rng_state * 0x2545f4914f6cdd1dull ;
}

// uniform in [-1, 1), never exactly 0
double rnd_value (void)
{
    double v = (double) (rng () >> 11) / 9007199254740992.0 * 2 - 1 ;
    return (v == 0) ? 0.5 : v ;
}

void put (void *a, size_t k, gg_type t, double v)
{
    if (t == GG_FP32) ((float *) a) [k] = (float) v ;
    else if (t == GG_FP64) ((double *) a) [k] = v ;
    else if (t == GG_INT32) ((int32_t *) a) [k] = (int32_t) v ;
    else if (t == GG_INT64) ((int64_t *) a) [k] = (int64_t) v ;
    else if (t == GG_UINT32) ((uint32_t *) a) [k] = (uint32_t) v ;
    else if (t == GG_UINT64) ((uint64_t *) a) [k] = (uint64_t) v ;
    else if (t == GG_BOOL) ((uint8_t *) a) [k] = (v != 0) ;
}

double get (const void *a, size_t k, gg_type t)
{
    if (t == GG_FP32) return ((const float *) a) [k] ;
    if (t == GG_FP64) return ((const double *) a) [k] ;
    if (t == GG_INT64) return (double) ((const int64_t *) a) [k] ;
    if (t == GG_UINT32) return ((const uint32_t *) a) [k] ;
    if (t == GG_UINT64) return (double) ((const uint64_t *) a) [k] ;
    if (t == GG_BOOL) return ((const uint8_t *) a) [k] ;
    return ((const int32_t *) a) [k] ;
}

// A random m x k CSR with about `density` of its entries present, sorted
// within rows; every 7th row is empty.  Integer types get small integers.
test_csr make_csr (int64_t m, int64_t k, double density, gg_type t)
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

void free_csr (test_csr *S)
{
    free (S->p) ; free (S->i) ; free (S->v) ; free (S->x) ;
}

// A random rows x cols dense array in type t (values also as doubles).
void *make_dense (int64_t rows, int64_t cols, gg_type t, double **dv)
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

double mul_ref (gg_mul mul, double s, double x)
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

double add_ref (gg_add add, double a, double b)
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
bool close_enough (double got, double want, double mag, gg_type t)
{
    // a non-finite answer is exact: the same infinity, or a NaN
    if (!isfinite (want)) return (isnan (want) && isnan (got)) || got == want ;
    return fabs (got - want) <= tol_of (t) * mag + 1e-30 ;
}

gg_csr view_csr (const test_csr *S, bool iso, void *cache)
{
    gg_csr v = { .nrows = S->m, .ncols = S->k, .nnz = S->nnz, .p32 = S->p,
        .i32 = S->i, .x = S->x, .iso = iso, .cache = cache } ;
    return v ;
}

// Check Y = S (+.*) X against the reference; rows of S without entries are
// not compared (the backend may leave them unwritten).  Returns mismatches.
int check_spmm (const gg_semiring *sr, const test_csr *S, bool iso,
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

const gg_backend *be ;

uint64_t h2d_bytes (void)
{
    grbgpu_stats s ;
    grbgpu_stats_get (&s) ;
    return s.bytes_h2d ;
}

// Device memory in use from the stream-ordered pool (all of this backend's
// device memory comes from it).
size_t pool_used (void)
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

GrB_Matrix *handles = NULL ;    // grown as needed; main frees them
int nhandles = 0 ;
static int handles_cap = 0 ;

// A fresh cache entry (acquired) standing for a matrix: the key is a real
// GrB_Matrix handle with its current version, so the cache links the entry
// (a made-up handle has version 0 and would never be linked).  The handles
// are not capped: an entry on a made-up handle is never linked, so no
// eviction can reach its device copy (with a cap of 256, the tests made
// after the 256th entry saw no eviction at all).
gg_cache_entry *make_entry (void)
{
    gg_cache_key key = { .form = 77 } ;
    GrB_Matrix h = NULL ;
    if (nhandles == handles_cap)
    {
        int cap = handles_cap ? 2 * handles_cap : 256 ;
        GrB_Matrix *more = realloc (handles, (size_t) cap * sizeof (GrB_Matrix)) ;
        if (more != NULL) { handles = more ; handles_cap = cap ; }
    }
    if (nhandles < handles_cap && GrB_Matrix_new (&h, GrB_BOOL, 1, 1) == GrB_SUCCESS)
    {
        handles [nhandles++] = h ;
        key.handle = h ;
        key.version = grbgpu_objver_get (h) ;
    }
    assert_true (key.version != 0) ;
    void *payload = malloc (16) ;
    gg_cache_entry *e = grbgpu_cache_insert (&key, payload, 16, free) ;
    assert_non_null (e) ;
    return e ;
}

void set_kernel (const char *name)
{
    snprintf (grbgpu_settings.kernel, sizeof (grbgpu_settings.kernel), "%s",
        name) ;
}
