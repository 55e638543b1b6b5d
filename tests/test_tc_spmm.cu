//------------------------------------------------------------------------------
// tests/test_tc_spmm.cu: the tensor-core hybrid SpMM family against FP64
//------------------------------------------------------------------------------

// 1. The hybrid form (gg_tc_build): every entry of S lands in exactly one
//    part; the blocks decode back to S's tensor-core entries (columns
//    distinct within a window, padding slots and positions S has no entry
//    at holding zero, vectors of >= threshold entries; S's pattern, not the
//    value, says which positions are entries: real matrices and rand_zeros
//    hold explicit zeros), the remainder is a valid CSR of the others
//    (vectors of < threshold entries); segments cover each window's blocks
//    in runs of <= seg_blocks, flagged shared iff the window has several;
//    zero_rows is exactly the rows of shared windows with TC entries and no
//    remainder entries.
// 2. The product (gg_tc_spmm_ex) for every mode and kernel variant against an
//    FP64 host reference, on fresh random matrices whose windows have 0..8
//    rows filled and column vectors of every size (empty rows and windows, m
//    not a multiple of 8, k small and large), N in {1, 5, 8, 16, 17, 32,
//    128}, thresholds 1, 3, 9 (all, default, nothing to the tensor cores)
//    and segments of 1, 2 and 16 blocks (atomics, zeroed rows).  Y is
//    poisoned (NaN) first: every row with entries must be written.
//    Error of an element: |y - ref| / sum |s x| over its row's terms.
//    exact: max and median within 2x of our FP32 CUDA-core kernel's on the
//    same inputs (gg_cuda_spmm_plan); the max may also be that kernel's
//    plus one FP32 rounding at the row's scale (2^-24), the median that
//    kernel's plus 1e-9 (a floor for error-free sums); exact3 / exact4: the
//    same with 16x (printed); tf32: max <= 2e-3.  (Why the floor on the
//    max: see check_product.)
// 3. gg_cuda_has_nonfinite on FP32 / FP64 arrays with and without Inf / NaN.
// 4. The kernels' TF32 rounding (gg_tc_tf32, integer arithmetic) against the
//    hardware's cvt.rna.tf32.f32 on every one of the 2^32 bit patterns that
//    is a finite FP32 value (and the split's third part, unrounded, against
//    its rounding from 2^-103 up); exact mode at the ends of the FP32 range that
//    gg_tc_values_plain lets through (check_range).
// 5. Real matrices from $GRBGPU_TEST_DATA (*.mtx.gz; skipped when absent) at
//    N = 5 and 32, exact and tf32, against the same bounds.
//
// Without a CUDA device: prints "SKIP: no CUDA device" and exits 77.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cfloat>
#include <string>
#include <vector>
#include <limits>
#include <algorithm>
#include <map>
#include <set>
#include <cuda_runtime.h>
#include "tests/need_device.h"
#include "kernels/gg_cuda.h"
#include "kernels/tc_spmm/tc_spmm.h"
#include "kernels/tc_spmm/tc_device.cuh"
#include "reorder/reorder.h"
#include "bench/bench_matrices.h"

#include "tests/cuda_check.h"

static int failures = 0, checks = 0 ;
#define EXPECT(cond, ...) do { checks++ ; if (!(cond)) { failures++ ; \
    printf ("FAIL %s:%d: ", __FILE__, __LINE__) ; printf (__VA_ARGS__) ; printf ("\n") ; } } while (0)

static bm_rng rng (0x7c15e3779b97f4a9ull) ;

//------------------------------------------------------------------------------
// random matrices with structured windows
//------------------------------------------------------------------------------

// For each window: a random number (0..8) of its rows may hold entries; a
// few column vectors of random size (1..8 entries, within those rows) on
// random columns, plus scattered single entries.  Values: nonzero, in
// [-1.5, -0.5] u [0.5, 1.5] (mixed) or [0.5, 1.5) (positive); with zeros, a
// quarter of the entries are explicit zeros, +0 or -0 (as in bayer10 and
// fidap_ex14).
static bm_csr random_windows (const char *name, int64_t m, int64_t k, int vecs,
    bool mixed, bool zeros = false)
{
    return bm_random_windows (rng, name, m, k, vecs, [] (int64_t) { },
        [&] (int64_t, int, int) { return (int64_t) (rng.next () % k) ; },
        [&]
        {
            float x = rng.val () ;
            if (mixed && (rng.next () & 1)) x = -x ;
            if (zeros && (rng.next () & 3) == 0) x = (rng.next () & 1) ? -0.0f : 0.0f ;
            return x ;
        }) ;
}

//------------------------------------------------------------------------------
// device copies
//------------------------------------------------------------------------------

struct dev_csr
{
    int32_t *p = NULL, *i = NULL ;
    float *x = NULL ;
    void *plan = NULL ;
} ;

static dev_csr upload (const bm_csr &A)
{
    dev_csr d ;
    CHECK_CUDA (cudaMalloc (&d.p, (A.m + 1) * 4)) ;
    CHECK_CUDA (cudaMalloc (&d.i, A.nnz * 4 + 4)) ;
    CHECK_CUDA (cudaMalloc (&d.x, A.nnz * 4 + 4)) ;
    CHECK_CUDA (cudaMemcpy (d.p, A.p.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    if (A.nnz > 0)
    {
        CHECK_CUDA (cudaMemcpy (d.i, A.i.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
        CHECK_CUDA (cudaMemcpy (d.x, A.x.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    }
    CHECK_CUDA (cudaMalloc (&d.plan, gg_cuda_spmv_plan_bytes (A.nnz) + 16)) ;
    EXPECT (gg_cuda_spmv_plan_build (A.m, A.nnz, d.p, d.plan, 0) == GG_OK, "plan build") ;
    return d ;
}

static void release (dev_csr &d)
{
    cudaFree (d.p) ; cudaFree (d.i) ; cudaFree (d.x) ; cudaFree (d.plan) ;
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

static void check_form (const bm_csr &A, const gg_hybrid_form *f, const gg_tc_rule &rule)
{
    const char *nm = A.name.c_str () ;
    const int threshold = rule.threshold, seg_blocks = rule.seg_blocks ;
    const int64_t nwin = (A.m + 7) / 8 ;
    // the vectors of S: (window, col) -> entries
    std::map<std::pair<int64_t, int32_t>, int> vcount ;
    for (int64_t r = 0 ; r < A.m ; r++)
        for (int32_t e = A.p [r] ; e < A.p [r+1] ; e++) vcount [{ r / 8, A.i [e] }]++ ;
    // the window rule: per window, its entries in vectors of >= threshold
    // against all its entries; wmode 1: all to the TC part, -1: none
    // (and its vectors, all and of >= threshold, for absorb_grow)
    std::vector<int64_t> wtc (nwin, 0), wtot (nwin, 0), wnv (nwin, 0), wnvt (nwin, 0) ;
    for (auto &kv : vcount)
    {
        wtot [kv.first.first] += kv.second ;
        wnv [kv.first.first]++ ;
        if (kv.second >= threshold) { wtc [kv.first.first] += kv.second ; wnvt [kv.first.first]++ ; }
    }
    std::vector<int> wmode (nwin, 0) ;
    for (int64_t w = 0 ; w < nwin ; w++)
    {
        const bool few = rule.absorb_grow <= 0
            || (wnv [w] + 7) / 8 <= (int64_t) rule.absorb_grow * ((wnvt [w] + 7) / 8) ;
        if (wtc [w] < rule.win_min) wmode [w] = -1 ;
        else if (few && rule.absorb_pct > 0 && wtc [w] > 0
            && wtc [w] * 100 >= (int64_t) rule.absorb_pct * wtot [w])
            wmode [w] = 1 ;
    }
    auto is_tc = [&] (int64_t w, int cnt)
        { return wmode [w] == 1 || (wmode [w] == 0 && cnt >= threshold) ; } ;
    int64_t want_tc = 0, want_vec = 0 ;
    for (auto &kv : vcount) if (is_tc (kv.first.first, kv.second)) { want_tc += kv.second ; want_vec++ ; }
    EXPECT (f->tc_nnz + f->rem_nnz == A.nnz, "%s: parts %lld + %lld != nnz %lld", nm,
        (long long) f->tc_nnz, (long long) f->rem_nnz, (long long) A.nnz) ;
    EXPECT (f->tc_nnz == want_tc, "%s: tc_nnz %lld, want %lld", nm, (long long) f->tc_nnz,
        (long long) want_tc) ;
    EXPECT (f->nvec == want_vec, "%s: nvec %lld, want %lld", nm, (long long) f->nvec,
        (long long) want_vec) ;

    // decode the blocks through the segments
    std::vector<int32_t> col = down (f->col, f->nblk * 8) ;
    std::vector<float> val = down ((const float *) f->val, f->nblk * 64) ;
    std::vector<int32_t> seg_blk = down (f->seg_blk, f->nseg + 1) ;
    std::vector<uint32_t> seg_win = down (f->seg_win, f->nseg) ;
    std::vector<int32_t> zero_rows = down (f->zero_rows, f->nzero) ;
    std::vector<int32_t> rp = down (f->rp, A.m + 1) ;
    std::vector<int32_t> ri = down (f->ri, f->rem_nnz) ;
    std::vector<float> rx = down ((const float *) f->rx, f->rem_nnz) ;
    if (f->nseg > 0)
        EXPECT (seg_blk [0] == 0 && seg_blk [f->nseg] == f->nblk, "%s: segment bounds", nm) ;
    std::map<std::pair<int64_t, int32_t>, float> got ;     // (row, col) -> value
    std::vector<int> wsegs (nwin, 0) ;
    std::set<std::pair<int64_t, int32_t>> wcols ;
    bool ok_seg = true, ok_cols = true, ok_pad = true, ok_dup = true, ok_vec = true ;
    int64_t prev_w = -1 ;
    for (int64_t s = 0 ; s < f->nseg ; s++)
    {
        const int64_t w = seg_win [s] & ~GG_HYB_SEG_SHARED ;
        if (w >= nwin || w < prev_w || seg_blk [s+1] <= seg_blk [s]
            || seg_blk [s+1] - seg_blk [s] > seg_blocks) ok_seg = false ;
        prev_w = w ;
        if (w < nwin) wsegs [w]++ ;
        for (int32_t b = seg_blk [s] ; b < seg_blk [s+1] && ok_seg ; b++)
            for (int sl = 0 ; sl < 8 ; sl++)
            {
                const int32_t c = col [8 * (int64_t) b + GG_HYB_COL_POS (sl)] ;
                if (c < -1 || c >= A.k) { ok_cols = false ; continue ; }
                if (c >= 0 && !wcols.insert ({ w, c }).second) ok_dup = false ;
                int have = 0 ;
                for (int r = 0 ; r < 8 ; r++)
                {
                    const float v = val [64 * (int64_t) b + GG_HYB_VAL_POS (r, sl)] ;
                    // S's pattern, not the value, says whether (row, c) is an
                    // entry: an explicit zero of S is stored as 0 like an
                    // absent position (bayer10 holds 23417 zeros in FP32,
                    // fidap_ex14 900), and the product cannot tell them apart
                    const int64_t row = w * 8 + r ;
                    const bool entry = c >= 0 && row < A.m && std::binary_search (
                        A.i.data () + A.p [row], A.i.data () + A.p [row+1], c) ;
                    if (!entry) { if (v != 0) ok_pad = false ; continue ; }
                    have++ ;
                    if (!got.insert ({ { row, c }, v }).second) ok_dup = false ;
                }
                if (c >= 0 && (w >= nwin || !is_tc (w, have))) ok_vec = false ;
            }
    }
    EXPECT (ok_seg, "%s: segments malformed", nm) ;
    EXPECT (ok_cols, "%s: block column out of range", nm) ;
    EXPECT (ok_pad, "%s: a padding slot, or a position S has no entry at, holds a value", nm) ;
    EXPECT (ok_dup, "%s: a column twice in a window, or an entry twice", nm) ;
    EXPECT (ok_vec, "%s: a block's vector is not the tensor-core part's (T %d, rule %d:%d)", nm,
        threshold, rule.absorb_pct, rule.win_min) ;
    bool ok_flag = true ;
    for (int64_t s = 0 ; s < f->nseg ; s++)
    {
        const int64_t w = seg_win [s] & ~GG_HYB_SEG_SHARED ;
        if (w < nwin && ((seg_win [s] & GG_HYB_SEG_SHARED) != 0) != (wsegs [w] > 1)) ok_flag = false ;
    }
    EXPECT (ok_flag, "%s: shared flags", nm) ;
    // remainder CSR
    bool ok_rem = rp [0] == 0 && rp [A.m] == f->rem_nnz ;
    int64_t rows_with = 0 ;
    for (int64_t r = 0 ; r < A.m && ok_rem ; r++)
    {
        if (rp [r+1] < rp [r]) { ok_rem = false ; break ; }
        rows_with += (rp [r+1] > rp [r]) ;
        for (int32_t e = rp [r] ; e < rp [r+1] ; e++)
        {
            if (e > rp [r] && ri [e] <= ri [e-1]) ok_rem = false ;
            if (!got.insert ({ { r, ri [e] }, rx [e] }).second) ok_rem = false ;
            auto it = vcount.find ({ r / 8, ri [e] }) ;
            if (it == vcount.end () || is_tc (r / 8, it->second)) ok_rem = false ;
        }
    }
    EXPECT (ok_rem, "%s: remainder CSR malformed or holds a tensor-core entry", nm) ;
    EXPECT (!ok_rem || f->rem_rows == rows_with, "%s: rem_rows %lld, rows holding remainder entries %lld",
        nm, (long long) f->rem_rows, (long long) rows_with) ;
    // together: exactly S
    bool ok_all = (int64_t) got.size () == A.nnz ;
    for (int64_t r = 0 ; r < A.m && ok_all ; r++)
        for (int32_t e = A.p [r] ; e < A.p [r+1] ; e++)
        {
            auto it = got.find ({ r, A.i [e] }) ;
            // bit for bit (-0 included: bayer10 has 45 entries that are -0
            // in FP32)
            if (it == got.end () || memcmp (&it->second, &A.x [e], sizeof (float)) != 0)
            {
                ok_all = false ;
                break ;
            }
        }
    EXPECT (ok_all, "%s: the parts do not decode back to S", nm) ;
    // rows to zero
    std::vector<int32_t> want_zero ;
    for (int64_t r = 0 ; r < A.m ; r++)
        if (wsegs [r / 8] > 1 && rp [r+1] == rp [r] && A.p [r+1] > A.p [r]) want_zero.push_back ((int32_t) r) ;
    std::sort (zero_rows.begin (), zero_rows.end ()) ;
    EXPECT (zero_rows == want_zero, "%s: zero_rows (%zu, want %zu)", nm, zero_rows.size (),
        want_zero.size ()) ;
    gg_tc_info info ;
    EXPECT (gg_tc_form_info (f, &info) == GG_OK && info.tc_nnz == f->tc_nnz
        && info.nblk == f->nblk && info.bytes == gg_tc_bytes (f) && info.bytes > 0
        && info.absorb_pct == rule.absorb_pct && info.win_min == rule.win_min
        && info.absorb_grow == (rule.absorb_pct > 0 ? rule.absorb_grow : 0), "%s: info", nm) ;
}

//------------------------------------------------------------------------------
// 2. the product
//------------------------------------------------------------------------------

// errors of y against the FP64 reference, scaled by sum |s x| per element,
// over the rows with entries; false if such a row holds a non-finite value
struct errs { double max = 0, med = 0 ; bool finite = true ; } ;

// the FP64 reference of S * X and sum |s x| per element (0 on empty rows)
struct reference { std::vector<double> acc, scale ; } ;

static reference make_reference (const bm_csr &A, const std::vector<float> &X, int64_t n)
{
    reference R ;
    R.acc.assign (A.m * n, 0.0) ;
    R.scale.assign (A.m * n, 0.0) ;
    for (int64_t row = 0 ; row < A.m ; row++)
        for (int32_t e = A.p [row] ; e < A.p [row+1] ; e++)
        {
            const double s = A.x [e] ;
            const float *xr = &X [(int64_t) A.i [e] * n] ;
            double *acc = &R.acc [row * n], *scale = &R.scale [row * n] ;
            for (int64_t j = 0 ; j < n ; j++) { acc [j] += s * xr [j] ; scale [j] += fabs (s * xr [j]) ; }
        }
    return R ;
}

static errs errors (const bm_csr &A, const reference &R, int64_t n, const std::vector<float> &y)
{
    errs r ;
    std::vector<double> all ;
    all.reserve (A.m * n) ;
    for (int64_t row = 0 ; row < A.m ; row++)
    {
        if (A.p [row] == A.p [row+1]) continue ;
        for (int64_t j = 0 ; j < n ; j++)
        {
            const int64_t q = row * n + j ;
            const double v = y [q] ;
            if (!std::isfinite (v)) { r.finite = false ; continue ; }
            all.push_back (fabs (v - R.acc [q]) / (R.scale [q] > 0 ? R.scale [q] : 1)) ;
        }
    }
    if (!all.empty ())
    {
        r.max = *std::max_element (all.begin (), all.end ()) ;
        std::nth_element (all.begin (), all.begin () + all.size () / 2, all.end ()) ;
        r.med = all [all.size () / 2] ;
    }
    return r ;
}

// The exact modes' bounds against the CUDA-core kernel's errors cc on the
// same inputs (why the max may add one FP32 rounding: check_product): max
// <= fac x cc's max, or cc's max + 2^-24; median <= fac x cc's median;
// each + 1e-9
struct bounds { double max, med ; } ;
static bounds exact_bounds (const errs &cc, double fac)
{
    const double u = FLT_EPSILON / 2 ;
    return { std::max (fac * cc.max, cc.max + u) + 1e-9, fac * cc.med + 1e-9 } ;
}

static void check_product (const bm_csr &A, const dev_csr &d, const gg_hybrid_form *f,
    int64_t n, bool all_variants)
{
    const char *nm = A.name.c_str () ;
    std::vector<float> X (A.k * n) ;
    for (auto &v : X) v = (rng.next () & 1) ? rng.val () : -rng.val () ;
    float *dX, *dY ;
    CHECK_CUDA (cudaMalloc (&dX, X.size () * 4 + 16)) ;
    CHECK_CUDA (cudaMalloc (&dY, A.m * n * 4 + 16)) ;
    CHECK_CUDA (cudaMemcpy (dX, X.data (), X.size () * 4, cudaMemcpyHostToDevice)) ;
    std::vector<float> y (A.m * n) ;
    const reference R = make_reference (A, X, n) ;

    // our FP32 CUDA-core kernel on the whole of S
    const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
    CHECK_CUDA (cudaMemset (dY, 0xff, A.m * n * 4)) ;
    EXPECT (gg_cuda_spmm_plan (&sr, A.m, A.k, n, A.nnz, d.p, d.i, d.x, false, dX, dY, d.plan, A.max_row,
        gg_cuda_spmm_choose_plan (A.m, n, A.nnz, A.max_row), 0) == GG_OK, "%s: CUDA-core", nm) ;
    CHECK_CUDA (cudaDeviceSynchronize ()) ;
    CHECK_CUDA (cudaMemcpy (y.data (), dY, y.size () * 4, cudaMemcpyDeviceToHost)) ;
    const errs cc = errors (A, R, n, y) ;
    EXPECT (cc.finite, "%s n=%lld: CUDA-core kernel left a row unwritten", nm, (long long) n) ;

    for (int mode = 0 ; mode < GG_TC_NMODES ; mode++)
    {
        for (const char *const *v = gg_tc_variants () ; *v ; v++)
        {
            if (!all_variants && v != gg_tc_variants ()) break ;
            CHECK_CUDA (cudaMemset (dY, 0xff, A.m * n * 4)) ;   // NaN: unwritten rows fail
            const int rc = gg_tc_spmm_ex (f, dX, dY, n, mode, *v, GG_TC_PARTS_ALL, NULL, 0) ;
            EXPECT (rc == GG_OK, "%s: gg_tc_spmm_ex rc %d", nm, rc) ;
            CHECK_CUDA (cudaDeviceSynchronize ()) ;
            CHECK_CUDA (cudaMemcpy (y.data (), dY, y.size () * 4, cudaMemcpyDeviceToHost)) ;
            const errs e = errors (A, R, n, y) ;
            const char *mn = gg_tc_mode_name (mode) ;
            EXPECT (e.finite, "%s n=%lld %s %s: a row with entries left unwritten or NaN", nm,
                (long long) n, mn, *v) ;
            if (mode == GG_TC_TF32)
                EXPECT (e.max <= 2e-3, "%s n=%lld tf32 %s: max error %.3g > 2e-3", nm,
                    (long long) n, *v, e.max) ;
            else
            {
                // The max error may be fac x the CUDA-core kernel's, or that
                // plus one FP32 rounding at the row's scale, u = 2^-24 in the
                // units of `errors` (rounding a partial sum P costs <= u |P|,
                // and |P| <= sum |s x|).  The ratio alone is no test where the
                // CUDA-core max is below u: such a max comes from a few
                // elements of the longest rows, and it depends on the order
                // of the adds, which the nnz-split kernels' atomics change
                // from run to run.  arrow, n = 5: every row but row 0 is
                // 2 x0 + x_r, exact in any order (X holds multiples of
                // 2^-16); row 0 sums 46500 terms, exact while a partial sum
                // is below 256, so errors come in units of 2^-16 / 46500 =
                // 3.28e-10; the CUDA-core run had 1 unit, the exact one 20
                // (0.11 u), all of them from its remainder (the same nnz_k32
                // kernel on row 0 less one entry; the tensor cores add only
                // 2 x0).  Simulated (chunks summed exactly, atomics in a
                // random order): the max over 5 columns is 0..38 units, and
                // 2x of one run fails ~15 % of pairs.  The median is over
                // many elements and stable: 1e-9 floors error-free sums.
                const double fac = (mode == GG_TC_EXACT) ? 2 : 16 ;
                const bounds b = exact_bounds (cc, fac) ;
                EXPECT (e.max <= b.max && e.med <= b.med,
                    "%s n=%lld %s %s: error max %.3g med %.3g vs CUDA-core max %.3g med %.3g "
                    "(bounds %.3g, %.3g: %gx, max + 2^-24)",
                    nm, (long long) n, mn, *v, e.max, e.med, cc.max, cc.med, b.max, b.med, fac) ;
            }
            if (v == gg_tc_variants ())
                printf ("  %-14s n=%-4lld %-6s err max %.3e med %.3e | CUDA-core max %.3e med %.3e\n",
                    nm, (long long) n, mn, e.max, e.med, cc.max, cc.med) ;
        }
    }
    cudaFree (dX) ; cudaFree (dY) ;
}

// FP64 through DMMA: S's values perturbed so that they use FP64's mantissa,
// X random; every element within its recursive-summation bound of an
// extended-precision reference: (terms + 1) u sum |s x|, u = 2^-53 (each
// product and each add rounds once, in any order).
// perm != NULL: the form is built from the row-permuted S (row q = row
// perm [q] of A; d is that S on the device, dperm its perm) and made to
// write Y in A's order (gg_tc_set_row_out); A's reference checks it.
static void check_product64 (const bm_csr &A, const dev_csr &d, const gg_tc_rule &rule,
    const std::vector<int64_t> &ns, const std::vector<int32_t> *perm = NULL,
    const int32_t *dperm = NULL)
{
    const char *nm = A.name.c_str () ;
    std::vector<double> sx (A.nnz), sxf (A.nnz + 1) ;
    for (int64_t e = 0 ; e < A.nnz ; e++) sx [e] = (double) A.x [e] * (1 + 1e-9 * rng.val ()) ;
    // the values in the form's order
    if (perm != NULL)
    {
        std::vector<int32_t> bp (A.m + 1), bi (A.nnz + 1) ;
        gg_reorder_permute_rows (A.p.data (), A.i.data (), sx.data (), sizeof (double), false,
            A.m, perm->data (), bp.data (), bi.data (), sxf.data ()) ;
    }
    else std::copy (sx.begin (), sx.end (), sxf.begin ()) ;
    double *dsx = NULL ;
    CHECK_CUDA (cudaMalloc (&dsx, A.nnz * 8 + 8)) ;
    if (A.nnz > 0) CHECK_CUDA (cudaMemcpy (dsx, sxf.data (), A.nnz * 8, cudaMemcpyHostToDevice)) ;
    gg_hybrid_form *f = NULL ;
    const int brc = gg_tc_build_rule (A.m, A.k, A.nnz, d.p, d.i, dsx, GG_FP64, &rule, &f, 0) ;
    EXPECT (brc == GG_OK && f != NULL, "%s: FP64 build rc %d", nm, brc) ;
    if (f == NULL) { cudaFree (dsx) ; return ; }
    EXPECT (f->type == GG_FP64, "%s: FP64 form type", nm) ;
    if (perm != NULL)
    {
        const int prc = gg_tc_set_row_out (f, dperm, 0) ;
        EXPECT (prc == GG_OK, "%s: FP64 set_row_out rc %d", nm, prc) ;
        if (prc != GG_OK) { gg_tc_free (f, 0) ; cudaFree (dsx) ; return ; }
    }
    for (int64_t n : ns)
    {
        std::vector<double> X (A.k * n), y (A.m * n) ;
        for (auto &v : X) v = ((rng.next () & 1) ? rng.val () : -rng.val ()) * (1 + 1e-7 * rng.val ()) ;
        double *dX, *dY ;
        CHECK_CUDA (cudaMalloc (&dX, X.size () * 8 + 32)) ;
        CHECK_CUDA (cudaMalloc (&dY, A.m * n * 8 + 32)) ;
        CHECK_CUDA (cudaMemcpy (dX, X.data (), X.size () * 8, cudaMemcpyHostToDevice)) ;
      for (const char *variant : { "direct2", "fused" })
      {
        CHECK_CUDA (cudaMemset (dY, 0xff, A.m * n * 8)) ;      // NaN: unwritten rows fail
        const int rc = gg_tc_spmm_ex (f, dX, dY, n, GG_TC_EXACT, variant, GG_TC_PARTS_ALL, NULL, 0) ;
        EXPECT (rc == GG_OK, "%s: FP64 gg_tc_spmm %s rc %d", nm, variant, rc) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        CHECK_CUDA (cudaMemcpy (y.data (), dY, y.size () * 8, cudaMemcpyDeviceToHost)) ;
        int bad = 0 ;
        double worst = 0 ;
        for (int64_t row = 0 ; row < A.m ; row++)
        {
            const int64_t len = A.p [row+1] - A.p [row] ;
            if (len == 0) continue ;
            for (int64_t j = 0 ; j < n ; j++)
            {
                long double acc = 0, scale = 0 ;
                for (int32_t e = A.p [row] ; e < A.p [row+1] ; e++)
                {
                    const long double t = (long double) sx [e] * X [(int64_t) A.i [e] * n + j] ;
                    acc += t ; scale += fabsl (t) ;
                }
                const double got = y [row * n + j] ;
                const double err = std::isfinite (got) ? (double) fabsl ((long double) got - acc) : INFINITY ;
                const double bound = (double) (len + 1) * ldexp (1.0, -53) * (double) scale ;
                if (scale > 0 && err / (double) scale > worst) worst = err / (double) scale ;
                if (!(err <= bound) && bad++ < 3)
                    printf ("FAIL %s n=%lld FP64 row %lld col %lld: %.17g vs %.17Lg (bound %.3g)\n",
                        nm, (long long) n, (long long) row, (long long) j, got, acc, bound) ;
            }
        }
        checks++ ;
        if (bad) failures++ ;
        printf ("  %-14s n=%-4lld fp64   err max %.3e (DMMA %s, T=%d seg=%d rule %d:%d%s)%s\n", nm,
            (long long) n, worst, variant, rule.threshold, rule.seg_blocks, rule.absorb_pct,
            rule.win_min, perm ? ", rows permuted" : "", bad ? " FAILED" : "") ;
      }
        cudaFree (dX) ; cudaFree (dY) ;
    }
    gg_tc_free (f, 0) ;
    cudaFree (dsx) ;
}

// The form of a row-permuted S (row q of B = row perm [q] of A) made to
// write Y in A's order (gg_tc_set_row_out), under each rule: A's reference
// checks every variant and mode (FP32), with the remainder's chooser pick
// and with slot_k32 and nnz_k16 named (its permuted store); and the FP64
// form's direct2 and fused.
static void check_permuted (const bm_csr &A, const std::vector<int64_t> &ns,
    const std::vector<gg_tc_rule> &rules)
{
    const char *nm = A.name.c_str () ;
    std::vector<int32_t> perm (A.m) ;
    for (int64_t q = 0 ; q < A.m ; q++) perm [q] = (int32_t) q ;
    for (int64_t q = A.m - 1 ; q > 0 ; q--) std::swap (perm [q], perm [rng.next () % (q + 1)]) ;
    bm_csr B ;
    B.name = A.name + "_perm" ; B.m = A.m ; B.k = A.k ; B.nnz = A.nnz ; B.max_row = A.max_row ;
    B.p.assign (A.m + 1, 0) ; B.i.resize (A.nnz + 1) ; B.x.resize (A.nnz + 1) ;
    gg_reorder_permute_rows (A.p.data (), A.i.data (), A.x.data (), sizeof (float), false, A.m,
        perm.data (), B.p.data (), B.i.data (), B.x.data ()) ;
    B.i.resize (A.nnz) ; B.x.resize (A.nnz) ;
    dev_csr d = upload (B) ;
    int32_t *dperm = NULL ;
    CHECK_CUDA (cudaMalloc (&dperm, A.m * 4 + 4)) ;
    CHECK_CUDA (cudaMemcpy (dperm, perm.data (), A.m * 4, cudaMemcpyHostToDevice)) ;
    for (const gg_tc_rule &rule : rules)
    {
    gg_hybrid_form *f = NULL ;
    EXPECT (gg_tc_build_rule (B.m, B.k, B.nnz, d.p, d.i, d.x, GG_FP32, &rule, &f, 0) == GG_OK
        && f != NULL, "%s: permuted build", nm) ;
    if (f != NULL)
    {
        EXPECT (gg_tc_set_row_out (f, dperm, 0) == GG_OK, "%s: set_row_out", nm) ;
        printf ("%s permuted, rule T=%d seg=%d %d:%d: %lld zero rows, remainder %lld\n", nm,
            rule.threshold, rule.seg_blocks, rule.absorb_pct, rule.win_min, (long long) f->nzero,
            (long long) f->rem_nnz) ;
        for (int64_t n : ns)
        {
            std::vector<float> X (A.k * n), y (A.m * n) ;
            for (auto &v : X) v = (rng.next () & 1) ? rng.val () : -rng.val () ;
            float *dX, *dY ;
            CHECK_CUDA (cudaMalloc (&dX, X.size () * 4 + 16)) ;
            CHECK_CUDA (cudaMalloc (&dY, A.m * n * 4 + 16)) ;
            CHECK_CUDA (cudaMemcpy (dX, X.data (), X.size () * 4, cudaMemcpyHostToDevice)) ;
            const reference R = make_reference (A, X, n) ;
            for (const char *rem : { "", "slot_k32", "nnz_k16" })
            for (int mode = 0 ; mode < GG_TC_NMODES ; mode++)
            for (const char *const *v = gg_tc_variants () ; *v ; v++)
            {
                // (the named remainders with the split variants, exact mode)
                if (rem [0] != '\0' && (mode != GG_TC_EXACT || !strcmp (*v, "fused")
                    || !strcmp (*v, "team"))) continue ;
                CHECK_CUDA (cudaMemset (dY, 0xff, A.m * n * 4)) ;
                const int rc = gg_tc_spmm_ex (f, dX, dY, n, mode, *v, GG_TC_PARTS_ALL, rem, 0) ;
                EXPECT (rc == GG_OK, "%s: permuted %s rc %d", nm, *v, rc) ;
                CHECK_CUDA (cudaDeviceSynchronize ()) ;
                CHECK_CUDA (cudaMemcpy (y.data (), dY, y.size () * 4, cudaMemcpyDeviceToHost)) ;
                const errs e = errors (A, R, n, y) ;
                // recursive summation in any order: (terms + 1) u per
                // element in units of sum |s x| (u = 2^-24), twice for the
                // split products' own roundings; tf32 adds its 2e-3
                const double rec = 2.0 * (double) (A.max_row + 1) * (FLT_EPSILON / 2) ;
                const double bound = (mode == GG_TC_TF32) ? 2e-3 + rec : rec ;
                EXPECT (e.finite && e.max <= bound, "%s n=%lld permuted %s %s rem '%s': finite %d max %.3g",
                    nm, (long long) n, *v, gg_tc_mode_name (mode), rem, (int) e.finite, e.max) ;
            }
            cudaFree (dX) ; cudaFree (dY) ;
        }
        gg_tc_free (f, 0) ;
    }
    check_product64 (A, d, rule, ns, &perm, dperm) ;
    }
    cudaFree (dperm) ;
    release (d) ;
}

// forms: {threshold, seg_blocks, absorb_pct, win_min} (gg_tc_rule; 0: the
// defaults, no window rule)
static void test_matrix (const bm_csr &A, const std::vector<int64_t> &ns,
    const std::vector<gg_tc_rule> &forms, bool all_variants)
{
    dev_csr d = upload (A) ;
    for (const gg_tc_rule &tf : forms)
    {
        gg_hybrid_form *f = NULL ;
        const int rc = gg_tc_build_rule (A.m, A.k, A.nnz, d.p, d.i, d.x, GG_FP32, &tf, &f, 0) ;
        EXPECT (rc == GG_OK && f != NULL, "%s: build rc %d", A.name.c_str (), rc) ;
        if (f == NULL) continue ;
        gg_tc_info info ;
        gg_tc_form_info (f, &info) ;
        printf ("%s (m %lld k %lld nnz %lld) T=%d seg=%d rule %d:%d grow %d: TC %.1f %% in %lld blocks (fill %.2f), "
            "%lld segments, %lld zero rows, remainder %lld, build %.2f ms\n", A.name.c_str (), (long long) A.m,
            (long long) A.k, (long long) A.nnz, info.threshold, info.seg_blocks, info.absorb_pct,
            info.win_min, info.absorb_grow, 100 * info.tc_share, (long long) info.nblk, info.fill, (long long) info.nseg,
            (long long) f->nzero, (long long) info.rem_nnz, info.build_ms) ;
        gg_tc_rule want = tf ;
        if (want.threshold <= 0) want.threshold = 3 ;
        if (want.threshold > 8) want.threshold = 9 ;
        if (want.seg_blocks <= 0) want.seg_blocks = 16 ;
        check_form (A, f, want) ;
        for (int64_t n : ns) check_product (A, d, f, n, all_variants) ;
        gg_tc_free (f, 0) ;
        check_product64 (A, d, tf, ns) ;
    }
    release (d) ;
    // (the vector rule; absorbing windows into segments of 2 blocks, so
    // that rows are zeroed and added to with atomics)
    if (A.m > 1) check_permuted (A, ns, { { 3, 0, 0, 0 }, { 3, 2, 40, 0 } }) ;
}

//------------------------------------------------------------------------------
// 3. the non-finite check
//------------------------------------------------------------------------------

template <typename T>
static void check_nonfinite (gg_type type, int64_t count)
{
    std::vector<T> h (count) ;
    for (auto &v : h) v = (T) ((rng.next () & 1) ? rng.val () : -rng.val ()) * (T) 1e30 ;
    T *d ;
    int32_t *flag ;
    CHECK_CUDA (cudaMalloc (&d, count * sizeof (T) + 8)) ;
    CHECK_CUDA (cudaMalloc (&flag, 4)) ;
    const T bad [3] = { (T) INFINITY, (T) -INFINITY, (T) NAN } ;
    for (int c = -1 ; c < 3 ; c++)
    {
        std::vector<T> g = h ;
        int64_t at = -1 ;
        if (c >= 0 && count > 0) { at = (int64_t) (rng.next () % count) ; g [at] = bad [c] ; }
        if (count > 0) CHECK_CUDA (cudaMemcpy (d, g.data (), count * sizeof (T), cudaMemcpyHostToDevice)) ;
        CHECK_CUDA (cudaMemset (flag, 0x55, 4)) ;
        EXPECT (gg_cuda_has_nonfinite (d, count, type, flag, 0) == GG_OK, "has_nonfinite rc") ;
        int32_t got = -1 ;
        CHECK_CUDA (cudaMemcpy (&got, flag, 4, cudaMemcpyDeviceToHost)) ;
        EXPECT (got == (at >= 0 ? 1 : 0), "has_nonfinite type %d count %lld bad at %lld: flag %d",
            (int) type, (long long) count, (long long) at, got) ;
    }
    EXPECT (gg_cuda_has_nonfinite (d, count, GG_INT32, flag, 0) == GG_ERR_UNSUPPORTED, "INT32 refused") ;
    cudaFree (d) ; cudaFree (flag) ;
}

// gg_tc_values_plain: flags a zero of either sign, a subnormal, an infinity
// and a NaN anywhere, and nothing in ordinary values; FP32 magnitudes
// outside [2^-51, 2^63] too.  gg_tc_values_range: the same but zeros pass.
template <typename T>
static void check_plain (gg_type type, int64_t count)
{
    std::vector<T> h (count) ;
    for (auto &v : h) v = (T) ((rng.next () & 1) ? rng.val () + (T) 0.5 : -rng.val () - (T) 0.5) ;
    T *d ;
    int32_t *flag ;
    CHECK_CUDA (cudaMalloc (&d, count * sizeof (T) + 8)) ;
    CHECK_CUDA (cudaMalloc (&flag, 4)) ;
    // h with v at a random place (none when count is 0 or `put` is false):
    // the flag of plain (range false) or range (true)
    auto flag_of = [&] (bool range, bool put, T v) -> int32_t
    {
        std::vector<T> g = h ;
        if (put && count > 0) g [(int64_t) (rng.next () % count)] = v ;
        if (count > 0) CHECK_CUDA (cudaMemcpy (d, g.data (), count * sizeof (T), cudaMemcpyHostToDevice)) ;
        CHECK_CUDA (cudaMemset (flag, 0x55, 4)) ;
        EXPECT ((range ? gg_tc_values_range (d, count, type, flag, 0)
            : gg_tc_values_plain (d, count, type, flag, 0)) == GG_OK, "values check rc") ;
        int32_t got = -1 ;
        CHECK_CUDA (cudaMemcpy (&got, flag, 4, cudaMemcpyDeviceToHost)) ;
        return got ;
    } ;
    const T bad [6] = { (T) 0, (T) -0.0, std::numeric_limits<T>::denorm_min (), (T) INFINITY,
        (T) -INFINITY, (T) NAN } ;
    // FP32: the ends of [2^-51, 2^63] pass, what lies beyond them is flagged;
    // FP64 (DMMA, no split): every normal number passes
    const bool f32 = sizeof (T) == 4 ;
    const T ends [4] = { (T) 0x1p-51, (T) -0x1p63, (T) 0x1p-52, (T) -0x1p64 } ;
    for (bool range : { false, true })
    {
        const char *nm = range ? "values_range" : "values_plain" ;
        EXPECT (flag_of (range, false, 0) == 0, "%s type %d count %lld: ordinary values flagged",
            nm, (int) type, (long long) count) ;
        for (int c = 0 ; c < 6 && count > 0 ; c++)
        {
            const int32_t want = (range && c < 2) ? 0 : 1 ;    // (zeros pass the range)
            const int32_t got = flag_of (range, true, bad [c]) ;
            EXPECT (got == want, "%s type %d count %lld case %d: flag %d", nm, (int) type,
                (long long) count, c, got) ;
        }
        for (int c = 0 ; c < 4 && count > 0 ; c++)
        {
            const int32_t got = flag_of (range, true, ends [c]) ;
            EXPECT (got == ((f32 && c >= 2) ? 1 : 0), "%s type %d count %lld: %g flagged %d", nm,
                (int) type, (long long) count, (double) ends [c], got) ;
        }
    }
    EXPECT (gg_tc_values_plain (d, count, GG_INT32, flag, 0) == GG_ERR_UNSUPPORTED, "INT32 refused") ;
    EXPECT (gg_tc_values_range (d, count, GG_INT32, flag, 0) == GG_ERR_UNSUPPORTED, "INT32 refused") ;
    cudaFree (d) ; cudaFree (flag) ;
}

// Exact mode at the ends of the FP32 range gg_tc_values_plain lets through
// (S and X scaled by 2^-50 and by 2^58, every value with a full 24-bit
// significand, in [0.5, 1.5) times the scale): the default variant held to
// check_product's bounds against the CUDA-core kernel.  Then, printed and
// not checked, scales outside it (S alone scaled by 2^-e), where the split's
// parts or their products leave FP32's normal numbers.
static float full_val (void)
{
    return (float) (0.5 + (double) (rng.next () >> 11) * 0x1p-53) ;
}

static void check_range (void)
{
    struct { int es, ex ; bool checked ; } cases [] = { { 0, 0, true }, { 50, 50, true },
        { -58, -58, true }, { 100, 0, false }, { 112, 0, false }, { 118, 0, false },
        { 124, 0, false }, { 60, 60, false } } ;
    for (auto c : cases)
    {
        bm_csr A = random_windows ("rand_range", 1024, 300, 40, true) ;
        for (auto &v : A.x) v = ldexpf ((v < 0 ? -1 : 1) * full_val (), -c.es) ;
        dev_csr d = upload (A) ;
        gg_hybrid_form *f = NULL ;
        EXPECT (gg_tc_build (A.m, A.k, A.nnz, d.p, d.i, d.x, GG_FP32, 0, 0, &f, 0) == GG_OK,
            "range: build") ;
        const int64_t n = 32 ;
        std::vector<float> X (A.k * n), y (A.m * n) ;
        for (auto &v : X) v = ldexpf ((rng.next () & 1) ? full_val () : -full_val (), -c.ex) ;
        float *dX, *dY ;
        CHECK_CUDA (cudaMalloc (&dX, X.size () * 4 + 16)) ;
        CHECK_CUDA (cudaMalloc (&dY, A.m * n * 4 + 16)) ;
        CHECK_CUDA (cudaMemcpy (dX, X.data (), X.size () * 4, cudaMemcpyHostToDevice)) ;
        const reference R = make_reference (A, X, n) ;
        const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
        EXPECT (gg_cuda_spmm_plan (&sr, A.m, A.k, n, A.nnz, d.p, d.i, d.x, false, dX, dY, d.plan,
            A.max_row, gg_cuda_spmm_choose_plan (A.m, n, A.nnz, A.max_row), 0) == GG_OK,
            "range: CUDA-core") ;
        CHECK_CUDA (cudaMemcpy (y.data (), dY, y.size () * 4, cudaMemcpyDeviceToHost)) ;
        const errs cc = errors (A, R, n, y) ;
        errs e [2] ;
        for (int mode : { GG_TC_EXACT, GG_TC_TF32 })
        {
            EXPECT (f != NULL && gg_tc_spmm (f, dX, dY, n, mode, 0) == GG_OK, "range: tc") ;
            CHECK_CUDA (cudaMemcpy (y.data (), dY, y.size () * 4, cudaMemcpyDeviceToHost)) ;
            e [mode == GG_TC_TF32] = errors (A, R, n, y) ;
        }
        if (c.checked)
        {
            const bounds b = exact_bounds (cc, 2) ;
            EXPECT (cc.finite && e [0].finite && e [0].max <= b.max && e [0].med <= b.med,
                "range: S x 2^%d, X x 2^%d: exact error max %.3g med %.3g vs CUDA-core max %.3g "
                "med %.3g", -c.es, -c.ex, e [0].max, e [0].med, cc.max, cc.med) ;
        }
        printf ("range%s: S x 2^%d, X x 2^%d: err max exact %.3e tf32 %.3e | CUDA-core %.3e\n",
            c.checked ? "" : " (probe)", -c.es, -c.ex, e [0].max, e [1].max, cc.max) ;
        gg_tc_free (f, 0) ;
        cudaFree (dX) ; cudaFree (dY) ;
        release (d) ;
    }
}

// gg_tc_tf32 against cvt.rna.tf32.f32 on the bit patterns lo .. hi - 1 that are
// finite floats, and tc_split's unrounded third part against the rounded
// one where |a| >= 2^-103: *bad counts the differences, *first is the smallest such
// pattern (and *seen the finite patterns looked at)
__global__ void rna_kernel (uint64_t lo, uint64_t hi, unsigned long long *bad,
    unsigned int *first, unsigned long long *seen)
{
    unsigned long long nb = 0, ns = 0 ;
    for (uint64_t e = lo + (uint64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < hi ;
         e += (uint64_t) gridDim.x * blockDim.x)
    {
        const float a = __uint_as_float ((uint32_t) e) ;
        if (!isfinite (a)) continue ;
        uint32_t r ;
        asm ("cvt.rna.tf32.f32 %0, %1;" : "=r" (r) : "f" (a)) ;
        ns++ ;
        bool same = r == gg_tc_tf32 (a) ;
        // the split's third part unrounded (tc_split) from |a| = 2^-103 up
        // to where a's rounding overflows: a TF32 value already
        if (fabsf (a) >= 0x1p-103f && isfinite (__uint_as_float (gg_tc_tf32 (a))))
        {
            uint32_t s [3] ;
            tc_split<3> (a, s) ;
            const float r1 = a - __uint_as_float (s [0]) ;
            uint32_t r3 ;
            asm ("cvt.rna.tf32.f32 %0, %1;" : "=r" (r3) : "f" (r1 - __uint_as_float (s [1]))) ;
            same = same && s [2] == r3 ;
        }
        if (!same) { nb++ ; atomicMin (first, (unsigned int) e) ; }
    }
    if (nb) atomicAdd (bad, nb) ;
    atomicAdd (seen, ns) ;
}

static void check_rounding (void)
{
    unsigned long long *d ;
    CHECK_CUDA (cudaMalloc (&d, 3 * sizeof (unsigned long long))) ;
    CHECK_CUDA (cudaMemset (d, 0, 3 * sizeof (unsigned long long))) ;
    CHECK_CUDA (cudaMemset (d + 1, 0xff, sizeof (unsigned int))) ;
    rna_kernel<<<132 * 16, 256>>> (0, (uint64_t) 1 << 32, d, (unsigned int *) (d + 1), d + 2) ;
    CHECK_CUDA (cudaGetLastError ()) ;
    unsigned long long h [3] ;
    CHECK_CUDA (cudaMemcpy (h, d, sizeof h, cudaMemcpyDeviceToHost)) ;
    const unsigned int first = (unsigned int) h [1] ;
    // 2^32 patterns less the 2 x 2^23 with the largest exponent (Inf, NaN)
    EXPECT (h [2] == ((1ull << 32) - (1ull << 24)), "rounding: %llu finite patterns seen", h [2]) ;
    EXPECT (h [0] == 0, "rounding: gg_tc_tf32 or the split differs from cvt.rna.tf32.f32 on %llu patterns "
        "(first 0x%08x)", h [0], first) ;
    printf ("rounding: gg_tc_tf32 = cvt.rna.tf32.f32 on %llu finite patterns, %llu differ\n",
        h [2], h [0]) ;
    cudaFree (d) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

int main (void)
{
    cudaDeviceProp prop ;
    gg_need_device (&prop) ;
    printf ("device: %s\n", prop.name) ;

    // 3. non-finite check
    for (int64_t count : { (int64_t) 0, (int64_t) 1, (int64_t) 1000, (int64_t) 3000001 })
    {
        check_nonfinite<float> (GG_FP32, count) ;
        check_nonfinite<double> (GG_FP64, count) ;
        check_plain<float> (GG_FP32, count) ;
        check_plain<double> (GG_FP64, count) ;
    }

    // the FP32 kernels' 32-bit offsets of X: k * n >= 2^32 is refused
    // (an empty form of 8 rows and 2^30 columns, n = 4; n = 3 runs: X is
    // never read, the one-launch variants write Y's 8 x 3 zeros)
    {
        gg_hybrid_form *f = NULL ;
        int32_t *p ;
        CHECK_CUDA (cudaMalloc (&p, 64 * 4)) ;
        CHECK_CUDA (cudaMemset (p, 0, 64 * 4)) ;
        EXPECT (gg_tc_build (8, (int64_t) 1 << 30, 0, p, p, p, GG_FP32, 0, 0, &f, 0) == GG_OK,
            "wide build") ;
        for (const char *const *v = gg_tc_variants () ; f && *v ; v++)
        {
            EXPECT (gg_tc_spmm_ex (f, p, p, 4, GG_TC_EXACT, *v, GG_TC_PARTS_ALL, NULL, 0)
                == GG_ERR_UNSUPPORTED, "k * n = 2^32 refused (%s)", *v) ;
            EXPECT (gg_tc_spmm_ex (f, p, p, 3, GG_TC_EXACT, *v, GG_TC_PARTS_ALL, NULL, 0)
                == GG_OK, "k * n < 2^32 taken (%s)", *v) ;
        }
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        gg_tc_free (f, 0) ;
        cudaFree (p) ;
    }

    // 4. the rounding of the split
    check_rounding () ;
    check_range () ;

    // 1, 2: random matrices
    const std::vector<int64_t> ns = { 1, 5, 8, 16, 17, 32, 128 } ;
    // (the window rules: 50 % absorbs the windows mostly in vectors, with
    // 1 every window holding one; win_min 9 drops the windows of one vector)
    // (absorb_grow 1: only windows whose every column is in a TC vector's
    // blocks already; 2: at most twice the blocks)
    const std::vector<gg_tc_rule> forms = { { 0, 0, 0, 0 }, { 1, 2, 0, 0 }, { 9, 16, 0, 0 },
        { 2, 1, 0, 0 }, { 3, 2, 50, 0 }, { 3, 16, 1, 0 }, { 3, 1, 0, 9 }, { 2, 16, 70, 12 },
        { 3, 16, 1, 0, 1 }, { 3, 2, 20, 0, 2 } } ;
    test_matrix (random_windows ("rand_small_k", 997, 13, 6, true), ns, forms, true) ;
    test_matrix (random_windows ("rand_large_k", 1003, 5000, 24, true), ns, forms, true) ;
    test_matrix (random_windows ("rand_pos", 4096, 300, 40, false), ns,
        { { 0, 0, 0, 0 }, { 3, 1, 0, 0 }, { 3, 16, 60, 16 }, { 3, 16, 10, 0, 2 } }, true) ;
    test_matrix (random_windows ("rand_tiny", 5, 7, 3, true), ns, { { 0, 0, 0, 0 }, { 1, 1, 0, 0 },
        { 3, 16, 1, 0 } }, true) ;
    test_matrix (random_windows ("rand_zeros", 1001, 200, 12, true, true), { 1, 5, 32 },
        { { 0, 0, 0, 0 }, { 1, 2, 0, 0 }, { 3, 16, 40, 0 } }, true) ;
    {
        bm_csr empty ;
        empty.name = "empty" ; empty.m = 20 ; empty.k = 10 ;
        bm_build_csr (empty, {}, {}) ;
        test_matrix (empty, { 1, 8 }, { { 0, 0, 0, 0 }, { 3, 16, 60, 16 } }, false) ;
    }
    {
        bm_rng r2 (42) ;
        test_matrix (bm_rmat (12, r2), { 5, 32, 128 }, { { 0, 0, 0, 0 }, { 0, 2, 0, 0 },
            { 3, 16, 60, 16 } }, true) ;
    }

    // 5. real matrices
    bm_each_real (getenv ("GRBGPU_TEST_DATA"), 2000000, rng, [] (const bm_csr &A)
        { test_matrix (A, { 5, 32 }, { { 0, 0, 0, 0 }, { 3, 16, 60, 16 } }, false) ; }) ;

    printf ("%d checks, %d failures\n", checks, failures) ;
    return failures ? 1 : 0 ;
}
