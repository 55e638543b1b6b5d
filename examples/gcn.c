//------------------------------------------------------------------------------
// examples/gcn.c: a two-layer graph convolutional network, trained in GraphBLAS
//------------------------------------------------------------------------------

// usage: gcn [--nodes N] [--classes C] [--features F] [--hidden H]
//            [--degree D] [--homophily P] [--signal S] [--train-frac T]
//            [--epochs E] [--lr L] [--sgd] [--seed N] [--min-test-acc A]
//            [--save FILE | --compare FILE] [--rmat S | graph.mtx[.gz]]
//
// Kipf and Welling's GCN: Ahat = D^-1/2 (A+I) D^-1/2 (D: degrees of A+I),
//      H1 = ReLU (Ahat H0 W0),   Z = Ahat H1 W1,
// softmax cross-entropy over the training nodes, full-batch gradient descent
// (Adam, or plain SGD with --sgd).  The products are GrB_mxm calls with FP32
// PLUS_TIMES: Ahat times a dense n-by-k matrix (SpMM) and dense times dense
// (GEMM, e.g. H1' G); dense matrices are GrB_Matrix objects held full by row
// (packed from malloc'd arrays with GxB_Matrix_pack_FullR).  Softmax, loss,
// accuracy and the optimizer step work on the unpacked arrays.
//
// Data: a stochastic block model graph (default 100000 nodes, 16 classes,
// average degree about 16, a fraction P = 0.6 of each node's edges inside its
// class) with class-correlated features (x_i = S * mu_class + N(0,I)), or the
// graph of a Matrix Market file (symmetrized; the labels are then regions of
// the graph grown from random seeds, and the features are drawn the same
// way).  Everything is seeded: a run is reproducible.
//
// Prints loss and train/test accuracy per epoch, and the time per epoch.
// --save FILE writes the per-epoch losses and the final accuracies;
// --compare FILE checks each loss to relative 1e-3 and the accuracies to
// 0.01 relative to the larger one
// ("check: PASS", exit 0, or "check: FAIL", exit 1).  --min-test-acc A makes
// the exit status 1 if the final test accuracy is below A.

#include "common.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define GCN_LOSS_RTOL 1e-3
#define GCN_ACC_TOL 0.01

typedef struct
{
    int64_t nodes ;
    int classes, features, hidden, degree, epochs ;
    double homophily, signal, train_frac, lr ;
    bool sgd ;
    uint64_t seed ;
} gcn_opts ;

//------------------------------------------------------------------------------
// sbm_graph: symmetric stochastic block model graph, no self-loops
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    free (I) ; free (J) ; free (X) ; free (members) ; free (start) ;        \
    free (fill) ; GrB_free (A) ;                                            \
}

static GrB_Info sbm_graph
(
    GrB_Matrix *A,          // output: n-by-n symmetric pattern, values 1
    const int *label,       // label [i] in 0..classes-1
    const gcn_opts *o,
    ex_rng *rng
)
{
    GrB_Index *I = NULL, *J = NULL ;
    float *X = NULL ;
    int64_t *members = NULL, *start = NULL, *fill = NULL ;
    int64_t n = o->nodes ;
    int C = o->classes ;

    // members of each class: members [start [c] ... start [c+1]-1]
    members = malloc (n * sizeof (int64_t)) ;
    start = calloc (C + 1, sizeof (int64_t)) ;
    fill = calloc (C, sizeof (int64_t)) ;
    int64_t draws = n * (int64_t) ((o->degree + 1) / 2) ;
    I = malloc ((2 * draws + 1) * sizeof (GrB_Index)) ;
    J = malloc ((2 * draws + 1) * sizeof (GrB_Index)) ;
    X = malloc ((2 * draws + 1) * sizeof (float)) ;
    EX_TRY (members && start && fill && I && J && X, "sbm: out of memory") ;
    for (int64_t i = 0 ; i < n ; i++) start [label [i] + 1]++ ;
    for (int c = 0 ; c < C ; c++) start [c + 1] += start [c] ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        int c = label [i] ;
        members [start [c] + fill [c]++] = i ;
    }

    // each node draws degree/2 partners: in its own class with probability
    // P, else uniformly; both directions are kept, so the average degree is
    // about 'degree' (less the rare duplicates)
    GrB_Index e = 0 ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        int c = label [i] ;
        int64_t size = start [c + 1] - start [c] ;
        for (int k = 0 ; k < (o->degree + 1) / 2 ; k++)
        {
            int64_t j ;
            if (ex_rng_uniform (rng) < o->homophily)
            {
                j = members [start [c] + ex_rng_below (rng, size)] ;
            }
            else
            {
                j = ex_rng_below (rng, n) ;
            }
            if (j == i) continue ;
            I [e] = i ; J [e] = j ; X [e] = 1 ; e++ ;
            I [e] = j ; J [e] = i ; X [e] = 1 ; e++ ;
        }
    }

    GRB_TRY (GrB_Matrix_new (A, GrB_FP32, n, n)) ;
    // A(i,j) = A(j,i) = 1 for each drawn pair; duplicates kept once
    GRB_TRY (GrB_Matrix_build_FP32 (*A, I, J, X, e, GrB_FIRST_FP32)) ;
    GrB_Matrix result = *A ;
    *A = NULL ;
    FREE_ALL ;
    *A = result ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// normalize: Ahat = D^-1/2 (A+I) D^-1/2, from any square A
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    GrB_free (&S) ; GrB_free (&Id) ; GrB_free (&D) ; GrB_free (&v) ;        \
    GrB_free (Ahat) ;                                                       \
}

static GrB_Info normalize (GrB_Matrix *Ahat, GrB_Matrix A)
{
    GrB_Matrix S = NULL, Id = NULL, D = NULL ;
    GrB_Vector v = NULL ;
    GrB_Index n ;
    GRB_TRY (GrB_Matrix_nrows (&n, A)) ;

    // S = spones (A): every entry becomes 1
    GRB_TRY (GrB_Matrix_new (&S, GrB_FP32, n, n)) ;
    GRB_TRY (GrB_Matrix_assign_FP32 (S, A, NULL, 1, GrB_ALL, n, GrB_ALL, n,
        GrB_DESC_S)) ;
    // S = S | S': the undirected graph (a no-op for the symmetric SBM graph)
    GRB_TRY (GrB_Matrix_eWiseAdd_BinaryOp (S, NULL, NULL, GrB_FIRST_FP32, S, S,
        GrB_DESC_T1)) ;
    // S = offdiag (S): drop self-loops, then S = S + I
    GRB_TRY (GrB_Matrix_select_FP32 (S, NULL, NULL, GrB_OFFDIAG, S, 0, NULL)) ;
    GRB_TRY (GrB_Vector_new (&v, GrB_FP32, n)) ;
    GRB_TRY (GrB_Vector_assign_FP32 (v, NULL, NULL, 1, GrB_ALL, n, NULL)) ;
    // Id = diag (v), the identity (GrB_Matrix_diag creates the matrix)
    GRB_TRY (GrB_Matrix_diag (&Id, v, 0)) ;
    GRB_TRY (GrB_Matrix_eWiseAdd_BinaryOp (S, NULL, NULL, GrB_PLUS_FP32, S, Id,
        NULL)) ;

    // v = 1 ./ sqrt (sum (S, 2)): degrees of A+I, to the power -1/2
    GRB_TRY (GrB_Matrix_reduce_Monoid (v, NULL, NULL, GrB_PLUS_MONOID_FP32, S,
        NULL)) ;
    GRB_TRY (GrB_Vector_apply (v, NULL, NULL, GxB_SQRT_FP32, v, NULL)) ;
    GRB_TRY (GrB_Vector_apply (v, NULL, NULL, GrB_MINV_FP32, v, NULL)) ;
    GRB_TRY (GrB_free (&Id)) ;
    // D = diag (v)
    GRB_TRY (GrB_Matrix_diag (&D, v, 0)) ;

    // Ahat = D * S * D (row and column scaling)
    GRB_TRY (GrB_Matrix_new (Ahat, GrB_FP32, n, n)) ;
    GRB_TRY (GrB_mxm (*Ahat, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, D, S,
        NULL)) ;
    GRB_TRY (GrB_mxm (*Ahat, NULL, NULL, GrB_PLUS_TIMES_SEMIRING_FP32, *Ahat,
        D, NULL)) ;
    GRB_TRY (GrB_Matrix_wait (*Ahat, GrB_MATERIALIZE)) ;
    GrB_Matrix result = *Ahat ;
    *Ahat = NULL ;
    FREE_ALL ;
    *Ahat = result ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// region_labels: labels that follow the structure of a given graph
//------------------------------------------------------------------------------

// For a Matrix Market graph the labels are synthetic.  Random labels would
// make neighbours disagree, and no graph network could beat the features
// alone; real node-classification data has neighbours that mostly agree.  So
// a breadth-first search starts from C random seed nodes at once, and each
// node takes the label of the seed that reaches it first (Voronoi regions of
// the graph); nodes that no seed reaches keep their random label.

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    free (I) ; free (J) ; free (ptr) ; free (adj) ; free (queue) ;          \
    free (seen) ;                                                           \
}

static GrB_Info region_labels (int *label, GrB_Matrix S, int C, ex_rng *rng)
{
    GrB_Index *I = NULL, *J = NULL, *ptr = NULL, *adj = NULL, *queue = NULL ;
    bool *seen = NULL ;
    GrB_Index n, nvals ;
    GRB_TRY (GrB_Matrix_nrows (&n, S)) ;
    GRB_TRY (GrB_Matrix_nvals (&nvals, S)) ;
    I = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    J = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    ptr = calloc (n + 1, sizeof (GrB_Index)) ;
    adj = malloc ((nvals + 1) * sizeof (GrB_Index)) ;
    queue = malloc (n * sizeof (GrB_Index)) ;
    seen = calloc (n, sizeof (bool)) ;
    EX_TRY (I && J && ptr && adj && queue && seen, "out of memory") ;
    // (I,J) = the pattern of S
    GrB_Index ne = nvals ;
    GRB_TRY (GrB_Matrix_extractTuples_FP32 (I, J, NULL, &ne, S)) ;

    // adjacency lists: adj [ptr [i] ... ptr [i+1]-1] = neighbours of i
    for (GrB_Index k = 0 ; k < ne ; k++) ptr [I [k] + 1]++ ;
    for (GrB_Index i = 0 ; i < n ; i++) ptr [i + 1] += ptr [i] ;
    for (GrB_Index k = 0 ; k < ne ; k++) adj [ptr [I [k]]++] = J [k] ;
    for (GrB_Index i = n ; i > 0 ; i--) ptr [i] = ptr [i - 1] ;
    ptr [0] = 0 ;

    // multi-source breadth-first search from C distinct random seeds
    GrB_Index head = 0, tail = 0 ;
    for (int c = 0 ; c < C && (GrB_Index) c < n ; c++)
    {
        GrB_Index s ;
        do { s = ex_rng_below (rng, n) ; } while (seen [s]) ;
        seen [s] = true ;
        label [s] = c ;
        queue [tail++] = s ;
    }
    while (head < tail)
    {
        GrB_Index i = queue [head++] ;
        for (GrB_Index p = ptr [i] ; p < ptr [i + 1] ; p++)
        {
            GrB_Index j = adj [p] ;
            if (seen [j]) continue ;
            seen [j] = true ;
            label [j] = label [i] ;
            queue [tail++] = j ;
        }
    }
    FREE_ALL ;
    return (GrB_SUCCESS) ;
}

//------------------------------------------------------------------------------
// small dense helpers
//------------------------------------------------------------------------------

// a fresh malloc'd copy of X (k floats), or NULL
static float *copy_floats (const float *X, size_t k)
{
    float *Y = malloc (k * sizeof (float)) ;
    if (Y != NULL) memcpy (Y, X, k * sizeof (float)) ;
    return (Y) ;
}

// Glorot-uniform initial weights: W ~ U(-s,s), s = sqrt (6 / (fan_in+fan_out))
static void glorot (float *W, int fan_in, int fan_out, ex_rng *rng)
{
    double s = sqrt (6.0 / (fan_in + fan_out)) ;
    for (int64_t k = 0 ; k < (int64_t) fan_in * fan_out ; k++)
    {
        W [k] = (float) (s * (2 * ex_rng_uniform (rng) - 1)) ;
    }
}

// one optimizer step on W (k weights) with gradient G: Adam (m, v moments,
// step t >= 1) or plain SGD
static void optimizer_step (float *W, const float *G, float *m, float *v,
    int64_t k, int t, const gcn_opts *o)
{
    if (o->sgd)
    {
        for (int64_t p = 0 ; p < k ; p++) W [p] -= (float) o->lr * G [p] ;
        return ;
    }
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8 ;
    double c1 = 1 - pow (b1, t), c2 = 1 - pow (b2, t) ;
    for (int64_t p = 0 ; p < k ; p++)
    {
        m [p] = (float) (b1 * m [p] + (1 - b1) * G [p]) ;
        v [p] = (float) (b2 * v [p] + (1 - b2) * (double) G [p] * G [p]) ;
        W [p] -= (float) (o->lr * (m [p] / c1) / (sqrt (v [p] / c2) + eps)) ;
    }
}

//------------------------------------------------------------------------------
// main
//------------------------------------------------------------------------------

#undef  FREE_ALL
#define FREE_ALL                                                            \
{                                                                           \
    GrB_free (&A) ; GrB_free (&Ahat) ; GrB_free (&H0) ; GrB_free (&W0m) ;   \
    GrB_free (&W1m) ; GrB_free (&XW0) ; GrB_free (&P1) ; GrB_free (&H1) ;   \
    GrB_free (&XW1) ; GrB_free (&Z) ; GrB_free (&GZ) ; GrB_free (&G1) ;     \
    GrB_free (&dW1) ; GrB_free (&GH1) ; GrB_free (&R1) ; GrB_free (&GP1) ;  \
    GrB_free (&G0) ; GrB_free (&dW0) ;                                      \
    free (label) ; free (train) ; free (Hx) ; free (mu) ; free (W0) ;       \
    free (W1) ; free (m0) ; free (v0) ; free (m1) ; free (v1) ; free (Zx) ; \
    free (GZx) ; free (dW0x) ; free (dW1x) ; free (Wc) ; free (loss) ;      \
    free (ref) ; if (fsave != NULL) fclose (fsave) ;                        \
}

static void usage (void)
{
    fprintf (stderr, "usage: gcn [--nodes N] [--classes C] [--features F] "
        "[--hidden H] [--degree D] [--homophily P] [--signal S] "
        "[--train-frac T] [--epochs E] [--lr L] [--sgd] [--seed N] "
        "[--min-test-acc A] [--save FILE | --compare FILE] "
        "[--rmat S | graph.mtx[.gz]]\n") ;
}

int main (int argc, char **argv)
{
    GrB_Matrix A = NULL, Ahat = NULL, H0 = NULL, W0m = NULL, W1m = NULL,
        XW0 = NULL, P1 = NULL, H1 = NULL, XW1 = NULL, Z = NULL, GZ = NULL,
        G1 = NULL, dW1 = NULL, GH1 = NULL, R1 = NULL, GP1 = NULL, G0 = NULL,
        dW0 = NULL ;
    int *label = NULL ;
    bool *train = NULL ;
    float *Hx = NULL, *mu = NULL, *W0 = NULL, *W1 = NULL, *m0 = NULL,
        *v0 = NULL, *m1 = NULL, *v1 = NULL, *Zx = NULL, *GZx = NULL,
        *dW0x = NULL, *dW1x = NULL, *Wc = NULL ;
    double *loss = NULL, *ref = NULL ;
    FILE *fsave = NULL ;

    //--------------------------------------------------------------------------
    // options
    //--------------------------------------------------------------------------

    gcn_opts o = { .nodes = 100000, .classes = 16, .features = 128,
        .hidden = 64, .degree = 16, .epochs = 30, .homophily = 0.6,
        .signal = 0.1, .train_frac = 0.1, .lr = 0.02, .sgd = false,
        .seed = 7 } ;
    double min_test_acc = -1 ;
    const char *file = NULL ;
    int rmat = 0 ;              // --rmat S: R-MAT of 2^S vertices
    ex_check_opts check = { NULL, NULL } ;
    for (int k = 1 ; k < argc ; )
    {
        if (ex_parse_check_arg (&check, argc, argv, &k)) continue ;
        const char *a = argv [k], *v = (k + 1 < argc) ? argv [k+1] : NULL ;
        if (!strcmp (a, "--sgd")) { o.sgd = true ; k++ ; continue ; }
        if (a [0] != '-' && file == NULL) { file = a ; k++ ; continue ; }
        if (v == NULL) { usage () ; return (2) ; }
        if (!strcmp (a, "--nodes")) o.nodes = atoll (v) ;
        else if (!strcmp (a, "--classes")) o.classes = atoi (v) ;
        else if (!strcmp (a, "--features")) o.features = atoi (v) ;
        else if (!strcmp (a, "--hidden")) o.hidden = atoi (v) ;
        else if (!strcmp (a, "--degree")) o.degree = atoi (v) ;
        else if (!strcmp (a, "--epochs")) o.epochs = atoi (v) ;
        else if (!strcmp (a, "--homophily")) o.homophily = atof (v) ;
        else if (!strcmp (a, "--signal")) o.signal = atof (v) ;
        else if (!strcmp (a, "--train-frac")) o.train_frac = atof (v) ;
        else if (!strcmp (a, "--lr")) o.lr = atof (v) ;
        else if (!strcmp (a, "--seed")) o.seed = strtoull (v, NULL, 0) ;
        else if (!strcmp (a, "--min-test-acc")) min_test_acc = atof (v) ;
        else if (!strcmp (a, "--rmat")) rmat = atoi (v) ;
        else { usage () ; return (2) ; }
        k += 2 ;
    }
    if (o.nodes < 2 || o.classes < 2 || o.features < 1 || o.hidden < 1
        || o.degree < 1 || o.epochs < 1 || o.train_frac <= 0
        || o.train_frac >= 1 || rmat < 0 || rmat > 26 || (rmat > 0 && file != NULL))
    {
        usage () ;
        return (2) ;
    }

    GRB_TRY (GrB_init (GrB_NONBLOCKING)) ;
    int nthreads = 0 ;
    GRB_TRY (GxB_Global_Option_get (GxB_GLOBAL_NTHREADS, &nthreads)) ;
    ex_rng rng ;
    ex_rng_seed (&rng, o.seed) ;
    const int C = o.classes, F = o.features, Hd = o.hidden ;

    //--------------------------------------------------------------------------
    // graph and labels
    //--------------------------------------------------------------------------

    double t0 = ex_wtime () ;
    char rmat_name [32] ;
    if (rmat > 0)
    {
        // (a graph like a file's from here on: symmetrized, region labels)
        snprintf (rmat_name, sizeof (rmat_name), "R-MAT scale %d", rmat) ;
        GRB_TRY (ex_rmat (&A, rmat, 16, o.seed)) ;
        file = rmat_name ;
        o.nodes = (int64_t) 1 << rmat ;
    }
    else if (file != NULL)
    {
        GRB_TRY (ex_read_mm (&A, file)) ;
        GrB_Index nr, nc ;
        GRB_TRY (GrB_Matrix_nrows (&nr, A)) ;
        GRB_TRY (GrB_Matrix_ncols (&nc, A)) ;
        EX_TRY (nr == nc && nr >= 2, "gcn: %s: the graph must be square", file) ;
        o.nodes = (int64_t) nr ;
    }
    const int64_t n = o.nodes ;
    label = malloc (n * sizeof (int)) ;
    train = malloc (n * sizeof (bool)) ;
    EX_TRY (label != NULL && train != NULL, "out of memory") ;
    int64_t ntrain = 0 ;
    for (int64_t i = 0 ; i < n ; i++)
    {
        label [i] = (int) ex_rng_below (&rng, C) ;
        train [i] = (ex_rng_uniform (&rng) < o.train_frac) ;
        ntrain += train [i] ;
    }
    EX_TRY (ntrain > 0 && ntrain < n, "gcn: no training or no test nodes") ;
    if (file == NULL)
    {
        GRB_TRY (sbm_graph (&A, label, &o, &rng)) ;
    }
    GRB_TRY (normalize (&Ahat, A)) ;
    GRB_TRY (GrB_free (&A)) ;
    if (file != NULL)
    {
        // labels that follow the graph (see region_labels)
        GRB_TRY (region_labels (label, Ahat, C, &rng)) ;
    }
    GrB_Index nnz ;
    GRB_TRY (GrB_Matrix_nvals (&nnz, Ahat)) ;

    //--------------------------------------------------------------------------
    // features: H0(i,:) = signal * mu(label(i),:) + N(0,1) noise
    //--------------------------------------------------------------------------

    mu = malloc ((size_t) C * F * sizeof (float)) ;
    Hx = malloc ((size_t) n * F * sizeof (float)) ;
    EX_TRY (mu != NULL && Hx != NULL, "out of memory") ;
    for (int64_t k = 0 ; k < (int64_t) C * F ; k++)
    {
        mu [k] = (float) ex_rng_normal (&rng) ;
    }
    for (int64_t i = 0 ; i < n ; i++)
    {
        const float *m = mu + (int64_t) label [i] * F ;
        for (int f = 0 ; f < F ; f++)
        {
            Hx [i*F + f] = (float) (o.signal * m [f] + ex_rng_normal (&rng)) ;
        }
    }
    GRB_TRY (ex_dense_pack (&H0, &Hx, n, F)) ;
    double t_setup = ex_wtime () - t0 ;
    if (file != NULL) printf ("gcn: graph %s", file) ;
    else printf ("gcn: SBM graph (homophily %.2f)", o.homophily) ;
    printf (": %lld nodes, %llu entries in Ahat; %d classes, %d features, "
        "%d hidden; %lld training nodes; %s lr %g; %d threads (%.2f s setup)\n",
        (long long) n, (unsigned long long) nnz, C, F, Hd, (long long) ntrain,
        o.sgd ? "SGD" : "Adam", o.lr, nthreads, t_setup) ;

    //--------------------------------------------------------------------------
    // weights and optimizer state
    //--------------------------------------------------------------------------

    W0 = malloc ((size_t) F * Hd * sizeof (float)) ;
    W1 = malloc ((size_t) Hd * C * sizeof (float)) ;
    m0 = calloc ((size_t) F * Hd, sizeof (float)) ;
    v0 = calloc ((size_t) F * Hd, sizeof (float)) ;
    m1 = calloc ((size_t) Hd * C, sizeof (float)) ;
    v1 = calloc ((size_t) Hd * C, sizeof (float)) ;
    loss = calloc (o.epochs, sizeof (double)) ;
    EX_TRY (W0 && W1 && m0 && v0 && m1 && v1 && loss, "out of memory") ;
    glorot (W0, F, Hd, &rng) ;
    glorot (W1, Hd, C, &rng) ;

    GRB_TRY (GrB_Matrix_new (&XW0, GrB_FP32, n, Hd)) ;
    GRB_TRY (GrB_Matrix_new (&P1, GrB_FP32, n, Hd)) ;
    GRB_TRY (GrB_Matrix_new (&H1, GrB_FP32, n, Hd)) ;
    GRB_TRY (GrB_Matrix_new (&XW1, GrB_FP32, n, C)) ;
    GRB_TRY (GrB_Matrix_new (&Z, GrB_FP32, n, C)) ;
    GRB_TRY (GrB_Matrix_new (&G1, GrB_FP32, n, C)) ;
    GRB_TRY (GrB_Matrix_new (&dW1, GrB_FP32, Hd, C)) ;
    GRB_TRY (GrB_Matrix_new (&GH1, GrB_FP32, n, Hd)) ;
    GRB_TRY (GrB_Matrix_new (&R1, GrB_FP32, n, Hd)) ;
    GRB_TRY (GrB_Matrix_new (&GP1, GrB_FP32, n, Hd)) ;
    GRB_TRY (GrB_Matrix_new (&G0, GrB_FP32, n, Hd)) ;
    GRB_TRY (GrB_Matrix_new (&dW0, GrB_FP32, F, Hd)) ;
    const GrB_Semiring plus_times = GrB_PLUS_TIMES_SEMIRING_FP32 ;

    //--------------------------------------------------------------------------
    // training
    //--------------------------------------------------------------------------

    double train_acc = 0, test_acc = 0, t_epochs = 0, t_first = 0 ;
    for (int epoch = 1 ; epoch <= o.epochs ; epoch++)
    {
        double te = ex_wtime () ;

        //----------------------------------------------------------------------
        // forward
        //----------------------------------------------------------------------

        // W0m, W1m: the current weights as dense GrB_Matrix objects
        GRB_TRY (GrB_free (&W0m)) ;
        GRB_TRY (GrB_free (&W1m)) ;
        Wc = copy_floats (W0, (size_t) F * Hd) ;
        EX_TRY (Wc != NULL, "out of memory") ;
        GRB_TRY (ex_dense_pack (&W0m, &Wc, F, Hd)) ;
        Wc = copy_floats (W1, (size_t) Hd * C) ;
        EX_TRY (Wc != NULL, "out of memory") ;
        GRB_TRY (ex_dense_pack (&W1m, &Wc, Hd, C)) ;

        // XW0 = H0 * W0 (GEMM)
        GRB_TRY (GrB_mxm (XW0, NULL, NULL, plus_times, H0, W0m, NULL)) ;
        // P1 = Ahat * XW0 (SpMM)
        GRB_TRY (GrB_mxm (P1, NULL, NULL, plus_times, Ahat, XW0, NULL)) ;
        // H1 = max (P1, 0) (ReLU)
        GRB_TRY (GrB_Matrix_apply_BinaryOp2nd_FP32 (H1, NULL, NULL,
            GrB_MAX_FP32, P1, 0, NULL)) ;
        // XW1 = H1 * W1 (GEMM)
        GRB_TRY (GrB_mxm (XW1, NULL, NULL, plus_times, H1, W1m, NULL)) ;
        // Z = Ahat * XW1 (SpMM): the logits
        GRB_TRY (GrB_mxm (Z, NULL, NULL, plus_times, Ahat, XW1, NULL)) ;

        //----------------------------------------------------------------------
        // softmax cross-entropy, accuracy, and GZ = d loss / d Z
        //----------------------------------------------------------------------

        // loss = -(1/ntrain) sum_{i in train} log softmax (Z(i,:)) (label(i));
        // GZ(i,:) = (softmax (Z(i,:)) - onehot (label(i))) / ntrain on the
        // training rows, 0 elsewhere
        GRB_TRY (ex_dense_unpack (&Zx, Z)) ;
        GZx = malloc ((size_t) n * C * sizeof (float)) ;
        EX_TRY (GZx != NULL, "out of memory") ;
        double lsum = 0 ;
        int64_t train_ok = 0, test_ok = 0 ;
        for (int64_t i = 0 ; i < n ; i++)
        {
            const float *z = Zx + i * C ;
            float *g = GZx + i * C ;
            int best = 0 ;
            for (int c = 1 ; c < C ; c++) if (z [c] > z [best]) best = c ;
            bool hit = (best == label [i]) ;
            if (!train [i])
            {
                test_ok += hit ;
                for (int c = 0 ; c < C ; c++) g [c] = 0 ;
                continue ;
            }
            train_ok += hit ;
            double zmax = z [best], sum = 0 ;
            for (int c = 0 ; c < C ; c++) sum += exp ((double) z [c] - zmax) ;
            lsum += log (sum) - ((double) z [label [i]] - zmax) ;
            for (int c = 0 ; c < C ; c++)
            {
                double p = exp ((double) z [c] - zmax) / sum ;
                g [c] = (float) ((p - (c == label [i])) / ntrain) ;
            }
        }
        free (Zx) ; Zx = NULL ;
        loss [epoch - 1] = lsum / ntrain ;
        train_acc = (double) train_ok / ntrain ;
        test_acc = (double) test_ok / (n - ntrain) ;
        GRB_TRY (GrB_free (&GZ)) ;
        GRB_TRY (ex_dense_pack (&GZ, &GZx, n, C)) ;

        //----------------------------------------------------------------------
        // backward
        //----------------------------------------------------------------------

        // G1 = Ahat' * GZ (SpMM; Ahat' = Ahat, since Ahat is symmetric)
        GRB_TRY (GrB_mxm (G1, NULL, NULL, plus_times, Ahat, GZ, NULL)) ;
        // dW1 = H1' * G1 (GEMM, Hd-by-C)
        GRB_TRY (GrB_mxm (dW1, NULL, NULL, plus_times, H1, G1, GrB_DESC_T0)) ;
        // GH1 = G1 * W1' (GEMM, n-by-Hd)
        GRB_TRY (GrB_mxm (GH1, NULL, NULL, plus_times, G1, W1m, GrB_DESC_T1)) ;
        // R1 = (P1 > 0), as 1 or 0: the derivative of ReLU
        GRB_TRY (GrB_Matrix_apply_BinaryOp2nd_FP32 (R1, NULL, NULL,
            GxB_ISGT_FP32, P1, 0, NULL)) ;
        // GP1 = GH1 .* R1
        GRB_TRY (GrB_Matrix_eWiseMult_BinaryOp (GP1, NULL, NULL, GrB_TIMES_FP32,
            GH1, R1, NULL)) ;
        // G0 = Ahat' * GP1 (SpMM)
        GRB_TRY (GrB_mxm (G0, NULL, NULL, plus_times, Ahat, GP1, NULL)) ;
        // dW0 = H0' * G0 (GEMM, F-by-Hd)
        GRB_TRY (GrB_mxm (dW0, NULL, NULL, plus_times, H0, G0, GrB_DESC_T0)) ;

        //----------------------------------------------------------------------
        // optimizer step
        //----------------------------------------------------------------------

        GRB_TRY (ex_dense_unpack (&dW0x, dW0)) ;
        GRB_TRY (ex_dense_unpack (&dW1x, dW1)) ;
        optimizer_step (W0, dW0x, m0, v0, (int64_t) F * Hd, epoch, &o) ;
        optimizer_step (W1, dW1x, m1, v1, (int64_t) Hd * C, epoch, &o) ;
        free (dW0x) ; dW0x = NULL ;
        free (dW1x) ; dW1x = NULL ;

        te = ex_wtime () - te ;
        t_epochs += te ;
        if (epoch == 1) t_first = te ;
        printf ("epoch %3d  loss %.6f  train acc %.4f  test acc %.4f  "
            "%.3f s\n", epoch, loss [epoch - 1], train_acc, test_acc, te) ;
        fflush (stdout) ;
    }

    printf ("gcn: %d epochs, %.4f s per epoch (first %.4f s), %.3f s total; "
        "final train acc %.4f, test acc %.4f (chance %.4f)\n", o.epochs,
        t_epochs / o.epochs, t_first, t_epochs, train_acc, test_acc,
        1.0 / C) ;
    // per epoch after the first (which alone pays one-time costs)
    double per_step = (o.epochs > 1) ? (t_epochs - t_first) / (o.epochs - 1) : t_epochs ;
    printf ("summary: example=gcn step=epoch steps=%d per_step_s=%.6f "
        "first_s=%.6f total_s=%.4f\n", o.epochs, per_step, t_first, t_epochs) ;

    //--------------------------------------------------------------------------
    // check mode
    //--------------------------------------------------------------------------

    int status = 0 ;
    double acc [2] = { train_acc, test_acc } ;
    if (check.save != NULL)
    {
        fsave = ex_check_create (check.save) ;
        EX_TRY (fsave != NULL, "cannot create %s", check.save) ;
        EX_TRY (ex_check_write (fsave, "losses", loss, o.epochs) == 0
            && ex_check_write (fsave, "accuracy", acc, 2) == 0, "write failed");
        int rc = fclose (fsave) ;
        fsave = NULL ;
        EX_TRY (rc == 0, "write of %s failed", check.save) ;
        printf ("check: saved %d losses and the final accuracies to %s\n",
            o.epochs, check.save) ;
    }
    if (check.compare != NULL)
    {
        int64_t nref ;
        bool ok = (ex_check_read (check.compare, "losses", &ref, &nref) == 0) ;
        ok = ok && ex_check_compare ("losses", ref, nref, loss, o.epochs,
            GCN_LOSS_RTOL, false) ;
        free (ref) ; ref = NULL ;
        bool ok2 = (ex_check_read (check.compare, "accuracy", &ref, &nref) == 0);
        // accuracies lie in [0,1]: normwise relative to max = absolute-ish
        ok2 = ok2 && ex_check_compare ("accuracy", ref, nref, acc, 2,
            GCN_ACC_TOL, true) ;
        ok = ok && ok2 ;
        if (ok) printf ("check: PASS\n") ;
        else printf ("check: FAIL (results differ from %s)\n", check.compare) ;
        status = ok ? 0 : 1 ;
    }
    if (min_test_acc >= 0 && test_acc < min_test_acc)
    {
        printf ("gcn: FAIL: final test accuracy %.4f < %.4f\n", test_acc,
            min_test_acc) ;
        status = 1 ;
    }

    FREE_ALL ;
    GrB_finalize () ;
    return (status) ;
}
