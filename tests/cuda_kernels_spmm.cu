//------------------------------------------------------------------------------
// tests/cuda_kernels_spmm.cu: SpMM / SpMV cases, the hot form
//------------------------------------------------------------------------------

#include "tests/cuda_kernels_test.h"

//------------------------------------------------------------------------------
// SpMM
//------------------------------------------------------------------------------

int failures = 0, checks = 0 ;

// Whether Y's element (yr, j) (elements of ts bytes) holds row r's answer
// at column j: untouched (SENTINEL) where A's row r is empty, one of the
// row's products under ANY, else want (the reference)
static bool spmm_elem_ok (const csr &A, gg_semiring sr, bool iso, bool reads_s,
    bool reads_x, const std::vector<unsigned char> &sx, const std::vector<unsigned char> &X,
    const std::vector<unsigned char> &Y, int64_t n, int64_t r, int64_t yr, int64_t j,
    val want)
{
    const gg_type t = sr.type ;
    const size_t ts = gg_type_size (t) ;
    if (A.p [r] == A.p [r+1])
    {
        for (size_t b = 0 ; b < ts ; b++) if (Y [(yr * n + j) * ts + b] != SENTINEL) return false ;
        return true ;
    }
    const val got = get (t, Y.data (), yr * n + j) ;
    if (sr.add != GG_ADD_ANY) return same (t, sr.add, got, want) ;
    for (int64_t e = A.p [r] ; e < A.p [r+1] ; e++)
    {
        val s = reads_s ? get (t, sx.data (), iso ? 0 : e) : val { 0, 0 } ;
        val x = reads_x ? get (t, X.data (), A.i [e] * n + j) : val { 0, 0 } ;
        if (same (t, sr.add, got, ref_mul (t, sr.mul, s, x))) return true ;
    }
    return false ;
}

// one (matrix, semiring, n): every variant + the chooser
void test_spmm_case (const csr &A, gg_semiring sr, int64_t n, bool iso,
    const int32_t *d_p, const int32_t *d_i, const void *d_plan,
    const std::vector<hot_form> &hots)
{
    const gg_type t = sr.type ;
    const size_t ts = gg_type_size (t) ;
    bool reads_s = sr.mul != GG_MUL_SECOND && sr.mul != GG_MUL_PAIR ;
    bool reads_x = sr.mul != GG_MUL_FIRST && sr.mul != GG_MUL_PAIR ;
    bool tm = (sr.add == GG_ADD_TIMES) ;
    // S's longest row, given with the plan (slot_kK then skips its first
    // kernel where no row is longer than a slot; without the plan, -1)
    int64_t max_row = 0 ;
    for (int64_t r = 0 ; r < A.m ; r++)
        max_row = std::max (max_row, (int64_t) (A.p [r+1] - A.p [r])) ;
    std::vector<unsigned char> sx ((iso ? 1 : A.nnz) * ts + 8), X (A.k * n * ts + 8) ;
    fill_random (t, sx.data (), iso ? 1 : A.nnz, tm) ;
    fill_random (t, X.data (), A.k * n, tm) ;

    void *d_sx = NULL, *d_X = NULL, *d_Y = NULL ;
    if (reads_s)
    {
        CHECK_CUDA (cudaMalloc (&d_sx, sx.size ())) ;
        CHECK_CUDA (cudaMemcpy (d_sx, sx.data (), sx.size (), cudaMemcpyHostToDevice)) ;
    }
    if (reads_x)
    {
        CHECK_CUDA (cudaMalloc (&d_X, X.size ())) ;
        CHECK_CUDA (cudaMemcpy (d_X, X.data (), X.size (), cudaMemcpyHostToDevice)) ;
    }
    size_t ybytes = A.m * n * ts ;
    CHECK_CUDA (cudaMalloc (&d_Y, ybytes)) ;
    std::vector<unsigned char> Y (ybytes) ;

    // the reference, row by row; ANY keeps all candidates
    std::vector<val> want (A.m * n) ;
    for (int64_t r = 0 ; r < A.m ; r++)
        for (int64_t j = 0 ; j < n ; j++)
        {
            val acc = { 0, 0 } ;
            for (int64_t e = A.p [r] ; e < A.p [r+1] ; e++)
            {
                val s = reads_s ? get (t, sx.data (), iso ? 0 : e) : val { 0, 0 } ;
                val x = reads_x ? get (t, X.data (), A.i [e] * n + j) : val { 0, 0 } ;
                val z = ref_mul (t, sr.mul, s, x) ;
                acc = (e == A.p [r]) ? z : ref_add (t, sr.add, acc, z) ;
            }
            want [r * n + j] = acc ;
        }

    // (variant, with the plan made beforehand, hot form or -1); at n = 1
    // the hot/cold SpMV with each hot form (every other one with the plan)
    struct run_kind { const char *name ; bool plan ; int hot ; int band = -1 ; } ;
    std::vector<run_kind> names ;
    for (const char *const *v = gg_cuda_spmm_variants () ; *v != NULL ; v++)
    {
        names.push_back ({ *v, false, -1 }) ;
        if (strncmp (*v, "warp", 4) == 0 || strncmp (*v, "slot", 4) == 0) names.push_back ({ *v, true, -1 }) ;
    }
    names.push_back ({ "", false, -1 }) ;           // the chooser
    if (sr.add == GG_ADD_PLUS && sr.mul == GG_MUL_TIMES)
    {
        names.push_back ({ "row_g8/generic", false, -1 }) ;
        names.push_back ({ "nnz_k16/generic", false, -1 }) ;
        names.push_back ({ "merge_i8/generic", false, -1 }) ;
        names.push_back ({ "warp_t8/generic", false, -1 }) ;
    }
    if (n == 1)
        for (int h = 0 ; h < (int) hots.size () ; h++)
            if ((size_t) hots [h].K <= gg_cuda_spmv_hot_max ((int) ts))
                names.push_back ({ "hot", (h % 2) == 1, h }) ;
    // at n = 1 with a multiply that reads x: band forms (gg_cuda_spmv_band)
    // with bands of 16 and 64 columns and the device's width, every band
    // kept (min_nnz 1: up to 30 bands, the rest cold), and one with the
    // measured rule (on these small matrices: usually no form, which the
    // build answers with NULL)
    std::vector<gg_spmv_band_form *> bands ;
    std::vector<std::string> band_label ;
    if (n == 1 && reads_x)
    {
        const int64_t widths [] = { 16, 64, 0, 0 }, mins [] = { 1, 1, 1, -1 } ;
        for (int b = 0 ; b < 4 ; b++)
        {
            gg_spmv_band_form *bf = NULL ;
            int rc = gg_cuda_spmv_band_build (A.m, A.k, A.nnz, d_p, d_i,
                (reads_s && !iso) ? d_sx : NULL, (int) ts, widths [b], mins [b], &bf, 0) ;
            checks++ ;
            if (ts != 4)
            {
                // 4-byte values only
                if (rc != GG_ERR_UNSUPPORTED || bf != NULL)
                {
                    printf ("FAIL spmv_band_build %s %s: rc %d, want unsupported\n", A.name, type_name [t], rc) ;
                    failures++ ;
                }
                gg_cuda_spmv_band_free (bf, true, 0) ;
                continue ;
            }
            gg_spmv_band_info info ;
            gg_cuda_spmv_band_info (bf, &info) ;
            int64_t sum = 0 ;
            for (int q = 0 ; q <= info.nbands ; q++) sum += info.nnz [q] ;
            if (rc != GG_OK || (bf != NULL && (sum != A.nnz || info.nbands < 1
                || info.nbands > GG_SPMV_BAND_MAX || (widths [b] > 0 && info.width != widths [b]))))
            {
                printf ("FAIL spmv_band_build %s %s width %lld: rc %d, %d bands, %lld of %lld entries\n",
                    A.name, type_name [t], (long long) widths [b], rc, info.nbands,
                    (long long) sum, (long long) A.nnz) ;
                failures++ ;
                continue ;
            }
            if (mins [b] == 1 && bf == NULL)
            {
                printf ("FAIL spmv_band_build %s: no form with min_nnz 1\n", A.name) ;
                failures++ ;
            }
            if (bf == NULL) continue ;
            char lb [96] ;
            snprintf (lb, sizeof (lb), " band W=%lld nb=%d cold=%lld", (long long) info.width,
                info.nbands, (long long) info.nnz [info.nbands]) ;
            names.push_back ({ "band", false, -1, (int) bands.size () }) ;
            bands.push_back (bf) ;
            band_label.push_back (lb) ;
        }
    }
    for (const auto &nm : names)
    {
        const char *name = nm.name ;
        char label [96] ;
        snprintf (label, sizeof (label), "%s", nm.plan ? "+plan" : "") ;
        if (nm.hot >= 0)
            snprintf (label, sizeof (label), "%s K=%lld (kmax %lld)", nm.plan ? "+plan" : "",
                (long long) hots [nm.hot].K, (long long) hots [nm.hot].kmax) ;
        if (nm.band >= 0) snprintf (label, sizeof (label), "%s", band_label [nm.band].c_str ()) ;
        CHECK_CUDA (cudaMemset (d_Y, SENTINEL, ybytes)) ;
        int rc ;
        if (nm.band >= 0)
            rc = gg_cuda_spmv_band (&sr, bands [nm.band], d_sx, iso, d_X, d_Y, 0) ;
        else if (nm.hot >= 0)
            rc = gg_cuda_spmv_hot (&sr, A.m, A.k, A.nnz, d_p, hots [nm.hot].d_ih, d_sx, iso,
                d_X, d_Y, nm.plan ? d_plan : NULL, hots [nm.hot].d_hot, hots [nm.hot].K, 0) ;
        else
            rc = gg_cuda_spmm_plan (&sr, A.m, A.k, n, A.nnz, d_p, d_i, d_sx, iso,
                d_X, d_Y, nm.plan ? d_plan : NULL, nm.plan ? max_row : -1, name, 0) ;
        cudaError_t err = cudaDeviceSynchronize () ;
        checks++ ;
        if (rc != GG_OK || err != cudaSuccess)
        {
            printf ("FAIL spmm %s %s_%s_%s n=%lld %s%s: rc %d, %s\n", A.name,
                add_name [sr.add], mul_name [sr.mul], type_name [t],
                (long long) n, name, label, rc, cudaGetErrorString (err)) ;
            failures++ ;
            if (err != cudaSuccess) exit (1) ;     // context is lost
            continue ;
        }
        CHECK_CUDA (cudaMemcpy (Y.data (), d_Y, ybytes, cudaMemcpyDeviceToHost)) ;
        int64_t bad = 0, first_r = -1, first_j = -1 ;
        for (int64_t r = 0 ; r < A.m ; r++)
        {
            bool empty = (A.p [r] == A.p [r+1]) ;
            for (int64_t j = 0 ; j < n ; j++)
            {
                // (the band kernel writes every row: empty ones hold the
                // identity, which the backend never reads)
                const bool ok = (empty && nm.band >= 0)
                    || spmm_elem_ok (A, sr, iso, reads_s, reads_x, sx, X, Y, n, r, r, j, want [r * n + j]) ;
                if (!ok && bad++ == 0) { first_r = r ; first_j = j ; }
            }
        }
        if (bad > 0)
        {
            failures++ ;
            val g = get (t, Y.data (), first_r * n + first_j) ;
            val w = want [first_r * n + first_j] ;
            printf ("FAIL spmm %s %s_%s_%s n=%lld iso=%d %s%s: %lld wrong, first "
                "(%lld,%lld) rowlen %d got %llu/%g want %llu/%g\n", A.name,
                add_name [sr.add], mul_name [sr.mul], type_name [t], (long long) n,
                (int) iso, name [0] ? name : "(chooser)", label, (long long) bad,
                (long long) first_r, (long long) first_j,
                A.p [first_r+1] - A.p [first_r], (unsigned long long) g.u, g.d,
                (unsigned long long) w.u, w.d) ;
        }
    }
    for (gg_spmv_band_form *bf : bands) gg_cuda_spmv_band_free (bf, true, 0) ;

    // the permuted store (gg_cuda_spmm_rows): row r of S X to row
    // row_out [r] of Y, a random permutation, with row, nnz and slot
    // schedules and the chooser's pick, the slots also with the plan and S's
    // longest row (gg_cuda_spmm_plan_rows; FP32 PLUS_TIMES from 4 column
    // lanes, else nnz_kK); rows without entries leave their target
    // untouched; the SpMV schedules refuse it
    {
        std::vector<int32_t> perm (A.m) ;
        for (int64_t r = 0 ; r < A.m ; r++) perm [r] = (int32_t) r ;
        uint64_t st = 0x9e3779b97f4a7c15ull ^ (uint64_t) (A.m * 131 + n * 7 + sr.type) ;
        for (int64_t r = A.m - 1 ; r > 0 ; r--)
        {
            st = st * 6364136223846793005ull + 1442695040888963407ull ;
            const int64_t q = (int64_t) ((st >> 33) % (uint64_t) (r + 1)) ;
            std::swap (perm [r], perm [q]) ;
        }
        int32_t *d_perm = NULL ;
        CHECK_CUDA (cudaMalloc (&d_perm, (A.m + 1) * sizeof (int32_t))) ;
        CHECK_CUDA (cudaMemcpy (d_perm, perm.data (), A.m * sizeof (int32_t), cudaMemcpyHostToDevice)) ;
        // (a row and two nnz schedules, the chooser's pick, an SpMV one: the
        // other variants share these kernels, and the test's time matters)
        const std::vector<std::string> rnames = { "row_g8", "nnz_k16", "nnz_k128", "", "merge_i8",
            "slot_k32", "slot_k64", "slot_k32+plan", "slot_k64+plan" } ;
        for (const std::string &rn0 : rnames)
        {
            const bool with_plan = rn0.size () > 5 && rn0.compare (rn0.size () - 5, 5, "+plan") == 0 ;
            const std::string rn = with_plan ? rn0.substr (0, rn0.size () - 5) : rn0 ;
            const bool takes = rn.empty () || rn.compare (0, 3, "row") == 0
                || rn.compare (0, 3, "nnz") == 0 || rn.compare (0, 4, "slot") == 0 ;
            CHECK_CUDA (cudaMemset (d_Y, SENTINEL, ybytes)) ;
            const int rc = with_plan
                ? gg_cuda_spmm_plan_rows (&sr, A.m, A.k, n, A.nnz, d_p, d_i, d_sx, iso, d_X, d_Y,
                    d_plan, max_row, d_perm, rn.c_str (), 0)
                : gg_cuda_spmm_rows (&sr, A.m, A.k, n, A.nnz, d_p, d_i, d_sx, iso,
                    d_X, d_Y, d_perm, rn.c_str (), 0) ;
            cudaError_t err = cudaDeviceSynchronize () ;
            checks++ ;
            if (!takes)
            {
                if (rc != GG_ERR_UNSUPPORTED || err != cudaSuccess)
                {
                    printf ("FAIL spmm_rows %s %s: rc %d, want unsupported\n", A.name, rn.c_str (), rc) ;
                    failures++ ;
                }
                continue ;
            }
            if (rc != GG_OK || err != cudaSuccess)
            {
                printf ("FAIL spmm_rows %s %s_%s_%s n=%lld %s: rc %d, %s\n", A.name,
                    add_name [sr.add], mul_name [sr.mul], type_name [t], (long long) n,
                    rn0.c_str (), rc, cudaGetErrorString (err)) ;
                failures++ ;
                if (err != cudaSuccess) exit (1) ;
                continue ;
            }
            CHECK_CUDA (cudaMemcpy (Y.data (), d_Y, ybytes, cudaMemcpyDeviceToHost)) ;
            int64_t bad = 0 ;
            for (int64_t r = 0 ; r < A.m ; r++)
            {
                for (int64_t j = 0 ; j < n ; j++)
                    bad += !spmm_elem_ok (A, sr, iso, reads_s, reads_x, sx, X, Y, n, r, perm [r], j,
                        want [r * n + j]) ;
            }
            if (bad > 0)
            {
                failures++ ;
                printf ("FAIL spmm_rows %s %s_%s_%s n=%lld iso=%d %s: %lld wrong\n", A.name,
                    add_name [sr.add], mul_name [sr.mul], type_name [t], (long long) n,
                    (int) iso, rn.empty () ? "(chooser)" : rn0.c_str (), (long long) bad) ;
            }
        }
        // no row_out: refused
        checks++ ;
        if (gg_cuda_spmm_rows (&sr, A.m, A.k, n, A.nnz, d_p, d_i, d_sx, iso, d_X, d_Y,
            NULL, "", 0) != GG_ERR_UNSUPPORTED)
        {
            printf ("FAIL spmm_rows %s: NULL row_out accepted\n", A.name) ;
            failures++ ;
        }
        cudaFree (d_perm) ;
    }
    cudaFree (d_sx) ; cudaFree (d_X) ; cudaFree (d_Y) ;
}

//------------------------------------------------------------------------------
// the hot form of SpMV (gg_cuda_spmv_hot_build)
//------------------------------------------------------------------------------

// Build with kmax and check the form: K <= kmax, hot ascending, ih [e] names
// i [e] (directly when cold, through hot when hot), every hot column has at
// least as many entries as every cold one, and when every non-empty column
// fits (distinct <= kmax) all of them are hot.
hot_form test_hot_build (const csr &A, const int32_t *d_i, int64_t kmax)
{
    hot_form h = { kmax, 0, NULL, NULL } ;
    CHECK_CUDA (cudaMalloc (&h.d_hot, (kmax + 1) * sizeof (int32_t))) ;
    CHECK_CUDA (cudaMalloc (&h.d_ih, (A.nnz + 1) * sizeof (int32_t))) ;
    int64_t hot_nnz = -1 ;
    int rc = gg_cuda_spmv_hot_build (A.m, A.k, A.nnz, NULL, d_i, kmax, h.d_hot,
        h.d_ih, &h.K, &hot_nnz, 0) ;
    CHECK_CUDA (cudaDeviceSynchronize ()) ;
    checks++ ;
    std::vector<int32_t> hot (h.K + 1), ih (A.nnz + 1) ;
    if (h.K > 0) CHECK_CUDA (cudaMemcpy (hot.data (), h.d_hot, h.K * sizeof (int32_t), cudaMemcpyDeviceToHost)) ;
    CHECK_CUDA (cudaMemcpy (ih.data (), h.d_ih, A.nnz * sizeof (int32_t), cudaMemcpyDeviceToHost)) ;
    std::vector<int64_t> deg (A.k, 0) ;
    for (int32_t c : A.i) deg [c]++ ;
    int64_t distinct = 0 ;
    for (int64_t d : deg) distinct += (d > 0) ;
    const char *why = NULL ;
    if (rc != GG_OK) why = "rc" ;
    else if (h.K < 0 || h.K > kmax) why = "K > kmax" ;
    else if (distinct <= kmax && h.K != distinct) why = "not all columns hot" ;
    std::vector<char> is_hot (A.k, 0) ;
    for (int64_t s = 0 ; s < h.K && !why ; s++)
    {
        if (hot [s] < 0 || hot [s] >= A.k || (s > 0 && hot [s] <= hot [s-1])) why = "hot not ascending" ;
        else is_hot [hot [s]] = 1 ;
    }
    int64_t min_hot = INT64_MAX, max_cold = 0 ;
    for (int64_t c = 0 ; c < A.k && !why ; c++)
    {
        if (is_hot [c]) min_hot = std::min (min_hot, deg [c]) ;
        else max_cold = std::max (max_cold, deg [c]) ;
    }
    if (!why && h.K > 0 && min_hot < max_cold) why = "a cold column has more entries" ;
    int64_t in_hot = 0 ;
    for (int64_t c = 0 ; c < A.k && !why ; c++) if (is_hot [c]) in_hot += deg [c] ;
    if (!why && hot_nnz != in_hot) why = "hot_nnz is not the entries of the hot columns" ;
    for (int64_t e = 0 ; e < A.nnz && !why ; e++)
    {
        int32_t v = ih [e] ;
        int32_t c = (v < 0) ? ((v & 0x7fffffff) < h.K ? hot [v & 0x7fffffff] : -1) : v ;
        if (c != A.i [e] || (v >= 0 && is_hot [c])) why = "ih does not name i" ;
    }
    if (why)
    {
        printf ("FAIL spmv_hot_build %s kmax %lld: %s (K %lld, %lld columns)\n", A.name,
            (long long) kmax, why, (long long) h.K, (long long) distinct) ;
        failures++ ;
    }
    return h ;
}

//------------------------------------------------------------------------------
// S's rows ordered by length (gg_cuda_rows_by_length)
//------------------------------------------------------------------------------

// The form of A with values of elem bytes (0: none): perm a bijection, rows
// by length longest first, equal lengths in A's order, each row's entries
// and values A's row perm [q]'s; then Y = A X (FP32 plus-times, n = 8) from
// the form through gg_cuda_spmm_rows in A's row order, against the host
void test_rows_form (const csr &A, const int32_t *d_p, const int32_t *d_i)
{
    for (size_t elem : { (size_t) 0, (size_t) 1, (size_t) 4, (size_t) 8 })
    {
        std::vector<unsigned char> x ((size_t) A.nnz * (elem ? elem : 1) + 8) ;
        for (auto &b : x) b = (unsigned char) rng () ;
        void *d_x = NULL ;
        if (elem > 0)
        {
            CHECK_CUDA (cudaMalloc (&d_x, x.size ())) ;
            CHECK_CUDA (cudaMemcpy (d_x, x.data (), x.size (), cudaMemcpyHostToDevice)) ;
        }
        gg_rows_form F ;
        const int rc = gg_cuda_rows_by_length (A.m, A.nnz, d_p, d_i, d_x, elem, &F, 0) ;
        cudaError_t err = cudaDeviceSynchronize () ;
        checks++ ;
        if (A.m == 0)
        {
            if (rc != GG_ERR_UNSUPPORTED) { printf ("FAIL rows form %s: m = 0 accepted\n", A.name) ; failures++ ; }
            cudaFree (d_x) ;
            continue ;
        }
        if (rc != GG_OK || err != cudaSuccess || (elem > 0) != (F.x != NULL))
        {
            printf ("FAIL rows form %s elem %zu: rc %d, %s\n", A.name, elem, rc, cudaGetErrorString (err)) ;
            failures++ ;
            if (err != cudaSuccess) exit (1) ;
            cudaFree (d_x) ;
            continue ;
        }
        std::vector<int32_t> np (A.m + 1), ni (A.nnz + 1), perm (A.m) ;
        std::vector<unsigned char> nx (x.size ()) ;
        CHECK_CUDA (cudaMemcpy (np.data (), F.p, (A.m + 1) * 4, cudaMemcpyDeviceToHost)) ;
        CHECK_CUDA (cudaMemcpy (perm.data (), F.perm, A.m * 4, cudaMemcpyDeviceToHost)) ;
        if (A.nnz > 0) CHECK_CUDA (cudaMemcpy (ni.data (), F.i, A.nnz * 4, cudaMemcpyDeviceToHost)) ;
        if (elem > 0 && A.nnz > 0)
            CHECK_CUDA (cudaMemcpy (nx.data (), F.x, A.nnz * elem, cudaMemcpyDeviceToHost)) ;
        const char *why = NULL ;
        std::vector<char> seen (A.m, 0) ;
        if (np [0] != 0 || np [A.m] != A.nnz) why = "row pointers do not span the entries" ;
        for (int64_t q = 0 ; q < A.m && !why ; q++)
        {
            const int32_t r = perm [q] ;
            if (r < 0 || r >= A.m || seen [r]) { why = "perm is not a bijection" ; break ; }
            seen [r] = 1 ;
            const int32_t len = A.p [r+1] - A.p [r] ;
            if (np [q+1] - np [q] != len) { why = "a row's length changed" ; break ; }
            if (q > 0)
            {
                const int32_t r0 = perm [q-1], len0 = A.p [r0+1] - A.p [r0] ;
                if (len0 < len || (len0 == len && r0 > r)) { why = "not longest first, S's order" ; break ; }
            }
            for (int32_t e = 0 ; e < len && !why ; e++)
            {
                if (ni [np [q] + e] != A.i [A.p [r] + e]) why = "a column index moved" ;
                else if (elem > 0 && memcmp (&nx [(size_t) (np [q] + e) * elem],
                    &x [(size_t) (A.p [r] + e) * elem], elem) != 0) why = "a value moved" ;
            }
        }
        if (why)
        {
            printf ("FAIL rows form %s elem %zu: %s\n", A.name, elem, why) ;
            failures++ ;
        }
        if (elem == 4 && !why)
        {
            // the product in A's order, values as FP32 of small integers
            const int64_t n = 8 ;
            std::vector<float> sv (A.nnz + 1), X (A.k * n + 1), Y (A.m * n) ;
            for (int64_t e = 0 ; e < A.nnz ; e++) sv [e] = (float) ((int) (rng () % 7) - 3) ;
            for (auto &v : X) v = (float) ((int) (rng () % 5) - 2) ;
            std::vector<float> fsv (A.nnz + 1) ;
            for (int64_t q = 0 ; q < A.m ; q++)
                for (int32_t e = 0 ; e < np [q+1] - np [q] ; e++)
                    fsv [np [q] + e] = sv [A.p [perm [q]] + e] ;
            float *d_sv, *d_X, *d_Y ;
            CHECK_CUDA (cudaMalloc (&d_sv, fsv.size () * 4)) ;
            CHECK_CUDA (cudaMalloc (&d_X, X.size () * 4)) ;
            CHECK_CUDA (cudaMalloc (&d_Y, Y.size () * 4 + 4)) ;
            CHECK_CUDA (cudaMemcpy (d_sv, fsv.data (), fsv.size () * 4, cudaMemcpyHostToDevice)) ;
            CHECK_CUDA (cudaMemcpy (d_X, X.data (), X.size () * 4, cudaMemcpyHostToDevice)) ;
            CHECK_CUDA (cudaMemset (d_Y, 0, Y.size () * 4 + 4)) ;
            const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
            const int prc = gg_cuda_spmm_rows (&sr, A.m, A.k, n, A.nnz, F.p, F.i, d_sv, false,
                d_X, d_Y, F.perm, NULL, 0) ;
            CHECK_CUDA (cudaDeviceSynchronize ()) ;
            CHECK_CUDA (cudaMemcpy (Y.data (), d_Y, Y.size () * 4, cudaMemcpyDeviceToHost)) ;
            int64_t bad = 0 ;
            for (int64_t r = 0 ; r < A.m ; r++)
                for (int64_t j = 0 ; j < n ; j++)
                {
                    float want = 0 ;          // exact: small integers
                    for (int32_t e = A.p [r] ; e < A.p [r+1] ; e++) want += sv [e] * X [A.i [e] * n + j] ;
                    bad += (Y [r * n + j] != want) ;
                }
            checks++ ;
            if (prc != GG_OK || bad > 0)
            {
                printf ("FAIL rows form %s: product from the form rc %d, %lld wrong\n", A.name,
                    prc, (long long) bad) ;
                failures++ ;
            }
            cudaFree (d_sv) ; cudaFree (d_X) ; cudaFree (d_Y) ;
        }
        gg_cuda_rows_form_free (&F, 0) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        cudaFree (d_x) ;
    }
}
