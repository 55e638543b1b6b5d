//------------------------------------------------------------------------------
// bench/tc_bench_fp64.cu: tc_bench's FP64 and --reorder runs
//------------------------------------------------------------------------------

#include "bench/tc_bench.cuh"

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

// (tcr, sharer: T = 3 with each --rules window rule)
// (cuda: our pick, the FP32 rule's (gg_cuda_spmm_choose_plan_fp32, which the backend takes
// for FP64 too from the tenth session); cuda_old: the pick before that, gg_cuda_spmm_choose_plan;
// slot: the faster of slot_k32 / slot_k64, FP64's slot schedules)
struct fp64_row { std::string matrix ; int64_t n ; double cusp, cuda, tc3, tc4, share3, share4 ;
    std::vector<double> tcr, sharer ; double cuda_old, slot ; } ;
static std::vector<fp64_row> fp64_rows ;

void bench_fp64 (cusparseHandle_t h, const bm_csr &A, const std::vector<int64_t> &ns)
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
    const int nf = 2 + (int) rules.size () ;
    std::vector<gg_hybrid_form *> f (nf, NULL) ;
    std::vector<double> share (nf, 0) ;
    for (int q = 0 ; q < nf ; q++)
    {
        gg_tc_rule rule = { 3 + (q == 1), 0, 0, 0, 0 } ;
        if (q >= 2) { rule = rules [q-2] ; rule.seg_blocks = 0 ; }
        if (gg_tc_build_rule (A.m, A.k, A.nnz, dp, di, dx, GG_FP64, &rule, &f [q], 0) != GG_OK)
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
        // our CUDA-core kernel k, timed and checked
        auto own = [&] (const char *k, const char *label) -> double
        {
            CK (cudaMemset (dY, 0xff, A.m * n * 8)) ;
            return check (label, time_ms ([&] { rc = gg_cuda_spmm_plan (&sr, A.m, A.k, n,
                A.nnz, dp, di, dx, false, dX, dY, dplan, A.max_row, k, 0) ; })) ;
        } ;
        const char *kern = gg_cuda_spmm_choose_plan_fp32 (A.m, n, A.nnz, A.max_row) ;
        const double tc_cuda = own (kern, kern) ;
        // the FP64 pick before the tenth session, and the slot schedules
        const char *kern_old = gg_cuda_spmm_choose_plan (A.m, n, A.nnz, A.max_row) ;
        const std::string l_old = std::string ("old:") + kern_old ;
        const double t_old = strcmp (kern_old, kern) ? own (kern_old, l_old.c_str ()) : tc_cuda ;
        const double s32 = own ("slot_k32", "slot_k32"), s64 = own ("slot_k64", "slot_k64") ;
        const double tslot = (s32 > 0 && (s64 <= 0 || s32 < s64)) ? s32 : s64 ;
        std::vector<double> ttc (nf, -1) ;
        for (int q = 0 ; q < nf ; q++)
            for (const char *variant : { "direct2", "fused" })
            {
                CK (cudaMemset (dY, 0xff, A.m * n * 8)) ;
                const std::string what = (q >= 2 ? "dmma3r" + rule_name (rules [q-2]) + " "
                    : q ? std::string ("dmma4 ") : std::string ("dmma3 ")) + variant ;
                const double t = check (what.c_str (), time_ms ([&] { rc = gg_tc_spmm_ex (f [q], dX, dY,
                    n, GG_TC_EXACT, variant, GG_TC_PARTS_ALL, NULL, 0) ; })) ;
                if (t > 0 && (ttc [q] < 0 || t < ttc [q])) ttc [q] = t ;
            }
        if (rc != GG_OK) { printf ("FP64 rc %d\n", rc) ; wrong++ ; }
        fp64_rows.push_back ({ A.name, n, base, tc_cuda, ttc [0], ttc [1], share [0], share [1],
            std::vector<double> (ttc.begin () + 2, ttc.end ()),
            std::vector<double> (share.begin () + 2, share.end ()), t_old, tslot }) ;
        cudaFree (dX) ; cudaFree (dY) ;
    }
    for (int q = 0 ; q < nf ; q++) gg_tc_free (f [q], 0) ;
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ; cudaFree (dplan) ;
    CK (cudaDeviceSynchronize ()) ;
}

void fp64_table (const std::vector<int64_t> &ns)
{
    if (fp64_rows.empty ()) return ;
    printf ("\n# FP64 TABLE: speedup = cuSPARSE best (FP64) / this; dmma = the hybrid with DMMA "
        "(exact FP64), thresholds 3 and 4 (then 3 with each --rules window rule A:W[:G]: its "
        "speedup and TC %%), the faster of the split and fused kernels\n") ;
    printf ("%-14s %4s %9s %6s %6s %6s %6s %6s %6s %6s", "matrix", "N", "cuSP ms", "cuda", "old",
        "slot", "dmma3", "dmma4", "TC%3", "TC%4") ;
    for (const gg_tc_rule &r : rules) printf (" %8s %6s", rule_name (r).c_str (), "TC%") ;
    printf ("\n") ;
    const size_t nr = rules.size () ;
    for (int64_t n : ns)
    {
        double ls [4] = { 0, 0, 0, 0 } ;
        int lc [4] = { 0, 0, 0, 0 } ;
        std::vector<double> lr (nr, 0), lrb (nr, 0) ;
        std::vector<int> cr (nr, 0) ;
        double lold = 0, lsl = 0 ;
        int cold = 0, csl = 0 ;
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
            const double sold = r.cuda_old > 0 ? r.cusp / r.cuda_old : 0, ssl = r.slot > 0 ? r.cusp / r.slot : 0 ;
            if (sold > 0) { lold += log (sold) ; cold++ ; }
            if (ssl > 0) { lsl += log (ssl) ; csl++ ; }
            printf ("%-14s %4lld %9.4f %6.2f %6.2f %6.2f %6.2f %6.2f %6.1f %6.1f", r.matrix.c_str (),
                (long long) n, r.cusp, sp [0], sold, ssl, sp [1], sp [2], 100 * r.share3, 100 * r.share4) ;
            for (size_t q = 0 ; q < nr && q < r.tcr.size () ; q++)
            {
                const double spr = r.tcr [q] > 0 ? r.cusp / r.tcr [q] : 0 ;
                // (with the rule: the best of the CUDA-core kernel, T = 3, 4 and this rule)
                if (spr > 0) { lr [q] += log (spr) ; lrb [q] += log (std::max (spr, sp [3])) ; cr [q]++ ; }
                printf (" %8.2f %6.1f", spr, 100 * r.sharer [q]) ;
            }
            printf ("\n") ;
        }
        printf ("# FP64 geomean N=%lld: cuda %.3f, dmma T=3 %.3f, dmma T=4 %.3f, best of the three %.3f "
            "(vs cuSPARSE best)\n", (long long) n, lc [0] ? exp (ls [0] / lc [0]) : 0,
            lc [1] ? exp (ls [1] / lc [1]) : 0, lc [2] ? exp (ls [2] / lc [2]) : 0,
            lc [3] ? exp (ls [3] / lc [3]) : 0) ;
        if (cold > 0 && csl > 0) printf ("# FP64 geomean N=%lld: our CUDA-core kernel with the pick before "
            "the FP32 rule %.3f, the faster slot schedule %.3f (%d matrices)\n", (long long) n, exp (lold / cold),
            exp (lsl / csl), csl) ;
        for (size_t q = 0 ; q < nr ; q++)
            if (cr [q] > 0) printf ("# FP64 geomean N=%lld: dmma T=3 with the window rule %s %.3f, best of "
                "the three and it %.3f (%d matrices)\n", (long long) n, rule_name (rules [q]).c_str (),
                exp (lr [q] / cr [q]), exp (lrb [q] / cr [q]), cr [q]) ;
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
// cuSPARSE's best on S.  And what the order alone buys CUDA-core kernels
// (neighbouring rows sharing columns read X's rows from L1 / L2): cuSPARSE's
// best on S and on the permuted S (whose Y is S's with its rows permuted,
// checked so), and our CUDA-core kernel (the FP32 pick) on S and on the
// permuted S storing row q to Y's row perm [q] (gg_cuda_spmm_plan_rows with
// the permuted S's plan: the product itself, checked against S's; the
// reordered hybrid's remainder runs the same way), for three orders: RSH, the
// first-column sort and rows by length (longest first; ties by first
// column), each with its host seconds and the warm calls that pay for it
// (seconds / time saved per call).
struct reorder_row { std::string matrix ; int64_t n ; double rsh_s, s3a, s3b, s4a, s4b,
    cusp, unre, re, re_tf32, cusp_p, cuda, cuda_p, cuda_fc, cuda_len, fc_s, len_s,
    cuda_dev, dev_ms ; } ;

// rows by length, longest first (ties: first column, then row); empty rows last
static void order_by_length (const bm_csr &A, std::vector<int32_t> &perm)
{
    perm.resize (A.m) ;
    for (int64_t r = 0 ; r < A.m ; r++) perm [r] = (int32_t) r ;
    std::stable_sort (perm.begin (), perm.end (), [&] (int32_t a, int32_t b)
    {
        const int32_t la = A.p [a+1] - A.p [a], lb = A.p [b+1] - A.p [b] ;
        if (la != lb) return la > lb ;
        if (la == 0) return false ;
        return A.i [A.p [a]] < A.i [A.p [b]] ;
    }) ;
}

static double host_seconds (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return t.tv_sec + 1e-9 * t.tv_nsec ;
}

// a permuted copy of S on the device (row q = row perm [q] of A) and perm;
// host != NULL: the permuted CSR on the host too, as a matrix of its own
struct dev_perm { int32_t *p = NULL, *i = NULL, *perm = NULL ; float *x = NULL ; } ;
static dev_perm upload_permuted (const bm_csr &A, const std::vector<int32_t> &perm,
    bm_csr *host = NULL)
{
    std::vector<int32_t> bp (A.m + 1), bi (A.nnz + 1) ;
    std::vector<float> bx (A.nnz + 1) ;
    gg_reorder_permute_rows (A.p.data (), A.i.data (), A.x.data (), sizeof (float), false, A.m,
        perm.data (), bp.data (), bi.data (), bx.data ()) ;
    dev_perm d ;
    CK (cudaMalloc (&d.p, (A.m + 1) * 4)) ; CK (cudaMalloc (&d.i, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&d.x, A.nnz * 4 + 4)) ; CK (cudaMalloc (&d.perm, A.m * 4 + 4)) ;
    CK (cudaMemcpy (d.p, bp.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (d.i, bi.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (d.x, bx.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (d.perm, perm.data (), A.m * 4, cudaMemcpyHostToDevice)) ;
    if (host != NULL)
    {
        host->name = A.name + " reordered" ;
        host->m = A.m ; host->k = A.k ; host->nnz = A.nnz ; host->max_row = A.max_row ;
        host->p = std::move (bp) ; host->i = std::move (bi) ; host->x = std::move (bx) ;
    }
    return d ;
}
static void free_permuted (dev_perm &d)
{
    cudaFree (d.p) ; cudaFree (d.i) ; cudaFree (d.x) ; cudaFree (d.perm) ;
}
static std::vector<reorder_row> reorder_rows ;

void bench_reorder (cusparseHandle_t h, const bm_csr &A, const std::vector<int64_t> &ns)
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
    printf ("# %s reordered (RSH, %.3f s%s): TC share T=3 %.1f -> %.1f %%, T=4 %.1f -> %.1f %%, "
        "distinct columns per window %.1f -> %.1f\n", A.name.c_str (), info.t_total,
        info.fallback ? ", budget hit: first-column order" : "", 100 * s0.tc_share [3],
        100 * s1.tc_share [3], 100 * s0.tc_share [4], 100 * s1.tc_share [4], s0.avg_distinct,
        s1.avg_distinct) ;
    int32_t *dp, *di ; float *dx ;
    CK (cudaMalloc (&dp, (A.m + 1) * 4)) ; CK (cudaMalloc (&di, A.nnz * 4 + 4)) ;
    CK (cudaMalloc (&dx, A.nnz * 4 + 4)) ;
    CK (cudaMemcpy (dp, A.p.data (), (A.m + 1) * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (di, A.i.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    CK (cudaMemcpy (dx, A.x.data (), A.nnz * 4, cudaMemcpyHostToDevice)) ;
    // the RSH-permuted S, row q of B being row perm [q] of A, on the device
    // (ep, ei, ex, dperm) and as a matrix of its own (B, for cuSPARSE)
    bm_csr B ;
    dev_perm drsh = upload_permuted (A, perm, &B) ;
    int32_t *ep = drsh.p, *ei = drsh.i, *dperm = drsh.perm ; float *ex = drsh.x ;
    // the two cheap orders, timed on the host
    std::vector<int32_t> pfc (A.m), plen ;
    double t0 = host_seconds () ;
    if (gg_reorder_first_column (A.p.data (), A.i.data (), A.m, A.k, pfc.data (), NULL) != GG_OK)
    { printf ("reorder: first-column order failed\n") ; exit (1) ; }
    const double fc_s = host_seconds () - t0 ;
    t0 = host_seconds () ;
    order_by_length (A, plen) ;
    const double len_s = host_seconds () - t0 ;
    dev_perm dfc = upload_permuted (A, pfc), dlen = upload_permuted (A, plen) ;
    // the same order made on the device (gg_cuda_rows_by_length: equal lengths
    // in S's order), the form the backend's row lenr multiplies, and its build
    // time (median, the form freed after each)
    gg_rows_form RF ;
    const double dev_ms = time_ms ([&] {
        if (gg_cuda_rows_by_length (A.m, A.nnz, dp, di, dx, sizeof (float), &RF, 0) != GG_OK)
        { printf ("reorder: device length order failed\n") ; exit (1) ; }
        gg_cuda_rows_form_free (&RF, 0) ; }) ;
    if (gg_cuda_rows_by_length (A.m, A.nnz, dp, di, dx, sizeof (float), &RF, 0) != GG_OK)
    { printf ("reorder: device length order failed\n") ; exit (1) ; }
    // the plans of our CUDA-core kernel on S and on each ordered S (the
    // reordered runs store through row_out: gg_cuda_spmm_plan_rows)
    auto make_plan = [&] (const int32_t *mp) -> void *
    {
        void *pl ;
        CK (cudaMalloc (&pl, gg_cuda_spmv_plan_bytes (A.nnz) + 16)) ;
        if (gg_cuda_spmv_plan_build (A.m, A.nnz, mp, pl, 0) != GG_OK)
        { printf ("reorder: plan build failed\n") ; exit (1) ; }
        return pl ;
    } ;
    void *aplan = make_plan (dp), *rsh_plan = make_plan (ep), *fc_plan = make_plan (dfc.p),
        *len_plan = make_plan (dlen.p), *dev_plan = make_plan (RF.p) ;
    // forms: T = 3 and 4, then T = 3 with each window rule (--rules)
    const int nf = 2 + (int) rules.size () ;
    std::vector<gg_hybrid_form *> fu (nf, NULL), fr (nf, NULL) ;
    std::vector<std::string> fname (nf) ;
    for (int q = 0 ; q < nf ; q++)
    {
        gg_tc_rule rule = { 3 + (q == 1), 0, 0, 0, 0 } ;
        if (q >= 2) { rule = rules [q-2] ; rule.seg_blocks = 0 ; }
        fname [q] = "T=" + std::to_string (rule.threshold) ;
        if (q >= 2) fname [q] += " rule " + rule_name (rule) ;
        if (gg_tc_build_rule (A.m, A.k, A.nnz, dp, di, dx, GG_FP32, &rule, &fu [q], 0) != GG_OK
            || gg_tc_build_rule (A.m, A.k, A.nnz, ep, ei, ex, GG_FP32, &rule, &fr [q], 0) != GG_OK)
        { printf ("reorder: build failed\n") ; exit (1) ; }
        if (gg_tc_set_row_out (fr [q], dperm, 0) != GG_OK) { printf ("reorder: set_row_out failed\n") ; exit (1) ; }
        gg_tc_info iu, ir ;
        gg_tc_form_info (fu [q], &iu) ; gg_tc_form_info (fr [q], &ir) ;
        printf ("# %s %s: TC %.1f %% -> %.1f %% reordered, remainder %lld -> %lld entries, blocks %lld -> %lld\n",
            A.name.c_str (), fname [q].c_str (), 100 * iu.tc_share, 100 * ir.tc_share,
            (long long) iu.rem_nnz, (long long) ir.rem_nnz, (long long) iu.nblk, (long long) ir.nblk) ;
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
        // one result's line (and CSV row); a wrong one is counted (false)
        auto line = [&] (const char *what, double t, double rel, bool ok) -> bool
        {
            printf ("%-14s %4lld reorder  %-22s %9.4f ms %6.2fx rel %.2e %s\n", A.name.c_str (),
                (long long) n, what, t, base / t, rel, ok ? "ok" : "WRONG") ;
            if (csv) fprintf (csv, "%s,%lld,%lld,%lld,%lld,reorder,%s,0,0,%.5f,%.2f,%.3f,%.3e,0,0,0,%s\n",
                A.name.c_str (), (long long) A.m, (long long) A.k, (long long) A.nnz, (long long) n,
                what, t, 2.0 * A.nnz * n / (t * 1e6), base / t, rel, ok ? "ok" : "WRONG") ;
            if (!ok) wrong++ ;
            return ok ;
        } ;
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
            return line (what, t, rel, ok) ? t : -1 ;
        } ;
        auto best = [] (double a, double b) { return (a > 0 && (b <= 0 || a < b)) ? a : b ; } ;
        // the order alone: cuSPARSE and our CUDA-core kernel on S and on the
        // permuted S (Y's rows permuted: checked against ref so permuted)
        std::vector<float> refp (A.m * n), refq ;
        for (int64_t q = 0 ; q < A.m ; q++)
            for (int64_t j = 0 ; j < n ; j++) refp [q * n + j] = ref [(int64_t) perm [q] * n + j] ;
        const double cusp_p = cusparse_best<float> (h, B, ep, ei, ex, dX, dY, n, refq) ;
        const double cusp_p_rel = (cusp_p > 0) ? rel_to_ref (B, n, refq, refp) : INFINITY ;
        const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
        const char *kern = gg_cuda_spmm_choose_plan_fp32 (A.m, n, A.nnz, A.max_row) ;
        // (row_out: the permuted store, with the chooser's pick among the
        // schedules that take one: kern wherever kern is one of them, as
        // slot_kK is)
        const char *kern_rows = gg_cuda_spmm_choose_rows_plan_fp32 (A.m, n, A.nnz, A.max_row) ;
        auto core = [&] (int32_t *mp, int32_t *mi, float *mx, void *plan, const int32_t *row_out,
            const char *what) -> double
        {
            int rc = GG_OK ;
            CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
            const double t = time_ms ([&] { rc = (row_out == NULL)
                ? gg_cuda_spmm_plan (&sr, A.m, A.k, n, A.nnz, mp, mi, mx, false, dX, dY, plan, A.max_row, kern, 0)
                : gg_cuda_spmm_plan_rows (&sr, A.m, A.k, n, A.nnz, mp, mi, mx, false, dX, dY, plan,
                    A.max_row, row_out, kern_rows, 0) ; }) ;
            if (rc != GG_OK) return -1 ;
            CK (cudaMemcpy (y.data (), dY, A.m * n * 4, cudaMemcpyDeviceToHost)) ;
            const double rel = rel_to_ref (A, n, y, ref) ;
            return line (what, t, rel, rel < 1e-4) ? t : -1 ;
        } ;
        const std::string kn = std::string ("cuda ") + kern, knr = std::string ("cuda ") + kern_rows ;
        const double cuda = core (dp, di, dx, aplan, NULL, kn.c_str ()) ;
        const double cuda_p = core (ep, ei, ex, rsh_plan, dperm, (knr + " RSH order").c_str ()) ;
        const double cuda_fc = core (dfc.p, dfc.i, dfc.x, fc_plan, dfc.perm, (knr + " first-col order").c_str ()) ;
        const double cuda_len = core (dlen.p, dlen.i, dlen.x, len_plan, dlen.perm, (knr + " length order").c_str ()) ;
        const double cuda_dev = core (RF.p, RF.i, (float *) RF.x, dev_plan, RF.perm,
            (knr + " length order, device form").c_str ()) ;
        line ("cuSPARSE reordered", cusp_p, cusp_p_rel, cusp_p_rel < 1e-4) ;
        // the order alone for our FP32 pick itself without the permuted store
        // (the permuted S's Y, rows permuted, checked against ref so
        // permuted): what the store through row_out costs, beside the above
        {
            int rc = GG_OK ;
            int64_t mr = 0 ;
            for (int64_t q = 0 ; q < A.m ; q++) mr = std::max (mr, (int64_t) (B.p [q+1] - B.p [q])) ;
            CK (cudaMemset (dY, 0xff, A.m * n * 4)) ;
            const double t = time_ms ([&] { rc = gg_cuda_spmm_plan (&sr, A.m, A.k, n, A.nnz, ep, ei, ex,
                false, dX, dY, NULL, mr, kern, 0) ; }) ;
            std::vector<float> yp (A.m * n) ;
            CK (cudaMemcpy (yp.data (), dY, A.m * n * 4, cudaMemcpyDeviceToHost)) ;
            const double rel = (rc == GG_OK) ? rel_to_ref (B, n, yp, refp) : INFINITY ;
            line ((kn + " on the RSH-ordered S, Y permuted").c_str (), t, rel, rel < 1e-4) ;
        }
        // where the hybrid's time goes: each part alone, T = 3, direct2,
        // of S and of the reordered S (not checked: a part alone is not Y)
        for (int q = 0 ; q < 2 ; q++)
            for (int parts : { (int) GG_TC_PARTS_TC, (int) GG_TC_PARTS_REM })
            {
                gg_hybrid_form *g = q ? fr [0] : fu [0] ;
                int rc = GG_OK ;
                const double t = time_ms ([&] { rc = gg_tc_spmm_ex (g, dX, dY, n, GG_TC_EXACT, "direct2",
                    parts, NULL, 0) ; }) ;
                gg_tc_info gi ;
                gg_tc_form_info (g, &gi) ;
                printf ("# PARTS %s N=%lld %s T=3 direct2 %s alone: %.4f ms (%s, %lld entries, %lld blocks)\n",
                    A.name.c_str (), (long long) n, q ? "reordered" : "unreordered",
                    parts == GG_TC_PARTS_TC ? "tensor-core part" : "remainder", rc == GG_OK ? t : -1,
                    parts == GG_TC_PARTS_TC ? "exact" : gg_tc_rem_kernel (g, n),
                    (long long) (parts == GG_TC_PARTS_TC ? gi.tc_nnz : gi.rem_nnz), (long long) gi.nblk) ;
            }
        double unre = -1, re = -1, re_tf32 = -1 ;
        for (int q = 0 ; q < nf ; q++)
        {
            const std::string T = fname [q] ;
            unre = best (run (fu [q], GG_TC_EXACT, "direct2", (T + " split").c_str ()), unre) ;
            unre = best (run (fu [q], GG_TC_EXACT, "fused", (T + " fused").c_str ()), unre) ;
            unre = best (run (fu [q], GG_TC_EXACT, "team", (T + " team").c_str ()), unre) ;
            for (const char *variant : { "direct2", "cpasync2", "fused", "team" })
            {
                re = best (run (fr [q], GG_TC_EXACT, variant, (T + " reordered " + variant).c_str ()), re) ;
                re_tf32 = best (run (fr [q], GG_TC_TF32, variant,
                    (T + " reordered " + variant + " tf32").c_str ()), re_tf32) ;
            }
        }
        reorder_rows.push_back ({ A.name, n, info.t_total, s0.tc_share [3], s1.tc_share [3],
            s0.tc_share [4], s1.tc_share [4], base, unre, re, re_tf32,
            cusp_p_rel < 1e-4 ? cusp_p : -1, cuda, cuda_p, cuda_fc, cuda_len, fc_s, len_s,
            cuda_dev, dev_ms }) ;
        cudaFree (dX) ; cudaFree (dY) ;
    }
    for (int q = 0 ; q < nf ; q++) { gg_tc_free (fu [q], 0) ; gg_tc_free (fr [q], 0) ; }
    cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ; cudaFree (aplan) ; cudaFree (rsh_plan) ;
    cudaFree (fc_plan) ; cudaFree (len_plan) ; cudaFree (dev_plan) ;
    free_permuted (drsh) ;
    free_permuted (dfc) ; free_permuted (dlen) ;
    gg_cuda_rows_form_free (&RF, 0) ;
    CK (cudaDeviceSynchronize ()) ;
}

void reorder_table (const std::vector<int64_t> &ns)
{
    if (reorder_rows.empty ()) return ;
    printf ("\n# REORDER TABLE (FP32): RSH reordering on the host; TC%% = entries in window vectors of "
        ">= 3 / >= 4 before -> after; ms: cuSPARSE best on S, the hybrid of S (best of split, "
        "fused and team; T = 3, 4 and T = 3 with each --rules window rule; exact), the hybrid of the reordered S (the same forms; exact; tf32); x = cuSPARSE / this\n") ;
    printf ("# and the order alone: cuSP re/S = cuSPARSE's best on S / on the reordered S, cuda "
        "re/S = our CUDA-core kernel on S / on the reordered S storing rows in S's order (> 1: the "
        "order helps), for RSH, the first-column order (fc) and rows by length (len: on the host; "
        "dev: made on the device, the backend's row lenr, build ms); pays = the order's seconds "
        "/ ms saved per call (calls; -1: never)\n") ;
    printf ("%-14s %4s %7s %13s %13s %9s %9s %6s %9s %6s %6s %6s %9s %9s %8s %8s %8s %8s %9s %9s %9s %9s\n",
        "matrix", "N", "rsh s", "TC%3", "TC%4", "cuSP ms", "hyb ms", "x", "reord ms", "x", "re/hyb",
        "tf32 x", "cuSP re/S", "cuda re/S", "fc", "len", "dev", "build ms", "pays rsh", "pays fc",
        "pays len", "pays dev") ;
    // warm calls that pay for an order of s host seconds saving cuda - t ms
    auto pays = [] (double s, double cuda, double t) -> double
    {
        return (cuda > 0 && t > 0 && t < cuda) ? 1e3 * s / (cuda - t) : -1 ;
    } ;
    for (int64_t n : ns)
    {
        double l1 = 0, l2 = 0, l3 = 0, l4 = 0, l5 = 0, l6 = 0, l7 = 0 ;
        int c = 0, c4 = 0, c5 = 0, c6 = 0, c7 = 0 ;
        for (const reorder_row &r : reorder_rows)
        {
            if (r.n != n) continue ;
            const double x1 = r.unre > 0 ? r.cusp / r.unre : 0, x2 = r.re > 0 ? r.cusp / r.re : 0 ;
            const double x3 = (r.unre > 0 && r.re > 0) ? r.unre / r.re : 0 ;
            const double x4 = r.cusp_p > 0 ? r.cusp / r.cusp_p : 0 ;
            const double x5 = (r.cuda > 0 && r.cuda_p > 0) ? r.cuda / r.cuda_p : 0 ;
            const double x6 = (r.cuda > 0 && r.cuda_fc > 0) ? r.cuda / r.cuda_fc : 0 ;
            const double x7 = (r.cuda > 0 && r.cuda_len > 0) ? r.cuda / r.cuda_len : 0 ;
            const double x8 = (r.cuda > 0 && r.cuda_dev > 0) ? r.cuda / r.cuda_dev : 0 ;
            printf ("%-14s %4lld %7.3f %5.1f->%5.1f %5.1f->%5.1f %9.4f %9.4f %6.2f %9.4f %6.2f %6.2f %6.2f %9.2f %9.2f %8.2f %8.2f %8.2f %8.3f %9.0f %9.0f %9.0f %9.1f\n",
                r.matrix.c_str (), (long long) n, r.rsh_s, 100 * r.s3a, 100 * r.s3b, 100 * r.s4a,
                100 * r.s4b, r.cusp, r.unre, x1, r.re, x2, x3, r.re_tf32 > 0 ? r.cusp / r.re_tf32 : 0,
                x4, x5, x6, x7, x8, r.dev_ms, pays (r.rsh_s, r.cuda, r.cuda_p),
                pays (r.fc_s, r.cuda, r.cuda_fc), pays (r.len_s, r.cuda, r.cuda_len),
                pays (1e-3 * r.dev_ms, r.cuda, r.cuda_dev)) ;
            if (x6 > 0) { l6 += log (x6) ; c6++ ; }
            if (x7 > 0) { l7 += log (x7) ; c7++ ; }
            if (x1 > 0 && x2 > 0) { l1 += log (x1) ; l2 += log (x2) ; l3 += log (x3) ; c++ ; }
            if (x4 > 0) { l4 += log (x4) ; c4++ ; }
            if (x5 > 0) { l5 += log (x5) ; c5++ ; }
        }
        if (c) printf ("# REORDER geomean N=%lld (%d matrices): hybrid %.3f, reordered %.3f x cuSPARSE; "
            "reordered / hybrid %.3f\n", (long long) n, c, exp (l1 / c), exp (l2 / c), exp (l3 / c)) ;
        if (c4 && c5) printf ("# REORDER order alone N=%lld: cuSPARSE on S / on reordered S %.3f (%d "
            "matrices), our CUDA-core kernel %.3f (%d)\n", (long long) n, exp (l4 / c4), c4,
            exp (l5 / c5), c5) ;
        if (c6 && c7) printf ("# REORDER order alone N=%lld, our CUDA-core kernel (rows stored in "
            "S's order): first-column order %.3f (%d matrices), rows by length %.3f (%d)\n",
            (long long) n, exp (l6 / c6), c6, exp (l7 / c7), c7) ;
    }
}
