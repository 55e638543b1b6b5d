//------------------------------------------------------------------------------
// kernels/tc_spmm/tc_layout.h: the hybrid tensor-core / CUDA-core form of a CSR operand
//------------------------------------------------------------------------------

// The layout of the form that formats/hybrid.cu builds on the device and the
// tensor-core SpMM (kernels/tc_spmm/) reads.  C-visible so that a cache entry
// can hold it; callers go through the launchers of kernels/tc_spmm/tc_spmm.h.
// The layout lives with the kernel that reads it; the builder in formats/
// includes it (arrows point down: formats -> kernels, as for the N:M form).
//
// The split (issue 14, after Libra's SpMM split): the rows of S (m x k CSR)
// are cut into windows of 8 (window w = rows 8w .. 8w+7).  In a window, the
// entries sharing a column form an 8x1 column vector; a vector with at least
// `threshold` entries goes to the tensor-core part, every other entry to the
// CUDA-core remainder.  Every entry of S is in exactly one part.
//
// Tensor-core part.  A window's vectors are numbered in the order of their
// first entry in CSR order (row, then column); vector v of window w is slot
// v % 8 of the window's block v / 8.  Blocks are numbered window after window
// (the window's first block: the sum of the earlier windows' blocks), so a
// block's values cover 8 rows x 8 slots:
//   col [8b + GG_HYB_COL_POS (s)]          S's column of slot s (-1: padding)
//   val [64b + GG_HYB_VAL_POS (r, s)]      S (8w + r, col of slot s), 0 where
//                                          that entry is absent
// An explicit zero of S is stored as 0 too: the values do not tell an entry
// from an absent position (the product does not need to; S's pattern and
// col do).
// The positions are those of the mma.sync m16n8k8 B fragment (k = slot, n =
// window row): lane 4r + (s & 3) holds the values of slots s & 3 and
// (s & 3) + 4 of row r as one pair, and the columns of its slots t and t + 4
// as one pair, so a lane reads each with one 8-byte load.
//
// Segments: a window's blocks are cut into runs of at most seg_blocks (a unit
// of work for one warp); seg_blk [s] .. seg_blk [s+1] are segment s's blocks
// (seg_blk [nseg] = nblk), seg_win [s] its window, with GG_HYB_SEG_SHARED set
// when the window has more than one segment (the kernel then adds its
// partial sums with atomics).  zero_rows lists the rows of such windows that
// have tensor-core entries but no remainder entries: the product zeroes them
// before the atomics.
//
// Remainder: a plain CSR (m x k, rp/ri/rx) of the other entries in S's order,
// with the SpMV plan of kernels/gg_cuda.h, so that any CUDA-core SpMM kernel
// runs it.
//
// All arrays live in one device allocation (`base`, `bytes`).

#ifndef GG_TC_LAYOUT_H
#define GG_TC_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "kernels/gg_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GG_HYB_WIN 8                    // rows per window
#define GG_HYB_SLOTS 8                  // vectors (columns) per block
#define GG_HYB_SEG_SHARED 0x80000000u   // seg_win flag: window has >1 segment
#define GG_HYB_COL_POS(s) (2 * ((s) & 3) + ((s) >> 2))
#define GG_HYB_VAL_POS(r, s) (2 * (4 * (r) + ((s) & 3)) + ((s) >> 2))

typedef struct gg_hybrid_form
{
    // the operand
    int64_t m, k, nnz ;
    gg_type type ;              // GG_FP32 or GG_FP64
    int threshold ;             // entries a vector needs to go to the TC part
    int seg_blocks ;            // blocks per segment (at most)
    int absorb_pct, win_min ;   // the window rule (gg_tc_rule); 0: off
    int absorb_grow ;

    // tensor-core part
    int64_t tc_nnz ;            // entries in it
    int64_t nvec ;              // column vectors
    int64_t nblk ;              // blocks of 8 vectors
    int64_t nseg ;              // segments
    int64_t nzero ;             // rows in zero_rows
    int32_t *col ;              // 8 nblk: column of each slot, -1 = padding
    void *val ;                 // 64 nblk values of the type, fragment order
    int32_t *seg_blk ;          // nseg + 1
    uint32_t *seg_win ;         // nseg: window | GG_HYB_SEG_SHARED
    int32_t *zero_rows ;        // nzero
    int64_t nwin ;              // windows (ceil (m / 8))
    const int32_t *row_out ;    // NULL, or (device, m entries, not owned by
                                // the form) the row of Y each row of this
                                // form is stored to: a form of a row-permuted
                                // S (reorder/) writes Y in S's own order;
                                // set by gg_tc_set_row_out, which also puts
                                // zero_rows in Y's row order; the remainder
                                // (rp, ri, rx) stays in the form's order
                                // and is stored through row_out too
    int32_t *win_blk ;          // nwin + 1: window w's blocks are
                                // win_blk [w] .. win_blk [w+1] (the fused
                                // kernel's unit of work)

    // CUDA-core remainder (CSR, m x k)
    int64_t rem_nnz ;
    int64_t rem_max_row ;       // entries in its longest row
    int64_t rem_rows ;          // rows holding remainder entries (its kernel's
                                // rule: gg_tc_rem_kernel; 0: not counted)
    int32_t *rp ;               // m + 1
    int32_t *ri ;               // rem_nnz
    void *rx ;                  // rem_nnz values of the type
    void *rplan ;               // gg_cuda_spmv_plan_bytes (rem_nnz) bytes
                                // (NULL in the index form: no SpMV runs on it)
    int32_t *rrow ;             // the index form only (else NULL): rem_nnz,
                                // the row of each remainder entry (the
                                // tensor-core SDDMM's remainder warps read it)

    // storage
    void *base ;                // the one device allocation holding the above
    size_t bytes ;              // its size
    double build_ms ;           // wall time of the build (host clock, synced)
}
gg_hybrid_form ;

#ifdef __cplusplus
}
#endif
#endif
