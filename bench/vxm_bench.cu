//------------------------------------------------------------------------------
// bench/vxm_bench.cu: GrB_vxm's first and warm calls against the CPU library
//------------------------------------------------------------------------------

// GrB_vxm (w = u' A, A held by row) on R-MAT 2^scale (bench/bench_matrices.h,
// FP32 and FP64, PLUS_TIMES and MIN_PLUS), end to end through the interposer
// (linked in), in one run:
//   cpu      the CPU library (grbgpu_set ("DEVICE", "cpu")), median of reps
//            after one warm-up call
//   cold     grbgpu's first call on a new version of A: A's own CSR built on
//            the host (a copy, no transpose) and its columns marked, uploaded,
//            transposed on the device (backend/cuda/form_csrt.c), multiplied,
//            written back
//   mxv-warm grbgpu's first vxm on a new version of A after one GrB_mxv on it
//            (A's CSR is on the device already: the transpose on the device
//            and the product)
//   warm     grbgpu's later calls, median of reps
// Each grbgpu answer is compared with the CPU library's (relative 1e-3 FP32,
// 1e-10 FP64 on positive terms; MIN_PLUS exactly).  A new version of A is
// made by setting one entry to the value it has (GrB_Matrix_setElement bumps
// the version; the values do not change).  The first call's bytes up and the
// achieved bandwidth of the warm product (A' read once: 4 + value bytes per
// entry, u and w once) are printed beside.
//
//   vxm_bench [--scale 20] [--reps 5] [--device cuda|host]
//   (a GPU; not part of make check; --device host runs the same calls on the
//   host emulation backend, to check the program without one)

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>
#include <algorithm>

// (GraphBLAS.h declares C functions without extern "C")
extern "C" {
#include <GraphBLAS.h>
#include "include/grbgpu.h"
}
#include "bench/bench_matrices.h"

#define GRB_OK(call) do { GrB_Info i_ = (call) ; if (i_ != GrB_SUCCESS) { \
    fprintf (stderr, "%s:%d: %s -> %d\n", __FILE__, __LINE__, #call, (int) i_) ; \
    exit (1) ; } } while (0)

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

static double median (std::vector<double> v)
{
    std::sort (v.begin (), v.end ()) ;
    return v.empty () ? 0 : v [v.size () / 2] ;
}

// a new version of A, same values
static void bump (GrB_Matrix A)
{
    double v ;
    if (GrB_Matrix_extractElement_FP64 (&v, A, 0, 0) == GrB_SUCCESS)
        GRB_OK (GrB_Matrix_setElement_FP64 (A, v, 0, 0)) ;
    else
    {
        // (0,0) absent: set and remove it (two bumps, same values)
        GRB_OK (GrB_Matrix_setElement_FP64 (A, 1.0, 0, 0)) ;
        GRB_OK (GrB_Matrix_removeElement (A, 0, 0)) ;
    }
    GRB_OK (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
}

// max relative difference of two dense-or-sparse vectors (inf: structure)
static double vdiff (GrB_Vector a, GrB_Vector b)
{
    GrB_Index na, nb ;
    GRB_OK (GrB_Vector_nvals (&na, a)) ;
    GRB_OK (GrB_Vector_nvals (&nb, b)) ;
    if (na != nb) return INFINITY ;
    std::vector<GrB_Index> ia (na + 1), ib (nb + 1) ;
    std::vector<double> xa (na + 1), xb (nb + 1) ;
    GRB_OK (GrB_Vector_extractTuples_FP64 (ia.data (), xa.data (), &na, a)) ;
    GRB_OK (GrB_Vector_extractTuples_FP64 (ib.data (), xb.data (), &nb, b)) ;
    double err = 0 ;
    for (GrB_Index q = 0 ; q < na ; q++)
    {
        if (ia [q] != ib [q]) return INFINITY ;
        double d = (xa [q] == xb [q]) ? 0 : fabs (xa [q] - xb [q]) / std::max (fabs (xb [q]), 1e-300) ;
        err = std::max (err, d) ;
    }
    return err ;
}

int main (int argc, char **argv)
{
    int scale = 20, reps = 5 ;
    const char *device = "cuda" ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--scale") && a + 1 < argc) scale = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--reps") && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--device") && a + 1 < argc) device = argv [++a] ;
        else { fprintf (stderr, "usage: %s [--scale 20] [--reps 5] [--device cuda|host]\n", argv [0]) ; return 2 ; }
    }
    if (reps < 1) reps = 1 ;
    GRB_OK (GrB_init (GrB_NONBLOCKING)) ;
    if (grbgpu_set ("DEVICE", device) != 0) return 2 ;
    bm_rng rng (20261125) ;
    double t0 = now () ;
    bm_csr A = bm_rmat (scale, rng) ;
    printf ("# %s: %lld x %lld, %lld entries (generated in %.1f s); reps %d\n",
        A.name.c_str (), (long long) A.m, (long long) A.k, (long long) A.nnz,
        now () - t0, reps) ;
    int failures = 0 ;
    for (int fp = 0 ; fp < 2 ; fp++)
    {
        const bool fp32 = (fp == 0) ;
        GrB_Type T = fp32 ? GrB_FP32 : GrB_FP64 ;
        const size_t es = fp32 ? 4 : 8 ;
        // G by row from A's CSR
        std::vector<GrB_Index> I (A.nnz), J (A.nnz) ;
        std::vector<double> X (A.nnz) ;
        for (int64_t r = 0 ; r < A.m ; r++)
            for (int32_t q = A.p [r] ; q < A.p [r+1] ; q++)
            {
                I [q] = (GrB_Index) r ; J [q] = (GrB_Index) A.i [q] ; X [q] = A.x [q] ;
            }
        GrB_Matrix G ;
        GRB_OK (GrB_Matrix_new (&G, T, A.m, A.k)) ;
        GRB_OK (GrB_Matrix_build_FP64 (G, I.data (), J.data (), X.data (), A.nnz,
            fp32 ? GrB_PLUS_FP32 : GrB_PLUS_FP64)) ;
        GRB_OK (GrB_Matrix_wait (G, GrB_MATERIALIZE)) ;
        GrB_Vector u, w1, w2, y ;
        GRB_OK (GrB_Vector_new (&u, T, A.m)) ;
        GRB_OK (GrB_Vector_new (&y, T, A.m)) ;
        GRB_OK (GrB_Vector_new (&w1, T, A.k)) ;
        GRB_OK (GrB_Vector_new (&w2, T, A.k)) ;
        GRB_OK (GrB_Vector_assign_FP64 (u, NULL, NULL, 0.0, GrB_ALL, A.m, NULL)) ;
        for (int64_t q = 0 ; q < A.m ; q += 1 + (int64_t) (rng.next () % 3))
            GRB_OK (GrB_Vector_setElement_FP64 (u, 0.5 + rng.unif (), q)) ;
        GRB_OK (GrB_Vector_wait (u, GrB_MATERIALIZE)) ;
        for (int s = 0 ; s < 2 ; s++)
        {
            GrB_Semiring sr = (s == 0)
                ? (fp32 ? GrB_PLUS_TIMES_SEMIRING_FP32 : GrB_PLUS_TIMES_SEMIRING_FP64)
                : (fp32 ? GrB_MIN_PLUS_SEMIRING_FP32 : GrB_MIN_PLUS_SEMIRING_FP64) ;
            // the CPU library
            grbgpu_set ("DEVICE", "cpu") ;
            GRB_OK (GrB_vxm (w2, NULL, NULL, sr, u, G, NULL)) ;
            std::vector<double> tc ;
            for (int r = 0 ; r < reps ; r++)
            {
                double t = now () ;
                GRB_OK (GrB_vxm (w2, NULL, NULL, sr, u, G, NULL)) ;
                tc.push_back (now () - t) ;
            }
            grbgpu_set ("DEVICE", device) ;
            // cold: a new version of A, nothing of it cached
            bump (G) ;
            grbgpu_stats st0, st1 ;
            grbgpu_stats_get (&st0) ;
            double t = now () ;
            GRB_OK (GrB_vxm (w1, NULL, NULL, sr, u, G, NULL)) ;
            double cold = now () - t ;
            grbgpu_stats_get (&st1) ;
            char dec [64] ;
            snprintf (dec, sizeof dec, "%s", grbgpu_last_decision () ? grbgpu_last_decision () : "?") ;
            double err = vdiff (w1, w2) ;
            // warm
            std::vector<double> tw ;
            for (int r = 0 ; r < reps ; r++)
            {
                t = now () ;
                GRB_OK (GrB_vxm (w1, NULL, NULL, sr, u, G, NULL)) ;
                tw.push_back (now () - t) ;
            }
            err = std::max (err, vdiff (w1, w2)) ;
            // A on the device already (one mxv), then the first vxm
            bump (G) ;
            GRB_OK (GrB_mxv (y, NULL, NULL, sr, G, u, NULL)) ;
            t = now () ;
            GRB_OK (GrB_vxm (w1, NULL, NULL, sr, u, G, NULL)) ;
            double after_mxv = now () - t ;
            err = std::max (err, vdiff (w1, w2)) ;
            // (FP32 column sums of up to ~10^5 terms in another order: ~1e-4
            // measured between two orders on R-MAT 2^22, bench/spmm_bench)
            const double tol = (s == 1) ? 0 : fp32 ? 1e-3 : 1e-10 ;
            const bool ok = err <= tol ;
            if (!ok) failures++ ;
            double cpu = median (tc), warm = median (tw) ;
            double bytes = (double) A.nnz * (4.0 + (double) es) + (double) (A.m + A.k) * (double) es
                + 4.0 * (double) (A.k + 1) ;
            printf ("%s %s vxm %-10s cpu %8.2f ms | grbgpu cold %8.2f (x%.2f of cpu, %.0f MB up)"
                " mxv-warm %7.2f warm %7.3f ms (x%.1f, %.0f GB/s) | %s | %s err %.1e\n",
                A.name.c_str (), fp32 ? "fp32" : "fp64", s == 0 ? "plus_times" : "min_plus",
                1e3 * cpu, 1e3 * cold, cold / cpu,
                (double) (st1.bytes_h2d - st0.bytes_h2d) / 1e6, 1e3 * after_mxv, 1e3 * warm,
                cpu / warm, bytes / warm / 1e9, dec, ok ? "ok" : "WRONG", err) ;
            fflush (stdout) ;
        }
        GrB_Matrix_free (&G) ;
        GrB_Vector_free (&u) ; GrB_Vector_free (&y) ;
        GrB_Vector_free (&w1) ; GrB_Vector_free (&w2) ;
    }
    GrB_finalize () ;
    printf ("# %s\n", failures ? "FAILED: wrong results" : "all results checked") ;
    return failures ? 1 : 0 ;
}
