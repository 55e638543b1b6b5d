//------------------------------------------------------------------------------
// kernels/tc_spmm/tc_device.cuh: the tensor-core kernels' shared device code
//------------------------------------------------------------------------------

// Included by tc_spmm.cu (the split FP32 kernel and the launchers) and
// tc_fused.cu (the FP64 DMMA kernel and the fused kernels); tc_spmm.cu's
// header comment describes the layout and the arithmetic.

#ifndef GG_TC_DEVICE_CUH
#define GG_TC_DEVICE_CUH

#include <cstdint>
#include <cuda_runtime.h>
#include "kernels/gg_cuda.h"
#include "kernels/tc_spmm/tc_spmm.h"
#include "kernels/tc_spmm/tc_round.h"

#define TC_WARPS 4                      // warps per block of threads
#define TC_SEG_MAX 32                   // most blocks per segment (build clamps)

//------------------------------------------------------------------------------
// device helpers
//------------------------------------------------------------------------------

// the TF32 split (kernels/tc_spmm/tc_round.h, shared with the CPU test of
// its exactness), NS parts
template <int NS>
__device__ __forceinline__ void tc_split (float a, uint32_t (&s) [3])
{
    gg_tc_split (a, NS, s) ;
}

// d = A (16x8) * B (8x8) + c
__device__ __forceinline__ void tc_mma (float (&d) [4], uint32_t a0, uint32_t a1,
    uint32_t a2, uint32_t a3, uint32_t b0, uint32_t b1, const float (&c) [4])
{
    asm ("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
        : "=f" (d [0]), "=f" (d [1]), "=f" (d [2]), "=f" (d [3])
        : "r" (a0), "r" (a1), "r" (a2), "r" (a3), "r" (b0), "r" (b1),
          "f" (c [0]), "f" (c [1]), "f" (c [2]), "f" (c [3])) ;
}

// the splits and products of one mode
template <int MODE> struct tc_prec ;
template <> struct tc_prec<GG_TC_EXACT>  { enum { NS = 3 } ; } ;
template <> struct tc_prec<GG_TC_EXACT3> { enum { NS = 2 } ; } ;
template <> struct tc_prec<GG_TC_EXACT4> { enum { NS = 2 } ; } ;
template <> struct tc_prec<GG_TC_TF32>   { enum { NS = 1 } ; } ;

// one block, one MMA column tile: x = (X [c_t] [2 cols], X [c_{t+4}] [2 cols])
// as (a0, a1, a2, a3), s = (S (g, t), S (g, t+4)) as (b0, b1)
template <int MODE>
__device__ __forceinline__ void tc_block_tile (float (&big) [4], float (&small) [4],
    float x0, float x1, float x2, float x3, const uint32_t (&s0) [3],
    const uint32_t (&s1) [3])
{
    constexpr int NS = tc_prec<MODE>::NS ;
    uint32_t a0 [3], a1 [3], a2 [3], a3 [3] ;
    tc_split<NS> (x0, a0) ; tc_split<NS> (x1, a1) ;
    tc_split<NS> (x2, a2) ; tc_split<NS> (x3, a3) ;
    if (MODE == GG_TC_TF32)
    {
        tc_mma (big, a0 [0], a1 [0], a2 [0], a3 [0], s0 [0], s1 [0], big) ;
        return ;
    }
    // small products first, smallest first (chained: their error is scaled
    // by 2^-11 against the leading one)
    if (MODE == GG_TC_EXACT)
    {
        tc_mma (small, a0 [2], a1 [2], a2 [2], a3 [2], s0 [0], s1 [0], small) ;
        tc_mma (small, a0 [0], a1 [0], a2 [0], a3 [0], s0 [2], s1 [2], small) ;
    }
    if (MODE == GG_TC_EXACT || MODE == GG_TC_EXACT4)
        tc_mma (small, a0 [1], a1 [1], a2 [1], a3 [1], s0 [1], s1 [1], small) ;
    tc_mma (small, a0 [1], a1 [1], a2 [1], a3 [1], s0 [0], s1 [0], small) ;
    tc_mma (small, a0 [0], a1 [0], a2 [0], a3 [0], s0 [1], s1 [1], small) ;
    // the leading product: the block's sum with C = 0, then a rounded add
    const float z [4] = { 0, 0, 0, 0 } ;
    float d [4] ;
    tc_mma (d, a0 [0], a1 [0], a2 [0], a3 [0], s0 [0], s1 [0], z) ;
#pragma unroll
    for (int q = 0 ; q < 4 ; q++) big [q] += d [q] ;
}

// one block: two MMA column tiles (columns 4g + 0/1 and 4g + 2/3)
template <int MODE>
__device__ __forceinline__ void tc_block (float (&big) [2][4], float (&small) [2][4],
    const float4 &xa, const float4 &xb, const float2 &sv)
{
    constexpr int NS = tc_prec<MODE>::NS ;
    uint32_t s0 [3], s1 [3] ;
    tc_split<NS> (sv.x, s0) ;
    tc_split<NS> (sv.y, s1) ;
    tc_block_tile<MODE> (big [0], small [0], xa.x, xa.y, xb.x, xb.y, s0, s1) ;
    tc_block_tile<MODE> (big [1], small [1], xa.z, xa.w, xb.z, xb.w, s0, s1) ;
}

// X [c] [j .. j+3] (zero where c < 0 or a column is >= n).  The vector form
// loads unconditionally (from X itself where there is nothing to read) and
// selects, so that the compiler can issue a whole batch of loads at once.
template <bool VEC>
__device__ __forceinline__ float4 tc_load_x (const float *__restrict__ X, int32_t c,
    int64_t n, int64_t j)
{
    float4 v = make_float4 (0, 0, 0, 0) ;
    if (VEC)
    {
        const bool ok = c >= 0 && j < n ;
        const float *q = ok ? X + (int64_t) c * n + j : X ;
        const float4 u = __ldg ((const float4 *) q) ;
        return ok ? u : v ;
    }
    if (c < 0 || j >= n) return v ;
    const float *q = X + (int64_t) c * n + j ;
    v.x = __ldg (q) ;
    if (j + 1 < n) v.y = __ldg (q + 1) ;
    if (j + 2 < n) v.z = __ldg (q + 2) ;
    if (j + 3 < n) v.w = __ldg (q + 3) ;
    return v ;
}

// A run of nb blocks' columns (from block b0), as the (slot t, slot t+4)
// pairs of each block, into this warp's shared staging (then synced).
__device__ __forceinline__ void tc_stage_cols (int2 *__restrict__ cols,
    const int32_t *__restrict__ col, int32_t b0, int nb, int lane)
{
    const int2 *src = (const int2 *) col + (int64_t) b0 * 4 ;
    for (int q = lane ; q < nb * 4 ; q += 32) cols [q] = __ldg (src + q) ;
    __syncwarp () ;
}

// The same as the offsets of those columns' rows in X (c * n elements, 32
// bits: the launchers take k * n < 2^32 only, so no offset is TC_PAD).  A
// padding slot (c < 0): with PAD, TC_PAD (the cp.async ring copies zeros
// for it and reads nothing); without, the row of its block's slot 0 (every
// block holds a vector there): its values are 0 and X is finite, so what it
// reads adds nothing (0 * x is a zero, and a zero term changes no sum but
// the sign of an all-zero one, which the family's operands cannot make:
// tc_spmm.h), and it reads the address the slot-0 lanes of the same load
// read.  A direct load is then one IMAD.WIDE.U32 and the load, with no test.
// (Padding as row 0 for both, or as slot 0's row for the ring, made the
// cp.async.cg ring, which reads through L2 only, up to 3-4x slower where
// many blocks are mostly padding: road networks, arrow; 2026-11-29 eighth
// session.)
#define TC_PAD 0xffffffffu
template <bool PAD>
__device__ __forceinline__ void tc_stage_offs (uint2 *__restrict__ offs,
    const int32_t *__restrict__ col, int32_t b0, int nb, int lane, uint32_t n)
{
    const int2 *src = (const int2 *) col + (int64_t) b0 * 4 ;
    for (int q = lane ; q < nb * 4 ; q += 32)
    {
        int2 c = __ldg (src + q) ;
        if (PAD)
        {
            offs [q] = make_uint2 (c.x < 0 ? TC_PAD : (uint32_t) c.x * n,
                                   c.y < 0 ? TC_PAD : (uint32_t) c.y * n) ;
            continue ;
        }
        if (c.x < 0 || c.y < 0)
        {
            const int32_t c0 = __ldg (col + ((int64_t) b0 + q / 4) * 8 + GG_HYB_COL_POS (0)) ;
            if (c.x < 0) c.x = c0 ;
            if (c.y < 0) c.y = c0 ;
        }
        offs [q] = make_uint2 ((uint32_t) c.x * n, (uint32_t) c.y * n) ;
    }
    __syncwarp () ;
}

// This lane's base in X for tc_load_off: X + j, where a lane of W columns
// (4, or 2 in the narrow tile) past the last column reads the last W instead
// (its sums are not stored; n >= 4 where VEC)
template <bool VEC, int W = 4>
__device__ __forceinline__ const float *tc_xj (const float *X, int64_t n, int64_t j)
{
    return X + ((VEC && j > n - W) ? n - W : j) ;
}

// X [row at offset off] [j .. j+3] from xj = tc_xj (X, n, j): zeros past
// the last column in the scalar form (VEC: no test, see tc_xj)
template <bool VEC>
__device__ __forceinline__ float4 tc_load_off (const float *__restrict__ xj, uint32_t off,
    int64_t n, int64_t j)
{
    if (VEC) return __ldg ((const float4 *) (xj + off)) ;
    float4 v = make_float4 (0, 0, 0, 0) ;
    if (j >= n) return v ;
    const float *q = xj + off ;
    v.x = __ldg (q) ;
    if (j + 1 < n) v.y = __ldg (q + 1) ;
    if (j + 2 < n) v.z = __ldg (q + 2) ;
    if (j + 3 < n) v.w = __ldg (q + 3) ;
    return v ;
}

// nb blocks (row offsets staged in offs, values from vals = the run's first
// block's values + lane) into the accumulators, U blocks' X rows loaded
// before they are used; past the run's end: its last block again, with
// values 0
template <int MODE, int U, bool VEC>
__device__ __forceinline__ void tc_blocks_direct (const uint2 *__restrict__ offs,
    const float2 *__restrict__ vals, int nb, int t, const float *__restrict__ xj,
    int64_t n, int64_t j, float (&big) [2][4], float (&small) [2][4])
{
    for (int b = 0 ; b < nb ; b += U)
    {
        float4 xa [U], xb [U] ;
        float2 sv [U] ;
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const bool ok = b + u < nb ;
            const int bu = ok ? b + u : nb - 1 ;
            const uint2 cc = offs [bu * 4 + t] ;
            xa [u] = tc_load_off<VEC> (xj, cc.x, n, j) ;
            xb [u] = tc_load_off<VEC> (xj, cc.y, n, j) ;
            const float2 v = __ldg (vals + (int64_t) bu * 32) ;
            sv [u] = ok ? v : make_float2 (0, 0) ;
        }
#pragma unroll
        for (int u = 0 ; u < U ; u++) tc_block<MODE> (big, small, xa [u], xb [u], sv [u]) ;
    }
}

// Blocks bb .. be - 1 (any number) into fresh accumulators, in runs of at
// most TC_SEG_MAX whose row offsets are staged in this warp's offs (the
// fused and team kernels: a window, or a share of one, per warp)
template <int MODE, int U, bool VEC>
__device__ __forceinline__ void tc_blocks_run (uint2 *__restrict__ offs,
    const int32_t *__restrict__ col, const float2 *__restrict__ val, int32_t bb, int32_t be,
    int lane, int t, const float *__restrict__ X, int64_t n, int64_t j,
    float (&big) [2][4], float (&small) [2][4])
{
#pragma unroll
    for (int a = 0 ; a < 2 ; a++)
#pragma unroll
        for (int q = 0 ; q < 4 ; q++) { big [a][q] = 0 ; small [a][q] = 0 ; }
    const float *xj = tc_xj<VEC> (X, n, j) ;
    for (int32_t b0 = bb ; b0 < be ; b0 += TC_SEG_MAX)
    {
        const int nb = (be - b0 < TC_SEG_MAX) ? be - b0 : TC_SEG_MAX ;
        __syncwarp () ;        // (the previous run's offsets are read)
        tc_stage_offs<false> (offs, col, b0, nb, lane, (uint32_t) n) ;
        tc_blocks_direct<MODE, U, VEC> (offs, val + (int64_t) b0 * 32 + lane, nb, t, xj, n, j,
            big, small) ;
    }
}

// D fragments -> rows 8w + 2t (c0, c2 of both tiles: y0) and 8w + 2t + 1
// (c1, c3: y1); the exact modes add the small products' sum last
template <int MODE>
__device__ __forceinline__ void tc_rows (const float (&big) [2][4],
    const float (&small) [2][4], float4 &y0, float4 &y1)
{
    if (MODE == GG_TC_TF32)
    {
        y0 = make_float4 (big [0][0], big [0][2], big [1][0], big [1][2]) ;
        y1 = make_float4 (big [0][1], big [0][3], big [1][1], big [1][3]) ;
    }
    else
    {
        y0 = make_float4 (big [0][0] + small [0][0], big [0][2] + small [0][2],
                          big [1][0] + small [1][0], big [1][2] + small [1][2]) ;
        y1 = make_float4 (big [0][1] + small [0][1], big [0][3] + small [0][3],
                          big [1][1] + small [1][1], big [1][3] + small [1][3]) ;
    }
}

// acc += v x, one product and one add per element (no fused multiply-add:
// the project builds with -fmad=false)
__device__ __forceinline__ void tc_axpy4 (float4 &acc, float v, const float4 &x)
{
    acc.x = acc.x + v * x.x ; acc.y = acc.y + v * x.y ;
    acc.z = acc.z + v * x.z ; acc.w = acc.w + v * x.w ;
}
__device__ __forceinline__ void tc_add4 (float4 &acc, const float4 &x)
{
    acc.x = acc.x + x.x ; acc.y = acc.y + x.y ; acc.z = acc.z + x.z ; acc.w = acc.w + x.w ;
}

__device__ __forceinline__ void tc_cp_async16 (void *smem, const void *gmem, bool valid)
{
    const unsigned s = (unsigned) __cvta_generic_to_shared (smem) ;
    const int bytes = valid ? 16 : 0 ;     // 0: fill with zeros, read nothing
    asm volatile ("cp.async.cg.shared.global [%0], [%1], 16, %2;"
        :: "r" (s), "l" (gmem), "r" (bytes) : "memory") ;
}
__device__ __forceinline__ void tc_cp_commit (void)
{
    asm volatile ("cp.async.commit_group;" ::: "memory") ;
}
template <int N> __device__ __forceinline__ void tc_cp_wait (void)
{
    asm volatile ("cp.async.wait_group %0;" :: "n" (N) : "memory") ;
}

// Y [r] [j .. j+3] = v (+ Y [r] [j .. j+3] when add); atomically when shared
template <bool VEC>
__device__ __forceinline__ void tc_store (float *__restrict__ Y, int64_t r, int64_t n,
    int64_t j, float4 v, bool add, bool shared)
{
    if (j >= n) return ;
    float *q = Y + r * n + j ;
    if (shared)
    {
        if (VEC) { atomicAdd ((float4 *) q, v) ; return ; }
        atomicAdd (q, v.x) ;
        if (j + 1 < n) atomicAdd (q + 1, v.y) ;
        if (j + 2 < n) atomicAdd (q + 2, v.z) ;
        if (j + 3 < n) atomicAdd (q + 3, v.w) ;
        return ;
    }
    if (VEC)
    {
        if (add)
        {
            const float4 o = *(const float4 *) q ;
            v.x = o.x + v.x ; v.y = o.y + v.y ; v.z = o.z + v.z ; v.w = o.w + v.w ;
        }
        *(float4 *) q = v ;
        return ;
    }
    q [0] = add ? q [0] + v.x : v.x ;
    if (j + 1 < n) q [1] = add ? q [1] + v.y : v.y ;
    if (j + 2 < n) q [2] = add ? q [2] + v.z : v.z ;
    if (j + 3 < n) q [3] = add ? q [3] + v.w : v.w ;
}

// Y [r] [j .. j+1] = v (+ Y [r] [j .. j+1] when add); atomically when
// shared (the narrow tile: n % 4 == 0, so both columns exist where j < n)
__device__ __forceinline__ void tc_store2 (float *__restrict__ Y, int64_t r, int64_t n,
    int64_t j, float2 v, bool add, bool shared)
{
    if (j >= n) return ;
    float2 *q = (float2 *) (Y + r * n + j) ;
    if (shared) { atomicAdd (q, v) ; return ; }
    if (add)
    {
        const float2 o = *q ;
        v.x = o.x + v.x ; v.y = o.y + v.y ;
    }
    *q = v ;
}

__device__ __forceinline__ void tc_dmma (double (&d) [2], double a, double b)
{
    asm ("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 "
        "{%0, %1}, {%2}, {%3}, {%0, %1};"
        : "+d" (d [0]), "+d" (d [1]) : "d" (a), "d" (b)) ;
}

template <bool VEC>
__device__ __forceinline__ void tc_load_x4 (const double *__restrict__ X, int32_t c,
    int64_t n, int64_t j, double (&v) [4])
{
    v [0] = v [1] = v [2] = v [3] = 0 ;
    if (VEC)
    {
        const bool ok = c >= 0 && j < n ;
        const double *q = ok ? X + (int64_t) c * n + j : X ;
        const double2 u0 = __ldg ((const double2 *) q), u1 = __ldg ((const double2 *) q + 1) ;
        if (ok) { v [0] = u0.x ; v [1] = u0.y ; v [2] = u1.x ; v [3] = u1.y ; }
        return ;
    }
    if (c < 0) return ;
    const double *q = X + (int64_t) c * n + j ;
#pragma unroll
    for (int e = 0 ; e < 4 ; e++) if (j + e < n) v [e] = __ldg (q + e) ;
}

template <bool VEC>
__device__ __forceinline__ void tc_store4 (double *__restrict__ Y, int64_t r, int64_t n,
    int64_t j, const double (&v) [4], bool add, bool shared)
{
    if (j >= n) return ;
    double *q = Y + r * n + j ;
    if (shared)
    {
#pragma unroll
        for (int e = 0 ; e < 4 ; e++) if (j + e < n) atomicAdd (q + e, v [e]) ;
        return ;
    }
    if constexpr (VEC)
    {
        double2 a = make_double2 (v [0], v [1]), b = make_double2 (v [2], v [3]) ;
        if (add)
        {
            const double2 oa = ((const double2 *) q) [0], ob = ((const double2 *) q) [1] ;
            a.x = oa.x + a.x ; a.y = oa.y + a.y ; b.x = ob.x + b.x ; b.y = ob.y + b.y ;
        }
        ((double2 *) q) [0] = a ; ((double2 *) q) [1] = b ;
    }
    else
    {
#pragma unroll
        for (int e = 0 ; e < 4 ; e++) if (j + e < n) q [e] = add ? q [e] + v [e] : v [e] ;
    }
}

// U blocks' X rows loaded before they are used; rp == NULL: plain stores
// nb blocks (as tc_blocks_direct) into the DMMA accumulators: acc [q] for
// columns j + q, U blocks' X rows loaded before they are used
template <int U, bool VEC>
__device__ __forceinline__ void tc_dmma_blocks (const int2 *__restrict__ cols,
    const double2 *__restrict__ vals, int nb, int t, const double *__restrict__ X,
    int64_t n, int64_t j, double (&acc) [4][2])
{
    for (int b = 0 ; b < nb ; b += U)
    {
        double xa [U][4], xb [U][4] ;
        double2 sv [U] ;
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const bool ok = (U == 1) || b + u < nb ;    // (one block: always)
            const int bu = ok ? b + u : nb - 1 ;
            const int2 cc = cols [bu * 4 + t] ;
            tc_load_x4<VEC> (X, cc.x, n, j, xa [u]) ;
            tc_load_x4<VEC> (X, cc.y, n, j, xb [u]) ;
            const double2 v = __ldg (vals + (int64_t) bu * 32) ;
            sv [u] = ok ? v : make_double2 (0, 0) ;
        }
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            if (U > 1 && b + u >= nb) break ;
#pragma unroll
            for (int q = 0 ; q < 4 ; q++)
            {
                tc_dmma (acc [q], xa [u][q], sv [u].x) ;
                tc_dmma (acc [q], xb [u][q], sv [u].y) ;
            }
        }
    }
}

// the launchers of tc_fused.cu (grid: thread blocks of TC_WARPS warps)
int tc_launch_dmma (const gg_hybrid_form *f, const void *X, void *Y, int64_t n,
    bool run_rem, bool vec, int64_t grid, int64_t ntiles, cudaStream_t stream) ;
int tc_launch_fused (const gg_hybrid_form *f, const void *X, void *Y, int64_t n,
    int mode, bool vec, int64_t ntiles, cudaStream_t stream) ;
int tc_launch_team (const gg_hybrid_form *f, const void *X, void *Y, int64_t n,
    int mode, bool vec, int64_t ntiles, cudaStream_t stream) ;

#endif
