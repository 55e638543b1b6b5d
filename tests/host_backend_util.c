//------------------------------------------------------------------------------
// tests/host_backend_util.c: stubs, values, builders, checks
//------------------------------------------------------------------------------

#include "tests/host_backend_test.h"

//------------------------------------------------------------------------------
// stubs, random numbers, type tables
//------------------------------------------------------------------------------

bool fault_now = false ;

bool grbgpu_fault (gg_fault_point point)
{
    (void) point ;
    return fault_now ;
}

// the settings (one slot: GRBGPU_DEVICES unset; tests/test_multi covers the
// split), statistics and logging the backend calls
static gg_settings stub_settings ;
const gg_settings *grbgpu_settings_get (void) { return &stub_settings ; }
void grbgpu_count (gg_stat which, uint64_t n) { (void) which ; (void) n ; }
void grbgpu_log (int level, const char *fmt, ...) { (void) level ; (void) fmt ; }

uint64_t rng_state ;

static uint64_t rng (void)      // splitmix64
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return z ^ (z >> 31) ;
}

int64_t rng_below (int64_t n) { return (int64_t) (rng () % (uint64_t) n) ; }

static const char *type_name [GG_NTYPES] =
    { "BOOL", "INT32", "INT64", "UINT32", "UINT64", "FP32", "FP64" } ;
static const char *add_name [GG_NADD] =
    { "PLUS", "TIMES", "MIN", "MAX", "ANY", "LOR", "LAND" } ;
static const char *mul_name [GG_NMUL] =
    { "TIMES", "FIRST", "SECOND", "PAIR", "PLUS", "MIN", "MAX", "LAND", "LOR" } ;

bool reads_s (gg_mul m) { return m != GG_MUL_SECOND && m != GG_MUL_PAIR ; }
bool reads_x (gg_mul m) { return m != GG_MUL_FIRST && m != GG_MUL_PAIR ; }

GrB_Type grb_type (gg_type t)
{
    GrB_Type types [GG_NTYPES] = { GrB_BOOL, GrB_INT32, GrB_INT64, GrB_UINT32,
        GrB_UINT64, GrB_FP32, GrB_FP64 } ;
    return types [t] ;
}

#define MUL_OPS(T) { GrB_TIMES_ ## T, GrB_FIRST_ ## T, GrB_SECOND_ ## T, \
    GxB_PAIR_ ## T, GrB_PLUS_ ## T, GrB_MIN_ ## T, GrB_MAX_ ## T, \
    GxB_LAND_ ## T, GxB_LOR_ ## T }

static GrB_BinaryOp grb_mul (gg_type t, gg_mul m)
{
    GrB_BinaryOp ops [GG_NTYPES][GG_NMUL] = { MUL_OPS (BOOL), MUL_OPS (INT32),
        MUL_OPS (INT64), MUL_OPS (UINT32), MUL_OPS (UINT64), MUL_OPS (FP32),
        MUL_OPS (FP64) } ;
    return ops [t][m] ;
}

#define MONOIDS(T) { GrB_PLUS_MONOID_ ## T, GrB_TIMES_MONOID_ ## T, \
    GrB_MIN_MONOID_ ## T, GrB_MAX_MONOID_ ## T, GxB_ANY_ ## T ## _MONOID, \
    NULL, NULL }

// GraphBLAS has no PLUS / TIMES / MIN / MAX monoid for BOOL: they are LOR / LAND.
static GrB_Monoid grb_monoid (gg_type t, gg_add a)
{
    GrB_Monoid bool_monoids [GG_NADD] = { GrB_LOR_MONOID_BOOL,
        GrB_LAND_MONOID_BOOL, GrB_LAND_MONOID_BOOL, GrB_LOR_MONOID_BOOL,
        GxB_ANY_BOOL_MONOID, GrB_LOR_MONOID_BOOL, GrB_LAND_MONOID_BOOL } ;
    GrB_Monoid monoids [GG_NTYPES][GG_NADD] = { { NULL }, MONOIDS (INT32),
        MONOIDS (INT64), MONOIDS (UINT32), MONOIDS (UINT64), MONOIDS (FP32),
        MONOIDS (FP64) } ;
    return (t == GG_BOOL) ? bool_monoids [a] : monoids [t][a] ;
}

// The semirings of the supported set: LOR / LAND monoids for BOOL only.
bool in_set (gg_type t, gg_add a)
{
    return t == GG_BOOL || (a != GG_ADD_LOR && a != GG_ADD_LAND) ;
}

//------------------------------------------------------------------------------
// typed values, held in byte arrays
//------------------------------------------------------------------------------

// A random value: BOOL 0/1; integers small and nonzero mostly (so that
// products wrap) and now and then near the type's limits (so that sums wrap);
// FP multiples of 1/8 in [-1,1].
static void random_value (gg_type t, void *dst)
{
    int64_t small = rng_below (9) - 4 ;
    if (small == 0 && rng_below (4) != 0) small = 3 ;
    bool big = (rng_below (16) == 0) ;
    switch (t)
    {
        case GG_BOOL:   *(uint8_t *) dst = (uint8_t) rng_below (2) ; break ;
        case GG_INT32:  *(int32_t *) dst = big ? INT32_MAX - (int32_t) rng_below (5)
                            : (int32_t) small ; break ;
        case GG_INT64:  *(int64_t *) dst = big ? INT64_MIN + rng_below (5) : small ;
                            break ;
        case GG_UINT32: *(uint32_t *) dst = big ? UINT32_MAX - (uint32_t) rng_below (5)
                            : (uint32_t) (small + 4) ; break ;
        case GG_UINT64: *(uint64_t *) dst = big ? UINT64_MAX - (uint64_t) rng_below (5)
                            : (uint64_t) (small + 4) ; break ;
        case GG_FP32:   *(float *) dst = (float) (rng_below (17) - 8) / 8.0f ; break ;
        case GG_FP64:   *(double *) dst = (double) (rng_below (17) - 8) / 8.0 ; break ;
        default: break ;
    }
}

void *random_values (gg_type t, int64_t count)
{
    size_t size = gg_type_size (t) ;
    char *x = malloc ((size_t) (count > 0 ? count : 1) * size) ;
    assert_non_null (x) ;
    for (int64_t q = 0 ; q < count ; q++) random_value (t, x + q * size) ;
    return x ;
}

// z = mul (s, x), written independently of the backend (single operations on
// the test's small values, computed in the type itself; unsigned for wrap).
#define REF_MUL(T, U, FMIN, FMAX) \
{ \
    T a = *(const T *) s, b = *(const T *) x, r = 0 ; \
    switch (m) \
    { \
        case GG_MUL_TIMES:  r = (T) ((U) a * (U) b) ; break ; \
        case GG_MUL_FIRST:  r = a ; break ; \
        case GG_MUL_SECOND: r = b ; break ; \
        case GG_MUL_PAIR:   r = 1 ; break ; \
        case GG_MUL_PLUS:   r = (T) ((U) a + (U) b) ; break ; \
        case GG_MUL_MIN:    r = FMIN (a, b) ; break ; \
        case GG_MUL_MAX:    r = FMAX (a, b) ; break ; \
        case GG_MUL_LAND:   r = (T) (a != 0 && b != 0) ; break ; \
        case GG_MUL_LOR:    r = (T) (a != 0 || b != 0) ; break ; \
        default: break ; \
    } \
    *(T *) z = r ; \
}
#define IMIN(a, b) ((b) < (a) ? (b) : (a))
#define IMAX(a, b) ((b) > (a) ? (b) : (a))

static void ref_mul (gg_type t, gg_mul m, const void *s, const void *x, void *z)
{
    switch (t)
    {
        case GG_BOOL:
        {
            bool a = *(const uint8_t *) s, b = *(const uint8_t *) x, r = 0 ;
            switch (m)
            {
                case GG_MUL_FIRST:  r = a ; break ;
                case GG_MUL_SECOND: r = b ; break ;
                case GG_MUL_PAIR:   r = 1 ; break ;
                case GG_MUL_TIMES: case GG_MUL_MIN: case GG_MUL_LAND:
                    r = a && b ; break ;
                default: r = a || b ; break ;       // PLUS, MAX, LOR
            }
            *(uint8_t *) z = r ;
            break ;
        }
        case GG_INT32:  REF_MUL (int32_t, uint32_t, IMIN, IMAX) ; break ;
        case GG_INT64:  REF_MUL (int64_t, uint64_t, IMIN, IMAX) ; break ;
        case GG_UINT32: REF_MUL (uint32_t, uint32_t, IMIN, IMAX) ; break ;
        case GG_UINT64: REF_MUL (uint64_t, uint64_t, IMIN, IMAX) ; break ;
        case GG_FP32:   REF_MUL (float, float, fminf, fmaxf) ; break ;
        case GG_FP64:   REF_MUL (double, double, fmin, fmax) ; break ;
        default: break ;
    }
}

static double as_double (gg_type t, const void *v)
{
    return (t == GG_FP32) ? *(const float *) v : *(const double *) v ;
}

// h (host) agrees with g (GraphBLAS): exactly for integers, else to tol.
static bool same_value (gg_type t, const void *h, const void *g)
{
    if (t != GG_FP32 && t != GG_FP64) return memcmp (h, g, gg_type_size (t)) == 0 ;
    double hv = as_double (t, h), gv = as_double (t, g) ;
    if (isnan (gv) || isnan (hv)) return isnan (gv) && isnan (hv) ;
    if (isinf (gv) || isinf (hv)) return hv == gv ;
    double tol = (t == GG_FP32) ? 1e-5 : 1e-12 ;
    double floor = (t == GG_FP32) ? 1e-30 : 1e-300 ;    // underflowed products
    return fabs (hv - gv) <= tol * fmax (fabs (gv), floor) ;
}

static char *value_text (gg_type t, const void *v, char *buf)
{
    switch (t)
    {
        case GG_BOOL:   sprintf (buf, "%d", *(const uint8_t *) v) ; break ;
        case GG_INT32:  sprintf (buf, "%d", *(const int32_t *) v) ; break ;
        case GG_INT64:  sprintf (buf, "%lld", (long long) *(const int64_t *) v) ; break ;
        case GG_UINT32: sprintf (buf, "%u", *(const uint32_t *) v) ; break ;
        case GG_UINT64: sprintf (buf, "%llu", (unsigned long long) *(const uint64_t *) v) ;
                        break ;
        default:        sprintf (buf, "%.17g", as_double (t, v)) ; break ;
    }
    return buf ;
}

//------------------------------------------------------------------------------
// GraphBLAS matrices from and to the test's arrays
//------------------------------------------------------------------------------

void grb_build (GrB_Matrix *A, gg_type t, int64_t nrows, int64_t ncols,
    const GrB_Index *I, const GrB_Index *J, const void *x, GrB_Index nvals)
{
    OK (GrB_Matrix_new (A, grb_type (t), nrows, ncols)) ;
    GrB_BinaryOp dup = grb_mul (t, GG_MUL_FIRST) ;
    switch (t)
    {
        case GG_BOOL:   OK (GrB_Matrix_build_BOOL (*A, I, J, x, nvals, dup)) ; break ;
        case GG_INT32:  OK (GrB_Matrix_build_INT32 (*A, I, J, x, nvals, dup)) ; break ;
        case GG_INT64:  OK (GrB_Matrix_build_INT64 (*A, I, J, x, nvals, dup)) ; break ;
        case GG_UINT32: OK (GrB_Matrix_build_UINT32 (*A, I, J, x, nvals, dup)) ; break ;
        case GG_UINT64: OK (GrB_Matrix_build_UINT64 (*A, I, J, x, nvals, dup)) ; break ;
        case GG_FP32:   OK (GrB_Matrix_build_FP32 (*A, I, J, x, nvals, dup)) ; break ;
        case GG_FP64:   OK (GrB_Matrix_build_FP64 (*A, I, J, x, nvals, dup)) ; break ;
        default: fail () ;
    }
}

// A dense row-major nrows x ncols array as a GraphBLAS matrix.
GrB_Matrix grb_dense (gg_type t, int64_t nrows, int64_t ncols, const void *x)
{
    int64_t n = nrows * ncols ;
    GrB_Index *I = malloc ((size_t) (n + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((size_t) (n + 1) * sizeof (GrB_Index)) ;
    assert_true (I != NULL && J != NULL) ;
    for (int64_t q = 0 ; q < n ; q++) { I [q] = q / ncols ; J [q] = q % ncols ; }
    GrB_Matrix A ;
    grb_build (&A, t, nrows, ncols, I, J, x, n) ;
    free (I) ; free (J) ;
    return A ;
}

// All entries of C into D (nrows x ncols row-major) and present (0/1).
void grb_unpack (GrB_Matrix C, gg_type t, int64_t ncols, void *D,
    uint8_t *present, GrB_Index *nvals_out)
{
    GrB_Index nvals ;
    OK (GrB_Matrix_nvals (&nvals, C)) ;
    size_t size = gg_type_size (t) ;
    GrB_Index *I = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    GrB_Index *J = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    char *x = malloc ((nvals + 1) * size) ;
    assert_true (I != NULL && J != NULL && x != NULL) ;
    GrB_Index nv = nvals ;
    switch (t)
    {
        case GG_BOOL:   OK (GrB_Matrix_extractTuples_BOOL (I, J, (bool *) x, &nv, C)) ; break ;
        case GG_INT32:  OK (GrB_Matrix_extractTuples_INT32 (I, J, (int32_t *) x, &nv, C)) ; break ;
        case GG_INT64:  OK (GrB_Matrix_extractTuples_INT64 (I, J, (int64_t *) x, &nv, C)) ; break ;
        case GG_UINT32: OK (GrB_Matrix_extractTuples_UINT32 (I, J, (uint32_t *) x, &nv, C)) ; break ;
        case GG_UINT64: OK (GrB_Matrix_extractTuples_UINT64 (I, J, (uint64_t *) x, &nv, C)) ; break ;
        case GG_FP32:   OK (GrB_Matrix_extractTuples_FP32 (I, J, (float *) x, &nv, C)) ; break ;
        case GG_FP64:   OK (GrB_Matrix_extractTuples_FP64 (I, J, (double *) x, &nv, C)) ; break ;
        default: fail () ;
    }
    for (GrB_Index q = 0 ; q < nv ; q++)
    {
        int64_t pos = (int64_t) I [q] * ncols + (int64_t) J [q] ;
        memcpy ((char *) D + pos * size, x + q * size, size) ;
        present [pos] = 1 ;
    }
    *nvals_out = nv ;
    free (I) ; free (J) ; free (x) ;
}

GrB_Semiring grb_semiring (gg_type t, gg_add a, gg_mul m)
{
    GrB_Semiring sr ;
    OK (GrB_Semiring_new (&sr, grb_monoid (t, a), grb_mul (t, m))) ;
    return sr ;
}

//------------------------------------------------------------------------------
// a random sparse matrix in CSR, with 32- and 64-bit index copies
//------------------------------------------------------------------------------

// Row i has len [i] entries at distinct sorted random columns.
void csr_random (test_csr *S, int64_t nrows, int64_t ncols, const int64_t *len)
{
    S->nrows = nrows ; S->ncols = ncols ; S->nnz = 0 ;
    for (int64_t i = 0 ; i < nrows ; i++) S->nnz += len [i] ;
    size_t e = (size_t) S->nnz + 1 ;
    S->p32 = malloc ((size_t) (nrows + 1) * sizeof (int32_t)) ;
    S->p64 = malloc ((size_t) (nrows + 1) * sizeof (int64_t)) ;
    S->i32 = malloc (e * sizeof (int32_t)) ;
    S->i64 = malloc (e * sizeof (int64_t)) ;
    S->I = malloc (e * sizeof (GrB_Index)) ;
    S->J = malloc (e * sizeof (GrB_Index)) ;
    uint8_t *mark = calloc ((size_t) ncols + 1, 1) ;
    assert_true (S->p32 && S->p64 && S->i32 && S->i64 && S->I && S->J && mark) ;
    int64_t q = 0 ;
    for (int64_t i = 0 ; i < nrows ; i++)
    {
        S->p32 [i] = (int32_t) q ; S->p64 [i] = q ;
        assert_true (len [i] <= ncols) ;
        // choose len [i] distinct columns, then emit them in order
        memset (mark, 0, (size_t) ncols) ;
        for (int64_t c = 0 ; c < len [i] ; )
        {
            int64_t j = rng_below (ncols) ;
            if (!mark [j]) { mark [j] = 1 ; c++ ; }
        }
        for (int64_t j = 0 ; j < ncols ; j++)
        {
            if (!mark [j]) continue ;
            S->i32 [q] = (int32_t) j ; S->i64 [q] = j ;
            S->I [q] = i ; S->J [q] = j ; q++ ;
        }
    }
    S->p32 [nrows] = (int32_t) q ; S->p64 [nrows] = q ;
    free (mark) ;
}

void csr_free (test_csr *S)
{
    free (S->p32) ; free (S->p64) ; free (S->i32) ; free (S->i64) ;
    free (S->I) ; free (S->J) ;
}

// The view the host backend takes: 32- or 64-bit indices.
gg_csr csr_view (const test_csr *S, bool wide, const void *x, bool iso)
{
    gg_csr v = { .nrows = S->nrows, .ncols = S->ncols, .nnz = S->nnz,
        .x = x, .iso = iso } ;
    if (wide) { v.p64 = S->p64 ; v.i64 = S->i64 ; }
    else { v.p32 = S->p32 ; v.i32 = S->i32 ; }
    return v ;
}

//------------------------------------------------------------------------------
// comparing one result entry
//------------------------------------------------------------------------------

static bool is_candidate (gg_type t, gg_mul m, const test_terms *T, const void *v)
{
    size_t size = gg_type_size (t) ;
    char z [8] ;
    for (int64_t r = 0 ; r < T->nterms ; r++)
    {
        ref_mul (t, m, T->s + r * T->s_stride * size, T->x + r * T->x_stride * size, z) ;
        if (memcmp (z, v, size) == 0) return true ;
        if (t == GG_FP32 || t == GG_FP64)
        {
            if (as_double (t, z) == as_double (t, v)) return true ;    // -0 == 0
        }
    }
    return false ;
}

// Checks host value h against GraphBLAS value g (present: g exists).
void check_entry (const char *what, gg_type t, gg_add a, gg_mul m,
    const void *h, const void *g, bool present, const test_terms *T,
    int64_t i, int64_t j)
{
    char hb [64], gb [64] ;
    if (!present)
    {
        print_error ("%s %s_%s_%s: GraphBLAS has no entry (%lld,%lld)\n", what,
            add_name [a], mul_name [m], type_name [t], (long long) i, (long long) j) ;
        fail () ;
    }
    bool ok ;
    if (a == GG_ADD_ANY)
    {
        ok = is_candidate (t, m, T, h) && is_candidate (t, m, T, g) ;
    }
    else
    {
        ok = same_value (t, h, g) ;
    }
    if (!ok)
    {
        print_error ("%s %s_%s_%s (%lld,%lld): host %s, GraphBLAS %s\n", what,
            add_name [a], mul_name [m], type_name [t], (long long) i,
            (long long) j, value_text (t, h, hb), value_text (t, g, gb)) ;
        fail () ;
    }
}

uint64_t checked = 0 ;       // entries compared, for the summary
