//------------------------------------------------------------------------------
// bench/decline_overhead.c: what grbgpu adds to a call it declines
//------------------------------------------------------------------------------

// A declined call (here: a tiny sparse x sparse GrB_mxm, which grbgpu hands to
// the CPU library) pays for the classification and the forward.  This program
// times the same call through the program's GrB_mxm (grbgpu's, when it is
// linked first or preloaded) and through the CPU library's own GrB_mxm
// (looked up in libgraphblas by dlopen/dlsym), interleaved, many times, and
// prints the medians and their difference in ns.  The goal is < 1 us.
//
// Usage: decline_overhead [reps]        (built linked -lgrbgpu -lgraphblas;
// a copy linked with -lgraphblas only can be run with LD_PRELOAD=libgrbgpu.so)

#include <GraphBLAS.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef GrB_Info (*mxm_fn) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;

#define TRY(call)                                                           \
    do {                                                                    \
        GrB_Info info_ = (call) ;                                           \
        if (info_ != GrB_SUCCESS)                                           \
        {                                                                   \
            fprintf (stderr, "decline_overhead: %s failed (%d)\n", #call,   \
                (int) info_) ;                                              \
            return 1 ;                                                      \
        }                                                                   \
    } while (0)

static double now_ns (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec * 1e9 + (double) t.tv_nsec ;
}

static int cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double median (double *x, int n)
{
    qsort (x, n, sizeof (double), cmp_double) ;
    return (n % 2) ? x [n/2] : 0.5 * (x [n/2 - 1] + x [n/2]) ;
}

// a small random sparse matrix (not dense: the product is sparse x sparse)
static GrB_Matrix sparse (GrB_Index m, GrB_Index n, uint64_t seed)
{
    GrB_Matrix A = NULL ;
    if (GrB_Matrix_new (&A, GrB_FP64, m, n) != GrB_SUCCESS) return NULL ;
    for (GrB_Index i = 0 ; i < m ; i++)
        for (GrB_Index j = 0 ; j < n ; j++)
        {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull ;
            if ((seed >> 33) % 4 == 0)
                GrB_Matrix_setElement_FP64 (A, (double) ((seed >> 40) % 7) - 3, i, j) ;
        }
    GrB_Matrix_wait (A, GrB_MATERIALIZE) ;
    return A ;
}

int main (int argc, char **argv)
{
    int reps = (argc > 1) ? atoi (argv [1]) : 20000 ;
    if (reps < 100) reps = 100 ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    // one thread: the CPU library's own cost then varies less
    TRY (GxB_Global_Option_set (GxB_NTHREADS, 1)) ;

    // the program's GrB_mxm and the CPU library's
    mxm_fn exported = (mxm_fn) dlsym (RTLD_DEFAULT, "GrB_mxm") ;
    mxm_fn real = NULL ;
    void *lib = dlopen ("libgraphblas.so.7", RTLD_LAZY | RTLD_NOLOAD) ;
    if (lib == NULL) lib = dlopen ("libgraphblas.so", RTLD_LAZY | RTLD_NOLOAD) ;
    if (lib != NULL) real = (mxm_fn) dlsym (lib, "GrB_mxm") ;
    if (real == NULL) real = (mxm_fn) dlsym (RTLD_NEXT, "GrB_mxm") ;
    const char *(*decision) (void) =
        (const char *(*) (void)) dlsym (RTLD_DEFAULT, "grbgpu_last_decision") ;
    if (exported == NULL || real == NULL)
    {
        fprintf (stderr, "decline_overhead: GrB_mxm not found\n") ;
        return 1 ;
    }
    Dl_info de, dr ;
    dladdr ((void *) exported, &de) ;
    dladdr ((void *) real, &dr) ;
    printf ("exported GrB_mxm: %s\nreal GrB_mxm:     %s\n",
        de.dli_fname ? de.dli_fname : "?", dr.dli_fname ? dr.dli_fname : "?") ;
    if (exported == real)
    {
        printf ("grbgpu is not interposed (not linked first, not preloaded): "
            "nothing to measure\n") ;
        return 1 ;
    }

    // C = A*B, 8x8 sparse times 8x8 sparse: declined (sparse x sparse)
    GrB_Matrix A = sparse (8, 8, 1), B = sparse (8, 8, 2), C ;
    TRY (GrB_Matrix_new (&C, GrB_FP64, 8, 8)) ;
    TRY (exported (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL)) ;
    if (decision != NULL)
    {
        const char *d = decision ( ) ;
        printf ("decision: %s\n", d ? d : "(null)") ;
        if (d == NULL || strncmp (d, "declined", 8) != 0)
        {
            fprintf (stderr, "decline_overhead: the call was not declined\n") ;
            return 1 ;
        }
    }

    // warm up both, then interleave: the same cache state for each
    for (int i = 0 ; i < 1000 ; i++)
    {
        exported (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) ;
        real (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) ;
    }
    double *te = malloc (reps * sizeof (double)) ;
    double *tr = malloc (reps * sizeof (double)) ;
    double *td = malloc (reps * sizeof (double)) ;
    if (!te || !tr || !td) return 1 ;
    for (int i = 0 ; i < reps ; i++)
    {
        double t0 = now_ns ( ) ;
        exported (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) ;
        double t1 = now_ns ( ) ;
        real (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) ;
        double t2 = now_ns ( ) ;
        te [i] = t1 - t0 ;
        tr [i] = t2 - t1 ;
        td [i] = te [i] - tr [i] ;
    }
    double me = median (te, reps), mr = median (tr, reps), md = median (td, reps) ;
    printf ("reps %d: through grbgpu %.0f ns, CPU library %.0f ns (medians)\n",
        reps, me, mr) ;
    printf ("declined-call overhead: %.0f ns (difference of medians), "
        "%.0f ns (median of paired differences); goal < 1000 ns\n", me - mr, md) ;
    free (te) ; free (tr) ; free (td) ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_finalize ( ) ;
    return 0 ;
}
