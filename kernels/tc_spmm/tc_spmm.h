//------------------------------------------------------------------------------
// kernels/tc_spmm/tc_spmm.h: tensor-core hybrid SpMM (issue 14), C launchers
//------------------------------------------------------------------------------

// Y = S * X (PLUS_TIMES; FP32 through mma.sync TF32, FP64 through DMMA) through the hybrid form of S
// (kernels/tc_spmm/tc_layout.h): the tensor-core part with mma.sync (TF32 inputs, FP32
// accumulation; "exact" mode splits every FP32 operand into TF32 parts so
// that the result is as accurate as FP32 CUDA-core summation), the remainder
// with our CUDA-core SpMM (kernels/gg_cuda.h).
//
// Contract (as kernels/gg_cuda.h): device pointers, 32-bit indices, S in
// CSR with sorted rows, X (k x n) and Y (m x n) row-major.  Every launcher
// returns GG_OK or a GG_ERR_* code (GG_ERR_UNSUPPORTED: no kernel for the
// case, GG_ERR_DEVICE: a CUDA call failed, GG_ERR_DEVMEM: out of device
// memory); on error nothing is leaked.
//
// Non-finite values: the split of an Inf is NaN (Inf - Inf), and the zeros
// padding a block times an Inf (or NaN) of X are NaN, so the family does not
// take operands that hold Inf or NaN: check S's values and X with
// gg_cuda_has_nonfinite first and take the CUDA-core path when it says so.
// Signed zeros: a sum of -0 terms may come out +0 (the padding adds +0).

#ifndef GG_TC_SPMM_H
#define GG_TC_SPMM_H

#include <cuda_runtime_api.h>
#include "kernels/gg_kernels.h"
#include "kernels/tc_spmm/tc_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

// Precision of the tensor-core part (the remainder is always FP32 FMA-free
// CUDA-core arithmetic).  Each FP32 value a is split as a1 = tf32 (a),
// a2 = tf32 (a - a1), a3 = tf32 (a - a1 - a2) (round to nearest); a block's
// products are summed in the tensor core and added to the running sum with
// FP32 adds (round to nearest), the leading product s1*x1 apart from the
// small ones.
typedef enum
{
    GG_TC_EXACT = 0,    // default: s1x1 + (s1x2 + s2x1 + s1x3 + s2x2 + s3x1):
                        // 6 MMAs, both operands split in three
    GG_TC_EXACT3,       // s1x1 + (s1x2 + s2x1): 3 MMAs (two-way split)
    GG_TC_EXACT4,       // s1x1 + (s1x2 + s2x1 + s2x2): 4 MMAs
    GG_TC_TF32,         // s1x1 only: 1 MMA, TF32 inputs (relative error ~1e-3
                        // of the row's sum of |terms|); only on request
    GG_TC_NMODES
}
gg_tc_mode ;

// Parts of the product to run (for benchmarks; the product is Y = S * X only
// with GG_TC_PARTS_ALL).
typedef enum
{
    GG_TC_PARTS_ALL = 0,    // remainder, then the tensor-core part adds to it
    GG_TC_PARTS_TC,         // the tensor-core part alone (rows of windows
                            // with several segments then hold garbage)
    GG_TC_PARTS_REM         // the remainder alone
}
gg_tc_parts ;

// What the form holds (gg_tc_form_info).
typedef struct
{
    int64_t m, k, nnz ;
    int threshold, seg_blocks ;
    int absorb_pct, win_min ;   // the window rule (gg_tc_rule); 0: off
    int absorb_grow ;
    int64_t tc_nnz, rem_nnz ;   // entries in each part (sum = nnz)
    double tc_share ;           // tc_nnz / nnz
    int64_t nvec, nblk, nseg ;  // TC vectors, blocks of 8 vectors, segments
    double fill ;               // tc_nnz / (64 nblk): average block fill
    double vec_fill ;           // tc_nnz / (8 nvec): average vector fill
    size_t bytes ;              // device bytes of the form
    double build_ms ;           // build time (host clock around the build)
}
gg_tc_info ;

// Build the hybrid form of S.
//   m, k, nnz  S's shape and entries (nnz < 2^31 - 64, m, k < 2^31)
//   p          device, m+1 int32 row pointers
//   i          device, nnz int32 column indices, sorted within each row,
//              no duplicates
//   x          device, nnz values of `type` (GG_FP32 or GG_FP64; others:
//              GG_ERR_UNSUPPORTED); not iso.  NULL with type GG_INT32: the
//              index form of S's pattern (the tensor-core SDDMM's,
//              kernels/tc_sddmm/): val holds each TC position's entry of S
//              (its position in S + 1; 0 where absent), rx each remainder
//              entry's position in S and rrow its row (no SpMV plan);
//              gg_tc_spmm and gg_tc_set_row_out refuse it
//   threshold  entries (1..8) a window's 8x1 column vector needs to go to the
//              tensor-core part; <= 0: the default (3, Libra's 3 of 8)
//   seg_blocks blocks per segment (one warp's unit); <= 0: the default (16)
//   form       out: the form (host struct owning one device allocation);
//              NULL on error
//   stream     the stream the build runs on; the build synchronises it twice
//              (the parts' sizes are read on the host) and takes ~24 bytes
//              per entry of scratch, in one allocation, from the default
//              stream-ordered pool.
int gg_tc_build (int64_t m, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, gg_type type, int threshold,
    int seg_blocks, gg_hybrid_form **form, cudaStream_t stream) ;

// The split with a rule per window of 8 rows on top of the vectors' one
// (gg_tc_build: the vector rule alone, absorb_pct = win_min = 0).  After
// the vectors are counted, a window whose vectors of >= threshold entries
// hold fewer than win_min entries goes wholly to the remainder (a block is
// 8 rows of X read and 8 rows of Y read and written again, whatever its
// fill); else a window whose such vectors hold at least absorb_pct % of its
// entries goes wholly to the tensor-core part (each of its columns a
// vector, however few entries it has: its rows keep no remainder, and a
// form with no remainder is one launch), unless absorb_grow >= 1 and
// its blocks (ceil (its vectors / 8)) would be more than absorb_grow times
// the blocks of its TC vectors (ceil (those / 8)): windows of long rows,
// whose other columns would each make a vector of one entry.  absorb_pct
// outside 1..100, win_min <= 0 and absorb_grow <= 0: off.  Every entry
// still in exactly one part.
typedef struct
{
    int threshold ;             // as gg_tc_build's
    int seg_blocks ;            // as gg_tc_build's
    int absorb_pct ;            // 1..100: the share that takes a whole window
    int win_min ;               // >= 1: the least TC entries a window keeps
    int absorb_grow ;           // >= 1: the most a window's blocks may grow
                                // by absorbing
}
gg_tc_rule ;
int gg_tc_build_rule (int64_t m, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, gg_type type, const gg_tc_rule *rule,
    gg_hybrid_form **form, cudaStream_t stream) ;

// Make `form`, built from a row-permuted S (row q of the form = row perm [q]
// of S), write Y in S's own order: its rows to zero are put in S's row
// order on the device and form->row_out = perm (device, m entries, kept by
// the caller for the form's life).  Every kernel variant, and the
// remainder's (gg_cuda_spmm_plan_rows: the row, nnz and slot schedules),
// then stores row q to Y's row perm [q]; the remainder keeps the form's
// row order, so that its kernel reads X in the reordered rows' order.
// Synchronises the stream; GG_OK or GG_ERR_* (the form unchanged on error).
int gg_tc_set_row_out (gg_hybrid_form *form, const int32_t *perm, cudaStream_t stream) ;

// Free the form (stream-ordered free of its device allocation, then the host
// struct).  NULL is ignored.
void gg_tc_free (gg_hybrid_form *form, cudaStream_t stream) ;

// The form's device bytes.
size_t gg_tc_bytes (const gg_hybrid_form *form) ;

// The form's shares (info: out).
int gg_tc_form_info (const gg_hybrid_form *form, gg_tc_info *info) ;

// Y = S * X, PLUS_TIMES, through the form.
//   form       from gg_tc_build: FP32 (mode as below), or FP64 (DMMA, FP64
//              products and sums; mode and variant are ignored)
//   X          device, k x n row-major, finite values (see above)
//   Y          device, m x n row-major; rows of S without entries are left
//              unwritten
//   n          columns of X and Y (>= 1)
//   mode       a gg_tc_mode
//   stream     the stream (no synchronisation, no allocation)
int gg_tc_spmm (const gg_hybrid_form *form, const void *X, void *Y, int64_t n,
    int mode, cudaStream_t stream) ;

// The same with the kernel variant and the parts named (tests, benchmarks).
//   variant    NULL or "": the default; else one of gg_tc_variants ()
//   parts      a gg_tc_parts
//   remainder  NULL or "": the CUDA-core chooser's pick for the remainder;
//              else a variant name of gg_cuda_spmm
int gg_tc_spmm_ex (const gg_hybrid_form *form, const void *X, void *Y,
    int64_t n, int mode, const char *variant, int parts,
    const char *remainder, cudaStream_t stream) ;

// The CUDA-core kernel gg_tc_spmm_ex runs the remainder with when none is
// named: the chooser's pick for its CSR (m rows, its entries, longest row).
const char *gg_tc_rem_kernel (const gg_hybrid_form *form, int64_t n) ;

// The names of the tensor-core kernel variants, NULL-terminated: "direct2",
// "direct4" (X rows loaded to registers, 2 or 4 blocks in flight per warp),
// "cpasync2", "cpasync4" (X rows staged in shared memory by cp.async, 2 or 4
// stages), "fused" (one launch: a warp per window and 32 columns, remainder
// included), "team" (one launch: the warps of a thread block share a window,
// FP32; an FP64 form runs "fused").  Widths not a multiple of 4 (or X, Y not
// 16-byte aligned) run a scalar form whatever the name; "fused" and "team"
// take parts = GG_TC_PARTS_ALL only.
const char *const *gg_tc_variants (void) ;

// The name of a gg_tc_mode ("exact", "exact3", "exact4", "tf32").
const char *gg_tc_mode_name (int mode) ;

// *flag_dev (device int32) = 1 if any of the count values at ptr (device,
// of `type`: GG_FP32 or GG_FP64, else GG_ERR_UNSUPPORTED) is an Inf or a
// NaN, else 0.  Asynchronous on `stream` (the caller reads the flag).
int gg_cuda_has_nonfinite (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream) ;

// *flag_dev (device int32) = 1 if any of the count values at ptr (device,
// GG_FP32 or GG_FP64) is outside the range where the family is exact, else
// 0.  FP64: every value a finite normal number (no zero of either sign, no
// subnormal, no infinity, no NaN).  FP32: every magnitude in [2^-51, 2^63]
// (which excludes those too).  Where S's values and X pass, every product
// of the tensor-core part is a nonzero finite number, so the padding zeros
// and the tensor core's +0 start cannot change a result's sign of zero or
// turn an infinity into a NaN; and in FP32 the smallest products of the
// split's parts (~2^-22 of s x, s x >= 2^-102) stay normal numbers and the
// rounded leading parts cannot overflow (s1 x1 <= ~2^126): the exact modes
// are as accurate as FP32 CUDA-core arithmetic there.  (Below the range
// they are not: S scaled by 2^-124 gave exact mode 2.3e-4 of sum |s x|
// against the CUDA-core kernel's 1.4e-7, test_tc_spmm's probe, H200.)
// Asynchronous on `stream`.
int gg_tc_values_plain (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream) ;

// The same but zeros of either sign pass: for kernels that set the sign of
// a zero result apart (the N:M tensor-core row, backend/cuda/family_nm.c),
// so that a nonzero value still lies in the split's range.  (The two-way
// split leaves more than 2^-22 of a value just above 2^-126: it is rounded
// at TF32's subnormal spacing; tests/test_tc_round.c.)
int gg_tc_values_range (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream) ;

#ifdef __cplusplus
}
#endif
#endif
