//------------------------------------------------------------------------------
// examples/mlp.c: inference of a small pruned MLP (dense x N:M-sparse weights)
//------------------------------------------------------------------------------

// usage: mlp [--batch B] [--width W] [--layers L] [--reps R] [--seed N]
//            [--save FILE | --compare FILE]
//
// A multilayer perceptron of L layers (L = 4 by default), each a W x W
// weight matrix (W = 1024), applied to a batch of B inputs (B = 512, a full
// B x W matrix, uniform in [-1,1], seeded):
//
//      X = max (X * Wl, 0)     for each layer l but the last (ReLU through
//      Y = X * WL              GrB_apply with MAX and the scalar 0, which
//                              keeps X full for the next layer)
//
// four times: with the dense weights (held full: a dense product), with the
// same weights pruned to 2:4 and to 1:4 (in every group of 4 consecutive
// entries down each column of Wl, the reduction dimension, the 2 or the 1 of
// largest magnitude are kept; a sparse GrB_Matrix, as pruned networks store
// them), and pruned vector-wise to 8:32 (NM-SpMM's format: in every group of
// 32 rows, the 8 of largest magnitude summed over each aligned block of 32
// columns are kept in all of the block's columns; grbgpu's tensor-core N:M
// row takes this pattern, not the element-wise ones).  Weights are He-scaled
// uniform values, seeded.
//
// Each model runs R times (R = 3); the per-model time is the mean of the
// runs after the first (the first pays one-time costs: with grbgpu on a GPU,
// CUDA start-up, the weights' conversion and the chooser's measurements),
// and the summary's per-step time is the 2:4 model's forward pass.
// --save FILE writes the four outputs (B x W each); --compare FILE
// recomputes them and checks max |Y - Y_saved| <= 1e-4 * max |Y_saved| for
// each ("check: PASS", exit 0, or "check: FAIL", exit 1).

#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MLP_CHECK_RTOL 1e-4
#define MLP_MODELS 4
#define MLP_VBLOCK 32                   // columns sharing positions (vector-wise)

static const char *model_name [MLP_MODELS] = { "dense", "2:4", "1:4", "8:32v" } ;
static const char *model_key [MLP_MODELS] = { "dense", "nm_2_4", "nm_1_4", "nm_8_32v" } ;
static const int model_keep [MLP_MODELS] = { 4, 2, 1, 8 } ;       // of every
static const int model_group [MLP_MODELS] = { 4, 4, 4, 32 } ;     // ... rows
static const bool model_vector [MLP_MODELS] = { false, false, false, true } ;

//------------------------------------------------------------------------------
// weights: dense (full) or pruned to keep:group down each column
//------------------------------------------------------------------------------

// The keep of rows g .. g+width-1 of largest score (taken [q] set for them):
// |w| in column j, or (vector) |w| summed over columns j .. j+cols-1
static void prune_group (const float *w, GrB_Index n, GrB_Index g, int width,
    GrB_Index j, GrB_Index cols, int keep, bool *taken)
{
    float score [MLP_VBLOCK] ;
    for (int q = 0 ; q < width ; q++)
    {
        float s = 0 ;
        for (GrB_Index c = j ; c < j + cols ; c++) s += fabsf (w [(g+q) * n + c]) ;
        score [q] = s ;
        taken [q] = false ;
    }
    for (int t = 0 ; t < keep && t < width ; t++)
    {
        int best = -1 ;
        for (int q = 0 ; q < width ; q++)
        {
            if (taken [q]) continue ;
            if (best < 0 || score [q] > score [best]) best = q ;
        }
        taken [best] = true ;
    }
}

#undef  FREE_ALL
#define FREE_ALL { free (I) ; free (J) ; free (V) ; GrB_free (Wm) ; }

static GrB_Info make_weights (GrB_Matrix *Wm, const float *w, GrB_Index n,
    int keep, int group, bool vector)
{
    GrB_Index *I = NULL, *J = NULL ;
    float *V = NULL ;
    *Wm = NULL ;
    if (keep == group)
    {
        float *x = malloc (n * n * sizeof (float)) ;
        EX_TRY (x != NULL, "out of memory") ;
        memcpy (x, w, n * n * sizeof (float)) ;
        return (ex_dense_pack (Wm, &x, n, n)) ;
    }
    GrB_Index cap = (n + group - 1) / group * n * (GrB_Index) keep + 1, nz = 0 ;
    I = malloc (cap * sizeof (GrB_Index)) ;
    J = malloc (cap * sizeof (GrB_Index)) ;
    V = malloc (cap * sizeof (float)) ;
    EX_TRY (I != NULL && J != NULL && V != NULL, "out of memory") ;
    // (element-wise: blocks of one column)
    const GrB_Index vb = vector ? MLP_VBLOCK : 1 ;
    for (GrB_Index j0 = 0 ; j0 < n ; j0 += vb)
    {
        const GrB_Index cols = (n - j0 < vb) ? n - j0 : vb ;
        for (GrB_Index g = 0 ; g < n ; g += group)
        {
            bool taken [MLP_VBLOCK] ;
            const int width = (n - g < (GrB_Index) group) ? (int) (n - g) : group ;
            prune_group (w, n, g, width, j0, cols, keep, taken) ;
            for (GrB_Index j = j0 ; j < j0 + cols ; j++)
            {
                for (int q = 0 ; q < width ; q++)
                {
                    if (!taken [q]) continue ;
                    I [nz] = g + q ; J [nz] = j ; V [nz] = w [(g+q) * n + j] ; nz++ ;
                }
            }
        }
    }
    GRB_TRY (GrB_Matrix_new (Wm, GrB_FP32, n, n)) ;
    GRB_TRY (GrB_Matrix_build_FP32 (*Wm, I, J, V, nz, GrB_PLUS_FP32)) ;
    GRB_TRY (GrB_Matrix_wait (*Wm, GrB_MATERIALIZE)) ;
    free (I) ; free (J) ; free (V) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// one forward pass: Y = relu (... relu (X0 * W1) ...) * WL
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL { GrB_free (&T) ; GrB_free (Y) ; }

static GrB_Info forward (GrB_Matrix *Y, GrB_Matrix X0, GrB_Matrix *W,
    int layers)
{
    GrB_Matrix T = NULL ;
    GrB_Index b, n ;
    *Y = NULL ;
    GRB_TRY (GrB_Matrix_nrows (&b, X0)) ;
    GRB_TRY (GrB_Matrix_ncols (&n, X0)) ;
    GRB_TRY (GrB_Matrix_dup (Y, X0)) ;
    for (int l = 0 ; l < layers ; l++)
    {
        GRB_TRY (GrB_Matrix_new (&T, GrB_FP32, b, n)) ;
        // T = Y * Wl: dense times (pruned) weights
        GRB_TRY (GrB_mxm (T, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, *Y,
            W [l], NULL)) ;
        // ReLU, all but the last layer: T = max (T, 0)
        if (l + 1 < layers)
        {
            GRB_TRY (GrB_Matrix_apply_BinaryOp2nd_FP32 (T, NULL, NULL,
                GrB_MAX_FP32, T, 0.0f, NULL)) ;
        }
        GRB_TRY (GrB_free (Y)) ;
        *Y = T ;
        T = NULL ;
    }
    GRB_TRY (GrB_Matrix_wait (*Y, GrB_MATERIALIZE)) ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    for (int q = 0 ; q < MLP_MODELS * layers && W != NULL ; q++)           \
        GrB_free (&W [q]) ;                                                 \
    free (W) ; GrB_free (&X) ; GrB_free (&Y) ;                              \
    free (Xx) ; free (w) ; free (Yx) ; free (ref) ;                         \
    for (int q = 0 ; q < MLP_MODELS ; q++) free (out [q]) ;                 \
    if (fsave != NULL) fclose (fsave) ;                                     \
}

static void usage (void)
{
    fprintf (stderr, "usage: mlp [--batch B] [--width W] [--layers L] "
        "[--reps R] [--seed N] [--save FILE | --compare FILE]\n") ;
}

int main (int argc, char **argv)
{
    GrB_Matrix *W = NULL, X = NULL, Y = NULL ;
    float *Xx = NULL, *w = NULL, *Yx = NULL ;
    double *out [MLP_MODELS] = { NULL, NULL, NULL }, *ref = NULL ;
    FILE *fsave = NULL ;

    //--------------------------------------------------------------------------
    // options
    //--------------------------------------------------------------------------

    int batch = 512, width = 1024, layers = 4, reps = 3 ;
    uint64_t seed = 42 ;
    ex_check_opts check = { NULL, NULL } ;
    for (int k = 1 ; k < argc ; )
    {
        if (ex_parse_check_arg (&check, argc, argv, &k)) continue ;
        const char *a = argv [k] ;
        bool has = (k + 1 < argc) ;
        if (!strcmp (a, "--batch") && has) batch = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--width") && has) width = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--layers") && has) layers = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--reps") && has) reps = atoi (argv [k+1]) ;
        else if (!strcmp (a, "--seed") && has) seed = strtoull (argv [k+1], NULL, 0) ;
        else { usage () ; return (2) ; }
        k += 2 ;
    }
    if (batch < 1 || width < 4 || layers < 1 || layers > 64 || reps < 1)
    {
        usage () ;
        return (2) ;
    }
    const GrB_Index b = (GrB_Index) batch, n = (GrB_Index) width ;

    GRB_TRY (GrB_init (GrB_NONBLOCKING)) ;
    int nthreads = 0 ;
    GRB_TRY (GxB_Global_Option_get (GxB_GLOBAL_NTHREADS, &nthreads)) ;

    //--------------------------------------------------------------------------
    // input and weights
    //--------------------------------------------------------------------------

    ex_rng rng ;
    ex_rng_seed (&rng, seed ^ 0x6d6c70ull) ;
    Xx = malloc (b * n * sizeof (float)) ;
    w = malloc (n * n * sizeof (float)) ;
    W = calloc ((size_t) (MLP_MODELS * layers), sizeof (GrB_Matrix)) ;
    EX_TRY (Xx != NULL && w != NULL && W != NULL, "out of memory") ;
    for (GrB_Index k = 0 ; k < b * n ; k++) Xx [k] = (float) (2 * ex_rng_uniform (&rng) - 1) ;
    GRB_TRY (ex_dense_pack (&X, &Xx, b, n)) ;
    // He-scaled: uniform with variance 2 / (the entries kept per column)
    for (int l = 0 ; l < layers ; l++)
    {
        for (GrB_Index k = 0 ; k < n * n ; k++)
        {
            w [k] = (float) ((2 * ex_rng_uniform (&rng) - 1) * sqrt (6.0 / (double) n)) ;
        }
        for (int mo = 0 ; mo < MLP_MODELS ; mo++)
        {
            GRB_TRY (make_weights (&W [mo * layers + l], w, n, model_keep [mo],
                model_group [mo], model_vector [mo])) ;
            if (mo > 0)
            {
                // pruned: scale back up to keep the activations' size
                GRB_TRY (GrB_Matrix_apply_BinaryOp2nd_FP32 (W [mo * layers + l], NULL,
                    NULL, GrB_TIMES_FP32, W [mo * layers + l],
                    (float) sqrt ((double) model_group [mo] / model_keep [mo]), NULL)) ;
            }
        }
    }
    printf ("mlp: batch %d, width %d, %d layers (ReLU between), models dense, "
        "2:4, 1:4, 8:32 vector-wise (seed %llu); %d threads\n", batch, width, layers,
        (unsigned long long) seed, nthreads) ;

    //--------------------------------------------------------------------------
    // inference, timed
    //--------------------------------------------------------------------------

    double per [MLP_MODELS], first [MLP_MODELS], total = 0 ;
    for (int mo = 0 ; mo < MLP_MODELS ; mo++)
    {
        double later = 0 ;
        for (int r = 0 ; r < reps ; r++)
        {
            GRB_TRY (GrB_free (&Y)) ;
            double t0 = ex_wtime () ;
            GRB_TRY (forward (&Y, X, &W [mo * layers], layers)) ;
            double t = ex_wtime () - t0 ;
            total += t ;
            if (r == 0) first [mo] = t ;
            else later += t ;
        }
        per [mo] = (reps > 1) ? later / (reps - 1) : first [mo] ;
        GrB_Index nvals ;
        GRB_TRY (GrB_Matrix_nvals (&nvals, Y)) ;
        double flops = 2.0 * (double) b * (double) n * (double) n * layers
            * model_keep [mo] / (double) model_group [mo] ;
        printf ("mlp: %-5s %.5f s per forward (first %.5f s), %.2f GFLOP/s, "
            "%llu outputs\n", model_name [mo], per [mo], first [mo],
            1e-9 * flops / per [mo], (unsigned long long) nvals) ;
        // its output as a dense array of doubles (missing entries as 0)
        GRB_TRY (ex_dense_unpack (&Yx, Y)) ;
        out [mo] = malloc (b * n * sizeof (double)) ;
        EX_TRY (out [mo] != NULL, "out of memory") ;
        for (GrB_Index k = 0 ; k < b * n ; k++) out [mo] [k] = Yx [k] ;
        free (Yx) ; Yx = NULL ;
    }
    printf ("mlp: speedup over the dense model: 2:4 %.2fx, 1:4 %.2fx, 8:32v %.2fx\n",
        per [0] / per [1], per [0] / per [2], per [0] / per [3]) ;
    printf ("summary: example=mlp step=forward_2_4 steps=%d per_step_s=%.6f "
        "first_s=%.6f total_s=%.4f\n", reps, per [1], first [1], total) ;

    //--------------------------------------------------------------------------
    // check mode
    //--------------------------------------------------------------------------

    int status = 0 ;
    if (check.save != NULL)
    {
        fsave = ex_check_create (check.save) ;
        EX_TRY (fsave != NULL, "cannot create %s", check.save) ;
        for (int mo = 0 ; mo < MLP_MODELS ; mo++)
        {
            EX_TRY (ex_check_write (fsave, model_key [mo], out [mo],
                (int64_t) (b * n)) == 0, "write failed") ;
        }
        int rc = fclose (fsave) ;
        fsave = NULL ;
        EX_TRY (rc == 0, "write of %s failed", check.save) ;
        printf ("check: saved the four %llu-by-%llu outputs to %s\n",
            (unsigned long long) b, (unsigned long long) n, check.save) ;
    }
    if (check.compare != NULL)
    {
        bool ok = true ;
        for (int mo = 0 ; mo < MLP_MODELS ; mo++)
        {
            int64_t nref ;
            bool one = (ex_check_read (check.compare, model_key [mo], &ref, &nref) == 0) ;
            one = one && ex_check_compare (model_key [mo], ref, nref, out [mo],
                (int64_t) (b * n), MLP_CHECK_RTOL, true) ;
            free (ref) ; ref = NULL ;
            ok = ok && one ;
        }
        if (ok) printf ("check: PASS\n") ;
        else printf ("check: FAIL (results differ from %s)\n", check.compare) ;
        status = ok ? 0 : 1 ;
    }

    FREE_ALL ;
    GrB_finalize () ;
    return (status) ;
}
