//------------------------------------------------------------------------------
// bench/spmm_bench_vxm.c: spmm_bench's (d), vxm: pull on A' vs push from A
//------------------------------------------------------------------------------

#include "config.h"

#include "bench/spmm_bench.h"

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

void bench_vxm (cusparseHandle_t h, const csr *A, bool fp32)
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
