//------------------------------------------------------------------------------
// kernels/tc_sddmm/tc_sddmm.h: SDDMM on tensor cores (issue 14's SDDMM split)
//------------------------------------------------------------------------------

// y (q) = A (i,:) . B (j,:) for each entry q = (i, j) of a mask M (m x n CSR
// pattern), PLUS_TIMES, FP32 or FP64, with the entries of M that share
// columns within a window of 8 rows done as dense 8 x 8 tiles on tensor
// cores and the others by the CUDA-core SDDMM (gg_cuda_sddmm_at).
//
// The form is the hybrid form of M's pattern (formats/hybrid.cu, the index
// form of gg_tc_build): a window's 8x1 column vectors with >= threshold
// entries are packed 8 to a block; for each block, the columns of its 8
// slots and, per (row, slot), the position of that entry in M (+ 1; 0 where
// M has none).  The rest is a CSR of M's other entries with their positions
// in M and their rows (4 bytes an entry each).
//
// A warp takes a segment (at most seg_blocks blocks of one window) and two
// blocks at a time: the MMA's 16 x 8 result is (16 slots) x (8 rows): its A
// operand is the 16 slots' rows of B, its B operand the window's 8 rows of
// A (the swap of the SpMM kernel).  The k terms of a dot product may be taken
// in any order, so lane t of a quad loads 8 consecutive values of each row
// (two 16-byte loads) and the 4 MMA steps of a 32-term chunk take one of
// them each: every row piece a warp loads is 128 contiguous bytes.  FP64:
// DMMA (m8n8k4), one block (8 slots x 8 rows) at a time, 16-term chunks.
//
// Precision.  FP64: DMMA takes FP64 products and sums.  FP32, mode
// GG_TC_EXACT (the default): each value split into three TF32 parts, six
// MMAs per step, small products chained apart from the leading one (as the
// SpMM's exact mode, kernels/tc_spmm/tc_device.cuh); GG_TC_TF32 one MMA on
// TF32 inputs (relative error ~1e-3), only when asked for; GG_TC_EXACT3 /
// GG_TC_EXACT4 the two-way split (3 / 4 MMAs, tc_spmm.h).  What "exact"
// runs: gg_tc_sddmm_exact_mode (below).  Exact only where every value of A
// and B is a nonzero finite normal number, an FP32 one in [2^-51, 2^63]
// (gg_tc_values_plain): the MMA's +0 start and the splits of an Inf would
// change a -0 or an Inf, and below that range the split's smallest products
// leave FP32's normal numbers; the caller checks.

#ifndef GG_TC_SDDMM_H
#define GG_TC_SDDMM_H

#include <stddef.h>
#include <stdint.h>
#include "kernels/gg_cuda.h"
#include "kernels/tc_spmm/tc_spmm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gg_tc_sddmm_form
{
    int64_t m, n, nnz ;         // M
    gg_hybrid_form *h ;         // the index form of M's pattern (h->rrow:
                                // the row of each remainder entry)
    size_t bytes ;              // device bytes (h's)
    double build_ms ;           // host wall time of the build
}
gg_tc_sddmm_form ;

// Build the form of M (device CSR pattern p / i, sorted rows, no
// duplicates; m, n >= 1).  threshold: entries (1..8) a window's column
// vector needs to go to the tensor cores (<= 0: 3); seg_blocks: blocks per
// warp (<= 0: 2).  Synchronises the stream (the parts' sizes are read on the
// host).  GG_OK, or GG_ERR_* with *form = NULL.
int gg_tc_sddmm_build (int64_t m, int64_t n, int64_t nnz, const int32_t *p,
    const int32_t *i, int threshold, int seg_blocks, gg_tc_sddmm_form **form,
    cudaStream_t stream) ;

// Free the form (stream-ordered).  NULL is ignored.
void gg_tc_sddmm_free (gg_tc_sddmm_form *form, cudaStream_t stream) ;

// y (M's nnz values of `type`, device) = the SDDMM through the form.
//   type       GG_FP32 or GG_FP64
//   k          columns of A (m x k) and B (n x k), row-major, device (>= 1)
//   mode       a gg_tc_mode: GG_TC_EXACT, GG_TC_TF32, or the two-way split
//              GG_TC_EXACT3 / GG_TC_EXACT4 (fewer MMAs per step; a dropped
//              product is up to 2^-22 of its term) (FP64: ignored)
//   parts      a gg_tc_parts: both (the tensor-core part, then the
//              remainder), or either alone (timing)
//   remainder  NULL or "": the remainder in the same launch (the warps
//              past the tensor-core segments, a group of 8 lanes per entry);
//              else the CUDA-core SDDMM (gg_cuda_sddmm_at) with that kernel
//              name ("rule": its rule), launched after the tensor-core part
// No synchronisation, no allocation.
int gg_tc_sddmm (const gg_tc_sddmm_form *form, gg_type type, int64_t k,
    const void *A, const void *B, void *y, int mode, int parts,
    const char *remainder, cudaStream_t stream) ;

// The FP32 mode of precision "exact" for dot products of k terms: from
// GG_TC_SDDMM_EXACT4_K terms on, the two-way TF32 split with four MMAs a step
// (GG_TC_EXACT4), below it the three-way split with six (GG_TC_EXACT).  Each
// value's two parts miss at most 2^-22 of it, so the products the four MMAs
// leave out are at most ~2^-21 = 8 u of a term (u = 2^-24), against an FP32
// CUDA-core sum's bound of (k - 1) u + u: from k = 16 the bound grows by at
// most half.  Measured (bench/NOTES.md, 2026-11-29, fourth session; 20
// matrices, k = 32 and 128, against FP64): max error 0.67-2.04x and median
// 0.98-1.34x the CUDA-core group schedule's (six MMAs: 0.67-2.04x and
// 0.76-1.29x; the 2.04 is cora's remainder, the same in both), in 0.79-1.00x
// the six MMAs' time.  The backend's tc3 row and tests/test_tc_sddmm (which
// holds this mode to exact's bound) both take it from here.
#define GG_TC_SDDMM_EXACT4_K 16
static inline int gg_tc_sddmm_exact_mode (int64_t k)
{
    return (k >= GG_TC_SDDMM_EXACT4_K) ? GG_TC_EXACT4 : GG_TC_EXACT ;
}

#ifdef __cplusplus
}
#endif
#endif
