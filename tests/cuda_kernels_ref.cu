//------------------------------------------------------------------------------
// tests/cuda_kernels_ref.cu: reference semantics, test matrices
//------------------------------------------------------------------------------

#include "tests/cuda_kernels_test.h"

//------------------------------------------------------------------------------
// reference semantics (values held as double or 64-bit integers by type)
//------------------------------------------------------------------------------

bool is_fp (gg_type t) { return t == GG_FP32 || t == GG_FP64 ; }

static uint64_t wrap (gg_type t, uint64_t u)
{
    switch (t)
    {
        case GG_BOOL:   return u != 0 ;
        case GG_INT32:  return (uint64_t) (int64_t) (int32_t) (uint32_t) u ;
        case GG_UINT32: return (uint32_t) u ;
        default:        return u ;
    }
}

static bool is_signed_int (gg_type t) { return t == GG_INT32 || t == GG_INT64 ; }

static int cmp_int (gg_type t, uint64_t a, uint64_t b)
{
    if (is_signed_int (t))
        return ((int64_t) a < (int64_t) b) ? -1 : ((int64_t) a > (int64_t) b) ;
    return (a < b) ? -1 : (a > b) ;
}

static double round_fp (gg_type t, double d)
{
    return (t == GG_FP32) ? (double) (float) d : d ;
}

val ref_mul (gg_type t, gg_mul mul, val s, val x)
{
    val z = { 0, 0 } ;
    if (t == GG_BOOL)
    {
        bool a = s.u != 0, b = x.u != 0, r ;
        switch (mul)
        {
            case GG_MUL_FIRST:  r = a ; break ;
            case GG_MUL_SECOND: r = b ; break ;
            case GG_MUL_PAIR:   r = true ; break ;
            case GG_MUL_TIMES: case GG_MUL_MIN: case GG_MUL_LAND: r = a && b ; break ;
            default:            r = a || b ; break ;   // PLUS, MAX, LOR
        }
        z.u = r ;
        return z ;
    }
    if (is_fp (t))
    {
        double a = s.d, b = x.d, r ;
        switch (mul)
        {
            case GG_MUL_TIMES:  r = a * b ; break ;
            case GG_MUL_FIRST:  r = a ; break ;
            case GG_MUL_SECOND: r = b ; break ;
            case GG_MUL_PAIR:   r = 1 ; break ;
            case GG_MUL_PLUS:   r = a + b ; break ;
            case GG_MUL_MIN:    r = fmin (a, b) ; break ;
            case GG_MUL_MAX:    r = fmax (a, b) ; break ;
            case GG_MUL_LAND:   r = (a != 0) && (b != 0) ; break ;
            default:            r = (a != 0) || (b != 0) ; break ;
        }
        z.d = round_fp (t, r) ;
        return z ;
    }
    uint64_t a = s.u, b = x.u, r ;
    switch (mul)
    {
        case GG_MUL_TIMES:  r = a * b ; break ;
        case GG_MUL_FIRST:  r = a ; break ;
        case GG_MUL_SECOND: r = b ; break ;
        case GG_MUL_PAIR:   r = 1 ; break ;
        case GG_MUL_PLUS:   r = a + b ; break ;
        case GG_MUL_MIN:    r = cmp_int (t, a, b) <= 0 ? a : b ; break ;
        case GG_MUL_MAX:    r = cmp_int (t, a, b) >= 0 ? a : b ; break ;
        case GG_MUL_LAND:   r = (a != 0) && (b != 0) ; break ;
        default:            r = (a != 0) || (b != 0) ; break ;
    }
    z.u = wrap (t, r) ;
    return z ;
}

// a (+) b; ANY is checked separately (any candidate)
val ref_add (gg_type t, gg_add add, val a, val b)
{
    val z = { 0, 0 } ;
    if (t == GG_BOOL)
    {
        bool x = a.u != 0, y = b.u != 0 ;
        bool lor = (add == GG_ADD_PLUS || add == GG_ADD_MAX || add == GG_ADD_LOR
                    || add == GG_ADD_ANY) ;
        z.u = lor ? (x || y) : (x && y) ;
        return z ;
    }
    if (is_fp (t))
    {
        double r ;
        switch (add)
        {
            case GG_ADD_PLUS:  r = a.d + b.d ; break ;
            case GG_ADD_TIMES: r = a.d * b.d ; break ;
            case GG_ADD_MIN:   r = fmin (a.d, b.d) ; break ;
            default:           r = fmax (a.d, b.d) ; break ;
        }
        z.d = round_fp (t, r) ;
        return z ;
    }
    uint64_t r ;
    switch (add)
    {
        case GG_ADD_PLUS:  r = a.u + b.u ; break ;
        case GG_ADD_TIMES: r = a.u * b.u ; break ;
        case GG_ADD_MIN:   r = cmp_int (t, a.u, b.u) <= 0 ? a.u : b.u ; break ;
        default:           r = cmp_int (t, a.u, b.u) >= 0 ? a.u : b.u ; break ;
    }
    z.u = wrap (t, r) ;
    return z ;
}

val get (gg_type t, const void *arr, int64_t k)
{
    val v = { 0, 0 } ;
    switch (t)
    {
        case GG_BOOL:   v.u = ((const uint8_t  *) arr) [k] ; break ;
        case GG_INT32:  v.u = (uint64_t) (int64_t) ((const int32_t *) arr) [k] ; break ;
        case GG_INT64:  v.u = (uint64_t) ((const int64_t *) arr) [k] ; break ;
        case GG_UINT32: v.u = ((const uint32_t *) arr) [k] ; break ;
        case GG_UINT64: v.u = ((const uint64_t *) arr) [k] ; break ;
        case GG_FP32:   v.d = ((const float  *) arr) [k] ; break ;
        case GG_FP64:   v.d = ((const double *) arr) [k] ; break ;
        default: break ;
    }
    return v ;
}

int fill_mode = FILL_PLAIN ;
double fill_const = 0 ;          // FILL_CONST: every FP value

bool same (gg_type t, gg_add add, val got, val want)
{
    if (!is_fp (t)) return got.u == want.u ;
    if (got.d == want.d) return true ;
    if (std::isnan (got.d) && std::isnan (want.d)) return true ;
    if (fill_mode != FILL_PLAIN) return false ;
    if (add == GG_ADD_TIMES)
    {
        // the order of a long product decides overflow (inf, or 0 * inf)
        if (!std::isfinite (want.d) || !std::isfinite (got.d))
            return !std::isfinite (want.d) || want.d == 0 ;
        return fabs (got.d - want.d) <= 1e-5 * fabs (want.d) + 1e-300 ;
    }
    return false ;
}

// random values: BOOL 0/1, integers over a wide range (wrapping is exercised),
// FP small integers in [-3, 3] (sums exact in any order)
void fill_random (gg_type t, void *arr, int64_t n, bool times_monoid)
{
    for (int64_t k = 0 ; k < n ; k++)
    {
        uint64_t r = rng () ;
        if (is_fp (t) && fill_mode != FILL_PLAIN)
        {
            // one in 16 each: +INF, -INF, NaN, -0; else as below
            static const double special [4] = { INFINITY, -INFINITY, NAN, -0.0 } ;
            double v = (fill_mode == FILL_CONST) ? fill_const
                : ((r >> 40) % 16 < 4) ? special [(r >> 40) % 16]
                : times_monoid ? ((r & 1) ? 1.0 : -1.0) : (double) ((int) (r % 7) - 3) ;
            if (t == GG_FP32) ((float *) arr) [k] = (float) v ;
            else ((double *) arr) [k] = v ;
            continue ;
        }
        switch (t)
        {
            case GG_BOOL:   ((uint8_t  *) arr) [k] = r & 1 ; break ;
            case GG_INT32:  ((int32_t  *) arr) [k] = (int32_t) (r % 2001) - 1000 ; break ;
            case GG_INT64:  ((int64_t  *) arr) [k] = (int64_t) r ; break ;
            case GG_UINT32: ((uint32_t *) arr) [k] = (uint32_t) r ; break ;
            case GG_UINT64: ((uint64_t *) arr) [k] = r % 100000 ; break ;
            case GG_FP32:   ((float    *) arr) [k] = times_monoid
                ? ((r & 1) ? 1.0f : -1.0f) : (float) ((int) (r % 7) - 3) ; break ;
            case GG_FP64:   ((double   *) arr) [k] = times_monoid
                ? ((r & 1) ? 1.0 : -1.0) : (double) ((int) (r % 7) - 3) ; break ;
            default: break ;
        }
    }
}

//------------------------------------------------------------------------------
// test matrices
//------------------------------------------------------------------------------

// Rows with the given lengths (columns distinct, sorted, random).
static csr make_csr (const char *name, int64_t k, const std::vector<int64_t> &len)
{
    csr A ;
    A.name = name ;
    A.m = (int64_t) len.size () ;
    A.k = k ;
    A.p.push_back (0) ;
    std::vector<char> used (k, 0) ;
    for (int64_t r = 0 ; r < A.m ; r++)
    {
        int64_t L = len [r] < k ? len [r] : k ;
        std::vector<int32_t> cols ;
        if (L > k / 2)
        {
            // dense-ish row: drop k - L random columns
            for (int64_t c = 0 ; c < k ; c++) used [c] = 1 ;
            int64_t drop = k - L ;
            while (drop > 0) { int64_t c = rng () % k ; if (used [c]) { used [c] = 0 ; drop-- ; } }
            for (int64_t c = 0 ; c < k ; c++) if (used [c]) cols.push_back ((int32_t) c) ;
        }
        else
        {
            while ((int64_t) cols.size () < L)
            {
                int64_t c = rng () % k ;
                if (!used [c]) { used [c] = 1 ; cols.push_back ((int32_t) c) ; }
            }
            for (int32_t c : cols) used [c] = 0 ;
            std::sort (cols.begin (), cols.end ()) ;
        }
        for (int32_t c : cols) A.i.push_back (c) ;
        for (int64_t c = 0 ; c < k ; c++) used [c] = 0 ;
        A.p.push_back ((int32_t) A.i.size ()) ;
    }
    A.nnz = (int64_t) A.i.size () ;
    return A ;
}

std::vector<csr> test_matrices (void)
{
    std::vector<csr> all ;
    // structured: 0, 1, 31, 33 and a hub with most entries, repeated
    {
        std::vector<int64_t> len ;
        const int64_t pattern [] = { 0, 1, 31, 33, 0, 0, 2, 64, 1, 5 } ;
        for (int r = 0 ; r < 300 ; r++) len.push_back (pattern [r % 10]) ;
        len [137] = 3500 ;      // the hub: ~ 65 % of all entries
        all.push_back (make_csr ("structured+hub", 4000, len)) ;
    }
    // random row lengths 0..40
    {
        std::vector<int64_t> len ;
        for (int r = 0 ; r < 700 ; r++) len.push_back (rng () % 41) ;
        all.push_back (make_csr ("random", 900, len)) ;
    }
    // power-law-ish: length ~ 2^U(0..10)
    {
        std::vector<int64_t> len ;
        for (int r = 0 ; r < 500 ; r++) len.push_back ((int64_t) 1 << (rng () % 11)) ;
        all.push_back (make_csr ("power-law", 1500, len)) ;
    }
    // the last row holds most entries; runs of empty rows
    {
        std::vector<int64_t> len ;
        for (int r = 0 ; r < 1000 ; r++) len.push_back ((r % 50 < 30) ? 0 : 1 + rng () % 3) ;
        len.back () = 2000 ;
        all.push_back (make_csr ("empty-runs+last-hub", 2100, len)) ;
    }
    // long runs of empty rows: a merge chunk spans more rows than it can
    // copy to shared memory (it reads p in global memory then), and rows of
    // 1, 31, 33 entries cut by chunk boundaries
    {
        std::vector<int64_t> len (9000, 0) ;
        for (int r = 0 ; r < 9000 ; r += 2999) len [r] = 1 ;
        for (int r = 4000 ; r < 4100 ; r++) len [r] = (r % 2) ? 31 : 33 ;
        len [8999] = 5000 ;
        all.push_back (make_csr ("sparse-rows+tail", 6000, len)) ;
    }
    // a hub of 20000 entries among short rows: its carries run over more
    // than 32 warp chunks (the fix-up's segmented reduction crosses warps),
    // and rows of 0..24 entries cut at every chunk boundary
    {
        std::vector<int64_t> len ;
        for (int r = 0 ; r < 1200 ; r++) len.push_back (rng () % 25) ;
        len [700] = 20000 ;
        all.push_back (make_csr ("long-hub", 24000, len)) ;
    }
    return all ;
}
