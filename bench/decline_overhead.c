//------------------------------------------------------------------------------
// bench/decline_overhead.c: what grbgpu adds to a call it declines
//------------------------------------------------------------------------------

// A declined call pays for the classification and the forward.  This program
// times the same call through the program's function (grbgpu's, when it is
// linked first or preloaded) and through the CPU library's own (looked up in
// libgraphblas by dlopen/dlsym), interleaved, many times, and prints the
// medians and their difference in ns, for two declined calls:
//   GrB_mxm: a tiny sparse x sparse product (8x8 times 8x8), and
//   GrB_mxv: a tiny product with a sparse input vector (8x8 times 8).
// The goal is < 300 ns.
//
// Usage: decline_overhead [reps]        (built linked -lgrbgpu -lgraphblas;
// a copy linked with -lgraphblas only can be run with LD_PRELOAD=libgrbgpu.so)

#include <GraphBLAS.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_median.h"

typedef GrB_Info (*mxm_fn) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*mxv_fn) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;

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

static double median (double *x, int n) { return gg_bench_median (x, n) ; }

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

// a small random sparse vector
static GrB_Vector sparse_vector (GrB_Index n, uint64_t seed)
{
    GrB_Vector u = NULL ;
    if (GrB_Vector_new (&u, GrB_FP64, n) != GrB_SUCCESS) return NULL ;
    for (GrB_Index i = 0 ; i < n ; i++)
    {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull ;
        if ((seed >> 33) % 4 == 0)
            GrB_Vector_setElement_FP64 (u, (double) ((seed >> 40) % 7) - 3, i) ;
    }
    GrB_Vector_wait (u, GrB_MATERIALIZE) ;
    return u ;
}

//------------------------------------------------------------------------------
// the two calls, through grbgpu (exported) or the CPU library (real)
//------------------------------------------------------------------------------

static mxm_fn mxm_exported, mxm_real ;
static mxv_fn mxv_exported, mxv_real ;
static GrB_Matrix A, B, C ;
static GrB_Vector u, w ;

static GrB_Info run_mxm (bool through_grbgpu)
{
    // C = A*B
    return (through_grbgpu ? mxm_exported : mxm_real)
        (C, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, B, NULL) ;
}

static GrB_Info run_mxv (bool through_grbgpu)
{
    // w = A*u
    return (through_grbgpu ? mxv_exported : mxv_real)
        (w, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP64, A, u, NULL) ;
}

// Check that the call is declined, then time it: warm both up, then
// interleave them (the same cache state for each).  Returns 0 on success.
static int measure (const char *name, GrB_Info (*run) (bool), int reps,
    const char *(*decision) (void))
{
    GrB_Info info = run (true) ;
    if (info != GrB_SUCCESS)
    {
        fprintf (stderr, "decline_overhead: %s failed (%d)\n", name, (int) info) ;
        return 1 ;
    }
    if (decision != NULL)
    {
        const char *d = decision ( ) ;
        printf ("%s decision: %s\n", name, d ? d : "(null)") ;
        if (d == NULL || strncmp (d, "declined", 8) != 0)
        {
            fprintf (stderr, "decline_overhead: the %s call was not declined\n", name) ;
            return 1 ;
        }
    }
    for (int i = 0 ; i < 1000 ; i++)
    {
        run (true) ;
        run (false) ;
    }
    double *te = malloc (reps * sizeof (double)) ;
    double *tr = malloc (reps * sizeof (double)) ;
    double *td = malloc (reps * sizeof (double)) ;
    if (!te || !tr || !td) return 1 ;
    for (int i = 0 ; i < reps ; i++)
    {
        double t0 = now_ns ( ) ;
        run (true) ;
        double t1 = now_ns ( ) ;
        run (false) ;
        double t2 = now_ns ( ) ;
        te [i] = t1 - t0 ;
        tr [i] = t2 - t1 ;
        td [i] = te [i] - tr [i] ;
    }
    double me = median (te, reps), mr = median (tr, reps), md = median (td, reps) ;
    printf ("%s reps %d: through grbgpu %.0f ns, CPU library %.0f ns (medians)\n",
        name, reps, me, mr) ;
    printf ("%s declined-call overhead: %.0f ns (difference of medians), "
        "%.0f ns (median of paired differences); goal < 300 ns\n", name, me - mr, md) ;
    free (te) ; free (tr) ; free (td) ;
    return 0 ;
}

int main (int argc, char **argv)
{
    int reps = (argc > 1) ? atoi (argv [1]) : 20000 ;
    if (reps < 100) reps = 100 ;
    TRY (GrB_init (GrB_NONBLOCKING)) ;
    // one thread: the CPU library's own cost then varies less
    TRY (GxB_Global_Option_set (GxB_NTHREADS, 1)) ;

    // the program's GrB_mxm and GrB_mxv, and the CPU library's
    mxm_exported = (mxm_fn) dlsym (RTLD_DEFAULT, "GrB_mxm") ;
    mxv_exported = (mxv_fn) dlsym (RTLD_DEFAULT, "GrB_mxv") ;
    void *lib = dlopen ("libgraphblas.so.7", RTLD_LAZY | RTLD_NOLOAD) ;
    if (lib == NULL) lib = dlopen ("libgraphblas.so", RTLD_LAZY | RTLD_NOLOAD) ;
    if (lib != NULL)
    {
        mxm_real = (mxm_fn) dlsym (lib, "GrB_mxm") ;
        mxv_real = (mxv_fn) dlsym (lib, "GrB_mxv") ;
    }
    if (mxm_real == NULL) mxm_real = (mxm_fn) dlsym (RTLD_NEXT, "GrB_mxm") ;
    if (mxv_real == NULL) mxv_real = (mxv_fn) dlsym (RTLD_NEXT, "GrB_mxv") ;
    const char *(*decision) (void) =
        (const char *(*) (void)) dlsym (RTLD_DEFAULT, "grbgpu_last_decision") ;
    if (mxm_exported == NULL || mxm_real == NULL || mxv_exported == NULL || mxv_real == NULL)
    {
        fprintf (stderr, "decline_overhead: GrB_mxm or GrB_mxv not found\n") ;
        return 1 ;
    }
    Dl_info de, dr ;
    dladdr ((void *) mxm_exported, &de) ;
    dladdr ((void *) mxm_real, &dr) ;
    printf ("exported GrB_mxm: %s\nreal GrB_mxm:     %s\n",
        de.dli_fname ? de.dli_fname : "?", dr.dli_fname ? dr.dli_fname : "?") ;
    if (mxm_exported == mxm_real || mxv_exported == mxv_real)
    {
        printf ("grbgpu is not interposed (not linked first, not preloaded): "
            "nothing to measure\n") ;
        return 1 ;
    }

    // C = A*B, 8x8 sparse times 8x8 sparse: declined (sparse x sparse);
    // w = A*u, u sparse: declined (sparse input vector)
    A = sparse (8, 8, 1) ;
    B = sparse (8, 8, 2) ;
    u = sparse_vector (8, 3) ;
    TRY (GrB_Matrix_new (&C, GrB_FP64, 8, 8)) ;
    TRY (GrB_Vector_new (&w, GrB_FP64, 8)) ;
    if (A == NULL || B == NULL || u == NULL) return 1 ;
    if (measure ("GrB_mxm", run_mxm, reps, decision) != 0) return 1 ;
    if (measure ("GrB_mxv", run_mxv, reps, decision) != 0) return 1 ;
    GrB_Matrix_free (&A) ; GrB_Matrix_free (&B) ; GrB_Matrix_free (&C) ;
    GrB_Vector_free (&u) ; GrB_Vector_free (&w) ;
    GrB_finalize ( ) ;
    return 0 ;
}
