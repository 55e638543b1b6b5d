//------------------------------------------------------------------------------
// bench/spmm_bench_util.c: spmm_bench's helpers, matrices, cuSPARSE
//------------------------------------------------------------------------------

#include "config.h"

#include "bench/spmm_bench.h"
#include "bench/bench_median.h"

void parse_list (const char *s, int *out, int *n)
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

double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return t.tv_sec + 1e-9 * t.tv_nsec ;
}

double median (double *v, int n)
{
    return gg_bench_median (v, n) ;
}

//------------------------------------------------------------------------------
// matrices
//------------------------------------------------------------------------------

static int cmp_u32 (const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *) a, y = *(const uint32_t *) b ;
    return (x > y) - (x < y) ;
}

// (row, col) pairs packed as row << 32 | col -> sorted, deduplicated CSR:
// the pairs placed by row (counted, then scattered, in parallel), each row's
// columns sorted and deduplicated (in parallel), the rows packed together
static void build_csr (csr *A, uint64_t *e, int64_t ne, int64_t m, int64_t k)
{
    int64_t *start = calloc (m + 1, sizeof (int64_t)) ;
    int64_t *pos = malloc ((m + 1) * sizeof (int64_t)) ;
    uint32_t *col = malloc (ne * sizeof (uint32_t) + 4) ;
    if (start == NULL || pos == NULL || col == NULL) { fprintf (stderr, "build_csr: out of memory\n") ; exit (2) ; }
    #pragma omp parallel for schedule(static)
    for (int64_t t = 0 ; t < ne ; t++)
        __atomic_fetch_add (&start [(e [t] >> 32) + 1], 1, __ATOMIC_RELAXED) ;
    for (int64_t r = 0 ; r < m ; r++) start [r+1] += start [r] ;
    memcpy (pos, start, (m + 1) * sizeof (int64_t)) ;
    #pragma omp parallel for schedule(static)
    for (int64_t t = 0 ; t < ne ; t++)
    {
        int64_t q = __atomic_fetch_add (&pos [e [t] >> 32], 1, __ATOMIC_RELAXED) ;
        col [q] = (uint32_t) (e [t] & 0xffffffffu) ;
    }
    // pos [r]: row r's distinct columns, at the front of its range
    #pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t r = 0 ; r < m ; r++)
    {
        uint32_t *c = col + start [r] ;
        const int64_t len = start [r+1] - start [r] ;
        qsort (c, len, sizeof (uint32_t), cmp_u32) ;
        int64_t d = 0 ;
        for (int64_t t = 0 ; t < len ; t++) if (t == 0 || c [t] != c [t-1]) c [d++] = c [t] ;
        pos [r] = d ;
    }
    int64_t nz = 0 ;
    for (int64_t r = 0 ; r < m ; r++) nz += pos [r] ;
    A->m = m ; A->k = k ; A->nnz = nz ;
    A->p = calloc (m + 1, sizeof (int32_t)) ;
    A->i = malloc (nz * sizeof (int32_t) + 4) ;
    A->v = malloc (nz * sizeof (double) + 8) ;
    for (int64_t r = 0 ; r < m ; r++) A->p [r+1] = A->p [r] + (int32_t) pos [r] ;
    #pragma omp parallel for schedule(dynamic, 4096)
    for (int64_t r = 0 ; r < m ; r++)
        for (int64_t t = 0 ; t < pos [r] ; t++) A->i [A->p [r] + t] = (int32_t) col [start [r] + t] ;
    free (start) ; free (pos) ; free (col) ;
    uint64_t s = 42 ;
    for (int64_t t = 0 ; t < nz ; t++) A->v [t] = rnd_unit (&s) ;
}

void make_rmat (csr *A, int scale)
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
bool read_mtx (csr *A, const char *path, const char *name)
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

void free_csr (csr *A) { free (A->p) ; free (A->i) ; free (A->v) ; }

//------------------------------------------------------------------------------
// reference on sampled rows
//------------------------------------------------------------------------------

// Max over sampled rows of |Y - ref| / (sum |terms| + tiny); Y row-major m x n.
double check_rows (const csr *A, const void *vals, const void *X,
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

// Best of the CSR algorithms for Y = A X (SpMV when n == 1), CUDA events,
// median of reps after 3 warm-ups.  Leaves the best result in dY.
vendor_result vendor_spmm (cusparseHandle_t h, const csr *A,
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
