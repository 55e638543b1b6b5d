//------------------------------------------------------------------------------
// tests/test_nm_spmm.cu: dense X times N:M-sparse W on the GPU, against the CPU
//------------------------------------------------------------------------------

// Fresh random X (B x k) and W (k x n), W vector-wise N:M along k (blocks of
// v = 1, 8, 32 output columns; every kept position present, or 80 % of them:
// then the blocks' rows differ and the layout cannot share indices), packed
// by formats/nm_pack.c in both orientations, laid out by formats/nm_layout.c,
// uploaded in one copy, multiplied by gg_cuda_nm_spmm.  Pairs 2:4, 1:4, 1:8,
// 4:8, 8:32, 4:32, 16:32, 1:2; X row-major or given as X' (Y then comes
// as Y', the SpMM family's orientation); shapes not multiples of the tiles (k, n, B
// odd, B = 1, k < M), FP32 and FP64.  Some cases put Inf, NaN and -0 in X
// and W.  Every element of Y is checked twice:
//  - bit for bit against the same sum on the host (products rounded, added
//    in ascending k from -0: the kernel's exact order; for the cases run a
//    second time with GG_NM_SPMM_FMA, every case with X', one std::fma per
//    entry in the same order), NaN as NaN;
//  - against an FP64 (long double for FP64) reference of the entries'
//    products, |y - ref| <= 2 * L * eps * sum |products| (L = the column's
//    entries), with Inf / NaN positions identical.
// Y is poisoned (NaN) first.  The same checks also run on a host emulation
// of the kernel on the layout (packed X tiles, col_info, whenever X is
// given k-major and the layout allows them) (what the kernel reads and adds, in its
// order), with or without a GPU; without a CUDA device the test then exits
// 77 (or 1 if the emulation failed).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <cfloat>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

extern "C" {
#include "formats/nm.h"
#include "formats/nm_layout.h"
}
#include "formats/nm_layout_dev.h"
#include "kernels/nm_spmm/nm_spmm.h"
#include "kernels/tc_spmm/tc_spmm.h"
#include "tests/nm_gen.h"

#include "tests/cuda_check.h"

static int failures = 0 ;
static long checks = 0 ;

// p_special < 0: signed zeros and ones only (sums of signed zeros: -0 only
// where every product is -0)
template <typename T>
static T special_value (uint64_t *seed, double p_special)
{
    if (p_special < 0)
    {
        const uint64_t r = nm_gen_next (seed) % 8 ;
        return (r < 4) ? (T) -0.0 : (r < 7) ? (T) 0.0 : (T) 1.0 ;
    }
    const double u = nm_gen_unif (seed) ;
    if (u < p_special)
    {
        switch (nm_gen_next (seed) % 4)
        {
            case 0: return (T) INFINITY ;
            case 1: return (T) -INFINITY ;
            case 2: return (T) NAN ;
            default: return (T) -0.0 ;
        }
    }
    return (T) (2 * nm_gen_unif (seed) - 1) ;
}

static bool have_gpu = false ;

// What the kernel computes, from the host copy of the layout: per stage and
// slot, the X value at the slot's index (0 at the zero column ks and past k),
// times the slot's value, added in slot order from -0.
template <typename T>
static void emulate (const gg_nm_layout *L, const std::vector<T> &X,
    int64_t B, std::vector<T> &Y)
{
    const gg_nm_spmm_op &op = L->op ;
    const int ib = op.shared ? op.geom.tn : 1 ;
    const int64_t ldd = op.n_pad / ib, k = op.k, n = op.ncols ;
    const T *val = (const T *) L->buf ;
    const uint8_t *idx = (const uint8_t *) L->buf + L->val_bytes ;
    const uint8_t *cols = idx + L->idx_bytes ;
    for (int64_t b = 0 ; b < B ; b++)
    {
        for (int64_t c = 0 ; c < n ; c++)
        {
            volatile T acc = (T) -0.0 ;
            for (int64_t st = 0 ; st < op.stages ; st++)
            {
                for (int p = 0 ; p < op.geom.ws ; p++)
                {
                    const int64_t u = st * op.geom.ws + p ;
                    const int id = idx [u * ldd + c / ib] ;
                    // packed: id is a row of the tile's packed X tile
                    const int64_t kk = st * op.geom.ks + ((op.packed && id < op.geom.ks)
                        ? cols [((c / op.geom.bn) * op.stages + st) * op.geom.ks + id] : id) ;
                    const T x = (id < op.geom.ks && kk < k) ? X [b * k + kk] : T (0) ;
                    volatile T prod = x * val [u * op.n_pad + c] ;
                    acc = acc + prod ;
                }
            }
            Y [b * n + c] = acc ;
        }
    }
}

template <typename T>
static void run_case (int n_, int m_, int v, double keep, int64_t B,
    int64_t k, int64_t n, double p_special, gg_nm_orient orient,
    bool trans, uint64_t seed, bool fma)
{
    char name [200] ;
    snprintf (name, sizeof name, "%s %d:%d v=%d keep=%.1f B=%lld k=%lld "
        "n=%lld special=%.3f %s%s%s", sizeof (T) == 4 ? "fp32" : "fp64", n_,
        m_, v, keep, (long long) B, (long long) k, (long long) n, p_special,
        orient == GG_NM_ROWS ? "rows" : "cols", trans ? " X'" : "",
        fma ? " fma" : "") ;
    // W' (n x k) pattern and values
    nm_gen_csr S = nm_gen_pattern (n, k, n_, m_, v, keep, &seed) ;
    const int64_t nnz = (int64_t) S.i.size () ;
    // specials: about 16 p_special per column's sum
    const double ps = (p_special <= 0) ? p_special : p_special * 16 / (k + 16) ;
    std::vector<T> sx ((size_t) nnz) ;
    for (auto &w : sx) w = special_value<T> (&seed, ps) ;
    std::vector<T> X ((size_t) (B * k)) ;
    for (auto &x : X) x = special_value<T> (&seed, ps) ;

    // the CSR handed to the packer: W' itself, or W (its transpose)
    std::vector<int32_t> wp, wi ;
    std::vector<T> wx ;
    gg_csr A ;
    memset (&A, 0, sizeof A) ;
    if (orient == GG_NM_ROWS)
    {
        A.nrows = n ; A.ncols = k ; A.nnz = nnz ;
        A.p32 = S.p.data () ; A.i32 = S.i.data () ; A.x = sx.data () ;
    }
    else
    {
        wp.assign ((size_t) k + 1, 0) ;
        wi.resize ((size_t) nnz) ; wx.resize ((size_t) nnz) ;
        for (int64_t q = 0 ; q < nnz ; q++) wp [S.i [q] + 1]++ ;
        for (int64_t r = 0 ; r < k ; r++) wp [r+1] += wp [r] ;
        std::vector<int32_t> pos (wp.begin (), wp.end () - 1) ;
        for (int64_t c = 0 ; c < n ; c++)
        {
            for (int64_t q = S.p [c] ; q < S.p [c+1] ; q++)
            {
                const int32_t d = pos [S.i [q]]++ ;
                wi [d] = (int32_t) c ; wx [d] = sx [q] ;
            }
        }
        A.nrows = k ; A.ncols = n ; A.nnz = nnz ;
        A.p32 = wp.data () ; A.i32 = wi.data () ; A.x = wx.data () ;
    }
    A.max_row = -1 ;

    gg_nm_form *f = NULL ;
    int rc = gg_nm_pack (&f, &A, sizeof (T), n_, m_, v, orient) ;
    if (rc != GG_OK)
    {
        printf ("FAIL %s: gg_nm_pack returned %d\n", name, rc) ;
        failures++ ;
        return ;
    }
    gg_nm_layout *L = NULL ;
    // packed X tiles (where the layout allows them) need X k-major
    rc = gg_nm_layout_build (&L, f, trans) ;
    gg_nm_form_free (f) ;
    if (rc != GG_OK)
    {
        printf ("FAIL %s: gg_nm_layout_build returned %d\n", name, rc) ;
        failures++ ;
        return ;
    }
    const bool shared = L->op.shared, packed = L->op.packed ;
    std::vector<T> Yh ((size_t) (B * n)), Y ((size_t) (B * n)) ;
    emulate (L, X, B, Yh) ;
    if (have_gpu)
    {
        void *dW = NULL, *dX = NULL, *dY = NULL ;
        CHECK_CUDA (cudaMalloc (&dW, L->bytes)) ;
        CHECK_CUDA (cudaMalloc (&dX, (size_t) (B * k) * sizeof (T) + 1)) ;
        CHECK_CUDA (cudaMalloc (&dY, (size_t) (B * n) * sizeof (T) + 1)) ;
        CHECK_CUDA (cudaMemcpy (dW, L->buf, L->bytes, cudaMemcpyHostToDevice)) ;
        gg_nm_layout_bind (L, dW) ;
        // trans: X' (k x B) goes up, Y' (n x B) comes back
        std::vector<T> Xt ;
        if (trans)
        {
            Xt.resize (X.size ()) ;
            for (int64_t b = 0 ; b < B ; b++)
                for (int64_t kk = 0 ; kk < k ; kk++) Xt [kk * B + b] = X [b * k + kk] ;
        }
        CHECK_CUDA (cudaMemcpy (dX, trans ? Xt.data () : X.data (),
            (size_t) (B * k) * sizeof (T), cudaMemcpyHostToDevice)) ;
        // poison: all ones bits, a NaN
        CHECK_CUDA (cudaMemset (dY, 0xff, (size_t) (B * n) * sizeof (T))) ;
        rc = gg_cuda_nm_spmm (&L->op, B, dX, dY, trans, fma ? GG_NM_SPMM_FMA : 0, 0) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        CHECK_CUDA (cudaMemcpy (Y.data (), dY, (size_t) (B * n) * sizeof (T),
            cudaMemcpyDeviceToHost)) ;
        if (trans)
        {
            std::vector<T> Yt (Y) ;
            for (int64_t b = 0 ; b < B ; b++)
                for (int64_t c = 0 ; c < n ; c++) Y [b * n + c] = Yt [c * B + b] ;
        }
        CHECK_CUDA (cudaFree (dW)) ;
        CHECK_CUDA (cudaFree (dX)) ;
        CHECK_CUDA (cudaFree (dY)) ;
    }
    gg_nm_layout_free (L) ;
    if (rc != GG_OK)
    {
        printf ("FAIL %s: gg_cuda_nm_spmm returned %d\n", name, rc) ;
        failures++ ;
        return ;
    }

    const double eps = (sizeof (T) == 4) ? FLT_EPSILON : DBL_EPSILON ;
    int bad = 0, nonfinite = 0 ;
    for (int64_t b = 0 ; b < B ; b++)
    {
        for (int64_t c = 0 ; c < n ; c++)
        {
            volatile T same = (T) -0.0, fused = (T) -0.0 ;
            long double ref = 0, mag = 0 ;
            const int64_t len = S.p [c+1] - S.p [c] ;
            for (int64_t q = S.p [c] ; q < S.p [c+1] ; q++)
            {
                volatile T prod = X [b * k + S.i [q]] * sx [q] ;
                same = same + prod ;
                fused = std::fma (X [b * k + S.i [q]], sx [q], (T) fused) ;
                const long double pr = (long double) X [b * k + S.i [q]]
                    * (long double) sx [q] ;
                ref += pr ;
                mag += fabsl (pr) ;
            }
          for (int which = have_gpu ? 0 : 1 ; which < 2 ; which++)
          {
            const T y = (which == 0) ? Y [b * n + c] : Yh [b * n + c] ;
            // the kernel's own order: rounded products and sums, or (the
            // GPU with fma) one fused multiply-add each (std::fma rounds
            // once, as the device's does)
            const T seq = (which == 0 && fma) ? (T) fused : (T) same ;
            checks += 2 ;
            const bool bit_ok = (std::isnan (seq) && std::isnan (y))
                || memcmp ((const void *) &seq, &y, sizeof (T)) == 0 ;
            bool ref_ok ;
            if (!std::isfinite ((double) same) || !std::isfinite ((double) ref))
            {
                // Inf / NaN: same class and sign as the sequential sum
                nonfinite++ ;
                ref_ok = (std::isnan ((T) same) == std::isnan (y))
                    && (std::isinf ((T) same) == std::isinf (y))
                    && (!std::isinf (y) || (y > 0) == ((T) same > 0)) ;
            }
            else
            {
                const long double tol = 2.0L * (len + 1) * eps * mag ;
                ref_ok = fabsl ((long double) y - ref) <= tol ;
            }
            if (!bit_ok || !ref_ok)
            {
                if (bad < 3)
                {
                    printf ("  %s: %s Y(%lld,%lld) = %.17g, sequential "
                        "%.17g, reference %.17Lg\n", name, which ? "host "
                        "emulation" : "GPU", (long long) b, (long long) c,
                        (double) y, (double) seq, ref) ;
                }
                bad++ ;
            }
          }
        }
    }
    if (bad > 0) failures++ ;
    printf ("%s %s (%s layout, nnz %lld, %d non-finite): %d wrong\n",
        bad ? "FAIL" : "ok  ", name, packed ? "shared, packed X" : shared
        ? "shared" : "per-column",
        (long long) nnz, nonfinite, bad) ;
}

// every case with X k-major runs twice: unfused and with fused multiply-adds
template <typename T>
static void run_both (int n_, int m_, int v, double keep, int64_t B,
    int64_t k, int64_t n, double p_special, gg_nm_orient orient,
    bool trans, uint64_t seed)
{
    run_case<T> (n_, m_, v, keep, B, k, n, p_special, orient, trans, seed, false) ;
    if (trans && have_gpu)
        run_case<T> (n_, m_, v, keep, B, k, n, p_special, orient, trans, seed, true) ;
}

// The tensor-core kernel (nm_spmm_tc.cu) on vector-wise W (X' and Y'
// k-major), values finite and nonzero as its callers guarantee.  Per mode,
// every element against the FP64 reference: exact modes within
// 2 (L + 8) eps sum |products| (L entries in the column; the 8: one MMA's
// terms), tf32 within that plus 2^-10 sum |products|; and the exact modes'
// median and maximum error (over the elements, relative to sum |products|)
// within 2x and 4x of the FP32 fused multiply-add kernel's on the same
// case (its results are the host's std::fma in ascending order).  A layout
// whose 32-column tiles do not share positions, and B not a multiple of 4,
// must be refused (GG_ERR_UNSUPPORTED) rather than run.
static void run_tc_case (int n_, int m_, int v, double keep, int64_t B,
    int64_t k, int64_t n, uint64_t seed)
{
    char name [160] ;
    snprintf (name, sizeof name, "tc fp32 %d:%d v=%d keep=%.1f B=%lld k=%lld "
        "n=%lld", n_, m_, v, keep, (long long) B, (long long) k, (long long) n) ;
    nm_gen_csr S = nm_gen_pattern (n, k, n_, m_, v, keep, &seed) ;
    std::vector<float> sx (S.i.size ()), X ((size_t) (B * k)), Xt (X.size ()) ;
    for (auto &w : sx) w = special_value<float> (&seed, 0) ;
    for (auto &x : X) x = special_value<float> (&seed, 0) ;
    for (int64_t b = 0 ; b < B ; b++)
        for (int64_t kk = 0 ; kk < k ; kk++) Xt [kk * B + b] = X [b * k + kk] ;
    gg_csr A = nm_gen_view (S, sx.data ()) ;
    gg_nm_form *f = NULL ;
    gg_nm_layout *L = NULL ;
    if (gg_nm_pack (&f, &A, sizeof (float), n_, m_, v, GG_NM_ROWS) != GG_OK
        || gg_nm_layout_build (&L, f, true) != GG_OK)
    {
        printf ("FAIL %s: packing or layout failed\n", name) ;
        failures++ ;
        gg_nm_form_free (f) ;
        return ;
    }
    gg_nm_form_free (f) ;
    // whether the tiles share positions, from the pattern itself
    bool share = true ;
    for (int64_t c0 = 0 ; c0 < n && share ; c0 += 32)
    {
        for (int64_t c = c0 + 1 ; c < std::min (c0 + 32, n) && share ; c++)
        {
            // same positions per group where both have entries: with full
            // groups (keep 1) the columns must hold the same set
            share = (S.p [c+1] - S.p [c] == S.p [c0+1] - S.p [c0])
                && std::equal (S.i.begin () + S.p [c], S.i.begin () + S.p [c+1],
                    S.i.begin () + S.p [c0]) ;
        }
    }
    if (keep == 1.0 && share != L->op.tc32)
    {
        printf ("FAIL %s: layout says tc32 = %d, the pattern %d\n", name,
            (int) L->op.tc32, (int) share) ;
        failures++ ;
    }
    void *dW = NULL ;
    float *dX = NULL, *dY = NULL ;
    CHECK_CUDA (cudaMalloc (&dW, L->bytes)) ;
    CHECK_CUDA (cudaMalloc (&dX, X.size () * sizeof (float) + 16)) ;
    CHECK_CUDA (cudaMalloc (&dY, (size_t) (B * n) * sizeof (float) + 16)) ;
    CHECK_CUDA (cudaMemcpy (dW, L->buf, L->bytes, cudaMemcpyHostToDevice)) ;
    CHECK_CUDA (cudaMemcpy (dX, Xt.data (), X.size () * sizeof (float),
        cudaMemcpyHostToDevice)) ;
    gg_nm_layout_bind (L, dW) ;
    const bool fits = L->op.tc32 && B % 4 == 0 ;
    const int modes [3] = { GG_TC_EXACT3, GG_TC_EXACT, GG_TC_TF32 } ;
    const char *mname [3] = { "exact3", "exact6", "tf32" } ;
    std::vector<float> first [3] ;      // the first kernel's results
    for (int mi = 0 ; mi < 3 ; mi++)
    {
        CHECK_CUDA (cudaMemset (dY, 0xff, (size_t) (B * n) * sizeof (float))) ;
        int rc = gg_cuda_nm_spmm_tc (&L->op, B, dX, dY, modes [mi], 0) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        checks++ ;
        if (!fits)
        {
            if (rc != GG_ERR_UNSUPPORTED)
            {
                printf ("FAIL %s %s: not vector-wise or B %% 4, returned %d\n",
                    name, mname [mi], rc) ;
                failures++ ;
            }
            continue ;
        }
        if (rc != GG_OK)
        {
            printf ("FAIL %s %s: returned %d\n", name, mname [mi], rc) ;
            failures++ ;
            continue ;
        }
        std::vector<float> Y ((size_t) (B * n)) ;
        CHECK_CUDA (cudaMemcpy (Y.data (), dY, Y.size () * sizeof (float),
            cudaMemcpyDeviceToHost)) ;
        first [mi] = Y ;
        std::vector<double> et, ef ;
        int bad = 0 ;
        for (int64_t c = 0 ; c < n ; c++)
        {
            const int64_t len = S.p [c+1] - S.p [c] ;
            for (int64_t b = 0 ; b < B ; b++)
            {
                long double ref = 0, mag = 0 ;
                float fused = -0.0f ;
                for (int64_t q = S.p [c] ; q < S.p [c+1] ; q++)
                {
                    const float x = X [b * k + S.i [q]] ;
                    fused = std::fma (x, sx [q], fused) ;
                    ref += (long double) x * sx [q] ;
                    mag += fabsl ((long double) x * sx [q]) ;
                }
                const float y = Y [c * B + b] ;
                const long double err = fabsl ((long double) y - ref) ;
                long double tol = 2.0L * (len + 8) * FLT_EPSILON * mag ;
                if (modes [mi] == GG_TC_TF32) tol += mag / 1024 ;
                checks++ ;
                if (!(err <= tol))
                {
                    if (bad < 3)
                        printf ("  %s %s: Y'(%lld,%lld) = %.9g, reference %.17Lg\n",
                            name, mname [mi], (long long) c, (long long) b, y, ref) ;
                    bad++ ;
                }
                if (mag > 0)
                {
                    et.push_back ((double) (err / mag)) ;
                    ef.push_back ((double) (fabsl ((long double) fused - ref) / mag)) ;
                }
            }
        }
        double med = 0, mx = 0, fmed = 0, fmx = 0 ;
        if (!et.empty ())
        {
            std::sort (et.begin (), et.end ()) ;
            std::sort (ef.begin (), ef.end ()) ;
            med = et [et.size () / 2] ; mx = et.back () ;
            fmed = ef [ef.size () / 2] ; fmx = ef.back () ;
        }
        // the exactness criterion (issue 14's): within 2x of FP32 CUDA-core
        // summation's error, median and maximum (4x at the maximum of small
        // samples; one FP32 rounding as the floor)
        const double floor_ = FLT_EPSILON / 2 ;
        const bool stat_ok = (modes [mi] == GG_TC_TF32)
            || (med <= 2 * std::max (fmed, floor_) && mx <= 4 * std::max (fmx, floor_)) ;
        checks++ ;
        if (bad > 0 || !stat_ok) failures++ ;
        printf ("%s %s %s: %d outside the bound; error / sum |products| median "
            "%.2e max %.2e (FP32 fma in order: %.2e, %.2e)\n",
            (bad || !stat_ok) ? "FAIL" : "ok  ", name, mname [mi], bad, med, mx,
            fmed, fmx) ;
    }
    // the second kernel (W split ahead of time, op.wtc): the same arithmetic,
    // so bit for bit the first kernel's result, in each of its schedules
    const size_t pb = gg_nm_spmm_tc_prep_bytes (&L->op) ;
    checks++ ;
    if ((pb > 0) != L->op.tc32)
    {
        printf ("FAIL %s: prep bytes %zu for tc32 = %d\n", name, pb, (int) L->op.tc32) ;
        failures++ ;
    }
    if (fits && pb > 0)
    {
        void *dP = NULL ;
        CHECK_CUDA (cudaMalloc (&dP, pb)) ;
        checks++ ;
        if (gg_cuda_nm_spmm_tc_prep (&L->op, dP, 0) != GG_OK || L->op.wtc != dP)
        {
            printf ("FAIL %s: gg_cuda_nm_spmm_tc_prep\n", name) ;
            failures++ ;
        }
        const int cfgs [3] = { -1, 4, 5 } ;
        int wrong = 0 ;
        for (int mi = 0 ; mi < 3 ; mi += 2)
        {
            for (int ci = 0 ; ci < 3 ; ci++)
            {
                CHECK_CUDA (cudaMemset (dY, 0xff, (size_t) (B * n) * sizeof (float))) ;
                const int rc = gg_cuda_nm_spmm_tc_cfg (&L->op, B, dX, dY, modes [mi],
                    cfgs [ci], 0) ;
                CHECK_CUDA (cudaDeviceSynchronize ()) ;
                std::vector<float> Y ((size_t) (B * n)) ;
                CHECK_CUDA (cudaMemcpy (Y.data (), dY, Y.size () * sizeof (float),
                    cudaMemcpyDeviceToHost)) ;
                int64_t differ = 0 ;
                for (size_t q = 0 ; q < Y.size () ; q++)
                    differ += (memcmp (&Y [q], &first [mi][q], sizeof (float)) != 0) ;
                checks++ ;
                if (rc != GG_OK || differ != 0)
                {
                    printf ("FAIL %s %s second kernel, schedule %d: rc %d, %lld of %zu "
                        "elements differ from the first kernel's\n", name, mname [mi],
                        cfgs [ci], rc, (long long) differ, Y.size ()) ;
                    failures++ ;
                    wrong++ ;
                }
            }
        }
        printf ("%s %s: second kernel bit for bit against the first, 2 modes x 3 "
            "schedules, %d wrong\n", wrong ? "FAIL" : "ok  ", name, wrong) ;
        // GG_TC_EXACT (six MMAs) stays on the first kernel
        checks++ ;
        if (gg_cuda_nm_spmm_tc_cfg (&L->op, B, dX, dY, GG_TC_EXACT, 4, 0) != GG_ERR_UNSUPPORTED)
        {
            printf ("FAIL %s: exact6 on the second kernel\n", name) ;
            failures++ ;
        }
        CHECK_CUDA (cudaFree (dP)) ;
    }
    CHECK_CUDA (cudaFree (dW)) ;
    CHECK_CUDA (cudaFree (dX)) ;
    CHECK_CUDA (cudaFree (dY)) ;
    gg_nm_layout_free (L) ;
}

// The layout made on the device from S's CSR (formats/nm_layout_dev.cu)
// against the host's (gg_nm_pack with vector length 1, then
// gg_nm_layout_build with packed X tiles allowed): the same geometry and
// flags (shared, packed, tc32), and the same bytes.
template <typename T>
static void run_dev_layout_case (int n_, int m_, int v, double keep, int64_t rows,
    int64_t k, uint64_t seed)
{
    char name [160] ;
    snprintf (name, sizeof name, "device layout %s %d:%d v=%d keep=%.1f rows=%lld k=%lld",
        sizeof (T) == 4 ? "fp32" : "fp64", n_, m_, v, keep, (long long) rows, (long long) k) ;
    nm_gen_csr S = nm_gen_pattern (rows, k, n_, m_, v, keep, &seed) ;
    const int64_t nnz = (int64_t) S.i.size () ;
    std::vector<T> sx ((size_t) nnz) ;
    for (auto &w : sx) w = special_value<T> (&seed, 0.02) ;
    gg_csr A = nm_gen_view (S, sx.data ()) ;
    gg_nm_form *f = NULL ;
    gg_nm_layout *L = NULL ;
    if (gg_nm_pack (&f, &A, sizeof (T), n_, m_, 1, GG_NM_ROWS) != GG_OK
        || gg_nm_layout_build (&L, f, true) != GG_OK)
    {
        printf ("FAIL %s: host packing or layout failed\n", name) ;
        failures++ ;
        gg_nm_form_free (f) ;
        return ;
    }
    gg_nm_form_free (f) ;
    size_t bb = 0, sb = 0, used = 0 ;
    int rc = gg_nm_layout_dev_size (rows, k, sizeof (T), n_, m_, &bb, &sb) ;
    void *dbuf = NULL, *dscr = NULL, *dp = NULL, *di = NULL, *dx = NULL ;
    gg_nm_spmm_op op ;
    memset (&op, 0, sizeof op) ;
    if (rc == GG_OK)
    {
        CHECK_CUDA (cudaMalloc (&dbuf, bb)) ;
        CHECK_CUDA (cudaMalloc (&dscr, sb)) ;
        CHECK_CUDA (cudaMalloc (&dp, (rows + 1) * sizeof (int32_t))) ;
        CHECK_CUDA (cudaMalloc (&di, (nnz + 1) * sizeof (int32_t))) ;
        CHECK_CUDA (cudaMalloc (&dx, (nnz + 1) * sizeof (T))) ;
        // poison: the build must write every byte it reports
        CHECK_CUDA (cudaMemset (dbuf, 0x5a, bb)) ;
        CHECK_CUDA (cudaMemcpy (dp, S.p.data (), (rows + 1) * sizeof (int32_t), cudaMemcpyHostToDevice)) ;
        CHECK_CUDA (cudaMemcpy (di, S.i.data (), nnz * sizeof (int32_t), cudaMemcpyHostToDevice)) ;
        CHECK_CUDA (cudaMemcpy (dx, sx.data (), nnz * sizeof (T), cudaMemcpyHostToDevice)) ;
        rc = gg_nm_layout_dev_build (&op, &used, dbuf, dscr, rows, k, nnz,
            (const int32_t *) dp, (const int32_t *) di, dx, sizeof (T), n_, m_, true, 0) ;
    }
    checks++ ;
    bool ok = (rc == GG_OK && used == L->bytes && used <= bb
        && op.shared == L->op.shared && op.packed == L->op.packed && op.tc32 == L->op.tc32
        && op.n_pad == L->op.n_pad && op.stages == L->op.stages
        && op.geom.ks == L->op.geom.ks && op.geom.ws == L->op.geom.ws
        && (char *) op.idx - (char *) dbuf == (ptrdiff_t) L->val_bytes) ;
    int64_t differ = -1 ;
    if (ok)
    {
        std::vector<uint8_t> got (used) ;
        CHECK_CUDA (cudaMemcpy (got.data (), dbuf, used, cudaMemcpyDeviceToHost)) ;
        for (size_t q = 0 ; q < used && differ < 0 ; q++)
            if (got [q] != ((const uint8_t *) L->buf) [q]) differ = (int64_t) q ;
        ok = (differ < 0) ;
    }
    if (!ok) failures++ ;
    printf ("%s %s: rc %d, %zu bytes (host %zu), %s%s%s, first differing byte %lld\n",
        ok ? "ok  " : "FAIL", name, rc, used, L->bytes, L->op.shared ? "shared" : "per-column",
        L->op.packed ? ", packed X" : "", L->op.tc32 ? ", tc32" : "", (long long) differ) ;
    cudaFree (dbuf) ; cudaFree (dscr) ; cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ;
    gg_nm_layout_free (L) ;
}

int main (void)
{
    int ndev = 0 ;
    have_gpu = (cudaGetDeviceCount (&ndev) == cudaSuccess && ndev > 0) ;
    if (have_gpu)
    {
        cudaDeviceProp prop ;
        CHECK_CUDA (cudaGetDeviceProperties (&prop, 0)) ;
        printf ("device: %s\n", prop.name) ;
    }
    else
    {
        printf ("no CUDA device: the layout is checked through the host "
            "emulation of the kernel only\n") ;
    }
    uint64_t seed = 0x5eed0016 ;
    const int pairs [][2] = { {2,4}, {1,4}, {1,8}, {4,8}, {8,32}, {4,32},
        {16,32}, {1,2} } ;
    const int64_t shapes [][3] = {      // B, k, n
        { 1, 256, 128 }, { 37, 300, 201 }, { 130, 97, 129 },
        { 257, 1000, 260 }, { 5, 3, 7 }, { 128, 512, 128 } } ;
    for (const auto &pr : pairs)
    {
        for (const auto &sh : shapes)
        {
            for (int v : { 1, 8, 32 })
            {
                const uint64_t s = nm_gen_next (&seed) ;
                const double keep = (s & 1) ? 1.0 : 0.8 ;
                const double sp = (s & 2) ? 0.0 : (s & 16) ? 0.05 : -1 ;
                const gg_nm_orient o = (s & 4) ? GG_NM_ROWS : GG_NM_COLS ;
                const bool tr = (s & 32) != 0 ;
                run_both<float> (pr [0], pr [1], v, keep, sh [0], sh [1],
                    sh [2], sp, o, tr, s) ;
                if (v == 8 || (s & 8))
                {
                    run_both<double> (pr [0], pr [1], v, keep, sh [0], sh [1],
                        sh [2], sp, o, !tr, s + 1) ;
                }
            }
        }
    }
    // the shared layout with every slot full, specials on, both types
    for (bool tr : { false, true })
    {
        run_both<float> (2, 4, 32, 1.0, 200, 1024, 384, 0.05, GG_NM_COLS, tr, 11) ;
        run_both<double> (1, 8, 32, 1.0, 200, 1024, 384, 0.05, GG_NM_ROWS, tr, 12) ;
        run_both<float> (8, 32, 32, 1.0, 131, 640, 256, -1, GG_NM_ROWS, tr, 13) ;
        run_both<float> (4, 32, 32, 1.0, 256, 4096, 256, 0, GG_NM_ROWS, tr, 14) ;
    }
    // large enough that the packer and the layout run on OpenMP threads
    // (formats/nm_pack.c, nm_layout.c: from 2^18 entries / slots): element-wise
    // (per-column indices), vector-wise with shared indices, and blocks whose
    // rows differ (the shared check finds a disagreement on some thread)
    run_both<float> (2, 4, 1, 1.0, 16, 4096, 1024, 0, GG_NM_COLS, true, 21) ;
    run_both<float> (8, 32, 32, 1.0, 16, 4096, 1024, 0, GG_NM_ROWS, true, 22) ;
    run_both<float> (2, 4, 8, 0.8, 16, 4096, 1024, 0, GG_NM_ROWS, false, 23) ;
    if (have_gpu)
    {
        // tensor cores: vector-wise (v = 32, 64) at 50 / 75 / 87.5 %, shapes
        // off the tiles (n not a multiple of 32, B of 256, k of M), grids with
        // and without the small batch's launch order; refused:
        // v = 8 and 1, rows that differ (keep 0.8), B not a multiple of 4
        const struct { int n, m, v ; double keep ; int64_t B, k, n_ ; } tcs [] = {
            { 16, 32, 32, 1.0, 256, 1024, 256 }, { 8, 32, 32, 1.0, 300, 1000, 200 },
            { 4, 32, 32, 1.0, 260, 2048, 97 }, { 2, 4, 32, 1.0, 4, 64, 33 },
            { 1, 8, 64, 1.0, 512, 520, 130 }, { 16, 32, 32, 1.0, 36, 4096, 64 },
            { 2, 4, 8, 1.0, 64, 256, 128 }, { 2, 4, 1, 1.0, 64, 256, 128 },
            { 8, 32, 32, 0.8, 64, 512, 128 }, { 8, 32, 32, 1.0, 66, 512, 64 },
            // more than 4 blocks along X' (the launch's swap off; under: on)
            { 8, 32, 32, 1.0, 1028, 256, 96 } } ;
        for (const auto &c : tcs)
            run_tc_case (c.n, c.m, c.v, c.keep, c.B, c.k, c.n_, nm_gen_next (&seed)) ;
    }
    if (have_gpu)
    {
        // the layout made on the device: element-wise and vector-wise (the
        // shared and packed layouts, tc32), rows that differ, shapes off
        // the tiles, both types
        const struct { int n, m, v ; double keep ; int64_t rows, k ; } dls [] = {
            { 2, 4, 1, 1.0, 300, 517 }, { 1, 4, 1, 0.8, 129, 256 }, { 1, 8, 8, 1.0, 260, 1000 },
            { 16, 32, 32, 1.0, 256, 1024 }, { 8, 32, 32, 1.0, 200, 1000 },
            { 4, 32, 32, 1.0, 97, 2048 }, { 8, 32, 32, 0.8, 128, 512 }, { 4, 8, 64, 1.0, 130, 520 },
            { 2, 4, 1, 1.0, 1, 3 }, { 1, 2, 1, 1.0, 2048, 2048 } } ;
        for (const auto &c : dls)
        {
            run_dev_layout_case<float> (c.n, c.m, c.v, c.keep, c.rows, c.k, nm_gen_next (&seed)) ;
            run_dev_layout_case<double> (c.n, c.m, c.v, c.keep, c.rows, c.k, nm_gen_next (&seed)) ;
        }
    }
    printf ("test_nm_spmm: %ld checks, %d failing cases%s\n", checks,
        failures, have_gpu ? "" : " (host emulation only)") ;
    if (failures) return 1 ;
    if (!have_gpu)
    {
        printf ("SKIP: no CUDA device (the kernel itself was not run)\n") ;
        return 77 ;
    }
    return 0 ;
}
