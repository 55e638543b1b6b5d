//------------------------------------------------------------------------------
// bench/reorder_bench.c: what row reordering buys 8-row tensor-core windows
//------------------------------------------------------------------------------

// For each *.mtx.gz in $GRBGPU_TEST_DATA (or the folder given as the first
// argument) and for R-MAT 2^16 and 2^18: rows, entries, the time of the
// RSH-style reordering (reorder/reorder.c, default options, no budget) and
// of the first-column baseline, and for the original order, the baseline
// and RSH: distinct columns per non-empty 8-row window and the tensor-core
// share at T = 3 (entries in 8x1 column vectors of >= 3 entries); and the
// TC share of RSH with the other linearisation of the spanning forest
// (GG_REORDER_CHAINS, or with --chains the default DFS; the header says), and
// of the hub order (an experiment of this bench: rows sorted by the ranks of
// their most frequent columns) with its time; and
// entries per distinct column in chunks of 1024 consecutive entries (reuse
// /1024: what a CUDA-core SpMM block could find of X in L1) for the three
// orders.  Host
// only; timings are wall-clock on this machine, one run each.
//
// usage: reorder_bench [folder] [--no-rmat] [--threads n] [--alpha a]
//     [--knn k] [--refine w] [--bands b] [--ring r] [--chains]   (gg_reorder_options)

#include "reorder/reorder.h"
#include "reorder/reorder_util.h"

#include <dirent.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double now_s (void)
{
    struct timespec ts ;
    clock_gettime (CLOCK_MONOTONIC, &ts) ;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec ;
}

static int name_cmp (const void *x, const void *y)
{
    return strcmp (*(char *const *) x, *(char *const *) y) ;
}

static gg_reorder_options opt ;

// Entries per distinct column over chunks of `chunk` consecutive entries of
// the matrix in the order perm (NULL: as it is): how often a CUDA-core SpMM
// block that takes such a chunk (nnz_k128 at N = 128: 8 warps x 128) could
// find a row of X it already read (1: never; a proxy for L1 reuse).
static double chunk_reuse (const ru_csr *A, const int32_t *perm, int64_t chunk)
{
    int64_t *stamp = malloc ((size_t) (A->k > 0 ? A->k : 1) * sizeof (int64_t)) ;
    if (stamp == NULL) return 0 ;
    for (int64_t j = 0 ; j < A->k ; j++) stamp [j] = -1 ;
    int64_t e = 0, distinct = 0 ;
    for (int64_t q = 0 ; q < A->m ; q++)
    {
        const int64_t r = perm ? perm [q] : q ;
        for (int64_t t = A->p [r] ; t < A->p [r+1] ; t++, e++)
        {
            const int64_t c = e / chunk, j = A->i [t] ;
            if (stamp [j] != c) { stamp [j] = c ; distinct++ ; }
        }
    }
    free (stamp) ;
    return distinct > 0 ? (double) e / (double) distinct : 0 ;
}

// The hub order (this bench only, an experiment): each row's key is the
// ranks (0 = the most frequent column of S) of its HUB_KEYS most frequent
// columns, ascending; rows sorted by their keys, so that rows sharing their
// most frequent column come together, and among those the ones sharing the
// next.  O(nnz + m log m); no similarity search.
#define HUB_KEYS 3
typedef struct { int32_t key [HUB_KEYS] ; int32_t row ; } hub_row ;
static const int64_t *hub_deg_ref ;
static int hub_col_cmp (const void *x, const void *y)
{
    const int32_t a = *(const int32_t *) x, b = *(const int32_t *) y ;
    const int64_t da = hub_deg_ref [a], db = hub_deg_ref [b] ;
    if (da != db) return (da > db) ? -1 : 1 ;
    return (a > b) - (a < b) ;
}
static int hub_row_cmp (const void *x, const void *y)
{
    const hub_row *a = x, *b = y ;
    for (int q = 0 ; q < HUB_KEYS ; q++)
        if (a->key [q] != b->key [q]) return (a->key [q] > b->key [q]) - (a->key [q] < b->key [q]) ;
    return (a->row > b->row) - (a->row < b->row) ;
}
static bool hub_order (const ru_csr *A, int32_t *perm)
{
    const int64_t m = A->m, k = A->k ;
    int64_t *deg = calloc ((size_t) (k > 0 ? k : 1), sizeof (int64_t)) ;
    int32_t *cols = malloc ((size_t) (k > 0 ? k : 1) * sizeof (int32_t)) ;
    int32_t *rank = malloc ((size_t) (k > 0 ? k : 1) * sizeof (int32_t)) ;
    hub_row *rows = malloc ((size_t) (m > 0 ? m : 1) * sizeof (hub_row)) ;
    bool ok = deg && cols && rank && rows ;
    if (ok)
    {
        for (int64_t t = 0 ; t < A->p [m] ; t++) deg [A->i [t]]++ ;
        for (int64_t j = 0 ; j < k ; j++) cols [j] = (int32_t) j ;
        hub_deg_ref = deg ;
        qsort (cols, (size_t) k, sizeof (int32_t), hub_col_cmp) ;
        for (int64_t q = 0 ; q < k ; q++) rank [cols [q]] = (int32_t) q ;
        for (int64_t r = 0 ; r < m ; r++)
        {
            hub_row *h = &rows [r] ;
            h->row = (int32_t) r ;
            for (int q = 0 ; q < HUB_KEYS ; q++) h->key [q] = INT32_MAX ;
            // the HUB_KEYS smallest ranks of the row, ascending (insertion)
            for (int64_t t = A->p [r] ; t < A->p [r+1] ; t++)
            {
                int32_t v = rank [A->i [t]] ;
                for (int q = 0 ; q < HUB_KEYS ; q++)
                    if (v < h->key [q]) { const int32_t w = h->key [q] ; h->key [q] = v ; v = w ; }
            }
        }
        qsort (rows, (size_t) m, sizeof (hub_row), hub_row_cmp) ;
        for (int64_t q = 0 ; q < m ; q++) perm [q] = rows [q].row ;
    }
    free (deg) ; free (cols) ; free (rank) ; free (rows) ;
    return ok ;
}

static void one (const char *name, const ru_csr *A)
{
    const int64_t m = A->m ;
    int32_t *pr = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    int32_t *pc = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    int32_t *pb = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    int32_t *ph = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    if (pr == NULL || pc == NULL || pb == NULL || ph == NULL)
    { free (pr) ; free (pc) ; free (pb) ; free (ph) ; return ; }
    gg_reorder_options oc = opt ;
    oc.linear = (opt.linear == GG_REORDER_DFS) ? GG_REORDER_CHAINS : GG_REORDER_DFS ;
    gg_reorder_info info, infoc ;
    double t = now_s () ;
    int s1 = gg_reorder_rsh (A->p, A->i, m, A->k, &opt, pr, NULL, &info) ;
    const double t_rsh = now_s () - t ;
    int s3 = gg_reorder_rsh (A->p, A->i, m, A->k, &oc, pc, NULL, &infoc) ;
    t = now_s () ;
    int s2 = gg_reorder_first_column (A->p, A->i, m, A->k, pb, NULL) ;
    const double t_base = now_s () - t ;
    t = now_s () ;
    const bool s4 = hub_order (A, ph) ;
    const double t_hub = now_s () - t ;
    gg_reorder_stats s0, sb, sr, sc, sh ;
    if (s1 != GG_OK || s2 != GG_OK || s3 != GG_OK || !s4
        || gg_reorder_window_stats (A->p, A->i, m, A->k, ph, 8, &sh) != GG_OK
        || gg_reorder_window_stats (A->p, A->i, m, A->k, NULL, 8, &s0) != GG_OK
        || gg_reorder_window_stats (A->p, A->i, m, A->k, pb, 8, &sb) != GG_OK
        || gg_reorder_window_stats (A->p, A->i, m, A->k, pr, 8, &sr) != GG_OK
        || gg_reorder_window_stats (A->p, A->i, m, A->k, pc, 8, &sc) != GG_OK)
    {
        printf ("%-16s failed\n", name) ;
    }
    else
    {
        printf ("| %-14s | %7lld | %8lld | %6.3f | %6.3f | %6.1f | %6.1f | %6.1f "
            "| %5.1f | %5.1f | %5.1f | %5.1f | %5.1f %6.3f | %5.2f | %5.2f | %5.2f "
            "| %5.3f %5.3f %5.3f %5.3f |\n",
            name, (long long) m, (long long) A->p [m], t_rsh, t_base,
            s0.avg_distinct, sb.avg_distinct, sr.avg_distinct,
            100 * s0.tc_share [3], 100 * sb.tc_share [3], 100 * sr.tc_share [3],
            100 * sc.tc_share [3], 100 * sh.tc_share [3], t_hub, chunk_reuse (A, NULL, 1024), chunk_reuse (A, pb, 1024),
            chunk_reuse (A, pr, 1024),
            info.t_sig, info.t_lsh, info.t_knn, info.t_forest + info.t_refine) ;
    }
    fflush (stdout) ;
    free (pr) ; free (pc) ; free (pb) ; free (ph) ;
}

int main (int argc, char **argv)
{
    const char *dir = getenv ("GRBGPU_TEST_DATA") ;
    bool rmat = true ;
    gg_reorder_options_default (&opt) ;
    for (int a = 1 ; a < argc ; a++)
    {
        if (strcmp (argv [a], "--no-rmat") == 0) rmat = false ;
        else if (strcmp (argv [a], "--threads") == 0 && a + 1 < argc)
        {
            const int nt = atoi (argv [++a]) ;
#ifdef _OPENMP
            if (nt > 0) omp_set_num_threads (nt) ;
#else
            (void) nt ;
#endif
        }
        else if (strcmp (argv [a], "--alpha") == 0 && a + 1 < argc) opt.alpha = atof (argv [++a]) ;
        else if (strcmp (argv [a], "--knn") == 0 && a + 1 < argc) opt.knn = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--refine") == 0 && a + 1 < argc) opt.refine_window = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--bands") == 0 && a + 1 < argc) opt.nbands = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--ring") == 0 && a + 1 < argc) opt.ring = atoi (argv [++a]) ;
        else if (strcmp (argv [a], "--chains") == 0) opt.linear = GG_REORDER_CHAINS ;
        else dir = argv [a] ;
    }
#ifdef _OPENMP
    printf ("threads: %d\n", omp_get_max_threads ()) ;
#endif
    printf ("| matrix | rows | entries | RSH s | base s | cols/win orig | base | RSH "
        "| TC%% T=3 orig | base | RSH | RSH (%s) | hub (s) | reuse/1024 orig | base | RSH "
        "| RSH stages s: sig lsh knn forest+2opt |\n",
        opt.linear == GG_REORDER_DFS ? "chains" : "dfs") ;
    printf ("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n") ;

    // the shared matrices, in name order
    DIR *d = (dir != NULL) ? opendir (dir) : NULL ;
    if (d == NULL)
    {
        printf ("(no matrix folder: set GRBGPU_TEST_DATA or give it as argument)\n") ;
    }
    else
    {
        char *names [256] ;
        int nn = 0 ;
        struct dirent *e ;
        while ((e = readdir (d)) != NULL && nn < 256)
        {
            const size_t len = strlen (e->d_name) ;
            if (len > 7 && strcmp (e->d_name + len - 7, ".mtx.gz") == 0)
            {
                names [nn++] = strdup (e->d_name) ;
            }
        }
        closedir (d) ;
        qsort (names, (size_t) nn, sizeof (char *), name_cmp) ;
        for (int x = 0 ; x < nn ; x++)
        {
            char path [4096] ;
            snprintf (path, sizeof (path), "%s/%s", dir, names [x]) ;
            ru_csr A = { 0 } ;
            names [x][strlen (names [x]) - 7] = '\0' ;
            if (ru_read_mtx_gz (&A, path)) one (names [x], &A) ;
            else printf ("%-16s cannot be read\n", names [x]) ;
            ru_free (&A) ;
            free (names [x]) ;
        }
    }

    // R-MAT
    for (int scale = 16 ; rmat && scale <= 18 ; scale += 2)
    {
        ru_csr A = { 0 } ;
        char name [32] ;
        snprintf (name, sizeof (name), "rmat%d", scale) ;
        if (ru_rmat (&A, scale, 20261125 + (uint64_t) scale)) one (name, &A) ;
        ru_free (&A) ;
    }
    return 0 ;
}
