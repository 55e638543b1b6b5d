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
//  - the remainder alone with every CUDA-core variant ("rem+<variant>"),
//    against the chooser's pick, and the whole exact product with the
//    fastest (a "# REM" line per matrix and N);
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
// 1e-12 of max |y|), and an FP64 table (with our kernels' pick, the pick
// before FP64 took the FP32 rule, and the slot schedules; the DMMA hybrid at
// thresholds 3, 4 and with each --rules rule); --fp64-only skips the FP32 part.
// --reorder adds the hybrid of the row-reordered S (reorder/, RSH pass on
// the host) next to the hybrid of S and cuSPARSE (FP32), cuSPARSE and our
// CUDA-core kernel on S and on the reordered S (the order alone; ours storing
// rows in S's order, gg_cuda_spmm_plan_rows with the reordered S's plan, for
// the RSH, first-column and row-length orders, with the calls that pay for
// each), and its table;
// --reorder-only runs only that (with --fp64: and the FP64 part).

#include "tests/need_device.h"
#include "bench/tc_bench.cuh"

bm_rng rng (12345) ;
int reps = 10, warmups = 3 ;
FILE *csv = NULL ;
int wrong = 0 ;

// the sampled rows of Y, gathered on the device
__global__ void gather_rows_kernel (const int64_t *rows, int64_t nr, int64_t n,
    const float *Y, float *out)
{
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < nr * n ;
         q += (int64_t) gridDim.x * blockDim.x)
        out [q] = Y [rows [q / n] * n + q % n] ;
}

//------------------------------------------------------------------------------
// one matrix
//------------------------------------------------------------------------------

static std::vector<int> thresholds = { 2, 4 }, segs = { 8, 32 } ;
// window rules (--rules A:W[:G],...: absorb_pct A, win_min W, absorb_grow G;
// gg_tc_rule), on the form T=3 seg=16; their rows carry threshold RULE_T0 +
// the rule's index (bench_reorder and bench_fp64 build their forms with them too)
std::vector<gg_tc_rule> rules ;
std::string rule_name (const gg_tc_rule &r)
{
    std::string s = std::to_string (r.absorb_pct) + ":" + std::to_string (r.win_min) ;
    if (r.absorb_grow > 0) s += ":" + std::to_string (r.absorb_grow) ;
    return s ;
}
#define RULE_T0 1000

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
            const char *kern = gg_cuda_spmm_choose_plan_fp32 (A.m, n, A.nnz, A.max_row) ;
            int rc = GG_OK ;
            CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
            cc_ms = time_ms ([&] { rc = gg_cuda_spmm_plan (&sr, A.m, A.k, n, A.nnz, dp, di, dx, false,
                dX, dY, dplan, A.max_row, kern, 0) ; }) ;
            fetch () ;
            const double rel = rel_error (dp, A.m, n, dY, dRef, dOut) ;
            report (A, n, "cuda", kern, 0, 0, cc_ms, base, rel, sample_error (S, n, y), 0, true,
                rc == GG_OK && rel < 1e-4) ;
        }

        // one hybrid product, timed and checked
        // (rem: the remainder's CUDA-core kernel, NULL: the chooser's pick)
        auto run = [&] (const gg_hybrid_form *g, int mode, const char *variant, int parts,
            const char *rem = NULL) -> double
        {
            int rc = GG_OK ;
            CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
            const double t = time_ms ([&] { rc = gg_tc_spmm_ex (g, dX, dY, n, mode, variant, parts,
                rem, 0) ; }) ;
            const std::string mn = gg_tc_mode_name (mode) ;
            const std::string vn = std::string (variant) + (parts == GG_TC_PARTS_TC ? "/tc"
                : parts == GG_TC_PARTS_REM ? "/rem" : "") + (rem ? std::string ("+") + rem : "") ;
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

        // the remainder's kernel: the one gg_tc_spmm_ex picks
        // (gg_tc_rem_kernel) against every CUDA-core variant on the remainder
        // alone, then
        // the whole exact product with the fastest, checked
        {
            const char *pick = gg_tc_rem_kernel (f, n) ;
            const char *dv = gg_tc_variants () [0] ;
            double t_pick = -1, t_best = -1 ;
            const char *best = NULL ;
            for (const char *const *v = gg_cuda_spmm_variants () ; f->rem_nnz > 0 && *v ; v++)
            {
                const double t = run (f, GG_TC_EXACT, dv, GG_TC_PARTS_REM, *v) ;
                if (t > 0 && !strcmp (*v, pick)) t_pick = t ;
                if (t > 0 && (t_best < 0 || t < t_best)) { t_best = t ; best = *v ; }
            }
            if (best != NULL)
            {
                const double t_all = run (f, GG_TC_EXACT, best_var [GG_TC_EXACT].empty () ? dv
                    : best_var [GG_TC_EXACT].c_str (), GG_TC_PARTS_ALL, best) ;
                printf ("# REM %s N=%lld: remainder %lld entries (%.1f %%), pick %s %.4f ms, fastest %s "
                    "%.4f ms; whole exact product with it %.4f ms (%.2fx cuSPARSE)\n", A.name.c_str (),
                    (long long) n, (long long) f->rem_nnz, 100.0 * f->rem_nnz / A.nnz, pick, t_pick,
                    best, t_best, t_all, t_all > 0 ? base / t_all : 0) ;
            }
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
        // window rules: every variant, exact and tf32
        for (size_t q = 0 ; q < rules.size () ; q++)
        {
            gg_hybrid_form *g = NULL ;
            const gg_tc_rule rule = rules [q] ;
            if (gg_tc_build_rule (A.m, A.k, A.nnz, dp, di, dx, GG_FP32, &rule, &g, 0) != GG_OK)
            { printf ("build rule %s failed\n", rule_name (rule).c_str ()) ; wrong++ ; continue ; }
            g->threshold = RULE_T0 + (int) q ;     // (tells the rows apart in the tables)
            gg_tc_info gi ;
            gg_tc_form_info (g, &gi) ;
            double best [2] = { -1, -1 } ;
            for (int mode : { (int) GG_TC_EXACT, (int) GG_TC_TF32 })
                for (const char *const *v = gg_tc_variants () ; *v ; v++)
                {
                    const double t = run (g, mode, *v, GG_TC_PARTS_ALL) ;
                    double &b = best [mode == GG_TC_TF32] ;
                    if (t > 0 && (b < 0 || t < b)) b = t ;
                }
            printf ("# RULE %s N=%lld absorb %d win_min %d grow %d: TC %.1f %% (default %.1f %%), %lld blocks "
                "(fill %.3f), remainder %lld entries; exact %.4f ms (%.2fx cuSPARSE), tf32 %.4f ms, "
                "build %.2f ms\n", A.name.c_str (), (long long) n, rule.absorb_pct, rule.win_min, rule.absorb_grow,
                100 * gi.tc_share, 100 * info.tc_share, (long long) gi.nblk, gi.fill,
                (long long) gi.rem_nnz, best [0], best [0] > 0 ? base / best [0] : 0, best [1],
                gi.build_ms) ;
            gg_tc_free (g, 0) ;
        }
        release () ;
    }
    gg_tc_free (f, 0) ;
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ; cudaFree (dplan) ;
    CK (cudaDeviceSynchronize ()) ;
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
        else if (!strcmp (argv [a], "--rules") && a + 1 < argc)
        {
            // A:W or A:W:G items, comma-separated
            for (const char *s = argv [++a] ; *s ; )
            {
                gg_tc_rule r = { 3, 16, 0, 0, 0 } ;
                r.absorb_pct = (int) strtol (s, (char **) &s, 10) ;
                if (*s == ':') r.win_min = (int) strtol (s + 1, (char **) &s, 10) ;
                if (*s == ':') r.absorb_grow = (int) strtol (s + 1, (char **) &s, 10) ;
                rules.push_back (r) ;
                while (*s && *s != ',') s++ ;
                if (*s == ',') s++ ;
            }
        }
        else { fprintf (stderr, "usage: %s [--scales L] [--ns L] [--data DIR|--no-data] [--reps R] "
            "[--warmups W] [--thresholds L] [--segs L] [--rules A:W[:G],..] [--csv F]\n", argv [0]) ; return 2 ; }
    }
    cudaDeviceProp prop ;
    gg_need_device (&prop) ;
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
                && r.variant.find ('+') == std::string::npos    // (remainder kernel named: # REM)
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
    // rules: per matrix and N, the best exact variant with each rule, and
    // the better of the CUDA-core kernel and the exact hybrid (default form
    // or rule): what a chooser that measures would take
    if (!rules.empty ())
    {
        printf ("\n# RULES: exact speedup over cuSPARSE (fastest variant), default form (T3) and each "
            "window rule absorb:win_min[:grow]; pick = best of cuda, T3 and the rule\n") ;
        for (int64_t n : ns)
        {
            printf ("%-14s %4s %6s %6s", "matrix", "N", "cuda", "T3") ;
            for (const auto &r : rules) printf (" %7s  pick", rule_name (r).c_str ()) ;
            printf ("\n") ;
            std::vector<double> ls (2 + 2 * rules.size (), 0) ;
            int cnt = 0 ;
            for (const std::string &mname : names)
            {
                const result *b0 = best_of (mname, n, "cusparse", -1, 0) ;
                if (b0 == NULL) continue ;
                const result *c = best_of (mname, n, "cuda", -1, 0) ;
                const result *e = best_of (mname, n, "exact", 3, 16) ;
                const double sc = c ? b0->ms / c->ms : 0, se = e ? b0->ms / e->ms : 0 ;
                if (sc <= 0 || se <= 0) continue ;
                cnt++ ;
                printf ("%-14s %4lld %6.2f %6.2f", mname.c_str (), (long long) n, sc, se) ;
                ls [0] += log (sc) ; ls [1] += log (se) ;
                for (size_t q = 0 ; q < rules.size () ; q++)
                {
                    const result *r = best_of (mname, n, "exact", RULE_T0 + (int) q, 16) ;
                    const double sr = r ? b0->ms / r->ms : 0 ;
                    const double pk = fmax (sc, fmax (se, sr)) ;
                    printf (" %6.2f %6.2f", sr, pk) ;
                    ls [2 + 2*q] += log (sr > 0 ? sr : 1e-9) ; ls [3 + 2*q] += log (pk) ;
                }
                printf ("\n") ;
            }
            if (cnt == 0) continue ;
            printf ("%-14s %4lld %6.3f %6.3f", "# geomean", (long long) n, exp (ls [0] / cnt), exp (ls [1] / cnt)) ;
            for (size_t q = 0 ; q < rules.size () ; q++)
                printf (" %6.3f %6.3f", exp (ls [2 + 2*q] / cnt), exp (ls [3 + 2*q] / cnt)) ;
            printf (" (%d matrices)\n", cnt) ;
        }
    }
    fp64_table (ns) ;
    reorder_table (ns) ;
    printf ("# copy bandwidth %.1f GB/s; %d wrong results\n", copy_gbs, wrong) ;
    return wrong ? 1 : 0 ;
}
