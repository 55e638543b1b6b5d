//------------------------------------------------------------------------------
// formats/partition.h: row blocks of a CSR balanced by entries (GRBGPU_DEVICES)
//------------------------------------------------------------------------------

// A product split across slots (GRBGPU_DEVICES, backend/cuda/multi.c; the host
// emulation backend models the same split) gives each slot a contiguous block
// of S's rows, [r [s], r [s+1]), holding about nnz / nslots entries, and a
// CSR view of that block: S's own column and value arrays from the block's
// first entry on, and its row pointers rebased to start at 0 (the one array
// that must be made, nrows_block + 1 integers).  The slot writes rows
// r [s] .. r [s+1]-1 of Y, i.e. Y + r [s] * n values: gathering is placing.
// Plain C, no GraphBLAS: tests/test_multi.c checks it on the CPU.

#ifndef GRBGPU_FORMATS_PARTITION_H
#define GRBGPU_FORMATS_PARTITION_H

#include <stdint.h>

#include "kernels/gg_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

// r [0 .. nslots]: r [0] = 0, r [nslots] = S->nrows, non-decreasing; cut s
// is the row boundary nearest to s * nnz / nslots entries (ties: the earlier;
// never before cut s-1), so each cut is within half of the longest row of its
// ideal place and no block holds more than nnz / nslots plus the longest row
// (a block may be empty).  With nnz == 0 the rows are split evenly.
void gg_partition_rows (const gg_csr *S, int nslots, int64_t *r) ;

// The same with each row counting as w entries besides its own (the cost of
// a block: its entries plus w times its rows; w in [0, 2^20], clamped): for a
// product whose rows of Y come to the host, where a row's download costs
// about as much as w entries of the kernel (GRBGPU_SPLIT_ROW_WEIGHT).  w = 0
// is gg_partition_rows.  Each cut is the boundary nearest to its share of
// the total cost, so no block holds more than its share plus one row's cost.
#define GG_PARTITION_MAX_ROW_WEIGHT ((int64_t) 1 << 20)
void gg_partition_rows_w (const gg_csr *S, int nslots, int64_t w, int64_t *r) ;

// The row pointers of rows [r0, r1) of S, rebased (p [0] = 0), into p (r1-r0+1
// entries of S's index width: int32 when S has p32, else int64).
void gg_partition_rebase (const gg_csr *S, int64_t r0, int64_t r1, void *p) ;

// *B = the view of rows [r0, r1) of S over the rebased pointers p (made by
// gg_partition_rebase): S's arrays from entry S.p [r0] on; an iso S stays iso
// (its one value); what is not known of the block is marked so (max_row the
// whole S's, an upper bound; no_empty_rows kept; present NULL);
// cache NULL (the caller sets the slot's own entry).
void gg_partition_view (const gg_csr *S, int64_t r0, int64_t r1, const void *p,
    size_t value_size, gg_csr *B) ;

#ifdef __cplusplus
}
#endif
#endif
