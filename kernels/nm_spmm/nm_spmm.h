//------------------------------------------------------------------------------
// kernels/nm_spmm/nm_spmm.h: dense X times N:M-sparse W on CUDA cores
//------------------------------------------------------------------------------

// Y (B x n, row-major) = X (B x k, row-major) * W (k x n), W given as the
// device layout of nm_geom.h; or, trans, the same product with X given as
// X' (k x B, row-major) and Y written as Y' (n x B, row-major): the SpMM
// family's Y' = S X' with S = W' (how GrB_mxm's dense x sparse arrives,
// backend/dispatch/classify.c), and NM-SpMM's own layout (X k-major).  W is
// built on the host by formats/nm_layout.c.  PLUS_TIMES over float (esz 4)
// or double (esz 8).  NM-SpMM's schedule
// (block tile of 128 x 128 for float, 64 x 64 for double; thread tile 8 x 8
// / 4 x 4; X tiles double-buffered in shared memory through cp.async; the
// slot indices of the stage shared by a thread's columns when the layout
// allows it).  Exact: one rounded product and one rounded sum per entry
// (built with -fmad=false), in ascending k, starting from -0; or, with
// flags GG_NM_SPMM_FMA (trans only), one fused multiply-add per entry
// (rounded once: at least as accurate, and the arithmetic of CUDA cores and
// the vendor libraries; the same order), which the SpMM family uses where
// the vendor's value check allows it (no Inf, NaN or subnormal read).
// Every element of Y is written.  Launches on `stream`, no copy, no
// synchronisation.  Returns GG_OK, GG_ERR_UNSUPPORTED (bad geometry, k == 0,
// X not aligned to its element size) or GG_ERR_DEVICE (a CUDA call failed).

#ifndef GG_NM_SPMM_H
#define GG_NM_SPMM_H

#include <cuda_runtime_api.h>
#include "kernels/gg_kernels.h"
#include "kernels/nm_spmm/nm_geom.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GG_NM_SPMM_FMA 1u

int gg_cuda_nm_spmm (const gg_nm_spmm_op *W, int64_t B, const void *X,
    void *Y, bool trans, unsigned flags, cudaStream_t stream) ;

// The same product (X' and Y' k-major, trans above) on tensor cores
// (nm_spmm_tc.cu), FP32 only, for a layout whose 32-column tiles share their
// positions (op.tc32: vector-wise N:M) and B a multiple of 4, X' on 16
// bytes.  mode: GG_TC_EXACT3 (two TF32 parts, as accurate as FP32 CUDA-core
// sums: the default), GG_TC_EXACT (three parts) or GG_TC_TF32 (one TF32
// product, opt-in), the modes of kernels/tc_spmm/tc_spmm.h.  Exact where
// W's entries and X are finite and not subnormal (the caller checks), once
// gg_cuda_nm_zero_signs has given the zeros of the result their sign.
bool gg_nm_spmm_tc_fits (const gg_nm_spmm_op *W, int64_t B) ;
int gg_cuda_nm_spmm_tc (const gg_nm_spmm_op *W, int64_t B, const void *Xt,
    void *Yt, int mode, cudaStream_t stream) ;
// (the same with one of the kernels' schedules, 0, 1, 4 or 5, or -1: the rule
// gg_cuda_nm_spmm_tc uses; for bench/nm_gpu_bench)
int gg_cuda_nm_spmm_tc_cfg (const gg_nm_spmm_op *W, int64_t B, const void *Xt,
    void *Yt, int mode, int cfg, cudaStream_t stream) ;
// W's values split in two TF32 parts in the MMA's fragment order, and the
// X' row of every (tile, stage, slot), into buf (nm_spmm_tc_prep.cu; its
// size gg_nm_spmm_tc_prep_bytes, on 16 bytes; 0: not a tc32 layout): sets
// W->wtc, which the second kernel reads (schedule 4; same arithmetic,
// fewer instructions per MMA), chosen by gg_cuda_nm_spmm_tc where W->wtc is
// set, Yt is on 16 bytes and the mode is not GG_TC_EXACT.
size_t gg_nm_spmm_tc_prep_bytes (const gg_nm_spmm_op *W) ;
int gg_cuda_nm_spmm_tc_prep (gg_nm_spmm_op *W, void *buf, cudaStream_t stream) ;
// Y (m x n, the family's orientation: Y' above) = S X (S m x k in CSR, FP32
// values sx, X k x n row-major): each zero of Y that should be -0 (every
// product -0) made -0; the other values are not touched (nm_spmm_tc_prep.cu).
int gg_cuda_nm_zero_signs (int64_t m, int64_t n, const int32_t *p,
    const int32_t *i, const void *sx, const void *X, void *Y, cudaStream_t stream) ;

#ifdef __cplusplus
}
#endif

#endif
