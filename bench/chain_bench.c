//------------------------------------------------------------------------------
// bench/chain_bench.c: a chain of GrB_mxm, each output the next input
//------------------------------------------------------------------------------

// usage: chain_bench [--scale S] [--n N] [--chain L] [--reps R] [--seed K]
//                    [--save FILE | --compare FILE]
//
// A plain GraphBLAS program (it knows nothing about grbgpu; run it under
// LD_PRELOAD=libgrbgpu.so to offload).  A = the R-MAT graph of 2^S vertices
// (S = 20) plus the identity (so that every product is full), its rows
// scaled to sum to 1 (so that the chain's values stay bounded); X = an n-by-N uniform [0,1) full matrix (N = 128).  One chain is
// L products (L = 10):
//
//      for k = 1..L:  Y = A*X  (GrB_mxm, PLUS_TIMES FP32, no mask);  X = Y
//
// run R times (R = 4); the first chain pays the one-time costs (the first
// CUDA call, A's conversion and upload).  Per chain it prints the seconds per
// product without the final read, and the seconds of the final read (nvals +
// its unpack into a row-major array: with results kept on the device, the
// only time the chain's result comes down).  The summary gives the median
// over the chains after the first.  --save / --compare: every 97th value of
// the last X of the last chain (max |X - X_saved| <= 1e-4 * max |X_saved|).

#include "../examples/common.h"
#include "bench_median.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CHAIN_RTOL 1e-4

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    GrB_free (&A) ; GrB_free (&X) ; GrB_free (&Y) ; GrB_free (&X0) ;        \
    GrB_free (&d) ; GrB_free (&D) ;                                         \
    free (Xx) ; free (got) ; free (ref) ;                                   \
    free (per_call) ; free (read_s) ;                                       \
    if (fsave != NULL) fclose (fsave) ;                                     \
}

static void usage (void)
{
    fprintf (stderr, "usage: chain_bench [--scale S] [--n N] [--chain L] [--reps R] "
        "[--seed K] [--save FILE | --compare FILE]\n") ;
}

int main (int argc, char **argv)
{
    GrB_Matrix A = NULL, X = NULL, Y = NULL, X0 = NULL, D = NULL ;
    GrB_Vector d = NULL ;
    float *Xx = NULL ;
    double *got = NULL, *ref = NULL, *per_call = NULL, *read_s = NULL ;
    FILE *fsave = NULL ;
    int scale = 20, ncols = 128, chain = 10, reps = 4 ;
    uint64_t seed = 42 ;
    ex_check_opts check = { NULL, NULL } ;
    for (int k = 1 ; k < argc ; k++)
    {
        if (ex_parse_check_arg (&check, argc, argv, &k)) continue ;
        const char *a = argv [k] ;
        bool has = (k + 1 < argc) ;
        if (!strcmp (a, "--scale") && has) scale = atoi (argv [++k]) ;
        else if (!strcmp (a, "--n") && has) ncols = atoi (argv [++k]) ;
        else if (!strcmp (a, "--chain") && has) chain = atoi (argv [++k]) ;
        else if (!strcmp (a, "--reps") && has) reps = atoi (argv [++k]) ;
        else if (!strcmp (a, "--seed") && has) seed = strtoull (argv [++k], NULL, 0) ;
        else { usage () ; return (1) ; }
    }
    if (scale < 1 || scale > 26 || ncols < 1 || chain < 1 || reps < 1)
    {
        usage () ;
        return (1) ;
    }
    GRB_TRY (GrB_init (GrB_NONBLOCKING)) ;
    int nthreads = 0 ;
    GRB_TRY (GxB_Global_Option_get (GxB_GLOBAL_NTHREADS, &nthreads)) ;

    //--------------------------------------------------------------------------
    // A: R-MAT, each row scaled to sum to 1; X0: uniform [0,1)
    //--------------------------------------------------------------------------

    GRB_TRY (ex_rmat (&A, scale, 16, seed)) ;
    GrB_Index n, nvals ;
    GRB_TRY (GrB_Matrix_nrows (&n, A)) ;
    GRB_TRY (GrB_Matrix_nvals (&nvals, A)) ;
    // A = A + I (every row has an entry, so that each product is full)
    GRB_TRY (GrB_Vector_new (&d, GrB_FP32, n)) ;
    GRB_TRY (GrB_Vector_assign_FP32 (d, NULL, NULL, 1, GrB_ALL, n, NULL)) ;
    GRB_TRY (GrB_Matrix_diag (&D, d, 0)) ;
    GRB_TRY (GrB_Matrix_eWiseAdd_BinaryOp (A, NULL, NULL, GrB_PLUS_FP32, A, D, NULL)) ;
    GRB_TRY (GrB_free (&D)) ;
    GRB_TRY (GrB_Matrix_nvals (&nvals, A)) ;
    GRB_TRY (GrB_Matrix_reduce_Monoid (d, NULL, NULL, GrB_PLUS_MONOID_FP32, A, NULL)) ;
    GRB_TRY (GrB_Vector_apply (d, NULL, NULL, GrB_MINV_FP32, d, NULL)) ;
    GRB_TRY (GrB_Matrix_diag (&D, d, 0)) ;
    GRB_TRY (GrB_mxm (A, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, D, A, NULL)) ;
    GRB_TRY (GrB_Matrix_wait (A, GrB_MATERIALIZE)) ;
    GRB_TRY (GrB_free (&D)) ;
    GRB_TRY (GrB_free (&d)) ;
    ex_rng rng ;
    ex_rng_seed (&rng, seed ^ 0xc4a1b3e7ull) ;
    Xx = malloc ((size_t) n * (size_t) ncols * sizeof (float)) ;
    EX_TRY (Xx != NULL, "out of memory") ;
    for (size_t k = 0 ; k < (size_t) n * (size_t) ncols ; k++)
    {
        Xx [k] = (float) ex_rng_uniform (&rng) ;
    }
    GRB_TRY (ex_dense_pack (&X0, &Xx, n, ncols)) ;
    printf ("chain_bench: R-MAT scale %d (seed %llu) + I: %llu vertices, %llu entries, rows "
        "scaled to sum 1; X %llu x %d FP32; %d products per chain, %d chains; %d threads\n",
        scale, (unsigned long long) seed, (unsigned long long) n,
        (unsigned long long) nvals, (unsigned long long) n, ncols, chain, reps, nthreads) ;

    //--------------------------------------------------------------------------
    // the chains
    //--------------------------------------------------------------------------

    per_call = malloc ((size_t) reps * sizeof (double)) ;
    read_s = malloc ((size_t) reps * sizeof (double)) ;
    const size_t cap = (size_t) n * (size_t) ncols ;
    EX_TRY (per_call != NULL && read_s != NULL, "out of memory") ;
    for (int r = 0 ; r < reps ; r++)
    {
        GRB_TRY (GrB_free (&X)) ;
        GRB_TRY (GrB_free (&Y)) ;
        GRB_TRY (GrB_Matrix_dup (&X, X0)) ;
        GRB_TRY (GrB_Matrix_new (&Y, GrB_FP32, n, ncols)) ;
        double t0 = ex_wtime () ;
        for (int k = 0 ; k < chain ; k++)
        {
            GRB_TRY (GrB_mxm (Y, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, A, X, NULL)) ;
            GrB_Matrix T = X ; X = Y ; Y = T ;
        }
        GRB_TRY (GrB_Matrix_wait (X, GrB_MATERIALIZE)) ;
        double t1 = ex_wtime () ;
        // the final read: what a program does with the chain's result
        GrB_Index nv ;
        GRB_TRY (GrB_Matrix_nvals (&nv, X)) ;
        free (Xx) ; Xx = NULL ;
        GRB_TRY (ex_dense_unpack (&Xx, X)) ;
        double t2 = ex_wtime () ;
        EX_TRY (nv == cap, "chain_bench: the result is not full") ;
        per_call [r] = (t1 - t0) / chain ;
        read_s [r] = t2 - t1 ;
        printf ("chain %d: %.4f ms per product (%d products, %.4f s), final read %.4f ms\n",
            r + 1, 1e3 * per_call [r], chain, t1 - t0, 1e3 * read_s [r]) ;
    }
    int m = reps - 1 ;
    double med = per_call [0], medr = read_s [0] ;
    if (m > 0)
    {
        med = gg_bench_median (per_call + 1, m) ;
        medr = gg_bench_median (read_s + 1, m) ;
    }
    printf ("summary: example=chain_bench step=product steps=%d per_step_s=%.6f "
        "first_chain_per_step_s=%.6f final_read_s=%.6f\n", chain, med, per_call [0], medr) ;

    //--------------------------------------------------------------------------
    // check
    //--------------------------------------------------------------------------

    const size_t nchk = (cap + 96) / 97 ;
    got = malloc (nchk * sizeof (double)) ;
    EX_TRY (got != NULL, "out of memory") ;
    for (size_t k = 0 ; k < nchk ; k++) got [k] = Xx [97 * k] ;
    int rc = 0 ;
    if (check.save != NULL)
    {
        fsave = ex_check_create (check.save) ;
        EX_TRY (fsave != NULL, "chain_bench: cannot write the check file") ;
        EX_TRY (ex_check_write (fsave, "X", got, (int64_t) nchk) == 0,
            "chain_bench: cannot write the check file") ;
        printf ("check: saved %zu values to %s\n", nchk, check.save) ;
    }
    else if (check.compare != NULL)
    {
        int64_t nref ;
        EX_TRY (ex_check_read (check.compare, "X", &ref, &nref) == 0,
            "chain_bench: cannot read the check file") ;
        bool ok = ex_check_compare ("X", ref, nref, got, (int64_t) nchk, CHAIN_RTOL, true) ;
        printf ("check: %s\n", ok ? "PASS" : "FAIL") ;
        rc = ok ? 0 : 1 ;
    }
    FREE_ALL ;
    GrB_finalize () ;
    return (rc) ;
}
