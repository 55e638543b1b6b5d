//------------------------------------------------------------------------------
// bench/cusparselt_bench.cu: cuSPARSELt 2:4 / 1:2 SpMM vs cuBLAS dense GEMM
//------------------------------------------------------------------------------

// Measures NVIDIA's structured-sparsity library, cuSPARSELt, on the shapes of
// nm_gpu_bench: Y (B x n) = X (B x k, dense) * W (k x n), W pruned to 50 %
// along k (the reduction dimension).  Shapes B x k x n, default
// 4096 x 4096 x 4096, 8192 x 8192 x 2048 and 256 x 4096 x 16384.  Modes,
// each where the library and the GPU support it: FP16 2:4 (FP16 in and out,
// FP32 accumulation), TF32 1:2 (FP32 in and out, TF32 tensor-core products)
// and BF16 2:4.  For each: W pruned by cusparseLtSpMMAPrune (strip), checked
// by cusparseLtSpMMAPruneCheck, compressed, one cusparseLtMatmulSearch, then
// the median of 20 cusparseLtMatmul calls after 3 warm-up calls, each timed
// alone with CUDA events.  In the same run and timed the same way, on the
// unpruned W: cuBLAS SGEMM (pedantic math: FP32 FFMA, no TF32) and the dense
// cuBLAS GEMM of each mode's precision (FP32 accumulation).  Every result is
// checked on 256 random entries of Y against a double-precision host product
// of the same inputs (X rounded to the input type, W as pruned and read back
// from the device): max |y - ref| / sum |x w|, FAIL over 1e-2 (FP16, BF16)
// or 1e-3 (TF32).  Columns: ms, dense-equivalent TFLOP/s (2 B k n / t),
// speedup over SGEMM, speedup over the dense GEMM of the same precision.
// Output: "device: <name>", the cuSPARSELt version, then one row per shape
// and GEMM.  A mode the library or GPU refuses prints "unsupported
// (<status>)" (details on stderr) and the run goes on; if cusparseLtInit
// fails, "SKIP: cuSPARSELt not usable (<status>)" and exit status 0.
//
// These numbers are lower-precision (FP16/BF16 inputs, TF32 products) and so
// are not comparable with grbgpu's exact FP32 N:M kernel (nm_gpu_bench)
// except as a labelled reference: what the sparse tensor cores give when
// accuracy is traded for speed.
//
// Not built by the Makefile: cuSPARSELt is no dependency of grbgpu and
// configure does not look for it.  Built by hand, only on the GPU host, whose
// image carries cuSPARSELt in a Python package; LT is that package's folder
// (.../site-packages/nvidia/cusparselt, with include/cusparseLt.h and
// lib/libcusparseLt.so.0), from the repository root, as one command line:
//
//   nvcc -std=c++17 -O3 -gencode=arch=compute_90,code=sm_90 -I$LT/include
//       bench/cusparselt_bench.cu -o cusparselt_bench -L$LT/lib
//       -l:libcusparseLt.so.0 -lcublas -Xlinker -rpath=$LT/lib
//
// Written against the cuSPARSELt 0.6 / 0.7 API (compression with a buffer,
// plans without a workspace size: 0.4 on, older headers are refused), with
// the compute types chosen by CUSPARSELT_VERSION (below).
//
// Usage: cusparselt_bench [B k n]...

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cublas_v2.h>
#include <cusparseLt.h>

#if !defined (CUSPARSELT_VERSION)
#error "no CUSPARSELT_VERSION in cusparseLt.h: cuSPARSELt 0.4 or newer needed"
#elif CUSPARSELT_VERSION < 400
#error "cuSPARSELt 0.4 or newer is needed (compression buffer, plan API)"
#endif

// Compute types.  Up to 0.5.1 the enum was { 16F, 32I, TF32, TF32_FAST }:
// 16F served FP16 and BF16 inputs (FP32 accumulation), TF32 served FP32
// inputs (rounded to TF32; TF32_FAST truncates).  From 0.5.2 it is
// { 32I, 16F, 32F }: 32F for FP16, BF16 and FP32 inputs alike, and 16F means
// FP16 accumulation (Hopper only), which is not what is measured here.
#if CUSPARSELT_VERSION >= 502
static const cusparseComputeType LT_COMPUTE_16BIT = CUSPARSE_COMPUTE_32F ;
static const cusparseComputeType LT_COMPUTE_FP32 = CUSPARSE_COMPUTE_32F ;
#else
static const cusparseComputeType LT_COMPUTE_16BIT = CUSPARSE_COMPUTE_16F ;
static const cusparseComputeType LT_COMPUTE_FP32 = CUSPARSE_COMPUTE_TF32 ;
#endif

static const int WARM = 3, REPS = 20, NSAMP = 256 ;

#include "cusparselt_bench_util.cuh"

//------------------------------------------------------------------------------
// dense baselines (cuBLAS)
//------------------------------------------------------------------------------

// cuBLAS is column-major.  Y (B x n, row-major) is Y' (n x B, column-major,
// ld n); X (B x k, row-major) is X' (k x B, column-major, ld k); W is held
// as W' (n x k, row-major: each output column's k weights contiguous), which
// column-major is W (k x n, ld k), so op T gives W'.  Then Y' = W' X' is
// gemm (T, N, m = n, n = B, k).

static bool sgemm_time (cublasHandle_t hb, const Shape &s, const float *dWt,
    const float *dX, float *dY, double *ms)
{
    const float one = 1.0f, zero = 0.0f ;
    // pedantic: FP32 FFMA only, no TF32 even if the default math would allow it
    CK_BLAS (cublasSetMathMode (hb, CUBLAS_PEDANTIC_MATH), false) ;
    auto call = [&] () -> bool {
        CK_BLAS (cublasSgemm (hb, CUBLAS_OP_T, CUBLAS_OP_N, (int) s.n,
            (int) s.B, (int) s.k, &one, dWt, (int) s.k, dX, (int) s.k, &zero,
            dY, (int) s.n), false) ;
        return true ;
    } ;
    const bool ok = median_ms (call, ms) ;
    CK_BLAS (cublasSetMathMode (hb, CUBLAS_DEFAULT_MATH), false) ;
    return ok ;
}

static bool gemmex_time (cublasHandle_t hb, const Shape &s, const Mode &m,
    const void *dW, const void *dX, void *dY, double *ms)
{
    // FP32 alpha and beta: both compute types used here are FP32 ones
    const float one = 1.0f, zero = 0.0f ;
    CK_BLAS (cublasSetMathMode (hb, CUBLAS_DEFAULT_MATH), false) ;
    auto call = [&] () -> bool {
        CK_BLAS (cublasGemmEx (hb, CUBLAS_OP_T, CUBLAS_OP_N, (int) s.n,
            (int) s.B, (int) s.k, &one, dW, m.type, (int) s.k, dX, m.type,
            (int) s.k, &zero, dY, m.type, (int) s.n, m.blas_compute,
            CUBLAS_GEMM_DEFAULT), false) ;
        return true ;
    } ;
    return median_ms (call, ms) ;
}

//------------------------------------------------------------------------------
// one cuSPARSELt mode
//------------------------------------------------------------------------------

// cuSPARSELt computes D = op (A) op (B) (+ C), the structured matrix being A
// (B too in newer versions; A is what every version takes).  So as for
// cuBLAS: Y' (n x B) = W' (n x k) X' (k x B), all column-major, W' the
// structured A.  Its 50 % is along the rows of op (A), that is along k, the
// reduction dimension, as wanted.  Two storages of W are tried, in order:
//   layout 0: W' row-major (n x k) = column-major k x n, ld k, op (A) = T:
//             the "TN" layout, both operands contiguous along k;
//   layout 1: W row-major (k x n) = column-major n x k, ld n, op (A) = N,
//             should the library refuse the first.
// X and Y are the same in both (row-major B x k and B x n, as everywhere in
// the N:M benches).

enum { LT_OK, LT_UNSUPPORTED, LT_FAILED } ;

struct LtResult
{
    double ms = 0, err = INFINITY ;
    bool pattern_ok = false, searched = false ;
} ;

// Descriptor, matmul descriptor and plan set-up failures give
// LT_UNSUPPORTED (the library refuses this type, layout or GPU); anything
// later, LT_FAILED.  dWt: W' (n x k, row-major) in FP32; dX: X in m.type;
// dY: room for Y in m.type.
static int lt_mode (const cusparseLtHandle_t *h, const Mode &m, int layout,
    const Shape &s, const float *dWt, const void *dX, void *dY,
    const std::vector<float> &X, LtResult *res)
{
    const int64_t B = s.B, k = s.k, n = s.n ;
    const size_t ts = type_size (m.type) ;
    const unsigned align = 16 ;     // bytes; cudaMalloc gives 256
    const cusparseOrder_t order = CUSPARSE_ORDER_COL ;
    const cusparseOperation_t opA = (layout == 0) ?
        CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE ;
    const cusparseOperation_t opB = CUSPARSE_OPERATION_NON_TRANSPOSE ;
    const int64_t a_rows = (layout == 0) ? k : n ;
    const int64_t a_cols = (layout == 0) ? n : k ;
    // W (kk, j) in the stored layout
    auto widx = [=] (int64_t kk, int64_t j) -> size_t {
        return (size_t) ((layout == 0) ? j * k + kk : kk * n + j) ;
    } ;

    LtObjs o ;
    CK_LT (cusparseLtStructuredDescriptorInit (h, &o.a, a_rows, a_cols,
        a_rows, align, m.type, order, CUSPARSELT_SPARSITY_50_PERCENT),
        LT_UNSUPPORTED) ;
    o.has_a = true ;
    CK_LT (cusparseLtDenseDescriptorInit (h, &o.b, k, B, k, align, m.type,
        order), LT_UNSUPPORTED) ;
    o.has_b = true ;
    CK_LT (cusparseLtDenseDescriptorInit (h, &o.c, n, B, n, align, m.type,
        order), LT_UNSUPPORTED) ;
    o.has_c = true ;
    CK_LT (cusparseLtMatmulDescriptorInit (h, &o.mm, opA, opB, &o.a, &o.b,
        &o.c, &o.c, m.lt_compute), LT_UNSUPPORTED) ;
    CK_LT (cusparseLtMatmulAlgSelectionInit (h, &o.alg, &o.mm,
        CUSPARSELT_MATMUL_ALG_DEFAULT), LT_UNSUPPORTED) ;
    CK_LT (cusparseLtMatmulPlanInit (h, &o.plan, &o.mm, &o.alg),
        LT_UNSUPPORTED) ;
    o.has_plan = true ;

    // W in this layout and type; pruned into its own buffer, so that the
    // dense W stays as it was
    const size_t wbytes = (size_t) (k * n) * ts ;
    DevBuf dw, dwp, dvalid, dcomp, dcbuf, dws ;
    CK_CUDA (dw.alloc (wbytes), LT_FAILED) ;
    CK_CUDA (dwp.alloc (wbytes), LT_FAILED) ;
    CK_CUDA (dvalid.alloc (sizeof (int)), LT_FAILED) ;
    CK_CUDA (convert (dWt, dw.p, m.type, n, k, layout == 1), LT_FAILED) ;

#if CUSPARSELT_VERSION >= 600
    // The library's own example gives the matmul descriptor the address of
    // the pruned, uncompressed sparse matrix; done the same way here, and
    // not fatal if refused (it is an optional attribute).
    {
        void *pw = dwp.p ;
        WARN_LT (cusparseLtMatmulDescSetAttribute (h, &o.mm,
            CUSPARSELT_MATMUL_SPARSE_MAT_POINTER, &pw, sizeof (pw))) ;
    }
#endif

    // prune (keep the 2 of 4, or 1 of 2, largest along k) and check
    CK_LT (cusparseLtSpMMAPrune (h, &o.mm, dw.p, dwp.p,
        CUSPARSELT_PRUNE_SPMMA_STRIP, 0), LT_FAILED) ;
    CK_LT (cusparseLtSpMMAPruneCheck (h, &o.mm, dwp.p, (int *) dvalid.p, 0),
        LT_FAILED) ;
    int invalid = 1 ;
    CK_CUDA (cudaMemcpy (&invalid, dvalid.p, sizeof (int),
        cudaMemcpyDeviceToHost), LT_FAILED) ;
    if (invalid != 0)
    {
        fprintf (stderr, "%s: cusparseLtSpMMAPruneCheck: W not validly "
            "pruned\n", m.name) ;
        snprintf (g_why, sizeof (g_why), "PruneCheck: invalid pattern") ;
        return LT_FAILED ;
    }

    // compress
    size_t csize = 0, cbsize = 0 ;
    CK_LT (cusparseLtSpMMACompressedSize (h, &o.plan, &csize, &cbsize),
        LT_FAILED) ;
    CK_CUDA (dcomp.alloc (csize), LT_FAILED) ;
    CK_CUDA (dcbuf.alloc (cbsize), LT_FAILED) ;
    CK_LT (cusparseLtSpMMACompress (h, &o.plan, dwp.p, dcomp.p, dcbuf.p, 0),
        LT_FAILED) ;

    // one search for the fastest kernel (it updates the plan); optional, so
    // a failure keeps the default algorithm
    const float alpha = 1.0f, beta = 0.0f ;
    size_t wsz = 0 ;
    CK_LT (cusparseLtMatmulGetWorkspace (h, &o.plan, &wsz), LT_FAILED) ;
    CK_CUDA (dws.alloc (wsz), LT_FAILED) ;
    {
        cusparseStatus_t st = cusparseLtMatmulSearch (h, &o.plan, &alpha,
            dcomp.p, dX, &beta, dY, dY, dws.p, nullptr, 0) ;
        res->searched = (st == CUSPARSE_STATUS_SUCCESS) ;
        if (!res->searched)
        {
            fprintf (stderr, "%s:%d: cusparseLtMatmulSearch: %s (%d); the "
                "default algorithm is kept\n", __FILE__, __LINE__,
                lt_status_name (st), (int) st) ;
        }
    }
    if (res->searched)
    {
        // The compressed size and the workspace are per plan, and the search
        // changed the plan's algorithm: ask again, and compress again, so
        // that what is timed is consistent with the plan whatever the version
        // ties to it.
        size_t csize2 = 0, cbsize2 = 0, wsz2 = 0 ;
        CK_LT (cusparseLtSpMMACompressedSize (h, &o.plan, &csize2, &cbsize2),
            LT_FAILED) ;
        if (csize2 > csize) CK_CUDA (dcomp.alloc (csize2), LT_FAILED) ;
        if (cbsize2 > cbsize) CK_CUDA (dcbuf.alloc (cbsize2), LT_FAILED) ;
        CK_LT (cusparseLtSpMMACompress (h, &o.plan, dwp.p, dcomp.p, dcbuf.p,
            0), LT_FAILED) ;
        CK_LT (cusparseLtMatmulGetWorkspace (h, &o.plan, &wsz2), LT_FAILED) ;
        if (wsz2 > wsz) CK_CUDA (dws.alloc (wsz2), LT_FAILED) ;
    }

    // time; streams null, count 0: the default stream
    auto call = [&] () -> bool {
        CK_LT (cusparseLtMatmul (h, &o.plan, &alpha, dcomp.p, dX, &beta, dY,
            dY, dws.p, nullptr, 0), false) ;
        return true ;
    } ;
    if (!median_ms (call, &res->ms)) return LT_FAILED ;
    CK_CUDA (cudaDeviceSynchronize (), LT_FAILED) ;

    // the pruned W as the library left it
    std::vector<unsigned char> hw (wbytes) ;
    CK_CUDA (cudaMemcpy (hw.data (), dwp.p, wbytes, cudaMemcpyDeviceToHost),
        LT_FAILED) ;

    // at most group / 2 nonzeros in each aligned run of group entries along
    // k: the pattern, and that it is along k (the reduction dimension)
    const int g = m.group ;
    bool ok = (k % g == 0) ;
    for (int64_t j = 0 ; j < n && ok ; j++)
    {
        for (int64_t k0 = 0 ; k0 + g <= k && ok ; k0 += g)
        {
            int nz = 0 ;
            for (int q = 0 ; q < g ; q++)
            {
                nz += (elem (hw.data (), widx (k0 + q, j), m.type) != 0) ;
            }
            ok = (nz <= g / 2) ;
        }
    }
    res->pattern_ok = ok ;

    auto w = [&] (int64_t kk, int64_t j) -> double {
        return elem (hw.data (), widx (kk, j), m.type) ;
    } ;
    if (!sample_error (dY, m.type, X, m.type, w, B, k, n,
        0x5eed0000u + (uint64_t) m.group, &res->err))
    {
        return LT_FAILED ;
    }
    return LT_OK ;
}

//------------------------------------------------------------------------------
// one shape: the baselines and every mode
//------------------------------------------------------------------------------

static const Mode MODES [] = {
    { "cuSPARSELt fp16 2:4", "fp16", CUDA_R_16F, LT_COMPUTE_16BIT,
      CUBLAS_COMPUTE_32F, 1e-2, 4 },
    { "cuSPARSELt tf32 1:2", "tf32", CUDA_R_32F, LT_COMPUTE_FP32,
      CUBLAS_COMPUTE_32F_FAST_TF32, 1e-3, 2 },
    { "cuSPARSELt bf16 2:4", "bf16", CUDA_R_16BF, LT_COMPUTE_16BIT,
      CUBLAS_COMPUTE_32F, 1e-2, 4 },
} ;

// SGEMM's own bound, for the check of this benchmark's layouts: FP32
// products and sums, far below this
static const double SGEMM_TOL = 1e-4 ;

static void bench_shape (const cusparseLtHandle_t *lt, cublasHandle_t hb,
    const Shape &s, uint64_t seed)
{
    const int64_t B = s.B, k = s.k, n = s.n ;
    g_why [0] = '\0' ;

    // X (B x k) and W' (n x k), both row-major, uniform in [-1, 1)
    Rng rng (seed) ;
    std::vector<float> X ((size_t) (B * k)), Wt ((size_t) (n * k)) ;
    for (auto &x : X) x = rng.unif () ;
    for (auto &x : Wt) x = rng.unif () ;

    DevBuf dXf, dWtf, dYf ;
    {
        auto up = [&] () -> bool {
            CK_CUDA (dXf.alloc (X.size () * sizeof (float)), false) ;
            CK_CUDA (dWtf.alloc (Wt.size () * sizeof (float)), false) ;
            CK_CUDA (dYf.alloc ((size_t) (B * n) * sizeof (float)), false) ;
            CK_CUDA (cudaMemcpy (dXf.p, X.data (), X.size () * sizeof (float),
                cudaMemcpyHostToDevice), false) ;
            CK_CUDA (cudaMemcpy (dWtf.p, Wt.data (),
                Wt.size () * sizeof (float), cudaMemcpyHostToDevice), false) ;
            return true ;
        } ;
        if (!up ())
        {
            row_skipped (s, "(shape)", "skipped: no room for the inputs") ;
            return ;
        }
    }

    // dense W (kk, j) as held in W', rounded to a type
    auto wdense = [&] (cudaDataType t) {
        return [&Wt, k, t] (int64_t kk, int64_t j) -> double {
            return round_to (Wt [(size_t) (j * k + kk)], t) ;
        } ;
    } ;

    // cuBLAS SGEMM, pedantic FP32
    double t_sgemm = 0, err = 0 ;
    if (sgemm_time (hb, s, (const float *) dWtf.p, (const float *) dXf.p,
            (float *) dYf.p, &t_sgemm)
        && sample_error (dYf.p, CUDA_R_32F, X, CUDA_R_32F,
            wdense (CUDA_R_32F), B, k, n, seed ^ 0xabcdu, &err))
    {
        row_timed (s, "cuBLAS SGEMM fp32", t_sgemm, t_sgemm, nullptr, 0, err,
            SGEMM_TOL, "") ;
    }
    else
    {
        t_sgemm = 0 ;
        row_skipped (s, "cuBLAS SGEMM fp32", "failed") ;
    }
    dYf.release () ;

    for (const Mode &m : MODES)
    {
        g_why [0] = '\0' ;
        const size_t ts = type_size (m.type) ;
        char dense_name [40] ;
        snprintf (dense_name, sizeof (dense_name), "cuBLAS GEMM %s", m.prec) ;

        // X, dense W' and Y in this mode's type
        DevBuf dX, dW, dY ;
        auto prep = [&] () -> bool {
            CK_CUDA (dX.alloc ((size_t) (B * k) * ts), false) ;
            CK_CUDA (dW.alloc ((size_t) (n * k) * ts), false) ;
            CK_CUDA (dY.alloc ((size_t) (B * n) * ts), false) ;
            CK_CUDA (convert ((const float *) dXf.p, dX.p, m.type, B, k,
                false), false) ;
            CK_CUDA (convert ((const float *) dWtf.p, dW.p, m.type, n, k,
                false), false) ;
            CK_CUDA (cudaDeviceSynchronize (), false) ;
            return true ;
        } ;
        if (!prep ())
        {
            row_skipped (s, m.name, "skipped: set-up failed") ;
            continue ;
        }

        // dense cuBLAS GEMM of the same precision, unpruned W
        double t_dense = 0 ;
        if (gemmex_time (hb, s, m, dW.p, dX.p, dY.p, &t_dense)
            && sample_error (dY.p, m.type, X, m.type, wdense (m.type), B, k, n,
                seed ^ 0xbcdeu, &err))
        {
            row_timed (s, dense_name, t_dense, t_sgemm, nullptr, 0, err,
                m.tol, "") ;
        }
        else
        {
            t_dense = 0 ;
            row_skipped (s, dense_name, "failed") ;
        }
        dW.release () ;

        // cuSPARSELt, layout 0 first, layout 1 only if 0 is refused
        g_why [0] = '\0' ;
        LtResult r ;
        int rc = LT_UNSUPPORTED, layout = 0 ;
        for ( ; layout < 2 ; layout++)
        {
            r = LtResult () ;
            rc = lt_mode (lt, m, layout, s, (const float *) dWtf.p, dX.p,
                dY.p, X, &r) ;
            if (rc != LT_UNSUPPORTED) break ;
        }
        if (rc == LT_UNSUPPORTED)
        {
            row_skipped (s, m.name, "unsupported") ;
            continue ;
        }
        if (rc == LT_FAILED)
        {
            row_skipped (s, m.name, "failed") ;
            continue ;
        }
        char note [64] ;
        snprintf (note, sizeof (note), "%s%s%s",
            r.pattern_ok ? "" : " FAIL(pattern)",
            r.searched ? "" : " (no search)",
            layout == 1 ? " (W k x n row-major)" : "") ;
        row_timed (s, m.name, r.ms, t_sgemm, m.prec, t_dense, r.err, m.tol,
            note) ;
    }
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void usage (const char *prog)
{
    fprintf (stderr, "usage: %s [B k n]...\n", prog) ;
}

int main (int argc, char **argv)
{
    std::vector<Shape> shapes ;
    if (argc > 1)
    {
        if ((argc - 1) % 3 != 0)
        {
            usage (argv [0]) ;
            return 1 ;
        }
        for (int i = 1 ; i + 2 < argc ; i += 3)
        {
            const Shape s = { atoll (argv [i]), atoll (argv [i + 1]),
                atoll (argv [i + 2]) } ;
            if (s.B <= 0 || s.k <= 0 || s.n <= 0
                || s.B > INT32_MAX || s.k > INT32_MAX || s.n > INT32_MAX)
            {
                usage (argv [0]) ;
                return 1 ;
            }
            shapes.push_back (s) ;
        }
    }
    else
    {
        shapes = { { 4096, 4096, 4096 }, { 8192, 8192, 2048 },
            { 256, 4096, 16384 } } ;
    }

    int dev = 0 ;
    cudaDeviceProp prop ;
    CK_CUDA (cudaGetDevice (&dev), 1) ;
    CK_CUDA (cudaGetDeviceProperties (&prop, dev), 1) ;
    printf ("device: %s\n", prop.name) ;
    fflush (stdout) ;

    // sparse tensor cores (and so every cuSPARSELt kernel) need SM 8.0
    if (prop.major < 8)
    {
        printf ("SKIP: cuSPARSELt not usable (compute capability %d.%d)\n",
            prop.major, prop.minor) ;
        return 0 ;
    }
    cusparseLtHandle_t lt ;
    {
        const cusparseStatus_t st = cusparseLtInit (&lt) ;
        if (st != CUSPARSE_STATUS_SUCCESS)
        {
            printf ("SKIP: cuSPARSELt not usable (%s)\n", lt_status_name (st)) ;
            return 0 ;
        }
    }
    {
        int v = 0 ;
        const cusparseStatus_t st = cusparseLtGetVersion (&lt, &v) ;
        if (st == CUSPARSE_STATUS_SUCCESS)
        {
            printf ("cuSPARSELt %d.%d.%d (header %d.%d.%d)\n", v / 1000,
                (v % 1000) / 100, v % 100, CUSPARSELT_VERSION / 1000,
                (CUSPARSELT_VERSION % 1000) / 100, CUSPARSELT_VERSION % 100) ;
        }
        else
        {
            fprintf (stderr, "cusparseLtGetVersion: %s\n",
                lt_status_name (st)) ;
        }
    }

    cublasHandle_t hb = nullptr ;
    {
        const cublasStatus_t st = cublasCreate (&hb) ;
        if (st != CUBLAS_STATUS_SUCCESS)
        {
            fprintf (stderr, "cublasCreate: %s\n", cublasGetStatusName (st)) ;
            WARN_LT (cusparseLtDestroy (&lt)) ;
            return 1 ;
        }
    }

    uint64_t seed = 0x6772626770750001ull ;
    for (const Shape &s : shapes) bench_shape (&lt, hb, s, seed++) ;

    int rc = 0 ;
    {
        const cublasStatus_t st = cublasDestroy (hb) ;
        if (st != CUBLAS_STATUS_SUCCESS)
        {
            fprintf (stderr, "cublasDestroy: %s\n", cublasGetStatusName (st)) ;
            rc = 1 ;
        }
    }
    {
        const cusparseStatus_t st = cusparseLtDestroy (&lt) ;
        if (st != CUSPARSE_STATUS_SUCCESS)
        {
            fprintf (stderr, "cusparseLtDestroy: %s\n", lt_status_name (st)) ;
            rc = 1 ;
        }
    }
    return rc ;
}
