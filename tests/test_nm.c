//------------------------------------------------------------------------------
// tests/test_nm.c: N:M detection, packing and unpacking (formats/nm.c, formats/nm_pack.c)
//------------------------------------------------------------------------------

// Patterns are drawn fresh (the seed is printed; GG_NM_SEED=... repeats a run)
// as an R x K 0/1 array "pat" in the kernel's terms: R output positions, K
// along the reduction.  The CSR handed to formats/nm.c is pat itself
// (GG_NM_ROWS) or its transpose (GG_NM_COLS: the K x R weight W).  Group
// counts are checked against a brute-force count on pat.
//
// The patterns, their CSR and the detector's call: tests/nm_test_util.c.

#include "tests/nm_test.h"

//------------------------------------------------------------------------------
// detection
//------------------------------------------------------------------------------

static const int pairs [][2] = {
    { 1, 2 }, { 2, 4 }, { 1, 4 }, { 4, 8 }, { 3, 8 }, { 2, 8 }, { 1, 8 },
    { 8, 16 }, { 16, 32 }, { 12, 32 }, { 8, 32 }, { 4, 32 }, { 1, 32 } } ;
#define NPAIRS ((int) (sizeof (pairs) / sizeof (pairs [0])))

// Exact n:m patterns (n entries in every group) are found as (n, m) in both
// orientations, and with k not a multiple of m (the last partial group holds
// min (n, its width)).
static void test_detect_pairs (void **state)
{
    (void) state ;
    for (int t = 0 ; t < NPAIRS ; t++)
    {
        const int n = pairs [t][0], m = pairs [t][1] ;
        for (int orient = 0 ; orient < 2 ; orient++)
        {
            for (int edge = 0 ; edge < 2 ; edge++)
            {
                const int64_t R = 48 + rnd_below (32) ;
                const int64_t K = 8 * 32 + (edge ? 1 + rnd_below (m - 1 > 0 ? m - 1 : 1) : 0) ;
                pattern P = nm_pattern (R, K, n, m, 1) ;
                gg_nm_info info = detect (&P, (gg_nm_orient) orient, 1) ;
                if (!info.is_nm || info.n != n || info.m != m)
                {
                    print_error ("%d:%d orient %d K %ld: found %d %d:%d (%s)\n",
                        n, m, orient, (long) K, info.is_nm, info.n, info.m,
                        info.reason ? info.reason : "") ;
                }
                assert_true (info.is_nm) ;
                assert_int_equal (info.n, n) ;
                assert_int_equal (info.m, m) ;
                assert_true (gg_nm_fits (&info, n, m)) ;
                if (n > 1) assert_false (gg_nm_fits (&info, n - 1, m)) ;
                // a coarser M with the same ratio holds too (when followed)
                if (2 * m <= 32 && info.max_count [__builtin_ctz (2 * m) - 1] >= 0)
                {
                    assert_true (gg_nm_fits (&info, 2 * n, 2 * m)) ;
                }
                assert_true (info.fill > 0.99 || edge) ;
                check_levels (&info, &P, 1) ;
                free (P.pat) ;
            }
        }
    }
}

// One extra entry in one random group (anywhere, the last partial group
// included): (n, m) no longer holds.  Whatever is found instead holds (brute
// force) and is no sparser than n:m; it may be as sparse when the extra entry
// sits in the last partial group: a 1:4 pattern with one pair in a last group
// of 2 columns is still 2:8 (that 8-window holds only this group).
static void test_near_miss (void **state)
{
    (void) state ;
    for (int t = 0 ; t < NPAIRS ; t++)
    {
        const int n = pairs [t][0], m = pairs [t][1] ;
        for (int trial = 0 ; trial < 8 ; trial++)
        {
            const int orient = trial & 1 ;
            const bool edge = (trial & 2) != 0 ;
            const int64_t R = 32 + rnd_below (32) ;
            const int64_t K = 4 * 32 + (edge ? m / 2 + 1 + rnd_below (m / 2) : 0) ;
            pattern P = nm_pattern (R, K, n, m, 1) ;
            // the group: random, or the last (partial when edge) one
            const int64_t r = rnd_below (R) ;
            const int64_t ng = (K + m - 1) / m ;
            const int64_t g = (trial & 4) ? ng - 1 : rnd_below (ng) ;
            const int width = (int) ((K - g * m) < m ? (K - g * m) : m) ;
            int64_t c ;
            do c = g * m + rnd_below (width) ; while (P.pat [r * K + c]) ;
            P.pat [r * K + c] = 1 ;

            gg_nm_info info = detect (&P, (gg_nm_orient) orient, 1) ;
            assert_false (gg_nm_fits (&info, n, m)) ;
            if (info.is_nm)
            {
                // found something else, e.g. 2:4 for a 1:4 near miss
                assert_true ((int64_t) info.n * m >= (int64_t) n * info.m) ;
                assert_false (info.n == n && info.m == m) ;
                assert_true (edge || (int64_t) info.n * m > (int64_t) n * info.m) ;
            }
            check_levels (&info, &P, 1) ;

            // and packing as n:m refuses it
            test_csr T = csr_of (&P, (gg_nm_orient) orient, 4) ;
            gg_nm_form *f ;
            assert_int_equal (gg_nm_pack (&f, &T.csr, 4, n, m, 1,
                (gg_nm_orient) orient), GG_ERR_UNSUPPORTED) ;
            assert_null (f) ;
            csr_free (&T) ;
            free (P.pat) ;
        }
    }
    // the last partial group holding n+1 entries (width > n) is refused
    pattern P = nm_pattern (40, 64 + 5, 2, 4, 1) ;   // last group: 1 column
    pattern Q = nm_pattern (40, 64 + 3, 2, 4, 1) ;   // last group: 3 columns
    for (int64_t r = 0 ; r < Q.R ; r++)
    {
        for (int64_t c = 64 ; c < 67 ; c++) Q.pat [r * Q.K + c] = (r == 7) ;
    }
    gg_nm_info ip = detect (&P, GG_NM_ROWS, 1) ;
    assert_true (ip.is_nm && ip.n == 2 && ip.m == 4) ;
    gg_nm_info iq = detect (&Q, GG_NM_ROWS, 1) ;
    assert_false (gg_nm_fits (&iq, 2, 4)) ;
    free (P.pat) ;
    free (Q.pat) ;
}

// Empty, dense, exactly half dense but not N:M, too sparse, k < m, k < 2.
static void test_detect_edges (void **state)
{
    (void) state ;
    for (int orient = 0 ; orient < 2 ; orient++)
    {
        gg_nm_orient o = (gg_nm_orient) orient ;
        // empty (entries none; rows none)
        pattern E = pattern_new (16, 64) ;
        gg_nm_info info = detect (&E, o, 1) ;
        assert_false (info.is_nm) ;
        assert_string_equal (info.reason, "no entries") ;
        pattern Z = pattern_new (0, 64) ;
        info = detect (&Z, o, 1) ;
        assert_false (info.is_nm) ;
        free (E.pat) ;
        free (Z.pat) ;

        // all dense (1:1): refused before the pass
        pattern D = pattern_new (16, 64) ;
        memset (D.pat, 1, 16 * 64) ;
        info = detect (&D, o, 1) ;
        assert_false (info.is_nm) ;
        assert_false (gg_nm_fits (&info, 16, 32)) ;
        free (D.pat) ;

        // half of the positions, but in blocks: every level's cap is broken
        pattern H = pattern_new (16, 128) ;
        for (int64_t r = 0 ; r < 16 ; r++)
        {
            for (int64_t c = 0 ; c < 64 ; c++) H.pat [r * 128 + ((r & 1) ? c + 64 : c)] = 1 ;
        }
        info = detect (&H, o, 1) ;
        assert_false (info.is_nm) ;
        check_levels (&info, &H, 1) ;
        free (H.pat) ;

        // one entry per row in k = 4096: 1:32 would be 97 % padding
        pattern S = pattern_new (16, 4096) ;
        for (int64_t r = 0 ; r < 16 ; r++) S.pat [r * 4096 + rnd_below (4096)] = 1 ;
        info = detect (&S, o, 1) ;
        assert_false (info.is_nm) ;
        free (S.pat) ;

        // k = 3 < 4: only m = 2 is a candidate
        pattern A = pattern_new (16, 3) ;
        for (int64_t r = 0 ; r < 16 ; r++) { A.pat [r * 3] = 1 ; A.pat [r * 3 + 2] = 1 ; }
        info = detect (&A, o, 1) ;
        assert_true (info.is_nm && info.n == 1 && info.m == 2) ;
        for (int l = 1 ; l < GG_NM_NLEVELS ; l++) assert_int_equal (info.max_count [l], -1) ;
        A.pat [5 * 3 + 1] = 1 ;     // row 5: 2 entries in its first pair
        info = detect (&A, o, 1) ;
        assert_false (info.is_nm) ;
        free (A.pat) ;

        // k = 20 < 32: a 1:4 pattern is found as 1:4, never with m = 32
        pattern B = nm_pattern (64, 20, 1, 4, 1) ;
        info = detect (&B, o, 1) ;
        assert_true (info.is_nm && info.n == 1 && info.m == 4) ;
        assert_int_equal (info.max_count [4], -1) ;
        check_levels (&info, &B, 1) ;
        free (B.pat) ;

        // k = 1
        pattern C = pattern_new (8, 1) ;
        C.pat [3] = 1 ;
        info = detect (&C, o, 1) ;
        assert_false (info.is_nm) ;
        free (C.pat) ;
    }
}

// Vector-wise: blocks of v rows share their positions.  Found with v; a near
// miss (one row of a block uses a position its block does not) refused.
static void test_detect_vector_wise (void **state)
{
    (void) state ;
    const int cases [][3] = { { 2, 4, 4 }, { 1, 4, 8 }, { 8, 32, 32 }, { 4, 8, 3 },
        { 4, 32, 32 } } ;
    for (int t = 0 ; t < 5 ; t++)
    {
        const int n = cases [t][0], m = cases [t][1], v = cases [t][2] ;
        for (int orient = 0 ; orient < 2 ; orient++)
        {
            pattern P = nm_pattern (4 * v + rnd_below (v), 8 * 32, n, m, v) ;
            gg_nm_info info = detect (&P, (gg_nm_orient) orient, v) ;
            assert_true (info.is_nm) ;
            assert_int_equal (info.n, n) ;
            assert_int_equal (info.m, m) ;
            check_levels (&info, &P, v) ;

            // near miss: a row of a block where some group has n positions
            // gets one more position in that group
            int64_t b, g ;
            uint32_t used ;
            do
            {
                b = rnd_below (P.R / v) ;
                g = rnd_below (P.K / m) ;
                used = 0 ;
                for (int64_t r = b * v ; r < (b + 1) * v ; r++)
                {
                    for (int o = 0 ; o < m ; o++)
                    {
                        if (P.pat [r * P.K + g * m + o]) used |= 1u << o ;
                    }
                }
            }
            while (__builtin_popcount (used) != n) ;
            int o ;
            do o = (int) rnd_below (m) ; while (used & (1u << o)) ;
            P.pat [(b * v + rnd_below (v)) * P.K + g * m + o] = 1 ;
            info = detect (&P, (gg_nm_orient) orient, v) ;
            assert_false (gg_nm_fits (&info, n, m)) ;
            check_levels (&info, &P, v) ;
            free (P.pat) ;
        }
    }
}

// Past the first 2^20 entries the pass is split over threads: an exact 2:4
// pattern of 1.2M entries is found, and one extra entry in the last row, or
// in a row past the serial part, is seen (both orientations).
static void test_detect_parallel_part (void **state)
{
    (void) state ;
    const int64_t R = 600, K = 4096 ;
    pattern P = nm_pattern (R, K, 2, 4, 1) ;
    for (int orient = 0 ; orient < 2 ; orient++)
    {
        gg_nm_info info = detect (&P, (gg_nm_orient) orient, 1) ;
        assert_true (info.is_nm && info.n == 2 && info.m == 4) ;
        check_levels (&info, &P, 1) ;
    }
    const int64_t rows [2] = { R - 1, 520 + rnd_below (R - 521) } ;
    for (int t = 0 ; t < 2 ; t++)
    {
        pattern Q = pattern_new (R, K) ;
        memcpy (Q.pat, P.pat, (size_t) (R * K)) ;
        // one more entry in a random group of that row, one fewer in row 0
        // (so that the count of entries alone does not tell)
        const int64_t g = rnd_below (K / 4) ;
        int64_t c ;
        do c = g * 4 + rnd_below (4) ; while (Q.pat [rows [t] * K + c]) ;
        Q.pat [rows [t] * K + c] = 1 ;
        for (c = 0 ; !Q.pat [c] ; c++) ;
        Q.pat [c] = 0 ;
        for (int orient = 0 ; orient < 2 ; orient++)
        {
            gg_nm_info info = detect (&Q, (gg_nm_orient) orient, 1) ;
            assert_false (gg_nm_fits (&info, 2, 4)) ;
            assert_false (info.is_nm) ;
        }
        free (Q.pat) ;
    }
    free (P.pat) ;
}

//------------------------------------------------------------------------------
// packing
//------------------------------------------------------------------------------

// pack, then unpack: the same CSR, byte for byte; the form's own invariants.
static void round_trip (const pattern *P, int n, int m, int v,
    gg_nm_orient orient, size_t esz, bool iso)
{
    test_csr T = csr_of (P, orient, esz) ;
    T.csr.iso = iso ;
    gg_nm_form *f ;
    assert_int_equal (gg_nm_pack (&f, &T.csr, esz, n, m, v, orient), GG_OK) ;
    const int64_t G = (P->K + m - 1) / m, B = (P->R + v - 1) / v ;
    const int64_t nslots = P->R * G * n ;
    assert_int_equal (f->groups, G) ;
    assert_int_equal (f->blocks, B) ;
    assert_int_equal (f->nnz, T.csr.nnz) ;
    const size_t xbytes = (esz == 0) ? 0 : (iso ? esz : (size_t) nslots * esz) ;
    assert_int_equal (f->bytes, (size_t) (B * G * n) + (size_t) (nslots + 7) / 8 + xbytes) ;
    // offsets ascending inside [0, m); absent slots hold zero bytes
    for (int64_t s = 0 ; s < B * G ; s++)
    {
        for (int j = 0 ; j < n ; j++)
        {
            assert_true (f->offset [s * n + j] < m) ;
            if (j > 0) assert_true (f->offset [s * n + j] > f->offset [s * n + j - 1]) ;
        }
    }
    if (esz > 0 && !iso)
    {
        for (int64_t d = 0 ; d < nslots ; d++)
        {
            if (f->present [d >> 3] & (1u << (d & 7))) continue ;
            for (size_t b = 0 ; b < esz ; b++)
            {
                assert_int_equal (((uint8_t *) f->x) [d * esz + b], 0) ;
            }
        }
    }

    gg_nm_csr *c ;
    assert_int_equal (gg_nm_unpack (&c, f), GG_OK) ;
    assert_int_equal (c->nrows, T.csr.nrows) ;
    assert_int_equal (c->ncols, T.csr.ncols) ;
    assert_int_equal (c->nnz, T.csr.nnz) ;
    assert_memory_equal (c->p, T.p, (size_t) (T.csr.nrows + 1) * sizeof (int32_t)) ;
    if (T.csr.nnz > 0) assert_memory_equal (c->i, T.i, (size_t) T.csr.nnz * sizeof (int32_t)) ;
    if (esz == 0)
    {
        assert_null (c->x) ;
    }
    else
    {
        assert_int_equal (c->iso, iso) ;
        const size_t nx = iso ? 1 : (size_t) T.csr.nnz ;
        if (nx > 0) assert_memory_equal (c->x, T.x, nx * esz) ;
    }
    gg_nm_csr_free (c) ;
    gg_nm_form_free (f) ;
    csr_free (&T) ;
}

static void test_pack_round_trip (void **state)
{
    (void) state ;
    for (int t = 0 ; t < NPAIRS ; t++)
    {
        const int n = pairs [t][0], m = pairs [t][1] ;
        for (int orient = 0 ; orient < 2 ; orient++)
        {
            const int v = (t % 3 == 0) ? 1 : (t % 3 == 1 ? 4 : 5) ;
            const int64_t K = 6 * 32 + rnd_below (2 * m) ;      // often partial
            pattern P = nm_pattern (3 * v + rnd_below (2 * v), K, n, m, v) ;
            round_trip (&P, n, m, v, (gg_nm_orient) orient, 4, false) ;
            round_trip (&P, n, m, v, (gg_nm_orient) orient, 8, false) ;
            round_trip (&P, n, m, v, (gg_nm_orient) orient, 0, false) ;
            round_trip (&P, n, m, v, (gg_nm_orient) orient, 8, true) ;
            round_trip (&P, n, m, v, (gg_nm_orient) orient, 2, false) ;
            // a looser pair holds too: the padding grows, the CSR comes back
            if (2 * n <= m / 2) round_trip (&P, 2 * n, m, v, (gg_nm_orient) orient, 4, false) ;
            free (P.pat) ;
        }
    }
    // no entries at all: a form of padding only, and back
    pattern E = pattern_new (9, 40) ;
    round_trip (&E, 2, 4, 1, GG_NM_ROWS, 4, false) ;
    round_trip (&E, 2, 4, 3, GG_NM_COLS, 8, false) ;
    free (E.pat) ;
}

// The packed form multiplies like the CSR: y = S * x with x padded to
// groups*m zeros, as a kernel reads it (values and offsets only), against the
// CSR product.  Small integer values, so both sums are exact.
static void test_pack_product (void **state)
{
    (void) state ;
    for (int t = 0 ; t < NPAIRS ; t++)
    {
        const int n = pairs [t][0], m = pairs [t][1], v = (t & 1) ? 1 : 2 ;
        pattern P = nm_pattern (40, 5 * 32 + 7, n, m, v) ;
        test_csr T = csr_of (&P, GG_NM_ROWS, 8) ;
        double *sx = (double *) T.x ;
        for (int64_t q = 0 ; q < T.csr.nnz ; q++) sx [q] = (double) (rnd_below (19) - 9) ;
        const int64_t G = (P.K + m - 1) / m ;
        double *x = calloc ((size_t) (G * m), sizeof (double)) ;
        assert_non_null (x) ;
        for (int64_t c = 0 ; c < P.K ; c++) x [c] = (double) (rnd_below (17) - 8) ;
        gg_nm_form *f ;
        assert_int_equal (gg_nm_pack (&f, &T.csr, 8, n, m, v, GG_NM_ROWS), GG_OK) ;
        const double *px = (const double *) f->x ;
        for (int64_t r = 0 ; r < P.R ; r++)
        {
            double want = 0, got = 0 ;
            for (int64_t q = T.p [r] ; q < T.p [r+1] ; q++) want += sx [q] * x [T.i [q]] ;
            const uint8_t *off = f->offset + (r / v) * G * n ;
            for (int64_t g = 0 ; g < G ; g++)
            {
                for (int s = 0 ; s < n ; s++)
                {
                    got += px [(r * G + g) * n + s] * x [g * m + off [g * n + s]] ;
                }
            }
            assert_true (got == want) ;
        }
        gg_nm_form_free (f) ;
        free (x) ;
        csr_free (&T) ;
        free (P.pat) ;
    }
}

// col_info: a tile's product read through the packed X tile (only the rows
// some block of the tile uses, in the order of their positions) equals the
// CSR product; and the packed tile is no larger than the tile's slots allow.
static void test_col_info (void **state)
{
    (void) state ;
    for (int t = 0 ; t < NPAIRS ; t++)
    {
        const int n = pairs [t][0], m = pairs [t][1] ;
        const int v = (t & 1) ? 1 : 4, qs = 1 + (int) rnd_below (4) ;
        pattern P = nm_pattern (8 * v + rnd_below (3 * v), 4 * 32 + 5, n, m, v) ;
        test_csr T = csr_of (&P, GG_NM_ROWS, 8) ;
        double *sx = (double *) T.x ;
        for (int64_t q = 0 ; q < T.csr.nnz ; q++) sx [q] = (double) (rnd_below (19) - 9) ;
        const int64_t G = (P.K + m - 1) / m ;
        double *x = calloc ((size_t) (G * m), sizeof (double)) ;
        double *tile = calloc ((size_t) m, sizeof (double)) ;
        assert_true (x != NULL && tile != NULL) ;
        for (int64_t c = 0 ; c < P.K ; c++) x [c] = (double) (rnd_below (17) - 8) ;
        gg_nm_form *f ;
        gg_nm_col_info *ci ;
        assert_int_equal (gg_nm_pack (&f, &T.csr, 8, n, m, v, GG_NM_ROWS), GG_OK) ;
        assert_int_equal (gg_nm_col_info_build (&ci, f, qs), GG_OK) ;
        assert_int_equal (ci->tiles, (f->blocks + qs - 1) / qs) ;
        const double *px = (const double *) f->x ;
        double *got = calloc ((size_t) P.R, sizeof (double)) ;
        assert_non_null (got) ;
        for (int64_t g = 0 ; g < G ; g++)
        {
            for (int64_t tl = 0 ; tl < ci->tiles ; tl++)
            {
                // the packed X tile of (tl, g): the used rows, ascending
                const uint32_t used = ci->used [tl * G + g] ;
                assert_true (__builtin_popcount (used) <= (qs * n < m ? qs * n : m)) ;
                int j = 0 ;
                for (int o = 0 ; o < m ; o++) if (used & (1u << o)) tile [j++] = x [g * m + o] ;
                for (int64_t b = tl * qs ; b < (tl + 1) * qs && b < f->blocks ; b++)
                {
                    for (int64_t r = b * v ; r < (b + 1) * v && r < P.R ; r++)
                    {
                        for (int s = 0 ; s < n ; s++)
                        {
                            got [r] += px [(r * G + g) * n + s]
                                * tile [ci->rank [(b * G + g) * n + s]] ;
                        }
                    }
                }
            }
        }
        for (int64_t r = 0 ; r < P.R ; r++)
        {
            double want = 0 ;
            for (int64_t q = T.p [r] ; q < T.p [r+1] ; q++) want += sx [q] * x [T.i [q]] ;
            assert_true (got [r] == want) ;
        }
        gg_nm_col_info_free (ci) ;
        gg_nm_form_free (f) ;
        free (got) ;
        free (tile) ;
        free (x) ;
        csr_free (&T) ;
        free (P.pat) ;
    }
}

// Bad arguments are refused, never guessed.
static void test_refusals (void **state)
{
    (void) state ;
    pattern P = nm_pattern (8, 64, 2, 4, 1) ;
    test_csr T = csr_of (&P, GG_NM_ROWS, 4) ;
    gg_nm_form *f ;
    assert_int_equal (gg_nm_pack (&f, &T.csr, 4, 3, 4, 1, GG_NM_ROWS), GG_ERR_UNSUPPORTED) ;
    assert_int_equal (gg_nm_pack (&f, &T.csr, 4, 2, 6, 1, GG_NM_ROWS), GG_ERR_UNSUPPORTED) ;
    assert_int_equal (gg_nm_pack (&f, &T.csr, 4, 2, 4, 0, GG_NM_ROWS), GG_ERR_UNSUPPORTED) ;
    assert_int_equal (gg_nm_pack (&f, &T.csr, 4, 1, 4, 1, GG_NM_ROWS), GG_ERR_UNSUPPORTED) ;
    gg_nm_opts opts ;
    gg_nm_opts_default (&opts) ;
    opts.v = 0 ;
    gg_nm_info info ;
    assert_int_equal (gg_nm_detect (&info, &T.csr, &opts), GG_ERR_UNSUPPORTED) ;
    gg_csr wide = T.csr ;
    wide.p32 = NULL ;
    gg_nm_opts_default (&opts) ;
    assert_int_equal (gg_nm_detect (&info, &wide, &opts), GG_ERR_UNSUPPORTED) ;
    csr_free (&T) ;
    free (P.pat) ;
}

int main (void)
{
    const char *seed = getenv ("GG_NM_SEED") ;
    rng_state = seed ? strtoull (seed, NULL, 0) : (uint64_t) time (NULL) * 2654435761u + 1 ;
    if (rng_state == 0) rng_state = 1 ;
    printf ("test_nm: GG_NM_SEED=%llu\n", (unsigned long long) rng_state) ;
    const struct CMUnitTest tests [] = {
        cmocka_unit_test (test_detect_pairs),
        cmocka_unit_test (test_near_miss),
        cmocka_unit_test (test_detect_edges),
        cmocka_unit_test (test_detect_vector_wise),
        cmocka_unit_test (test_detect_parallel_part),
        cmocka_unit_test (test_pack_round_trip),
        cmocka_unit_test (test_pack_product),
        cmocka_unit_test (test_col_info),
        cmocka_unit_test (test_refusals),
    } ;
    return cmocka_run_group_tests (tests, NULL, NULL) ;
}
