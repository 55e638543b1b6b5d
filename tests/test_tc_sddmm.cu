//------------------------------------------------------------------------------
// tests/test_tc_sddmm.cu: the tensor-core SDDMM (kernels/tc_sddmm/) against FP64
//------------------------------------------------------------------------------

// 1. The form (gg_tc_sddmm_build, the index form of gg_tc_build): every
//    entry of M is in exactly one part; each tensor-core position names an
//    entry of M at that window row and slot column, each remainder entry its
//    own row and column; the rows given to the remainder are its entries'.
// 2. The product, FP32 (exact and tf32) and FP64, on fresh random masks
//    whose windows hold 0..8 rows and column vectors of every size (empty
//    windows, m and n not multiples of 8), K in {1, 3, 8, 13, 32, 33, 128}
//    (the 16-byte and the scalar loads, chunks cut by K), thresholds 1, 3, 9
//    (everything, the default, nothing to the tensor cores), segments of 1,
//    2, 3 and 16 blocks.  y is poisoned (NaN) first: every entry must be
//    written, and each part alone writes exactly its own entries; the
//    remainder in the tensor-core launch and by the CUDA-core SDDMM after it
//    (its rule, and the group schedule).  Error of
//    an entry: |y - ref| / sum |a b| over its terms.  exact: max and median
//    within 2x of our FP32 CUDA-core SDDMM's on the same inputs, plus one
//    FP32 rounding (2^-24) on the max and 1e-9 on the median (floors for
//    error-free sums); tf32: max <= 2e-3; FP64: max <= 1e-13.
// 3. Real matrices from $GRBGPU_TEST_DATA (*.mtx.gz; skipped when absent,
//    and above 2M entries) as masks at K = 32, FP32 exact and FP64.
// Values of A and B: nonzero, in [-1.5, -0.5] u [0.5, 1.5] (the form's
// precondition, tc_sddmm.h).
//
// Without a CUDA device: prints "SKIP: no CUDA device" and exits 77.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include "tests/need_device.h"
#include "kernels/gg_cuda.h"
#include "kernels/tc_sddmm/tc_sddmm.h"
#include "bench/bench_matrices.h"

#include "tests/cuda_check.h"

static int failures = 0, checks = 0 ;
#define EXPECT(cond, ...) do { checks++ ; if (!(cond)) { failures++ ; \
    printf ("FAIL %s:%d: ", __FILE__, __LINE__) ; printf (__VA_ARGS__) ; printf ("\n") ; } } while (0)

static bm_rng rng (0x2d5ddb3c0a17e9f1ull) ;

// a mask m x n: per window, 0..8 of its rows in use; column vectors of
// random size on columns near the window's diagonal (FEM-like) or anywhere,
// plus scattered single entries
static bm_csr random_mask (const char *name, int64_t m, int64_t n, int vecs)
{
    bool near = false ;
    return bm_random_windows (rng, name, m, n, vecs,
        [&] (int64_t) { near = rng.next () & 1 ; },
        [&] (int64_t w, int v, int nv)
        {
            int64_t c = (int64_t) (rng.next () % n) ;
            if (near && v < nv)
            {
                int64_t d = (int64_t) (w * 8 * n / m) + (int64_t) (rng.next () % 64) - 32 ;
                c = std::min (std::max (d, (int64_t) 0), n - 1) ;
            }
            return c ;
        },
        [] { return 1.0f ; }) ;
}

template <typename T> static std::vector<T> down (const T *d, int64_t count)
{
    std::vector<T> h (count > 0 ? count : 0) ;
    if (count > 0) CHECK_CUDA (cudaMemcpy (h.data (), d, count * sizeof (T), cudaMemcpyDeviceToHost)) ;
    return h ;
}

//------------------------------------------------------------------------------
// 1. the form
//------------------------------------------------------------------------------

static void check_form (const bm_csr &M, const gg_tc_sddmm_form *f, int threshold)
{
    const gg_hybrid_form *h = f->h ;
    EXPECT (h->tc_nnz + h->rem_nnz == M.nnz, "%s: parts %ld + %ld of %ld", M.name.c_str (),
        (long) h->tc_nnz, (long) h->rem_nnz, (long) M.nnz) ;
    std::vector<int> seen (M.nnz, 0) ;
    std::vector<int32_t> row_of (M.nnz) ;
    for (int64_t r = 0 ; r < M.m ; r++)
        for (int32_t q = M.p [r] ; q < M.p [r+1] ; q++) row_of [q] = (int32_t) r ;
    std::vector<int32_t> col = down (h->col, h->nblk * 8) ;
    std::vector<int32_t> pos = down ((const int32_t *) h->val, h->nblk * 64) ;
    std::vector<int32_t> wb = down (h->win_blk, h->nwin + 1) ;
    int64_t tc = 0 ;
    bool ok = true ;
    for (int64_t w = 0 ; w < h->nwin && ok ; w++)
        for (int32_t b = wb [w] ; b < wb [w+1] && ok ; b++)
            for (int s = 0 ; s < 8 ; s++)
            {
                const int32_t c = col [8 * b + GG_HYB_COL_POS (s)] ;
                int cnt = 0 ;
                for (int r = 0 ; r < 8 ; r++)
                {
                    const int32_t q1 = pos [64 * b + GG_HYB_VAL_POS (r, s)] ;
                    if (q1 == 0) continue ;
                    cnt++ ;
                    const int32_t q = q1 - 1 ;
                    if (c < 0 || q >= M.nnz || row_of [q] != w * 8 + r || M.i [q] != c)
                    {
                        ok = false ;
                        break ;
                    }
                    seen [q]++ ;
                    tc++ ;
                }
                if (ok && c >= 0 && cnt < threshold) ok = false ;
            }
    EXPECT (ok, "%s: a tensor-core position names the wrong entry", M.name.c_str ()) ;
    EXPECT (tc == h->tc_nnz, "%s: %ld TC positions, tc_nnz %ld", M.name.c_str (), (long) tc, (long) h->tc_nnz) ;
    std::vector<int32_t> rp = down (h->rp, M.m + 1) ;
    std::vector<int32_t> ri = down (h->ri, h->rem_nnz) ;
    std::vector<int32_t> rx = down ((const int32_t *) h->rx, h->rem_nnz) ;
    std::vector<int32_t> rr = down (h->rrow, h->rem_nnz) ;
    ok = (rp [0] == 0 && rp [M.m] == h->rem_nnz) ;
    for (int64_t r = 0 ; r < M.m && ok ; r++)
        for (int32_t q = rp [r] ; q < rp [r+1] && ok ; q++)
        {
            const int32_t e = rx [q] ;
            if (e < 0 || e >= M.nnz || row_of [e] != r || M.i [e] != ri [q] || rr [q] != r) ok = false ;
            else seen [e]++ ;
        }
    EXPECT (ok, "%s: the remainder names the wrong entries or rows", M.name.c_str ()) ;
    bool once = true ;
    for (int64_t q = 0 ; q < M.nnz ; q++) once = once && seen [q] == 1 ;
    EXPECT (once, "%s: an entry of M not in exactly one part", M.name.c_str ()) ;
}

//------------------------------------------------------------------------------
// 2. the product
//------------------------------------------------------------------------------

struct errs { double max = 0, median = 0 ; } ;

template <typename T>
static errs errors (const bm_csr &M, const std::vector<T> &A, const std::vector<T> &B,
    int64_t K, const std::vector<T> &y, bool *all_written)
{
    std::vector<double> e (M.nnz) ;
    *all_written = true ;
    for (int64_t r = 0 ; r < M.m ; r++)
        for (int32_t q = M.p [r] ; q < M.p [r+1] ; q++)
        {
            double acc = 0, mag = 0 ;
            for (int64_t t = 0 ; t < K ; t++)
            {
                const double pr = (double) A [r * K + t] * (double) B [(int64_t) M.i [q] * K + t] ;
                acc += pr ; mag += fabs (pr) ;
            }
            if (std::isnan ((double) y [q])) { *all_written = false ; e [q] = 1 ; continue ; }
            e [q] = fabs ((double) y [q] - acc) / mag ;
        }
    errs x ;
    if (M.nnz == 0) return x ;
    x.max = *std::max_element (e.begin (), e.end ()) ;
    std::nth_element (e.begin (), e.begin () + M.nnz / 2, e.end ()) ;
    x.median = e [M.nnz / 2] ;
    return x ;
}

template <typename T> static T rand_value (void)
{
    T v = (T) rng.val () ;
    return (rng.next () & 1) ? -v : v ;
}

template <typename T>
static void check_product (const bm_csr &M, const int32_t *dp, const int32_t *di,
    const gg_tc_sddmm_form *f, int64_t K, const char *tag)
{
    const gg_type type = sizeof (T) == 4 ? GG_FP32 : GG_FP64 ;
    std::vector<T> A (M.m * K), B (M.k * K) ;
    for (T &v : A) v = rand_value<T> () ;
    for (T &v : B) v = rand_value<T> () ;
    T *dA, *dB, *dy ;
    CHECK_CUDA (cudaMalloc (&dA, A.size () * sizeof (T))) ;
    CHECK_CUDA (cudaMalloc (&dB, B.size () * sizeof (T))) ;
    CHECK_CUDA (cudaMalloc (&dy, (M.nnz + 1) * sizeof (T))) ;
    CHECK_CUDA (cudaMemcpy (dA, A.data (), A.size () * sizeof (T), cudaMemcpyHostToDevice)) ;
    CHECK_CUDA (cudaMemcpy (dB, B.data (), B.size () * sizeof (T), cudaMemcpyHostToDevice)) ;
    const char *name = M.name.c_str () ;
    bool written ;

    // our CUDA-core SDDMM on the same inputs: the bar for the exact mode
    errs cc ;
    if (type == GG_FP32)
    {
        CHECK_CUDA (cudaMemset (dy, 0xff, (M.nnz + 1) * sizeof (T))) ;
        const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, type } ;
        EXPECT (gg_cuda_sddmm (&sr, M.m, M.k, K, M.nnz, dp, di, NULL, dA, dB, dy, NULL, 0) == GG_OK,
            "%s: CUDA-core sddmm", name) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        cc = errors (M, A, B, K, down (dy, M.nnz), &written) ;
    }
    // the remainder in the same launch, and by the CUDA-core SDDMM after it
    const int modes [4] = { GG_TC_EXACT, GG_TC_TF32, GG_TC_EXACT3, GG_TC_EXACT4 } ;
    const char *const rems [3] = { NULL, "rule", "grp" } ;
    for (int mi = 0 ; mi < (type == GG_FP32 ? 4 : 1) ; mi++)
    for (const char *rem : rems)
    {
        const int mode = modes [mi] ;
        CHECK_CUDA (cudaMemset (dy, 0xff, (M.nnz + 1) * sizeof (T))) ;     // NaN
        int rc = gg_tc_sddmm (f, type, K, dA, dB, dy, mode, GG_TC_PARTS_ALL, rem, 0) ;
        EXPECT (rc == GG_OK, "%s %s rem %s: gg_tc_sddmm %d", name, tag, rem ? rem : "fused", rc) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        errs x = errors (M, A, B, K, down (dy, M.nnz), &written) ;
        EXPECT (written, "%s %s K=%ld: an entry left unwritten", name, tag, (long) K) ;
        if (type == GG_FP64)
            EXPECT (x.max <= 1e-13, "%s %s K=%ld fp64: max error %.3g", name, tag, (long) K, x.max) ;
        else if (mode == GG_TC_TF32)
            EXPECT (x.max <= 2e-3, "%s %s K=%ld tf32: max error %.3g", name, tag, (long) K, x.max) ;
        else if (mode == GG_TC_EXACT || mode == gg_tc_sddmm_exact_mode (K))
        {
            // what precision "exact" runs at this K (the three-way split,
            // or the two-way one with four MMAs from GG_TC_SDDMM_EXACT4_K
            // terms on): within 2x of the CUDA-core kernel's error
            EXPECT (x.max <= 2 * cc.max + 0x1p-24, "%s %s K=%ld mode %d: max %.3g, CUDA cores %.3g",
                name, tag, (long) K, mode, x.max, cc.max) ;
            EXPECT (x.median <= 2 * cc.median + 1e-9, "%s %s K=%ld mode %d: median %.3g, CUDA cores %.3g",
                name, tag, (long) K, mode, x.median, cc.median) ;
        }
        else
        {
            // the two-way split at short K (exact3 anywhere): each value's
            // two parts miss up to 2^-22 of it, so a term's dropped
            // products up to about 3 * 2^-22 of it
            EXPECT (x.max <= 2 * cc.max + 0x1p-20, "%s %s K=%ld mode %d: max %.3g, CUDA cores %.3g",
                name, tag, (long) K, mode, x.max, cc.max) ;
        }
    }
    // each part alone writes its own entries and nothing else
    for (int parts : { (int) GG_TC_PARTS_TC, (int) GG_TC_PARTS_REM })
    for (const char *rem : rems)
    {
        CHECK_CUDA (cudaMemset (dy, 0xff, (M.nnz + 1) * sizeof (T))) ;
        EXPECT (gg_tc_sddmm (f, type, K, dA, dB, dy, GG_TC_EXACT, parts, rem, 0) == GG_OK,
            "%s: parts %d", name, parts) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        std::vector<T> y = down (dy, M.nnz) ;
        int64_t wr = 0 ;
        for (const T &v : y) wr += !std::isnan ((double) v) ;
        const int64_t want = (parts == GG_TC_PARTS_TC) ? f->h->tc_nnz : f->h->rem_nnz ;
        EXPECT (wr == want, "%s %s: part %d wrote %ld entries, has %ld", name, tag, parts,
            (long) wr, (long) want) ;
    }
    cudaFree (dA) ; cudaFree (dB) ; cudaFree (dy) ;
}

static void test_mask (const bm_csr &M, const std::vector<int64_t> &ks,
    const std::vector<std::pair<int, int>> &forms)
{
    int32_t *dp, *di ;
    CHECK_CUDA (cudaMalloc (&dp, (M.m + 1) * 4)) ;
    CHECK_CUDA (cudaMalloc (&di, M.nnz * 4 + 4)) ;
    CHECK_CUDA (cudaMemcpy (dp, M.p.data (), (M.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    if (M.nnz > 0) CHECK_CUDA (cudaMemcpy (di, M.i.data (), M.nnz * 4, cudaMemcpyHostToDevice)) ;
    for (const auto &tf : forms)
    {
        gg_tc_sddmm_form *f = NULL ;
        int rc = gg_tc_sddmm_build (M.m, M.k, M.nnz, dp, di, tf.first, tf.second, &f, 0) ;
        EXPECT (rc == GG_OK && f != NULL, "%s: build (threshold %d, seg %d): %d", M.name.c_str (),
            tf.first, tf.second, rc) ;
        if (f == NULL) continue ;
        const int thr = tf.first <= 0 ? 3 : tf.first ;
        check_form (M, f, thr) ;
        char tag [64] ;
        snprintf (tag, sizeof (tag), "thr %d seg %d", tf.first, tf.second) ;
        printf ("%s (%ld x %ld, %ld entries) %s: tensor-core share %.3f, %ld blocks, build %.2f ms\n",
            M.name.c_str (), (long) M.m, (long) M.k, (long) M.nnz, tag,
            M.nnz ? (double) f->h->tc_nnz / M.nnz : 0.0, (long) f->h->nblk, f->build_ms) ;
        for (int64_t K : ks)
        {
            check_product<float> (M, dp, di, f, K, tag) ;
            check_product<double> (M, dp, di, f, K, tag) ;
        }
        gg_tc_sddmm_free (f, 0) ;
    }
    CHECK_CUDA (cudaDeviceSynchronize ()) ;
    cudaFree (dp) ; cudaFree (di) ;
}

int main (void)
{
    cudaDeviceProp prop ;
    gg_need_device (&prop) ;
    printf ("device: %s\n", prop.name) ;

    // argument checks
    {
        gg_tc_sddmm_form *f = (gg_tc_sddmm_form *) 1 ;
        EXPECT (gg_tc_sddmm_build (0, 5, 0, NULL, NULL, 0, 0, &f, 0) != GG_OK && f == NULL,
            "build of an empty mask must fail cleanly") ;
        EXPECT (gg_tc_sddmm (NULL, GG_FP32, 8, NULL, NULL, NULL, GG_TC_EXACT, 0, NULL, 0) != GG_OK,
            "a NULL form must be refused") ;
    }

    const std::vector<int64_t> ks = { 1, 3, 8, 13, 32, 33, 128 } ;
    const std::vector<std::pair<int, int>> forms = { { 0, 0 }, { 1, 2 }, { 9, 16 }, { 2, 1 }, { 3, 3 } } ;
    test_mask (random_mask ("rand_small_n", 997, 13, 6), ks, forms) ;
    test_mask (random_mask ("rand_large_n", 1003, 5000, 24), ks, forms) ;
    test_mask (random_mask ("rand_fem", 4096, 4100, 40), { 8, 32, 128 }, { { 0, 0 }, { 2, 16 } }) ;
    test_mask (random_mask ("rand_tiny", 5, 7, 3), ks, { { 0, 0 }, { 1, 1 } }) ;
    {
        bm_csr empty ;
        empty.name = "empty" ; empty.m = 20 ; empty.k = 10 ;
        bm_build_csr (empty, {}, {}) ;
        test_mask (empty, { 1, 8 }, { { 0, 0 } }) ;
    }
    {
        bm_rng r2 (42) ;
        test_mask (bm_rmat (12, r2), { 32, 128 }, { { 0, 0 }, { 2, 4 } }) ;
    }

    // 3. real matrices
    bm_each_real (getenv ("GRBGPU_TEST_DATA"), 2000000, rng, [] (const bm_csr &M)
        { test_mask (M, { 32 }, { { 0, 0 } }) ; }) ;

    printf ("%d checks, %d failures\n", checks, failures) ;
    return failures ? 1 : 0 ;
}
