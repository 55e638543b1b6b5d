//------------------------------------------------------------------------------
// bench/nm_gpu_bench.cu: dense X times N:M W, our kernel vs cuBLAS SGEMM
//------------------------------------------------------------------------------

// Shapes B x k x n (Y = X * W, X B x k, W k x n), default the issue's three
// (4096 x 4096 x 4096, 8192 x 8192 x 2048, 256 x 4096 x 16384) and a batch
// of 1024 (1024 x 4096 x 16384).  For each,
// cuBLAS SGEMM (pedantic math: FP32 FFMA, no TF32) on the dense W, then our
// kernel (FP32, exact: one rounded product and one rounded sum per entry) at
// 50, 75 and 87.5 % sparsity, vector-wise with blocks of 32 output columns
// as NM-SpMM measures (16:32, 8:32, 4:32: the shared layout) and element-wise
// (2:4, 1:4, 1:8: one index per column; on the first shape only, unless
// shapes are given).  Packing is host work (seconds per case).  Medians of REPS runs after WARM
// warm-up runs, all in the same process.  Each of our results is compared
// with cuBLAS's (max |diff| / max |y|, printed).  Columns: ms, dense-
// equivalent TFLOP/s (2 B k n / t), TFLOP/s of the products actually done
// (times N/M), speedup over SGEMM, and its fraction of the ideal M/N, all
// for X and Y row-major; then the time with X given k-major (X', Y' out:
// the SpMM family's orientation, NM-SpMM's own), and with the X tiles
// packed (col_info, at 75 % sparsity and more with blocks of 32: X' only;
// -1 where it does not apply).  The tensor-core exact row also prints its
// speedup with SGEMM timed next to each call (paired_ratio): the figure the
// issue's 90 % is read from.
// cuSPARSELt is not measured: configure does not look for it.
//
// Usage: nm_gpu_bench [B k n]...   (NM_BENCH_ONLY=N:M: that pattern alone)

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include <algorithm>
#include <functional>
#include <cuda_runtime.h>
#include <cublas_v2.h>

extern "C" {
#include "tests/need_device.h"
#include "formats/nm.h"
#include "formats/nm_layout.h"
}
#include "kernels/nm_spmm/nm_spmm.h"
#include "kernels/tc_spmm/tc_spmm.h"
#include "tests/nm_gen.h"

#include "tests/cuda_check.h"
#define CHECK_BLAS(call)                                                    \
    do {                                                                    \
        cublasStatus_t st_ = (call) ;                                       \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                 \
            fprintf (stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__,     \
                __LINE__, #call, (int) st_) ;                               \
            exit (1) ;                                                      \
        }                                                                   \
    } while (0)

static const int WARM = 3, REPS = 10 ;

// Median over REPS (after WARM calls) of the time per call of `calls` calls
// between two events: calls = 1 counts the host's launch in full; calls =
// BATCH gives the GPU's time per call when calls follow each other (each
// launch overlaps the call before), which on a 0.1 ms product differs by
// several percent
static const int BATCH = 20 ;

template <typename F>
static double timed_ms (F run, int calls)
{
    cudaEvent_t a, b ;
    CHECK_CUDA (cudaEventCreate (&a)) ;
    CHECK_CUDA (cudaEventCreate (&b)) ;
    for (int r = 0 ; r < WARM ; r++) run () ;
    std::vector<float> t ;
    for (int r = 0 ; r < REPS ; r++)
    {
        CHECK_CUDA (cudaEventRecord (a)) ;
        for (int q = 0 ; q < calls ; q++) run () ;
        CHECK_CUDA (cudaEventRecord (b)) ;
        CHECK_CUDA (cudaEventSynchronize (b)) ;
        float ms ;
        CHECK_CUDA (cudaEventElapsedTime (&ms, a, b)) ;
        t.push_back (ms / calls) ;
    }
    CHECK_CUDA (cudaEventDestroy (a)) ;
    CHECK_CUDA (cudaEventDestroy (b)) ;
    std::sort (t.begin (), t.end ()) ;
    return 0.5 * (t [(REPS - 1) / 2] + t [REPS / 2]) ;
}

template <typename F> static double median_ms (F run) { return timed_ms (run, 1) ; }

// Median over PAIRS of the ratio t (a) / t (b), a and b each timed once,
// one right after the other and after an untimed a, so that both are queued
// behind work and neither counts a launch (after WARM calls of each): the two share the
// GPU's clock of that moment, where medians taken seconds apart do not (on
// an H100 with clocks left alone the same kernel's median moved by up to 9 %
// within one run, 2026-11-28)
static const int PAIRS = 21 ;

template <typename A, typename F>
static double paired_ratio (A a, F b)
{
    cudaEvent_t e [3] ;
    for (auto &x : e) CHECK_CUDA (cudaEventCreate (&x)) ;
    for (int r = 0 ; r < WARM ; r++) { a () ; b () ; }
    std::vector<double> q ;
    for (int r = 0 ; r < PAIRS ; r++)
    {
        // an untimed a first, so that neither timed call starts on an idle
        // GPU (which would count the launch in one and not the other)
        a () ;
        CHECK_CUDA (cudaEventRecord (e [0])) ;
        a () ;
        CHECK_CUDA (cudaEventRecord (e [1])) ;
        b () ;
        CHECK_CUDA (cudaEventRecord (e [2])) ;
        CHECK_CUDA (cudaEventSynchronize (e [2])) ;
        float ta, tb ;
        CHECK_CUDA (cudaEventElapsedTime (&ta, e [0], e [1])) ;
        CHECK_CUDA (cudaEventElapsedTime (&tb, e [1], e [2])) ;
        q.push_back ((double) ta / tb) ;
    }
    for (auto &x : e) CHECK_CUDA (cudaEventDestroy (x)) ;
    std::sort (q.begin (), q.end ()) ;
    return q [PAIRS / 2] ;
}
template <typename F> static double stream_ms (F run) { return timed_ms (run, BATCH) ; }

// Error of Y' (n x B, k-major, on the device) against an FP64 reference on
// sampled elements: |y - ref| / sum |x w| (the scale of FP32 summation's
// error bound), median and maximum over the samples.
struct err_stat { double med, max ; } ;
static err_stat sample_error (const float *dYt, const std::vector<float> &X,
    const std::vector<float> &Wd, int64_t B, int64_t k, int64_t n, uint64_t *seed)
{
    const int NS = 2048 ;
    std::vector<double> e ;
    for (int q = 0 ; q < NS ; q++)
    {
        const int64_t b = (int64_t) (nm_gen_unif (seed) * B) % B ;
        const int64_t c = (int64_t) (nm_gen_unif (seed) * n) % n ;
        double ref = 0, mag = 0 ;
        for (int64_t kk = 0 ; kk < k ; kk++)
        {
            const double t = (double) X [b * k + kk] * Wd [kk * n + c] ;
            ref += t ;
            mag += fabs (t) ;
        }
        float y ;
        CHECK_CUDA (cudaMemcpy (&y, dYt + c * B + b, sizeof (float),
            cudaMemcpyDeviceToHost)) ;
        e.push_back (mag > 0 ? fabs ((double) y - ref) / mag : fabs ((double) y - ref)) ;
    }
    std::sort (e.begin (), e.end ()) ;
    return { e [NS / 2], e [NS - 1] } ;
}

// The tensor-core kernel (nm_spmm_tc.cu) on a vector-wise layout, each mode,
// X' k-major; errors against FP64 next to the CUDA-core FMA kernel's.
static void tc_rows (const gg_nm_spmm_op *op0, int64_t B, int64_t k, int64_t n,
    const float *dXt, float *dY, const std::vector<float> &X,
    const std::vector<float> &Wd, double t_sgemm, double t_sgemm_s, double t_tf32,
    double ideal, int pn, int pm, uint64_t *seed, const std::function<void ()> &sgemm)
{
    const double flops = 2.0 * B * k * n ;
    if (!gg_nm_spmm_tc_fits (op0, B))
    {
        printf ("  tensor cores: layout not vector-wise by 32 columns\n") ;
        return ;
    }
    // the values split ahead of time for the second kernel (as the form does)
    gg_nm_spmm_op opw = *op0 ;
    const gg_nm_spmm_op *op = &opw ;
    void *dP = NULL ;
    const size_t pb = gg_nm_spmm_tc_prep_bytes (&opw) ;
    CHECK_CUDA (cudaMalloc (&dP, pb)) ;
    if (gg_cuda_nm_spmm_tc_prep (&opw, dP, 0) != GG_OK)
    {
        printf ("gg_cuda_nm_spmm_tc_prep failed\n") ;
        exit (1) ;
    }
    if (gg_cuda_nm_spmm (op, B, dXt, dY, true, GG_NM_SPMM_FMA, 0) != GG_OK)
    {
        printf ("gg_cuda_nm_spmm failed\n") ;
        exit (1) ;
    }
    CHECK_CUDA (cudaDeviceSynchronize ()) ;
    uint64_t s0 = *seed ;
    const err_stat ef = sample_error (dY, X, Wd, B, k, n, &s0) ;
    const struct { int mode ; const char *name ; } modes [] = {
        { GG_TC_EXACT3, "exact (2-part TF32)" }, { GG_TC_EXACT, "exact6 (3-part)" },
        { GG_TC_TF32, "tf32 (opt-in)" } } ;
    for (const auto &md : modes)
    {
        auto run = [&] () {
            if (gg_cuda_nm_spmm_tc (op, B, dXt, dY, md.mode, 0) != GG_OK)
            {
                printf ("gg_cuda_nm_spmm_tc failed\n") ;
                exit (1) ;
            }
        } ;
        const double t = median_ms (run) ;
        CHECK_CUDA (cudaDeviceSynchronize ()) ;
        uint64_t s1 = *seed ;
        const err_stat et = sample_error (dY, X, Wd, B, k, n, &s1) ;
        const double sp = t_sgemm / t ;
        printf ("%6lld x %5lld x %5lld  nm %2d:%-2d v=32 tc %-19s %8.3f ms %6.1f "
            "TFLOP/s  %5.2fx SGEMM, %5.1f %% of ideal %.0fx; %5.2fx cuBLAS TF32; "
            "err/sum|xw| med %.2e max %.2e (fma kernel med %.2e max %.2e)\n",
            (long long) B, (long long) k, (long long) n, pn, pm, md.name, t,
            flops / t * 1e-9, sp, 100 * sp / ideal, ideal, t_tf32 / t,
            et.med, et.max, ef.med, ef.max) ;
        if (md.mode == GG_TC_EXACT3)
        {
            // the issue's figure, SGEMM timed next to each call
            const double r = paired_ratio (sgemm, run) ;
            printf ("%6lld x %5lld x %5lld  nm %2d:%-2d v=32 tc %-19s paired with SGEMM: "
                "%5.2fx SGEMM, %5.1f %% of ideal (median of %d ratios)\n", (long long) B,
                (long long) k, (long long) n, pn, pm, md.name, r, 100 * r / ideal, PAIRS) ;
        }
        const double ts = stream_ms (run) ;
        printf ("%6lld x %5lld x %5lld  nm %2d:%-2d v=32 tc %-19s back to back %8.3f ms "
            "%5.2fx SGEMM back to back, %5.1f %% of ideal\n", (long long) B, (long long) k,
            (long long) n, pn, pm, md.name, ts, t_sgemm_s / ts, 100 * t_sgemm_s / ts / ideal) ;
        fflush (stdout) ;
    }
    // the kernels' schedules kept (nm_spmm_tc.cu's cfg; the rows above use
    // its rule)
    for (int cfg : { 0, 1, 4, 5 })
    {
        double tm [2] ;
        const int cm [2] = { GG_TC_EXACT3, GG_TC_TF32 } ;
        for (int q = 0 ; q < 2 ; q++)
        {
            auto run = [&] () {
                if (gg_cuda_nm_spmm_tc_cfg (op, B, dXt, dY, cm [q], cfg, 0) != GG_OK)
                {
                    printf ("gg_cuda_nm_spmm_tc_cfg failed\n") ;
                    exit (1) ;
                }
            } ;
            tm [q] = median_ms (run) ;
        }
        printf ("%6lld x %5lld x %5lld  nm %2d:%-2d v=32 tc schedule %d: exact %.3f ms "
            "(%5.1f %% of ideal), tf32 %.3f ms (%5.1f %%)\n", (long long) B,
            (long long) k, (long long) n, pn, pm, cfg, tm [0],
            100 * t_sgemm / tm [0] / ideal, tm [1], 100 * t_sgemm / tm [1] / ideal) ;
        fflush (stdout) ;
    }
    CHECK_CUDA (cudaFree (dP)) ;
    *seed = s0 ;
}

static void bench_shape (cublasHandle_t h, int64_t B, int64_t k, int64_t n,
    bool elementwise, uint64_t *seed)
{
    const double flops = 2.0 * B * k * n ;
    std::vector<float> X ((size_t) (B * k)) ;
    for (auto &x : X) x = (float) (2 * nm_gen_unif (seed) - 1) ;
    float *dX, *dXt, *dYb, *dY, *dWd ;
    CHECK_CUDA (cudaMalloc (&dX, X.size () * sizeof (float))) ;
    CHECK_CUDA (cudaMalloc (&dXt, X.size () * sizeof (float))) ;
    CHECK_CUDA (cudaMalloc (&dYb, (size_t) (B * n) * sizeof (float))) ;
    CHECK_CUDA (cudaMalloc (&dY, (size_t) (B * n) * sizeof (float))) ;
    CHECK_CUDA (cudaMalloc (&dWd, (size_t) (k * n) * sizeof (float))) ;
    CHECK_CUDA (cudaMemcpy (dX, X.data (), X.size () * sizeof (float),
        cudaMemcpyHostToDevice)) ;
    {
        // X' for the k-major runs (timed, not checked: the test does that)
        std::vector<float> Xt (X.size ()) ;
        for (int64_t b = 0 ; b < B ; b++)
            for (int64_t kk = 0 ; kk < k ; kk++) Xt [kk * B + b] = X [b * k + kk] ;
        CHECK_CUDA (cudaMemcpy (dXt, Xt.data (), Xt.size () * sizeof (float),
            cudaMemcpyHostToDevice)) ;
    }
    std::vector<float> Wd ((size_t) (k * n)) ;
    std::vector<float> yb ((size_t) (B * n)), y ((size_t) (B * n)) ;
    const float one = 1, zero = 0 ;

    struct pat { int n, m, v ; } pats [] = {
        { 16, 32, 32 }, { 8, 32, 32 }, { 4, 32, 32 },
        { 2, 4, 1 }, { 1, 4, 1 }, { 1, 8, 1 } } ;
    double t_sgemm = 0, t_sgemm_s = 0, t_tf32 = 0 ;
    bool first = true ;
    // NM_BENCH_ONLY=N:M runs that pattern alone (for a profiler)
    const char *only = getenv ("NM_BENCH_ONLY") ;
    for (const pat &pt : pats)
    {
        if (pt.v == 1 && !elementwise) continue ;
        if (only != NULL)
        {
            char name [16] ;
            snprintf (name, sizeof name, "%d:%d", pt.n, pt.m) ;
            if (strcmp (name, only) != 0) continue ;
        }
        // W' (n x k) pattern, values, and the dense W (k x n, row-major)
        nm_gen_csr S = nm_gen_pattern (n, k, pt.n, pt.m, pt.v, 1.0, seed) ;
        std::vector<float> sx (S.i.size ()) ;
        for (auto &w : sx) w = (float) (2 * nm_gen_unif (seed) - 1) ;
        std::fill (Wd.begin (), Wd.end (), 0.0f) ;
        for (int64_t c = 0 ; c < n ; c++)
        {
            for (int64_t q = S.p [c] ; q < S.p [c+1] ; q++)
            {
                Wd [(size_t) S.i [q] * n + c] = sx [q] ;
            }
        }
        CHECK_CUDA (cudaMemcpy (dWd, Wd.data (), Wd.size () * sizeof (float),
            cudaMemcpyHostToDevice)) ;
        // row-major Y = X W is column-major Y' = W' X'
        auto sgemm = [&] () {
            CHECK_BLAS (cublasSgemm (h, CUBLAS_OP_N, CUBLAS_OP_N, (int) n,
                (int) B, (int) k, &one, dWd, (int) n, dX, (int) k, &zero, dYb,
                (int) n)) ;
        } ;
        const double tb = median_ms (sgemm) ;
        if (first)
        {
            t_sgemm = tb ;
            t_sgemm_s = stream_ms (sgemm) ;
            // cuBLAS with TF32 inputs (one TF32 product: less accurate than
            // FP32), for scale only
            CHECK_BLAS (cublasSetMathMode (h, CUBLAS_TF32_TENSOR_OP_MATH)) ;
            t_tf32 = median_ms (sgemm) ;
            CHECK_BLAS (cublasSetMathMode (h, CUBLAS_PEDANTIC_MATH)) ;
            printf ("%6lld x %5lld x %5lld  cuBLAS SGEMM TF32 tensor ops     "
                "%8.3f ms %6.1f TFLOP/s\n", (long long) B, (long long) k,
                (long long) n, t_tf32, flops / t_tf32 * 1e-9) ;
            printf ("%6lld x %5lld x %5lld  cuBLAS SGEMM (fp32 FFMA)     "
                "%8.3f ms %6.1f TFLOP/s; back to back %.3f ms\n", (long long) B,
                (long long) k, (long long) n, tb, flops / tb * 1e-9, t_sgemm_s) ;
            first = false ;
        }
        CHECK_CUDA (cudaMemcpy (yb.data (), dYb, yb.size () * sizeof (float),
            cudaMemcpyDeviceToHost)) ;

        gg_csr A = nm_gen_view (S, sx.data ()) ;
        gg_nm_form *f = NULL ;
        gg_nm_layout *L = NULL ;
        if (gg_nm_pack (&f, &A, sizeof (float), pt.n, pt.m, pt.v, GG_NM_ROWS)
            != GG_OK || gg_nm_layout_build (&L, f, false) != GG_OK)
        {
            printf ("packing %d:%d failed\n", pt.n, pt.m) ;
            exit (1) ;
        }
        // the packed X tiles (col_info) where they apply: X' only
        gg_nm_layout *Lp = NULL ;
        if (gg_nm_layout_build (&Lp, f, true) != GG_OK)
        {
            printf ("layout %d:%d failed\n", pt.n, pt.m) ;
            exit (1) ;
        }
        if (!Lp->op.packed)
        {
            gg_nm_layout_free (Lp) ;
            Lp = NULL ;
        }
        gg_nm_form_free (f) ;
        double tp = -1, tpf = -1 ;
        if (Lp != NULL)
        {
            void *dWp ;
            CHECK_CUDA (cudaMalloc (&dWp, Lp->bytes)) ;
            CHECK_CUDA (cudaMemcpy (dWp, Lp->buf, Lp->bytes,
                cudaMemcpyHostToDevice)) ;
            gg_nm_layout_bind (Lp, dWp) ;
            unsigned fl = 0 ;
            auto packed = [&] () {
                if (gg_cuda_nm_spmm (&Lp->op, B, dXt, dY, true, fl, 0) != GG_OK)
                {
                    printf ("gg_cuda_nm_spmm (packed) failed\n") ;
                    exit (1) ;
                }
            } ;
            tp = median_ms (packed) ;
            fl = GG_NM_SPMM_FMA ;
            tpf = median_ms (packed) ;
            CHECK_CUDA (cudaFree (dWp)) ;
            gg_nm_layout_free (Lp) ;
        }
        void *dW ;
        CHECK_CUDA (cudaMalloc (&dW, L->bytes)) ;
        CHECK_CUDA (cudaMemcpy (dW, L->buf, L->bytes, cudaMemcpyHostToDevice)) ;
        gg_nm_layout_bind (L, dW) ;
        bool trans = true ;
        unsigned flags = GG_NM_SPMM_FMA ;
        auto ours = [&] () {
            if (gg_cuda_nm_spmm (&L->op, B, trans ? dXt : dX, dY, trans, flags, 0)
                != GG_OK)
            {
                printf ("gg_cuda_nm_spmm failed\n") ;
                exit (1) ;
            }
        } ;
        const double ttf = median_ms (ours) ;     // X', Y', fused multiply-adds
        flags = 0 ;
        const double tt = median_ms (ours) ;      // X', Y' (family's way)
        trans = false ;
        const double t = median_ms (ours) ;       // X, Y row-major
        CHECK_CUDA (cudaMemcpy (y.data (), dY, y.size () * sizeof (float),
            cudaMemcpyDeviceToHost)) ;
        double dmax = 0, ymax = 0 ;
        for (size_t q = 0 ; q < y.size () ; q++)
        {
            dmax = std::max (dmax, (double) fabsf (y [q] - yb [q])) ;
            ymax = std::max (ymax, (double) fabsf (yb [q])) ;
        }
        const double ideal = (double) pt.m / pt.n ;
        const double sp = t_sgemm / t ;
        printf ("%6lld x %5lld x %5lld  nm %2d:%-2d v=%-2d %-10s exact fp32 "
            "%8.3f ms %6.1f TFLOP/s (%5.1f done)  %5.2fx SGEMM, %5.1f %% of "
            "ideal %.0fx; X' %.3f ms, X' packed %.3f ms; SGEMM this W %.3f ms; "
            "vs cuBLAS %.1e\n",
            (long long) B, (long long) k, (long long) n, pt.n, pt.m, pt.v,
            L->op.shared ? "shared" : "per-column", t, flops / t * 1e-9,
            flops / ideal / t * 1e-9, sp, 100 * sp / ideal, ideal, tt, tp, tb,
            ymax > 0 ? dmax / ymax : dmax) ;
        // the fused multiply-add kernels (X' only), best layout
        const double tf = (tpf > 0 && tpf < ttf) ? tpf : ttf ;
        printf ("%6lld x %5lld x %5lld  nm %2d:%-2d v=%-2d fma fp32 (X'%s) "
            "%8.3f ms %6.1f TFLOP/s  %5.2fx SGEMM, %5.1f %% of ideal %.0fx; "
            "X' %.3f ms, X' packed %.3f ms\n", (long long) B, (long long) k,
            (long long) n, pt.n, pt.m, pt.v, (tf == tpf) ? " packed" : "", tf,
            flops / tf * 1e-9, t_sgemm / tf, 100 * t_sgemm / tf / ideal, ideal,
            ttf, tpf) ;
        fflush (stdout) ;
        if (pt.v == 32)
        {
            tc_rows (&L->op, B, k, n, dXt, dY, X, Wd, t_sgemm, t_sgemm_s, t_tf32, ideal,
                pt.n, pt.m, seed, sgemm) ;
        }
        CHECK_CUDA (cudaFree (dW)) ;
        gg_nm_layout_free (L) ;
    }
    CHECK_CUDA (cudaFree (dX)) ;
    CHECK_CUDA (cudaFree (dXt)) ;
    CHECK_CUDA (cudaFree (dYb)) ;
    CHECK_CUDA (cudaFree (dY)) ;
    CHECK_CUDA (cudaFree (dWd)) ;
}

int main (int argc, char **argv)
{
    cudaDeviceProp prop ;
    gg_need_device (&prop) ;
    printf ("device: %s, %d SMs; medians of %d after %d warm-up runs\n",
        prop.name, prop.multiProcessorCount, REPS, WARM) ;
    cublasHandle_t h ;
    CHECK_BLAS (cublasCreate (&h)) ;
    CHECK_BLAS (cublasSetMathMode (h, CUBLAS_PEDANTIC_MATH)) ;
    uint64_t seed = 0xb16b00b5 ;
    std::vector<int64_t> shapes = { 4096, 4096, 4096, 8192, 8192, 2048,
        256, 4096, 16384, 1024, 4096, 16384 } ;
    if (argc > 1)
    {
        shapes.clear () ;
        for (int a = 1 ; a + 2 < argc ; a += 3)
        {
            shapes.push_back (atoll (argv [a])) ;
            shapes.push_back (atoll (argv [a+1])) ;
            shapes.push_back (atoll (argv [a+2])) ;
        }
    }
    for (size_t s = 0 ; s + 2 < shapes.size () ; s += 3)
    {
        // element-wise rows on the first shape only (host packing time)
        bench_shape (h, shapes [s], shapes [s+1], shapes [s+2],
            s == 0 || argc > 1, &seed) ;
    }
    CHECK_BLAS (cublasDestroy (h)) ;
    return 0 ;
}
