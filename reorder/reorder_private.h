//------------------------------------------------------------------------------
// reorder/reorder_private.h: what reorder/reorder.c and reorder/rsh.c share
//------------------------------------------------------------------------------

#ifndef GG_REORDER_PRIVATE_H
#define GG_REORDER_PRIVATE_H

#include "reorder/reorder.h"

#include <stdint.h>
#include <time.h>

#define GG_REORDER_INTERNAL __attribute__ ((visibility ("hidden")))

static inline double now_s (void)
{
    struct timespec ts ;
    clock_gettime (CLOCK_MONOTONIC, &ts) ;
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec ;
}

// splitmix64's finaliser: a bijection on 64 bits with good avalanche
static inline uint64_t mix64 (uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull ;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull ;
    return z ^ (z >> 31) ;
}

// perm -> iperm, both optional; order holds all m rows
GG_REORDER_INTERNAL void gg_reorder_emit (const int32_t *order, int64_t m,
    int32_t *perm, int32_t *iperm) ;

// sort rows [0..n) (non-empty rows) by (first column, length, row)
GG_REORDER_INTERNAL int gg_reorder_sort_first_column (const int32_t *p,
    const int32_t *i, int32_t *rows, int64_t n) ;

// order = non-empty rows by first column, then the empty rows
GG_REORDER_INTERNAL int gg_reorder_first_column_order (const int32_t *p,
    const int32_t *i, int64_t m, int32_t *order) ;

#endif
