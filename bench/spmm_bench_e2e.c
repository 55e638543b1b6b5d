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
double compare_matrices (GrB_Matrix C1, GrB_Matrix C2, GrB_Type T)
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

// A as a GraphBLAS matrix (a copy the library owns, packed by rows: A is
// sorted and has no duplicates)
GrB_Matrix grb_of (const csr *A, bool fp32)
{
    GrB_Type T = fp32 ? GrB_FP32 : GrB_FP64 ;
    GrB_Matrix G ;
    GRB_OK (GrB_Matrix_new (&G, T, A->m, A->k)) ;
    GrB_Index *Ap = malloc ((A->m + 1) * sizeof (GrB_Index)) ;
    GrB_Index *Aj = malloc (A->nnz * sizeof (GrB_Index) + 8) ;
    const size_t vsize = fp32 ? 4 : 8 ;
    void *Ax = malloc (A->nnz * vsize + 8) ;
    if (Ap == NULL || Aj == NULL || Ax == NULL) { fprintf (stderr, "grb_of: out of memory\n") ; exit (2) ; }
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0 ; r <= A->m ; r++) Ap [r] = (GrB_Index) A->p [r] ;
    #pragma omp parallel for schedule(static)
    for (int64_t q = 0 ; q < A->nnz ; q++)
    {
        Aj [q] = (GrB_Index) A->i [q] ;
        if (fp32) ((float *) Ax) [q] = (float) A->v [q] ;
        else ((double *) Ax) [q] = A->v [q] ;
    }
    GRB_OK (GxB_Matrix_pack_CSR (G, &Ap, &Aj, &Ax, (A->m + 1) * sizeof (GrB_Index),
        A->nnz * sizeof (GrB_Index) + 8, A->nnz * vsize + 8, false, false, NULL)) ;
    free (Ap) ; free (Aj) ; free (Ax) ;     // NULL once packed
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

#endif
