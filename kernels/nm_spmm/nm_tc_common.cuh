//------------------------------------------------------------------------------
// kernels/nm_spmm/nm_tc_common.cuh: what the tensor-core N:M code shares
//------------------------------------------------------------------------------

// The tiles and pipe stages of the tensor-core N:M kernels
// (nm_spmm_tc.cu) and the passes around them (nm_spmm_tc_prep.cu: the
// form's split values and X' rows, the zero signs): a tile of BC output
// columns shares its slot positions (op.tc32), slots are taken PS at a time,
// and op.wtc holds per (tile, pipe stage) WTC_STAGE float4 of split values,
// then per (tile, pipe stage) the X' rows of its PS slots.

#ifndef GG_NM_TC_COMMON_CUH
#define GG_NM_TC_COMMON_CUH

#include "kernels/nm_spmm/nm_spmm.h"
#include "kernels/tc_spmm/tc_device.cuh"

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr int BC = 32 ;                 // output columns per block (a tile)
constexpr int PS = 16 ;                 // slots per pipe stage
constexpr int WTC_STAGE = 2 * 2 * 2 * 32 ;     // float4 per (tile, stage): k8, mi, part, lane

// pipe stages of PS slots
__host__ __device__ __forceinline__ int64_t tc_npipe (const gg_nm_spmm_op &W)
{
    return (W.stages * W.geom.ws + PS - 1) / PS ;
}

// The X' row that slot u of the tile at column c0 reads, or -1 (no entry in
// any of the tile's columns).  The layout keeps one index per column, or
// (SHARED) one per 8 columns; the tile's agree wherever they have one
// (op.tc32), and an absent slot is ks, so the smallest is the tile's.
template <bool SHARED>
__device__ __forceinline__ int slot_row (const gg_nm_spmm_op &W,
    int u, int64_t c0, int64_t ldd)
{
    const int ks = W.geom.ks ;
    uint32_t w4 ;
    if (SHARED)
    {
        w4 = __ldg ((const unsigned int *) (W.idx + u * ldd + c0 / 8)) ;
    }
    else
    {
        const uint4 *q = (const uint4 *) (W.idx + u * ldd + c0) ;
        const uint4 lo = __ldg (q), hi = __ldg (q + 1) ;
        w4 = __vminu4 (__vminu4 (__vminu4 (lo.x, lo.y), __vminu4 (lo.z, lo.w)),
                       __vminu4 (__vminu4 (hi.x, hi.y), __vminu4 (hi.z, hi.w))) ;
    }
    int e = min (min ((int) (w4 & 0xff), (int) ((w4 >> 8) & 0xff)),
                 min ((int) ((w4 >> 16) & 0xff), (int) (w4 >> 24))) ;
    if (e >= ks) return -1 ;
    const int st = u / W.geom.ws ;
    if (W.packed)
    {
        // col_info: e is a rank among the positions of the 128-column tile
        e = __ldg (W.cols + ((c0 / W.geom.bn) * W.stages + st) * ks + e) ;
        if (e >= ks) return -1 ;
    }
    const int64_t row = (int64_t) st * ks + e ;
    return (row < W.k) ? (int) row : -1 ;
}

} // namespace

#endif
