//------------------------------------------------------------------------------
// bench/xfer_bench.c: where host<->device copies of large operands lose time
//------------------------------------------------------------------------------

// Measures, on one buffer size (default 512 MiB), the pieces of a staged copy
// so that backend/cuda/copies.c's design rests on numbers from the same host:
//   dma       cudaMemcpy between pinned host memory and the device
//   pageable  cudaMemcpy between pageable (touched) memory and the device
//   host      host copies pageable <-> pinned with T threads, memcpy and
//             non-temporal stores, into touched and untouched destinations
//   register  cudaHostRegister of a caller's buffer, a DMA from/to it, and
//             cudaHostUnregister (the alternative to staging)
//   pipeline  staged copies, chunk size x buffers x copier (what copies.c does)
// Medians of 5 after one warm-up.  Usage: xfer_bench [MiB] [max threads]
// Not part of make check (needs a GPU).

#include <cuda_runtime_api.h>
#include <omp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "backend/cuda/hostcopy.h"

#define REPS 5

#define CK(e) do { cudaError_t err_ = (e) ; if (err_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d: %s\n", __FILE__, __LINE__, \
    cudaGetErrorString (err_)) ; exit (1) ; } } while (0)

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

static int cmp_d (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double median (double *t, int n)
{
    qsort (t, (size_t) n, sizeof (double), cmp_d) ;
    return t [n / 2] ;
}

// the library's own host copy (backend/cuda/hostcopy.h: SSE2 streaming stores)
static void copy_par (void *dst, const void *src, size_t bytes, int nt,
    bool nt_stores)
{
    gg_copy_split (dst, src, bytes, nt, nt_stores) ;
}

static void *touched (size_t bytes)
{
    char *p = malloc (bytes) ;
    if (p == NULL) { fprintf (stderr, "out of memory\n") ; exit (1) ; }
    #pragma omp parallel for schedule (static)
    for (size_t k = 0 ; k < bytes ; k += 4096) p [k] = (char) k ;
    return p ;
}

// staged copy as in backend/cuda/copies.c, with nbuf buffers of ch bytes
static double staged (bool up, char *dev, char *host, size_t bytes,
    char **stage, cudaEvent_t *ev, int nbuf, size_t ch, int nt, bool nts,
    cudaStream_t s)
{
    double t0 = now () ;
    size_t nch = (bytes + ch - 1) / ch ;
    if (up)
    {
        for (size_t j = 0 ; j < nch ; j++)
        {
            int b = (int) (j % (size_t) nbuf) ;
            size_t off = j * ch, len = bytes - off < ch ? bytes - off : ch ;
            CK (cudaEventSynchronize (ev [b])) ;
            copy_par (stage [b], host + off, len, nt, nts) ;
            CK (cudaMemcpyAsync (dev + off, stage [b], len,
                cudaMemcpyHostToDevice, s)) ;
            CK (cudaEventRecord (ev [b], s)) ;
        }
        CK (cudaStreamSynchronize (s)) ;
    }
    else
    {
        // keep nbuf-1 chunks in flight ahead of the one being drained
        size_t ahead = (size_t) nbuf - 1 ;
        for (size_t j = 0 ; j < nch + ahead ; j++)
        {
            if (j < nch)
            {
                int b = (int) (j % (size_t) nbuf) ;
                size_t off = j * ch, len = bytes - off < ch ? bytes - off : ch ;
                CK (cudaMemcpyAsync (stage [b], dev + off, len,
                    cudaMemcpyDeviceToHost, s)) ;
                CK (cudaEventRecord (ev [b], s)) ;
            }
            if (j >= ahead)
            {
                size_t d = j - ahead ;
                int b = (int) (d % (size_t) nbuf) ;
                size_t off = d * ch, len = bytes - off < ch ? bytes - off : ch ;
                CK (cudaEventSynchronize (ev [b])) ;
                copy_par (host + off, stage [b], len, nt, nts) ;
            }
        }
    }
    return now () - t0 ;
}

int main (int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t) atol (argv [1]) : 512 ;
    int maxt = argc > 2 ? atoi (argv [2]) : 16 ;
    size_t bytes = mib << 20 ;
    double gb = (double) bytes / 1e9, t [REPS] ;
    printf ("xfer_bench: %zu MiB, up to %d threads (omp max %d)\n", mib, maxt,
        omp_get_max_threads ()) ;

    char *dev, *pin, *host = touched (bytes), *host2 = touched (bytes) ;
    CK (cudaMalloc ((void **) &dev, bytes)) ;
    CK (cudaHostAlloc ((void **) &pin, bytes, cudaHostAllocDefault)) ;
    memset (pin, 1, bytes) ;
    cudaStream_t s ;
    CK (cudaStreamCreateWithFlags (&s, cudaStreamNonBlocking)) ;

    // dma and pageable
    for (int dir = 0 ; dir < 2 ; dir++)
    for (int pg = 0 ; pg < 2 ; pg++)
    {
        char *h = pg ? host : pin ;
        for (int r = -1 ; r < REPS ; r++)
        {
            double t0 = now () ;
            if (dir == 0) CK (cudaMemcpy (dev, h, bytes, cudaMemcpyHostToDevice)) ;
            else CK (cudaMemcpy (h, dev, bytes, cudaMemcpyDeviceToHost)) ;
            if (r >= 0) t [r] = now () - t0 ;
        }
        printf ("%-9s %-4s %-38s %8.2f ms %7.1f GB/s\n", pg ? "pageable" : "dma",
            dir ? "down" : "up", "cudaMemcpy", 1e3 * median (t, REPS),
            gb / median (t, REPS)) ;
    }

    // host copies
    for (int nt = 1 ; nt <= maxt ; nt *= 2)
    for (int nts = 0 ; nts < 2 ; nts++)
    for (int dir = 0 ; dir < 2 ; dir++)
    {
        for (int r = -1 ; r < REPS ; r++)
        {
            double t0 = now () ;
            if (dir == 0) copy_par (pin, host, bytes, nt, nts) ;
            else copy_par (host, pin, bytes, nt, nts) ;
            if (r >= 0) t [r] = now () - t0 ;
        }
        char what [64] ;
        snprintf (what, sizeof (what), "%s, %d threads, %s",
            dir ? "pinned->pageable" : "pageable->pinned", nt,
            nts ? "NT stores" : "memcpy") ;
        printf ("%-9s %-4s %-38s %8.2f ms %7.1f GB/s\n", "host",
            dir ? "down" : "up", what, 1e3 * median (t, REPS),
            gb / median (t, REPS)) ;
    }
    // into untouched memory (a fresh result buffer), plain or huge-page advised
    for (int huge = 0 ; huge < 2 ; huge++)
    for (int nts = 0 ; nts < 2 ; nts++)
    {
        for (int r = 0 ; r < REPS ; r++)
        {
            char *fresh = aligned_alloc (2 << 20, bytes) ;
            if (fresh == NULL) exit (1) ;
            if (huge) madvise (fresh, bytes, MADV_HUGEPAGE) ;
            double t0 = now () ;
            copy_par (fresh, pin, bytes, maxt, nts) ;
            t [r] = now () - t0 ;
            free (fresh) ;
        }
        char what [64] ;
        snprintf (what, sizeof (what), "pinned->fresh%s, %d thr, %s",
            huge ? " THP" : "", maxt, nts ? "NT" : "memcpy") ;
        printf ("%-9s %-4s %-38s %8.2f ms %7.1f GB/s\n", "host", "down", what,
            1e3 * median (t, REPS), gb / median (t, REPS)) ;
    }

    // register the caller's buffer instead of staging
    for (int huge = 0 ; huge < 2 ; huge++)
    for (int dir = 0 ; dir < 2 ; dir++)
    {
        double treg [REPS], tdma [REPS], tun [REPS] ;
        for (int r = 0 ; r < REPS ; r++)
        {
            char *h = aligned_alloc (2 << 20, bytes) ;
            if (h == NULL) exit (1) ;
            if (huge) madvise (h, bytes, MADV_HUGEPAGE) ;
            memset (h, 2, bytes) ;
            double t0 = now () ;
            CK (cudaHostRegister (h, bytes, cudaHostRegisterDefault)) ;
            double t1 = now () ;
            if (dir == 0) CK (cudaMemcpy (dev, h, bytes, cudaMemcpyHostToDevice)) ;
            else CK (cudaMemcpy (h, dev, bytes, cudaMemcpyDeviceToHost)) ;
            double t2 = now () ;
            CK (cudaHostUnregister (h)) ;
            double t3 = now () ;
            free (h) ;
            treg [r] = t1 - t0 ; tdma [r] = t2 - t1 ; tun [r] = t3 - t2 ;
        }
        double a = median (treg, REPS), b = median (tdma, REPS),
            c = median (tun, REPS) ;
        char what [64] ;
        snprintf (what, sizeof (what), "reg %.1f + dma %.1f + unreg %.1f ms%s",
            1e3 * a, 1e3 * b, 1e3 * c, huge ? " (THP)" : "") ;
        printf ("%-9s %-4s %-38s %8.2f ms %7.1f GB/s\n", "register",
            dir ? "down" : "up", what, 1e3 * (a + b + c), gb / (a + b + c)) ;
    }

    // staged pipelines
    char *stage [4] ;
    cudaEvent_t ev [4] ;
    for (int b = 0 ; b < 4 ; b++)
    {
        CK (cudaHostAlloc ((void **) &stage [b], (size_t) 64 << 20,
            cudaHostAllocDefault)) ;
        memset (stage [b], 0, (size_t) 64 << 20) ;
        CK (cudaEventCreateWithFlags (&ev [b], cudaEventDisableTiming)) ;
    }
    static const size_t chunks [] = { 8, 16, 32, 64 } ;
    for (int dir = 0 ; dir < 2 ; dir++)
    for (int nts = 0 ; nts < 2 ; nts++)
    for (int nbuf = 2 ; nbuf <= 4 ; nbuf++)
    for (int ci = 0 ; ci < 4 ; ci++)
    {
        size_t ch = chunks [ci] << 20 ;
        for (int r = -1 ; r < REPS ; r++)
        {
            double e = staged (dir == 0, dev, dir ? host2 : host, bytes, stage,
                ev, nbuf, ch, maxt, nts, s) ;
            if (r >= 0) t [r] = e ;
        }
        char what [64] ;
        snprintf (what, sizeof (what), "%d x %zu MiB, %d thr, %s", nbuf,
            chunks [ci], maxt, nts ? "NT" : "memcpy") ;
        printf ("%-9s %-4s %-38s %8.2f ms %7.1f GB/s\n", "staged",
            dir ? "down" : "up", what, 1e3 * median (t, REPS),
            gb / median (t, REPS)) ;
    }

    for (int b = 0 ; b < 4 ; b++) { cudaFreeHost (stage [b]) ; cudaEventDestroy (ev [b]) ; }
    cudaStreamDestroy (s) ;
    cudaFreeHost (pin) ;
    cudaFree (dev) ;
    free (host) ;
    free (host2) ;
    return 0 ;
}
