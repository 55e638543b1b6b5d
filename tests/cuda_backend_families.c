//------------------------------------------------------------------------------
// tests/cuda_backend_families.c: kernel-family rows (TC, N:M, rows by length)
//------------------------------------------------------------------------------

#include "config.h"

#include "tests/cuda_backend_test.h"

// an m x k CSR with room for cap entries and none yet (p [0] = 0)
static test_csr csr_with_room (int64_t m, int64_t k, size_t cap)
{
    test_csr S = { .m = m, .k = k } ;
    S.p = malloc ((m + 1) * sizeof (int32_t)) ;
    S.i = malloc (cap * sizeof (int32_t)) ;
    S.v = malloc (cap * sizeof (double)) ;
    S.x = malloc (cap * 8) ;
    S.p [0] = 0 ;
    return S ;
}

static test_csr make_windowed_csr (int64_t m, int64_t k, int cols, gg_type t)
{
    test_csr S = csr_with_room (m, k, (size_t) m * (size_t) (cols + 4) + 16) ;
    int32_t *wc = malloc ((size_t) cols * sizeof (int32_t)) ;
    char *mark = calloc ((size_t) k, 1) ;
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
void test_tc_family (void **state)
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
// extra < 0: vector-wise, blocks of 32 rows share their positions (all
// groups full, no empty rows): the kernel's shared-index layout, and its
// packed X tiles from 75 % sparsity; the tensor-core row nmtc's operand.
static test_csr make_nm_csr (int64_t m, int64_t k, int N, int M, gg_type t,
    int extra)
{
    test_csr S = csr_with_room (m, k, (size_t) m * (size_t) ((k + M - 1) / M) * (size_t) N + 16) ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        for (int64_t g0 = 0 ; (extra < 0 || r % 7 != 3) && g0 < k ; g0 += M)
        {
            // (vector-wise: the block's own stream of positions)
            uint64_t keep = rng_state ;
            if (extra < 0) rng_state = 0x9e3779b97f4a7c15ull ^ (uint64_t) ((r / 32) * k + g0 + 1) ;
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

// The N:M rows (backend/cuda/family_nm.c): nm forced (GRBGPU_KERNEL=nm) on 2:4,
// 1:4 and 1:8 matrices, FP32 and FP64, it runs and gives the reference's
// values (an Inf and a NaN in X included; an iso S too; a vector-wise S,
// which takes the shared-index layout; S given by its transpose's arrays,
// as GrB_mxm (Y, X, W) with W held by row arrives); a near-miss (M/2:M
// with one group holding one entry too many) and a semiring it does not take go
// elsewhere, still right; with the chooser measuring (a cached S, enough
// work) the product is right whichever row wins (printed).  nmtc (tensor
// cores, FP32) forced on the vector-wise S: below.
void test_nm_family (void **state)
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
            // the tensor-core row (FP32): forced, it runs on the vector-wise
            // S with X's columns a multiple of 4 and values neither
            // subnormal nor Inf / NaN, and declines an element-wise S, 5
            // columns, and an X holding an Inf.  X holds zeros: a column of
            // +0, one of -0, and a zero in one entry of 3; rows of S with
            // every value negative (1 in 3) then have -0 in the +0 column
            // and +0 in the -0 one, which the row must give as the CPU does
            if (t == GG_FP32)
            {
                for (int64_t r = 0 ; r < W.m ; r += 3)
                    for (int64_t q = W.p [r] ; q < W.p [r+1] ; q++)
                    {
                        put (W.x, (size_t) q, t, -fabs (W.v [q])) ;
                        W.v [q] = get (W.x, (size_t) q, t) ;
                    }
                // (W's cached form holds the old values: a new entry)
                grbgpu_cache_release ((gg_cache_entry *) Wv.cache) ;
                Wv.cache = make_entry () ;
            }
            for (int ni = 0 ; t == GG_FP32 && ni < 4 ; ni++)
            {
                const int64_t n = (ni == 1) ? 5 : (ni == 2) ? 132 : 64 ;
                const bool elementwise = (ni == 3) ;
                double *Xv ;
                void *X = make_dense (W.k, n, t, &Xv) ;
                for (int64_t q = 0 ; q < W.k * n ; q++)
                {
                    const int64_t col = q % n ;
                    const double z = (col == 1) ? 0.0 : (col == 2) ? -0.0 : (q % 3 == 0) ? 0.0 : Xv [q] ;
                    put (X, (size_t) q, t, z) ;
                    Xv [q] = get (X, (size_t) q, t) ;
                }
                void *Y = malloc ((size_t) (W.m * n) * 8) ;
                gg_dense Xd = { .nrows = W.k, .ncols = n, .x = X } ;
                for (int inf = 0 ; inf < 2 ; inf++)
                {
                    if (inf) { put (X, 7 * n + 3, t, INFINITY) ; Xv [7 * n + 3] = INFINITY ; }
                    set_kernel ("nmtc") ;
                    memset (Y, 0x7f, (size_t) (W.m * n) * 8) ;
                    assert_int_equal (be->spmm (&sr, elementwise ? &Sv : &Wv, &Xd, Y), GG_OK) ;
                    set_kernel ("") ;
                    const char *fam = gg_spmm_last_family () ;
                    const bool want = nm_on && !inf && !elementwise && n % 4 == 0 ;
                    const test_csr *R = elementwise ? &S : &W ;
                    int bad = check_spmm (&sr, R, false, Xv, n, Y) ;
                    // the sign of each zero: -0 exactly where every product is -0
                    int bad_sign = 0, neg = 0 ;
                    for (int64_t r = 0 ; !inf && r < R->m ; r++)
                    {
                        if (R->p [r] == R->p [r+1]) continue ;
                        for (int64_t j = 0 ; j < n ; j++)
                        {
                            const float y = ((const float *) Y) [r * n + j] ;
                            if (y != 0) continue ;
                            bool all_neg0 = true ;
                            for (int32_t q = R->p [r] ; q < R->p [r+1] ; q++)
                            {
                                const float prod = (float) R->v [q] * (float) Xv [R->i [q] * n + j] ;
                                all_neg0 = all_neg0 && prod == 0 && signbit (prod) ;
                            }
                            neg += all_neg0 ;
                            bad_sign += (signbit (y) != 0) != all_neg0 ;
                        }
                    }
                    print_message ("  nmtc %d:%d n %ld%s%s: ran %s, %d wrong, %d zero signs wrong "
                        "(%d -0 expected)\n", N, M, (long) n, inf ? " (Inf in X)" : "",
                        elementwise ? " (element-wise S)" : "", fam, bad, bad_sign, neg) ;
                    assert_int_equal (bad_sign, 0) ;
                    if (!inf && !elementwise) assert_true (neg > 0) ;
                    assert_int_equal (bad, 0) ;
                    if (want) assert_string_equal (fam, "nmtc") ;
                    else assert_string_not_equal (fam, "nmtc") ;
                }
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


// rows of very different lengths: most 0-5 entries, every 97th 300, so that
// the nnz-split schedules cut rows across chunks
static test_csr make_skewed_csr (int64_t m, int64_t k, gg_type t)
{
    test_csr S = csr_with_room (m, k, (size_t) m * 6 + (size_t) (m / 97 + 1) * 300 + 16) ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        const int64_t len = (r % 97 == 3) ? 300 : (int64_t) (rng () % 6) ;
        const int64_t step = k / (len + 1) ;
        int64_t c = (int64_t) (rng () % (uint64_t) (step > 0 ? step : 1)) ;
        for (int64_t q = 0 ; q < len && c < k ; q++, c += 1 + (int64_t) (rng () % (uint64_t) (step > 0 ? step : 1)))
        {
            put (S.x, (size_t) S.nnz, t, rnd_value ()) ;
            S.v [S.nnz] = get (S.x, (size_t) S.nnz, t) ;
            S.i [S.nnz++] = (int32_t) c ;
        }
        S.p [r+1] = (int32_t) S.nnz ;
    }
    return S ;
}

// One new version of a skewed S (40000 x 4001), two products with X of 32
// columns through the chooser: right each time, and lenr / tc3r taken only
// where allowed.
static void lenr_chooser_round (const gg_semiring *sr, bool lenr_ok, bool tc3r_ok)
{
    test_csr S = make_skewed_csr (40000, 4001, sr->type) ;
    gg_csr Sv = view_csr (&S, false, make_entry ()) ;
    double *Xv ;
    void *X = make_dense (S.k, 32, sr->type, &Xv) ;
    void *Y = malloc ((size_t) (S.m * 32) * 8) ;
    gg_dense Xd = { .nrows = S.k, .ncols = 32, .x = X } ;
    for (int call = 0 ; call < 2 ; call++)
    {
        memset (Y, 0x7f, (size_t) (S.m * 32) * 8) ;
        assert_int_equal (be->spmm (sr, &Sv, &Xd, Y), GG_OK) ;
        const char *fam = gg_spmm_last_family () ;
        print_message ("  reorder %d, lenr %s, tc3r %s, call %d: %s\n", grbgpu_settings.reorder,
            lenr_ok ? "allowed" : "not", tc3r_ok ? "allowed" : "not", call, fam) ;
        assert_int_equal (check_spmm (sr, &S, false, Xv, 32, Y), 0) ;
        if (!lenr_ok) assert_string_not_equal (fam, "lenr") ;
        if (!tc3r_ok) assert_string_not_equal (fam, "tc3r") ;
    }
    grbgpu_cache_release ((gg_cache_entry *) Sv.cache) ;
    free_csr (&S) ; free (X) ; free (Xv) ; free (Y) ;
}

// The own kernels on S's rows ordered by length (backend/cuda/family_rows.c,
// row lenr): forced (GRBGPU_KERNEL=lenr) they run for every semiring and
// type tried, n = 1, 5, 32, and give the reference's values in S's row
// order; with GRBGPU_REORDER=1 and the chooser measuring, the product is
// right whichever row wins, and after S changes (a new form) too; with
// GRBGPU_REORDER=0 and nothing forced the row is never offered; a fault in
// every reordered form's build leaves the right product, made without them.
void test_lenr_family (void **state)
{
    (void) state ;
    const gg_semiring srs [6] = {
        { .add = GG_ADD_PLUS, .mul = GG_MUL_TIMES, .type = GG_FP32 },
        { .add = GG_ADD_PLUS, .mul = GG_MUL_TIMES, .type = GG_FP64 },
        { .add = GG_ADD_MIN, .mul = GG_MUL_PLUS, .type = GG_FP64 },
        { .add = GG_ADD_PLUS, .mul = GG_MUL_TIMES, .type = GG_INT32 },
        { .add = GG_ADD_MAX, .mul = GG_MUL_FIRST, .type = GG_FP32 },
        { .add = GG_ADD_PLUS, .mul = GG_MUL_PAIR, .type = GG_INT64 } } ;
    const int64_t ns [3] = { 1, 5, 32 } ;
    for (int s = 0 ; s < 6 ; s++)
    {
        const gg_semiring *sr = &srs [s] ;
        test_csr S = make_skewed_csr (2003, 611, sr->type) ;
        gg_csr Sv = view_csr (&S, false, make_entry ()) ;
        for (int ni = 0 ; ni < 3 ; ni++)
        {
            const int64_t n = ns [ni] ;
            double *Xv ;
            void *X = make_dense (S.k, n, sr->type, &Xv) ;
            void *Y = malloc ((size_t) (S.m * n) * 8) ;
            gg_dense Xd = { .nrows = S.k, .ncols = n, .x = X } ;
            set_kernel ("lenr") ;
            memset (Y, 0x7f, (size_t) (S.m * n) * 8) ;
            assert_int_equal (be->spmm (sr, &Sv, &Xd, Y), GG_OK) ;
            const char *fam = gg_spmm_last_family () ;
            const int bad = check_spmm (sr, &S, false, Xv, n, Y) ;
            if (bad || strcmp (fam, "lenr") != 0)
                print_message ("  lenr semiring %d n %ld: ran %s, %d wrong\n", s, (long) n, fam, bad) ;
            assert_int_equal (bad, 0) ;
            assert_string_equal (fam, "lenr") ;
            set_kernel ("") ;
            free (X) ; free (Xv) ; free (Y) ;
        }
        grbgpu_cache_release ((gg_cache_entry *) Sv.cache) ;
        free_csr (&S) ;
    }
    // the chooser measuring (about 180K entries x 32 columns), with
    // GRBGPU_REORDER=1 (lenr and tc3r offered), auto (lenr only) and 0 (none)
    const int was = grbgpu_settings.reorder ;
    const int settings [3] = { 1, GG_REORDER_AUTO, 0 } ;
    for (int si = 0 ; si < 3 ; si++)
    {
        grbgpu_settings.reorder = settings [si] ;
        for (int version = 0 ; version < 2 ; version++)
            lenr_chooser_round (&srs [0], settings [si] != 0, settings [si] == 1) ;
    }
    // every reordered form's build failing (GRBGPU_FAULT=reorder:1, the rows
    // lenr and tc3r offered): the products are right, made without them; a
    // later version of S (faults off) may take lenr again
    grbgpu_settings.reorder = 1 ;
    assert_int_equal (grbgpu_fault_configure ("reorder:1"), 0) ;
    lenr_chooser_round (&srs [0], false, false) ;
    assert_int_equal (grbgpu_fault_configure (""), 0) ;
    lenr_chooser_round (&srs [0], true, true) ;
    grbgpu_settings.reorder = was ;
}
