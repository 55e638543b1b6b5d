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

#include "backend/grbgpu_internal.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

//------------------------------------------------------------------------------
// stubs, random numbers, type tables
//------------------------------------------------------------------------------

static bool fault_now = false ;

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

static uint64_t rng_state ;

static uint64_t rng (void)      // splitmix64
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull) ;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return z ^ (z >> 31) ;
}

static int64_t rng_below (int64_t n) { return (int64_t) (rng () % (uint64_t) n) ; }

static const char *type_name [GG_NTYPES] =
    { "BOOL", "INT32", "INT64", "UINT32", "UINT64", "FP32", "FP64" } ;
static const char *add_name [GG_NADD] =
    { "PLUS", "TIMES", "MIN", "MAX", "ANY", "LOR", "LAND" } ;
static const char *mul_name [GG_NMUL] =
    { "TIMES", "FIRST", "SECOND", "PAIR", "PLUS", "MIN", "MAX", "LAND", "LOR" } ;

static bool reads_s (gg_mul m) { return m != GG_MUL_SECOND && m != GG_MUL_PAIR ; }
static bool reads_x (gg_mul m) { return m != GG_MUL_FIRST && m != GG_MUL_PAIR ; }

static GrB_Type grb_type (gg_type t)
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
static bool in_set (gg_type t, gg_add a)
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

static void *random_values (gg_type t, int64_t count)
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

#define OK(call) assert_int_equal ((call), GrB_SUCCESS)

static void grb_build (GrB_Matrix *A, gg_type t, int64_t nrows, int64_t ncols,
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
static GrB_Matrix grb_dense (gg_type t, int64_t nrows, int64_t ncols, const void *x)
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
static void grb_unpack (GrB_Matrix C, gg_type t, int64_t ncols, void *D,
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

static GrB_Semiring grb_semiring (gg_type t, gg_add a, gg_mul m)
{
    GrB_Semiring sr ;
    OK (GrB_Semiring_new (&sr, grb_monoid (t, a), grb_mul (t, m))) ;
    return sr ;
}

//------------------------------------------------------------------------------
// a random sparse matrix in CSR, with 32- and 64-bit index copies
//------------------------------------------------------------------------------

typedef struct
{
    int64_t nrows, ncols, nnz ;
    int32_t *p32, *i32 ;
    int64_t *p64, *i64 ;
    GrB_Index *I, *J ;      // the same entries as tuples, for GraphBLAS
}
test_csr ;

// Row i has len [i] entries at distinct sorted random columns.
static void csr_random (test_csr *S, int64_t nrows, int64_t ncols, const int64_t *len)
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

static void csr_free (test_csr *S)
{
    free (S->p32) ; free (S->p64) ; free (S->i32) ; free (S->i64) ;
    free (S->I) ; free (S->J) ;
}

// The view the host backend takes: 32- or 64-bit indices.
static gg_csr csr_view (const test_csr *S, bool wide, const void *x, bool iso)
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

// Candidates of an ANY sum: the terms mul (s_r, x_r), r = 0..nterms-1, where
// s_r = s + r * s_stride and x_r = x + r * x_stride (in values).
typedef struct
{
    const char *s ; int64_t s_stride ;
    const char *x ; int64_t x_stride ;
    int64_t nterms ;
}
test_terms ;

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
static void check_entry (const char *what, gg_type t, gg_add a, gg_mul m,
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

static uint64_t checked = 0 ;       // entries compared, for the summary

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
