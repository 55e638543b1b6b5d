//------------------------------------------------------------------------------
// bench/nm_bench.c: N:M detection time against one conversion of the operand
//------------------------------------------------------------------------------

// Issue 16 asks that detecting N:M cost under 1 % of one conversion on a
// 64M-entry matrix that is not N:M.  Each case builds a by-row sparse
// matrix as GraphBLAS holds it (a gg_view: 64-bit p and i, FP32 values),
// then times, medians of REPS runs:
//   copy       memcpy of its index and value arrays (the floor of any pass)
//   convert    gg_csr_from_view, direct (the CSR the detector reads)
//   transpose  gg_csr_from_view of its transpose (what a dense x sparse call
//              converts: W' from W)
//   detect     gg_nm_detect on the converted CSR (element-wise, GG_NM_ROWS)
//   det W      the same question asked of the transposed CSR (GG_NM_COLS:
//              groups down the columns of W, the paper's orientation)
//   pack       gg_nm_pack of an N:M case into its packed form
//   layout     gg_nm_layout_build of that form (the kernel's layout, X k-major)
// Cases: a random matrix at density 1/4 (64M entries, not N:M: rejected
// after a few rows), the same size 2:4 except for one extra entry in the very
// last group and one missing in the first (not N:M, but only the last group
// says so: the full pass, the worst case), and
// exact N:M matrices of 4096 x 4096 and 8192 x 8192.
// Usage: nm_bench [scale]  (scale 1: as above; 0.25: a quick run)

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "formats/convert.h"
#include "formats/nm.h"
#include "formats/nm_layout.h"

#define REPS 5

static double now (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

static int cmp_double (const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b ;
    return (x > y) - (x < y) ;
}

static double median (double *t, int n)
{
    qsort (t, (size_t) n, sizeof (double), cmp_double) ;
    return t [n / 2] ;
}

static uint64_t rng = 88172645463325252ULL ;
static uint64_t rnd (void)
{
    rng ^= rng << 13 ; rng ^= rng >> 7 ; rng ^= rng << 17 ;
    return rng ;
}

// A by-row matrix (rows x k) in GraphBLAS's sparse storage.
typedef struct
{
    gg_view v ;
    int64_t *p, *i ;
    float *x ;
}
host_matrix ;

static void die (const char *what)
{
    fprintf (stderr, "nm_bench: %s\n", what) ;
    exit (1) ;
}

static host_matrix matrix_alloc (int64_t rows, int64_t k, int64_t maxnnz)
{
    host_matrix A ;
    memset (&A, 0, sizeof (A)) ;
    A.p = malloc ((size_t) (rows + 1) * sizeof (int64_t)) ;
    A.i = malloc ((size_t) maxnnz * sizeof (int64_t)) ;
    A.x = malloc ((size_t) maxnnz * sizeof (float)) ;
    if (A.p == NULL || A.i == NULL || A.x == NULL) die ("out of memory") ;
    A.v.storage = GG_STORE_SPARSE ;
    A.v.by_col = false ;
    A.v.vlen = k ;
    A.v.vdim = rows ;
    A.v.nvec = rows ;
    A.v.p = A.p ;
    A.v.i = A.i ;
    A.v.x = A.x ;
    A.v.src = GG_SRC_FP32 ;
    return A ;
}

static void matrix_free (host_matrix *A)
{
    free (A->p) ; free (A->i) ; free (A->x) ;
}

// Each position present with probability 1/4.
static host_matrix random_quarter (int64_t rows, int64_t k)
{
    host_matrix A = matrix_alloc (rows, k, rows * k / 4 + rows * k / 64 + 64) ;
    int64_t q = 0 ;
    for (int64_t r = 0 ; r < rows ; r++)
    {
        A.p [r] = q ;
        for (int64_t c = 0 ; c < k ; c += 32)
        {
            // two random bits per position: both set with probability 1/4
            uint64_t bits = rnd () & rnd () ;
            for (int64_t o = 0 ; o < 32 && c + o < k ; o++)
            {
                if ((bits >> (2 * o)) & 1) { A.i [q] = c + o ; A.x [q] = 1.0f + (float) o ; q++ ; }
            }
        }
    }
    A.p [rows] = q ;
    A.v.nvals = q ;
    return A ;
}

// Exactly n of every m positions (k a multiple of m); extra: one entry more
// in the last group of the last row, one fewer in the first group.
static host_matrix exact_nm (int64_t rows, int64_t k, int n, int m, bool extra)
{
    host_matrix A = matrix_alloc (rows, k, rows * (k / m) * n + 1) ;
    int64_t q = 0 ;
    for (int64_t r = 0 ; r < rows ; r++)
    {
        A.p [r] = q ;
        for (int64_t g = 0 ; g < k / m ; g++)
        {
            uint32_t sel = 0 ;
            int have = 0 ;
            while (have < n)
            {
                int o = (int) (rnd () % (uint64_t) m) ;
                if (!(sel & (1u << o))) { sel |= 1u << o ; have++ ; }
            }
            // (one entry fewer in the first group, so that the count of
            // entries alone does not give the answer away)
            if (extra && r == 0 && g == 0) sel &= sel - 1 ;
            if (extra && r == rows - 1 && g == k / m - 1)
            {
                for (int o = 0 ; o < m ; o++) if (!(sel & (1u << o))) { sel |= 1u << o ; break ; }
            }
            for (int o = 0 ; o < m ; o++)
            {
                if (sel & (1u << o)) { A.i [q] = g * m + o ; A.x [q] = (float) o ; q++ ; }
            }
        }
    }
    A.p [rows] = q ;
    A.v.nvals = q ;
    return A ;
}

static void run_case (const char *name, host_matrix *A, int pack_n, int pack_m)
{
    const int64_t nnz = A->v.nvals ;
    double t_copy [REPS], t_conv [REPS], t_tr [REPS], t_det [REPS], t_pack [REPS], t_lay [REPS],
        t_cols [REPS] ;
    gg_csr_form *direct = NULL ;
    gg_nm_info info ;
    gg_nm_opts opts ;
    gg_nm_opts_default (&opts) ;
    void *ci = malloc ((size_t) nnz * sizeof (int64_t)) ;
    void *cx = malloc ((size_t) nnz * sizeof (float)) ;
    if (ci == NULL || cx == NULL) die ("out of memory") ;
    for (int rep = 0 ; rep < REPS ; rep++)
    {
        double t0 = now () ;
        memcpy (ci, A->i, (size_t) nnz * sizeof (int64_t)) ;
        memcpy (cx, A->x, (size_t) nnz * sizeof (float)) ;
        t_copy [rep] = now () - t0 ;

        if (direct) gg_csr_form_free (direct) ;
        t0 = now () ;
        if (gg_csr_from_view (&direct, &A->v, false, true, GG_FP32) != GG_OK) die ("convert") ;
        t_conv [rep] = now () - t0 ;

        gg_csr_form *tr ;
        t0 = now () ;
        if (gg_csr_from_view (&tr, &A->v, true, true, GG_FP32) != GG_OK) die ("transpose") ;
        t_tr [rep] = now () - t0 ;

        t0 = now () ;
        if (gg_nm_detect (&info, &direct->csr, &opts) != GG_OK) die ("detect") ;
        t_det [rep] = now () - t0 ;

        // the same question asked of the transpose, groups down its columns
        gg_nm_opts cols = opts ;
        cols.orient = GG_NM_COLS ;
        gg_nm_info ic ;
        t0 = now () ;
        if (gg_nm_detect (&ic, &tr->csr, &cols) != GG_OK) die ("detect cols") ;
        t_cols [rep] = now () - t0 ;
        gg_csr_form_free (tr) ;
        if (ic.is_nm != info.is_nm || ic.n != info.n || ic.m != info.m) die ("orientations disagree") ;

        t_pack [rep] = 0 ;
        t_lay [rep] = 0 ;
        if (pack_n > 0)
        {
            gg_nm_form *f ;
            t0 = now () ;
            if (gg_nm_pack (&f, &direct->csr, 4, pack_n, pack_m, 1, GG_NM_ROWS) != GG_OK) die ("pack") ;
            t_pack [rep] = now () - t0 ;
            // the kernel's layout of it (X k-major, as the nm row asks)
            gg_nm_layout *L = NULL ;
            t0 = now () ;
            if (gg_nm_layout_build (&L, f, true) != GG_OK) die ("layout") ;
            t_lay [rep] = now () - t0 ;
            gg_nm_layout_free (L) ;
            if (rep == 0)
            {
                printf ("#   %s packed %d:%d: %.1f MB (CSR int32 + fp32: %.1f MB)\n", name,
                    pack_n, pack_m, (double) f->bytes / 1e6,
                    (double) (A->v.vdim + 1 + 2 * nnz) * 4 / 1e6) ;
            }
            gg_nm_form_free (f) ;
        }
    }
    free (ci) ;
    free (cx) ;
    char found [32] ;
    if (info.is_nm) snprintf (found, sizeof (found), "%d:%d", info.n, info.m) ;
    else snprintf (found, sizeof (found), "no") ;
    const double copy = median (t_copy, REPS), conv = median (t_conv, REPS),
        tr = median (t_tr, REPS), det = median (t_det, REPS), pk = median (t_pack, REPS),
        dc = median (t_cols, REPS), lay = median (t_lay, REPS) ;
    printf ("| %-24s | %6ld x %-6ld | %9.2f | %-6s | %9.3f | %9.3f | %8.1f | %8.1f | %9.1f | %8.3f | %8.3f | %7.1f | %9.1f |\n",
        name, (long) A->v.vdim, (long) A->v.vlen, (double) nnz / 1e6, found,
        det * 1e3, dc * 1e3, copy * 1e3, conv * 1e3, tr * 1e3, 100 * det / conv,
        100 * det / tr, pk * 1e3, lay * 1e3) ;
    fflush (stdout) ;
    gg_csr_form_free (direct) ;
}

int main (int argc, char **argv)
{
    const double scale = (argc > 1) ? atof (argv [1]) : 1.0 ;
    int threads = 1 ;
#ifdef _OPENMP
    threads = omp_get_max_threads () ;
#endif
    printf ("# nm_bench: scale %g, %d OpenMP threads, medians of %d\n", scale, threads, REPS) ;
    printf ("| %-24s | %-15s | %-9s | %-6s | %-9s | %-9s | %-8s | %-8s | %-9s | %-8s | %-8s | %-7s | %-9s |\n",
        "case", "rows x k", "nnz (M)", "found", "detect ms", "det W ms", "copy ms", "conv ms",
        "trans ms", "det/conv%", "det/tr %", "pack ms", "layout ms") ;
    printf ("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n") ;

    const int64_t big = (int64_t) (16384 * (scale < 1 ? scale : 1)) ;
    host_matrix A = random_quarter (big, big) ;
    run_case ("random, density 1/4", &A, 0, 0) ;
    matrix_free (&A) ;

    A = exact_nm (big / 2, big, 2, 4, true) ;
    run_case ("2:4 but last group 3:4", &A, 0, 0) ;
    matrix_free (&A) ;

    const int sizes [2] = { 4096, 8192 } ;
    const int nm [4][2] = { { 2, 4 }, { 1, 4 }, { 8, 32 }, { 4, 32 } } ;
    for (int s = 0 ; s < 2 ; s++)
    {
        const int64_t n = (int64_t) (sizes [s] * (scale < 1 ? scale : 1)) ;
        for (int t = 0 ; t < 4 ; t++)
        {
            char name [64] ;
            snprintf (name, sizeof (name), "exact %d:%d", nm [t][0], nm [t][1]) ;
            A = exact_nm (n, n, nm [t][0], nm [t][1], false) ;
            run_case (name, &A, nm [t][0], nm [t][1]) ;
            matrix_free (&A) ;
        }
    }
    return 0 ;
}
