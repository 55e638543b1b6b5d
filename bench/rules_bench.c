//------------------------------------------------------------------------------
// bench/rules_bench.c: the constants of the static rules, measured
//------------------------------------------------------------------------------

// The static rules of backend/cuda/choose.c (what runs when the chooser does
// not measure: GRBGPU_TUNE=0, or too little work) rest on constants measured
// once on one GPU.  This program times the families each rule decides
// between, forced one at a time (GRBGPU_KERNEL through the settings; the
// chooser off), through the CUDA backend on cached FP32 operands (the
// product's device time, grbgpu_cuda_last_product_ms: median of reps after
// warm-up), across a sweep of synthetic matrices, and prints for each rule
// the sweep, the measured crossover, and the constant in the code:
//   hot_min_nnz    GG_HOT_MIN_NNZ: the staged SpMV (band / hot, the faster)
//                  against cuSPARSE on power-law matrices (rows of power-law
//                  length, columns drawn with a power-law bias: hot columns),
//                  by entries
//   own_spmv_nnz   GG_OWN_SPMV_MAX_NNZ: the own row-split SpMV against
//                  cuSPARSE on uniform matrices of 8 entries per row, by
//                  entries
//   own_spmv_rows  GG_OWN_SPMV_MIN_ROWS: the same at 100K entries, by rows
//   own_spmm_n     the n <= 32 of spmm_use_vendor: the own SpMM against
//                  cuSPARSE on a uniform matrix (no skew), by n
//   skew_ratio     the 4.0 (and 64) of the skew rule: the own SpMM against
//                  cuSPARSE at n = 16 on uniform rows of 8 plus 0.5 % long
//                  rows of ratio x 8 entries, by ratio
// A crossover is the first sweep point from which the other side wins at
// every later point ("none": it never changed; "unstable": it changed back).
// Every family's Y is checked against cuSPARSE's (relative 1e-4; the terms
// are positive).  No GPU: exit 77.
//
//   rules_bench [--reps 7] [--quick]      (a GPU; not part of make check)

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/cuda/cuda_internal.h"
#include "backend/cuda/device.h"

// the family that ran this thread's last SpMM (backend/cuda/spmm.c)
const char *gg_spmm_last_family (void) ;

static int reps = 7 ;
static int wrong = 0 ;

static uint64_t rs = 0x5851f42d4c957f2dull ;
static uint64_t rnd (void)
{
    uint64_t z = (rs += 0x9e3779b97f4a7c15ull) ;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull ;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull ;
    return z ^ (z >> 31) ;
}
static double unif (void) { return (double) (rnd () >> 11) * (1.0 / 9007199254740992.0) ; }

typedef struct
{
    int64_t m, k, nnz, max_row ;
    int32_t *p, *i ;
    float *x ;
}
mat ;

static int cmp32 (const void *a, const void *b)
{
    int32_t x = *(const int32_t *) a, y = *(const int32_t *) b ;
    return (x > y) - (x < y) ;
}

// A CSR with len (r) drawn entries in row r, column col () each, duplicates
// dropped, values in [0.5, 1.5).
static mat make (int64_t m, int64_t k, int64_t (*len) (int64_t r, void *),
    int64_t (*col) (void *), void *arg)
{
    mat A = { .m = m, .k = k } ;
    A.p = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    size_t cap = (size_t) m * 8 + 1024 ;
    A.i = malloc (cap * sizeof (int32_t)) ;
    A.p [0] = 0 ;
    int64_t nz = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        int64_t L = len (r, arg) ;
        if (L > k) L = k ;
        if ((size_t) (nz + L) > cap)
        {
            cap = 2 * (size_t) (nz + L) ;
            A.i = realloc (A.i, cap * sizeof (int32_t)) ;
        }
        for (int64_t q = 0 ; q < L ; q++) A.i [nz + q] = (int32_t) col (arg) ;
        qsort (A.i + nz, (size_t) L, sizeof (int32_t), cmp32) ;
        int64_t w = 0 ;
        for (int64_t q = 0 ; q < L ; q++)
            if (w == 0 || A.i [nz + q] != A.i [nz + w - 1]) A.i [nz + w++] = A.i [nz + q] ;
        nz += w ;
        if (w > A.max_row) A.max_row = w ;
        A.p [r+1] = (int32_t) nz ;
    }
    A.nnz = nz ;
    A.x = malloc ((size_t) (nz + 1) * sizeof (float)) ;
    for (int64_t q = 0 ; q < nz ; q++) A.x [q] = 0.5f + (float) unif () ;
    return A ;
}

static void unmake (mat *A) { free (A->p) ; free (A->i) ; free (A->x) ; }

// uniform: `mean` entries per row, columns uniform
typedef struct { int64_t k ; double mean ; double ratio ; double frac ; } gen_arg ;
static int64_t len_uniform (int64_t r, void *a) { (void) r ; return (int64_t) ((gen_arg *) a)->mean ; }
static int64_t col_uniform (void *a) { return (int64_t) (rnd () % (uint64_t) ((gen_arg *) a)->k) ; }
// skewed rows: a fraction frac of rows has ratio x mean entries
static int64_t len_skewed (int64_t r, void *a)
{
    gen_arg *g = (gen_arg *) a ;
    (void) r ;
    return (unif () < g->frac) ? (int64_t) (g->ratio * g->mean) : (int64_t) g->mean ;
}
// power law: row lengths mean/2 * u^-1/2 (mean `mean`, a long tail), columns
// k * u^8 (hot columns: 56 % of the draws in the first 1 % of the columns,
// 42 % in the first 0.1 %; R-MAT is more skewed still)
static int64_t len_power (int64_t r, void *a)
{
    (void) r ;
    double u = unif () ;
    if (u < 1e-9) u = 1e-9 ;
    return (int64_t) (0.5 * ((gen_arg *) a)->mean / sqrt (u)) + 1 ;
}
static int64_t col_power (void *a)
{
    double u = unif (), u2 = u * u, u4 = u2 * u2 ;
    return (int64_t) ((double) ((gen_arg *) a)->k * u4 * u4) ;
}

//------------------------------------------------------------------------------
// one timed product through the backend
//------------------------------------------------------------------------------

static uint64_t handle_seq = 1 ;
static gg_cache_entry *entry (void)
{
    gg_cache_key key = { .handle = (const void *) (uintptr_t) (0x10000 * handle_seq++),
        .version = 1, .form = 1 } ;
    return grbgpu_cache_insert (&key, malloc (8), 8, free) ;
}

typedef struct
{
    const mat *A ;
    gg_csr S ;
    gg_dense X ;
    float *Xv ;
    int64_t n ;
    float *Y, *Yref ;
    gg_cache_entry *eS, *eX ;
}
problem ;

static void problem_new (problem *P, const mat *A, int64_t n)
{
    memset (P, 0, sizeof (*P)) ;
    P->A = A ; P->n = n ;
    P->eS = entry () ; P->eX = entry () ;
    int64_t nonempty = 0 ;
    for (int64_t r = 0 ; r < A->m ; r++) nonempty += (A->p [r+1] > A->p [r]) ;
    gg_csr S = { .nrows = A->m, .ncols = A->k, .nnz = A->nnz, .p32 = A->p, .i32 = A->i,
        .x = A->x, .max_row = A->max_row, .no_empty_rows = (nonempty == A->m),
        .nonempty = nonempty, .cache = P->eS } ;
    P->S = S ;
    P->Xv = malloc ((size_t) (A->k * n) * sizeof (float)) ;
    for (int64_t q = 0 ; q < A->k * n ; q++) P->Xv [q] = 0.5f + (float) unif () ;
    gg_dense X = { .nrows = A->k, .ncols = n, .x = P->Xv, .cache = P->eX } ;
    P->X = X ;
    P->Y = malloc ((size_t) (A->m * n) * sizeof (float)) ;
    P->Yref = malloc ((size_t) (A->m * n) * sizeof (float)) ;
}

static void problem_free (problem *P)
{
    grbgpu_cache_release (P->eS) ;
    grbgpu_cache_release (P->eX) ;
    grbgpu_cache_clear () ;
    free (P->Xv) ; free (P->Y) ; free (P->Yref) ;
}

static int cmpd (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

// The device time (ms) of the product with this kernel forced ("cusparse",
// "band", "hot", or an own variant), or NAN when it did not run.  The first
// kernel timed on a problem gives the reference Y.
static double time_kernel (problem *P, const char *kernel, bool reference)
{
    const gg_backend *b = grbgpu_cuda_backend () ;
    gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, GG_FP32 } ;
    snprintf (grbgpu_settings.kernel, sizeof (grbgpu_settings.kernel), "%s", kernel) ;
    float *Y = reference ? P->Yref : P->Y ;
    const size_t yb = (size_t) (P->A->m * P->n) * sizeof (float) ;
    memset (Y, 0, yb) ;
    int rc = b->spmm (&sr, &P->S, &P->X, Y) ;
    double ms = NAN ;
    // (a forced staged kernel whose form was not made gives way silently:
    // only the family asked for counts)
    const char *fam = gg_spmm_last_family () ;
    const bool own = strcmp (kernel, "cusparse") && strcmp (kernel, "band") && strcmp (kernel, "hot") ;
    if (rc == GG_OK && strcmp (fam, own ? "own" : kernel) != 0)
    {
        printf ("  (%s asked, %s ran: not counted)\n", kernel, fam) ;
        rc = GG_ERR_UNSUPPORTED ;
    }
    if (rc == GG_OK)
    {
        if (!reference)
        {
            double err = 0 ;
            for (size_t q = 0 ; q < yb / sizeof (float) ; q++)
            {
                double d = fabs ((double) Y [q] - (double) P->Yref [q]) / (fabs ((double) P->Yref [q]) + 1e-30) ;
                if (d > err && P->Yref [q] != 0) err = d ;
            }
            if (err > 1e-4) { wrong++ ; printf ("  WRONG: %s differs from cusparse by %.2e\n", kernel, err) ; }
        }
        double *t = malloc ((size_t) reps * sizeof (double)) ;
        grbgpu_cuda_timing (true) ;
        for (int r = -2 ; r < reps && rc == GG_OK ; r++)
        {
            rc = b->spmm (&sr, &P->S, &P->X, P->Y) ;
            if (r >= 0) t [r] = grbgpu_cuda_last_product_ms () ;
        }
        grbgpu_cuda_timing (false) ;
        if (rc == GG_OK) { qsort (t, (size_t) reps, sizeof (double), cmpd) ; ms = t [reps / 2] ; }
        free (t) ;
    }
    grbgpu_settings.kernel [0] = '\0' ;
    return ms ;
}

// the own kernel the chooser takes for this problem (kernels/spmm)
static const char *own_name (const problem *P)
{
    return gg_cuda_spmm_choose_plan (P->A->m, P->n, P->A->nnz, P->A->max_row) ;
}

//------------------------------------------------------------------------------
// crossovers
//------------------------------------------------------------------------------

// wins [j]: the "other" side wins at point j.  The first index from which it
// wins at every later point; -1 none; -2 it changed back.
static int crossover (const bool *wins, int npts)
{
    int first = -1 ;
    for (int j = 0 ; j < npts ; j++)
    {
        if (wins [j] && first < 0) first = j ;
        if (!wins [j] && first >= 0) return -2 ;
    }
    return first ;
}

static void say_crossover (const char *rule, const char *constant, double in_code,
    const char *what, const double *x, const bool *wins, int npts, const char *who)
{
    int c = crossover (wins, npts) ;
    char measured [128] ;
    if (c == -1) snprintf (measured, sizeof measured, "none in the sweep (%s never wins)", who) ;
    else if (c == -2) snprintf (measured, sizeof measured, "unstable (the winner changes back)") ;
    else if (c == 0) snprintf (measured, sizeof measured, "at or below %s = %.4g (%s wins everywhere)", what, x [0], who) ;
    else snprintf (measured, sizeof measured, "%s between %.4g and %.4g (%s wins from there)", what, x [c-1], x [c], who) ;
    printf ("rule %-14s %s = %.6g in the code; measured crossover: %s\n", rule, constant, in_code, measured) ;
    fflush (stdout) ;
}

int main (int argc, char **argv)
{
    bool quick = false ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (!strcmp (argv [a], "--reps") && a + 1 < argc) reps = atoi (argv [++a]) ;
        else if (!strcmp (argv [a], "--quick")) quick = true ;
        else { fprintf (stderr, "usage: %s [--reps 7] [--quick]\n", argv [0]) ; return 2 ; }
    }
    if (reps < 1) reps = 1 ;
    grbgpu_settings_init () ;
    GrB_init (GrB_NONBLOCKING) ;
    if (grbgpu_cuda_backend () == NULL) { printf ("rules_bench: no usable CUDA device\n") ; return 77 ; }
    grbgpu_settings.tune = false ;
    printf ("# FP32 PLUS_TIMES, device time of the product, median of %d; x = cusparse ms / ms\n", reps) ;

    // hot_min_nnz: staged SpMV against cuSPARSE on power-law matrices
    {
        const int64_t sizes [] = { 1 << 19, 1 << 20, 1 << 21, 1 << 22, 1 << 23, 1 << 24, 1 << 25 } ;
        const int np = quick ? 5 : 7 ;
        double x [7] ; bool wins [7] ;
        for (int j = 0 ; j < np ; j++)
        {
            gen_arg g = { .mean = 16 } ;
            int64_t m = sizes [j] / 16 ;
            g.k = m ;
            mat A = make (m, m, len_power, col_power, &g) ;
            problem P ;
            problem_new (&P, &A, 1) ;
            double tv = time_kernel (&P, "cusparse", true) ;
            double tb = time_kernel (&P, "band", false) ;
            double th = time_kernel (&P, "hot", false) ;
            double staged = fmin (isnan (tb) ? INFINITY : tb, isnan (th) ? INFINITY : th) ;
            x [j] = (double) A.nnz ;
            wins [j] = staged < tv ;
            printf ("hot_min_nnz   %8lld rows %9lld entries (longest row %lld): cusparse %.4f band %.4f"
                " (x%.2f) hot %.4f (x%.2f) ms\n", (long long) m, (long long) A.nnz,
                (long long) A.max_row, tv, tb, tv / tb, th, tv / th) ;
            problem_free (&P) ;
            unmake (&A) ;
        }
        say_crossover ("hot_min_nnz", "GG_HOT_MIN_NNZ", (double) GG_HOT_MIN_NNZ, "entries", x, wins, np, "band/hot") ;
    }

    // own_spmv_nnz: own row-split SpMV against cuSPARSE, 8 entries per row
    {
        const int64_t sizes [] = { 16000, 40000, 100000, 200000, 300000, 500000, 1000000, 2000000 } ;
        const int np = 8 ;
        double x [8] ; bool wins [8] ;
        for (int j = 0 ; j < np ; j++)
        {
            gen_arg g = { .mean = 8 } ;
            int64_t m = sizes [j] / 8 ;
            g.k = m ;
            mat A = make (m, m, len_uniform, col_uniform, &g) ;
            problem P ;
            problem_new (&P, &A, 1) ;
            const char *own = own_name (&P) ;
            double tv = time_kernel (&P, "cusparse", true) ;
            double to = time_kernel (&P, own, false) ;
            x [j] = (double) A.nnz ;
            wins [j] = tv < to ;
            printf ("own_spmv_nnz  %8lld rows %9lld entries: cusparse %.4f %s %.4f ms (x%.2f)\n",
                (long long) m, (long long) A.nnz, tv, own, to, tv / to) ;
            problem_free (&P) ;
            unmake (&A) ;
        }
        say_crossover ("own_spmv_nnz", "GG_OWN_SPMV_MAX_NNZ", (double) GG_OWN_SPMV_MAX_NNZ, "entries", x, wins, np, "cusparse") ;
    }

    // own_spmv_rows: the same at 100K entries, by rows (cuSPARSE wins below)
    {
        const int64_t rows [] = { 16000, 8000, 4000, 2000, 1000, 500, 250 } ;
        const int np = 7 ;
        double x [7] ; bool wins [7] ;
        for (int j = 0 ; j < np ; j++)
        {
            gen_arg g = { .mean = 100000.0 / (double) rows [j] } ;
            g.k = 20000 ;
            mat A = make (rows [j], g.k, len_uniform, col_uniform, &g) ;
            problem P ;
            problem_new (&P, &A, 1) ;
            const char *own = own_name (&P) ;
            double tv = time_kernel (&P, "cusparse", true) ;
            double to = time_kernel (&P, own, false) ;
            x [j] = (double) rows [j] ;
            wins [j] = tv < to ;
            printf ("own_spmv_rows %8lld rows %9lld entries: cusparse %.4f %s %.4f ms (x%.2f)\n",
                (long long) rows [j], (long long) A.nnz, tv, own, to, tv / to) ;
            problem_free (&P) ;
            unmake (&A) ;
        }
        say_crossover ("own_spmv_rows", "GG_OWN_SPMV_MIN_ROWS", (double) GG_OWN_SPMV_MIN_ROWS, "rows (falling)", x, wins, np, "cusparse") ;
    }

    // own_spmm_n: own SpMM against cuSPARSE by n, no skew
    {
        const int64_t ns [] = { 2, 4, 8, 16, 32, 64, 128 } ;
        const int np = quick ? 6 : 7 ;
        double x [7] ; bool wins [7] ;
        gen_arg g = { .mean = 8 } ;
        int64_t m = quick ? 100000 : 200000 ;
        g.k = m ;
        mat A = make (m, m, len_uniform, col_uniform, &g) ;
        for (int j = 0 ; j < np ; j++)
        {
            problem P ;
            problem_new (&P, &A, ns [j]) ;
            const char *own = own_name (&P) ;
            double tv = time_kernel (&P, "cusparse", true) ;
            double to = time_kernel (&P, own, false) ;
            x [j] = (double) ns [j] ;
            wins [j] = tv < to ;
            printf ("own_spmm_n    %8lld rows %9lld entries n=%-4lld: cusparse %.4f %s %.4f ms (x%.2f)\n",
                (long long) m, (long long) A.nnz, (long long) ns [j], tv, own, to, tv / to) ;
            problem_free (&P) ;
        }
        unmake (&A) ;
        say_crossover ("own_spmm_n", "n <= (spmm_use_vendor)", 32, "n", x, wins, np, "cusparse") ;
    }

    // skew_ratio: own SpMM against cuSPARSE at n = 16 by the long rows' ratio
    {
        const double ratios [] = { 2, 4, 8, 16, 32, 64, 128 } ;
        const int np = 7 ;
        double x [7] ; bool wins [7] ;
        for (int j = 0 ; j < np ; j++)
        {
            gen_arg g = { .mean = 8, .ratio = ratios [j], .frac = 0.005 } ;
            int64_t m = quick ? 100000 : 200000 ;
            g.k = m ;
            mat A = make (m, m, len_skewed, col_uniform, &g) ;
            problem P ;
            problem_new (&P, &A, 16) ;
            // the own kernel for unskewed rows (what the rule keeps below
            // its threshold) and the one the chooser takes for these rows
            const char *flat = gg_cuda_spmm_choose_plan (A.m, 16, A.nnz, 8) ;
            const char *own = own_name (&P) ;
            double tv = time_kernel (&P, "cusparse", true) ;
            double tf = time_kernel (&P, flat, false) ;
            double to = (strcmp (own, flat) == 0) ? tf : time_kernel (&P, own, false) ;
            x [j] = ratios [j] ;
            wins [j] = tv < fmin (tf, to) ;
            printf ("skew_ratio    ratio %5.0f (longest row %4lld, mean %.2f) n=16: cusparse %.4f %s %.4f"
                " %s %.4f ms\n", ratios [j], (long long) A.max_row, (double) A.nnz / (double) A.m,
                tv, flat, tf, own, to) ;
            problem_free (&P) ;
            unmake (&A) ;
        }
        say_crossover ("skew_ratio", "max_row / mean >", 4.0, "ratio", x, wins, np, "cusparse") ;
    }
    printf ("# %s\n", wrong ? "FAILED: a family differed from cusparse" : "all results checked against cusparse") ;
    GrB_finalize () ;
    return wrong ? 1 : 0 ;
}
