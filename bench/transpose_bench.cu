//------------------------------------------------------------------------------
// bench/transpose_bench.cu: the CSR transpose on the device against the host
//------------------------------------------------------------------------------

// Usage: transpose_bench [--scales 20,22] [--reps R] [--warmups W]
//                        [--host-reps H]
//
// What GrB_vxm's first call on a matrix held by row pays for A' (the pull
// SpMV's operand): today formats/convert.c's gg_csr_from_view (transpose,
// OpenMP count / scan / scatter on the host) and an upload of the result;
// with the device transpose, the upload of A itself and
// gg_cuda_csr_transpose, plus gg_cuda_csr_row_stats and the download of the
// k presence bytes the write-back reads on the host.
//
// Matrices: R-MAT 2^scale (a, b, c, d = 0.57, 0.19, 0.19, 0.05, 16 edges per
// row, duplicates dropped; kernels/csr_transpose/csr_transpose_ref.h), with
// no values, FP32 values and FP64 values.  Columns:
//   host      gg_csr_from_view (v, transpose = true) from the int64 CSR a
//             GrB_Matrix holds (wall clock, CLOCK_MONOTONIC, median of H
//             runs, default 3; its OpenMP threads as the library runs it)
//   direct    gg_csr_from_view (v, transpose = false): the host CSR of A
//             itself (32-bit indices, values cast), what would be uploaded
//   upload    cudaMemcpyAsync of p, i (and x) from pinned memory
//   sort, scatter   gg_cuda_csr_transpose by each method (CUDA events,
//             W warm-ups, default 3, then the median of R runs, default 10)
//   stats     gg_cuda_csr_row_stats on T and the download of present (k
//             bytes, pinned)
//   first_now / first_dev   host + upload, against direct + upload + the
//             faster method + stats: the cost of forming A' on the device in
//             a first GrB_vxm (direct and upload are shared with GrB_mxv's
//             form of A when that one is cached already)
// Every device result (each method, each value mode) is compared bit for
// bit with the host one in the same run; "check" says ok or FAILED (and the
// exit status is 1).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>
#include <algorithm>
#include <unistd.h>
#include <cuda_runtime.h>
#include "tests/need_device.h"
#include "kernels/csr_transpose/csr_transpose.h"
#include "kernels/csr_transpose/csr_transpose_ref.h"
extern "C" {
#include "formats/convert.h"
}

#define CK(call) do { cudaError_t e_ = (call) ; if (e_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString (e_)) ; exit (1) ; } } while (0)

static int reps = 10, warmups = 3, host_reps = 3 ;

static double now_s (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

static double median (std::vector<double> v)
{
    std::sort (v.begin (), v.end ()) ;
    size_t n = v.size () ;
    return (n % 2) ? v [n/2] : 0.5 * (v [n/2 - 1] + v [n/2]) ;
}

// Median milliseconds of fn () on stream s, by CUDA events
template <typename F>
static double time_dev (cudaStream_t s, int nwarm, int nrep, F fn)
{
    cudaEvent_t a, b ;
    CK (cudaEventCreate (&a)) ; CK (cudaEventCreate (&b)) ;
    for (int w = 0 ; w < nwarm ; w++) fn () ;
    CK (cudaStreamSynchronize (s)) ;
    std::vector<double> t ;
    for (int r = 0 ; r < nrep ; r++)
    {
        CK (cudaEventRecord (a, s)) ;
        fn () ;
        CK (cudaEventRecord (b, s)) ;
        CK (cudaEventSynchronize (b)) ;
        float ms = 0 ;
        CK (cudaEventElapsedTime (&ms, a, b)) ;
        t.push_back (ms) ;
    }
    CK (cudaEventDestroy (a)) ; CK (cudaEventDestroy (b)) ;
    return median (t) ;
}

template <typename T>
static bool equal_dev (const void *d, const T *h, size_t n)
{
    std::vector<T> v (n) ;
    if (n > 0) CK (cudaMemcpy (v.data (), d, n * sizeof (T), cudaMemcpyDeviceToHost)) ;
    return n == 0 || memcmp (v.data (), h, n * sizeof (T)) == 0 ;
}

static std::vector<int> parse_list (const char *s)
{
    std::vector<int> v ;
    for (const char *c = s ; *c ; )
    {
        v.push_back (atoi (c)) ;
        while (*c && *c != ',') c++ ;
        if (*c == ',') c++ ;
    }
    return v ;
}

int main (int argc, char **argv)
{
    std::vector<int> scales = { 20, 22 } ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--scales") && a + 1 < argc) scales = parse_list (argv [++a]) ;
        else if (!strcmp (argv [a], "--reps") && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--warmups") && a + 1 < argc) warmups = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--host-reps") && a + 1 < argc) host_reps = atoi (argv [++a]) ;
        else
        {
            fprintf (stderr, "usage: %s [--scales 20,22] [--reps R] [--warmups W] "
                "[--host-reps H]\n", argv [0]) ;
            return 2 ;
        }
    }
    if (reps < 1) reps = 1 ;
    if (host_reps < 1) host_reps = 1 ;
    cudaDeviceProp prop ;
    gg_need_device (&prop) ;
    printf ("transpose_bench: %s, %ld host CPUs; times in ms (device: median of %d "
        "after %d warm-ups; host: median of %d)\n", prop.name,
        sysconf (_SC_NPROCESSORS_ONLN), reps, warmups, host_reps) ;
    printf ("%-7s %9s %-5s %9s %8s %8s %8s %8s %8s %10s %10s %6s\n", "matrix",
        "nnz", "vals", "host", "direct", "upload", "sort", "scatter", "stats",
        "first_now", "first_dev", "check") ;
    cudaStream_t s ;
    CK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;
    bool all_ok = true ;

    for (int scale : scales)
    {
        uint64_t state = 0x5eed0000ull + (uint64_t) scale ;
        xp_csr A = xp_rmat (scale, &state) ;
        const int64_t m = A.m, k = A.k, nnz = A.nnz ;

        // the int64 CSR SuiteSparse holds (by row: vectors are rows)
        std::vector<int64_t> p64 (A.p.begin (), A.p.end ()), i64 (A.i.begin (), A.i.end ()) ;
        std::vector<float> xf ((size_t) nnz) ;
        std::vector<double> xd ((size_t) nnz) ;
        for (int64_t q = 0 ; q < nnz ; q++)
        {
            xd [q] = (double) (xp_rng (&state) >> 11) * 0x1.0p-53 ;
            xf [q] = (float) xd [q] ;
        }

        // device and pinned copies of A (values of the widest kind)
        int32_t *hp, *hi ;
        void *hx ;
        CK (cudaMallocHost ((void **) &hp, (size_t) (m + 1) * 4)) ;
        CK (cudaMallocHost ((void **) &hi, (size_t) nnz * 4)) ;
        CK (cudaMallocHost (&hx, (size_t) nnz * 8)) ;
        memcpy (hp, A.p.data (), (size_t) (m + 1) * 4) ;
        memcpy (hi, A.i.data (), (size_t) nnz * 4) ;
        int32_t *dp, *di, *dpt, *dit ;
        void *dx, *dxt ;
        CK (cudaMalloc ((void **) &dp, (size_t) (m + 1) * 4)) ;
        CK (cudaMalloc ((void **) &di, (size_t) nnz * 4)) ;
        CK (cudaMalloc (&dx, (size_t) nnz * 8)) ;
        CK (cudaMalloc ((void **) &dpt, (size_t) (k + 1) * 4)) ;
        CK (cudaMalloc ((void **) &dit, (size_t) nnz * 4)) ;
        CK (cudaMalloc (&dxt, (size_t) nnz * 8)) ;
        int8_t *dpresent, *hpresent ;
        int64_t *dstats ;
        CK (cudaMalloc ((void **) &dpresent, (size_t) k)) ;
        CK (cudaMallocHost ((void **) &hpresent, (size_t) k)) ;
        CK (cudaMalloc ((void **) &dstats, 16)) ;

        for (int mode = 0 ; mode < 3 ; mode++)
        {
            const int elem = (mode == 0) ? 0 : (mode == 1) ? 4 : 8 ;
            const char *vname = (mode == 0) ? "none" : (mode == 1) ? "fp32" : "fp64" ;
            if (elem == 4) memcpy (hx, xf.data (), (size_t) nnz * 4) ;
            if (elem == 8) memcpy (hx, xd.data (), (size_t) nnz * 8) ;
            const size_t xb = (size_t) nnz * (size_t) elem ;

            //------------------------------------------------------------------
            // host: formats/convert.c, as the library builds A' today
            //------------------------------------------------------------------

            gg_view v ;
            memset (&v, 0, sizeof (v)) ;
            v.storage = GG_STORE_SPARSE ; v.by_col = false ; v.iso = false ;
            v.vlen = k ; v.vdim = m ; v.nvec = m ; v.nvals = nnz ;
            v.p = p64.data () ; v.h = NULL ; v.i = i64.data () ; v.b = NULL ;
            v.x = (elem == 8) ? (const void *) xd.data () : (const void *) xf.data () ;
            v.src = (elem == 8) ? GG_SRC_FP64 : GG_SRC_FP32 ;
            const gg_type t = (elem == 8) ? GG_FP64 : GG_FP32 ;
            std::vector<double> th ;
            gg_csr_form *F = NULL ;
            for (int r = 0 ; r < host_reps ; r++)
            {
                if (F != NULL) gg_csr_form_free (F) ;
                F = NULL ;
                double t0 = now_s () ;
                int rc = gg_csr_from_view (&F, &v, true, elem > 0, t) ;
                th.push_back (1e3 * (now_s () - t0)) ;
                if (rc != GG_OK || F->csr.p32 == NULL)
                {
                    fprintf (stderr, "gg_csr_from_view failed (%d)\n", rc) ;
                    return 1 ;
                }
            }
            const double host_ms = median (th) ;
            th.clear () ;
            for (int r = 0 ; r < host_reps ; r++)
            {
                gg_csr_form *D = NULL ;
                double t0 = now_s () ;
                int rc = gg_csr_from_view (&D, &v, false, elem > 0, t) ;
                th.push_back (1e3 * (now_s () - t0)) ;
                if (rc != GG_OK)
                {
                    fprintf (stderr, "gg_csr_from_view (direct) failed (%d)\n", rc) ;
                    return 1 ;
                }
                gg_csr_form_free (D) ;
            }
            const double direct_ms = median (th) ;

            //------------------------------------------------------------------
            // upload of A (pinned), as the device transpose needs it
            //------------------------------------------------------------------

            double up_ms = time_dev (s, 1, reps, [&] () {
                CK (cudaMemcpyAsync (dp, hp, (size_t) (m + 1) * 4, cudaMemcpyHostToDevice, s)) ;
                CK (cudaMemcpyAsync (di, hi, (size_t) nnz * 4, cudaMemcpyHostToDevice, s)) ;
                if (xb > 0) CK (cudaMemcpyAsync (dx, hx, xb, cudaMemcpyHostToDevice, s)) ;
            }) ;

            //------------------------------------------------------------------
            // the device transpose, each method, checked against the host
            //------------------------------------------------------------------

            const char *methods [2] = { "sort", "scatter" } ;
            double dev_ms [2] ;
            bool ok = true ;
            for (int mi = 0 ; mi < 2 ; mi++)
            {
                size_t need = gg_cuda_csr_transpose_scratch_bytes (m, k, nnz, elem, methods [mi]) ;
                void *scratch = NULL ;
                CK (cudaMalloc (&scratch, need)) ;
                CK (cudaMemsetAsync (dpt, 0xA5, (size_t) (k + 1) * 4, s)) ;
                CK (cudaMemsetAsync (dit, 0xA5, (size_t) nnz * 4, s)) ;
                int rc = GG_OK ;
                dev_ms [mi] = time_dev (s, warmups, reps, [&] () {
                    int r = gg_cuda_csr_transpose (m, k, nnz, dp, di,
                        elem ? dx : NULL, elem, false, dpt, dit, elem ? dxt : NULL,
                        scratch, need, methods [mi], s) ;
                    if (r != GG_OK) rc = r ;
                }) ;
                CK (cudaStreamSynchronize (s)) ;
                CK (cudaFree (scratch)) ;
                bool same = (rc == GG_OK)
                    && equal_dev<int32_t> (dpt, F->csr.p32, (size_t) k + 1)
                    && equal_dev<int32_t> (dit, F->csr.i32, (size_t) nnz)
                    && (elem == 0 || equal_dev<uint8_t> (dxt, (const uint8_t *) F->csr.x, xb)) ;
                if (!same) printf ("  %s on rmat%d %s: result differs from the host's\n",
                    methods [mi], scale, vname) ;
                ok = ok && same ;
            }

            //------------------------------------------------------------------
            // what the host keeps of A' (max_row, nonempty, present)
            //------------------------------------------------------------------

            int64_t hstats [2] = { -1, -1 } ;
            double stats_ms = time_dev (s, 1, reps, [&] () {
                if (gg_cuda_csr_row_stats (k, dpt, dpresent, dstats, s) != GG_OK) hstats [0] = -2 ;
                CK (cudaMemcpyAsync (hpresent, dpresent, (size_t) k, cudaMemcpyDeviceToHost, s)) ;
            }) ;
            CK (cudaMemcpy (hstats, dstats, 16, cudaMemcpyDeviceToHost)) ;
            bool stats_ok = hstats [0] == F->csr.max_row && hstats [1] == F->csr.nonempty
                && memcmp (hpresent, F->csr.present, (size_t) k) == 0 ;
            if (!stats_ok) printf ("  row_stats on rmat%d: differs from the host's\n", scale) ;
            ok = ok && stats_ok ;
            all_ok = all_ok && ok ;

            const double best = std::min (dev_ms [0], dev_ms [1]) ;
            printf ("rmat%-3d %9lld %-5s %9.2f %8.2f %8.3f %8.3f %8.3f %8.3f %10.2f %10.3f %6s\n",
                scale, (long long) nnz, vname, host_ms, direct_ms, up_ms, dev_ms [0],
                dev_ms [1], stats_ms, host_ms + up_ms,
                direct_ms + up_ms + best + stats_ms, ok ? "ok" : "FAILED") ;
            fflush (stdout) ;
            gg_csr_form_free (F) ;
        }
        cudaFree (dp) ; cudaFree (di) ; cudaFree (dx) ;
        cudaFree (dpt) ; cudaFree (dit) ; cudaFree (dxt) ;
        cudaFree (dpresent) ; cudaFree (dstats) ;
        cudaFreeHost (hp) ; cudaFreeHost (hi) ; cudaFreeHost (hx) ; cudaFreeHost (hpresent) ;
    }
    CK (cudaStreamDestroy (s)) ;
    return all_ok ? 0 : 1 ;
}
