//------------------------------------------------------------------------------
// examples/pagerank.c: PageRank of a directed graph, in plain GraphBLAS
//------------------------------------------------------------------------------

// usage: pagerank [--scale S] [--seed N] [--iters N] [--tol T] [--itermax N]
//                 [--steps] [--save FILE | --compare FILE] [matrix.mtx[.gz]]
//
// The graph is an R-MAT graph of 2^S vertices (S = 20 by default, edge factor
// 16, deterministic seed) or a Matrix Market file (A(i,j) present: edge i->j).
// PageRank as in LAGraph (LAGr_PageRankGX): damping 0.85, dangling vertices
// (no out-edges) spread their rank evenly over all vertices, so sum (r) = 1.
// Each iteration is one r += A'*(r./d) with the PLUS_SECOND semiring and a
// PLUS accumulator (GrB_mxv); it stops when ||r - r_old||_1 <= tol, or after
// itermax iterations, or after exactly --iters iterations when given.
// Prints the iterations, time per iteration (over all, and after the first,
// which alone pays one-time costs), total time and the top 10;
// --steps also the time per iteration of each step of the loop (wall clock
// around each GraphBLAS call: where the time of an iteration goes), over the
// iterations after the first (which pays for converting and uploading A'),
// and, when grbgpu is loaded, the bytes each step moved to and from the
// device (its counters).
// --save FILE writes the ranks; --compare FILE recomputes them and checks
// max |r - r_saved| <= 1e-5 * max |r_saved| ("check: PASS", exit 0, or
// "check: FAIL", exit 1).

#ifndef _GNU_SOURCE
#define _GNU_SOURCE     // RTLD_DEFAULT
#endif
#include "common.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAGERANK_CHECK_RTOL 1e-5

// --steps: wall-clock seconds spent in each step of the loop, summed over
// the iterations after the first (step_on)
enum { ST_SINK, ST_DIV, ST_BASE, ST_MXV, ST_DIFF, ST_N } ;
static const char *step_name [ST_N] = { "sink rank (eWiseMult, reduce)",
    "w = t ./ d (eWiseMult)", "r = base (assign)", "r += A'*w (mxv)",
    "rdiff (eWiseAdd, apply, reduce)" } ;
static double step_time [ST_N] ;
static bool step_on = false ;

// --steps in a process where grbgpu is loaded (LD_PRELOAD): also the bytes
// each step sent to the device and brought back, read from grbgpu's own
// counters (grbgpu_stats_line, found with dlsym; outside the timed call)
static void (*step_stats_line) (char *, size_t) = NULL ;
static double step_up [ST_N], step_down [ST_N] ;

static void step_bytes (double *up, double *down)
{
    char buf [1024] ;
    const char *p ;
    *up = *down = 0 ;
    if (step_stats_line == NULL) return ;
    step_stats_line (buf, sizeof (buf)) ;
    if ((p = strstr (buf, "h2d_bytes=")) != NULL) *up = strtod (p + 10, NULL) ;
    if ((p = strstr (buf, "d2h_bytes=")) != NULL) *down = strtod (p + 10, NULL) ;
}

#define STEP(st, call)                                                      \
{                                                                           \
    double step_u0_ = 0, step_d0_ = 0, step_u1_, step_d1_ ;                 \
    if (step_on) step_bytes (&step_u0_, &step_d0_) ;                        \
    double step_t0_ = ex_wtime () ;                                         \
    GRB_TRY (call) ;                                                        \
    if (step_on)                                                            \
    {                                                                       \
        step_time [st] += ex_wtime () - step_t0_ ;                          \
        step_bytes (&step_u1_, &step_d1_) ;                                 \
        step_up [st] += step_u1_ - step_u0_ ;                               \
        step_down [st] += step_d1_ - step_d0_ ;                             \
    }                                                                       \
}

//------------------------------------------------------------------------------
// pagerank: r = PageRank of the graph A
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    GrB_free (&AT) ; GrB_free (&d_out) ; GrB_free (&d) ; GrB_free (&t) ;    \
    GrB_free (&w) ; GrB_free (&sink) ; GrB_free (&tsink) ;                  \
    GrB_free (r) ;                                                          \
}

static GrB_Info pagerank
(
    GrB_Vector *r,          // output: r(i) = rank of vertex i
    int *iters,             // output: iterations done
    double *t_iter,         // output: seconds in the iterations
    double *t_first,        // output: seconds in the first of them
    GrB_Matrix A,           // square FP32 adjacency matrix, A(i,j): i->j
    float damping,
    float tol,              // stop when ||r - r_old||_1 <= tol (0: never)
    int itermax
)
{
    GrB_Matrix AT = NULL ;
    GrB_Vector d_out = NULL, d = NULL, t = NULL, w = NULL, sink = NULL,
        tsink = NULL ;

    //--------------------------------------------------------------------------
    // check inputs
    //--------------------------------------------------------------------------

    *r = NULL ;
    GrB_Index n, ncols, nsinks ;
    GRB_TRY (GrB_Matrix_nrows (&n, A)) ;
    GRB_TRY (GrB_Matrix_ncols (&ncols, A)) ;
    EX_TRY (n == ncols && n > 0, "pagerank: A must be square and not empty") ;

    //--------------------------------------------------------------------------
    // initializations
    //--------------------------------------------------------------------------

    // AT = A', kept like LAGraph's cached G->AT: the rank flows along in-edges
    GRB_TRY (GrB_Matrix_new (&AT, GrB_FP32, n, n)) ;
    GRB_TRY (GrB_transpose (AT, NULL, NULL, A, NULL)) ;

    // d_out(i) = number of out-edges of vertex i (no entry if none): d_out =
    // A*x with the PLUS_PAIR semiring (each entry counts 1, whatever its
    // value), x a full vector, as LAGraph computes the out-degree
    GRB_TRY (GrB_Vector_new (&d_out, GrB_FP32, n)) ;
    GRB_TRY (GrB_Vector_new (&t, GrB_FP32, n)) ;
    GRB_TRY (GrB_Vector_assign_FP32 (t, NULL, NULL, 0, GrB_ALL, n, NULL)) ;
    GRB_TRY (GrB_mxv (d_out, NULL, NULL, GxB_PLUS_PAIR_FP32, A, t, NULL)) ;

    // sink<!struct(d_out)> = 1: the dangling vertices
    GRB_TRY (GrB_Vector_new (&sink, GrB_BOOL, n)) ;
    GRB_TRY (GrB_Vector_assign_BOOL (sink, d_out, NULL, true, GrB_ALL, n,
        GrB_DESC_SC)) ;
    GRB_TRY (GrB_Vector_nvals (&nsinks, sink)) ;

    // d = max (d_out, 1) / damping, so that w = r ./ d is the damped share
    // each vertex sends along every one of its out-edges.  As in LAGraph, d
    // is full (a dangling vertex gets 1/damping: it has no out-edges, so its
    // w is never used), which keeps w full too.
    GRB_TRY (GrB_Vector_new (&d, GrB_FP32, n)) ;
    // d = 1
    GRB_TRY (GrB_Vector_assign_FP32 (d, NULL, NULL, 1, GrB_ALL, n, NULL)) ;
    // d = max (d, d_out)
    GRB_TRY (GrB_Vector_eWiseAdd_BinaryOp (d, NULL, NULL, GrB_MAX_FP32, d,
        d_out, NULL)) ;
    // d = d / damping
    GRB_TRY (GrB_Vector_apply_BinaryOp2nd_FP32 (d, NULL, NULL, GrB_DIV_FP32,
        d, damping, NULL)) ;

    // r = 1/n
    const float teleport = (1 - damping) / (float) n ;
    GRB_TRY (GrB_Vector_new (r, GrB_FP32, n)) ;
    GRB_TRY (GrB_Vector_assign_FP32 (*r, NULL, NULL, 1.0f / (float) n,
        GrB_ALL, n, NULL)) ;
    GRB_TRY (GrB_Vector_new (&w, GrB_FP32, n)) ;
    GRB_TRY (GrB_Vector_new (&tsink, GrB_FP32, n)) ;

    //--------------------------------------------------------------------------
    // iterations
    //--------------------------------------------------------------------------

    double t0 = ex_wtime () ;
    int k ;
    *t_first = 0 ;
    for (k = 1 ; k <= itermax ; k++)
    {
        step_on = (k > 1) ;
        if (k == 2) *t_first = ex_wtime () - t0 ;
        // swap t and r: t = r_old
        GrB_Vector tmp = t ; t = *r ; *r = tmp ;

        // rank held by dangling vertices, spread evenly: sink_rank = sum
        // (t (sink)), computed as sum (t .* sink)
        float sink_rank = 0 ;
        if (nsinks > 0)
        {
            // tsink = t .* sink (values of t at the dangling vertices)
            STEP (ST_SINK, GrB_Vector_eWiseMult_BinaryOp (tsink, NULL, NULL,
                GrB_FIRST_FP32, t, sink, NULL)) ;
            // sink_rank = sum (tsink)
            STEP (ST_SINK, GrB_Vector_reduce_FP32 (&sink_rank, NULL,
                GrB_PLUS_MONOID_FP32, tsink, NULL)) ;
        }

        // w = t ./ d
        STEP (ST_DIV, GrB_Vector_eWiseMult_BinaryOp (w, NULL, NULL, GrB_DIV_FP32, t,
            d, NULL)) ;

        // r = (1 - damping)/n + damping * sink_rank / n (a full vector)
        float base = teleport + damping * sink_rank / (float) n ;
        STEP (ST_BASE, GrB_Vector_assign_FP32 (*r, NULL, NULL, base, GrB_ALL, n,
            NULL)) ;

        // r += A'*w: the rank flowing in along the edges (PLUS_SECOND)
        STEP (ST_MXV, GrB_mxv (*r, NULL, GrB_PLUS_FP32, GxB_PLUS_SECOND_FP32, AT, w,
            NULL)) ;

        // check for convergence: rdiff = ||t - r||_1
        if (tol > 0)
        {
            float rdiff ;
            // t = t - r
            STEP (ST_DIFF, GrB_Vector_eWiseAdd_BinaryOp (t, NULL, NULL,
                GrB_MINUS_FP32, t, *r, NULL)) ;
            // t = abs (t)
            STEP (ST_DIFF, GrB_Vector_apply (t, NULL, NULL, GrB_ABS_FP32, t, NULL)) ;
            // rdiff = sum (t)
            STEP (ST_DIFF, GrB_Vector_reduce_FP32 (&rdiff, NULL,
                GrB_PLUS_MONOID_FP32, t, NULL)) ;
            if (rdiff <= tol) break ;
        }
    }
    GRB_TRY (GrB_Vector_wait (*r, GrB_MATERIALIZE)) ;
    *t_iter = ex_wtime () - t0 ;
    *iters = (k > itermax) ? itermax : k ;
    if (*iters == 1) *t_first = *t_iter ;

    //--------------------------------------------------------------------------
    // free workspace and return result
    //--------------------------------------------------------------------------

    GrB_Vector result = *r ;
    *r = NULL ;
    FREE_ALL ;
    *r = result ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    GrB_free (&A) ; GrB_free (&r) ; free (R) ; free (ref) ;                 \
    free (rank_index) ; if (fsave != NULL) fclose (fsave) ;                 \
}

static void usage (void)
{
    fprintf (stderr, "usage: pagerank [--scale S] [--seed N] [--iters N] "
        "[--tol T] [--itermax N] [--steps] [--save FILE | --compare FILE] "
        "[matrix.mtx[.gz]]\n") ;
}

// order vertices by decreasing rank, then increasing index
static const double *rank_sort_key ;
static int rank_cmp (const void *a, const void *b)
{
    int64_t i = *(const int64_t *) a, j = *(const int64_t *) b ;
    double ri = rank_sort_key [i], rj = rank_sort_key [j] ;
    if (ri != rj) return ((ri > rj) ? -1 : 1) ;
    return ((i > j) - (i < j)) ;
}

int main (int argc, char **argv)
{
    GrB_Matrix A = NULL ;
    GrB_Vector r = NULL ;
    double *R = NULL, *ref = NULL ;
    int64_t *rank_index = NULL ;
    FILE *fsave = NULL ;

    //--------------------------------------------------------------------------
    // options
    //--------------------------------------------------------------------------

    int scale = 20, iters_fixed = 0, itermax = 100 ;
    bool steps = false ;
    uint64_t seed = 42 ;
    float tol = 1e-4f ;
    const char *file = NULL ;
    ex_check_opts check = { NULL, NULL } ;
    for (int k = 1 ; k < argc ; )
    {
        if (ex_parse_check_arg (&check, argc, argv, &k)) continue ;
        const char *a = argv [k] ;
        bool has = (k + 1 < argc) ;
        if (!strcmp (a, "--scale") && has) scale = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--seed") && has) seed = strtoull (argv [k+1], NULL, 0) ;
        else if (!strcmp (a, "--iters") && has) iters_fixed = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--itermax") && has) itermax = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--tol") && has) tol = strtof (argv [k+1], NULL) ;
        else if (!strcmp (a, "--steps"))
        {
            steps = true ;
            *(void **) &step_stats_line = dlsym (RTLD_DEFAULT, "grbgpu_stats_line") ;
            k++ ;
            continue ;
        }
        else if (a [0] != '-' && file == NULL) { file = a ; k++ ; continue ; }
        else { usage () ; return (2) ; }
        k += 2 ;
    }
    if (iters_fixed > 0) { itermax = iters_fixed ; tol = 0 ; }
    if (scale < 1 || scale > 30 || itermax < 1) { usage () ; return (2) ; }

    GRB_TRY (GrB_init (GrB_NONBLOCKING)) ;
    int nthreads = 0 ;
    GRB_TRY (GxB_Global_Option_get (GxB_GLOBAL_NTHREADS, &nthreads)) ;

    //--------------------------------------------------------------------------
    // the graph
    //--------------------------------------------------------------------------

    double t0 = ex_wtime () ;
    if (file != NULL)
    {
        GRB_TRY (ex_read_mm (&A, file)) ;
    }
    else
    {
        GRB_TRY (ex_rmat (&A, scale, 16, seed)) ;
    }
    GrB_Index n, nvals ;
    GRB_TRY (GrB_Matrix_nrows (&n, A)) ;
    GRB_TRY (GrB_Matrix_nvals (&nvals, A)) ;
    if (file != NULL) printf ("pagerank: graph %s", file) ;
    else printf ("pagerank: graph R-MAT scale %d (seed %llu)", scale,
        (unsigned long long) seed) ;
    printf (": %llu vertices, %llu edges (%.2f s to build); %d threads\n",
        (unsigned long long) n, (unsigned long long) nvals,
        ex_wtime () - t0, nthreads) ;

    //--------------------------------------------------------------------------
    // PageRank
    //--------------------------------------------------------------------------

    int iters = 0 ;
    double t_iter = 0, t_first = 0 ;
    t0 = ex_wtime () ;
    GRB_TRY (pagerank (&r, &iters, &t_iter, &t_first, A, 0.85f, tol, itermax)) ;
    double t_total = ex_wtime () - t0 ;
    // per iteration after the first (which alone pays one-time costs: the
    // CPU library finishing A', with grbgpu its conversion and upload)
    double per_step = (iters > 1) ? (t_iter - t_first) / (iters - 1) : t_iter ;
    printf ("pagerank: %d iterations (%s), %.4f s per iteration, "
        "%.3f s in iterations, %.3f s total; %.4f s per iteration after the "
        "first (first %.4f s)\n", iters,
        (tol > 0) ? "converged or itermax" : "fixed count",
        t_iter / iters, t_iter, t_total, per_step, t_first) ;
    for (int st = 0 ; steps && iters > 1 && st < ST_N ; st++)
    {
        printf ("pagerank: step %-32s %8.3f ms per iteration (after the "
            "first)", step_name [st], 1e3 * step_time [st] / (iters - 1)) ;
        if (step_stats_line != NULL)
        {
            printf (", %.0f bytes up, %.0f down", step_up [st] / (iters - 1),
                step_down [st] / (iters - 1)) ;
        }
        printf ("\n") ;
    }

    //--------------------------------------------------------------------------
    // top 10
    //--------------------------------------------------------------------------

    // R = r as a dense array (r is full: every vertex gets the teleport share)
    R = calloc (n, sizeof (double)) ;
    rank_index = malloc (n * sizeof (int64_t)) ;
    EX_TRY (R != NULL && rank_index != NULL, "out of memory") ;
    {
        float *rx = NULL ;
        GrB_Index *ri = NULL, nr = n ;
        rx = malloc (n * sizeof (float)) ;
        ri = malloc (n * sizeof (GrB_Index)) ;
        if (rx == NULL || ri == NULL) { free (rx) ; free (ri) ; }
        EX_TRY (rx != NULL && ri != NULL, "out of memory") ;
        GrB_Info info = GrB_Vector_extractTuples_FP32 (ri, rx, &nr, r) ;
        for (GrB_Index k = 0 ; info == GrB_SUCCESS && k < nr ; k++)
        {
            R [ri [k]] = rx [k] ;
        }
        free (rx) ; free (ri) ;
        GRB_TRY (info) ;
    }
    double rsum = 0 ;
    for (GrB_Index i = 0 ; i < n ; i++) { rank_index [i] = i ; rsum += R [i] ; }
    rank_sort_key = R ;
    qsort (rank_index, n, sizeof (int64_t), rank_cmp) ;
    printf ("pagerank: sum of ranks %.6f; top 10:\n", rsum) ;
    for (GrB_Index k = 0 ; k < 10 && k < n ; k++)
    {
        printf ("  %2d  vertex %10lld  rank %.6e\n", (int) k + 1,
            (long long) rank_index [k], R [rank_index [k]]) ;
    }
    printf ("summary: example=pagerank step=iteration steps=%d "
        "per_step_s=%.6f first_s=%.6f total_s=%.4f\n", iters, per_step, t_first,
        t_total) ;

    //--------------------------------------------------------------------------
    // check mode
    //--------------------------------------------------------------------------

    int status = 0 ;
    if (check.save != NULL)
    {
        fsave = ex_check_create (check.save) ;
        EX_TRY (fsave != NULL, "cannot create %s", check.save) ;
        EX_TRY (ex_check_write (fsave, "ranks", R, n) == 0, "write failed") ;
        int rc = fclose (fsave) ;
        fsave = NULL ;
        EX_TRY (rc == 0, "write of %s failed", check.save) ;
        printf ("check: saved %llu ranks to %s\n", (unsigned long long) n,
            check.save) ;
    }
    if (check.compare != NULL)
    {
        int64_t nref ;
        bool ok = (ex_check_read (check.compare, "ranks", &ref, &nref) == 0) ;
        ok = ok && ex_check_compare ("ranks", ref, nref, R, n,
            PAGERANK_CHECK_RTOL, true) ;
        if (ok) printf ("check: PASS\n") ;
        else printf ("check: FAIL (ranks differ from %s)\n", check.compare) ;
        status = ok ? 0 : 1 ;
    }

    FREE_ALL ;
    GrB_finalize () ;
    return (status) ;
}
