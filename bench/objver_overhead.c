//------------------------------------------------------------------------------
// bench/objver_overhead.c: what the version wrapper adds to a mutating call
//------------------------------------------------------------------------------

// Times GrB_Matrix_setElement_FP64 through the exported wrapper (which bumps
// the matrix's version, backend/interpose/objver_wrappers.c) and the real
// function (looked up in libgraphblas.so.7 itself), on entries that already
// exist (the cheapest setElement there is, so the overhead shows most), and
// grbgpu_objver_bump alone.  Rounds alternate and the best of each is kept.
// With threads > 1, each thread does the same on its own matrix.
//
// usage: objver_overhead [calls per round (10000000)] [threads (1)]
// prints: ns/call for real, wrapped, their difference, and bump alone.

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "backend/grbgpu_internal.h"

#define N 1024                  // the matrix is N x N with a full diagonal

typedef GrB_Info (*set_fp64) (GrB_Matrix, double, GrB_Index, GrB_Index) ;

static set_fp64 real_set ;
static long calls = 10000000 ;
static pthread_barrier_t barrier ;

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return t.tv_sec + 1e-9 * t.tv_nsec ;
}

// ns per call of one way (0 real, 1 wrapped, 2 bump alone)
static double time_one (GrB_Matrix A, int how)
{
    pthread_barrier_wait (&barrier) ;
    double t0 = now ( ) ;
    GrB_Info info = GrB_SUCCESS ;
    for (long k = 0 ; k < calls ; k++)
    {
        GrB_Index i = (GrB_Index) (k & (N - 1)) ;
        if (how == 0) info |= real_set (A, (double) k, i, i) ;
        else if (how == 1) info |= GrB_Matrix_setElement_FP64 (A, (double) k, i, i) ;
        else grbgpu_objver_bump (A) ;
    }
    double t = now ( ) - t0 ;
    if (info != GrB_SUCCESS) { fprintf (stderr, "setElement failed\n") ; exit (1) ; }
    return 1e9 * t / calls ;
}

typedef struct { double best [3] ; } result ;

static void *worker (void *arg)
{
    result *r = arg ;
    GrB_Matrix A ;
    GrB_Matrix_new (&A, GrB_FP64, N, N) ;
    for (GrB_Index i = 0 ; i < N ; i++) GrB_Matrix_setElement_FP64 (A, 1.0, i, i) ;
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    for (int w = 0 ; w < 3 ; w++) r->best [w] = 1e30 ;
    for (int round = 0 ; round < 5 ; round++)
    {
        for (int w = 0 ; w < 3 ; w++)
        {
            double t = time_one (A, w) ;
            if (t < r->best [w]) r->best [w] = t ;
        }
    }
    GrB_Matrix_free (&A) ;
    return NULL ;
}

int main (int argc, char **argv)
{
    if (argc > 1) calls = atol (argv [1]) ;
    int nthreads = (argc > 2) ? atoi (argv [2]) : 1 ;
    if (calls < 1 || nthreads < 1) return 1 ;

    // the real function: from the GraphBLAS library itself, not from
    // whatever the dynamic linker resolves first
    void *lib = dlopen ("libgraphblas.so.7", RTLD_LAZY | RTLD_NOLOAD) ;
    if (lib == NULL) lib = dlopen ("libgraphblas.so", RTLD_LAZY | RTLD_NOLOAD) ;
    real_set = lib ? (set_fp64) dlsym (lib, "GrB_Matrix_setElement_FP64") : NULL ;
    if (real_set == NULL || (void *) real_set == (void *) GrB_Matrix_setElement_FP64)
    {
        fprintf (stderr, "cannot tell the real setElement from the wrapper\n") ;
        return 1 ;
    }

    GrB_init (GrB_NONBLOCKING) ;
    GxB_set (GxB_NTHREADS, 1) ;
    pthread_barrier_init (&barrier, NULL, (unsigned) nthreads) ;
    pthread_t *tid = malloc (nthreads * sizeof (pthread_t)) ;
    result *res = calloc (nthreads, sizeof (result)) ;
    for (int t = 0 ; t < nthreads ; t++) pthread_create (&tid [t], NULL, worker, &res [t]) ;
    for (int t = 0 ; t < nthreads ; t++) pthread_join (tid [t], NULL) ;

    // the slowest thread's best round
    double best [3] = { 0, 0, 0 } ;
    for (int t = 0 ; t < nthreads ; t++)
        for (int w = 0 ; w < 3 ; w++)
            if (res [t].best [w] > best [w]) best [w] = res [t].best [w] ;
    printf ("threads %d, %ld calls per round, best of 5 rounds\n", nthreads, calls) ;
    printf ("real    GrB_Matrix_setElement_FP64  %7.2f ns/call\n", best [0]) ;
    printf ("wrapped GrB_Matrix_setElement_FP64  %7.2f ns/call\n", best [1]) ;
    printf ("overhead                            %7.2f ns/call\n", best [1] - best [0]) ;
    printf ("grbgpu_objver_bump alone            %7.2f ns/call\n", best [2]) ;
    free (tid) ;
    free (res) ;
    GrB_finalize ( ) ;
    return 0 ;
}
