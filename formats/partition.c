//------------------------------------------------------------------------------
// formats/partition.c: row blocks of a CSR balanced by entries (and rows)
//------------------------------------------------------------------------------

// See formats/partition.h.

#include "formats/partition.h"

#include <string.h>

static inline int64_t ptr_at (const gg_csr *S, int64_t i)
{
    return (S->p32 != NULL) ? (int64_t) S->p32 [i] : S->p64 [i] ;
}

// The cost of rows [0, b): their entries plus w per row.
static inline int64_t cost_at (const gg_csr *S, int64_t w, int64_t b)
{
    return ptr_at (S, b) + w * b ;
}

// The first row boundary b in [lo, nrows] with cost (b) >= target.
static int64_t first_at_least (const gg_csr *S, int64_t w, int64_t lo, int64_t target)
{
    int64_t hi = S->nrows ;
    while (lo < hi)
    {
        int64_t mid = lo + (hi - lo) / 2 ;
        if (cost_at (S, w, mid) >= target) hi = mid ;
        else lo = mid + 1 ;
    }
    return lo ;
}

void gg_partition_rows_w (const gg_csr *S, int nslots, int64_t w, int64_t *r)
{
    const int64_t m = S->nrows, nnz = (m > 0) ? ptr_at (S, m) : 0 ;
    if (w < 0) w = 0 ;
    if (w > GG_PARTITION_MAX_ROW_WEIGHT) w = GG_PARTITION_MAX_ROW_WEIGHT ;
    const int64_t total = nnz + w * m ;
    r [0] = 0 ;
    for (int s = 1 ; s < nslots ; s++)
    {
        if (total == 0)
        {
            r [s] = (m * s) / nslots ;
            continue ;
        }
        // (s * total) / nslots without overflow for total < 2^62
        int64_t target = (int64_t) (((__int128) total * s + nslots - 1) / nslots) ;
        int64_t b = first_at_least (S, w, r [s-1], target) ;
        // the nearer of the two boundaries around the share (ties: the first)
        if (b > r [s-1] && target - cost_at (S, w, b-1) <= cost_at (S, w, b) - target) b-- ;
        r [s] = b ;
    }
    r [nslots] = m ;
}

void gg_partition_rows (const gg_csr *S, int nslots, int64_t *r)
{
    gg_partition_rows_w (S, nslots, 0, r) ;
}

void gg_partition_rebase (const gg_csr *S, int64_t r0, int64_t r1, void *p)
{
    if (S->p32 != NULL)
    {
        const int32_t base = S->p32 [r0] ;
        int32_t *q = p ;
        for (int64_t i = r0 ; i <= r1 ; i++) q [i - r0] = S->p32 [i] - base ;
    }
    else
    {
        const int64_t base = S->p64 [r0] ;
        int64_t *q = p ;
        for (int64_t i = r0 ; i <= r1 ; i++) q [i - r0] = S->p64 [i] - base ;
    }
}

void gg_partition_view (const gg_csr *S, int64_t r0, int64_t r1, const void *p,
    size_t value_size, gg_csr *B)
{
    const int64_t e0 = ptr_at (S, r0), e1 = ptr_at (S, r1) ;
    memset (B, 0, sizeof (*B)) ;
    B->nrows = r1 - r0 ;
    B->ncols = S->ncols ;
    B->nnz = e1 - e0 ;
    if (S->p32 != NULL)
    {
        B->p32 = p ;
        B->i32 = S->i32 + e0 ;
    }
    else
    {
        B->p64 = p ;
        B->i64 = S->i64 + e0 ;
    }
    B->iso = S->iso ;
    B->x = (S->x == NULL || S->iso) ? S->x
        : (const void *) ((const char *) S->x + (size_t) e0 * value_size) ;
    B->max_row = S->max_row ;
    B->no_empty_rows = S->no_empty_rows ;
    // present / nonempty: read by the write-back only, on the whole S
    B->cache = NULL ;
}
