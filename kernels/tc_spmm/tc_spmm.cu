//------------------------------------------------------------------------------
// kernels/tc_spmm/tc_spmm.cu: tensor-core hybrid SpMM (mma.sync TF32, split)
//------------------------------------------------------------------------------

// Y = S * X through the hybrid form of S (formats/hybrid.h): the remainder
// (a CSR) through gg_cuda_spmm_plan first, then the tensor-core kernel adds
// the blocks' products into the rows it wrote (same stream: no atomics
// between the two; rows of windows cut into several segments are added with
// atomics, zeroed first where the remainder did not write them).
//
// The tensor-core kernel (swap-and-transpose): a block holds 8 window rows x
// 8 slots (columns c_0..c_7 of S).  Y (8 rows, N) += S_blk (8 x 8) * X_g
// (8 x N), X_g = rows c_0..c_7 of X, is computed transposed,
//   Y' (N x 8) += X_g' (N x 8) * S_blk' (8 x 8),
// so that the dense operand is the MMA's A (m16n8k8: 16 columns of X by the
// 8 slots) and the sparse block is B (8 slots x 8 rows).  A warp owns one
// segment (<= seg_blocks blocks of one window) and 32 columns of X: lane
// (g = lane / 4, t = lane % 4) reads X [c_t] [n0 + 4g .. 4g+3] and
// X [c_{t+4}] [n0 + 4g .. 4g+3] (two 16-byte loads; the 8 lanes of a slot
// read 128 contiguous bytes), which are the A fragments of two MMAs when
// MMA row g stands for column n0 + 4g + 2j and row g + 8 for n0 + 4g + 2j + 1
// (j = 0, 1).  Its D fragments then hold Y [8w + 2t] and Y [8w + 2t + 1] at
// columns n0 + 4g .. 4g+3: one 16-byte store per row.  The block's values
// are stored in B-fragment order (one 8-byte load per lane).  Each X value
// feeds 8 multiplies in the MMA: the reuse a CUDA-core kernel cannot have.
//
// Staging variants: "direct<U>" loads U blocks' X rows to registers before
// using them; "cpasync<S>" copies them with cp.async into an S-stage ring in
// shared memory (each lane reads back only what it copied: no barrier but
// cp.async.wait_group).  Both read the segment's column indices into shared
// memory once.
//
// Precision: exact modes split a = a1 + a2 (+ a3), a_i = tf32 (a - a_1 - ...
// - a_{i-1}) rounded to nearest; the leading product s1*x1 of a block is
// summed with C = 0 and added to the running sum by an FP32 add (the tensor
// core's own accumulation truncates: chaining all blocks in it would bias
// long rows), the small products are chained in a second accumulator (their
// truncation is 2^-11 smaller), and the two are added at the end.

#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>
#include "kernels/gg_cuda.h"
#include "kernels/tc_spmm/tc_spmm.h"

#define TC_WARPS 4                      // warps per block of threads
#define TC_SEG_MAX 32                   // most blocks per segment (build clamps)

//------------------------------------------------------------------------------
// device helpers
//------------------------------------------------------------------------------

__device__ __forceinline__ uint32_t tc_tf32 (float a)
{
    uint32_t r ;
    asm ("cvt.rna.tf32.f32 %0, %1;" : "=r" (r) : "f" (a)) ;
    return r ;
}

// a -> NS TF32 parts (exact differences: a - a1 is exact in FP32)
template <int NS>
__device__ __forceinline__ void tc_split (float a, uint32_t (&s) [3])
{
    s [0] = tc_tf32 (a) ;
    if (NS > 1)
    {
        const float r1 = a - __uint_as_float (s [0]) ;
        s [1] = tc_tf32 (r1) ;
        if (NS > 2) s [2] = tc_tf32 (r1 - __uint_as_float (s [1])) ;
    }
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

//------------------------------------------------------------------------------
// the tensor-core kernel
//------------------------------------------------------------------------------

// STAGE > 0: cp.async ring of STAGE stages; STAGE < 0: direct, -STAGE blocks
// in flight.  rp == NULL: nothing to add to (plain stores).
template <int MODE, int STAGE, bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_spmm_kernel (const int32_t *__restrict__ col, const float2 *__restrict__ val,
    const int32_t *__restrict__ seg_blk, const uint32_t *__restrict__ seg_win,
    int64_t nseg, int64_t ntiles, const int32_t *__restrict__ rp,
    const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const float *__restrict__ X, float *__restrict__ Y)
{
    constexpr int NST = (STAGE > 0) ? STAGE : 1 ;
    __shared__ int2 cols_s [TC_WARPS][TC_SEG_MAX * 4] ;
    __shared__ float4 ring_s [TC_WARPS][NST][2][32] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t seg = gw / ntiles ;
    if (seg >= nseg) return ;
    const int64_t n0 = (gw % ntiles) * 32 ;
    const int64_t j = n0 + 4 * g ;          // this lane's 4 columns
    const int32_t b0 = seg_blk [seg], b1 = seg_blk [seg + 1] ;
    const uint32_t wv = seg_win [seg] ;
    const int64_t w = wv & ~GG_HYB_SEG_SHARED ;
    const bool shared = (wv & GG_HYB_SEG_SHARED) != 0 ;
    const int nb = b1 - b0 ;

    // the segment's columns, as the (slot t, slot t+4) pairs of each block
    {
        const int2 *src = (const int2 *) col + (int64_t) b0 * 4 ;
        for (int q = lane ; q < nb * 4 ; q += 32) cols_s [wid][q] = __ldg (src + q) ;
        __syncwarp () ;
    }

    float big [2][4], small [2][4] ;
#pragma unroll
    for (int a = 0 ; a < 2 ; a++)
#pragma unroll
        for (int q = 0 ; q < 4 ; q++) { big [a][q] = 0 ; small [a][q] = 0 ; }

    const float2 *vals = val + (int64_t) b0 * 32 + lane ;
    if constexpr (STAGE < 0)
    {
        constexpr int U = -STAGE ;
        for (int b = 0 ; b < nb ; b += U)
        {
            float4 xa [U], xb [U] ;
            float2 sv [U] ;
#pragma unroll
            for (int u = 0 ; u < U ; u++)
            {
                // past the segment's end: block nb - 1 again, with values 0
                const bool ok = b + u < nb ;
                const int bu = ok ? b + u : nb - 1 ;
                const int2 cc = cols_s [wid][bu * 4 + t] ;
                xa [u] = tc_load_x<VEC> (X, cc.x, n, j) ;
                xb [u] = tc_load_x<VEC> (X, cc.y, n, j) ;
                const float2 v = __ldg (vals + (int64_t) bu * 32) ;
                sv [u] = ok ? v : make_float2 (0, 0) ;
            }
#pragma unroll
            for (int u = 0 ; u < U ; u++) tc_block<MODE> (big, small, xa [u], xb [u], sv [u]) ;
        }
    }
    else
    {
        // cp.async ring: block b lives in stage b % STAGE; STAGE - 1 blocks
        // are in flight ahead of the one being multiplied
        const float *xbase = X + j ;
        const bool jok = j < n ;
        auto issue = [&] (int b)
        {
            const int st = b % NST ;
            int2 cc = make_int2 (-1, -1) ;
            if (b < nb) cc = cols_s [wid][b * 4 + t] ;
            const bool va = jok && cc.x >= 0, vb = jok && cc.y >= 0 ;
            tc_cp_async16 (&ring_s [wid][st][0][lane], va ? xbase + (int64_t) cc.x * n : X, va) ;
            tc_cp_async16 (&ring_s [wid][st][1][lane], vb ? xbase + (int64_t) cc.y * n : X, vb) ;
            tc_cp_commit () ;
        } ;
#pragma unroll
        for (int b = 0 ; b < NST - 1 ; b++) issue (b) ;
        for (int b = 0 ; b < nb ; b++)
        {
            issue (b + NST - 1) ;
            const float2 sv = __ldg (vals + (int64_t) b * 32) ;
            tc_cp_wait<NST - 1> () ;
            const int st = b % NST ;
            const float4 xa = ring_s [wid][st][0][lane], xb = ring_s [wid][st][1][lane] ;
            tc_block<MODE> (big, small, xa, xb, sv) ;
        }
        tc_cp_wait<0> () ;
    }

    // D fragments -> rows 8w + 2t (c0, c2 of both tiles) and 8w + 2t + 1
    // (c1, c3)
    float4 y0, y1 ;
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
    // (a permuted form: its row r is Y's row row_out [r], and the remainder
    // is in Y's order)
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    if (r0 < m)
    {
        const int64_t o0 = row_out ? row_out [r0] : r0 ;
        const bool add = (rp != NULL) && rp [o0 + 1] > rp [o0] ;
        tc_store<VEC> (Y, o0, n, j, y0, add, shared) ;
    }
    if (r1 < m)
    {
        const int64_t o1 = row_out ? row_out [r1] : r1 ;
        const bool add = (rp != NULL) && rp [o1 + 1] > rp [o1] ;
        tc_store<VEC> (Y, o1, n, j, y1, add, shared) ;
    }
}


//------------------------------------------------------------------------------
// the FP64 kernel: DMMA (mma.sync m8n8k4, FP64 in, FP64 accumulation)
//------------------------------------------------------------------------------

// The same swap-and-transpose as the FP32 kernel, with the m8n8k4 shape:
// Y' (n x 8) += X_g' (n x 8 slots) * S_blk' (8 slots x 8 rows) as two MMAs
// of k = 4 (slots 0..3, then 4..7).  A fragment (8 x 4): lane (g, t) holds
// A (g, t); B (4 x 8): B (t, g); D (8 x 8): D (g, 2t), D (g, 2t + 1).  MMA q
// (q = 0..3) lets its row g stand for column j + q, j = n0 + 4g, so lane
// (g, t) reads X [c_t] [j .. j+3] and X [c_{t+4}] [j .. j+3] (two 16-byte
// loads each) and holds, after the four, Y [8w + 2t] [j .. j+3] and
// Y [8w + 2t + 1] [j .. j+3].  The block's values are the FP32 layout's
// pairs (GG_HYB_VAL_POS): lane 4g + t holds S (8w + g, slot t) and
// S (8w + g, slot t + 4), which are B (t, g) of the two MMAs.  Every product
// and sum is an FP64 operation (the tensor core's FP64 path is IEEE FP64),
// chained in the accumulator: the order of summation differs from the
// CUDA-core kernels', the accuracy does not.

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
template <int U, bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_dmma_kernel (const int32_t *__restrict__ col, const double2 *__restrict__ val,
    const int32_t *__restrict__ seg_blk, const uint32_t *__restrict__ seg_win,
    int64_t nseg, int64_t ntiles, const int32_t *__restrict__ rp,
    const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const double *__restrict__ X, double *__restrict__ Y)
{
    __shared__ int2 cols_s [TC_WARPS][TC_SEG_MAX * 4] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t seg = gw / ntiles ;
    if (seg >= nseg) return ;
    const int64_t n0 = (gw % ntiles) * 32 ;
    const int64_t j = n0 + 4 * g ;
    const int32_t b0 = seg_blk [seg], b1 = seg_blk [seg + 1] ;
    const uint32_t wv = seg_win [seg] ;
    const int64_t w = wv & ~GG_HYB_SEG_SHARED ;
    const bool shared = (wv & GG_HYB_SEG_SHARED) != 0 ;
    const int nb = b1 - b0 ;
    {
        const int2 *src = (const int2 *) col + (int64_t) b0 * 4 ;
        for (int q = lane ; q < nb * 4 ; q += 32) cols_s [wid][q] = __ldg (src + q) ;
        __syncwarp () ;
    }
    double acc [4][2] ;
#pragma unroll
    for (int q = 0 ; q < 4 ; q++) { acc [q][0] = 0 ; acc [q][1] = 0 ; }
    const double2 *vals = val + (int64_t) b0 * 32 + lane ;
    for (int b = 0 ; b < nb ; b += U)
    {
        double xa [U][4], xb [U][4] ;
        double2 sv [U] ;
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const bool ok = b + u < nb ;
            const int bu = ok ? b + u : nb - 1 ;
            const int2 cc = cols_s [wid][bu * 4 + t] ;
            tc_load_x4<VEC> (X, cc.x, n, j, xa [u]) ;
            tc_load_x4<VEC> (X, cc.y, n, j, xb [u]) ;
            const double2 v = __ldg (vals + (int64_t) bu * 32) ;
            sv [u] = ok ? v : make_double2 (0, 0) ;
        }
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            if (b + u >= nb) break ;
#pragma unroll
            for (int q = 0 ; q < 4 ; q++)
            {
                tc_dmma (acc [q], xa [u][q], sv [u].x) ;
                tc_dmma (acc [q], xb [u][q], sv [u].y) ;
            }
        }
    }
    const double y0 [4] = { acc [0][0], acc [1][0], acc [2][0], acc [3][0] } ;
    const double y1 [4] = { acc [0][1], acc [1][1], acc [2][1], acc [3][1] } ;
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    const int64_t o0 = (r0 < m && row_out) ? row_out [r0] : r0 ;
    const int64_t o1 = (r1 < m && row_out) ? row_out [r1] : r1 ;
    if (r0 < m) tc_store4<VEC> (Y, o0, n, j, y0, (rp != NULL) && rp [o0 + 1] > rp [o0], shared) ;
    if (r1 < m) tc_store4<VEC> (Y, o1, n, j, y1, (rp != NULL) && rp [o1 + 1] > rp [o1], shared) ;
}


//------------------------------------------------------------------------------
// the fused kernels: a window's tensor-core blocks and its remainder rows
//------------------------------------------------------------------------------

// One warp per (window, 32 columns) does the whole window: its blocks on the
// tensor cores (in chunks of TC_SEG_MAX, as a segment), then the remainder
// entries of its rows on CUDA cores, lane (g, t) adding row 8w + 2t's and
// row 8w + 2t + 1's at columns j .. j+3 (the rows and columns its D
// fragments hold), and one plain store.  One launch instead of three (the
// remainder, the zero pass, the tensor-core part), no atomics, Y written
// once: what the small matrices need, where each launch is several
// microseconds of a 10-30 us product.  A window of many blocks is one warp's
// work: the chooser measures this against the split variants.  Rows of S
// without entries are written as zeros.  The remainder's sums are FP32
// products and adds in CSR order (the CUDA-core kernels' arithmetic), added
// to the tensor-core part's sum at the end.
template <int MODE, bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_fused_kernel (const int32_t *__restrict__ col, const float2 *__restrict__ val,
    const int32_t *__restrict__ win_blk, int64_t nwin, int64_t ntiles,
    const int32_t *__restrict__ rp, const int32_t *__restrict__ ri,
    const float *__restrict__ rx, const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const float *__restrict__ X, float *__restrict__ Y)
{
    __shared__ int2 cols_s [TC_WARPS][TC_SEG_MAX * 4] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t w = gw / ntiles ;
    if (w >= nwin) return ;
    const int64_t j = (gw % ntiles) * 32 + 4 * g ;
    const int32_t wb0 = win_blk [w], wb1 = win_blk [w + 1] ;

    float big [2][4], small [2][4] ;
#pragma unroll
    for (int a = 0 ; a < 2 ; a++)
#pragma unroll
        for (int q = 0 ; q < 4 ; q++) { big [a][q] = 0 ; small [a][q] = 0 ; }
    for (int32_t b0 = wb0 ; b0 < wb1 ; b0 += TC_SEG_MAX)
    {
        const int nb = (wb1 - b0 < TC_SEG_MAX) ? wb1 - b0 : TC_SEG_MAX ;
        __syncwarp () ;
        const int2 *src = (const int2 *) col + (int64_t) b0 * 4 ;
        for (int q = lane ; q < nb * 4 ; q += 32) cols_s [wid][q] = __ldg (src + q) ;
        __syncwarp () ;
        const float2 *vals = val + (int64_t) b0 * 32 + lane ;
        for (int b = 0 ; b < nb ; b += 2)
        {
            float4 xa [2], xb [2] ;
            float2 sv [2] ;
#pragma unroll
            for (int u = 0 ; u < 2 ; u++)
            {
                const bool ok = b + u < nb ;
                const int bu = ok ? b + u : nb - 1 ;
                const int2 cc = cols_s [wid][bu * 4 + t] ;
                xa [u] = tc_load_x<VEC> (X, cc.x, n, j) ;
                xb [u] = tc_load_x<VEC> (X, cc.y, n, j) ;
                const float2 v = __ldg (vals + (int64_t) bu * 32) ;
                sv [u] = ok ? v : make_float2 (0, 0) ;
            }
#pragma unroll
            for (int u = 0 ; u < 2 ; u++) tc_block<MODE> (big, small, xa [u], xb [u], sv [u]) ;
        }
    }

    // the remainder of rows 8w + 2t (h = 0) and 8w + 2t + 1 (h = 1)
    float4 rs [2] = { make_float4 (0, 0, 0, 0), make_float4 (0, 0, 0, 0) } ;
#pragma unroll
    for (int h = 0 ; h < 2 ; h++)
    {
        const int64_t r = w * GG_HYB_WIN + 2 * t + h ;
        if (r >= m) continue ;
        const int64_t ro = row_out ? row_out [r] : r ;     // (remainder in Y's order)
        const int32_t e1 = rp [ro + 1] ;
        int32_t e = rp [ro] ;
        for ( ; e + 1 < e1 ; e += 2)
        {
            const int32_t c0 = __ldg (ri + e), c1 = __ldg (ri + e + 1) ;
            const float v0 = __ldg (rx + e), v1 = __ldg (rx + e + 1) ;
            const float4 x0 = tc_load_x<VEC> (X, c0, n, j), x1 = tc_load_x<VEC> (X, c1, n, j) ;
            rs [h].x = rs [h].x + v0 * x0.x ; rs [h].y = rs [h].y + v0 * x0.y ;
            rs [h].z = rs [h].z + v0 * x0.z ; rs [h].w = rs [h].w + v0 * x0.w ;
            rs [h].x = rs [h].x + v1 * x1.x ; rs [h].y = rs [h].y + v1 * x1.y ;
            rs [h].z = rs [h].z + v1 * x1.z ; rs [h].w = rs [h].w + v1 * x1.w ;
        }
        if (e < e1)
        {
            const int32_t c0 = __ldg (ri + e) ;
            const float v0 = __ldg (rx + e) ;
            const float4 x0 = tc_load_x<VEC> (X, c0, n, j) ;
            rs [h].x = rs [h].x + v0 * x0.x ; rs [h].y = rs [h].y + v0 * x0.y ;
            rs [h].z = rs [h].z + v0 * x0.z ; rs [h].w = rs [h].w + v0 * x0.w ;
        }
    }

    float4 y0, y1 ;
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
    y0.x = y0.x + rs [0].x ; y0.y = y0.y + rs [0].y ; y0.z = y0.z + rs [0].z ; y0.w = y0.w + rs [0].w ;
    y1.x = y1.x + rs [1].x ; y1.y = y1.y + rs [1].y ; y1.z = y1.z + rs [1].z ; y1.w = y1.w + rs [1].w ;
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    if (r0 < m) tc_store<VEC> (Y, row_out ? row_out [r0] : r0, n, j, y0, false, false) ;
    if (r1 < m) tc_store<VEC> (Y, row_out ? row_out [r1] : r1, n, j, y1, false, false) ;
}

// The same for FP64 (DMMA for the blocks, FP64 for the remainder).
template <bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_fused_dmma_kernel (const int32_t *__restrict__ col, const double2 *__restrict__ val,
    const int32_t *__restrict__ win_blk, int64_t nwin, int64_t ntiles,
    const int32_t *__restrict__ rp, const int32_t *__restrict__ ri,
    const double *__restrict__ rx, const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const double *__restrict__ X, double *__restrict__ Y)
{
    __shared__ int2 cols_s [TC_WARPS][TC_SEG_MAX * 4] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t w = gw / ntiles ;
    if (w >= nwin) return ;
    const int64_t j = (gw % ntiles) * 32 + 4 * g ;
    const int32_t wb0 = win_blk [w], wb1 = win_blk [w + 1] ;
    double acc [4][2] ;
#pragma unroll
    for (int q = 0 ; q < 4 ; q++) { acc [q][0] = 0 ; acc [q][1] = 0 ; }
    for (int32_t b0 = wb0 ; b0 < wb1 ; b0 += TC_SEG_MAX)
    {
        const int nb = (wb1 - b0 < TC_SEG_MAX) ? wb1 - b0 : TC_SEG_MAX ;
        __syncwarp () ;
        const int2 *src = (const int2 *) col + (int64_t) b0 * 4 ;
        for (int q = lane ; q < nb * 4 ; q += 32) cols_s [wid][q] = __ldg (src + q) ;
        __syncwarp () ;
        const double2 *vals = val + (int64_t) b0 * 32 + lane ;
        for (int b = 0 ; b < nb ; b++)
        {
            double xa [4], xb [4] ;
            const int2 cc = cols_s [wid][b * 4 + t] ;
            tc_load_x4<VEC> (X, cc.x, n, j, xa) ;
            tc_load_x4<VEC> (X, cc.y, n, j, xb) ;
            const double2 sv = __ldg (vals + (int64_t) b * 32) ;
#pragma unroll
            for (int q = 0 ; q < 4 ; q++)
            {
                tc_dmma (acc [q], xa [q], sv.x) ;
                tc_dmma (acc [q], xb [q], sv.y) ;
            }
        }
    }
    double y [2][4] ;
#pragma unroll
    for (int h = 0 ; h < 2 ; h++)
    {
        double rs [4] = { 0, 0, 0, 0 } ;
        const int64_t r = w * GG_HYB_WIN + 2 * t + h ;
        const int64_t ro = (r < m && row_out) ? row_out [r] : r ;
        if (r < m)
            for (int32_t e = rp [ro] ; e < rp [ro + 1] ; e++)
            {
                double x [4] ;
                tc_load_x4<VEC> (X, __ldg (ri + e), n, j, x) ;
                const double v = __ldg (rx + e) ;
#pragma unroll
                for (int q = 0 ; q < 4 ; q++) rs [q] = rs [q] + v * x [q] ;
            }
#pragma unroll
        for (int q = 0 ; q < 4 ; q++) y [h][q] = acc [q][h] + rs [q] ;
    }
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    if (r0 < m) tc_store4<VEC> (Y, row_out ? row_out [r0] : r0, n, j, y [0], false, false) ;
    if (r1 < m) tc_store4<VEC> (Y, row_out ? row_out [r1] : r1, n, j, y [1], false, false) ;
}

// Y [rows [q]] [:] = 0
template <typename T>
__global__ void tc_zero_rows_kernel (const int32_t *__restrict__ rows, int64_t nrows,
    int64_t n, T *__restrict__ Y)
{
    const int64_t total = nrows * n ;
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < total ;
         e += (int64_t) gridDim.x * blockDim.x)
        Y [(int64_t) rows [e / n] * n + e % n] = 0 ;
}

// *flag = 1 if any value is not finite
template <typename T>
__global__ void tc_nonfinite_kernel (const T *__restrict__ x, int64_t count,
    int32_t *__restrict__ flag)
{
    bool bad = false ;
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < count ;
         e += (int64_t) gridDim.x * blockDim.x)
        bad |= !isfinite (x [e]) ;
    if (__any_sync (0xffffffffu, bad) && (threadIdx.x & 31) == 0) *flag = 1 ;
}

// *flag = 1 if any value is not a finite normal number (a zero of either
// sign, a subnormal, an infinity or a NaN)
template <typename T>
__global__ void tc_plain_kernel (const T *__restrict__ x, int64_t count,
    int32_t *__restrict__ flag)
{
    const T tiny = (sizeof (T) == 4) ? (T) 1.17549435e-38f : (T) 2.2250738585072014e-308 ;
    bool bad = false ;
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < count ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        const T v = x [e] ;
        bad |= !(fabs (v) >= tiny && fabs (v) <= (T) (sizeof (T) == 4 ? 3.40282347e38 : 1.7976931348623157e308)) ;
    }
    if (__any_sync (0xffffffffu, bad) && (threadIdx.x & 31) == 0) *flag = 1 ;
}

//------------------------------------------------------------------------------
// launchers
//------------------------------------------------------------------------------

static const char *const tc_variant_names [] =
    { "direct2", "direct4", "cpasync2", "cpasync4", "fused", NULL } ;
#define TC_STAGE_FUSED 0                // (the fused kernels: no stage)
static const int tc_variant_stage [] = { -2, -4, 2, 4, TC_STAGE_FUSED } ;

extern "C" const char *const *gg_tc_variants (void)
{
    return tc_variant_names ;
}

extern "C" const char *gg_tc_mode_name (int mode)
{
    static const char *const names [GG_TC_NMODES] = { "exact", "exact3", "exact4", "tf32" } ;
    return (mode >= 0 && mode < GG_TC_NMODES) ? names [mode] : "?" ;
}

static int tc_sms (void)
{
    static int sms = 0 ;
    if (sms == 0)
    {
        int dev = 0, v = 0 ;
        if (cudaGetDevice (&dev) == cudaSuccess &&
            cudaDeviceGetAttribute (&v, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess && v > 0)
            sms = v ;
        else { cudaGetLastError () ; sms = 132 ; }
    }
    return sms ;
}

typedef void (*tc_kernel_fn) (const int32_t *, const float2 *, const int32_t *,
    const uint32_t *, int64_t, int64_t, const int32_t *, const int32_t *, int64_t,
    int64_t, const float *, float *) ;

template <int MODE>
static tc_kernel_fn tc_pick_mode (int stage, bool vec)
{
    if (!vec) return tc_spmm_kernel<MODE, -2, false> ;
    switch (stage)
    {
        case -4: return tc_spmm_kernel<MODE, -4, true> ;
        case 2:  return tc_spmm_kernel<MODE, 2, true> ;
        case 4:  return tc_spmm_kernel<MODE, 4, true> ;
        default: return tc_spmm_kernel<MODE, -2, true> ;
    }
}

static tc_kernel_fn tc_pick (int mode, int stage, bool vec)
{
    switch (mode)
    {
        case GG_TC_EXACT:  return tc_pick_mode<GG_TC_EXACT> (stage, vec) ;
        case GG_TC_EXACT3: return tc_pick_mode<GG_TC_EXACT3> (stage, vec) ;
        case GG_TC_EXACT4: return tc_pick_mode<GG_TC_EXACT4> (stage, vec) ;
        case GG_TC_TF32:   return tc_pick_mode<GG_TC_TF32> (stage, vec) ;
        default:           return NULL ;
    }
}

extern "C" int gg_tc_spmm_ex (const gg_hybrid_form *f, const void *X, void *Y,
    int64_t n, int mode, const char *variant, int parts, const char *remainder,
    cudaStream_t stream)
{
    if (f == NULL || X == NULL || Y == NULL || n < 1
        || (f->type != GG_FP32 && f->type != GG_FP64)
        || mode < 0 || mode >= GG_TC_NMODES || parts < GG_TC_PARTS_ALL
        || parts > GG_TC_PARTS_REM)
        return GG_ERR_UNSUPPORTED ;
    if (f->seg_blocks > TC_SEG_MAX) return GG_ERR_UNSUPPORTED ;
    int stage = tc_variant_stage [0] ;
    if (variant != NULL && variant [0] != '\0')
    {
        int v = 0 ;
        while (tc_variant_names [v] != NULL && strcmp (tc_variant_names [v], variant) != 0) v++ ;
        if (tc_variant_names [v] == NULL) return GG_ERR_UNSUPPORTED ;
        stage = tc_variant_stage [v] ;
    }
    if (stage == TC_STAGE_FUSED)
    {
        // the whole product in one launch (parts: all only)
        if (parts != GG_TC_PARTS_ALL) return GG_ERR_UNSUPPORTED ;
        const bool vec = (n % 4 == 0) && ((uintptr_t) X % 16 == 0) && ((uintptr_t) Y % 16 == 0) ;
        const int64_t ntiles = (n + 31) / 32 ;
        const int64_t grid = (f->nwin * ntiles + TC_WARPS - 1) / TC_WARPS ;
        if (grid > INT32_MAX) return GG_ERR_UNSUPPORTED ;
        if (f->type == GG_FP64)
        {
            if (vec)
                tc_fused_dmma_kernel<true> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
                    (const double2 *) f->val, f->win_blk, f->nwin, ntiles, f->rp, f->ri,
                    (const double *) f->rx, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
            else
                tc_fused_dmma_kernel<false> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
                    (const double2 *) f->val, f->win_blk, f->nwin, ntiles, f->rp, f->ri,
                    (const double *) f->rx, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
        }
        else
        {
            typedef void (*fused_fn) (const int32_t *, const float2 *, const int32_t *, int64_t,
                int64_t, const int32_t *, const int32_t *, const float *, const int32_t *,
                int64_t, int64_t, const float *, float *) ;
            fused_fn kf = NULL ;
            switch (mode)
            {
                case GG_TC_EXACT:  kf = vec ? tc_fused_kernel<GG_TC_EXACT, true> : tc_fused_kernel<GG_TC_EXACT, false> ; break ;
                case GG_TC_EXACT3: kf = vec ? tc_fused_kernel<GG_TC_EXACT3, true> : tc_fused_kernel<GG_TC_EXACT3, false> ; break ;
                case GG_TC_EXACT4: kf = vec ? tc_fused_kernel<GG_TC_EXACT4, true> : tc_fused_kernel<GG_TC_EXACT4, false> ; break ;
                default:           kf = vec ? tc_fused_kernel<GG_TC_TF32, true> : tc_fused_kernel<GG_TC_TF32, false> ; break ;
            }
            kf <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col, (const float2 *) f->val,
                f->win_blk, f->nwin, ntiles, f->rp, f->ri, (const float *) f->rx, f->row_out,
                f->m, n, (const float *) X, (float *) Y) ;
        }
        return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
    }
    const bool run_rem = (parts != GG_TC_PARTS_TC) && f->rem_nnz > 0 ;
    const bool run_tc = (parts != GG_TC_PARTS_REM) && f->nseg > 0 ;

    // remainder: writes its rows of Y (rows without remainder entries are
    // left alone)
    if (run_rem)
    {
        const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, f->type } ;
        const char *kern = (remainder != NULL && remainder [0] != '\0') ? remainder
            : gg_cuda_spmm_choose_plan (f->m, n, f->rem_nnz, f->rem_max_row) ;
        const int rc = gg_cuda_spmm_plan (&sr, f->m, f->k, n, f->rem_nnz, f->rp, f->ri,
            f->rx, false, X, Y, f->rplan, kern, stream) ;
        if (rc != GG_OK) return rc ;
    }
    if (!run_tc) return GG_OK ;

    // rows that windows of several segments add to with atomics and that
    // the remainder did not write
    if (f->nzero > 0)
    {
        const int64_t total = f->nzero * n ;
        int64_t grid = (total + 255) / 256 ;
        if (grid > (int64_t) tc_sms () * 16) grid = (int64_t) tc_sms () * 16 ;
        if (f->type == GG_FP64)
            tc_zero_rows_kernel<double> <<<(unsigned) grid, 256, 0, stream>>> (f->zero_rows,
                f->nzero, n, (double *) Y) ;
        else
            tc_zero_rows_kernel<float> <<<(unsigned) grid, 256, 0, stream>>> (f->zero_rows,
                f->nzero, n, (float *) Y) ;
        if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;
    }

    // the tensor-core part: one warp per (segment, 32 columns)
    const bool vec = (n % 4 == 0) && ((uintptr_t) X % 16 == 0) && ((uintptr_t) Y % 16 == 0) ;
    const int64_t ntiles = (n + 31) / 32 ;
    const int64_t warps = f->nseg * ntiles ;
    const int64_t grid = (warps + TC_WARPS - 1) / TC_WARPS ;
    if (grid > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (f->type == GG_FP64)
    {
        // DMMA: one schedule (the variant names are the FP32 kernel's)
        if (vec)
            tc_dmma_kernel<2, true> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
                (const double2 *) f->val, f->seg_blk, f->seg_win, f->nseg, ntiles,
                run_rem ? f->rp : NULL, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
        else
            tc_dmma_kernel<2, false> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
                (const double2 *) f->val, f->seg_blk, f->seg_win, f->nseg, ntiles,
                run_rem ? f->rp : NULL, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
        return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
    }
    tc_kernel_fn kern = tc_pick (mode, stage, vec) ;
    kern <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col, (const float2 *) f->val,
        f->seg_blk, f->seg_win, f->nseg, ntiles, run_rem ? f->rp : NULL, f->row_out, f->m, n,
        (const float *) X, (float *) Y) ;
    if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;
    return GG_OK ;
}

extern "C" int gg_tc_spmm (const gg_hybrid_form *form, const void *X, void *Y,
    int64_t n, int mode, cudaStream_t stream)
{
    return gg_tc_spmm_ex (form, X, Y, n, mode, NULL, GG_TC_PARTS_ALL, NULL, stream) ;
}

extern "C" int gg_cuda_has_nonfinite (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream)
{
    if (flag_dev == NULL || count < 0 || (count > 0 && ptr == NULL)
        || (type != GG_FP32 && type != GG_FP64))
        return GG_ERR_UNSUPPORTED ;
    if (cudaMemsetAsync (flag_dev, 0, sizeof (int32_t), stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    if (count == 0) return GG_OK ;
    int64_t grid = (count + 255) / 256 ;
    if (grid > (int64_t) tc_sms () * 8) grid = (int64_t) tc_sms () * 8 ;
    if (type == GG_FP32)
        tc_nonfinite_kernel<float> <<<(unsigned) grid, 256, 0, stream>>> ((const float *) ptr,
            count, flag_dev) ;
    else
        tc_nonfinite_kernel<double> <<<(unsigned) grid, 256, 0, stream>>> ((const double *) ptr,
            count, flag_dev) ;
    return cudaGetLastError () == cudaSuccess ? GG_OK : GG_ERR_DEVICE ;
}

extern "C" int gg_tc_values_plain (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream)
{
    if (flag_dev == NULL || count < 0 || (count > 0 && ptr == NULL)
        || (type != GG_FP32 && type != GG_FP64))
        return GG_ERR_UNSUPPORTED ;
    if (cudaMemsetAsync (flag_dev, 0, sizeof (int32_t), stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    if (count == 0) return GG_OK ;
    int64_t grid = (count + 255) / 256 ;
    if (grid > (int64_t) tc_sms () * 8) grid = (int64_t) tc_sms () * 8 ;
    if (type == GG_FP32)
        tc_plain_kernel<float> <<<(unsigned) grid, 256, 0, stream>>> ((const float *) ptr,
            count, flag_dev) ;
    else
        tc_plain_kernel<double> <<<(unsigned) grid, 256, 0, stream>>> ((const double *) ptr,
            count, flag_dev) ;
    return cudaGetLastError () == cudaSuccess ? GG_OK : GG_ERR_DEVICE ;
}
