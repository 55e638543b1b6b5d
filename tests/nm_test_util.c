//------------------------------------------------------------------------------
// tests/nm_test_util.c: test_nm's random patterns, their CSR, detection
//------------------------------------------------------------------------------

#include "tests/nm_test.h"

//------------------------------------------------------------------------------
// random numbers and patterns
//------------------------------------------------------------------------------

uint64_t rng_state ;

static uint64_t rnd (void)
{
    // xorshift64*
    rng_state ^= rng_state >> 12 ;
    rng_state ^= rng_state << 25 ;
    rng_state ^= rng_state >> 27 ;
    return rng_state * 0x2545F4914F6CDD1DULL ;
}

int64_t rnd_below (int64_t n)
{
    return (int64_t) (rnd () % (uint64_t) n) ;
}


pattern pattern_new (int64_t R, int64_t K)
{
    pattern P = { R, K, calloc ((size_t) (R * K > 0 ? R * K : 1), 1) } ;
    assert_non_null (P.pat) ;
    return P ;
}

// Choose want distinct members of [0, width) into sel (bits).
static uint32_t random_subset (int width, int want)
{
    uint32_t sel = 0 ;
    int have = 0 ;
    while (have < want)
    {
        int o = (int) rnd_below (width) ;
        if (!(sel & (1u << o))) { sel |= 1u << o ; have++ ; }
    }
    return sel ;
}

// An n:m pattern, vector-wise over blocks of v rows: each (block, group)
// draws min (n, width) positions; with v = 1 each row has them all, with
// v > 1 each row keeps each of its block's positions with probability 4/5.
pattern nm_pattern (int64_t R, int64_t K, int n, int m, int v)
{
    pattern P = pattern_new (R, K) ;
    for (int64_t b = 0 ; b * v < R ; b++)
    {
        for (int64_t g = 0 ; g * m < K ; g++)
        {
            const int width = (int) ((K - g * m) < m ? (K - g * m) : m) ;
            const uint32_t sel = random_subset (width, n < width ? n : width) ;
            for (int64_t r = b * v ; r < (b + 1) * v && r < R ; r++)
            {
                for (int o = 0 ; o < width ; o++)
                {
                    if ((sel & (1u << o)) && (v == 1 || rnd_below (5) < 4))
                    {
                        P.pat [r * K + g * m + o] = 1 ;
                    }
                }
            }
        }
    }
    return P ;
}

// The most entries in one group of m (the union over blocks of v rows).
static int brute_max_count (const pattern *P, int m, int v)
{
    int best = 0 ;
    for (int64_t b = 0 ; b * v < P->R ; b++)
    {
        for (int64_t c0 = 0 ; c0 < P->K ; c0 += m)
        {
            int cnt = 0 ;
            for (int64_t c = c0 ; c < c0 + m && c < P->K ; c++)
            {
                int any = 0 ;
                for (int64_t r = b * v ; r < (b + 1) * v && r < P->R ; r++)
                {
                    any |= P->pat [r * P->K + c] ;
                }
                cnt += any ;
            }
            if (cnt > best) best = cnt ;
        }
    }
    return best ;
}

//------------------------------------------------------------------------------
// a CSR of a pattern, with random value bits
//------------------------------------------------------------------------------


// Values: random bit patterns, with -0 and NaNs of random payloads mixed in
// (esz 4 or 8), so that a round trip must move bytes, not numbers.
static void random_value (uint8_t *dst, size_t esz)
{
    const int kind = (int) rnd_below (4) ;
    if (esz == 4)
    {
        uint32_t u = (uint32_t) rnd () ;
        if (kind == 0) u = 0x80000000u ;                            // -0.0f
        if (kind == 1) u = 0x7F800000u | (u & 0x807FFFFFu) | 1u ;   // NaN
        memcpy (dst, &u, 4) ;
    }
    else if (esz == 8)
    {
        uint64_t u = rnd () ;
        if (kind == 0) u = 0x8000000000000000ULL ;                  // -0.0
        if (kind == 1) u = 0x7FF0000000000000ULL | (u & 0x800FFFFFFFFFFFFFULL) | 1u ;
        memcpy (dst, &u, 8) ;
    }
    else
    {
        for (size_t b = 0 ; b < esz ; b++) dst [b] = (uint8_t) rnd () ;
    }
}

test_csr csr_of (const pattern *P, gg_nm_orient orient, size_t esz)
{
    test_csr T ;
    memset (&T, 0, sizeof (T)) ;
    const bool by_rows = (orient == GG_NM_ROWS) ;
    const int64_t nrows = by_rows ? P->R : P->K, ncols = by_rows ? P->K : P->R ;
    int64_t nnz = 0 ;
    for (int64_t q = 0 ; q < P->R * P->K ; q++) nnz += P->pat [q] ;
    T.p = malloc ((size_t) (nrows + 1) * sizeof (int32_t)) ;
    T.i = malloc ((size_t) (nnz > 0 ? nnz : 1) * sizeof (int32_t)) ;
    T.esz = esz ;
    if (esz > 0) T.x = malloc ((size_t) (nnz > 0 ? nnz : 1) * esz) ;
    assert_true (T.p != NULL && T.i != NULL && (esz == 0 || T.x != NULL)) ;
    int64_t q = 0 ;
    T.p [0] = 0 ;
    for (int64_t r = 0 ; r < nrows ; r++)
    {
        for (int64_t c = 0 ; c < ncols ; c++)
        {
            const uint8_t here = by_rows ? P->pat [r * P->K + c] : P->pat [c * P->K + r] ;
            if (!here) continue ;
            T.i [q] = (int32_t) c ;
            if (esz > 0) random_value (T.x + q * esz, esz) ;
            q++ ;
        }
        T.p [r+1] = (int32_t) q ;
    }
    T.csr.nrows = nrows ;
    T.csr.ncols = ncols ;
    T.csr.nnz = nnz ;
    T.csr.p32 = T.p ;
    T.csr.i32 = T.i ;
    T.csr.x = T.x ;
    T.csr.max_row = -1 ;
    return T ;
}

void csr_free (test_csr *T)
{
    free (T->p) ; free (T->i) ; free (T->x) ;
}

gg_nm_info detect (const pattern *P, gg_nm_orient orient, int v)
{
    test_csr T = csr_of (P, orient, 0) ;
    gg_nm_opts opts ;
    gg_nm_opts_default (&opts) ;
    opts.orient = orient ;
    opts.v = v ;
    gg_nm_info info ;
    assert_int_equal (gg_nm_detect (&info, &T.csr, &opts), GG_OK) ;
    csr_free (&T) ;
    return info ;
}

// What the detector reports for a level must be the true group maximum.
void check_levels (const gg_nm_info *info, const pattern *P, int v)
{
    for (int l = 0 ; l < GG_NM_NLEVELS ; l++)
    {
        if (info->max_count [l] >= 0)
        {
            assert_int_equal (info->max_count [l], brute_max_count (P, 2 << l, v)) ;
        }
    }
    if (info->is_nm)
    {
        // the pair found holds, by brute force
        assert_true (brute_max_count (P, info->m, v) <= info->n) ;
        assert_true (2 * info->n <= info->m && info->m <= P->K) ;
    }
}

