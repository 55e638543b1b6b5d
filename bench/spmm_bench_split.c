//------------------------------------------------------------------------------
// bench/spmm_bench_split.c: spmm_bench's (e): products split across slots
//------------------------------------------------------------------------------

#include "config.h"

#include "bench/spmm_bench.h"

#ifdef GG_BENCH_E2E

// --split LIST (GRBGPU_DEVICES, issue 18): FP32 PLUS_TIMES GrB_mxm (N > 1) /
// GrB_mxv (N = 1) end to end, one slot against the slots of LIST, in the same
// run, each checked against the CPU library.  With LIST naming one device
// twice (0,0) both slots share one GPU: the rows measure what splitting
// costs, not scaling.  Per row: the first call (conversion and upload of the
// slots' blocks), the median of --split-reps warm calls (5), and the product
// alone (CUDA events: for a split call the slowest slot's).  With split_sddmm
// the same rows for the SDDMM C<A, structural> = L * R' (L: m x N, R: k x N,
// full; A's rows, and L's, split across the slots).  --split-only: the row of
// LIST alone (no one-slot row, no reference computed whole: for a product
// larger than one GPU, and than the host holds twice), checked by blocks of
// rows against the CPU library's product of the same rows of A.
const char *split_list = NULL ;
bool split_sddmm = false ;
int split_reps = 5 ;
bool split_only = false ;

// A dense rows x cols FP32 operand of values in [-1, 1), filled in parallel
// (a stream per block of rows: the same values for any number of threads)
static GrB_Matrix dense_operand (int64_t rows, int64_t cols, uint64_t seed)
{
    float *x = malloc ((size_t) rows * cols * 4 + 4) ;
    if (x == NULL) { fprintf (stderr, "split: out of memory\n") ; exit (2) ; }
    const int64_t blk = 4096 ;
    #pragma omp parallel for schedule(static)
    for (int64_t b = 0 ; b < (rows + blk - 1) / blk ; b++)
    {
        uint64_t s = seed ^ ((uint64_t) b * 0x9e3779b97f4a7c15ull) ;
        const int64_t r1 = (b + 1) * blk < rows ? (b + 1) * blk : rows ;
        for (size_t q = (size_t) b * blk * cols ; q < (size_t) r1 * cols ; q++)
            x [q] = (float) rnd_unit (&s) ;
    }
    GrB_Matrix X ;
    GRB_OK (GrB_Matrix_new (&X, GrB_FP32, rows, cols)) ;
    GRB_OK (GxB_Matrix_pack_FullR (X, (void **) &x, (GrB_Index) rows * cols * 4 + 4, false, NULL)) ;
    return X ;
}

// The largest relative difference of C from the CPU library's G * B, by
// blocks of rows (G's rows r0 .. r1-1 extracted, multiplied on the CPU,
// compared with the same rows of C): the reference is never held whole.
static double check_by_blocks (GrB_Matrix G, GrB_Matrix B, GrB_Matrix C, int nblocks)
{
    GrB_Index m, k, n ;
    GRB_OK (GrB_Matrix_nrows (&m, G)) ;
    GRB_OK (GrB_Matrix_ncols (&k, G)) ;
    GRB_OK (GrB_Matrix_ncols (&n, B)) ;
    grbgpu_set ("DEVICE", "cpu") ;
    double worst = 0 ;
    for (int b = 0 ; b < nblocks ; b++)
    {
        GrB_Index r0 = m * b / nblocks, r1 = m * (b + 1) / nblocks ;
        if (r1 == r0) continue ;
        GrB_Index range [2] = { r0, r1 - 1 } ;
        GrB_Matrix Gb, Cb, Rb ;
        GRB_OK (GrB_Matrix_new (&Gb, GrB_FP32, r1 - r0, k)) ;
        GRB_OK (GrB_Matrix_new (&Cb, GrB_FP32, r1 - r0, n)) ;
        GRB_OK (GrB_Matrix_new (&Rb, GrB_FP32, r1 - r0, n)) ;
        GRB_OK (GrB_Matrix_extract (Gb, NULL, NULL, G, range, GxB_RANGE, GrB_ALL, k, NULL)) ;
        GRB_OK (GrB_Matrix_extract (Cb, NULL, NULL, C, range, GxB_RANGE, GrB_ALL, n, NULL)) ;
        GRB_OK (GrB_mxm (Rb, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, Gb, B, NULL)) ;
        double e = compare_matrices (Rb, Cb, GrB_FP32) ;
        if (e > worst) worst = e ;
        GrB_Matrix_free (&Gb) ; GrB_Matrix_free (&Cb) ; GrB_Matrix_free (&Rb) ;
    }
    return worst ;
}

// LIST names one device only (0,0): both slots share one GPU
static bool one_device (const char *list)
{
    int first = -1 ;
    for (const char *s = list ; s && *s ; )
    {
        int d = atoi (s) ;
        if (first < 0) first = d ;
        else if (d != first) return false ;
        s = strchr (s, ',') ;
        if (s) s++ ;
    }
    return strcmp (list, "all") != 0 ;
}

void bench_split (const csr *A)
{
    GrB_Matrix G = grb_of (A, true) ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP32 ;
    const int reps = split_reps < 1 ? 1 : split_reps > 20 ? 20 : split_reps ;
    const bool shared = one_device (split_list) ;
    for (int ni = 0 ; ni < nns ; ni++)
    {
        int64_t n = ns [ni] ;
        const bool sd = split_sddmm ;
        const bool blocks = split_only && !sd && n > 1 ;
        const int64_t cn = sd ? A->k : n ;     // C's columns
        GrB_Matrix C [2] = { NULL, NULL }, R = NULL, L = NULL ;
        GrB_Vector x = NULL, y [2] = { NULL, NULL }, yr = NULL ;
        double t0 = now () ;
        GrB_Matrix B = dense_operand (A->k, n, 11 + n) ;
        if (sd) L = dense_operand (A->m, n, 12 + n) ;
        for (int v = split_only ? 1 : 0 ; v < 2 ; v++) GRB_OK (GrB_Matrix_new (&C [v], GrB_FP32, A->m, cn)) ;
        if (n == 1 && !sd)
        {
            GRB_OK (GrB_Vector_new (&x, GrB_FP32, A->k)) ;
            GRB_OK (GrB_Col_extract (x, NULL, NULL, B, GrB_ALL, A->k, 0, NULL)) ;
            GRB_OK (GrB_Vector_new (&yr, GrB_FP32, A->m)) ;
            for (int v = 0 ; v < 2 ; v++) GRB_OK (GrB_Vector_new (&y [v], GrB_FP32, A->m)) ;
        }
        #define SPLIT_PRODUCT(Cx, yx) (sd ? GrB_mxm (Cx, G, NULL, sr, L, B, GrB_DESC_ST1) \
            : (n == 1) ? GrB_mxv (yx, NULL, NULL, sr, G, x, NULL) \
            : GrB_mxm (Cx, NULL, NULL, sr, G, B, NULL))
        grbgpu_set ("DEVICE", "cpu") ;
        if (!blocks)
        {
            GRB_OK (GrB_Matrix_new (&R, GrB_FP32, A->m, cn)) ;
            GRB_OK (SPLIT_PRODUCT (R, yr)) ;
        }
        printf ("# split %s N=%ld: operands%s made in %.1f s\n", A->name, (long) n,
            blocks ? "" : " and the CPU reference", now () - t0) ;
        double warm [2] = { 0, 0 } ;
        for (int v = split_only ? 1 : 0 ; v < 2 ; v++)
        {
            const char *list = (v == 0) ? "" : split_list ;
            grbgpu_set ("DEVICES", list) ;
            grbgpu_set ("DEVICE", "cuda") ;
            grbgpu_stats st0, st1 ;
            grbgpu_stats_get (&st0) ;
            t0 = now () ;
            GRB_OK (SPLIT_PRODUCT (C [v], y [v])) ;
            double first = now () - t0 ;
            double tw [20], tk [20] ;
            grbgpu_cuda_timing (true) ;
            for (int r = 0 ; r < reps ; r++)
            {
                t0 = now () ;
                GRB_OK (SPLIT_PRODUCT (C [v], y [v])) ;
                tw [r] = now () - t0 ;
                tk [r] = grbgpu_cuda_last_product_ms () ;
            }
            grbgpu_cuda_timing (false) ;
            grbgpu_stats_get (&st1) ;
            const char *dec = grbgpu_last_decision () ;
            grbgpu_set ("DEVICES", "") ;
            double err ;
            t0 = now () ;
            if (blocks) err = check_by_blocks (G, B, C [v], 16) ;
            else if (n == 1 && !sd)
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
            const double check_s = now () - t0 ;
            bool ok = err <= 1e-3 ;
            if (!ok) failures++ ;
            warm [v] = median (tw, reps) ;
            double kms = median (tk, reps) ;
            // bytes the product must read at least: S (8 B per entry + row
            // pointers) and X once, Y written once; SDDMM: A's pattern (4 B
            // per entry + row pointers), L and R once, 4 B per output
            double bytes = 8.0 * A->nnz + 4.0 * A->m + 4.0 * (A->k + A->m) * n ;
            const char *op = sd ? "sddmm" : (n == 1) ? "mxv" : "mxm" ;
            printf ("split %-12s fp32 N=%-4ld %s slots %-7s first %9.2f warm %9.2f ms "
                "product %8.3f ms (%6.1f GB/s, %6.1f GFLOP/s) split calls %llu | %s | %s err %.1e%s\n",
                A->name, (long) n, op, v == 0 ? "1" : list,
                1e3 * first, 1e3 * warm [v], kms, kms > 0 ? bytes / kms / 1e6 : 0,
                kms > 0 ? 2.0 * A->nnz * n / kms / 1e6 : 0,
                (unsigned long long) (st1.split - st0.split), dec ? dec : "?",
                ok ? "ok" : "WRONG", err,
                (v == 1 && shared) ? "  [one GPU split in two: overhead of splitting, not scaling]" : "") ;
            if (blocks) printf ("# split %s N=%ld: checked by 16 blocks of rows in %.1f s\n",
                A->name, (long) n, check_s) ;
            fprintf (csv, "split_%s,%s,%ld,%ld,%ld,fp32,%ld,%.4f,,%s,%.4f,%.4f,,,,,%s,%.3g,,,,%s\n",
                op, A->name, (long) A->m, (long) A->k, (long) A->nnz,
                (long) n, kms, v == 0 ? "1" : list, 1e3 * warm [v], 1e3 * first,
                ok ? "ok" : "WRONG", err, dec ? dec : "?") ;
            fflush (stdout) ;
            // the one-slot result is not needed any more: room for the split's
            if (v == 0 && C [0] != NULL) GrB_Matrix_free (&C [0]) ;
        }
        if (!split_only)
            printf ("split %-12s fp32 N=%-4ld %s warm %s / 1 slot: %.2fx\n", A->name, (long) n,
                sd ? "sddmm" : (n == 1) ? "mxv" : "mxm", split_list, warm [0] > 0 ? warm [1] / warm [0] : 0) ;
        fflush (stdout) ;
        #undef SPLIT_PRODUCT
        GrB_Matrix_free (&B) ; GrB_Matrix_free (&R) ; GrB_Matrix_free (&L) ;
        for (int v = 0 ; v < 2 ; v++) { GrB_Matrix_free (&C [v]) ; GrB_Vector_free (&y [v]) ; }
        GrB_Vector_free (&x) ; GrB_Vector_free (&yr) ;
    }
    GrB_Matrix_free (&G) ;
}
#endif
