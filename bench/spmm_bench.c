//------------------------------------------------------------------------------
// bench/spmm_bench.c: the CUDA backend's SpMM / SpMV / SDDMM vs cuSPARSE vs CPU
//------------------------------------------------------------------------------

// Matrices: R-MAT (a=0.57, b=0.19, c=0.19, d=0.05, 16 edges per row before
// duplicates are removed; scales from --scales, default 18,20) and every
// *.mtx.gz under $GRBGPU_TEST_DATA (or --data DIR) that --real allows.
// For each matrix, FP32 and FP64, N in --ns (default 1,32,64,128,256):
//  (a) kernel: the backend's product (grbgpu_cuda_backend ()->spmm with S
//      and X cached on the device; cuSPARSE time from CUDA events, median of
//      --reps after warm-up) and the whole warm backend call (adds Y's
//      download), vs cusparseSpMM / cusparseSpMV called directly here with
//      each CSR algorithm (best reported);
//  (b) end to end: GrB_mxm / GrB_mxv through grbgpu (GRBGPU_DEVICE=cuda),
//      first call (conversion + upload) and warm, vs the CPU library
//      (grbgpu_set ("DEVICE", "cpu")) in the same run; only when built inside
//      the library's tree (GG_BENCH_E2E), since it needs the dispatcher;
//  (c) SDDMM: the backend vs cusparseSDDMM directly, K = N (N > 1);
//  (d) vxm (w = A' u, N = 1 in --ns): the pull on a transposed CSR (what the
//      backend does: our kernel and cuSPARSE) vs the push from A's own CSR
//      with atomics (gg_cuda_spmv_push) and cuSPARSE's transposed SpMV, for
//      PLUS_TIMES and MIN_PLUS; and GrB_vxm end to end in (b).
//  (e) --split LIST: only FP32 PLUS_TIMES GrB_mxm / GrB_mxv end to end with
//      one slot and with GRBGPU_DEVICES=LIST (issue 18), in the same run; on
//      one GPU with LIST=0,0 it measures the overhead of splitting.
// Every result is checked: (a) and (c) against a C reference on 512 sampled
// rows (and the backend against cuSPARSE everywhere), (b) against the CPU
// library's answer.  Prints a table; writes CSV (--csv FILE).
//
// Bandwidth is against the minimum bytes a product must move once: CSR
// arrays (p, i, x), X and Y (SpMM); p, i, y, A and B (SDDMM).

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <dirent.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cuda_runtime_api.h>
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>

#include "backend/grbgpu_internal.h"
#include "backend/cache/cache.h"
#include "backend/cuda/device.h"
#include "kernels/gg_cuda.h"

#define CHECK_CUDA(x) do { cudaError_t e_ = (x) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, \
    cudaGetErrorString (e_)) ; exit (2) ; } } while (0)
#define CHECK_SP(x) do { cusparseStatus_t s_ = (x) ; \
    if (s_ != CUSPARSE_STATUS_SUCCESS) { fprintf (stderr, "%s:%d: %s: %s\n", \
    __FILE__, __LINE__, #x, cusparseGetErrorString (s_)) ; exit (2) ; } } \
    while (0)

//------------------------------------------------------------------------------
// options
//------------------------------------------------------------------------------

static int scales [8] = { 18, 20 } ;
static int nscales = 2 ;
static int ns [8] = { 1, 32, 64, 128, 256 } ;
static int nns = 5 ;
static int reps = 20 ;
static const char *data_dir = NULL ;
static const char *real_filter = "" ;       // "" = none, "all", or a,b,c
static const char *csv_path = "spmm_bench.csv" ;
static bool do_e2e = true, do_sddmm = true ;
static FILE *csv ;
static int failures = 0 ;

static void parse_list (const char *s, int *out, int *n)
{
    *n = 0 ;
    while (*s && *n < 8)
    {
        out [(*n)++] = atoi (s) ;
        const char *c = strchr (s, ',') ;
        if (!c) break ;
        s = c + 1 ;
    }
}

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return t.tv_sec + 1e-9 * t.tv_nsec ;
}

static int cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double median (double *v, int n)
{
    qsort (v, n, sizeof (double), cmp_double) ;
    return (n % 2) ? v [n/2] : 0.5 * (v [n/2 - 1] + v [n/2]) ;
}

//------------------------------------------------------------------------------
// matrices
//------------------------------------------------------------------------------

typedef struct
{
    char name [64] ;
    int64_t m, k, nnz ;
    int32_t *p, *i ;
    double *v ;             // values (FP64); FP32 copies are made per run
}
csr ;

static inline uint64_t rnd (uint64_t *s)
{
    uint64_t x = (*s += 0x9e3779b97f4a7c15ull) ;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull ;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull ;
    return x ^ (x >> 31) ;
}
static inline double rnd_unit (uint64_t *s)    // [-1, 1)
{
    return (double) (rnd (s) >> 11) / 4503599627370496.0 - 1.0 ;
}

static int cmp_u64 (const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b ;
    return (x > y) - (x < y) ;
}

// (row, col) pairs packed as row << 32 | col -> sorted, deduplicated CSR
static void build_csr (csr *A, uint64_t *e, int64_t ne, int64_t m, int64_t k)
{
    qsort (e, ne, sizeof (uint64_t), cmp_u64) ;
    int64_t nz = 0 ;
    for (int64_t t = 0 ; t < ne ; t++) if (t == 0 || e [t] != e [t-1])
        e [nz++] = e [t] ;
    A->m = m ; A->k = k ; A->nnz = nz ;
    A->p = calloc (m + 1, sizeof (int32_t)) ;
    A->i = malloc (nz * sizeof (int32_t) + 4) ;
    A->v = malloc (nz * sizeof (double) + 8) ;
    for (int64_t t = 0 ; t < nz ; t++)
    {
        A->p [(e [t] >> 32) + 1]++ ;
        A->i [t] = (int32_t) (e [t] & 0xffffffffu) ;
    }
    for (int64_t r = 0 ; r < m ; r++) A->p [r+1] += A->p [r] ;
    uint64_t s = 42 ;
    for (int64_t t = 0 ; t < nz ; t++) A->v [t] = rnd_unit (&s) ;
}

static void make_rmat (csr *A, int scale)
{
    int64_t n = (int64_t) 1 << scale, ne = 16 * n ;
    uint64_t *e = malloc (ne * sizeof (uint64_t)) ;
    #pragma omp parallel for schedule(static)
    for (int64_t t = 0 ; t < ne ; t++)
    {
        uint64_t s = 0x1234567ull + (uint64_t) t * 0x9e3779b97f4a7c15ull ;
        uint64_t r = 0, c = 0 ;
        for (int b = 0 ; b < scale ; b++)
        {
            double u = (double) (rnd (&s) >> 11) / 9007199254740992.0 ;
            // quadrants: a 0.57 (0,0), b 0.19 (0,1), c 0.19 (1,0), d 0.05
            int qr = (u >= 0.76), qc = (u >= 0.57 && u < 0.76) || u >= 0.95 ;
            r = (r << 1) | qr ; c = (c << 1) | qc ;
        }
        e [t] = (r << 32) | c ;
    }
    build_csr (A, e, ne, n, n) ;
    free (e) ;
    snprintf (A->name, sizeof (A->name), "rmat%d", scale) ;
}

// Matrix Market coordinate, gzipped (read through gzip -dc); symmetric ones
// are mirrored; pattern ones get random values.
static bool read_mtx (csr *A, const char *path, const char *name)
{
    char cmd [1200] ;
    snprintf (cmd, sizeof (cmd), "gzip -dc '%s'", path) ;
    FILE *f = popen (cmd, "r") ;
    if (!f) return false ;
    char line [1024] ;
    bool sym = false, first = true ;
    int64_t m = 0, k = 0, nz = 0, ne = 0 ;
    uint64_t *e = NULL ;
    while (fgets (line, sizeof (line), f))
    {
        if (line [0] == '%')
        {
            if (first && strstr (line, "symmetric")) sym = true ;
            first = false ;
            continue ;
        }
        if (e == NULL)
        {
            if (sscanf (line, "%ld %ld %ld", &m, &k, &nz) != 3) break ;
            e = malloc ((2 * nz + 1) * sizeof (uint64_t)) ;
            continue ;
        }
        long r, c ;
        if (sscanf (line, "%ld %ld", &r, &c) != 2) continue ;
        e [ne++] = ((uint64_t) (r - 1) << 32) | (uint64_t) (c - 1) ;
        if (sym && r != c) e [ne++] = ((uint64_t) (c - 1) << 32) |
            (uint64_t) (r - 1) ;
    }
    pclose (f) ;
    if (e == NULL || ne == 0) { free (e) ; return false ; }
    build_csr (A, e, ne, m, k) ;
    free (e) ;
    snprintf (A->name, sizeof (A->name), "%.63s", name) ;
    return true ;
}

static void free_csr (csr *A) { free (A->p) ; free (A->i) ; free (A->v) ; }

//------------------------------------------------------------------------------
// reference on sampled rows
//------------------------------------------------------------------------------

// Max over sampled rows of |Y - ref| / (sum |terms| + tiny); Y row-major m x n.
static double check_rows (const csr *A, const void *vals, const void *X,
    const void *Y, int64_t n, bool fp32)
{
    double worst = 0 ;
    uint64_t s = 7 ;
    for (int t = 0 ; t < 512 && A->m > 0 ; t++)
    {
        int64_t r = (int64_t) (rnd (&s) % (uint64_t) A->m) ;
        if (A->p [r] == A->p [r+1]) continue ;
        for (int64_t j = 0 ; j < n ; j++)
        {
            double acc = 0, mag = 0 ;
            for (int32_t q = A->p [r] ; q < A->p [r+1] ; q++)
            {
                double a = fp32 ? ((const float *) vals) [q]
                    : ((const double *) vals) [q] ;
                double x = fp32 ? ((const float *) X) [A->i [q] * n + j]
                    : ((const double *) X) [A->i [q] * n + j] ;
                acc += a * x ; mag += fabs (a * x) ;
            }
            double y = fp32 ? ((const float *) Y) [r * n + j]
                : ((const double *) Y) [r * n + j] ;
            double err = fabs (y - acc) / (mag + 1e-300) ;
            if (err > worst) worst = err ;
        }
    }
    return worst ;
}

//------------------------------------------------------------------------------
// cuSPARSE directly
//------------------------------------------------------------------------------

typedef struct
{
    double ms ;
    int alg ;
}
vendor_result ;

// Best of the CSR algorithms for Y = A X (SpMV when n == 1), CUDA events,
// median of reps after 3 warm-ups.  Leaves the best result in dY.
static vendor_result vendor_spmm (cusparseHandle_t h, const csr *A,
    const int32_t *dp, const int32_t *di, const void *dv, const void *dX,
    void *dY, int64_t n, bool fp32)
{
    cudaDataType dt = fp32 ? CUDA_R_32F : CUDA_R_64F ;
    float af = 1, bf = 0 ; double ad = 1, bd = 0 ;
    const void *al = fp32 ? (void *) &af : (void *) &ad ;
    const void *be = fp32 ? (void *) &bf : (void *) &bd ;
    cusparseSpMatDescr_t sA ;
    CHECK_SP (cusparseCreateCsr (&sA, A->m, A->k, A->nnz, (void *) dp,
        (void *) di, (void *) dv, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
        CUSPARSE_INDEX_BASE_ZERO, dt)) ;
    cudaEvent_t e0, e1 ;
    CHECK_CUDA (cudaEventCreate (&e0)) ;
    CHECK_CUDA (cudaEventCreate (&e1)) ;
    vendor_result best = { 1e30, -1 } ;
    int algs_mm [3] = { CUSPARSE_SPMM_CSR_ALG1, CUSPARSE_SPMM_CSR_ALG2,
        CUSPARSE_SPMM_CSR_ALG3 } ;
    int algs_mv [2] = { CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2 } ;
    int nalg = (n == 1) ? 2 : 3 ;
    double *t = malloc (reps * sizeof (double)) ;
    for (int a = 0 ; a < nalg ; a++)
    {
        int alg = (n == 1) ? algs_mv [a] : algs_mm [a] ;
        cusparseDnMatDescr_t B = NULL, C = NULL ;
        cusparseDnVecDescr_t x = NULL, y = NULL ;
        size_t bs = 0 ;
        void *buf = NULL ;
        cusparseStatus_t st ;
        if (n == 1)
        {
            CHECK_SP (cusparseCreateDnVec (&x, A->k, (void *) dX, dt)) ;
            CHECK_SP (cusparseCreateDnVec (&y, A->m, dY, dt)) ;
            st = cusparseSpMV_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                al, sA, x, be, y, dt, alg, &bs) ;
        }
        else
        {
            CHECK_SP (cusparseCreateDnMat (&B, A->k, n, n, (void *) dX, dt,
                CUSPARSE_ORDER_ROW)) ;
            CHECK_SP (cusparseCreateDnMat (&C, A->m, n, n, dY, dt,
                CUSPARSE_ORDER_ROW)) ;
            st = cusparseSpMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, al, sA, B, be, C, dt, alg,
                &bs) ;
        }
        if (st == CUSPARSE_STATUS_SUCCESS)
        {
            CHECK_CUDA (cudaMalloc (&buf, bs + 1)) ;
            if (n == 1) st = cusparseSpMV_preprocess (h,
                CUSPARSE_OPERATION_NON_TRANSPOSE, al, sA, x, be, y, dt, alg,
                buf) ;
            else st = cusparseSpMM_preprocess (h,
                CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, al, sA, B, be, C, dt, alg,
                buf) ;
        }
        for (int r = -3 ; r < reps && st == CUSPARSE_STATUS_SUCCESS ; r++)
        {
            CHECK_CUDA (cudaEventRecord (e0, 0)) ;
            if (n == 1) st = cusparseSpMV (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                al, sA, x, be, y, dt, alg, buf) ;
            else st = cusparseSpMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, al, sA, B, be, C, dt, alg,
                buf) ;
            CHECK_CUDA (cudaEventRecord (e1, 0)) ;
            CHECK_CUDA (cudaEventSynchronize (e1)) ;
            float ms ;
            CHECK_CUDA (cudaEventElapsedTime (&ms, e0, e1)) ;
            if (r >= 0) t [r] = ms ;
        }
        if (st == CUSPARSE_STATUS_SUCCESS)
        {
            double md = median (t, reps) ;
            if (md < best.ms) { best.ms = md ; best.alg = alg ; }
        }
        else fprintf (stderr, "  cusparse alg %d n %ld: %s\n", alg, (long) n,
            cusparseGetErrorString (st)) ;
        if (buf) cudaFree (buf) ;
        if (B) cusparseDestroyDnMat (B) ;
        if (C) cusparseDestroyDnMat (C) ;
        if (x) cusparseDestroyDnVec (x) ;
        if (y) cusparseDestroyDnVec (y) ;
    }
    free (t) ;
    cusparseDestroySpMat (sA) ;
    cudaEventDestroy (e0) ; cudaEventDestroy (e1) ;
    return best ;
}

//------------------------------------------------------------------------------
// (a) + (c): the backend vs cuSPARSE
//------------------------------------------------------------------------------

static uint64_t handle_seq = 1 ;

static gg_cache_entry *entry (void)
{
    gg_cache_key key = { .handle = (const void *) (uintptr_t) (0x10000 *
        handle_seq++), .version = 1, .form = 1 } ;
    return grbgpu_cache_insert (&key, malloc (8), 8, free) ;
}

// Device copies of a CSR's arrays, values in the bench type; returns those
// values on the host (the caller frees them).
static void *csr_to_device (const csr *A, bool fp32, int32_t **dp, int32_t **di,
    void **dv)
{
    size_t es = fp32 ? 4 : 8 ;
    void *vals = malloc (A->nnz * es + 8) ;
    for (int64_t q = 0 ; q < A->nnz ; q++)
    {
        if (fp32) ((float *) vals) [q] = (float) A->v [q] ;
        else ((double *) vals) [q] = A->v [q] ;
    }
    CHECK_CUDA (cudaMalloc ((void **) dp, (A->m + 1) * 4)) ;
    CHECK_CUDA (cudaMalloc ((void **) di, A->nnz * 4 + 4)) ;
    CHECK_CUDA (cudaMalloc (dv, A->nnz * es + 8)) ;
    CHECK_CUDA (cudaMemcpy (*dp, A->p, (A->m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CHECK_CUDA (cudaMemcpy (*di, A->i, A->nnz * 4, cudaMemcpyHostToDevice)) ;
    CHECK_CUDA (cudaMemcpy (*dv, vals, A->nnz * es, cudaMemcpyHostToDevice)) ;
    return vals ;
}

static void bench_kernel (const gg_backend *b, cusparseHandle_t h,
    const csr *A, bool fp32)
{
    size_t es = fp32 ? 4 : 8 ;
    gg_type t = fp32 ? GG_FP32 : GG_FP64 ;
    // device copies for the direct cuSPARSE calls; vals for the backend
    int32_t *dp, *di ; void *dv ;
    void *vals = csr_to_device (A, fp32, &dp, &di, &dv) ;
    gg_cache_entry *eS = entry () ;
    int64_t max_row = 0 ;       // as formats/convert.c records it
    for (int64_t r = 0 ; r < A->m ; r++)
    {
        if (A->p [r+1] - A->p [r] > max_row) max_row = A->p [r+1] - A->p [r] ;
    }
    gg_csr S = { .nrows = A->m, .ncols = A->k, .nnz = A->nnz, .p32 = A->p,
        .i32 = A->i, .x = vals, .max_row = max_row, .cache = eS } ;

    for (int ni = 0 ; ni < nns ; ni++)
    {
        int64_t n = ns [ni] ;
        size_t xb = (size_t) A->k * n * es, yb = (size_t) A->m * n * es ;
        void *X = malloc (xb), *Y = malloc (yb), *Yv = malloc (yb) ;
        uint64_t s = 99 + n ;
        for (size_t q = 0 ; q < (size_t) A->k * n ; q++)
        {
            if (fp32) ((float *) X) [q] = (float) rnd_unit (&s) ;
            else ((double *) X) [q] = rnd_unit (&s) ;
        }
        void *dX, *dY ;
        if (cudaMalloc (&dX, xb) != cudaSuccess ||
            cudaMalloc (&dY, yb) != cudaSuccess)
        {
            cudaGetLastError () ;
            printf ("%-16s %s N=%-4ld skipped: no device memory for X, Y\n",
                A->name, fp32 ? "fp32" : "fp64", (long) n) ;
            free (X) ; free (Y) ; free (Yv) ;
            continue ;
        }
        CHECK_CUDA (cudaMemcpy (dX, X, xb, cudaMemcpyHostToDevice)) ;
        vendor_result vr = vendor_spmm (h, A, dp, di, dv, dX, dY, n, fp32) ;
        CHECK_CUDA (cudaMemcpy (Yv, dY, yb, cudaMemcpyDeviceToHost)) ;
        cudaFree (dX) ; cudaFree (dY) ;

        // the backend: first call uploads S (and X, cached here)
        gg_cache_entry *eX = entry () ;
        gg_dense Xd = { .nrows = A->k, .ncols = n, .x = X, .cache = eX } ;
        gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, t } ;
        grbgpu_stats s0, s1 ;
        grbgpu_stats_get (&s0) ;
        double t0 = now () ;
        int rc = b->spmm (&sr, &S, &Xd, Y) ;
        double first = now () - t0 ;
        grbgpu_stats_get (&s1) ;
        double *tk = malloc (reps * sizeof (double)) ;
        double *tc = malloc (reps * sizeof (double)) ;
        grbgpu_cuda_timing (true) ;
        for (int r = -3 ; r < reps && rc == GG_OK ; r++)
        {
            t0 = now () ;
            rc = b->spmm (&sr, &S, &Xd, Y) ;
            double call = now () - t0 ;
            if (r >= 0) { tk [r] = grbgpu_cuda_last_product_ms () ;
                tc [r] = 1e3 * call ; }
        }
        grbgpu_cuda_timing (false) ;
        double kms = rc == GG_OK ? median (tk, reps) : NAN ;
        double cms = rc == GG_OK ? median (tc, reps) : NAN ;
        free (tk) ; free (tc) ;

        // checks: reference on sampled rows, and the backend vs cuSPARSE
        double err = (rc == GG_OK) ? check_rows (A, vals, X, Y, n, fp32) : 1 ;
        double diff = 0 ;
        for (int64_t r = 0 ; r < A->m && rc == GG_OK ; r++)
        {
            if (A->p [r] == A->p [r+1]) continue ;
            for (int64_t j = 0 ; j < n ; j++)
            {
                double y = fp32 ? ((float *) Y) [r*n+j] : ((double *) Y) [r*n+j] ;
                double v = fp32 ? ((float *) Yv) [r*n+j] : ((double *) Yv) [r*n+j] ;
                double d = fabs (y - v) / (fabs (v) + 1) ;
                if (d > diff) diff = d ;
            }
        }
        double tol = fp32 ? 1e-4 : 1e-12 ;
        bool ok = rc == GG_OK && err <= tol && diff <= tol * 10 ;
        if (!ok) failures++ ;
        double minb = (double) (A->m + 1) * 4 + (double) A->nnz * (4 + es)
            + (double) xb + (double) yb ;
        double flops = 2.0 * A->nnz * n ;
        double up = (double) (s1.bytes_h2d - s0.bytes_h2d) ;
        double upsec = s1.h2d_seconds - s0.h2d_seconds ;
        printf ("%-16s %s N=%-4ld kernel %8.3f ms %7.1f GB/s %7.1f GF/s | "
            "cusparse(alg %2d) %8.3f ms  x%.2f | call warm %8.2f first %8.2f ms"
            " | up %7.1f MB %5.1f GB/s | %s err %.1e\n", A->name,
            fp32 ? "fp32" : "fp64", (long) n, kms, minb / kms / 1e6,
            flops / kms / 1e6, vr.alg, vr.ms, vr.ms / kms, cms, 1e3 * first,
            up / 1e6, upsec > 0 ? up / upsec / 1e9 : 0, ok ? "ok" : "WRONG",
            err) ;
        fprintf (csv, "spmm,%s,%ld,%ld,%ld,%s,%ld,%.4f,%.4f,%d,%.4f,%.4f,"
            "%.1f,%.1f,%.0f,%.3f,%s,%.3g\n", A->name, (long) A->m, (long) A->k,
            (long) A->nnz, fp32 ? "fp32" : "fp64", (long) n, kms, vr.ms,
            vr.alg, cms, 1e3 * first, minb / kms / 1e6, flops / kms / 1e6,
            up, upsec > 0 ? up / upsec / 1e9 : 0, ok ? "ok" : "WRONG", err) ;
        fflush (stdout) ; fflush (csv) ;
        grbgpu_cache_release (eX) ;
        grbgpu_cache_invalidate (eX->key.handle) ;
        free (X) ; free (Y) ; free (Yv) ;
    }
    grbgpu_cache_release (eS) ;
    grbgpu_cache_clear () ;
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dv) ;
    free (vals) ;
}

// SDDMM: y = (A B') .* spy (M), A: m x K, B: k x K.
static void bench_sddmm (const gg_backend *b, cusparseHandle_t h,
    const csr *M, bool fp32)
{
    size_t es = fp32 ? 4 : 8 ;
    gg_type t = fp32 ? GG_FP32 : GG_FP64 ;
    cudaDataType dt = fp32 ? CUDA_R_32F : CUDA_R_64F ;
    gg_cache_entry *eM = entry () ;
    gg_csr Mv = { .nrows = M->m, .ncols = M->k, .nnz = M->nnz, .p32 = M->p,
        .i32 = M->i, .cache = eM } ;
    int32_t *dp, *di ;
    CHECK_CUDA (cudaMalloc ((void **) &dp, (M->m + 1) * 4)) ;
    CHECK_CUDA (cudaMalloc ((void **) &di, M->nnz * 4 + 4)) ;
    CHECK_CUDA (cudaMemcpy (dp, M->p, (M->m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CHECK_CUDA (cudaMemcpy (di, M->i, M->nnz * 4, cudaMemcpyHostToDevice)) ;
    for (int ni = 0 ; ni < nns ; ni++)
    {
        int64_t K = ns [ni] ;
        if (K == 1) continue ;
        size_t ab = (size_t) M->m * K * es, bb = (size_t) M->k * K * es ;
        size_t yb = (size_t) M->nnz * es ;
        void *A = malloc (ab), *B = malloc (bb), *y = malloc (yb + 8) ;
        uint64_t s = 5 + K ;
        for (size_t q = 0 ; q < ab / es ; q++)
            { if (fp32) ((float *) A) [q] = rnd_unit (&s) ; else ((double *) A) [q] = rnd_unit (&s) ; }
        for (size_t q = 0 ; q < bb / es ; q++)
            { if (fp32) ((float *) B) [q] = rnd_unit (&s) ; else ((double *) B) [q] = rnd_unit (&s) ; }
        gg_cache_entry *eA = entry (), *eB = entry () ;
        gg_dense Ad = { .nrows = M->m, .ncols = K, .x = A, .cache = eA } ;
        gg_dense Bd = { .nrows = M->k, .ncols = K, .x = B, .cache = eB } ;
        gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, t } ;
        double t0 = now () ;
        int rc = b->sddmm (&sr, &Mv, &Ad, &Bd, y) ;
        double first = now () - t0 ;
        double *tk = malloc (reps * sizeof (double)) ;
        grbgpu_cuda_timing (true) ;
        for (int r = -3 ; r < reps && rc == GG_OK ; r++)
        {
            rc = b->sddmm (&sr, &Mv, &Ad, &Bd, y) ;
            if (r >= 0) tk [r] = grbgpu_cuda_last_product_ms () ;
        }
        grbgpu_cuda_timing (false) ;
        double kms = rc == GG_OK ? median (tk, reps) : NAN ;

        // cuSPARSE directly
        void *dA, *dB, *dy, *buf ;
        CHECK_CUDA (cudaMalloc (&dA, ab)) ;
        CHECK_CUDA (cudaMalloc (&dB, bb)) ;
        CHECK_CUDA (cudaMalloc (&dy, yb + 8)) ;
        CHECK_CUDA (cudaMemcpy (dA, A, ab, cudaMemcpyHostToDevice)) ;
        CHECK_CUDA (cudaMemcpy (dB, B, bb, cudaMemcpyHostToDevice)) ;
        cusparseDnMatDescr_t dAd, dBd ;
        cusparseSpMatDescr_t C ;
        CHECK_SP (cusparseCreateDnMat (&dAd, M->m, K, K, dA, dt, CUSPARSE_ORDER_ROW)) ;
        CHECK_SP (cusparseCreateDnMat (&dBd, K, M->k, K, dB, dt, CUSPARSE_ORDER_COL)) ;
        CHECK_SP (cusparseCreateCsr (&C, M->m, M->k, M->nnz, dp, di, dy,
            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt)) ;
        float af = 1, bf = 0 ; double ad = 1, bd = 0 ;
        const void *al = fp32 ? (void *) &af : (void *) &ad ;
        const void *be = fp32 ? (void *) &bf : (void *) &bd ;
        size_t bs = 0 ;
        CHECK_SP (cusparseSDDMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, al, dAd, dBd, be, C, dt,
            CUSPARSE_SDDMM_ALG_DEFAULT, &bs)) ;
        CHECK_CUDA (cudaMalloc (&buf, bs + 1)) ;
        cudaEvent_t e0, e1 ;
        CHECK_CUDA (cudaEventCreate (&e0)) ; CHECK_CUDA (cudaEventCreate (&e1)) ;
        double *tv = malloc (reps * sizeof (double)) ;
        for (int r = -3 ; r < reps ; r++)
        {
            CHECK_CUDA (cudaEventRecord (e0, 0)) ;
            CHECK_SP (cusparseSDDMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, al, dAd, dBd, be, C, dt,
                CUSPARSE_SDDMM_ALG_DEFAULT, buf)) ;
            CHECK_CUDA (cudaEventRecord (e1, 0)) ;
            CHECK_CUDA (cudaEventSynchronize (e1)) ;
            float ms ; CHECK_CUDA (cudaEventElapsedTime (&ms, e0, e1)) ;
            if (r >= 0) tv [r] = ms ;
        }
        double vms = median (tv, reps) ;

        // check on sampled rows
        double worst = (rc == GG_OK) ? 0 : 1 ;
        uint64_t ss = 3 ;
        for (int u = 0 ; u < 512 && rc == GG_OK ; u++)
        {
            int64_t r = (int64_t) (rnd (&ss) % (uint64_t) M->m) ;
            for (int32_t q = M->p [r] ; q < M->p [r+1] ; q++)
            {
                double acc = 0, mag = 0 ;
                for (int64_t kk = 0 ; kk < K ; kk++)
                {
                    double a = fp32 ? ((float *) A) [r*K+kk] : ((double *) A) [r*K+kk] ;
                    double bv = fp32 ? ((float *) B) [M->i [q]*K+kk] : ((double *) B) [M->i [q]*K+kk] ;
                    acc += a * bv ; mag += fabs (a * bv) ;
                }
                double g = fp32 ? ((float *) y) [q] : ((double *) y) [q] ;
                double e = fabs (g - acc) / (mag + 1e-300) ;
                if (e > worst) worst = e ;
            }
        }
        bool ok = worst <= (fp32 ? 1e-5 : 1e-13) ;
        if (!ok) failures++ ;
        double minb = (double) (M->m + 1) * 4 + (double) M->nnz * (4 + es)
            + (double) ab + (double) bb ;
        printf ("%-16s %s K=%-4ld sddmm  %8.3f ms %7.1f GB/s %7.1f GF/s | "
            "cusparse %8.3f ms  x%.2f | first call %8.2f ms | %s err %.1e\n",
            M->name, fp32 ? "fp32" : "fp64", (long) K, kms, minb / kms / 1e6,
            2.0 * M->nnz * K / kms / 1e6, vms, vms / kms, 1e3 * first,
            ok ? "ok" : "WRONG", worst) ;
        fprintf (csv, "sddmm,%s,%ld,%ld,%ld,%s,%ld,%.4f,%.4f,0,,%.4f,%.1f,%.1f,"
            ",,%s,%.3g\n", M->name, (long) M->m, (long) M->k, (long) M->nnz,
            fp32 ? "fp32" : "fp64", (long) K, kms, vms, 1e3 * first,
            minb / kms / 1e6, 2.0 * M->nnz * K / kms / 1e6, ok ? "ok" : "WRONG",
            worst) ;
        fflush (stdout) ;
        free (tk) ; free (tv) ;
        cusparseDestroyDnMat (dAd) ; cusparseDestroyDnMat (dBd) ;
        cusparseDestroySpMat (C) ;
        cudaFree (dA) ; cudaFree (dB) ; cudaFree (dy) ; cudaFree (buf) ;
        cudaEventDestroy (e0) ; cudaEventDestroy (e1) ;
        grbgpu_cache_release (eA) ; grbgpu_cache_release (eB) ;
        grbgpu_cache_invalidate (eA->key.handle) ;
        grbgpu_cache_invalidate (eB->key.handle) ;
        free (A) ; free (B) ; free (y) ;
    }
    grbgpu_cache_release (eM) ;
    grbgpu_cache_clear () ;
    cudaFree (dp) ; cudaFree (di) ;
}

//------------------------------------------------------------------------------
// (d): vxm, pull on A' vs push from A
//------------------------------------------------------------------------------

// A' as a CSR (counting sort by column; values follow their entries)
static void transpose_csr (const csr *A, csr *T)
{
    T->m = A->k ; T->k = A->m ; T->nnz = A->nnz ;
    snprintf (T->name, sizeof (T->name), "%.60s'", A->name) ;
    T->p = calloc (A->k + 1, sizeof (int32_t)) ;
    T->i = malloc (A->nnz * sizeof (int32_t) + 4) ;
    T->v = malloc (A->nnz * sizeof (double) + 8) ;
    for (int64_t q = 0 ; q < A->nnz ; q++) T->p [A->i [q] + 1]++ ;
    for (int64_t j = 0 ; j < A->k ; j++) T->p [j+1] += T->p [j] ;
    int32_t *next = malloc ((A->k + 1) * sizeof (int32_t)) ;
    memcpy (next, T->p, (A->k + 1) * sizeof (int32_t)) ;
    for (int64_t r = 0 ; r < A->m ; r++)
        for (int32_t q = A->p [r] ; q < A->p [r+1] ; q++)
        {
            int32_t d = next [A->i [q]]++ ;
            T->i [d] = (int32_t) r ;
            T->v [d] = A->v [q] ;
        }
    free (next) ;
}

// median time (ms, CUDA events) of `call` after 3 warm-ups; < 0: it failed
#define TIME_DEVICE(ms, call) do {                                           \
    double *t_ = malloc (reps * sizeof (double)) ; (ms) = -1 ;               \
    cudaEvent_t a_, b_ ;                                                     \
    CHECK_CUDA (cudaEventCreate (&a_)) ; CHECK_CUDA (cudaEventCreate (&b_)) ;\
    int r_ ;                                                                 \
    for (r_ = -3 ; r_ < reps ; r_++) {                                       \
        CHECK_CUDA (cudaEventRecord (a_, 0)) ;                               \
        if ((call) != 0) break ;                                             \
        CHECK_CUDA (cudaEventRecord (b_, 0)) ;                               \
        CHECK_CUDA (cudaEventSynchronize (b_)) ;                             \
        float f_ ; CHECK_CUDA (cudaEventElapsedTime (&f_, a_, b_)) ;         \
        if (r_ >= 0) t_ [r_] = f_ ; }                                        \
    CHECK_CUDA (cudaDeviceSynchronize ()) ;                                  \
    if (r_ == reps) (ms) = median (t_, reps) ;                               \
    cudaEventDestroy (a_) ; cudaEventDestroy (b_) ; free (t_) ; } while (0)

// cuSPARSE y = A' x from A's CSR (opA = TRANSPOSE): descriptors and buffer
// made once (vspt_make), then only the product is timed (vspt_run)
typedef struct
{
    cusparseSpMatDescr_t sA ;
    cusparseDnVecDescr_t x, y ;
    cudaDataType dt ;
    int alg ;
    void *buf ;
}
vendor_spmv_t ;

static bool vspt_make (vendor_spmv_t *v, cusparseHandle_t h, const csr *A,
    int32_t *dp, int32_t *di, void *dv, void *du, void *dw, bool fp32, int alg)
{
    memset (v, 0, sizeof (*v)) ;
    v->dt = fp32 ? CUDA_R_32F : CUDA_R_64F ;
    v->alg = alg ;
    double one = 1, zero = 0 ; float onef = 1, zerof = 0 ;
    size_t bs = 0 ;
    CHECK_SP (cusparseCreateCsr (&v->sA, A->m, A->k, A->nnz, dp, di, dv,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
        v->dt)) ;
    CHECK_SP (cusparseCreateDnVec (&v->x, A->m, du, v->dt)) ;
    CHECK_SP (cusparseCreateDnVec (&v->y, A->k, dw, v->dt)) ;
    if (cusparseSpMV_bufferSize (h, CUSPARSE_OPERATION_TRANSPOSE,
        fp32 ? (void *) &onef : (void *) &one, v->sA, v->x,
        fp32 ? (void *) &zerof : (void *) &zero, v->y, v->dt, alg, &bs)
        != CUSPARSE_STATUS_SUCCESS) return false ;
    CHECK_CUDA (cudaMalloc (&v->buf, bs + 16)) ;
    return true ;
}

static int vspt_run (vendor_spmv_t *v, cusparseHandle_t h)
{
    double one = 1, zero = 0 ; float onef = 1, zerof = 0 ;
    bool f = (v->dt == CUDA_R_32F) ;
    return cusparseSpMV (h, CUSPARSE_OPERATION_TRANSPOSE,
        f ? (void *) &onef : (void *) &one, v->sA, v->x,
        f ? (void *) &zerof : (void *) &zero, v->y, v->dt, v->alg, v->buf)
        != CUSPARSE_STATUS_SUCCESS ;
}

static void vspt_free (vendor_spmv_t *v)
{
    if (v->buf) cudaFree (v->buf) ;
    if (v->x) cusparseDestroyDnVec (v->x) ;
    if (v->y) cusparseDestroyDnVec (v->y) ;
    if (v->sA) cusparseDestroySpMat (v->sA) ;
}

// max |a - b| / (|b| + 1) over k values
static double vec_diff (const void *a, const void *b, int64_t k, bool fp32)
{
    double d = 0 ;
    for (int64_t j = 0 ; j < k ; j++)
    {
        double x = fp32 ? ((const float *) a) [j] : ((const double *) a) [j] ;
        double y = fp32 ? ((const float *) b) [j] : ((const double *) b) [j] ;
        // both NaN: equal (MIN / MAX kernels start from NaN, so a column
        // without entries holds it in both results; a NaN on one side only
        // is an error, and NaN compares false below)
        double e = (x == y || (isnan (x) && isnan (y))) ? 0 : fabs (x - y) / (fabs (y) + 1) ;
        if (!(e <= d)) d = e ;
    }
    return d ;
}

static void bench_vxm (cusparseHandle_t h, const csr *A, bool fp32)
{
    size_t es = fp32 ? 4 : 8 ;
    csr At ;
    double t0 = now () ;
    transpose_csr (A, &At) ;
    double ttr = now () - t0 ;
    int32_t *dp, *di, *dpt, *dit ;
    void *dv, *dvt, *du, *dw ;
    free (csr_to_device (A, fp32, &dp, &di, &dv)) ;
    free (csr_to_device (&At, fp32, &dpt, &dit, &dvt)) ;
    void *u = malloc (A->m * es + 8), *w1 = malloc (A->k * es + 8),
        *w2 = malloc (A->k * es + 8) ;
    uint64_t s = 7 ;
    for (int64_t r = 0 ; r < A->m ; r++)
    {
        if (fp32) ((float *) u) [r] = (float) rnd_unit (&s) ;
        else ((double *) u) [r] = rnd_unit (&s) ;
    }
    CHECK_CUDA (cudaMalloc (&du, A->m * es + 8)) ;
    CHECK_CUDA (cudaMalloc (&dw, A->k * es + 8)) ;
    CHECK_CUDA (cudaMemcpy (du, u, A->m * es, cudaMemcpyHostToDevice)) ;
    int64_t max_row_t = 0 ;
    for (int64_t j = 0 ; j < At.m ; j++)
        if (At.p [j+1] - At.p [j] > max_row_t) max_row_t = At.p [j+1] - At.p [j] ;
    const char *pull_k = gg_cuda_spmm_choose (At.m, 1, At.nnz, max_row_t) ;
    gg_type t = fp32 ? GG_FP32 : GG_FP64 ;
    for (int sri = 0 ; sri < 2 ; sri++)
    {
        gg_semiring sr = { sri ? GG_ADD_MIN : GG_ADD_PLUS,
            sri ? GG_MUL_PLUS : GG_MUL_TIMES, t } ;
        double pull, push, vpull = -1, vpush = -1 ;
        int vpull_alg = -1, vpush_alg = -1 ;
        // the pull: our kernel on A' (columns without entries: identity)
        TIME_DEVICE (pull, gg_cuda_spmm (&sr, At.m, At.k, 1, At.nnz, dpt, dit,
            dvt, false, du, dw, pull_k, 0)) ;
        CHECK_CUDA (cudaMemcpy (w1, dw, A->k * es, cudaMemcpyDeviceToHost)) ;
        TIME_DEVICE (push, gg_cuda_spmv_push (&sr, A->m, A->k, A->nnz, dp, di,
            dv, false, du, dw, 0)) ;
        CHECK_CUDA (cudaMemcpy (w2, dw, A->k * es, cudaMemcpyDeviceToHost)) ;
        // the pull kernel leaves rows of A' without entries unwritten: compare
        // where A' has entries
        for (int64_t j = 0 ; j < At.m ; j++) if (At.p [j] == At.p [j+1])
            memcpy ((char *) w1 + j * es, (char *) w2 + j * es, es) ;
        double err = vec_diff (w2, w1, A->k, fp32) ;
        if (sri == 0)
        {
            vendor_result vr = vendor_spmm (h, &At, dpt, dit, dvt, du, dw, 1,
                fp32) ;
            vpull = vr.ms ; vpull_alg = vr.alg ;
            int algs [2] = { CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2 } ;
            for (int a = 0 ; a < 2 ; a++)
            {
                vendor_spmv_t v ;
                double ms = -1 ;
                if (vspt_make (&v, h, A, dp, di, dv, du, dw, fp32, algs [a]))
                    TIME_DEVICE (ms, vspt_run (&v, h)) ;
                vspt_free (&v) ;
                if (ms > 0 && (vpush < 0 || ms < vpush)) { vpush = ms ; vpush_alg = algs [a] ; }
            }
        }
        // push (atomics, any order) against pull: two FP32 summation orders
        // of columns with up to ~10^6 positive terms (R-MAT 2^22) differ by
        // ~sqrt (terms) ulps of the sum, 1.1e-4 relative measured once
        bool ok = err <= (fp32 ? 1e-3 : 1e-12) ;
        if (!ok) failures++ ;
        double minb = (double) (A->m + 1) * 4 + (double) A->nnz * (4 + es)
            + (double) (A->m + A->k) * es ;
        printf ("%-16s %s N=1    vxm %-10s pull %s %8.4f ms %7.1f GB/s | push "
            "%8.4f ms (x%.2f of pull) | cusparse pull %8.4f (alg %d) push "
            "%8.4f (alg %d) | transpose on host %.1f ms | %s err %.1e\n",
            A->name, fp32 ? "fp32" : "fp64", sri ? "min_plus" : "plus_times",
            pull_k, pull, minb / pull / 1e6, push, push / pull, vpull,
            vpull_alg, vpush, vpush_alg, 1e3 * ttr, ok ? "ok" : "WRONG", err) ;
        fprintf (csv, "vxm_%s,%s,%ld,%ld,%ld,%s,1,%.4f,%.4f,%d,%.4f,,%.1f,,,"
            ",%s,%.3g,,,,%s\n", sri ? "min_plus" : "plus_times", A->name,
            (long) A->m, (long) A->k, (long) A->nnz, fp32 ? "fp32" : "fp64",
            pull, vpull, vpull_alg, push, minb / pull / 1e6, ok ? "ok" :
            "WRONG", err, pull_k) ;
        fflush (stdout) ;
    }
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dv) ;
    cudaFree (dpt) ; cudaFree (dit) ; cudaFree (dvt) ;
    cudaFree (du) ; cudaFree (dw) ;
    free (u) ; free (w1) ; free (w2) ;
    free_csr (&At) ;
}

//------------------------------------------------------------------------------
// (b): GrB_mxm / GrB_mxv through grbgpu vs the CPU library
//------------------------------------------------------------------------------

#ifdef GG_BENCH_E2E
#define GRB_OK(x) do { GrB_Info i_ = (x) ; if (i_ != GrB_SUCCESS) { \
    fprintf (stderr, "%s:%d: %s: %d\n", __FILE__, __LINE__, #x, i_) ; \
    exit (2) ; } } while (0)

// max |C1 - C2| / (|C2| + 1) over the entries of two matrices of one shape;
// 1e30 when their patterns differ
static double compare_matrices (GrB_Matrix C1, GrB_Matrix C2, GrB_Type T)
{
    GrB_Index n1, n2 ;
    GRB_OK (GrB_Matrix_nvals (&n1, C1)) ;
    GRB_OK (GrB_Matrix_nvals (&n2, C2)) ;
    if (n1 != n2) return 1e30 ;
    GrB_Matrix D ;
    GrB_Index nr, nc ;
    GRB_OK (GrB_Matrix_nrows (&nr, C1)) ;
    GRB_OK (GrB_Matrix_ncols (&nc, C1)) ;
    GRB_OK (GrB_Matrix_new (&D, GrB_FP64, nr, nc)) ;
    // D = C1 - C2 on the union: pattern differences show up as nvals growth
    GRB_OK (GrB_Matrix_eWiseAdd_BinaryOp (D, NULL, NULL,
        (T == GrB_FP32) ? GrB_MINUS_FP32 : GrB_MINUS_FP64, C1, C2, NULL)) ;
    GrB_Index nd ;
    GRB_OK (GrB_Matrix_nvals (&nd, D)) ;
    double worst = 0 ;
    if (nd != n1) worst = 1e30 ;
    else
    {
        GrB_Matrix R ;
        GRB_OK (GrB_Matrix_new (&R, GrB_FP64, nr, nc)) ;
        GRB_OK (GrB_Matrix_apply (R, NULL, NULL, GrB_ABS_FP64, D, NULL)) ;
        GRB_OK (GrB_Matrix_reduce_FP64 (&worst, NULL, GrB_MAX_MONOID_FP64, R,
            NULL)) ;
        double big = 0 ;
        GRB_OK (GrB_Matrix_apply (R, NULL, NULL, GrB_ABS_FP64, C2, NULL)) ;
        GRB_OK (GrB_Matrix_reduce_FP64 (&big, NULL, GrB_MAX_MONOID_FP64, R,
            NULL)) ;
        worst /= (big + 1e-300) ;
        GrB_Matrix_free (&R) ;
    }
    GrB_Matrix_free (&D) ;
    return worst ;
}

// A as a GraphBLAS matrix (built from tuples: a copy the library owns)
static GrB_Matrix grb_of (const csr *A, bool fp32)
{
    GrB_Type T = fp32 ? GrB_FP32 : GrB_FP64 ;
    GrB_Matrix G ;
    GRB_OK (GrB_Matrix_new (&G, T, A->m, A->k)) ;
    GrB_Index *I = malloc (A->nnz * sizeof (GrB_Index) + 8) ;
    GrB_Index *J = malloc (A->nnz * sizeof (GrB_Index) + 8) ;
    for (int64_t r = 0 ; r < A->m ; r++)
        for (int32_t q = A->p [r] ; q < A->p [r+1] ; q++)
            { I [q] = r ; J [q] = A->i [q] ; }
    if (fp32)
    {
        float *v = malloc (A->nnz * 4 + 4) ;
        for (int64_t q = 0 ; q < A->nnz ; q++) v [q] = (float) A->v [q] ;
        GRB_OK (GrB_Matrix_build_FP32 (G, I, J, v, A->nnz, GrB_PLUS_FP32)) ;
        free (v) ;
    }
    else GRB_OK (GrB_Matrix_build_FP64 (G, I, J, A->v, A->nnz, GrB_PLUS_FP64)) ;
    free (I) ; free (J) ;
    GRB_OK (GrB_Matrix_wait (G, GrB_MATERIALIZE)) ;
    return G ;
}

static void bench_e2e (const csr *A, bool fp32)
{
    GrB_Type T = fp32 ? GrB_FP32 : GrB_FP64 ;
    GrB_Semiring sr_times = fp32 ? GrB_PLUS_TIMES_SEMIRING_FP32
        : GrB_PLUS_TIMES_SEMIRING_FP64 ;
    size_t es = fp32 ? 4 : 8 ;
    GrB_Matrix G = grb_of (A, fp32) ;

    // mxv (N=1) runs three ways: PLUS_TIMES with u unchanged between calls,
    // PLUS_SECOND (PageRank's semiring) likewise, and PLUS_SECOND with u
    // changed before every call (PageRank's pattern: u is uploaded each time);
    // then GrB_vxm PLUS_TIMES (w = u' A: A' is made on the device from the CSR of A
    // the mxv rows left there; bench/vxm_bench times a first call on a new A)
    for (int ni = 0 ; ni < nns ; ni++)
    for (int variant = 0 ; variant < (ns [ni] == 1 ? 4 : 1) ; variant++)
    {
        int64_t n = ns [ni] ;
        const bool vxm = (variant == 3) ;
        GrB_Semiring sr = (variant == 0 || vxm) ? sr_times : (fp32
            ? GxB_PLUS_SECOND_FP32 : GxB_PLUS_SECOND_FP64) ;
        const bool touch_u = (variant == 2) ;
        const char *srname = (variant == 0 || vxm) ? "plus_times" : touch_u
            ? "plus_second_new_u" : "plus_second" ;
        const int64_t ulen = vxm ? A->m : A->k, ylen = vxm ? A->k : A->m ;
        // B: k x n dense, held full by rows
        GrB_Matrix B, C1, C2 ;
        GrB_Vector x = NULL, y1 = NULL, y2 = NULL ;
        void *Bx = malloc ((size_t) A->k * n * es) ;
        uint64_t s = 11 + n ;
        for (size_t q = 0 ; q < (size_t) A->k * n ; q++)
        {
            if (fp32) ((float *) Bx) [q] = (float) rnd_unit (&s) ;
            else ((double *) Bx) [q] = rnd_unit (&s) ;
        }
        GRB_OK (GrB_Matrix_new (&B, T, A->k, n)) ;
        GRB_OK (GxB_Matrix_pack_FullR (B, &Bx, (GrB_Index) A->k * n * es, false,
            NULL)) ;
        GRB_OK (GrB_Matrix_new (&C1, T, A->m, n)) ;
        GRB_OK (GrB_Matrix_new (&C2, T, A->m, n)) ;
        if (n == 1)
        {
            GRB_OK (GrB_Vector_new (&x, T, ulen)) ;
            GRB_OK (GrB_Vector_new (&y1, T, ylen)) ;
            GRB_OK (GrB_Vector_new (&y2, T, ylen)) ;
            if (!vxm) GRB_OK (GrB_Col_extract (x, NULL, NULL, B, GrB_ALL,
                A->k, 0, NULL)) ;
            else
            {
                void *ux = malloc (ulen * es + 8) ;
                for (int64_t q = 0 ; q < ulen ; q++)
                {
                    if (fp32) ((float *) ux) [q] = (float) rnd_unit (&s) ;
                    else ((double *) ux) [q] = rnd_unit (&s) ;
                }
                GRB_OK (GxB_Vector_pack_Full (x, &ux, ulen * es, false, NULL)) ;
            }
        }
        #define TOUCH_U() do { if (touch_u) GRB_OK (fp32 \
            ? GrB_Vector_setElement_FP32 (x, (float) (r + 1), 0) \
            : GrB_Vector_setElement_FP64 (x, (double) (r + 1), 0)) ; } while (0)
        #define PRODUCT(Cx, yx) ((n == 1) ? (vxm \
            ? GrB_vxm (yx, NULL, NULL, sr, x, G, NULL) \
            : GrB_mxv (yx, NULL, NULL, sr, G, x, NULL)) \
            : GrB_mxm (Cx, NULL, NULL, sr, G, B, NULL))

        // the CPU library
        grbgpu_set ("DEVICE", "cpu") ;
        GRB_OK (PRODUCT (C2, y2)) ;            // warm-up
        double tcpu [3] ;
        for (int r = 0 ; r < 3 ; r++)
        {
            TOUCH_U () ;
            if (x) GRB_OK (GrB_Vector_wait (x, GrB_MATERIALIZE)) ;
            double t0 = now () ;
            GRB_OK (PRODUCT (C2, y2)) ;
            tcpu [r] = now () - t0 ;
        }
        // grbgpu: first call converts and uploads A
        grbgpu_set ("DEVICE", "cuda") ;
        grbgpu_stats st0, st1, st2 ;
        grbgpu_stats_get (&st0) ;
        double t0 = now () ;
        GRB_OK (PRODUCT (C1, y1)) ;
        double first = now () - t0 ;
        grbgpu_stats_get (&st1) ;
        const char *dec = grbgpu_last_decision () ;
        char decision [64] ;
        snprintf (decision, sizeof (decision), "%s", dec ? dec : "?") ;
        double tw [5] ;
        for (int r = 0 ; r < 5 ; r++)
        {
            TOUCH_U () ;
            if (x) GRB_OK (GrB_Vector_wait (x, GrB_MATERIALIZE)) ;
            t0 = now () ;
            GRB_OK (PRODUCT (C1, y1)) ;
            tw [r] = now () - t0 ;
        }
        grbgpu_stats_get (&st2) ;
        if (touch_u)
        {
            // u changed after the CPU library's last call: its reference again
            grbgpu_set ("DEVICE", "cpu") ;
            GRB_OK (PRODUCT (C2, y2)) ;
            grbgpu_set ("DEVICE", "cuda") ;
        }
        double err ;
        if (n == 1)
        {
            GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
            GRB_OK (GrB_Matrix_new (&C1, T, ylen, 1)) ;
            GRB_OK (GrB_Matrix_new (&C2, T, ylen, 1)) ;
            GRB_OK (GrB_Col_assign (C1, NULL, NULL, y1, GrB_ALL, ylen, 0, NULL)) ;
            GRB_OK (GrB_Col_assign (C2, NULL, NULL, y2, GrB_ALL, ylen, 0, NULL)) ;
        }
        err = compare_matrices (C1, C2, T) ;
        // push (atomics, any order) against pull: two FP32 summation orders
        // of columns with up to ~10^6 positive terms (R-MAT 2^22) differ by
        // ~sqrt (terms) ulps of the sum, 1.1e-4 relative measured once
        bool ok = err <= (fp32 ? 1e-3 : 1e-12) ;
        if (!ok) failures++ ;
        double cpu = median (tcpu, 3), warm = median (tw, 5) ;
        double up1 = (double) (st1.bytes_h2d - st0.bytes_h2d) ;
        double upw = (double) (st2.bytes_h2d - st1.bytes_h2d) / 5 ;
        double dnw = (double) (st2.bytes_d2h - st1.bytes_d2h) / 5 ;
        double hs = st2.h2d_seconds - st1.h2d_seconds ;
        double ds = st2.d2h_seconds - st1.d2h_seconds ;
        double hs1 = st1.h2d_seconds - st0.h2d_seconds ;
        printf ("%-16s %s N=%-4ld %s %-17s cpu %9.2f ms | grbgpu first %9.2f warm "
            "%9.2f ms  x%.1f | up first %7.1f MB @ %5.1f GB/s, warm %7.1f MB @ %5.1f GB/s,"
            " down %7.1f MB @ %5.1f GB/s | %s | %s err %.1e\n", A->name,
            fp32 ? "fp32" : "fp64", (long) n, n == 1 ? (vxm ? "vxm" : "mxv")
            : "mxm", srname,
            1e3 * cpu, 1e3 * first, 1e3 * warm, cpu / warm, up1 / 1e6,
            hs1 > 0 ? up1 / hs1 / 1e9 : 0,
            upw / 1e6, hs > 0 ? 5 * upw / hs / 1e9 : 0, dnw / 1e6,
            ds > 0 ? 5 * dnw / ds / 1e9 : 0, decision, ok ? "ok" : "WRONG",
            err) ;
        fprintf (csv, "%s,%s,%ld,%ld,%ld,%s,%ld,,,,%.4f,%.4f,,,%.0f,,%s,%.3g,"
            "%.4f,%.0f,%.0f,%s\n", n > 1 ? "mxm" : vxm ? "vxm" : variant == 0
            ? "mxv" : touch_u
            ? "mxv_plus_second_new_u" : "mxv_plus_second", A->name,
            (long) A->m, (long) A->k, (long) A->nnz, fp32 ? "fp32" : "fp64",
            (long) n, 1e3 * warm, 1e3 * first, up1, ok ? "ok" : "WRONG", err,
            1e3 * cpu, upw, dnw, decision) ;
        fflush (stdout) ;
        GrB_Matrix_free (&B) ; GrB_Matrix_free (&C1) ; GrB_Matrix_free (&C2) ;
        GrB_Vector_free (&x) ; GrB_Vector_free (&y1) ; GrB_Vector_free (&y2) ;
        #undef PRODUCT
        #undef TOUCH_U
    }
    GrB_Matrix_free (&G) ;
}

// --split LIST (GRBGPU_DEVICES, issue 18): FP32 PLUS_TIMES GrB_mxm (N > 1) /
// GrB_mxv (N = 1) end to end, one slot against the slots of LIST, in the same
// run, each checked against the CPU library.  With LIST naming one device
// twice (0,0) both slots share one GPU: the rows measure what splitting
// costs, not scaling.  Per row: the first call (conversion and upload of the
// slots' blocks), the median of 5 warm calls, and the product alone (CUDA
// events: for a split call the slowest slot's).
static const char *split_list = NULL ;
// --fake-devices N (with --split 0,1): the module's test hook, ids 1 .. N-1
// stand for device 0, so a slot on "another device" runs on one GPU (X
// copied to it from the main device, forms recorded and freed there)
int gg_cuda_fake_devices (int n) ;     // backend/cuda/cuda_internal.h

static void bench_split (const csr *A)
{
    GrB_Matrix G = grb_of (A, true) ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP32 ;
    for (int ni = 0 ; ni < nns ; ni++)
    {
        int64_t n = ns [ni] ;
        GrB_Matrix B, C [2], R ;
        GrB_Vector x = NULL, y [2] = { NULL, NULL }, yr = NULL ;
        void *Bx = malloc ((size_t) A->k * n * 4) ;
        uint64_t s = 11 + n ;
        for (size_t q = 0 ; q < (size_t) A->k * n ; q++) ((float *) Bx) [q] = (float) rnd_unit (&s) ;
        GRB_OK (GrB_Matrix_new (&B, GrB_FP32, A->k, n)) ;
        GRB_OK (GxB_Matrix_pack_FullR (B, &Bx, (GrB_Index) A->k * n * 4, false, NULL)) ;
        GRB_OK (GrB_Matrix_new (&R, GrB_FP32, A->m, n)) ;
        for (int v = 0 ; v < 2 ; v++) GRB_OK (GrB_Matrix_new (&C [v], GrB_FP32, A->m, n)) ;
        if (n == 1)
        {
            GRB_OK (GrB_Vector_new (&x, GrB_FP32, A->k)) ;
            GRB_OK (GrB_Col_extract (x, NULL, NULL, B, GrB_ALL, A->k, 0, NULL)) ;
            GRB_OK (GrB_Vector_new (&yr, GrB_FP32, A->m)) ;
            for (int v = 0 ; v < 2 ; v++) GRB_OK (GrB_Vector_new (&y [v], GrB_FP32, A->m)) ;
        }
        #define SPLIT_PRODUCT(Cx, yx) ((n == 1) ? GrB_mxv (yx, NULL, NULL, sr, G, x, NULL) \
            : GrB_mxm (Cx, NULL, NULL, sr, G, B, NULL))
        grbgpu_set ("DEVICE", "cpu") ;
        GRB_OK (SPLIT_PRODUCT (R, yr)) ;
        double warm [2] = { 0, 0 } ;
        for (int v = 0 ; v < 2 ; v++)
        {
            const char *list = (v == 0) ? "" : split_list ;
            grbgpu_set ("DEVICES", list) ;
            grbgpu_set ("DEVICE", "cuda") ;
            grbgpu_stats st0, st1 ;
            grbgpu_stats_get (&st0) ;
            double t0 = now () ;
            GRB_OK (SPLIT_PRODUCT (C [v], y [v])) ;
            double first = now () - t0 ;
            double tw [5], tk [5] ;
            grbgpu_cuda_timing (true) ;
            for (int r = 0 ; r < 5 ; r++)
            {
                t0 = now () ;
                GRB_OK (SPLIT_PRODUCT (C [v], y [v])) ;
                tw [r] = now () - t0 ;
                tk [r] = grbgpu_cuda_last_product_ms () ;
            }
            grbgpu_cuda_timing (false) ;
            grbgpu_stats_get (&st1) ;
            const char *dec = grbgpu_last_decision () ;
            double err ;
            if (n == 1)
            {
                GrB_Matrix a, b ;
                GRB_OK (GrB_Matrix_new (&a, GrB_FP32, A->m, 1)) ;
                GRB_OK (GrB_Matrix_new (&b, GrB_FP32, A->m, 1)) ;
                GRB_OK (GrB_Col_assign (a, NULL, NULL, yr, GrB_ALL, A->m, 0, NULL)) ;
                GRB_OK (GrB_Col_assign (b, NULL, NULL, y [v], GrB_ALL, A->m, 0, NULL)) ;
                err = compare_matrices (a, b, GrB_FP32) ;
                GrB_Matrix_free (&a) ; GrB_Matrix_free (&b) ;
            }
            else err = compare_matrices (R, C [v], GrB_FP32) ;
            bool ok = err <= 1e-3 ;
            if (!ok) failures++ ;
            warm [v] = median (tw, 5) ;
            double kms = median (tk, 5) ;
            // bytes the product must read at least: S (8 B per entry + row
            // pointers) and X once, Y written once
            double bytes = 8.0 * A->nnz + 4.0 * A->m + 4.0 * (A->k + A->m) * n ;
            printf ("split %-12s fp32 N=%-4ld %s slots %-7s first %9.2f warm %9.2f ms "
                "product %8.3f ms (%6.1f GB/s, %6.1f GFLOP/s) split calls %llu | %s | %s err %.1e%s\n",
                A->name, (long) n, n == 1 ? "mxv" : "mxm", v == 0 ? "1" : list,
                1e3 * first, 1e3 * warm [v], kms, kms > 0 ? bytes / kms / 1e6 : 0,
                kms > 0 ? 2.0 * A->nnz * n / kms / 1e6 : 0,
                (unsigned long long) (st1.split - st0.split), dec ? dec : "?",
                ok ? "ok" : "WRONG", err,
                (v == 1) ? "  [one GPU split in two: overhead of splitting, not scaling]" : "") ;
            fprintf (csv, "split_%s,%s,%ld,%ld,%ld,fp32,%ld,%.4f,,%s,%.4f,%.4f,,,,,%s,%.3g,,,,%s\n",
                n == 1 ? "mxv" : "mxm", A->name, (long) A->m, (long) A->k, (long) A->nnz,
                (long) n, kms, v == 0 ? "1" : list, 1e3 * warm [v], 1e3 * first,
                ok ? "ok" : "WRONG", err, dec ? dec : "?") ;
        }
        printf ("split %-12s fp32 N=%-4ld warm %s / 1 slot: %.2fx\n", A->name, (long) n,
            split_list, warm [0] > 0 ? warm [1] / warm [0] : 0) ;
        fflush (stdout) ;
        grbgpu_set ("DEVICES", "") ;
        #undef SPLIT_PRODUCT
        GrB_Matrix_free (&B) ; GrB_Matrix_free (&R) ;
        for (int v = 0 ; v < 2 ; v++) { GrB_Matrix_free (&C [v]) ; GrB_Vector_free (&y [v]) ; }
        GrB_Vector_free (&x) ; GrB_Vector_free (&yr) ;
    }
    GrB_Matrix_free (&G) ;
}
#endif

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static void run_matrix (const gg_backend *b, cusparseHandle_t h, csr *A)
{
    printf ("# %s: %ld x %ld, %ld entries (%.1f per row)\n", A->name,
        (long) A->m, (long) A->k, (long) A->nnz, (double) A->nnz /
        (A->m ? A->m : 1)) ;
#ifdef GG_BENCH_E2E
    if (split_list != NULL) { bench_split (A) ; return ; }
#endif
    for (int f = 0 ; f < 2 ; f++) bench_kernel (b, h, A, f == 0) ;
    if (do_sddmm) for (int f = 0 ; f < 2 ; f++) bench_sddmm (b, h, A, f == 0) ;
    bool has_n1 = false ;
    for (int ni = 0 ; ni < nns ; ni++) has_n1 |= (ns [ni] == 1) ;
    if (has_n1) for (int f = 0 ; f < 2 ; f++) bench_vxm (h, A, f == 0) ;
#ifdef GG_BENCH_E2E
    if (do_e2e) for (int f = 0 ; f < 2 ; f++) bench_e2e (A, f == 0) ;
#endif
}

static bool wanted_real (const char *name)
{
    if (real_filter [0] == '\0') return false ;
    if (strcmp (real_filter, "all") == 0) return true ;
    char base [256] ;
    snprintf (base, sizeof (base), "%s", name) ;
    char *dot = strstr (base, ".mtx") ;
    if (dot) *dot = '\0' ;
    const char *s = real_filter ;
    size_t len = strlen (base) ;
    while (s && *s)
    {
        if (strncmp (s, base, len) == 0 && (s [len] == ',' || s [len] == '\0'))
            return true ;
        s = strchr (s, ',') ;
        if (s) s++ ;
    }
    return false ;
}

int main (int argc, char **argv)
{
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--scales") && a + 1 < argc)
            parse_list (argv [++a], scales, &nscales) ;
        else if (!strcmp (argv [a], "--ns") && a + 1 < argc)
            parse_list (argv [++a], ns, &nns) ;
        else if (!strcmp (argv [a], "--reps") && a + 1 < argc)
            reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--data") && a + 1 < argc)
            data_dir = argv [++a] ;
        else if (!strcmp (argv [a], "--real") && a + 1 < argc)
            real_filter = argv [++a] ;
        else if (!strcmp (argv [a], "--csv") && a + 1 < argc)
            csv_path = argv [++a] ;
        else if (!strcmp (argv [a], "--no-e2e")) do_e2e = false ;
#ifdef GG_BENCH_E2E
        else if (!strcmp (argv [a], "--split") && a + 1 < argc)
            split_list = argv [++a] ;
        else if (!strcmp (argv [a], "--fake-devices") && a + 1 < argc)
            gg_cuda_fake_devices (atoi (argv [++a])) ;
#endif
        else if (!strcmp (argv [a], "--no-sddmm")) do_sddmm = false ;
        else if (!strcmp (argv [a], "--no-rmat")) nscales = 0 ;
        else
        {
            fprintf (stderr, "usage: %s [--scales 18,20] [--ns 1,32,64,128,256]"
                " [--reps 20] [--real all|name,name] [--data DIR] [--csv FILE]"
                " [--no-e2e] [--no-sddmm] [--no-rmat] [--split 0,0] [--fake-devices 2]\n", argv [0]) ;
            return 2 ;
        }
    }
    if (reps < 1) reps = 1 ;
    if (data_dir == NULL) data_dir = getenv ("GRBGPU_TEST_DATA") ;
    grbgpu_settings_init () ;
#ifdef GG_BENCH_E2E
    GRB_OK (GrB_init (GrB_NONBLOCKING)) ;
#endif
    const gg_backend *b = grbgpu_cuda_backend () ;
    if (b == NULL)
    {
        printf ("spmm_bench: no usable CUDA device\n") ;
        return 77 ;
    }
    struct cudaDeviceProp prop ;
    CHECK_CUDA (cudaGetDeviceProperties (&prop, grbgpu_settings.device_id)) ;
    CHECK_CUDA (cudaSetDevice (grbgpu_settings.device_id)) ;
    printf ("# device: %s, %d SMs; reps %d; exact precision\n", prop.name,
        prop.multiProcessorCount, reps) ;
    cusparseHandle_t h ;
    CHECK_SP (cusparseCreate (&h)) ;
    csv = fopen (csv_path, "w") ;
    if (!csv) { perror (csv_path) ; return 2 ; }
    fprintf (csv, "op,matrix,m,k,nnz,type,n,kernel_ms,cusparse_ms,"
        "cusparse_alg,call_warm_ms,call_first_ms,GBps,GFLOPps,h2d_bytes,"
        "h2d_GBps,check,err,cpu_ms,h2d_warm_bytes,d2h_warm_bytes,decision\n") ;

    for (int s = 0 ; s < nscales ; s++)
    {
        csr A ;
        double t0 = now () ;
        make_rmat (&A, scales [s]) ;
        printf ("# generated %s in %.1f s\n", A.name, now () - t0) ;
        run_matrix (b, h, &A) ;
        free_csr (&A) ;
    }
    if (data_dir != NULL && real_filter [0] != '\0')
    {
        DIR *d = opendir (data_dir) ;
        if (d == NULL) printf ("# no real matrices (%s absent)\n", data_dir) ;
        struct dirent *de ;
        while (d && (de = readdir (d)) != NULL)
        {
            size_t len = strlen (de->d_name) ;
            if (len < 8 || strcmp (de->d_name + len - 7, ".mtx.gz") != 0 ||
                !wanted_real (de->d_name)) continue ;
            char path [1024] ;
            snprintf (path, sizeof (path), "%s/%s", data_dir, de->d_name) ;
            csr A ;
            char name [64] ;
            snprintf (name, sizeof (name), "%.*s", (int) (len - 7), de->d_name) ;
            if (!read_mtx (&A, path, name)) continue ;
            run_matrix (b, h, &A) ;
            free_csr (&A) ;
        }
        if (d) closedir (d) ;
    }
    fclose (csv) ;
    cusparseDestroy (h) ;
    printf ("# %s: %d wrong result(s); CSV in %s\n", failures ? "FAILED" :
        "all results checked", failures, csv_path) ;
    return failures ? 1 : 0 ;
}
