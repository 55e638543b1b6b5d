//------------------------------------------------------------------------------
// bench/spmm_bench_kernels.c: spmm_bench's (a) + (c), the backend vs cuSPARSE
//------------------------------------------------------------------------------

#include "config.h"

#include "bench/spmm_bench.h"
#include "kernels/tc_sddmm/tc_sddmm.h"

//------------------------------------------------------------------------------
// (a) + (c): the backend vs cuSPARSE
//------------------------------------------------------------------------------

static uint64_t handle_seq = 1 ;

gg_cache_entry *entry (void)
{
    gg_cache_key key = { .handle = (const void *) (uintptr_t) (0x10000 *
        handle_seq++), .version = 1, .form = 1 } ;
    return grbgpu_cache_insert (&key, malloc (8), 8, free) ;
}

// Device copies of a CSR's arrays, values in the bench type; returns those
// values on the host (the caller frees them).
void *csr_to_device (const csr *A, bool fp32, int32_t **dp, int32_t **di,
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

void bench_kernel (const gg_backend *b, cusparseHandle_t h,
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

// The largest error of y against an FP64 sum on 512 sampled rows of M,
// relative to the sum of the terms' magnitudes; *med (when not NULL): the
// median of those errors over the sampled entries.
static int cmp_double (const void *a, const void *b)
{
    const double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double sddmm_error (const csr *M, const void *A, const void *B,
    const void *y, int64_t K, bool fp32, double *med)
{
    double worst = 0 ;
    uint64_t ss = 3 ;
    size_t ne = 0, cap = 0 ;
    double *es = NULL ;
    for (int u = 0 ; u < 512 ; u++)
    {
        int64_t r = (int64_t) (rnd (&ss) % (uint64_t) M->m) ;
        for (int32_t q = M->p [r] ; q < M->p [r+1] ; q++)
        {
            double acc = 0, mag = 0 ;
            for (int64_t kk = 0 ; kk < K ; kk++)
            {
                double a = fp32 ? ((const float *) A) [r*K+kk] : ((const double *) A) [r*K+kk] ;
                double bv = fp32 ? ((const float *) B) [M->i [q]*K+kk] : ((const double *) B) [M->i [q]*K+kk] ;
                acc += a * bv ; mag += fabs (a * bv) ;
            }
            double g = fp32 ? ((const float *) y) [q] : ((const double *) y) [q] ;
            double e = fabs (g - acc) / (mag + 1e-300) ;
            if (!(e <= worst)) worst = e ;          // (a NaN counts as worst)
            if (med != NULL)
            {
                if (ne == cap)
                {
                    cap = cap ? 2 * cap : 4096 ;
                    double *more = realloc (es, cap * sizeof (double)) ;
                    if (more == NULL) { free (es) ; es = NULL ; med = NULL ; continue ; }
                    es = more ;
                }
                es [ne++] = (e == e) ? e : INFINITY ;
            }
        }
    }
    if (med != NULL)
    {
        *med = 0 ;
        if (ne > 0)
        {
            qsort (es, ne, sizeof (double), cmp_double) ;
            *med = es [ne / 2] ;
        }
    }
    free (es) ;
    return worst ;
}

// One SDDMM to time: cusparseSDDMM (own == NULL) or our schedule `own`
// called directly, on operands already on the device.
typedef struct
{
    cusparseHandle_t h ; cusparseDnMatDescr_t dA, dB ; cusparseSpMatDescr_t C ;
    const void *al, *be ; cudaDataType dt ; void *buf ;
    const char *own ; const gg_semiring *sr ; int64_t m, n, K, nnz ;
    const int32_t *p, *i, *ri ; const void *A, *B ; void *y ;
    const gg_tc_sddmm_form *tcf ; int mode ;    // the tensor-core SDDMM (tcf != NULL)
} sddmm_call ;

// The next name of --sddmm-kernels' comma-separated list from kn (at most 15
// characters kept) into name; returns where the one after starts (NULL: none).
static const char *sddmm_next_name (const char *kn, char name [16])
{
    const char *comma = strchr (kn, ',') ;
    const size_t len = comma ? (size_t) (comma - kn) : strlen (kn) ;
    snprintf (name, 16, "%.*s", (int) (len < 15 ? len : 15), kn) ;
    return comma ? comma + 1 : NULL ;
}

// A tensor-core SDDMM name of --sddmm-kernels: "tcT" (threshold T, exact),
// "tcTt" (tf32), "tcTe3" / "tcTe4" (the two-way split, 3 / 4 MMAs) gives T
// and *mode; any other name 0.
static int sddmm_tc_name (const char *s, int *mode)
{
    const size_t len = strlen (s) ;
    if (len < 3 || strncmp (s, "tc", 2) != 0 || s [2] < '1' || s [2] > '9') return 0 ;
    const char *m = s + 3 ;
    if (*m == '\0') *mode = GG_TC_EXACT ;
    else if (!strcmp (m, "t")) *mode = GG_TC_TF32 ;
    else if (!strcmp (m, "e3")) *mode = GG_TC_EXACT3 ;
    else if (!strcmp (m, "e4")) *mode = GG_TC_EXACT4 ;
    else return 0 ;
    return s [2] - '0' ;
}

static int sddmm_run (const sddmm_call *c)
{
    if (c->tcf != NULL)
        return gg_tc_sddmm (c->tcf, c->sr->type, c->K, c->A, c->B, c->y, c->mode,
            GG_TC_PARTS_ALL, NULL, 0) ;
    if (c->own != NULL)
        return gg_cuda_sddmm (c->sr, c->m, c->n, c->K, c->nnz, c->p, c->i, c->ri,
            c->A, c->B, c->y, c->own, 0) ;
    CHECK_SP (cusparseSDDMM (c->h, CUSPARSE_OPERATION_NON_TRANSPOSE,
        CUSPARSE_OPERATION_NON_TRANSPOSE, c->al, c->dA, c->dB, c->be, c->C, c->dt,
        CUSPARSE_SDDMM_ALG_DEFAULT, c->buf)) ;
    return GG_OK ;
}

// Times one SDDMM two ways, after 3 warm-ups: *single, the median over reps
// of one call between two events (what an isolated call costs, with the
// launch on an idle GPU included); *bb, reps calls back to back between two
// events, divided by reps (the GPU's time per call with the queue kept full).
static int sddmm_time (const sddmm_call *c, double *single, double *bb)
{
    *single = *bb = NAN ;
    cudaEvent_t e0, e1 ;
    CHECK_CUDA (cudaEventCreate (&e0)) ; CHECK_CUDA (cudaEventCreate (&e1)) ;
    double *tv = malloc (reps * sizeof (double)) ;
    int rc = GG_OK ;
    float ms ;
    for (int r = -3 ; r < reps && rc == GG_OK ; r++)
    {
        CHECK_CUDA (cudaEventRecord (e0, 0)) ;
        rc = sddmm_run (c) ;
        CHECK_CUDA (cudaEventRecord (e1, 0)) ;
        CHECK_CUDA (cudaEventSynchronize (e1)) ;
        CHECK_CUDA (cudaEventElapsedTime (&ms, e0, e1)) ;
        if (r >= 0) tv [r] = ms ;
    }
    if (rc == GG_OK)
    {
        *single = median (tv, reps) ;
        CHECK_CUDA (cudaEventRecord (e0, 0)) ;
        for (int r = 0 ; r < reps && rc == GG_OK ; r++) rc = sddmm_run (c) ;
        CHECK_CUDA (cudaEventRecord (e1, 0)) ;
        CHECK_CUDA (cudaEventSynchronize (e1)) ;
        CHECK_CUDA (cudaEventElapsedTime (&ms, e0, e1)) ;
        if (rc == GG_OK) *bb = ms / reps ;
    }
    CHECK_CUDA (cudaGetLastError ()) ;
    free (tv) ;
    cudaEventDestroy (e0) ; cudaEventDestroy (e1) ;
    return rc ;
}

// SDDMM: y = (A B') .* spy (M), A: m x K, B: k x K.
void bench_sddmm (const gg_backend *b, cusparseHandle_t h,
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
    // the row of each entry, for the schedules named with "_r" (built once:
    // its time is printed, against one SDDMM's)
    int32_t *dri ;
    CHECK_CUDA (cudaMalloc ((void **) &dri, M->nnz * 4 + 4)) ;
    {
        cudaEvent_t r0, r1 ;
        CHECK_CUDA (cudaEventCreate (&r0)) ; CHECK_CUDA (cudaEventCreate (&r1)) ;
        CHECK_CUDA (cudaEventRecord (r0, 0)) ;
        if (gg_cuda_sddmm_rows (M->m, M->nnz, dp, dri, 0) != GG_OK) failures++ ;
        CHECK_CUDA (cudaEventRecord (r1, 0)) ;
        CHECK_CUDA (cudaEventSynchronize (r1)) ;
        float ms ; CHECK_CUDA (cudaEventElapsedTime (&ms, r0, r1)) ;
        printf ("# %s: the rows of its %ld entries in %.4f ms\n", M->name, (long) M->nnz, ms) ;
        cudaEventDestroy (r0) ; cudaEventDestroy (r1) ;
    }
    // the tensor-core SDDMM's forms (names "tcT": threshold T, exact; "tcTt",
    // "tcTe3", "tcTe4": other modes), built once per matrix and type (printed: the
    // build's wall time and the share of entries on tensor cores)
    gg_tc_sddmm_form *tcf [10] = { NULL } ;
    for (const char *kn = sddmm_kernels ; kn != NULL && *kn != '\0' ; )
    {
        char name [16] ;
        kn = sddmm_next_name (kn, name) ;
        int mode ;
        const int thr = sddmm_tc_name (name, &mode) ;
        if (thr > 0 && tcf [thr] == NULL)
        {
            if (gg_tc_sddmm_build (M->m, M->k, M->nnz, dp, di, thr, 0, &tcf [thr], 0) != GG_OK)
            {
                failures++ ;
                printf ("# %s: tensor-core SDDMM form, threshold %d: build FAILED\n", M->name, thr) ;
            }
            else
                printf ("# %s: tensor-core SDDMM form, threshold %d: share %.3f, "
                    "%ld blocks, %ld segments, %.1f MB, build %.3f ms\n", M->name, thr,
                    M->nnz ? (double) tcf [thr]->h->tc_nnz / M->nnz : 0.0,
                    (long) tcf [thr]->h->nblk, (long) tcf [thr]->h->nseg,
                    tcf [thr]->bytes / 1e6, tcf [thr]->build_ms) ;
        }
    }
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
        sddmm_call cc = { .h = h, .dA = dAd, .dB = dBd, .C = C, .al = al, .be = be,
            .dt = dt, .buf = buf } ;
        double vms, vbb ;
        if (sddmm_time (&cc, &vms, &vbb) != GG_OK) failures++ ;

        double worst = (rc == GG_OK) ? sddmm_error (M, A, B, y, K, fp32, NULL) : 1 ;
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

        // our schedules called directly (--sddmm-kernels), timed like
        // cuSPARSE (one call between events, and back to back) and checked
        // likewise; then one line of the back-to-back times
        printf ("%-16s %s K=%-4ld sddmm own schedules:", M->name,
            fp32 ? "fp32" : "fp64", (long) K) ;
        char bbline [1024] ;
        int bbl = snprintf (bbline, sizeof (bbline), "%-16s %s K=%-4ld sddmm back to back: "
            "cusparse %8.4f ms", M->name, fp32 ? "fp32" : "fp64", (long) K, vbb) ;
        // the errors against FP64 (max and median over the sampled
        // entries, relative to the sum of |terms|): "#err" lines
        char erline [1024] ;
        int erl = snprintf (erline, sizeof (erline), "#err %s %s K=%ld:", M->name,
            fp32 ? "fp32" : "fp64", (long) K) ;
        for (const char *kn = sddmm_kernels ; kn != NULL && *kn != '\0' ; )
        {
            char name [16], kname [16] ;
            kn = sddmm_next_name (kn, name) ;
            // NAME_r: the schedule NAME given the rows of the entries
            size_t nl = strlen (name) ;
            const bool given = (nl >= 2 && strcmp (name + nl - 2, "_r") == 0) ;
            snprintf (kname, sizeof (kname), "%.*s", (int) (given ? nl - 2 : nl), name) ;
            sddmm_call oc = { .own = kname, .sr = &sr, .m = M->m, .n = M->k, .K = K,
                .nnz = M->nnz, .p = dp, .i = di, .ri = given ? dri : NULL, .A = dA,
                .B = dB, .y = dy } ;
            const int thr = sddmm_tc_name (name, &oc.mode) ;
            if (thr > 0)
            {
                oc.tcf = tcf [thr] ;
                if (oc.tcf == NULL) { printf (" %s failed", name) ; continue ; }
            }
            double oms, obb ;
            bool sok = false ;
            if (sddmm_time (&oc, &oms, &obb) == GG_OK)
            {
                void *yv = malloc (yb + 8) ;
                CHECK_CUDA (cudaMemcpy (yv, dy, yb, cudaMemcpyDeviceToHost)) ;
                // tf32 (asked for by name): its own bound
                const bool tf = oc.tcf != NULL && oc.mode == GG_TC_TF32 && fp32 ;
                double emed = 0 ;
                const double emax = sddmm_error (M, A, B, yv, K, fp32, &emed) ;
                sok = emax <= (tf ? 2e-3 : fp32 ? 1e-5 : 1e-13) ;
                free (yv) ;
                if (erl < (int) sizeof (erline) - 48)
                    erl += snprintf (erline + erl, sizeof (erline) - erl, " %s %.2e %.2e", name,
                        emax, emed) ;
            }
            if (!sok) failures++ ;
            printf (" %s %8.4f ms (%s)", name, oms, sok ? "ok" : "WRONG") ;
            if (bbl < (int) sizeof (bbline) - 40)
                bbl += snprintf (bbline + bbl, sizeof (bbline) - bbl, " %s %8.4f ms", name, obb) ;
        }
        printf ("\n%s\n%s\n", bbline, erline) ;
        fflush (stdout) ;
        free (tk) ;
        cusparseDestroyDnMat (dAd) ; cusparseDestroyDnMat (dBd) ;
        cusparseDestroySpMat (C) ;
        cudaFree (dA) ; cudaFree (dB) ; cudaFree (dy) ; cudaFree (buf) ;
        grbgpu_cache_release (eA) ; grbgpu_cache_release (eB) ;
        grbgpu_cache_invalidate (eA->key.handle) ;
        grbgpu_cache_invalidate (eB->key.handle) ;
        free (A) ; free (B) ; free (y) ;
    }
    for (int q = 0 ; q < 10 ; q++) gg_tc_sddmm_free (tcf [q], 0) ;
    grbgpu_cache_release (eM) ;
    grbgpu_cache_clear () ;
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dri) ;
}
