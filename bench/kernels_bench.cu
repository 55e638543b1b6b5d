//------------------------------------------------------------------------------
// bench/kernels_bench.cu: grbgpu's SpMM / SpMV variants against cuSPARSE
//------------------------------------------------------------------------------

// Usage: kernels_bench [--csv FILE] [--scales 18,20,22] [--data DIR]
//                      [--ns 1,32,128] [--reps R] [--warmups W]
//                      [--variants a,b,...] [--semirings S] [--no-data]
//                      [--dsort]
//
// Matrices: R-MAT (a, b, c, d = 0.57, 0.19, 0.19, 0.05; 16 edges per row
// before removing duplicates) at the given scales, then every *.mtx.gz in DIR
// (default $GRBGPU_TEST_DATA, or ../shared/data/matrices): symmetric files are
// mirrored, pattern files get random values.  For each matrix and N: FP32
// PLUS_TIMES with cuSPARSE (SpMV CSR_ALG1/ALG2 for N = 1, SpMM CSR_ALG1/2/3
// otherwise; the best is the baseline) and every grbgpu variant, the chooser
// ("auto", given the longest row) and the runtime-switch form of two
// variants ("/generic"); then MIN_PLUS, PLUS_SECOND and MIN_SECOND with the
// grbgpu variants.  --variants keeps only the listed grbgpu variants,
// --semirings S the first S semirings of that list.  At N = 1 the warp_tI
// variant runs twice: as gg_cuda_spmm calls it (the plan made in every call)
// and with the plan made once beforehand ("+plan", what a caller that keeps
// the plan with the matrix gets); "plan_build" is the time to make it.
// At N = 1 the hot/cold SpMV (gg_cuda_spmv_hot, with the plan kept) runs with
// two hot forms, "hot" (as many columns as FP32 allows) and "hot_q" (a
// quarter of them; --variants names them too); "hot_build" is the time to
// make the form, and a table of them is printed last.  Beside them the band
// SpMV (gg_cuda_spmv_band): "band" (the measured rule), "band_all" (every
// band that has entries) and "band_deg6" (bands whose columns hold 6
// entries each on average); K in that table is then bands x width, cover the
// share of the entries served from shared memory.
// --dsort adds, after each R-MAT, the same matrix with its columns renumbered
// by descending entry count ("rmatS_dsort": hot entries of x share sectors).
// Timing: CUDA events around each launch, W (default 3) warm-ups, the median
// of R (default 10) runs.  First line: the device's copy bandwidth
// (cudaMemcpy device to device of 1 GiB, bytes read + written / time), the
// reference for "% of copy bandwidth".  Bandwidth is against the minimum bytes:
// the CSR arrays the semiring reads, X and Y, each once.  Every result is
// checked in the same run: PLUS_TIMES against cuSPARSE's result on all rows,
// and every semiring against a CPU reference on a sample of rows (and the
// longest row); a failed check is printed and marked in the CSV.

#include "tests/need_device.h"
#include "bench/kernels_bench.cuh"

uint64_t rng_state = 12345 ;

//------------------------------------------------------------------------------
// timing
//------------------------------------------------------------------------------

static int reps = 10, warmups = 3 ;
static std::vector<std::string> only_variants ;    // empty: all
static int n_semirings = 4 ;
static bool dsort = false ;     // also bench each R-MAT with degree-sorted columns

// the median of reps timed calls after warmups (bench/bench_cuda.cuh)
template <typename F> static double time_ms (F launch)
{
    return bench_time_ms (launch, warmups, reps) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

static FILE *csv = NULL ;

// one line per (matrix, N, semiring) for the summary printed last
typedef struct
{
    std::string matrix, sr ;
    int64_t n ;
    double cusparse_ms, best_ms, auto_ms ;
    std::string best, autoname ;
    double auto_bytes, best_bytes ;
    double plan_ms ;        // best "+plan" variant (-1: none)
    std::string plan_name ;
}
summary_row ;
static std::vector<summary_row> summary ;

// hot/cold SpMV rows (N = 1) for the table printed last
typedef struct
{
    std::string matrix, sr, kern ;
    int64_t K ;
    double cover, build_ms, ms, bytes, cusparse_ms, plan_ms ;
}
hot_row ;
static std::vector<hot_row> hot_rows ;

static void report (const csr &A, int64_t n, const char *sr, const char *kern,
    double ms, double bytes, double base_ms, bool ok)
{
    double gflops = 2.0 * (double) A.nnz * n / (ms * 1e6) ;
    double gbs = bytes / (ms * 1e6) ;
    double sp = base_ms > 0 ? base_ms / ms : 0 ;
    printf ("%-16s %4lld %-11s %-18s %9.4f %9.1f %8.1f %7.2f %s\n", A.name.c_str (),
        (long long) n, sr, kern, ms, gflops, gbs, sp, ok ? "ok" : "WRONG") ;
    if (csv)
        fprintf (csv, "%s,%lld,%lld,%lld,%lld,%lld,%s,%s,%.5f,%.2f,%.2f,%.3f,%s\n",
            A.name.c_str (), (long long) A.m, (long long) A.k, (long long) A.nnz,
            (long long) A.max_row, (long long) n, sr, kern, ms, gflops, gbs, sp,
            ok ? "ok" : "WRONG") ;
    fflush (stdout) ;
}

static int wrong = 0 ;

static void bench_matrix (cusparseHandle_t h, const csr &A, const std::vector<int64_t> &ns)
{
    int32_t *dp, *di ; float *dx ;
    CK (cudaMalloc (&dp, (A.m + 1) * 4)) ; CK (cudaMalloc (&di, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&dx, A.nnz * 4 + 4)) ;
    CK (cudaMemcpy (dp, A.p.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (di, A.i.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dx, A.x.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    // sample rows for the CPU check: 300 random + the longest
    std::vector<int64_t> rows ;
    for (int s = 0 ; s < 300 ; s++) rows.push_back ((int64_t) (rng () % A.m)) ;
    for (int64_t r = 0 ; r < A.m ; r++) if (A.p [r+1] - A.p [r] == A.max_row) { rows.push_back (r) ; break ; }
    printf ("# %s: m=%lld k=%lld nnz=%lld mean row %.2f max row %lld\n", A.name.c_str (),
        (long long) A.m, (long long) A.k, (long long) A.nnz, (double) A.nnz / A.m,
        (long long) A.max_row) ;

    for (int64_t n : ns)
    {
        std::vector<float> X (A.k * n) ;
        for (auto &v : X) v = rnd_val () ;
        float *dX, *dY ;
        CK (cudaMalloc (&dX, X.size () * 4)) ; CK (cudaMalloc (&dY, A.m * n * 4)) ;
        CK (cudaMemcpy (dX, X.data (), X.size () * 4, cudaMemcpyHostToDevice)) ;
        std::vector<float> ref (A.m * n), y (A.m * n) ;

        // cuSPARSE baseline (PLUS_TIMES FP32)
        double base = -1 ;
        std::string base_name ;
        {
            cusparseSpMatDescr_t S ;
            CKS (cusparseCreateCsr (&S, A.m, A.k, A.nnz, dp, di, dx, CUSPARSE_INDEX_32I,
                CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F)) ;
            float one = 1, zero = 0 ;
            if (n == 1)
            {
                cusparseDnVecDescr_t vx, vy ;
                CKS (cusparseCreateDnVec (&vx, A.k, dX, CUDA_R_32F)) ;
                CKS (cusparseCreateDnVec (&vy, A.m, dY, CUDA_R_32F)) ;
                const cusparseSpMVAlg_t algs [] = { CUSPARSE_SPMV_CSR_ALG1, CUSPARSE_SPMV_CSR_ALG2 } ;
                const char *an [] = { "cusparse_spmv_alg1", "cusparse_spmv_alg2" } ;
                for (int a = 0 ; a < 2 ; a++)
                {
                    size_t bs = 0 ; void *buf = NULL ;
                    if (cusparseSpMV_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, S, vx,
                        &zero, vy, CUDA_R_32F, algs [a], &bs) != CUSPARSE_STATUS_SUCCESS) continue ;
                    CK (cudaMalloc (&buf, bs + 16)) ;
                    bool okp = true ;
#if CUSPARSE_VERSION >= 12300
                    okp = cusparseSpMV_preprocess (h, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, S, vx,
                        &zero, vy, CUDA_R_32F, algs [a], buf) == CUSPARSE_STATUS_SUCCESS ;
#endif
                    if (okp)
                    {
                        double t = time_ms ([&] { cusparseSpMV (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                            &one, S, vx, &zero, vy, CUDA_R_32F, algs [a], buf) ; }) ;
                        CK (cudaMemcpy (y.data (), dY, A.m * n * 4, cudaMemcpyDeviceToHost)) ;
                        bool ok = check_sample (SR_PLUS_TIMES, A, X, n, y, rows) ;
                        double bytes = (A.m + 1) * 4.0 + A.nnz * 8.0 + A.k * n * 4.0 + A.m * n * 4.0 ;
                        report (A, n, "PLUS_TIMES", an [a], t, bytes, -1, ok) ;
                        if (ok && (base < 0 || t < base)) { base = t ; base_name = an [a] ; ref = y ; }
                    }
                    cudaFree (buf) ;
                }
                cusparseDestroyDnVec (vx) ; cusparseDestroyDnVec (vy) ;
            }
            else
            {
                cusparseDnMatDescr_t mx, my ;
                CKS (cusparseCreateDnMat (&mx, A.k, n, n, dX, CUDA_R_32F, CUSPARSE_ORDER_ROW)) ;
                CKS (cusparseCreateDnMat (&my, A.m, n, n, dY, CUDA_R_32F, CUSPARSE_ORDER_ROW)) ;
                const cusparseSpMMAlg_t algs [] = { CUSPARSE_SPMM_CSR_ALG1, CUSPARSE_SPMM_CSR_ALG2, CUSPARSE_SPMM_CSR_ALG3 } ;
                const char *an [] = { "cusparse_alg1", "cusparse_alg2", "cusparse_alg3" } ;
                for (int a = 0 ; a < 3 ; a++)
                {
                    size_t bs = 0 ; void *buf = NULL ;
                    if (cusparseSpMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                        CUSPARSE_OPERATION_NON_TRANSPOSE, &one, S, mx, &zero, my, CUDA_R_32F,
                        algs [a], &bs) != CUSPARSE_STATUS_SUCCESS) continue ;
                    CK (cudaMalloc (&buf, bs + 16)) ;
                    if (cusparseSpMM_preprocess (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                        CUSPARSE_OPERATION_NON_TRANSPOSE, &one, S, mx, &zero, my, CUDA_R_32F,
                        algs [a], buf) == CUSPARSE_STATUS_SUCCESS)
                    {
                        cusparseStatus_t st = CUSPARSE_STATUS_SUCCESS ;
                        double t = time_ms ([&] { st = cusparseSpMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                            CUSPARSE_OPERATION_NON_TRANSPOSE, &one, S, mx, &zero, my, CUDA_R_32F,
                            algs [a], buf) ; }) ;
                        if (st == CUSPARSE_STATUS_SUCCESS)
                        {
                            CK (cudaMemcpy (y.data (), dY, A.m * n * 4, cudaMemcpyDeviceToHost)) ;
                            bool ok = check_sample (SR_PLUS_TIMES, A, X, n, y, rows) ;
                            double bytes = (A.m + 1) * 4.0 + A.nnz * 8.0 + A.k * n * 4.0 + A.m * n * 4.0 ;
                            report (A, n, "PLUS_TIMES", an [a], t, bytes, -1, ok) ;
                            if (ok && (base < 0 || t < base)) { base = t ; base_name = an [a] ; ref = y ; }
                        }
                    }
                    cudaFree (buf) ;
                }
                cusparseDestroyDnMat (mx) ; cusparseDestroyDnMat (my) ;
            }
            cusparseDestroySpMat (S) ;
        }

        // grbgpu variants
        std::map<int64_t, std::string> pt_best ;
        std::vector<std::string> kern ;
        for (const char *const *v = gg_cuda_spmm_variants () ; *v ; v++)
            if (only_variants.empty () || std::find (only_variants.begin (),
                only_variants.end (), std::string (*v)) != only_variants.end ())
                kern.push_back (*v) ;
        // the SpMV plan, made once (timed) for the "+plan" runs
        void *dplan = NULL ;
        bool slots = false ;
        for (const std::string &k : kern) slots = slots || k.compare (0, 4, "slot") == 0 ;
        if (n == 1 || slots)
        {
            CK (cudaMalloc (&dplan, gg_cuda_spmv_plan_bytes (A.nnz))) ;
            double t = time_ms ([&] { gg_cuda_spmv_plan_build (A.m, A.nnz, dp, dplan, 0) ; }) ;
            report (A, n, "-", "plan_build", t, (A.m + 1) * 4.0, -1, true) ;
        }
        // hot forms (gg_cuda_spmv_hot_build, timed): "hot" with as many
        // columns as FP32 allows, "hot_q" with a quarter of them
        struct hot_form { std::string name ; int64_t kmax, K ; int32_t *dhot, *dih ; double cover, build_ms ; } ;
        std::vector<hot_form> hots ;
        if (n == 1)
        {
            const int64_t hmax = (int64_t) gg_cuda_spmv_hot_max (4) ;
            const std::pair<const char *, int64_t> hk [] = { { "hot", hmax }, { "hot_q", hmax / 4 } } ;
            for (const auto &h : hk)
            {
                if (!only_variants.empty () && std::find (only_variants.begin (),
                    only_variants.end (), std::string (h.first)) == only_variants.end ()) continue ;
                hot_form f = { h.first, h.second, 0, NULL, NULL, 0, 0 } ;
                CK (cudaMalloc (&f.dhot, (f.kmax + 1) * 4)) ;
                CK (cudaMalloc (&f.dih, A.nnz * 4 + 4)) ;
                int rc = GG_OK ;
                f.build_ms = time_ms ([&] { rc = gg_cuda_spmv_hot_build (A.m, A.k, A.nnz, dp, di,
                    f.kmax, f.dhot, f.dih, &f.K, NULL, 0) ; }) ;
                if (rc != GG_OK) { printf ("hot build: rc %d\n", rc) ; continue ; }
                // the share of entries in the hot columns
                std::vector<int32_t> hl (f.K) ;
                if (f.K > 0) CK (cudaMemcpy (hl.data (), f.dhot, f.K * 4, cudaMemcpyDeviceToHost)) ;
                std::vector<char> ishot (A.k, 0) ;
                for (int32_t c : hl) ishot [c] = 1 ;
                int64_t covered = 0 ;
                for (int32_t c : A.i) covered += ishot [c] ;
                f.cover = (double) covered / (double) A.nnz ;
                printf ("# %s: K = %lld of kmax %lld, %.1f %% of the entries, build %.3f ms\n",
                    f.name.c_str (), (long long) f.K, (long long) f.kmax, 100 * f.cover, f.build_ms) ;
                report (A, n, "-", (f.name + "_build").c_str (), f.build_ms, A.nnz * 8.0, -1, true) ;
                hots.push_back (f) ;
            }
        }
        // band forms (gg_cuda_spmv_band_build, timed, FP32 values kept):
        // "band" with the measured rule, "band_all" keeping every band that
        // has entries (up to 14)
        struct band_form { std::string name ; gg_spmv_band_form *f ; gg_spmv_band_info info ; double build_ms ; } ;
        std::vector<band_form> bands ;
        if (n == 1)
        {
            const int64_t bw = (int64_t) gg_cuda_spmv_band_width (4) ;
            const std::pair<const char *, int64_t> bk [] = { { "band", -1 }, { "band_all", 1 },
                { "band_deg6", 6 * bw } } ;
            for (const auto &b : bk)
            {
                if (!only_variants.empty () && std::find (only_variants.begin (),
                    only_variants.end (), std::string (b.first)) == only_variants.end ()) continue ;
                band_form f = { b.first, NULL, {}, 0 } ;
                int rc = GG_OK ;
                // one untimed build first (the pool then holds the scratch)
                rc = gg_cuda_spmv_band_build (A.m, A.k, A.nnz, dp, di, dx, 4, 0, b.second, &f.f, 0) ;
                gg_cuda_spmv_band_free (f.f, true, 0) ;
                f.f = NULL ;
                CK (cudaDeviceSynchronize ()) ;
                cudaEvent_t e0, e1 ;
                CK (cudaEventCreate (&e0)) ; CK (cudaEventCreate (&e1)) ;
                CK (cudaEventRecord (e0)) ;
                if (rc == GG_OK) rc = gg_cuda_spmv_band_build (A.m, A.k, A.nnz, dp, di, dx, 4, 0, b.second, &f.f, 0) ;
                CK (cudaEventRecord (e1)) ;
                CK (cudaEventSynchronize (e1)) ;
                float ms = 0 ;
                CK (cudaEventElapsedTime (&ms, e0, e1)) ;
                cudaEventDestroy (e0) ; cudaEventDestroy (e1) ;
                f.build_ms = ms ;
                if (rc != GG_OK || f.f == NULL) { printf ("# %s: rc %d, no form\n", b.first, rc) ; continue ; }
                gg_cuda_spmv_band_info (f.f, &f.info) ;
                printf ("# %s: %d bands of %lld columns hold %.1f %% of the entries; form %.1f MB; build %.3f ms\n#   band (nnz, rows):",
                    f.name.c_str (), f.info.nbands, (long long) f.info.width,
                    100.0 * f.info.band_nnz / A.nnz, f.info.bytes / 1e6, f.build_ms) ;
                for (int q = 0 ; q <= f.info.nbands ; q++)
                    printf (" %s(%lld, %lld)", q == f.info.nbands ? "cold" : "",
                        (long long) f.info.nnz [q], (long long) f.info.rows [q]) ;
                printf ("\n") ;
                report (A, n, "-", (f.name + "_build").c_str (), f.build_ms, A.nnz * 8.0, -1, true) ;
                bands.push_back (f) ;
            }
        }
        std::string autoname = gg_cuda_spmm_choose (A.m, n, A.nnz, A.max_row) ;
        for (int sr = 0 ; sr < SR_N && sr < n_semirings ; sr++)
        {
            summary_row sum = { A.name, sr_name [sr], n, sr == SR_PLUS_TIMES ? base : -1,
                -1, -1, "", autoname, 0, 0, -1, "" } ;
            // PLUS_TIMES: every variant (less those known to be hopeless
            // here: row-split on hub rows at n > 1, merge beyond SpMV, which
            // loops over the columns) and two runtime-switch forms; other
            // semirings: the chooser's pick and PLUS_TIMES's best variant
            std::vector<std::string> ks ;
            if (sr == SR_PLUS_TIMES)
            {
                for (const std::string &k : kern)
                {
                    if (n > 1 && k.compare (0, 5, "merge") == 0) continue ;
                    if (n > 1 && A.max_row > 4096 && k.compare (0, 3, "row") == 0) continue ;
                    ks.push_back (k) ;
                }
                for (const std::string &k : kern)
                    if ((n == 1 && k.compare (0, 4, "warp") == 0) || k.compare (0, 4, "slot") == 0)
                        ks.push_back (k + "+plan") ;
                ks.push_back ("auto") ;
                if (only_variants.empty ())
                    ks.push_back (n == 1 ? "merge_i8/generic" : "nnz_k32/generic") ;
            }
            else
            {
                ks.push_back ("auto") ;
                if (!pt_best [n].empty () && pt_best [n] != autoname) ks.push_back (pt_best [n]) ;
            }
            for (const hot_form &f : hots) ks.push_back (f.name + "+plan") ;
            for (const band_form &f : bands) ks.push_back (f.name) ;
            bool reads_s = (sr == SR_PLUS_TIMES || sr == SR_MIN_PLUS) ;
            double bytes = (A.m + 1) * 4.0 + A.nnz * (reads_s ? 8.0 : 4.0) + A.k * n * 4.0 + A.m * n * 4.0 ;
            for (const std::string &k : ks)
            {
                std::string kname = (k == "auto") ? autoname : k ;
                const bool with_plan = (kname.size () > 5 && kname.compare (kname.size () - 5, 5, "+plan") == 0) ;
                if (with_plan) kname.resize (kname.size () - 5) ;
                int rc = GG_OK ;
                CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;   // NaN: stale results fail
                const hot_form *hf = NULL ;
                for (const hot_form &f : hots) if (f.name == kname) hf = &f ;
                const band_form *bf = NULL ;
                for (const band_form &f : bands) if (f.name == kname) bf = &f ;
                double t = time_ms ([&] {
                    if (bf != NULL)
                        rc = gg_cuda_spmv_band (&sr_def [sr], bf->f, reads_s ? dx : NULL,
                            false, dX, dY, 0) ;
                    else if (hf != NULL)
                        rc = gg_cuda_spmv_hot (&sr_def [sr], A.m, A.k, A.nnz, dp, hf->dih,
                            reads_s ? dx : NULL, false, dX, dY, with_plan ? dplan : NULL,
                            hf->dhot, hf->K, 0) ;
                    else
                        rc = gg_cuda_spmm_plan (&sr_def [sr], A.m, A.k, n, A.nnz, dp, di,
                            reads_s ? dx : NULL, false, dX, dY, with_plan ? dplan : NULL,
                            with_plan ? A.max_row : -1, kname.c_str (), 0) ; }) ;
                CK (cudaDeviceSynchronize ()) ;
                if (rc != GG_OK) { printf ("%s: rc %d\n", kname.c_str (), rc) ; continue ; }
                CK (cudaMemcpy (y.data (), dY, A.m * n * 4, cudaMemcpyDeviceToHost)) ;
                bool ok = check_sample (sr, A, X, n, y, rows) ;
                if (sr == SR_PLUS_TIMES && base > 0) ok = ok && close_all (y, ref, A, X, n) ;
                if (!ok) wrong++ ;
                std::string label = (k == "auto") ? "auto=" + autoname : k ;
                report (A, n, sr_name [sr], label.c_str (), t, bytes,
                    sr == SR_PLUS_TIMES ? base : -1, ok) ;
                if (hf != NULL)
                    hot_rows.push_back ({ A.name, sr_name [sr], k, hf->K, hf->cover,
                        hf->build_ms, ok ? t : -1, bytes, sr == SR_PLUS_TIMES ? base : -1,
                        sum.plan_ms > 0 ? sum.plan_ms : sum.auto_ms }) ;
                if (bf != NULL)
                    hot_rows.push_back ({ A.name, sr_name [sr], k,
                        (int64_t) bf->info.nbands * bf->info.width,
                        (double) bf->info.band_nnz / A.nnz, bf->build_ms, ok ? t : -1, bytes,
                        sr == SR_PLUS_TIMES ? base : -1,
                        sum.plan_ms > 0 ? sum.plan_ms : sum.auto_ms }) ;
                if (k == "auto") sum.auto_ms = t ;
                else if (hf != NULL || bf != NULL) { }
                else if (with_plan) { if (ok && (sum.plan_ms < 0 || t < sum.plan_ms)) { sum.plan_ms = t ; sum.plan_name = k ; } }
                else if (ok && k.find ('/') == std::string::npos && (sum.best_ms < 0 || t < sum.best_ms))
                { sum.best_ms = t ; sum.best = k ; }
                if (k == "auto") sum.auto_bytes = bytes ;
                sum.best_bytes = bytes ;
            }
            if (sr == SR_PLUS_TIMES) pt_best [n] = sum.best ;
            summary.push_back (sum) ;
        }
        cudaFree (dX) ; cudaFree (dY) ;
        if (dplan) cudaFree (dplan) ;
        for (hot_form &f : hots) { cudaFree (f.dhot) ; cudaFree (f.dih) ; }
        for (band_form &f : bands) gg_cuda_spmv_band_free (f.f, true, 0) ;
    }
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ;
}

static std::vector<int64_t> parse_list (const char *s)
{
    std::vector<int64_t> v ;
    while (*s) { v.push_back (strtoll (s, (char **) &s, 10)) ; if (*s == ',') s++ ; }
    return v ;
}

int main (int argc, char **argv)
{
    std::vector<int64_t> scales = { 18, 20, 22 }, ns = { 1, 32, 128 } ;
    const char *data = getenv ("GRBGPU_TEST_DATA") ;
    std::string datadir = data ? data : "../shared/data/matrices" ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--csv") && a + 1 < argc) csv = fopen (argv [++a], "w") ;
        else if (!strcmp (argv [a], "--scales") && a + 1 < argc) scales = parse_list (argv [++a]) ;
        else if (!strcmp (argv [a], "--ns") && a + 1 < argc) ns = parse_list (argv [++a]) ;
        else if (!strcmp (argv [a], "--data") && a + 1 < argc) datadir = argv [++a] ;
        else if (!strcmp (argv [a], "--reps") && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--warmups") && a + 1 < argc) warmups = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--semirings") && a + 1 < argc) n_semirings = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--no-data")) datadir = "" ;
        else if (!strcmp (argv [a], "--dsort")) dsort = true ;
        else if (!strcmp (argv [a], "--variants") && a + 1 < argc)
        {
            std::string s = argv [++a] ;
            size_t pos = 0 ;
            while (pos <= s.size ())
            {
                size_t c = s.find (',', pos) ;
                if (c == std::string::npos) c = s.size () ;
                if (c > pos) only_variants.push_back (s.substr (pos, c - pos)) ;
                pos = c + 1 ;
            }
        }
        else { fprintf (stderr, "usage: %s [--csv F] [--scales L] [--ns L] [--data DIR] [--reps R]\n", argv [0]) ; return 2 ; }
    }
    cudaDeviceProp prop ;
    gg_need_device (&prop) ;
    printf ("# device: %s, %d SMs\n", prop.name, prop.multiProcessorCount) ;
    if (csv) fprintf (csv, "matrix,m,k,nnz,max_row,n,semiring,kernel,ms,gflops,gbs,speedup_vs_cusparse,check\n") ;
    printf ("%-16s %4s %-11s %-18s %9s %9s %8s %7s\n", "matrix", "N", "semiring", "kernel",
        "ms", "GFLOP/s", "GB/s", "vs cuSP") ;
    // copy bandwidth: 1 GiB device to device, read + written
    double copy_gbs = 0 ;
    {
        size_t cb = (size_t) 1 << 30 ;
        void *s1, *s2 ;
        CK (cudaMalloc (&s1, cb)) ; CK (cudaMalloc (&s2, cb)) ;
        CK (cudaMemset (s1, 1, cb)) ;
        double t = time_ms ([&] { cudaMemcpyAsync (s2, s1, cb, cudaMemcpyDeviceToDevice, 0) ; }) ;
        copy_gbs = 2.0 * (double) cb / (t * 1e6) ;
        printf ("# copy bandwidth: cudaMemcpy D2D 1 GiB %.4f ms = %.1f GB/s (read + written)\n", t, copy_gbs) ;
        cudaFree (s1) ; cudaFree (s2) ;
    }
    cusparseHandle_t h ;
    CKS (cusparseCreate (&h)) ;
    for (int64_t s : scales)
    {
        csr A = rmat ((int) s) ;
        bench_matrix (h, A, ns) ;
        if (dsort) bench_matrix (h, degree_sorted (A), ns) ;
    }
    DIR *d = datadir.empty () ? NULL : opendir (datadir.c_str ()) ;
    if (d == NULL) printf ("# no matrices in %s: real-matrix cases skipped\n", datadir.c_str ()) ;
    else
    {
        std::vector<std::string> files ;
        while (struct dirent *e = readdir (d))
        {
            std::string f = e->d_name ;
            if (f.size () > 7 && f.substr (f.size () - 7) == ".mtx.gz") files.push_back (f) ;
        }
        closedir (d) ;
        std::sort (files.begin (), files.end ()) ;
        for (const std::string &f : files)
        {
            csr A ;
            A.name = f.substr (0, f.size () - 7) ;
            if (!read_mtx_gz (datadir + "/" + f, A)) { printf ("# cannot read %s\n", f.c_str ()) ; continue ; }
            bench_matrix (h, A, ns) ;
        }
    }
    cusparseDestroy (h) ;
    if (csv) fclose (csv) ;
    printf ("\n# summary (ms; speedup = cuSPARSE best / ours; auto = chooser with the longest row known)\n") ;
    printf ("%-16s %4s %-11s %9s %-8s %9s %7s %-8s %9s %7s\n", "matrix", "N", "semiring",
        "cuSPARSE", "best", "ms", "speedup", "auto", "ms", "speedup") ;
    for (const summary_row &r : summary)
        printf ("%-16s %4lld %-11s %9.4f %-8s %9.4f %7.2f %-8s %9.4f %7.2f\n", r.matrix.c_str (),
            (long long) r.n, r.sr.c_str (), r.cusparse_ms, r.best.c_str (), r.best_ms,
            r.cusparse_ms > 0 ? r.cusparse_ms / r.best_ms : 0, r.autoname.c_str (), r.auto_ms,
            r.cusparse_ms > 0 ? r.cusparse_ms / r.auto_ms : 0) ;
    // the goals (issue #5): ours (auto) vs cuSPARSE best, PLUS_TIMES, by N
    printf ("\n# SUMMARY (copy bandwidth %.1f GB/s)\n", copy_gbs) ;
    std::vector<int64_t> nlist ;
    for (const summary_row &r : summary) if (std::find (nlist.begin (), nlist.end (), r.n) == nlist.end ()) nlist.push_back (r.n) ;
    printf ("%-6s %8s %14s %14s %9s\n", "N", "matrices", "geomean auto", "geomean best", "min/max auto") ;
    for (int64_t n : nlist)
    {
        double la = 0, lb = 0, mn = 1e30, mx = 0 ;
        int cnt = 0 ;
        for (const summary_row &r : summary)
            if (r.n == n && r.sr == "PLUS_TIMES" && r.cusparse_ms > 0 && r.auto_ms > 0 && r.best_ms > 0)
            {
                double sa = r.cusparse_ms / r.auto_ms ;
                la += log (sa) ; lb += log (r.cusparse_ms / r.best_ms) ; cnt++ ;
                mn = std::min (mn, sa) ; mx = std::max (mx, sa) ;
            }
        if (cnt) printf ("%-6lld %8d %14.3f %14.3f %4.2f/%4.2f\n", (long long) n, cnt,
            exp (la / cnt), exp (lb / cnt), mn, mx) ;
    }
    for (const summary_row &r : summary)
        if (r.matrix == "rmat22" && r.n == 1 && r.sr == "PLUS_TIMES" && r.auto_ms > 0)
            printf ("rmat22 SpMV PLUS_TIMES: auto (%s) %.4f ms = %.1f GB/s = %.1f %% of copy; "
                "cuSPARSE %.4f ms = %.1f GB/s = %.1f %%\n", r.autoname.c_str (), r.auto_ms,
                r.auto_bytes / (r.auto_ms * 1e6), 100.0 * r.auto_bytes / (r.auto_ms * 1e6) / copy_gbs,
                r.cusparse_ms, r.auto_bytes / (r.cusparse_ms * 1e6),
                100.0 * r.auto_bytes / (r.cusparse_ms * 1e6) / copy_gbs) ;
    // semiring time ratios (auto vs auto, same matrix and N)
    printf ("%-18s %5s %10s %10s %12s %12s\n", "matrix", "N", "PT ms", "MIN_PLUS", "MIN_PLUS/PT", "MIN_SEC/PT") ;
    for (int64_t n : nlist)
    {
        double l1 = 0, l2 = 0, w1 = 0, w2 = 0 ;
        int cnt = 0 ;
        for (const summary_row &r : summary)
        {
            if (r.n != n || r.sr != "PLUS_TIMES" || r.auto_ms <= 0) continue ;
            double mp = -1, ms = -1 ;
            for (const summary_row &q : summary)
                if (q.matrix == r.matrix && q.n == n)
                {
                    if (q.sr == "MIN_PLUS") mp = q.auto_ms ;
                    if (q.sr == "MIN_SECOND") ms = q.auto_ms ;
                }
            if (mp <= 0 || ms <= 0) continue ;
            printf ("%-18s %5lld %10.4f %10.4f %12.2f %12.2f\n", r.matrix.c_str (), (long long) n,
                r.auto_ms, mp, mp / r.auto_ms, ms / r.auto_ms) ;
            l1 += log (mp / r.auto_ms) ; l2 += log (ms / r.auto_ms) ; cnt++ ;
            w1 = std::max (w1, mp / r.auto_ms) ; w2 = std::max (w2, ms / r.auto_ms) ;
        }
        if (cnt) printf ("%-18s %5lld %10s %10s %6.2f/%5.2f %6.2f/%5.2f  (geomean/worst)\n", "ALL", (long long) n, "", "",
            exp (l1 / cnt), w1, exp (l2 / cnt), w2) ;
    }
    // SpMV (N = 1, PLUS_TIMES) against the minimum bytes, per matrix
    printf ("\n# SpMV N=1 PLUS_TIMES (GB/s and %% of copy for auto; +plan = warp with the plan kept)\n") ;
    printf ("%-16s %9s %-9s %9s %7s %-9s %9s %7s %8s %6s %-14s %9s %7s\n", "matrix", "cuSPARSE", "best",
        "ms", "speedup", "auto", "ms", "speedup", "GB/s", "%copy", "+plan", "ms", "speedup") ;
    {
        double la = 0, lp = 0 ;
        int cnt = 0, cntp = 0 ;
        for (const summary_row &r : summary)
        {
            if (r.n != 1 || r.sr != "PLUS_TIMES" || r.cusparse_ms <= 0) continue ;
            double gbs = r.auto_bytes / (r.auto_ms * 1e6) ;
            double pbest = (r.plan_ms > 0 && r.plan_ms < r.auto_ms) ? r.plan_ms : r.auto_ms ;
            printf ("%-16s %9.4f %-9s %9.4f %7.2f %-9s %9.4f %7.2f %8.1f %6.1f %-14s %9.4f %7.2f\n",
                r.matrix.c_str (), r.cusparse_ms, r.best.c_str (), r.best_ms,
                r.cusparse_ms / r.best_ms, r.autoname.c_str (), r.auto_ms,
                r.cusparse_ms / r.auto_ms, gbs, 100.0 * gbs / copy_gbs,
                r.plan_name.c_str (), r.plan_ms, r.plan_ms > 0 ? r.cusparse_ms / r.plan_ms : 0) ;
            if (r.auto_ms > 0) { la += log (r.cusparse_ms / r.auto_ms) ; cnt++ ; }
            if (r.auto_ms > 0) { lp += log (r.cusparse_ms / pbest) ; cntp++ ; }
        }
        if (cnt) printf ("geomean cuSPARSE/auto at N=1: %.3f over %d matrices; with the plan kept "
            "(min of auto and +plan): %.3f\n", exp (la / cnt), cnt, exp (lp / cntp)) ;
    }
    // hot/cold SpMV: against cuSPARSE and warp_t8 with the plan kept
    if (!hot_rows.empty ())
    {
        printf ("\n# hot/cold SpMV N=1 (gg_cuda_spmv_hot; K hot columns holding cover of the entries)\n") ;
        printf ("%-14s %-11s %-11s %7s %6s %9s %9s %9s %9s %8s %6s %7s %7s\n", "matrix", "semiring", "kernel",
            "K", "cover", "build ms", "cuSPARSE", "t8(+plan)", "hot ms", "GB/s", "%copy", "vs cuSP", "vs t8") ;
        for (const hot_row &r : hot_rows)
        {
            double gbs = r.ms > 0 ? r.bytes / (r.ms * 1e6) : 0 ;
            printf ("%-14s %-11s %-11s %7lld %5.1f%% %9.3f %9.4f %9.4f %9.4f %8.1f %6.1f %7.2f %7.2f\n",
                r.matrix.c_str (), r.sr.c_str (), r.kern.c_str (), (long long) r.K, 100 * r.cover,
                r.build_ms, r.cusparse_ms, r.plan_ms, r.ms, gbs, 100 * gbs / copy_gbs,
                (r.cusparse_ms > 0 && r.ms > 0) ? r.cusparse_ms / r.ms : 0,
                (r.plan_ms > 0 && r.ms > 0) ? r.plan_ms / r.ms : 0) ;
        }
    }
    printf ("# %d wrong results\n", wrong) ;
    return wrong ? 1 : 0 ;
}
