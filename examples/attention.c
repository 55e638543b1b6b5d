//------------------------------------------------------------------------------
// examples/attention.c: one attention-style aggregation over a graph (SDDMM)
//------------------------------------------------------------------------------

// usage: attention [--scale S] [--dim D] [--reps R] [--seed N] [--steps]
//                  [--save FILE | --compare FILE] [graph.mtx[.gz]]
//
// On the edges of a graph A (R-MAT of 2^S vertices, S = 16 by default, or a
// Matrix Market file), with node features H (n-by-D, D = 64, uniform in
// [-1,1], seeded), computes as graph attention layers do:
//
//      S<A> = H*H' / sqrt(D)     edge scores: a masked GrB_mxm (SDDMM), the
//                                mask A structural, H' by the descriptor
//      P = rowsoftmax (S)        over the edges of each row: GrB_reduce (max,
//                                sum), GrB_apply (exp), diagonal scalings
//      O = P*H                   the aggregation: sparse times dense (SpMM)
//
// and times each step (R repetitions, R = 5 by default; the summary's
// per-step time is the mean of the repetitions after the first, first_s the
// first one).  --steps also prints the mean time of each GraphBLAS call of the
// step over the repetitions after the first.  --save FILE writes O (dense, missing entries as 0) and the
// entry counts of S and O;
// --compare FILE recomputes them and checks the counts exactly and
// max |O - O_saved| <= 1e-4 * max |O_saved| ("check: PASS", exit 0, or
// "check: FAIL", exit 1).

#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ATTENTION_CHECK_RTOL 1e-4

//------------------------------------------------------------------------------
// attention: O = rowsoftmax ((H*H') .* spones (A) / sqrt (d)) * H
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    GrB_free (&v) ; GrB_free (&Dg) ; GrB_free (S) ; GrB_free (O) ;          \
}

// the calls of one step, timed one by one with --steps
#define AT_N 14
static const char *at_name [AT_N] = { "S<A> = H*H'", "wait (S)", "S = S / sqrt (d)", "v = max (S, 2)",
    "D = diag (v)", "S = D (rminus) S", "S = exp (S)", "v = sum (S, 2)", "v = 1 ./ v",
    "D = diag (v)", "S = D*S", "wait (S)", "O = S*H", "wait (O)" } ;
static double at_sum [AT_N] ;
static double at_t0 ;
static int at_k ;
static bool at_on = false ;
// the time since the last mark goes to the next call in order
static void at_mark (void)
{
    if (!at_on) return ;
    double t = ex_wtime () ;
    if (at_k > 0 && at_k <= AT_N) at_sum [at_k - 1] += t - at_t0 ;
    at_t0 = t ;
    at_k++ ;
}
#define AT(call) do { GrB_Info at_info_ = (call) ; at_mark () ; GRB_TRY (at_info_) ; } while (0)

static GrB_Info attention
(
    GrB_Matrix *S,          // output: the attention weights P, pattern of A
    GrB_Matrix *O,          // output: n-by-d, O = P*H
    double t [3],           // output: seconds in SDDMM, softmax, SpMM
    GrB_Matrix A,           // n-by-n graph; only its pattern is used
    GrB_Matrix H            // n-by-d features, full
)
{
    at_k = 0 ;
    at_mark () ;
    GrB_Vector v = NULL ;
    GrB_Matrix Dg = NULL ;
    *S = NULL ; *O = NULL ;
    GrB_Index n, d ;
    GRB_TRY (GrB_Matrix_nrows (&n, H)) ;
    GRB_TRY (GrB_Matrix_ncols (&d, H)) ;
    GRB_TRY (GrB_Matrix_new (S, GrB_FP32, n, n)) ;
    GRB_TRY (GrB_Matrix_new (O, GrB_FP32, n, d)) ;
    GRB_TRY (GrB_Vector_new (&v, GrB_FP32, n)) ;

    //--------------------------------------------------------------------------
    // scores on the edges: SDDMM
    //--------------------------------------------------------------------------

    double t0 = ex_wtime () ;
    // S<struct(A)> = H*H' (structural mask, second input transposed)
    AT (GrB_mxm (*S, A, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, H, H,
        GrB_DESC_ST1)) ;
    AT (GrB_Matrix_wait (*S, GrB_MATERIALIZE)) ;
    double t1 = ex_wtime () ;

    //--------------------------------------------------------------------------
    // row softmax over the edges
    //--------------------------------------------------------------------------

    // S = S / sqrt (d)
    AT (GrB_Matrix_apply_BinaryOp2nd_FP32 (*S, NULL, NULL, GrB_TIMES_FP32,
        *S, (float) (1 / sqrt ((double) d)), NULL)) ;
    // v = max (S, [], 2): the largest score of each row (no entry if none)
    AT (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_MAX_MONOID_FP32, *S,
        NULL)) ;
    // S = S - v (each row shifted by its max, so exp cannot overflow): S =
    // diag (v) "PLUS_RMINUS" S, where rminus (v(i), s) = s - v(i)
    AT (GrB_Matrix_diag (&Dg, v, 0)) ;
    AT (GrB_mxm (*S, NULL, NULL, GxB_PLUS_RMINUS_FP32, Dg, *S, NULL)) ;
    GrB_free (&Dg) ;
    // S = exp (S)
    AT (GrB_Matrix_apply (*S, NULL, NULL, GxB_EXP_FP32, *S, NULL)) ;
    // v = 1 ./ sum (S, 2)
    AT (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_PLUS_MONOID_FP32, *S,
        NULL)) ;
    AT (GrB_Vector_apply (v, NULL, NULL, GrB_MINV_FP32, v, NULL)) ;
    // S = diag (v) * S: each row sums to 1
    AT (GrB_Matrix_diag (&Dg, v, 0)) ;
    AT (GrB_mxm (*S, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, Dg, *S,
        NULL)) ;
    AT (GrB_Matrix_wait (*S, GrB_MATERIALIZE)) ;
    double t2 = ex_wtime () ;

    //--------------------------------------------------------------------------
    // aggregation: SpMM
    //--------------------------------------------------------------------------

    // O = S*H
    AT (GrB_mxm (*O, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, *S, H,
        NULL)) ;
    AT (GrB_Matrix_wait (*O, GrB_MATERIALIZE)) ;
    double t3 = ex_wtime () ;
    t [0] = t1 - t0 ; t [1] = t2 - t1 ; t [2] = t3 - t2 ;

    GrB_Matrix S_out = *S, O_out = *O ;
    *S = NULL ; *O = NULL ;
    FREE_ALL ;
    *S = S_out ; *O = O_out ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    GrB_free (&A) ; GrB_free (&H) ; GrB_free (&S) ; GrB_free (&O) ;         \
    free (Hx) ; free (Ox) ; free (Od) ; free (ref) ;                        \
    if (fsave != NULL) fclose (fsave) ;                                     \
}

static void usage (void)
{
    fprintf (stderr, "usage: attention [--scale S] [--dim D] [--reps R] "
        "[--seed N] [--steps] [--save FILE | --compare FILE] [graph.mtx[.gz]]\n") ;
}

int main (int argc, char **argv)
{
    GrB_Matrix A = NULL, H = NULL, S = NULL, O = NULL ;
    float *Hx = NULL, *Ox = NULL ;
    double *Od = NULL, *ref = NULL ;
    FILE *fsave = NULL ;

    //--------------------------------------------------------------------------
    // options
    //--------------------------------------------------------------------------

    int scale = 16, dim = 64, reps = 5 ;
    uint64_t seed = 42 ;
    const char *file = NULL ;
    ex_check_opts check = { NULL, NULL } ;
    for (int k = 1 ; k < argc ; )
    {
        if (ex_parse_check_arg (&check, argc, argv, &k)) continue ;
        const char *a = argv [k] ;
        bool has = (k + 1 < argc) ;
        if (!strcmp (a, "--scale") && has) scale = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--dim") && has) dim = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--reps") && has) reps = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--seed") && has) seed = strtoull (argv [k+1], NULL, 0) ;
        else if (!strcmp (a, "--steps")) { at_on = true ; k++ ; continue ; }
        else if (a [0] != '-' && file == NULL) { file = a ; k++ ; continue ; }
        else { usage () ; return (2) ; }
        k += 2 ;
    }
    // dim >= 1: a masked GrB_mxm with inner dimension 0 hangs in 7.4
    if (scale < 1 || scale > 30 || dim < 1 || reps < 1) { usage () ; return (2) ; }

    GRB_TRY (GrB_init (GrB_NONBLOCKING)) ;
    int nthreads = 0 ;
    GRB_TRY (GxB_Global_Option_get (GxB_GLOBAL_NTHREADS, &nthreads)) ;

    //--------------------------------------------------------------------------
    // graph and features
    //--------------------------------------------------------------------------

    if (file != NULL)
    {
        GRB_TRY (ex_read_mm (&A, file)) ;
    }
    else
    {
        GRB_TRY (ex_rmat (&A, scale, 16, seed)) ;
    }
    GrB_Index n, ncols, nedges ;
    GRB_TRY (GrB_Matrix_nrows (&n, A)) ;
    GRB_TRY (GrB_Matrix_ncols (&ncols, A)) ;
    GRB_TRY (GrB_Matrix_nvals (&nedges, A)) ;
    EX_TRY (n == ncols && n > 0, "attention: the graph must be square") ;
    ex_rng rng ;
    ex_rng_seed (&rng, seed ^ 0x5eedf00dull) ;
    Hx = malloc (n * dim * sizeof (float)) ;
    EX_TRY (Hx != NULL, "out of memory") ;
    for (GrB_Index k = 0 ; k < n * dim ; k++)
    {
        Hx [k] = (float) (2 * ex_rng_uniform (&rng) - 1) ;
    }
    GRB_TRY (ex_dense_pack (&H, &Hx, n, dim)) ;
    if (file != NULL) printf ("attention: graph %s", file) ;
    else printf ("attention: graph R-MAT scale %d (seed %llu)", scale,
        (unsigned long long) seed) ;
    printf (": %llu vertices, %llu edges; d = %d; %d threads\n",
        (unsigned long long) n, (unsigned long long) nedges, dim, nthreads) ;

    //--------------------------------------------------------------------------
    // attention, timed
    //--------------------------------------------------------------------------

    double best [3] = { INFINITY, INFINITY, INFINITY }, sum_total = 0 ;
    double first_total = 0, later_total = 0 ;
    for (int r = 0 ; r < reps ; r++)
    {
        double t [3] ;
        GRB_TRY (GrB_free (&S)) ;
        GRB_TRY (GrB_free (&O)) ;
        if (r == 1) memset (at_sum, 0, sizeof (at_sum)) ;  // (the first apart)
        GRB_TRY (attention (&S, &O, t, A, H)) ;
        for (int k = 0 ; k < 3 ; k++) best [k] = fmin (best [k], t [k]) ;
        sum_total += t [0] + t [1] + t [2] ;
        if (r == 0) first_total = t [0] + t [1] + t [2] ;
        else later_total += t [0] + t [1] + t [2] ;
        printf ("rep %d: SDDMM %.4f s, softmax %.4f s, SpMM %.4f s, "
            "total %.4f s\n", r + 1, t [0], t [1], t [2], t [0] + t [1] + t [2]) ;
    }
    GrB_Index nvals_S, nvals_O ;
    GRB_TRY (GrB_Matrix_nvals (&nvals_S, S)) ;
    GRB_TRY (GrB_Matrix_nvals (&nvals_O, O)) ;
    double sddmm_flops = 2.0 * (double) nvals_S * dim ;
    printf ("attention: best SDDMM %.4f s (%.2f GFLOP/s), softmax %.4f s, "
        "SpMM %.4f s (%.2f GFLOP/s); %llu scores, %llu output entries\n",
        best [0], 1e-9 * sddmm_flops / best [0], best [1], best [2],
        1e-9 * sddmm_flops / best [2], (unsigned long long) nvals_S,
        (unsigned long long) nvals_O) ;
    for (int k = 0 ; at_on && reps > 1 && k < AT_N ; k++)
    {
        printf ("attention: step %-18s %8.4f ms per repetition (after the first)\n",
            at_name [k], 1e3 * at_sum [k] / (reps - 1)) ;
    }
    // per step: the repetitions after the first, which alone pays one-time
    // costs (with grbgpu on a GPU: CUDA start-up and the first conversion)
    double per_step = (reps > 1) ? later_total / (reps - 1) : first_total ;
    printf ("summary: example=attention step=aggregation steps=%d "
        "per_step_s=%.6f first_s=%.6f total_s=%.4f\n", reps, per_step,
        first_total, sum_total) ;

    //--------------------------------------------------------------------------
    // check mode
    //--------------------------------------------------------------------------

    int status = 0 ;
    if (check.save != NULL || check.compare != NULL)
    {
        // Od = O as a dense array, rows without edges all zero
        GRB_TRY (ex_dense_unpack (&Ox, O)) ;
        Od = malloc (n * dim * sizeof (double)) ;
        EX_TRY (Od != NULL, "out of memory") ;
        for (GrB_Index k = 0 ; k < n * dim ; k++) Od [k] = Ox [k] ;
    }
    double counts [2] = { (double) nvals_S, (double) nvals_O } ;
    if (check.save != NULL)
    {
        fsave = ex_check_create (check.save) ;
        EX_TRY (fsave != NULL, "cannot create %s", check.save) ;
        EX_TRY (ex_check_write (fsave, "counts", counts, 2) == 0
            && ex_check_write (fsave, "output", Od, n * dim) == 0,
            "write failed") ;
        int rc = fclose (fsave) ;
        fsave = NULL ;
        EX_TRY (rc == 0, "write of %s failed", check.save) ;
        printf ("check: saved the %llu-by-%d output to %s\n",
            (unsigned long long) n, dim, check.save) ;
    }
    if (check.compare != NULL)
    {
        int64_t nref ;
        bool ok = (ex_check_read (check.compare, "counts", &ref, &nref) == 0) ;
        ok = ok && ex_check_compare ("counts", ref, nref, counts, 2, 0, false) ;
        free (ref) ; ref = NULL ;
        bool ok2 = (ex_check_read (check.compare, "output", &ref, &nref) == 0) ;
        ok2 = ok2 && ex_check_compare ("output", ref, nref, Od, n * dim,
            ATTENTION_CHECK_RTOL, true) ;
        ok = ok && ok2 ;
        if (ok) printf ("check: PASS\n") ;
        else printf ("check: FAIL (results differ from %s)\n", check.compare) ;
        status = ok ? 0 : 1 ;
    }

    FREE_ALL ;
    GrB_finalize () ;
    return (status) ;
}
