//------------------------------------------------------------------------------
// reorder/reorder.c: a first-column baseline, and the window statistics that
// say what a permutation buys
//------------------------------------------------------------------------------

// See reorder.h for the contract; the RSH-style pass itself is reorder/rsh.c.
// The window statistics run in parallel (OpenMP), each thread on its own
// windows.

#include "reorder/reorder_private.h"

#include <stdlib.h>
#include <string.h>

void gg_reorder_options_default (gg_reorder_options *opt)
{
    opt->seed = 1 ;
    opt->nbands = 8 ;
    opt->band_rows = 2 ;
    opt->ring = 2 ;
    opt->knn = 4 ;
    opt->alpha = 0.5 ;
    opt->refine_window = 16 ;
    opt->budget_s = 0 ;
    opt->linear = GG_REORDER_DFS ;
}

void gg_reorder_emit (const int32_t *order, int64_t m, int32_t *perm,
    int32_t *iperm)
{
    if (perm != NULL) memcpy (perm, order, (size_t) m * sizeof (int32_t)) ;
    if (iperm != NULL)
    {
        for (int64_t t = 0 ; t < m ; t++) iperm [order [t]] = (int32_t) t ;
    }
}

void gg_reorder_permute_rows (const int32_t *p, const int32_t *i, const void *x,
    size_t elem, bool iso, int64_t m, const int32_t *perm, int32_t *bp,
    int32_t *bi, void *bx)
{
    bp [0] = 0 ;
    for (int64_t t = 0 ; t < m ; t++)
    {
        const int32_t r = perm [t], a = p [r], len = p [r + 1] - a ;
        memcpy (bi + bp [t], i + a, (size_t) len * sizeof (int32_t)) ;
        if (x != NULL)
        {
            char *dst = (char *) bx + (size_t) bp [t] * elem ;
            if (iso)
                for (int32_t e = 0 ; e < len ; e++) memcpy (dst + (size_t) e * elem, x, elem) ;
            else
                memcpy (dst, (const char *) x + (size_t) a * elem, (size_t) len * elem) ;
        }
        bp [t + 1] = bp [t] + len ;
    }
}

//------------------------------------------------------------------------------
// first-column order (the baseline, and the order of isolated rows)
//------------------------------------------------------------------------------

typedef struct { int32_t first, len, row ; } fc_key ;

static int fc_cmp (const void *x, const void *y)
{
    const fc_key *a = x, *b = y ;
    if (a->first != b->first) return (a->first < b->first) ? -1 : 1 ;
    if (a->len != b->len) return (a->len < b->len) ? -1 : 1 ;
    return (a->row < b->row) ? -1 : (a->row > b->row) ;
}

// sort rows [0..n) (non-empty rows) by (first column, length, row)
int gg_reorder_sort_first_column (const int32_t *p, const int32_t *i,
    int32_t *rows, int64_t n)
{
    if (n <= 1) return GG_OK ;
    fc_key *key = malloc ((size_t) n * sizeof (fc_key)) ;
    if (key == NULL) return GG_ERR_NOMEM ;
    for (int64_t t = 0 ; t < n ; t++)
    {
        const int32_t r = rows [t] ;
        key [t].first = i [p [r]] ;
        key [t].len = p [r+1] - p [r] ;
        key [t].row = r ;
    }
    qsort (key, (size_t) n, sizeof (fc_key), fc_cmp) ;
    for (int64_t t = 0 ; t < n ; t++) rows [t] = key [t].row ;
    free (key) ;
    return GG_OK ;
}

// order = non-empty rows by first column, then the empty rows
int gg_reorder_first_column_order (const int32_t *p, const int32_t *i, int64_t m,
    int32_t *order)
{
    int64_t ne = 0 ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        if (p [r+1] > p [r]) order [ne++] = (int32_t) r ;
    }
    int64_t t = ne ;
    for (int64_t r = 0 ; r < m ; r++)
    {
        if (p [r+1] == p [r]) order [t++] = (int32_t) r ;
    }
    return gg_reorder_sort_first_column (p, i, order, ne) ;
}

int gg_reorder_first_column (const int32_t *p, const int32_t *i, int64_t m,
    int64_t k, int32_t *perm, int32_t *iperm)
{
    (void) k ;
    if (m < 0 || m >= INT32_MAX) return GG_ERR_UNSUPPORTED ;
    int32_t *order = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    if (order == NULL) return GG_ERR_NOMEM ;
    int info = gg_reorder_first_column_order (p, i, m, order) ;
    if (info == GG_OK) gg_reorder_emit (order, m, perm, iperm) ;
    free (order) ;
    return info ;
}

//------------------------------------------------------------------------------
// gg_reorder_window_stats
//------------------------------------------------------------------------------

int gg_reorder_window_stats (const int32_t *p, const int32_t *i, int64_t m,
    int64_t k, const int32_t *perm, int window, gg_reorder_stats *stats)
{
    (void) k ;
    if (m < 0 || window < 1 || window > GG_REORDER_MAX_WINDOW || stats == NULL)
    {
        return GG_ERR_UNSUPPORTED ;
    }
    const int W = window ;
    const int64_t nw = (m + W - 1) / W ;
    // entries [s]: entries in column vectors of exactly s entries
    int64_t entries [GG_REORDER_MAX_WINDOW + 1] = { 0 } ;
    int64_t distinct = 0, nonempty = 0 ;
    #pragma omp parallel
    {
        int64_t my_entries [GG_REORDER_MAX_WINDOW + 1] = { 0 } ;
        int64_t my_distinct = 0, my_nonempty = 0 ;
        #pragma omp for schedule(dynamic, 64)
        for (int64_t wi = 0 ; wi < nw ; wi++)
        {
            // a W-way merge of the window's sorted rows
            int64_t head [GG_REORDER_MAX_WINDOW], end [GG_REORDER_MAX_WINDOW] ;
            int nr = 0 ;
            for (int q = 0 ; q < W && wi * W + q < m ; q++)
            {
                const int64_t r = (perm != NULL) ? perm [wi * W + q] : wi * W + q ;
                if (p [r+1] > p [r]) { head [nr] = p [r] ; end [nr] = p [r+1] ; nr++ ; }
            }
            if (nr > 0) my_nonempty++ ;
            while (nr > 0)
            {
                int32_t c = INT32_MAX ;
                for (int q = 0 ; q < nr ; q++) if (i [head [q]] < c) c = i [head [q]] ;
                int run = 0 ;
                for (int q = 0 ; q < nr ; )
                {
                    if (i [head [q]] == c)
                    {
                        run++ ;
                        if (++head [q] == end [q])
                        {
                            // row done: drop it
                            head [q] = head [nr-1] ; end [q] = end [nr-1] ; nr-- ;
                            continue ;
                        }
                    }
                    q++ ;
                }
                my_distinct++ ;
                my_entries [run] += run ;
            }
        }
        #pragma omp critical
        {
            for (int s = 0 ; s <= W ; s++) entries [s] += my_entries [s] ;
            distinct += my_distinct ;
            nonempty += my_nonempty ;
        }
    }
    memset (stats, 0, sizeof (*stats)) ;
    const int64_t nnz = (m > 0) ? p [m] : 0 ;
    stats->nnz = nnz ;
    stats->windows = nw ;
    stats->nonempty_windows = nonempty ;
    stats->avg_distinct = (nonempty > 0) ? (double) distinct / (double) nonempty : 0 ;
    int64_t at_least = 0 ;
    for (int T = W ; T >= 0 ; T--)
    {
        // tc_share [T] = sum_{s >= T} entries [s] / nnz
        at_least += entries [T] ;
        stats->tc_share [T] = (nnz > 0) ? (double) at_least / (double) nnz : 0 ;
    }
    return GG_OK ;
}
