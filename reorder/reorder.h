//------------------------------------------------------------------------------
// reorder/reorder.h: row permutations that make 8-row windows share columns
//------------------------------------------------------------------------------

// The row reorderings of issue 15 (step 1), on the host, plain C with
// OpenMP.  Input: a CSR pattern with m rows and k columns, 32-bit row
// pointers p (m+1) and column indices i, columns sorted and distinct within
// each row (values play no part).  Output: perm [new] = old row and its
// inverse iperm [old] = new (either may be NULL when not wanted; m < 2^31).
// Rows with no entries always come last, in their original order.
//
// gg_reorder_rsh: the locality-aware pass of RSH-SpMM (Algorithm 3), in a
// form that runs in parallel and within a time budget:
//   1. column weights w_j = d_j^-alpha (d_j: rows holding column j), so that
//      agreeing on a rare column counts more than on a hub column;
//   2. a min-hash signature of each row's column set (nbands * band_rows
//      hashes); rows are bucketed per band by the band's hashes
//      (locality-sensitive hashing: rows of Jaccard similarity J meet in a
//      band with probability J^band_rows), and in each band's sorted order a
//      row's candidates are the `ring` rows before and after it in its bucket
//      (all pairs of a small bucket, a bounded number in a big one);
//   3. the weighted Jaccard similarity
//        sim (r,u) = sum_{j in S_r & S_u} w_j / sum_{j in S_r | S_u} w_j
//      on the candidates only, and the knn most similar of each row;
//   4. a maximum spanning forest of the kNN graph (Kruskal, union-find),
//      made an order in one of two ways: GG_REORDER_DFS (default) visits
//      each tree depth first from a leaf, most similar child first (the
//      paper); GG_REORDER_CHAINS keeps each union-find cluster as a path
//      and joins two paths at their most similar ends when Kruskal joins
//      the clusters, so that every cluster of the merge hierarchy is
//      contiguous (a DFS leaves a subtree along a weak edge and comes back
//      later, cutting a group of similar rows in two; measured: better on
//      R-MAT and some FEM matrices, worse on most graphs, see
//      bench/reorder_bench); rows with no
//      neighbour follow, sorted by first column;
//   5. 2-opt refinement in windows of `refine_window` positions (two
//      staggered passes): a segment is reversed when that lowers the sum of
//      (1 - sim) over adjacent rows, the paper's objective.
// Deterministic for a given seed and options, whatever the thread count, as
// long as the budget is not reached.  budget_s > 0 is a limit on the
// seconds spent: when it is reached before the forest order exists the
// answer is the first-column order (gg_reorder_first_column); when it is
// reached during refinement, the windows not yet refined stay as they are.
//
// gg_reorder_first_column: the cheap baseline; rows sorted by their first
// column, then by length, then by row.
//
// gg_reorder_window_stats: what a permutation buys a tensor-core form that
// cuts rows into aligned windows (rows window*w .. window*w + window-1 of
// the permuted matrix, as kernels/tc_spmm/tc_layout.h does with window 8).  In a
// window, the entries of one column form a window x 1 column vector;
// tc_share [T] is the share of all entries that lie in vectors of at least T
// entries (what goes to the tensor cores at threshold T), avg_distinct the
// distinct columns per non-empty window (fewer: denser tiles).

#ifndef GG_REORDER_H
#define GG_REORDER_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/gg_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GG_REORDER_MAX_WINDOW 64

// How the spanning forest becomes an order (gg_reorder_options.linear)
#define GG_REORDER_DFS    0   // DFS of the forest (RSH's Algorithm 3; default)
#define GG_REORDER_CHAINS 1   // Kruskal's merges as path joins

typedef struct
{
    uint64_t seed ;         // the hash functions' seed
    int nbands ;            // LSH bands (default 8)
    int band_rows ;         // min-hashes per band (default 2)
    int ring ;              // candidates each side in a bucket (default 2)
    int knn ;               // neighbours kept per row (default 4)
    double alpha ;          // column weight exponent (default 0.5)
    int refine_window ;     // 2-opt window in positions, 0: no refinement
                            // (default 16)
    double budget_s ;       // time budget in seconds, <= 0: none (default 0)
    int linear ;            // GG_REORDER_DFS (default) or GG_REORDER_CHAINS
}
gg_reorder_options ;

// What a call did: seconds per stage, and how far it got.
typedef struct
{
    double t_sig, t_lsh, t_knn, t_forest, t_refine, t_total ;
    int64_t nonempty ;      // rows with entries
    int64_t edges ;         // kNN edges (both directions counted once each)
    int64_t tree_edges ;    // edges of the spanning forest
    int64_t isolated ;      // non-empty rows with no neighbour
    int64_t swaps ;         // 2-opt segment reversals
    bool budget_hit ;       // the budget cut a stage short
    bool fallback ;         // answer is the first-column order
}
gg_reorder_info ;

typedef struct
{
    int64_t nnz ;
    int64_t windows ;           // ceil (m / window)
    int64_t nonempty_windows ;  // windows with at least one entry
    double avg_distinct ;       // distinct columns per non-empty window
    double tc_share [GG_REORDER_MAX_WINDOW + 1] ;  // [T], T = 0..window
}
gg_reorder_stats ;

void gg_reorder_options_default (gg_reorder_options *opt) ;

// opt may be NULL (defaults); info may be NULL.  Returns GG_OK,
// GG_ERR_NOMEM, or GG_ERR_UNSUPPORTED (m >= 2^31, bad options).
int gg_reorder_rsh (const int32_t *p, const int32_t *i, int64_t m, int64_t k,
    const gg_reorder_options *opt, int32_t *perm, int32_t *iperm,
    gg_reorder_info *info) ;

int gg_reorder_first_column (const int32_t *p, const int32_t *i, int64_t m,
    int64_t k, int32_t *perm, int32_t *iperm) ;

// perm NULL: the matrix as it is.  window 1..GG_REORDER_MAX_WINDOW.
int gg_reorder_window_stats (const int32_t *p, const int32_t *i, int64_t m,
    int64_t k, const int32_t *perm, int window, gg_reorder_stats *stats) ;

// B = A (perm, :) (row t of B is row perm [t] of A): bp (m + 1) and bi
// (A's nnz) always; bx too when x != NULL (elem bytes per value; iso: x
// holds one value, written to every entry of B).  Sequential; the caller
// owns every array.
void gg_reorder_permute_rows (const int32_t *p, const int32_t *i, const void *x,
    size_t elem, bool iso, int64_t m, const int32_t *perm, int32_t *bp,
    int32_t *bi, void *bx) ;

#ifdef __cplusplus
}
#endif

#endif
