//------------------------------------------------------------------------------
// bench/tc_bench.cu: the tensor-core hybrid SpMM against cuSPARSE and ours
//------------------------------------------------------------------------------

// Usage: tc_bench [--scales 18,20,22] [--ns 32,128] [--data DIR | --no-data]
//                 [--reps R] [--warmups W] [--thresholds 2,4] [--segs 8,32]
//                 [--csv FILE] [--fp64 | --fp64-only] [--reorder | --reorder-only]
//
// Matrices: R-MAT at the given scales (bench/bench_matrices.h: a, b, c, d =
// 0.57, 0.19, 0.19, 0.05, 16 edges per row) and every *.mtx.gz in DIR
// (default $GRBGPU_TEST_DATA).  For each matrix and N, PLUS_TIMES FP32:
//  - cuSPARSE SpMM CSR_ALG1/ALG2/ALG3 (the best is the baseline and the
//    reference every other result is checked against);
//  - our CUDA-core kernel (gg_cuda_spmm_plan, the chooser's pick given the
//    longest row, the SpMV plan kept);
//  - the hybrid form with the default threshold (3) and segment (16),
//    built twice (first and second build times; the second is the one
//    to compare with a warm call), then every mode (exact, exact3, exact4,
//    tf32) with every kernel variant (gg_tc_variants) for the whole product,
//    and with the default variant the tensor-core part alone ("tc") and the
//    remainder alone ("rem");
//  - forms with the other thresholds (--thresholds) and segment sizes
//    (--segs), exact and tf32, with the variant that was fastest for that
//    mode at the default form.
// Timing: CUDA events around each call, W (3) warm-ups, the median of R (10)
// runs.  Checks: every whole product against cuSPARSE's result on all rows
// (relative error = max |y - y_cusparse| / max |y_cusparse|; "WRONG" above
// 1e-2 for tf32 and 1e-4 otherwise), and against an FP64 host reference on
// a sample of rows (2000 random rows with entries and the longest row):
// error of an element = |y - ref| / sum |s x| over its terms; max and median
// printed for cuSPARSE, our CUDA-core kernel and each mode.
// Last: one table (matrix, N, mode, ms, speedup vs cuSPARSE, error), the
// build times against one warm call, and geometric means over the matrices.
// --fp64 adds, per matrix and N, FP64: cuSPARSE's best, our CUDA-core kernel
// and the DMMA hybrid at thresholds 3 and 4 (S's values perturbed to use
// FP64's mantissa; each checked on all rows against cuSPARSE, WRONG above
// 1e-12 of max |y|), and an FP64 table; --fp64-only skips the FP32 part.
// --reorder adds the hybrid of the row-reordered S (reorder/, RSH pass on
// the host) next to the hybrid of S and cuSPARSE (FP32), and its table;
// --reorder-only runs only that (with --fp64: and the FP64 part).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <string>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cusparse.h>
#include "kernels/gg_cuda.h"
#include "kernels/tc_spmm/tc_spmm.h"
#include "reorder/reorder.h"
#include "bench/bench_matrices.h"

#define CK(call) do { cudaError_t e_ = (call) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString (e_)) ; exit (1) ; } } while (0)
#define CKS(call) do { cusparseStatus_t s_ = (call) ; if (s_ != CUSPARSE_STATUS_SUCCESS) { \
    fprintf (stderr, "%s:%d %s: %d\n", __FILE__, __LINE__, #call, (int) s_) ; exit (1) ; } } while (0)

static bm_rng rng (12345) ;
static int reps = 10, warmups = 3 ;
static FILE *csv = NULL ;
static int wrong = 0 ;

template <typename F> static double time_ms (F launch)
{
    cudaEvent_t a, b ;
    CK (cudaEventCreate (&a)) ; CK (cudaEventCreate (&b)) ;
    for (int w = 0 ; w < warmups ; w++) launch () ;
    CK (cudaDeviceSynchronize ()) ;
    std::vector<float> t ;
    for (int r = 0 ; r < reps ; r++)
    {
        CK (cudaEventRecord (a)) ;
        launch () ;
        CK (cudaEventRecord (b)) ;
        CK (cudaEventSynchronize (b)) ;
        float ms ;
        CK (cudaEventElapsedTime (&ms, a, b)) ;
        t.push_back (ms) ;
    }
    CK (cudaGetLastError ()) ;
    cudaEventDestroy (a) ; cudaEventDestroy (b) ;
    std::sort (t.begin (), t.end ()) ;
    return t [t.size () / 2] ;
}

//------------------------------------------------------------------------------
// checks
//------------------------------------------------------------------------------

// the FP64 reference on sampled rows
struct sample
{
    std::vector<int64_t> rows ;
    std::vector<double> acc, scale ;     // rows.size () x n
} ;

static sample make_sample (const bm_csr &A, const std::vector<float> &X, int64_t n)
{
    sample S ;
    std::vector<int64_t> ne ;
    for (int64_t r = 0 ; r < A.m ; r++) if (A.p [r+1] > A.p [r]) ne.push_back (r) ;
    for (int q = 0 ; q < 2000 && !ne.empty () ; q++) S.rows.push_back (ne [rng.next () % ne.size ()]) ;
    for (int64_t r = 0 ; r < A.m ; r++) if (A.p [r+1] - A.p [r] == A.max_row && A.max_row > 0) { S.rows.push_back (r) ; break ; }
    S.acc.assign (S.rows.size () * n, 0) ;
    S.scale.assign (S.rows.size () * n, 0) ;
    for (size_t q = 0 ; q < S.rows.size () ; q++)
    {
        const int64_t r = S.rows [q] ;
        for (int32_t e = A.p [r] ; e < A.p [r+1] ; e++)
            for (int64_t j = 0 ; j < n ; j++)
            {
                const double t = (double) A.x [e] * X [(int64_t) A.i [e] * n + j] ;
                S.acc [q * n + j] += t ;
                S.scale [q * n + j] += fabs (t) ;
            }
    }
    return S ;
}

struct err64 { double max = 0, med = 0 ; } ;

static err64 sample_error (const sample &S, int64_t n, const std::vector<float> &y)
{
    std::vector<double> all ;
    for (size_t q = 0 ; q < S.rows.size () ; q++)
        for (int64_t j = 0 ; j < n ; j++)
        {
            const double v = y [q * n + j] ;
            const double d = std::isfinite (v) ? fabs (v - S.acc [q * n + j]) /
                (S.scale [q * n + j] > 0 ? S.scale [q * n + j] : 1) : INFINITY ;
            all.push_back (d) ;
        }
    err64 e ;
    if (all.empty ()) return e ;
    std::sort (all.begin (), all.end ()) ;
    e.max = all.back () ;
    e.med = all [all.size () / 2] ;
    return e ;
}

// max |y - ref| / max |ref| over the rows with entries, on the device (a
// non-finite y counts as an infinite error); out [0] = the numerator's
// bits, out [1] the denominator's (non-negative floats order as integers)
__global__ void rel_error_kernel (const int32_t *p, int64_t m, int64_t n, const float *y,
    const float *ref, unsigned *out)
{
    float num = 0, den = 0 ;
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < m * n ;
         q += (int64_t) gridDim.x * blockDim.x)
    {
        const int64_t r = q / n ;
        if (p [r+1] == p [r]) continue ;
        const float a = y [q], b = ref [q] ;
        num = fmaxf (num, isfinite (a) ? fabsf (a - b) : INFINITY) ;
        den = fmaxf (den, fabsf (b)) ;
    }
    for (int o = 16 ; o > 0 ; o >>= 1)
    {
        num = fmaxf (num, __shfl_xor_sync (0xffffffffu, num, o)) ;
        den = fmaxf (den, __shfl_xor_sync (0xffffffffu, den, o)) ;
    }
    if ((threadIdx.x & 31) == 0)
    {
        atomicMax (out, __float_as_uint (num)) ;
        atomicMax (out + 1, __float_as_uint (den)) ;
    }
}

static double rel_error (const int32_t *dp, int64_t m, int64_t n, const float *dY,
    const float *dRef, unsigned *dOut)
{
    unsigned h [2] ;
    CK (cudaMemset (dOut, 0, 8)) ;
    rel_error_kernel <<<1024, 256>>> (dp, m, n, dY, dRef, dOut) ;
    CK (cudaGetLastError ()) ;
    CK (cudaMemcpy (h, dOut, 8, cudaMemcpyDeviceToHost)) ;
    float num, den ;
    memcpy (&num, &h [0], 4) ; memcpy (&den, &h [1], 4) ;
    return den > 0 ? (double) num / den : (double) num ;
}

// the sampled rows of Y, gathered on the device
__global__ void gather_rows_kernel (const int64_t *rows, int64_t nr, int64_t n,
    const float *Y, float *out)
{
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < nr * n ;
         q += (int64_t) gridDim.x * blockDim.x)
        out [q] = Y [rows [q / n] * n + q % n] ;
}

//------------------------------------------------------------------------------
// results
//------------------------------------------------------------------------------

struct result
{
    std::string matrix, mode, variant ;
    int64_t n ;
    int threshold, seg ;
    double ms, base_ms, rel, e64max, e64med ;
    double tc_share ;
    bool ok ;
} ;
static std::vector<result> results ;

struct build_row
{
    std::string matrix ;
    int threshold, seg ;
    double first_ms, second_ms, warm_ms, tc_share, fill ;
    int64_t nblk ;
    size_t bytes ;
} ;
static std::vector<build_row> builds ;

static void report (const bm_csr &A, int64_t n, const std::string &mode,
    const std::string &variant, int T, int seg, double ms, double base, double rel,
    err64 e, double share, bool checked, bool ok)
{
    const double gflops = 2.0 * (double) A.nnz * n / (ms * 1e6) ;
    const double bytes = (A.m + 1) * 4.0 + A.nnz * 8.0 + A.k * n * 4.0 + A.m * n * 4.0 ;
    printf ("%-14s %4lld %-8s %-9s T=%d s=%-2d %9.4f ms %8.1f GF/s %7.1f GB/s %6.2fx rel %.2e e64 %.2e/%.2e %s\n",
        A.name.c_str (), (long long) n, mode.c_str (), variant.c_str (), T, seg, ms, gflops,
        bytes / (ms * 1e6), base > 0 ? base / ms : 0, rel, e.max, e.med,
        checked ? (ok ? "ok" : "WRONG") : "-") ;
    fflush (stdout) ;
    if (csv)
        fprintf (csv, "%s,%lld,%lld,%lld,%lld,%s,%s,%d,%d,%.5f,%.2f,%.3f,%.3e,%.3e,%.3e,%.4f,%s\n",
            A.name.c_str (), (long long) A.m, (long long) A.k, (long long) A.nnz, (long long) n,
            mode.c_str (), variant.c_str (), T, seg, ms, gflops, base > 0 ? base / ms : 0, rel,
            e.max, e.med, share, checked ? (ok ? "ok" : "WRONG") : "-") ;
    if (checked)
    {
        results.push_back ({ A.name, mode, variant, n, T, seg, ms, base, rel, e.max, e.med, share, ok }) ;
        if (!ok) wrong++ ;
    }
}

//------------------------------------------------------------------------------
// one matrix
//------------------------------------------------------------------------------

static std::vector<int> thresholds = { 2, 4 }, segs = { 8, 32 } ;

static void bench_matrix (cusparseHandle_t h, const bm_csr &A, const std::vector<int64_t> &ns)
{
    printf ("# %s: m=%lld k=%lld nnz=%lld mean row %.2f max row %lld\n", A.name.c_str (),
        (long long) A.m, (long long) A.k, (long long) A.nnz, (double) A.nnz / A.m,
        (long long) A.max_row) ;
    int32_t *dp, *di ; float *dx ; void *dplan ;
    CK (cudaMalloc (&dp, (A.m + 1) * 4)) ; CK (cudaMalloc (&di, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&dx, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&dplan, gg_cuda_spmv_plan_bytes (A.nnz) + 16)) ;
    CK (cudaMemcpy (dp, A.p.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (di, A.i.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dx, A.x.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    if (gg_cuda_spmv_plan_build (A.m, A.nnz, dp, dplan, 0) != GG_OK) { printf ("plan build failed\n") ; exit (1) ; }

    // the default form, built twice (the second build: warm pools)
    gg_hybrid_form *f = NULL ;
    if (gg_tc_build (A.m, A.k, A.nnz, dp, di, dx, GG_FP32, 0, 0, &f, 0) != GG_OK) { printf ("build failed\n") ; exit (1) ; }
    const double first_ms = f->build_ms ;
    gg_tc_free (f, 0) ;
    if (gg_tc_build (A.m, A.k, A.nnz, dp, di, dx, GG_FP32, 0, 0, &f, 0) != GG_OK) { printf ("build failed\n") ; exit (1) ; }
    gg_tc_info info ;
    gg_tc_form_info (f, &info) ;
    printf ("# form T=3 seg=16: TC %.1f %% of entries, %lld vectors (%.2f of 8 filled), %lld blocks "
        "(fill %.3f), %lld segments, %lld zero rows, %.1f MB, build %.2f ms (first %.2f ms)\n",
        100 * info.tc_share, (long long) info.nvec, 8 * info.vec_fill, (long long) info.nblk, info.fill,
        (long long) info.nseg, (long long) f->nzero, info.bytes / 1e6, info.build_ms, first_ms) ;
    const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;

    for (int64_t n : ns)
    {
        std::vector<float> X (A.k * n) ;
        for (auto &v : X) v = rng.val () ;
        float *dX, *dY ;
        CK (cudaMalloc (&dX, X.size () * 4)) ; CK (cudaMalloc (&dY, A.m * n * 4)) ;
        CK (cudaMemcpy (dX, X.data (), X.size () * 4, cudaMemcpyHostToDevice)) ;
        const sample S = make_sample (A, X, n) ;
        const int64_t nr = (int64_t) S.rows.size () ;
        float *dRef, *dG ;
        int64_t *dRows ;
        unsigned *dOut ;
        CK (cudaMalloc (&dRef, A.m * n * 4)) ;
        CK (cudaMalloc (&dG, nr * n * 4 + 4)) ;
        CK (cudaMalloc (&dRows, nr * 8 + 8)) ;
        CK (cudaMalloc (&dOut, 8)) ;
        CK (cudaMemcpy (dRows, S.rows.data (), nr * 8, cudaMemcpyHostToDevice)) ;
        std::vector<float> y (nr * n) ;        // Y's sampled rows
        auto fetch = [&] { CK (cudaDeviceSynchronize ()) ;
            if (nr == 0) return ;
            gather_rows_kernel <<<256, 256>>> (dRows, nr, n, dY, dG) ;
            CK (cudaGetLastError ()) ;
            CK (cudaMemcpy (y.data (), dG, nr * n * 4, cudaMemcpyDeviceToHost)) ; } ;

        // cuSPARSE: the best of ALG1/2/3
        double base = -1 ;
        {
            cusparseSpMatDescr_t Sd ;
            cusparseDnMatDescr_t mx, my ;
            CKS (cusparseCreateCsr (&Sd, A.m, A.k, A.nnz, dp, di, dx, CUSPARSE_INDEX_32I,
                CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)) ;
            CKS (cusparseCreateDnMat (&mx, A.k, n, n, dX, CUDA_R_32F, CUSPARSE_ORDER_ROW)) ;
            CKS (cusparseCreateDnMat (&my, A.m, n, n, dY, CUDA_R_32F, CUSPARSE_ORDER_ROW)) ;
            const cusparseSpMMAlg_t algs [] = { CUSPARSE_SPMM_CSR_ALG1, CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3 } ;
            const char *an [] = { "alg1", "alg2", "alg3" } ;
            float one = 1, zero = 0 ;
            for (int a = 0 ; a < 3 ; a++)
            {
                size_t bs = 0 ; void *buf = NULL ;
                if (cusparseSpMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                    CUSPARSE_OPERATION_NON_TRANSPOSE, &one, Sd, mx, &zero, my, CUDA_R_32F,
                    algs [a], &bs) != CUSPARSE_STATUS_SUCCESS) continue ;
                CK (cudaMalloc (&buf, bs + 16)) ;
                if (cusparseSpMM_preprocess (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                    CUSPARSE_OPERATION_NON_TRANSPOSE, &one, Sd, mx, &zero, my, CUDA_R_32F,
                    algs [a], buf) == CUSPARSE_STATUS_SUCCESS)
                {
                    cusparseStatus_t st = CUSPARSE_STATUS_SUCCESS ;
                    CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
                    const double t = time_ms ([&] { st = cusparseSpMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                        CUSPARSE_OPERATION_NON_TRANSPOSE, &one, Sd, mx, &zero, my, CUDA_R_32F,
                        algs [a], buf) ; }) ;
                    if (st == CUSPARSE_STATUS_SUCCESS)
                    {
                        fetch () ;
                        const err64 e = sample_error (S, n, y) ;
                        const bool ok = e.max < 1e-4 ;
                        report (A, n, "cusparse", an [a], 0, 0, t, -1, 0, e, 0, false, ok) ;
                        if (ok && (base < 0 || t < base))
                        {
                            base = t ;
                            CK (cudaMemcpy (dRef, dY, A.m * n * 4, cudaMemcpyDeviceToDevice)) ;
                        }
                    }
                }
                cudaFree (buf) ;
            }
            cusparseDestroyDnMat (mx) ; cusparseDestroyDnMat (my) ; cusparseDestroySpMat (Sd) ;
        }
        auto release = [&] { cudaFree (dX) ; cudaFree (dY) ; cudaFree (dRef) ; cudaFree (dG) ;
            cudaFree (dRows) ; cudaFree (dOut) ; } ;
        if (base < 0) { printf ("no cuSPARSE baseline: %s skipped\n", A.name.c_str ()) ; wrong++ ; release () ; continue ; }
        {
            CK (cudaMemcpy (dY, dRef, A.m * n * 4, cudaMemcpyDeviceToDevice)) ;
            fetch () ;
            const err64 e = sample_error (S, n, y) ;
            results.push_back ({ A.name, "cusparse", "best", n, 0, 0, base, base, 0, e.max, e.med, 0, true }) ;
        }

        // our CUDA-core kernel
        double cc_ms = 0 ;
        {
            const char *kern = gg_cuda_spmm_choose_plan (A.m, n, A.nnz, A.max_row) ;
            int rc = GG_OK ;
            CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
            cc_ms = time_ms ([&] { rc = gg_cuda_spmm_plan (&sr, A.m, A.k, n, A.nnz, dp, di, dx, false,
                dX, dY, dplan, kern, 0) ; }) ;
            fetch () ;
            const double rel = rel_error (dp, A.m, n, dY, dRef, dOut) ;
            report (A, n, "cuda", kern, 0, 0, cc_ms, base, rel, sample_error (S, n, y), 0, true,
                rc == GG_OK && rel < 1e-4) ;
        }

        // one hybrid product, timed and checked
        auto run = [&] (const gg_hybrid_form *g, int mode, const char *variant, int parts) -> double
        {
            int rc = GG_OK ;
            CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
            const double t = time_ms ([&] { rc = gg_tc_spmm_ex (g, dX, dY, n, mode, variant, parts,
                NULL, 0) ; }) ;
            const std::string mn = gg_tc_mode_name (mode) ;
            const std::string vn = std::string (variant) + (parts == GG_TC_PARTS_TC ? "/tc"
                : parts == GG_TC_PARTS_REM ? "/rem" : "") ;
            gg_tc_info gi ;
            gg_tc_form_info (g, &gi) ;
            if (rc != GG_OK) { printf ("%s %s: rc %d\n", mn.c_str (), vn.c_str (), rc) ; wrong++ ; return -1 ; }
            if (parts != GG_TC_PARTS_ALL)
            {
                report (A, n, mn, vn, gi.threshold, gi.seg_blocks, t, base, 0, err64 (), gi.tc_share, false, true) ;
                return t ;
            }
            fetch () ;
            const double rel = rel_error (dp, A.m, n, dY, dRef, dOut) ;
            const bool ok = rel < (mode == GG_TC_TF32 ? 1e-2 : 1e-4) ;
            report (A, n, mn, vn, gi.threshold, gi.seg_blocks, t, base, rel, sample_error (S, n, y),
                gi.tc_share, true, ok) ;
            return ok ? t : -1 ;
        } ;

        // the default form: every mode and variant
        std::vector<std::string> best_var (GG_TC_NMODES, "") ;
        for (int mode = 0 ; mode < GG_TC_NMODES ; mode++)
        {
            double best = -1 ;
            for (const char *const *v = gg_tc_variants () ; *v ; v++)
            {
                const double t = run (f, mode, *v, GG_TC_PARTS_ALL) ;
                if (t > 0 && (best < 0 || t < best)) { best = t ; best_var [mode] = *v ; }
            }
            if (mode == GG_TC_EXACT && n == ns.back ())
                builds.push_back ({ A.name, info.threshold, info.seg_blocks, first_ms, info.build_ms,
                    best, info.tc_share, info.fill, info.nblk, info.bytes }) ;
            const char *dv = gg_tc_variants () [0] ;
            run (f, mode, dv, GG_TC_PARTS_TC) ;
            if (mode == GG_TC_EXACT) run (f, mode, dv, GG_TC_PARTS_REM) ;
        }

        // other thresholds and segment sizes
        std::vector<std::pair<int, int>> alt ;
        for (int T : thresholds) alt.push_back ({ T, 16 }) ;
        for (int s : segs) alt.push_back ({ 3, s }) ;
        for (const auto &ts : alt)
        {
            gg_hybrid_form *g = NULL ;
            if (gg_tc_build (A.m, A.k, A.nnz, dp, di, dx, GG_FP32, ts.first, ts.second, &g, 0) != GG_OK)
            { printf ("build T=%d seg=%d failed\n", ts.first, ts.second) ; wrong++ ; continue ; }
            for (int mode : { (int) GG_TC_EXACT, (int) GG_TC_TF32 })
                if (!best_var [mode].empty ()) run (g, mode, best_var [mode].c_str (), GG_TC_PARTS_ALL) ;
            if (n == ns.back ())
            {
                gg_tc_info gi ;
                gg_tc_form_info (g, &gi) ;
                builds.push_back ({ A.name, gi.threshold, gi.seg_blocks, -1, gi.build_ms, -1,
                    gi.tc_share, gi.fill, gi.nblk, gi.bytes }) ;
            }
            gg_tc_free (g, 0) ;
        }
        release () ;
    }
    gg_tc_free (f, 0) ;
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ; cudaFree (dplan) ;
    CK (cudaDeviceSynchronize ()) ;
}

//------------------------------------------------------------------------------
// FP64: cuSPARSE's best, our CUDA-core kernel, the DMMA hybrid (T = 3, 4)
//------------------------------------------------------------------------------

// Per matrix and N: median times, and the max |y - y_cusparse| / max |y|
// of each against cuSPARSE's best (checked on the host, all rows).  One
// line per (matrix, N) is kept for the FP64 table at the end.

// cuSPARSE's best CSR algorithm (ALG1..3) for Y = S X, type T (float or
// double) on the device arrays given: the median ms of the fastest, its Y
// copied to ref (host, m x n); -1 when none ran.
template <typename T>
static double cusparse_best (cusparseHandle_t h, const bm_csr &A, int32_t *dp, int32_t *di,
    T *dx, T *dX, T *dY, int64_t n, std::vector<T> &ref)
{
    const cudaDataType dt = (sizeof (T) == 4) ? CUDA_R_32F : CUDA_R_64F ;
    double base = -1 ;
    cusparseSpMatDescr_t Sd ;
    cusparseDnMatDescr_t mx, my ;
    CKS (cusparseCreateCsr (&Sd, A.m, A.k, A.nnz, dp, di, dx, CUSPARSE_INDEX_32I,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt)) ;
    CKS (cusparseCreateDnMat (&mx, A.k, n, n, dX, dt, CUSPARSE_ORDER_ROW)) ;
    CKS (cusparseCreateDnMat (&my, A.m, n, n, dY, dt, CUSPARSE_ORDER_ROW)) ;
    const cusparseSpMMAlg_t algs [] = { CUSPARSE_SPMM_CSR_ALG1, CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3 } ;
    T one = 1, zero = 0 ;
    ref.resize (A.m * n) ;
    for (int a = 0 ; a < 3 ; a++)
    {
        size_t bs = 0 ; void *buf = NULL ;
        if (cusparseSpMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, &one, Sd, mx, &zero, my, dt,
            algs [a], &bs) != CUSPARSE_STATUS_SUCCESS) continue ;
        CK (cudaMalloc (&buf, bs + 16)) ;
        if (cusparseSpMM_preprocess (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, &one, Sd, mx, &zero, my, dt,
            algs [a], buf) == CUSPARSE_STATUS_SUCCESS)
        {
            cusparseStatus_t st = CUSPARSE_STATUS_SUCCESS ;
            const double t = time_ms ([&] { st = cusparseSpMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, &one, Sd, mx, &zero, my, dt,
                algs [a], buf) ; }) ;
            if (st == CUSPARSE_STATUS_SUCCESS && (base < 0 || t < base))
            {
                base = t ;
                CK (cudaMemcpy (ref.data (), dY, A.m * n * sizeof (T), cudaMemcpyDeviceToHost)) ;
            }
        }
        cudaFree (buf) ;
    }
    cusparseDestroyDnMat (mx) ; cusparseDestroyDnMat (my) ; cusparseDestroySpMat (Sd) ;
    return base ;
}

// max |y - ref| / max |ref| over the rows of A with entries (a non-finite
// difference counts as infinite), y and ref m x n on the host
template <typename T>
static double rel_to_ref (const bm_csr &A, int64_t n, const std::vector<T> &y,
    const std::vector<T> &ref)
{
    double err = 0, ymax = 0 ;
    for (int64_t r = 0 ; r < A.m ; r++)
        if (A.p [r+1] > A.p [r])
            for (int64_t j = 0 ; j < n ; j++)
            {
                const double d = fabs ((double) y [r * n + j] - (double) ref [r * n + j]) ;
                err = std::max (err, std::isfinite (d) ? d : INFINITY) ;
                ymax = std::max (ymax, fabs ((double) ref [r * n + j])) ;
            }
    return ymax > 0 ? err / ymax : err ;
}

struct fp64_row { std::string matrix ; int64_t n ; double cusp, cuda, tc3, tc4, share3, share4 ; } ;
static std::vector<fp64_row> fp64_rows ;

static void bench_fp64 (cusparseHandle_t h, const bm_csr &A, const std::vector<int64_t> &ns)
{
    int32_t *dp, *di ; double *dx ; void *dplan ;
    std::vector<double> x64 (A.nnz) ;
    for (int64_t e = 0 ; e < A.nnz ; e++) x64 [e] = (double) A.x [e] * (1 + 1e-9 * rng.val ()) ;
    CK (cudaMalloc (&dp, (A.m + 1) * 4)) ; CK (cudaMalloc (&di, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&dx, A.nnz * 8 + 8)) ;
    CK (cudaMalloc (&dplan, gg_cuda_spmv_plan_bytes (A.nnz) + 16)) ;
    CK (cudaMemcpy (dp, A.p.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (di, A.i.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dx, x64.data (), A.nnz * 8, cudaMemcpyHostToDevice)) ;
    if (gg_cuda_spmv_plan_build (A.m, A.nnz, dp, dplan, 0) != GG_OK) { printf ("plan build failed\n") ; exit (1) ; }
    gg_hybrid_form *f [2] = { NULL, NULL } ;
    double share [2] = { 0, 0 } ;
    for (int q = 0 ; q < 2 ; q++)
    {
        if (gg_tc_build (A.m, A.k, A.nnz, dp, di, dx, GG_FP64, 3 + q, 0, &f [q], 0) != GG_OK)
        { printf ("FP64 build failed\n") ; exit (1) ; }
        gg_tc_info gi ;
        gg_tc_form_info (f [q], &gi) ;
        share [q] = gi.tc_share ;
    }
    const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP64 } ;
    for (int64_t n : ns)
    {
        std::vector<double> X (A.k * n), ref (A.m * n), y (A.m * n) ;
        for (auto &v : X) v = rng.val () + 0.25 ;
        double *dX, *dY ;
        CK (cudaMalloc (&dX, X.size () * 8 + 32)) ; CK (cudaMalloc (&dY, A.m * n * 8 + 32)) ;
        CK (cudaMemcpy (dX, X.data (), X.size () * 8, cudaMemcpyHostToDevice)) ;
        const double base = cusparse_best<double> (h, A, dp, di, dx, dX, dY, n, ref) ;
        if (base < 0) { printf ("no FP64 cuSPARSE baseline: %s skipped\n", A.name.c_str ()) ; wrong++ ;
            cudaFree (dX) ; cudaFree (dY) ; continue ; }
        auto check = [&] (const char *what, double t) -> double
        {
            CK (cudaDeviceSynchronize ()) ;
            CK (cudaMemcpy (y.data (), dY, A.m * n * 8, cudaMemcpyDeviceToHost)) ;
            const double rel = rel_to_ref (A, n, y, ref) ;
            const bool ok = rel < 1e-12 ;
            const double bytes = (A.m + 1) * 4.0 + A.nnz * 12.0 + A.k * n * 8.0 + A.m * n * 8.0 ;
            printf ("%-14s %4lld fp64     %-9s %9.4f ms %8.1f GF/s %7.1f GB/s %6.2fx rel %.2e %s\n",
                A.name.c_str (), (long long) n, what, t, 2.0 * A.nnz * n / (t * 1e6),
                bytes / (t * 1e6), base / t, rel, ok ? "ok" : "WRONG") ;
            if (csv) fprintf (csv, "%s,%lld,%lld,%lld,%lld,fp64,%s,0,0,%.5f,%.2f,%.3f,%.3e,0,0,0,%s\n",
                A.name.c_str (), (long long) A.m, (long long) A.k, (long long) A.nnz, (long long) n,
                what, t, 2.0 * A.nnz * n / (t * 1e6), base / t, rel, ok ? "ok" : "WRONG") ;
            if (!ok) { wrong++ ; return -1 ; }
            return t ;
        } ;
        int rc = GG_OK ;
        const char *kern = gg_cuda_spmm_choose_plan (A.m, n, A.nnz, A.max_row) ;
        CK (cudaMemset (dY, 0xff, A.m * n * 8)) ;
        const double tc_cuda = check (kern, time_ms ([&] { rc = gg_cuda_spmm_plan (&sr, A.m, A.k, n,
            A.nnz, dp, di, dx, false, dX, dY, dplan, kern, 0) ; })) ;
        double ttc [2] = { -1, -1 } ;
        for (int q = 0 ; q < 2 ; q++)
            for (const char *variant : { "direct2", "fused" })
            {
                CK (cudaMemset (dY, 0xff, A.m * n * 8)) ;
                const std::string what = std::string (q ? "dmma4 " : "dmma3 ") + variant ;
                const double t = check (what.c_str (), time_ms ([&] { rc = gg_tc_spmm_ex (f [q], dX, dY,
                    n, GG_TC_EXACT, variant, GG_TC_PARTS_ALL, NULL, 0) ; })) ;
                if (t > 0 && (ttc [q] < 0 || t < ttc [q])) ttc [q] = t ;
            }
        if (rc != GG_OK) { printf ("FP64 rc %d\n", rc) ; wrong++ ; }
        fp64_rows.push_back ({ A.name, n, base, tc_cuda, ttc [0], ttc [1], share [0], share [1] }) ;
        cudaFree (dX) ; cudaFree (dY) ;
    }
    gg_tc_free (f [0], 0) ; gg_tc_free (f [1], 0) ;
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ; cudaFree (dplan) ;
    CK (cudaDeviceSynchronize ()) ;
}

static void fp64_table (const std::vector<int64_t> &ns)
{
    if (fp64_rows.empty ()) return ;
    printf ("\n# FP64 TABLE: speedup = cuSPARSE best (FP64) / this; dmma = the hybrid with DMMA "
        "(exact FP64), thresholds 3 and 4, the faster of the split and fused kernels\n") ;
    printf ("%-14s %4s %9s %6s %6s %6s %6s %6s\n", "matrix", "N", "cuSP ms", "cuda", "dmma3",
        "dmma4", "TC%3", "TC%4") ;
    for (int64_t n : ns)
    {
        double ls [4] = { 0, 0, 0, 0 } ;
        int lc [4] = { 0, 0, 0, 0 } ;
        for (const fp64_row &r : fp64_rows)
        {
            if (r.n != n) continue ;
            const double v [4] = { r.cuda, r.tc3, r.tc4,
                std::min (r.cuda > 0 ? r.cuda : 1e30, std::min (r.tc3 > 0 ? r.tc3 : 1e30, r.tc4 > 0 ? r.tc4 : 1e30)) } ;
            double sp [4] ;
            for (int q = 0 ; q < 4 ; q++)
            {
                sp [q] = (v [q] > 0 && v [q] < 1e30) ? r.cusp / v [q] : 0 ;
                if (sp [q] > 0) { ls [q] += log (sp [q]) ; lc [q]++ ; }
            }
            printf ("%-14s %4lld %9.4f %6.2f %6.2f %6.2f %6.1f %6.1f\n", r.matrix.c_str (),
                (long long) n, r.cusp, sp [0], sp [1], sp [2], 100 * r.share3, 100 * r.share4) ;
        }
        printf ("# FP64 geomean N=%lld: cuda %.3f, dmma T=3 %.3f, dmma T=4 %.3f, best of the three %.3f "
            "(vs cuSPARSE best)\n", (long long) n, lc [0] ? exp (ls [0] / lc [0]) : 0,
            lc [1] ? exp (ls [1] / lc [1]) : 0, lc [2] ? exp (ls [2] / lc [2]) : 0,
            lc [3] ? exp (ls [3] / lc [3]) : 0) ;
    }
}

//------------------------------------------------------------------------------
// --reorder: the hybrid on a row-permuted S (reorder/), FP32
//------------------------------------------------------------------------------

// Per matrix: the RSH pass (reorder/rsh.c, 5 s budget) on the host; the
// share of entries in window vectors of >= 3 and >= 4 entries before and
// after; the hybrid (T = 3, 4) of S and of the permuted S, made to store each
// row to its original place (gg_tc_set_row_out), split and fused kernels,
// timed in exact mode (and tf32) at each N and checked on all rows against
// cuSPARSE's best on S.
struct reorder_row { std::string matrix ; int64_t n ; double rsh_s, s3a, s3b, s4a, s4b,
    cusp, unre, re, re_tf32 ; } ;
static std::vector<reorder_row> reorder_rows ;

static void bench_reorder (cusparseHandle_t h, const bm_csr &A, const std::vector<int64_t> &ns)
{
    std::vector<int32_t> perm (A.m) ;
    gg_reorder_options opt ;
    gg_reorder_options_default (&opt) ;
    opt.budget_s = 5 ;
    gg_reorder_info info ;
    if (gg_reorder_rsh (A.p.data (), A.i.data (), A.m, A.k, &opt, perm.data (), NULL, &info) != GG_OK)
    { printf ("reorder failed: %s\n", A.name.c_str ()) ; wrong++ ; return ; }
    gg_reorder_stats s0, s1 ;
    gg_reorder_window_stats (A.p.data (), A.i.data (), A.m, A.k, NULL, 8, &s0) ;
    gg_reorder_window_stats (A.p.data (), A.i.data (), A.m, A.k, perm.data (), 8, &s1) ;
    // the permuted CSR: row q of B is row perm [q] of A
    std::vector<int32_t> bp (A.m + 1), bi (A.nnz + 1) ;
    std::vector<float> bx (A.nnz + 1) ;
    gg_reorder_permute_rows (A.p.data (), A.i.data (), A.x.data (), sizeof (float), false, A.m,
        perm.data (), bp.data (), bi.data (), bx.data ()) ;
    printf ("# %s reordered (RSH, %.3f s%s): TC share T=3 %.1f -> %.1f %%, T=4 %.1f -> %.1f %%, "
        "distinct columns per window %.1f -> %.1f\n", A.name.c_str (), info.t_total,
        info.fallback ? ", budget hit: first-column order" : "", 100 * s0.tc_share [3],
        100 * s1.tc_share [3], 100 * s0.tc_share [4], 100 * s1.tc_share [4], s0.avg_distinct,
        s1.avg_distinct) ;
    int32_t *dp, *di, *ep, *ei, *dperm ; float *dx, *ex ;
    CK (cudaMalloc (&dp, (A.m + 1) * 4)) ; CK (cudaMalloc (&di, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&dx, A.nnz * 4 + 4)) ; CK (cudaMalloc (&ep, (A.m + 1) * 4)) ;
    CK (cudaMalloc (&ei, A.nnz * 4 + 4)) ; CK (cudaMalloc (&ex, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&dperm, A.m * 4)) ;
    CK (cudaMemcpy (dp, A.p.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (di, A.i.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dx, A.x.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (ep, bp.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (ei, bi.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (ex, bx.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dperm, perm.data (), A.m * 4, cudaMemcpyHostToDevice)) ;
    gg_hybrid_form *fu [2] = { NULL, NULL }, *fr [2] = { NULL, NULL } ;
    for (int q = 0 ; q < 2 ; q++)
    {
        if (gg_tc_build (A.m, A.k, A.nnz, dp, di, dx, GG_FP32, 3 + q, 0, &fu [q], 0) != GG_OK
            || gg_tc_build (A.m, A.k, A.nnz, ep, ei, ex, GG_FP32, 3 + q, 0, &fr [q], 0) != GG_OK)
        { printf ("reorder: build failed\n") ; exit (1) ; }
        if (gg_tc_set_row_out (fr [q], dperm, 0) != GG_OK) { printf ("reorder: set_row_out failed\n") ; exit (1) ; }
    }
    for (int64_t n : ns)
    {
        std::vector<float> X (A.k * n), ref, y (A.m * n) ;
        for (auto &v : X) v = rng.val () + 0.25f ;
        float *dX, *dY ;
        CK (cudaMalloc (&dX, X.size () * 4 + 16)) ; CK (cudaMalloc (&dY, A.m * n * 4 + 16)) ;
        CK (cudaMemcpy (dX, X.data (), X.size () * 4, cudaMemcpyHostToDevice)) ;
        const double base = cusparse_best<float> (h, A, dp, di, dx, dX, dY, n, ref) ;
        if (base < 0) { wrong++ ; cudaFree (dX) ; cudaFree (dY) ; continue ; }
        // one timed, checked product: the fastest so far of each kind kept
        auto run = [&] (const gg_hybrid_form *g, int mode, const char *variant, const char *what) -> double
        {
            int rc = GG_OK ;
            CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
            const double t = time_ms ([&] { rc = gg_tc_spmm_ex (g, dX, dY, n, mode, variant,
                GG_TC_PARTS_ALL, NULL, 0) ; }) ;
            if (rc != GG_OK) return -1 ;
            CK (cudaMemcpy (y.data (), dY, A.m * n * 4, cudaMemcpyDeviceToHost)) ;
            const double rel = rel_to_ref (A, n, y, ref) ;
            const bool ok = rel < (mode == GG_TC_TF32 ? 1e-2 : 1e-4) ;
            printf ("%-14s %4lld reorder  %-22s %9.4f ms %6.2fx rel %.2e %s\n", A.name.c_str (),
                (long long) n, what, t, base / t, rel, ok ? "ok" : "WRONG") ;
            if (csv) fprintf (csv, "%s,%lld,%lld,%lld,%lld,reorder,%s,0,0,%.5f,%.2f,%.3f,%.3e,0,0,0,%s\n",
                A.name.c_str (), (long long) A.m, (long long) A.k, (long long) A.nnz, (long long) n,
                what, t, 2.0 * A.nnz * n / (t * 1e6), base / t, rel, ok ? "ok" : "WRONG") ;
            if (!ok) { wrong++ ; return -1 ; }
            return t ;
        } ;
        auto best = [] (double a, double b) { return (a > 0 && (b <= 0 || a < b)) ? a : b ; } ;
        double unre = -1, re = -1, re_tf32 = -1 ;
        for (int q = 0 ; q < 2 ; q++)
        {
            const std::string T = std::string ("T=") + char ('3' + q) ;
            unre = best (run (fu [q], GG_TC_EXACT, "direct2", (T + " split").c_str ()), unre) ;
            unre = best (run (fu [q], GG_TC_EXACT, "fused", (T + " fused").c_str ()), unre) ;
            for (const char *variant : { "direct2", "cpasync2", "fused" })
            {
                re = best (run (fr [q], GG_TC_EXACT, variant, (T + " reordered " + variant).c_str ()), re) ;
                re_tf32 = best (run (fr [q], GG_TC_TF32, variant,
                    (T + " reordered " + variant + " tf32").c_str ()), re_tf32) ;
            }
        }
        reorder_rows.push_back ({ A.name, n, info.t_total, s0.tc_share [3], s1.tc_share [3],
            s0.tc_share [4], s1.tc_share [4], base, unre, re, re_tf32 }) ;
        cudaFree (dX) ; cudaFree (dY) ;
    }
    for (int q = 0 ; q < 2 ; q++) { gg_tc_free (fu [q], 0) ; gg_tc_free (fr [q], 0) ; }
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ; cudaFree (ep) ; cudaFree (ei) ; cudaFree (ex) ;
    cudaFree (dperm) ;
    CK (cudaDeviceSynchronize ()) ;
}

static void reorder_table (const std::vector<int64_t> &ns)
{
    if (reorder_rows.empty ()) return ;
    printf ("\n# REORDER TABLE (FP32): RSH reordering on the host; TC%% = entries in window vectors of "
        ">= 3 / >= 4 before -> after; ms: cuSPARSE best on S, the hybrid of S (best of split and "
        "fused, T = 3, 4, exact), the hybrid of the reordered S (best of split and fused, exact; tf32); x = cuSPARSE / this\n") ;
    printf ("%-14s %4s %7s %13s %13s %9s %9s %6s %9s %6s %6s %6s\n", "matrix", "N", "rsh s",
        "TC%3", "TC%4", "cuSP ms", "hyb ms", "x", "reord ms", "x", "re/hyb", "tf32 x") ;
    for (int64_t n : ns)
    {
        double l1 = 0, l2 = 0, l3 = 0 ;
        int c = 0 ;
        for (const reorder_row &r : reorder_rows)
        {
            if (r.n != n) continue ;
            const double x1 = r.unre > 0 ? r.cusp / r.unre : 0, x2 = r.re > 0 ? r.cusp / r.re : 0 ;
            const double x3 = (r.unre > 0 && r.re > 0) ? r.unre / r.re : 0 ;
            printf ("%-14s %4lld %7.3f %5.1f->%5.1f %5.1f->%5.1f %9.4f %9.4f %6.2f %9.4f %6.2f %6.2f %6.2f\n",
                r.matrix.c_str (), (long long) n, r.rsh_s, 100 * r.s3a, 100 * r.s3b, 100 * r.s4a,
                100 * r.s4b, r.cusp, r.unre, x1, r.re, x2, x3, r.re_tf32 > 0 ? r.cusp / r.re_tf32 : 0) ;
            if (x1 > 0 && x2 > 0) { l1 += log (x1) ; l2 += log (x2) ; l3 += log (x3) ; c++ ; }
        }
        if (c) printf ("# REORDER geomean N=%lld (%d matrices): hybrid %.3f, reordered %.3f x cuSPARSE; "
            "reordered / hybrid %.3f\n", (long long) n, c, exp (l1 / c), exp (l2 / c), exp (l3 / c)) ;
    }
}

static std::vector<int64_t> parse_list (const char *s)
{
    std::vector<int64_t> v ;
    while (*s) { v.push_back (strtoll (s, (char **) &s, 10)) ; if (*s == ',') s++ ; else if (*s) s++ ; }
    return v ;
}

int main (int argc, char **argv)
{
    std::vector<int64_t> scales = { 18, 20, 22 }, ns = { 32, 128 } ;
    bool fp64 = false, fp64_only = false, reorder = false, reorder_only = false ;
    const char *data = getenv ("GRBGPU_TEST_DATA") ;
    std::string datadir = data ? data : "" ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--csv") && a + 1 < argc) csv = fopen (argv [++a], "w") ;
        else if (!strcmp (argv [a], "--scales") && a + 1 < argc) scales = parse_list (argv [++a]) ;
        else if (!strcmp (argv [a], "--ns") && a + 1 < argc) ns = parse_list (argv [++a]) ;
        else if (!strcmp (argv [a], "--data") && a + 1 < argc) datadir = argv [++a] ;
        else if (!strcmp (argv [a], "--no-data")) datadir = "" ;
        else if (!strcmp (argv [a], "--fp64")) fp64 = true ;
        else if (!strcmp (argv [a], "--fp64-only")) fp64 = fp64_only = true ;
        else if (!strcmp (argv [a], "--reorder")) reorder = true ;
        else if (!strcmp (argv [a], "--reorder-only")) reorder = reorder_only = true ;
        else if (!strcmp (argv [a], "--reps") && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--warmups") && a + 1 < argc) warmups = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--thresholds") && a + 1 < argc)
        { thresholds.clear () ; for (int64_t v : parse_list (argv [++a])) thresholds.push_back ((int) v) ; }
        else if (!strcmp (argv [a], "--segs") && a + 1 < argc)
        { segs.clear () ; for (int64_t v : parse_list (argv [++a])) segs.push_back ((int) v) ; }
        else { fprintf (stderr, "usage: %s [--scales L] [--ns L] [--data DIR|--no-data] [--reps R] "
            "[--warmups W] [--thresholds L] [--segs L] [--csv F]\n", argv [0]) ; return 2 ; }
    }
    int ndev = 0 ;
    if (cudaGetDeviceCount (&ndev) != cudaSuccess || ndev == 0) { printf ("SKIP: no CUDA device\n") ; return 77 ; }
    cudaDeviceProp prop ;
    CK (cudaGetDeviceProperties (&prop, 0)) ;
    printf ("# device: %s, %d SMs\n", prop.name, prop.multiProcessorCount) ;
    if (csv) fprintf (csv, "matrix,m,k,nnz,n,mode,variant,threshold,seg,ms,gflops,speedup_vs_cusparse,"
        "rel_err_vs_cusparse,err64_max,err64_med,tc_share,check\n") ;
    double copy_gbs = 0 ;
    {
        const size_t cb = (size_t) 1 << 30 ;
        void *s1, *s2 ;
        CK (cudaMalloc (&s1, cb)) ; CK (cudaMalloc (&s2, cb)) ;
        CK (cudaMemset (s1, 1, cb)) ;
        const double t = time_ms ([&] { cudaMemcpyAsync (s2, s1, cb, cudaMemcpyDeviceToDevice, 0) ; }) ;
        copy_gbs = 2.0 * (double) cb / (t * 1e6) ;
        printf ("# copy bandwidth: %.1f GB/s (read + written)\n", copy_gbs) ;
        cudaFree (s1) ; cudaFree (s2) ;
    }
    cusparseHandle_t h ;
    CKS (cusparseCreate (&h)) ;
    std::vector<std::string> names ;
    for (int64_t s : scales)
    {
        bm_csr A = bm_rmat ((int) s, rng) ;
        if (!fp64_only && !reorder_only) bench_matrix (h, A, ns) ;
        if (fp64) bench_fp64 (h, A, ns) ;
        if (reorder) bench_reorder (h, A, ns) ;
        names.push_back (A.name) ;
    }
    std::vector<std::string> files = bm_mtx_files (datadir) ;
    if (files.empty ()) printf ("# no *.mtx.gz in '%s': real matrices skipped\n", datadir.c_str ()) ;
    for (const std::string &fn : files)
    {
        bm_csr A ;
        A.name = fn.substr (0, fn.size () - 7) ;
        if (!bm_read_mtx_gz (datadir + "/" + fn, A, rng)) { printf ("# cannot read %s\n", fn.c_str ()) ; continue ; }
        if (!fp64_only && !reorder_only) bench_matrix (h, A, ns) ;
        if (fp64) bench_fp64 (h, A, ns) ;
        if (reorder) bench_reorder (h, A, ns) ;
        names.push_back (A.name) ;
    }
    cusparseDestroy (h) ;
    if (csv) fclose (csv) ;

    // the table: per matrix and N, the fastest correct variant of each mode
    // at the default form (T=3, seg=16) as a speedup over cuSPARSE's best
    const char *modes [] = { "cusparse", "cuda", "exact", "exact3", "exact4", "tf32" } ;
    auto best_of = [&] (const std::string &mname, int64_t n, const char *mode, int T, int seg)
        -> const result *
    {
        const result *b = NULL ;
        for (const result &r : results)
            if (r.matrix == mname && r.n == n && r.mode == mode && r.ok
                && (T < 0 || (r.threshold == T && r.seg == seg))
                && (b == NULL || r.ms < b->ms)) b = &r ;
        return b ;
    } ;
    printf ("\n# TABLE: speedup = cuSPARSE best / this (fastest variant, form T=3 seg=16); "
        "rel = max error vs cuSPARSE / max |y|; e64 = exact's error vs FP64 (max, median over "
        "sampled rows, scaled by sum |s x|) over our CUDA-core kernel's\n") ;
    printf ("%-14s %4s %8s %6s %8s %-8s %6s %6s %6s %6s %5s %8s %8s %8s\n", "matrix", "N",
        "cuSP ms", "cuda", "exact ms", "variant", "exact", "exact3", "exact4", "tf32", "TC%",
        "rel", "e64 max", "e64 med") ;
    for (int64_t n : ns)
    {
        std::vector<double> ls (6, 0) ;
        std::vector<int> lc (6, 0) ;
        for (const std::string &mname : names)
        {
            const result *r [6] ;
            for (int q = 0 ; q < 6 ; q++) r [q] = best_of (mname, n, modes [q], q < 2 ? -1 : 3, 16) ;
            if (r [0] == NULL) continue ;
            const double base = r [0]->ms ;
            double sp [6] ;
            for (int q = 0 ; q < 6 ; q++)
            {
                sp [q] = r [q] ? base / r [q]->ms : 0 ;
                if (r [q]) { ls [q] += log (sp [q]) ; lc [q]++ ; }
            }
            const result *e = r [2], *c = r [1] ;
            printf ("%-14s %4lld %8.4f %6.2f %8.4f %-8s %6.2f %6.2f %6.2f %6.2f %5.1f %8.1e %8.2f %8.2f\n",
                mname.c_str (), (long long) n, base, sp [1], e ? e->ms : 0, e ? e->variant.c_str () : "-",
                sp [2], sp [3], sp [4], sp [5], e ? 100 * e->tc_share : 0, e ? e->rel : 0,
                (e && c && c->e64max > 0) ? e->e64max / c->e64max : 0,
                (e && c && c->e64med > 0) ? e->e64med / c->e64med : 0) ;
        }
        printf ("# geomean speedup vs cuSPARSE at N=%lld:", (long long) n) ;
        for (int q = 1 ; q < 6 ; q++) if (lc [q]) printf (" %s %.3f", modes [q], exp (ls [q] / lc [q])) ;
        printf (" (%d matrices)\n", lc [1]) ;
    }
    // forms: build time against one warm call, and the sweeps (speedups at
    // the last N)
    const int64_t nl = ns.back () ;
    printf ("\n# FORMS at N=%lld: build = second build ms (first), /call = build / fastest exact "
        "call; exact and tf32 speedups by threshold T (seg 16) and by seg (T 3)\n", (long long) nl) ;
    printf ("%-14s %8s %8s %6s %7s |", "matrix", "build", "(first)", "/call", "MB") ;
    for (int T : thresholds) printf (" eT%-2d", T) ;
    printf (" eT3  |") ;
    for (int sg : segs) printf (" es%-2d", sg) ;
    printf (" |") ;
    for (int T : thresholds) printf (" tT%-2d", T) ;
    printf (" tT3\n") ;
    for (const std::string &mname : names)
    {
        const build_row *b = NULL ;
        for (const build_row &q : builds) if (q.matrix == mname && q.first_ms >= 0) b = &q ;
        const result *base = best_of (mname, nl, "cusparse", -1, 0) ;
        if (b == NULL || base == NULL) continue ;
        printf ("%-14s %8.2f %8.2f %6.1f %7.1f |", mname.c_str (), b->second_ms, b->first_ms,
            b->warm_ms > 0 ? b->second_ms / b->warm_ms : 0, b->bytes / 1e6) ;
        auto sp = [&] (const char *mode, int T, int seg) {
            const result *r = best_of (mname, nl, mode, T, seg) ;
            printf (" %4.2f", r ? base->ms / r->ms : 0) ; } ;
        for (int T : thresholds) sp ("exact", T, 16) ;
        sp ("exact", 3, 16) ;
        printf (" |") ;
        for (int sg : segs) sp ("exact", 3, sg) ;
        printf (" |") ;
        for (int T : thresholds) sp ("tf32", T, 16) ;
        sp ("tf32", 3, 16) ;
        printf ("\n") ;
    }
    fp64_table (ns) ;
    reorder_table (ns) ;
    printf ("# copy bandwidth %.1f GB/s; %d wrong results\n", copy_gbs, wrong) ;
    return wrong ? 1 : 0 ;
}
