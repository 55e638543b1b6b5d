//------------------------------------------------------------------------------
// bench/spmm_bench_e2e.c: spmm_bench's (b) and (e): end to end
//------------------------------------------------------------------------------

#include "config.h"

#include "bench/spmm_bench.h"

//------------------------------------------------------------------------------
// (b): GrB_mxm / GrB_mxv through grbgpu vs the CPU library
//------------------------------------------------------------------------------

#ifdef GG_BENCH_E2E

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

void bench_e2e (const csr *A, bool fp32)
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
// events: for a split call the slowest slot's).  With split_sddmm the same
// rows for the SDDMM C<A, structural> = L * R' (L: m x N, R: k x N, full;
// A's rows, and L's, split across the slots).
const char *split_list = NULL ;
bool split_sddmm = false ;

void bench_split (const csr *A)
{
    GrB_Matrix G = grb_of (A, true) ;
    GrB_Semiring sr = GrB_PLUS_TIMES_SEMIRING_FP32 ;
    for (int ni = 0 ; ni < nns ; ni++)
    {
        int64_t n = ns [ni] ;
        const bool sd = split_sddmm ;
        const int64_t cn = sd ? A->k : n ;     // C's columns
        GrB_Matrix B, C [2], R, L = NULL ;
        GrB_Vector x = NULL, y [2] = { NULL, NULL }, yr = NULL ;
        void *Bx = malloc ((size_t) A->k * n * 4) ;
        uint64_t s = 11 + n ;
        for (size_t q = 0 ; q < (size_t) A->k * n ; q++) ((float *) Bx) [q] = (float) rnd_unit (&s) ;
        GRB_OK (GrB_Matrix_new (&B, GrB_FP32, A->k, n)) ;
        GRB_OK (GxB_Matrix_pack_FullR (B, &Bx, (GrB_Index) A->k * n * 4, false, NULL)) ;
        if (sd)
        {
            void *Lx = malloc ((size_t) A->m * n * 4) ;
            for (size_t q = 0 ; q < (size_t) A->m * n ; q++) ((float *) Lx) [q] = (float) rnd_unit (&s) ;
            GRB_OK (GrB_Matrix_new (&L, GrB_FP32, A->m, n)) ;
            GRB_OK (GxB_Matrix_pack_FullR (L, &Lx, (GrB_Index) A->m * n * 4, false, NULL)) ;
        }
        GRB_OK (GrB_Matrix_new (&R, GrB_FP32, A->m, cn)) ;
        for (int v = 0 ; v < 2 ; v++) GRB_OK (GrB_Matrix_new (&C [v], GrB_FP32, A->m, cn)) ;
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
            if (n == 1 && !sd)
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
                (v == 1) ? "  [one GPU split in two: overhead of splitting, not scaling]" : "") ;
            fprintf (csv, "split_%s,%s,%ld,%ld,%ld,fp32,%ld,%.4f,,%s,%.4f,%.4f,,,,,%s,%.3g,,,,%s\n",
                op, A->name, (long) A->m, (long) A->k, (long) A->nnz,
                (long) n, kms, v == 0 ? "1" : list, 1e3 * warm [v], 1e3 * first,
                ok ? "ok" : "WRONG", err, dec ? dec : "?") ;
        }
        printf ("split %-12s fp32 N=%-4ld %s warm %s / 1 slot: %.2fx\n", A->name, (long) n,
            sd ? "sddmm" : (n == 1) ? "mxv" : "mxm", split_list, warm [0] > 0 ? warm [1] / warm [0] : 0) ;
        fflush (stdout) ;
        grbgpu_set ("DEVICES", "") ;
        #undef SPLIT_PRODUCT
        GrB_Matrix_free (&B) ; GrB_Matrix_free (&R) ; GrB_Matrix_free (&L) ;
        for (int v = 0 ; v < 2 ; v++) { GrB_Matrix_free (&C [v]) ; GrB_Vector_free (&y [v]) ; }
        GrB_Vector_free (&x) ; GrB_Vector_free (&yr) ;
    }
    GrB_Matrix_free (&G) ;
}
#endif
