//------------------------------------------------------------------------------
// kernels/nm_spmm/nm_spmm_tc.cu: dense X times vector-wise N:M W on tensor cores
//------------------------------------------------------------------------------

// Y' (n x B) = W' (n x k) X' (k x B), X' and Y' row-major (the SpMM family's
// orientation, nm_spmm.h's trans), W in the layout of nm_geom.h (shared or
// per-column indices, X tiles packed or not) where every aligned tile of 32
// output columns uses one position per slot (op.tc32:
// vector-wise N:M, NM-SpMM's own format).  Then a tile of 32 columns is a
// dense product of its slot values (32 x slots) with the X' rows its slots
// point at, which is what mma.sync does: the sparse operand is the MMA's A
// operand (16 output columns x 8 slots), the gathered X' rows its B operand
// (8 slots x 8 columns of X'), and D is a 16 x 8 tile of Y' (swap and
// transpose, as in kernels/tc_spmm).
//
// Two kernels, the same arithmetic bit for bit.  The first (schedules 0, 1):
// a block of 4 warps owns 32 output columns x 256 columns of X'; warp w the
// 64 columns 64w.., i.e. 2 x 8 MMA tiles.  The slots are taken 16 at a time
// (a pipe stage: one or two stages of the layout); a stage's X' rows (16 x
// 256 floats, zeros where a slot has no entry in the tile or the row is past
// B) and values (16 x 32) come in by cp.async into a ring of four buffers,
// three stages ahead of the MMAs (or three buffers, two ahead, with three
// blocks per SM); the X' rows a stage's slots read are found by 16 threads
// one iteration before its copies are issued (a ring of 8 x 16 ints in
// shared memory).  Each warp splits W's values itself.  It serves layouts
// without op.wtc and the six-MMA mode.  The second (schedules 2-8, below;
// the rule takes 4: 4 warps x 32 columns of X', four buffers, 4 blocks per
// SM) reads W split ahead of time in fragment order and the X' rows of each
// stage from op.wtc (both made once per form by gg_cuda_nm_spmm_tc_prep),
// the rows arriving by cp.async with the data NBUF-1 stages ahead, so no
// thread waits on a global load inside the loop.  Shared-memory rows are
// padded to 8 mod 32 words, so the fragment loads are free of bank
// conflicts.  Measured (bench/NOTES.md, H100): exact at 84-100 % of the
// ideal speedup over SGEMM on the issue's three shapes (the first kernel:
// 64-77 %), tf32 122-161 %.
// Arithmetic (mode, kernels/tc_spmm/tc_spmm.h's modes):
//   GG_TC_EXACT3  both operands split in two TF32 parts; per 16 slots the
//                 two cross products, then the leading product, in one
//                 chained MMA sum started at +0, which is added to the FP32
//                 accumulator by a rounded add (the tensor core's own
//                 accumulation is not round-to-nearest: chaining the whole
//                 reduction in it would bias long sums).  Its error against
//                 FP64, relative to sum |x w|, measured at about 0.35-0.6x
//                 the CUDA-core FP32 fused multiply-add kernel's (median and
//                 maximum) at k = 4096
//   GG_TC_EXACT   the same with three parts and six products
//   GG_TC_TF32    one TF32 product per entry, chained (opt-in precision)
// The padding and the +0 starts are exact for finite values that are not
// subnormal (TF32 conversion and the tensor cores are not documented to keep
// those; the caller checks, backend/cuda/family_nm.c) except in one case: a
// result whose every product is -0 must be -0, and comes out +0.
// gg_cuda_nm_zero_signs sets those, from S's CSR.  Errors against an
// FP64 reference: bench/nm_gpu_bench, tests/test_nm_spmm.

#include "kernels/nm_spmm/nm_tc_common.cuh"

#include <cuda_runtime.h>
#include <stdint.h>
#include <atomic>

namespace {

constexpr int WARPS = 4 ;
constexpr int NT = 32 * WARPS ;
constexpr int RING = 8 ;                // ring of the stages' X' rows (> NBUF)
constexpr int LDW = BC + 8 ;            // padded rows (8 mod 32 words)

// A schedule: BB columns of X' per block (a warp's BB / 4), NBUF pipe
// buffers, MINB blocks per SM asked of the register allocator, CH steps of
// 8 slots summed on the tensor cores before each rounded FP32 add (exact
// modes).
template <int BB_, int NBUF_, int MINB_, int CH_> struct tc_cfg
{
    static constexpr int BB = BB_, NBUF = NBUF_, MINB = MINB_, CH = CH_ ;
    static constexpr int NI = BB / WARPS / 8 ;          // MMA tiles along X'
    static constexpr int LDX = BB + 8 ;                 // 8 mod 32 words
    static constexpr size_t STAGE_FLOATS = (size_t) PS * (LDX + LDW) ;
    static constexpr size_t SMEM = NBUF * STAGE_FLOATS * sizeof (float) ;
} ;

// the X' rows of stage q's slots into rows [q % RING] (threads 0 .. PS-1)
template <bool SHARED>
__device__ __forceinline__ void find_rows (int (*rows) [PS], const gg_nm_spmm_op &W,
    int q, int U, int64_t c0, int64_t ldd, int tid)
{
    if (tid < PS)
    {
        const int u = q * PS + tid ;
        rows [q % RING][tid] = (u < U) ? slot_row<SHARED> (W, u, c0, ldd) : -1 ;
    }
}

// A stage's X' rows (16, rows [r] < 0: zeros) x BB columns from b0, as BB/4
// chunks of 16 bytes by cp.async into Xs (row stride C::LDX); both kernels
template <class C>
__device__ __forceinline__ void load_xt (float *Xs, const int *rows,
    const float *__restrict__ Xt, int64_t B, int64_t b0, int tid)
{
    constexpr int BB = C::BB ;
    const int ch = tid % (BB / 4) ;
    const int64_t b = b0 + 4 * ch ;
#pragma unroll
    for (int j = 0 ; j < PS * (BB / 4) / NT ; j++)
    {
        const int r = tid / (BB / 4) + j * (NT / (BB / 4)) ;
        const int row = rows [r] ;
        const bool in = (row >= 0 && b < B) ;
        tc_cp_async16 (Xs + r * C::LDX + 4 * ch, in ? Xt + (int64_t) row * B + b : Xt, in) ;
    }
}

// stage q's X' rows and values into the buffer at sm
template <class C>
__device__ __forceinline__ void load_stage (float *sm, const int *rows,
    const gg_nm_spmm_op &W, const float *__restrict__ Xt, int64_t B, int q,
    int U, int64_t c0, int64_t b0, int tid)
{
    float *Xs = sm ;
    float *Ws = sm + PS * C::LDX ;
    load_xt<C> (Xs, rows, Xt, B, b0, tid) ;
    // values: 16 slots x 8 chunks, one per thread
    {
        const int r = tid / (BC / 4), cc = tid % (BC / 4) ;
        const int u = q * PS + r ;
        const float *v = (const float *) W.val ;
        const bool in = (u < U) ;
        tc_cp_async16 (Ws + r * LDW + 4 * cc, in ? v + (int64_t) u * W.n_pad + c0 + 4 * cc : v, in) ;
    }
}

// d += one 8-slot step of a tile: A (16 x 8, a [frag][part]) times B (8 x 8)
template <int MODE>
__device__ __forceinline__ void step_product (float (&d) [4],
    const uint32_t (&a) [4][3], const uint32_t (&b) [2][3])
{
    if (MODE == GG_TC_TF32)
    {
        tc_mma (d, a [0][0], a [1][0], a [2][0], a [3][0], b [0][0], b [1][0], d) ;
        return ;
    }
    // small products first, smallest first, then the leading one
    if (MODE == GG_TC_EXACT)
    {
        tc_mma (d, a [0][2], a [1][2], a [2][2], a [3][2], b [0][0], b [1][0], d) ;
        tc_mma (d, a [0][0], a [1][0], a [2][0], a [3][0], b [0][2], b [1][2], d) ;
        tc_mma (d, a [0][1], a [1][1], a [2][1], a [3][1], b [0][1], b [1][1], d) ;
    }
    tc_mma (d, a [0][1], a [1][1], a [2][1], a [3][1], b [0][0], b [1][0], d) ;
    tc_mma (d, a [0][0], a [1][0], a [2][0], a [3][0], b [0][1], b [1][1], d) ;
    tc_mma (d, a [0][0], a [1][0], a [2][0], a [3][0], b [0][0], b [1][0], d) ;
}

// The ring of pipe stages both kernels run: stages 0 .. NBUF-2 issued before
// the first MMA; at iteration p, once stage p has landed and every thread is
// past stage p-1, stage pn = p + NBUF-1 is issued into stage p-1's buffer
// (load (pn)), with what ahead (pn) adds to its group, then compute (p).
template <int NBUF, class Load, class Ahead, class Compute>
__device__ __forceinline__ void stage_ring (int npipe, Load load, Ahead ahead,
    Compute compute)
{
#pragma unroll
    for (int q = 0 ; q < NBUF - 1 ; q++)
    {
        if (q < npipe) load (q) ;
        tc_cp_commit () ;
    }
    for (int p = 0 ; p < npipe ; p++)
    {
        tc_cp_wait<NBUF - 2> () ;
        __syncthreads () ;
        const int pn = p + NBUF - 1 ;
        if (pn < npipe) load (pn) ;
        ahead (pn) ;
        tc_cp_commit () ;
        compute (p) ;
    }
}

// acc += the K8 steps of a stage, step (d, k8) each: in the exact modes CH
// steps at a time summed on the tensor cores from +0, then one rounded FP32
// add into acc (the tensor core's own accumulation is not round-to-nearest);
// tf32: every step chained in acc
template <int MODE, int K8, int CH, class Step>
__device__ __forceinline__ void steps_into (float (&acc) [4], Step step)
{
    constexpr int G = (MODE == GG_TC_TF32) ? K8 : CH ;
#pragma unroll
    for (int kg = 0 ; kg < K8 ; kg += G)
    {
        float d [4] = { 0, 0, 0, 0 } ;
        float (&dst) [4] = (MODE == GG_TC_TF32) ? acc : d ;
#pragma unroll
        for (int k8 = kg ; k8 < kg + G ; k8++) step (dst, k8) ;
        if (MODE != GG_TC_TF32)
        {
#pragma unroll
            for (int q = 0 ; q < 4 ; q++) acc [q] += d [q] ;
        }
    }
}

template <int MODE, bool SHARED, class C>
__global__ void __launch_bounds__ (NT, C::MINB)
nm_tc_kernel (const float *__restrict__ Xt, float *__restrict__ Yt, int64_t B,
    const gg_nm_spmm_op W, bool swap)
{
    constexpr int NS = tc_prec<MODE>::NS ;
    constexpr int NBUF = C::NBUF, BB = C::BB, NI = C::NI, LDX = C::LDX, CH = C::CH ;
    constexpr int K8 = PS / 8 ;
    constexpr size_t STAGE_FLOATS = C::STAGE_FLOATS ;
    extern __shared__ float4 smem4 [] ;
    float *smem = (float *) smem4 ;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t c0 = (int64_t) (swap ? blockIdx.y : blockIdx.x) * BC ;
    const int64_t b0 = (int64_t) (swap ? blockIdx.x : blockIdx.y) * BB ;
    const int64_t ldd = SHARED ? W.n_pad / W.geom.tn : W.n_pad ;
    const int U = (int) (W.stages * W.geom.ws) ;
    const int npipe = (int) tc_npipe (W) ;
    __shared__ int rows [RING][PS] ;

    float acc [2][NI][4] ;
#pragma unroll
    for (int mi = 0 ; mi < 2 ; mi++)
#pragma unroll
        for (int ni = 0 ; ni < NI ; ni++)
#pragma unroll
            for (int q = 0 ; q < 4 ; q++) acc [mi][ni][q] = 0 ;

    for (int q = 0 ; q < NBUF && q < npipe ; q++)
        find_rows<SHARED> (rows, W, q, U, c0, ldd, tid) ;
    __syncthreads () ;
    // stage q's rows were found the iteration before its copies are issued
    stage_ring<NBUF> (npipe, [&] (int q)
    {
        load_stage<C> (smem + (q % NBUF) * STAGE_FLOATS, rows [q % RING], W, Xt, B, q, U,
            c0, b0, tid) ;
    },
    [&] (int pn)
    {
        if (pn + 1 < npipe) find_rows<SHARED> (rows, W, pn + 1, U, c0, ldd, tid) ;
    },
    [&] (int p)
    {
        const float *Xs = smem + (p % NBUF) * STAGE_FLOATS ;
        const float *Ws = Xs + PS * LDX ;
        // the stage's A fragments (values), split once per warp
        uint32_t a [K8][2][4][3] ;
#pragma unroll
        for (int k8 = 0 ; k8 < K8 ; k8++)
        {
            const float *wr0 = Ws + (k8 * 8 + t) * LDW + g ;
            const float *wr1 = wr0 + 4 * LDW ;
#pragma unroll
            for (int mi = 0 ; mi < 2 ; mi++)
            {
                tc_split<NS> (wr0 [mi * 16], a [k8][mi][0]) ;
                tc_split<NS> (wr0 [mi * 16 + 8], a [k8][mi][1]) ;
                tc_split<NS> (wr1 [mi * 16], a [k8][mi][2]) ;
                tc_split<NS> (wr1 [mi * 16 + 8], a [k8][mi][3]) ;
            }
        }
#pragma unroll
        for (int ni = 0 ; ni < NI ; ni++)
        {
            uint32_t b [K8][2][3] ;
#pragma unroll
            for (int k8 = 0 ; k8 < K8 ; k8++)
            {
                const float *xr0 = Xs + (k8 * 8 + t) * LDX + warp * (BB / WARPS) + g ;
                tc_split<NS> (xr0 [ni * 8], b [k8][0]) ;
                tc_split<NS> (xr0 [4 * LDX + ni * 8], b [k8][1]) ;
            }
#pragma unroll
            for (int mi = 0 ; mi < 2 ; mi++)
            {
                // exact: CH steps summed on the tensor cores from +0, then
                // one rounded add into the FP32 accumulator; tf32: every
                // step chained in the accumulator
                steps_into<MODE, K8, CH> (acc [mi][ni], [&] (float (&d) [4], int k8)
                    { step_product<MODE> (d, a [k8][mi], b [k8]) ; }) ;
            }
        }
    }) ;
    // D (16 x 8): rows g and g + 8 (output columns), columns 2t, 2t + 1
#pragma unroll
    for (int mi = 0 ; mi < 2 ; mi++)
    {
#pragma unroll
        for (int h = 0 ; h < 2 ; h++)
        {
            const int64_t c = c0 + mi * 16 + g + 8 * h ;
            if (c >= W.ncols) continue ;
#pragma unroll
            for (int ni = 0 ; ni < NI ; ni++)
            {
                const int64_t b = b0 + warp * (BB / WARPS) + ni * 8 + 2 * t ;
                if (b < B)
                {
                    *(float2 *) (Yt + c * B + b) =
                        make_float2 (acc [mi][ni][2 * h], acc [mi][ni][2 * h + 1]) ;
                }
            }
        }
    }
}

//------------------------------------------------------------------------------
// the second kernel: values split ahead of time, 16-byte fragment loads
//------------------------------------------------------------------------------

// The same product and the same arithmetic (bit for bit: the same parts and
// the same MMAs in the same order), with fewer instructions per MMA: W's
// values come split in two TF32 parts, in the order of the MMA's A fragments
// (op.wtc, made once per form by gg_cuda_nm_spmm_tc_prep: each lane reads its
// four values of a part in one 16-byte load, where the first kernel has each
// of the four warps load and split the same values), and each lane reads its
// B fragments of four MMA tiles in one 16-byte load: tile ni's column j is
// X' column 32 (ni / 4) + 4 j + ni % 4 of the warp's 64, so that lane (g, t)
// reads columns 4g .. 4g+3 of a slot row (rows padded to 8 mod 32 words:
// the eight lanes of a load phase hit distinct banks) and holds Y' columns
// 8t .. 8t+7 of each half, stored as 16-byte vectors.  Y' on 16 bytes.
#define NM_TC_SWAP_GY 4

template <class C> struct tc2
{
    static constexpr size_t STAGE_FLOATS = (size_t) PS * C::LDX + 4 * WTC_STAGE ;
    static constexpr size_t SMEM = C::NBUF * STAGE_FLOATS * sizeof (float) ;
} ;

template <class C>
__device__ __forceinline__ void load_stage2 (float *sm, const int *rows,
    const gg_nm_spmm_op &W, const float *__restrict__ Xt, int64_t B, int q,
    int64_t npipe, int64_t c0, int64_t b0, int tid)
{
    float *Xs = sm ;
    float4 *Ws = (float4 *) (sm + PS * C::LDX) ;
    load_xt<C> (Xs, rows, Xt, B, b0, tid) ;
    const float4 *w = (const float4 *) W.wtc + ((c0 / BC) * npipe + q) * WTC_STAGE ;
#pragma unroll
    for (int j = 0 ; j < WTC_STAGE / NT ; j++)
        tc_cp_async16 (Ws + tid + j * NT, w + tid + j * NT, true) ;
}

// d += one 8-slot step: A (16 x 8, a [frag][part]) times B (8 x 8, b [half][part])
template <int MODE, int NP>
__device__ __forceinline__ void step2 (float (&d) [4], const uint32_t (&a) [4][NP],
    const uint32_t (&b) [2][NP])
{
    if (MODE == GG_TC_TF32)
    {
        tc_mma (d, a [0][0], a [1][0], a [2][0], a [3][0], b [0][0], b [1][0], d) ;
        return ;
    }
    // GG_TC_EXACT3: as step_product, small products first
    tc_mma (d, a [0][NP-1], a [1][NP-1], a [2][NP-1], a [3][NP-1], b [0][0], b [1][0], d) ;
    tc_mma (d, a [0][0], a [1][0], a [2][0], a [3][0], b [0][NP-1], b [1][NP-1], d) ;
    tc_mma (d, a [0][0], a [1][0], a [2][0], a [3][0], b [0][0], b [1][0], d) ;
}

// SMEM_EPI: the tile of Y' stored through shared memory (schedule 5; not yet
// measured, so not in the rule)
template <int MODE, bool SHARED, class C, bool SMEM_EPI>
__global__ void __launch_bounds__ (NT, C::MINB)
nm_tc_kernel2 (const float *__restrict__ Xt, float *__restrict__ Yt, int64_t B,
    const gg_nm_spmm_op W, bool swap)
{
    constexpr int NP = (MODE == GG_TC_TF32) ? 1 : 2 ;
    constexpr int NBUF = C::NBUF, BB = C::BB, NI = C::NI, LDX = C::LDX, CH = C::CH ;
    constexpr int K8 = PS / 8 ;
    constexpr int NH = NI / 4 ;                 // halves of 4 MMA tiles
    static_assert (NI % 4 == 0, "four MMA tiles per 16-byte load") ;
    constexpr size_t STAGE_FLOATS = tc2<C>::STAGE_FLOATS ;
    extern __shared__ float4 smem4 [] ;
    float *smem = (float *) smem4 ;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5 ;
    const int g = lane >> 2, t = lane & 3 ;
    // (swap: the blocks of one tile are neighbours in launch order, so that
    // they read its values from L2 and not from memory one after the other)
    const int64_t c0 = (int64_t) (swap ? blockIdx.y : blockIdx.x) * BC ;
    const int64_t b0 = (int64_t) (swap ? blockIdx.x : blockIdx.y) * BB ;
    const int npipe = (int) tc_npipe (W) ;
    // the X' rows of this tile's stages (made with op.wtc), RING stages of
    // them in shared memory: those of stage s arrive by cp.async with stage
    // s - (NBUF-1)'s data, so they are there when s's copies are issued
    static_assert (RING >= 2 * NBUF - 1, "the ring of rows holds 2 NBUF - 1 stages") ;
    __shared__ __align__ (16) int rows [RING][PS] ;
    const int *grows = (const int *) ((const float4 *) W.wtc
        + (W.n_pad / BC) * (int64_t) npipe * WTC_STAGE) + (c0 / BC) * (int64_t) npipe * PS ;

    float acc [2][NI][4] ;
#pragma unroll
    for (int mi = 0 ; mi < 2 ; mi++)
#pragma unroll
        for (int ni = 0 ; ni < NI ; ni++)
#pragma unroll
            for (int q = 0 ; q < 4 ; q++) acc [mi][ni][q] = 0 ;

    // the rows of the first 2 (NBUF-1) stages directly
    for (int e = tid ; e < 2 * (NBUF - 1) * PS && e < npipe * PS ; e += NT)
        rows [e / PS][e % PS] = __ldg (grows + e) ;
    __syncthreads () ;
    // stage q's data (its rows came with the group of stage q - (NBUF-1)),
    // and with stage pn's group the rows of stage pr = pn + NBUF - 1 (its
    // ring slot was last read for stage pr - RING, at least two iterations
    // ago: every thread is past it)
    stage_ring<NBUF> (npipe, [&] (int q)
    {
        load_stage2<C> (smem + (q % NBUF) * STAGE_FLOATS, rows [q % RING], W, Xt, B, q,
            npipe, c0, b0, tid) ;
    },
    [&] (int pn)
    {
        const int pr = pn + NBUF - 1 ;
        if (pr < npipe && tid < PS / 4)
            tc_cp_async16 (&rows [pr % RING][4 * tid], grows + (int64_t) pr * PS + 4 * tid, true) ;
    },
    [&] (int p)
    {
        const float *Xs = smem + (p % NBUF) * STAGE_FLOATS ;
        const float4 *Ws = (const float4 *) (Xs + PS * LDX) ;
#pragma unroll
        for (int hf = 0 ; hf < NH ; hf++)
        {
            // B fragments of MMA tiles 4 hf .. 4 hf + 3: one 16-byte load per
            // (step, row half)
            uint32_t b [K8][4][2][NP] ;
#pragma unroll
            for (int k8 = 0 ; k8 < K8 ; k8++)
            {
                const float *xr = Xs + (k8 * 8 + t) * LDX + warp * (BB / WARPS) + 32 * hf + 4 * g ;
                const float4 r0 = *(const float4 *) xr ;
                const float4 r1 = *(const float4 *) (xr + 4 * LDX) ;
                const float v0 [4] = { r0.x, r0.y, r0.z, r0.w } ;
                const float v1 [4] = { r1.x, r1.y, r1.z, r1.w } ;
#pragma unroll
                for (int q = 0 ; q < 4 ; q++)
                {
                    uint32_t s0 [3], s1 [3] ;
                    tc_split<NP> (v0 [q], s0) ;
                    tc_split<NP> (v1 [q], s1) ;
#pragma unroll
                    for (int h = 0 ; h < NP ; h++)
                    {
                        b [k8][q][0][h] = s0 [h] ;
                        b [k8][q][1][h] = s1 [h] ;
                    }
                }
            }
#pragma unroll
            for (int mi = 0 ; mi < 2 ; mi++)
            {
                // A fragments of tile row mi: one 16-byte load per (step, part)
                uint32_t a [K8][4][NP] ;
#pragma unroll
                for (int k8 = 0 ; k8 < K8 ; k8++)
#pragma unroll
                    for (int h = 0 ; h < NP ; h++)
                    {
                        const float4 v = Ws [((k8 * 2 + mi) * 2 + h) * 32 + lane] ;
                        a [k8][0][h] = __float_as_uint (v.x) ;
                        a [k8][1][h] = __float_as_uint (v.y) ;
                        a [k8][2][h] = __float_as_uint (v.z) ;
                        a [k8][3][h] = __float_as_uint (v.w) ;
                    }
#pragma unroll
                for (int q = 0 ; q < 4 ; q++)
                {
                    const int ni = 4 * hf + q ;
                    steps_into<MODE, K8, CH> (acc [mi][ni], [&] (float (&d) [4], int k8)
                        { step2<MODE, NP> (d, a [k8], b [k8][q]) ; }) ;
                }
            }
        }
    }) ;
    // lane (g, t)'s values of the tile of Y' (rows c0 .. c0+31, columns b0 ..
    // b0+BB-1): per tile row mi and half h, Y' columns 8t .. 8t+7 of each
    // 32-column half hf of the warp's columns, as two float4; put (r, j, lo,
    // hi) gets row r0 + tile row and columns j0 + tile column .. + 7
    auto tile_values = [&] (int64_t r0, int64_t j0, auto put)
    {
#pragma unroll
        for (int mi = 0 ; mi < 2 ; mi++)
#pragma unroll
            for (int h = 0 ; h < 2 ; h++)
#pragma unroll
                for (int hf = 0 ; hf < NH ; hf++)
                    put (r0 + mi * 16 + g + 8 * h, j0 + warp * (BB / WARPS) + 32 * hf + 8 * t,
                        make_float4 (acc [mi][4*hf][2*h], acc [mi][4*hf+1][2*h],
                            acc [mi][4*hf+2][2*h], acc [mi][4*hf+3][2*h]),
                        make_float4 (acc [mi][4*hf][2*h+1], acc [mi][4*hf+1][2*h+1],
                            acc [mi][4*hf+2][2*h+1], acc [mi][4*hf+3][2*h+1])) ;
    } ;
    if constexpr (SMEM_EPI)
    {
        // through shared memory, so that each warp stores whole rows of 512
        // contiguous bytes (stored directly, each store fills half of each
        // 32-byte sector; ncu, 256 x 4096 x 16384 at 4:32: the wave's stores
        // were a fixed cost of every block)
        constexpr int LDY = BB + 4 ;                // 4-way banks: the minimum
        static_assert ((size_t) 32 * LDY * sizeof (float) <= tc2<C>::SMEM,
            "the tile of Y' fits in the stages' shared memory") ;
        tc_cp_wait<0> () ;
        __syncthreads () ;                          // every warp past the last stage
        float *Ys = smem ;
        tile_values (0, 0, [&] (int64_t r, int64_t j, float4 lo, float4 hi)
        {
            *(float4 *) (Ys + r * LDY + j) = lo ;
            *(float4 *) (Ys + r * LDY + j + 4) = hi ;
        }) ;
        __syncthreads () ;
        // B % 4 == 0 (gg_nm_spmm_tc_fits): a float4 of Y' is in or out whole
        constexpr int V4 = BB / 4 ;
#pragma unroll
        for (int e = tid ; e < 32 * V4 ; e += NT)
        {
            const int r = e / V4, v = e % V4 ;
            const int64_t c = c0 + r, b = b0 + 4 * v ;
            if (c < W.ncols && b < B)
                *(float4 *) (Yt + c * B + b) = *(const float4 *) (Ys + r * LDY + 4 * v) ;
        }
    }
    else
    {
        tile_values (c0, b0, [&] (int64_t c, int64_t b, float4 lo, float4 hi)
        {
            if (c < W.ncols)
            {
                float *y = Yt + c * B + b ;
                if (b < B) *(float4 *) y = lo ;
                if (b + 4 < B) *(float4 *) (y + 4) = hi ;
            }
        }) ;
    }
}

// One launch of the first kernel (SECOND false) or the second, mode MODE.
// Where the grid has at most NM_TC_SWAP_GY blocks along X' (a small batch),
// a tile's blocks are launched side by side, so that the second and later
// read its values from L2, not from memory well after the first (measured
// on the second kernel: batch 256, 8:32, 85.6 -> 89.8 % of the ideal).
template <bool SECOND, int MODE, bool SHARED, class C, bool SMEM_EPI>
int launch (const gg_nm_spmm_op *W, int64_t B, const float *Xt, float *Yt,
    cudaStream_t stream)
{
    void (*kern) (const float *, float *, int64_t, gg_nm_spmm_op, bool) ;
    size_t smem ;
    if constexpr (SECOND)
    {
        kern = nm_tc_kernel2<MODE, SHARED, C, SMEM_EPI> ;
        smem = tc2<C>::SMEM ;
    }
    else
    {
        kern = nm_tc_kernel<MODE, SHARED, C> ;
        smem = C::SMEM ;
    }
    // the shared-memory limit raised once per kernel and device (a host
    // call of some microseconds, not to be paid on every product)
    static std::atomic<uint64_t> raised { 0 } ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess) return GG_ERR_DEVICE ;
    const uint64_t bit = (dev < 64) ? (uint64_t) 1 << dev : 0 ;
    if ((raised.load (std::memory_order_acquire) & bit) == 0)
    {
        if (cudaFuncSetAttribute (kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
            (int) smem) != cudaSuccess)
        {
            return GG_ERR_DEVICE ;
        }
        raised.fetch_or (bit, std::memory_order_acq_rel) ;
    }
    const int64_t gy = (B + C::BB - 1) / C::BB, tiles = W->n_pad / BC ;
    if (gy > 65535) return GG_ERR_UNSUPPORTED ;
    const bool swap = gy <= NM_TC_SWAP_GY && tiles <= 65535 ;
    dim3 grid = swap ? dim3 ((unsigned) gy, (unsigned) tiles) : dim3 ((unsigned) tiles, (unsigned) gy) ;
    kern<<<grid, NT, smem, stream>>> (Xt, Yt, B, *W, swap) ;
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

template <bool SECOND, class C, bool SMEM_EPI = false>
int launch_mode (const gg_nm_spmm_op *W, int64_t B, const float *X, float *Y,
    int mode, cudaStream_t stream)
{
    const bool sh = W->shared ;
    switch (mode)
    {
        case GG_TC_EXACT3 : return sh ? launch<SECOND, GG_TC_EXACT3, true, C, SMEM_EPI> (W, B, X, Y, stream)
                                      : launch<SECOND, GG_TC_EXACT3, false, C, SMEM_EPI> (W, B, X, Y, stream) ;
        case GG_TC_TF32   : return sh ? launch<SECOND, GG_TC_TF32, true, C, SMEM_EPI> (W, B, X, Y, stream)
                                      : launch<SECOND, GG_TC_TF32, false, C, SMEM_EPI> (W, B, X, Y, stream) ;
        case GG_TC_EXACT  :
            // six MMAs: the first kernel only
            if constexpr (SECOND) return GG_ERR_UNSUPPORTED ;
            else return sh ? launch<SECOND, GG_TC_EXACT, true, C, SMEM_EPI> (W, B, X, Y, stream)
                           : launch<SECOND, GG_TC_EXACT, false, C, SMEM_EPI> (W, B, X, Y, stream) ;
        default           : return GG_ERR_UNSUPPORTED ;
    }
}

} // namespace

extern "C" bool gg_nm_spmm_tc_fits (const gg_nm_spmm_op *W, int64_t B)
{
    return W != NULL && W->esz == 4 && W->tc32 && W->geom.tn == 8
        && W->stages * W->geom.ws < (int64_t) INT32_MAX - PS && W->k < (int64_t) INT32_MAX
        && W->geom.bn % BC == 0 && W->n_pad % W->geom.bn == 0
        && W->k > 0 && B >= 0 && B % 4 == 0 && (B + 255) / 256 <= 65535
        && W->n_pad / BC <= (int64_t) INT32_MAX ;
}

// Schedules (bench/NOTES.md, 2026-11-27, H100).  The first kernel's: 0 =
// 256 columns of X' per block, four buffers, CH = 2; 1 = the same with three
// buffers and three blocks per SM, which won where the grid is several waves
// (4096 x 4096 x 4096: exact 69.5 -> 77.0 % of the ideal speedup at 16:32)
// and lost where it is about one (256 x 4096 x 16384: 70.8 -> 60.1 %).  The
// second kernel's: 4 = 128 columns of X', four buffers, 4 blocks per SM; it
// beat the others measured (the first two's shapes, 8 warps x 256 columns,
// 5 blocks per SM, 2 warps x 64 columns) on every shape and pattern, which
// are therefore not compiled (numbers 2, 3, 5-8 in the notes).  A
// persistent grid (schedule 9: as many blocks as fit, each a ring over
// several items) lost on every shape, 68-78 % against 86-101 %, and is gone.
// 5 = 4 with the tile of Y' stored through shared memory, whole 512-byte rows
// per warp (ncu on 256 x 4096 x 16384 at 4:32: stores fill half of each
// sector, and a block's fixed cost is ~14 % of that product).  Measured
// 2026-11-28 (H100, one call, exact, % of the ideal speedup, 4 -> 5):
// 8:32 and 4:32 won on all six cells (88.4 -> 92.8, 95.0 -> 96.8, 91.2 ->
// 94.7; 90.5 -> 92.1, 90.4 -> 93.5, 85.7 -> 90.2), 16:32 won on two and
// lost on 8192 x 8192 x 2048 (97.8 -> 84.0), where each block's epilogue
// is the smallest share of its time: the rule takes 5 where at most 8 of
// 32 are kept, 4 otherwise.
#define NM_TC_MANY_BLOCKS 1024

extern "C" int gg_cuda_nm_spmm_tc_cfg (const gg_nm_spmm_op *W, int64_t B,
    const void *Xt, void *Yt, int mode, int cfg, cudaStream_t stream)
{
    if (!gg_nm_spmm_tc_fits (W, B) || (uintptr_t) Xt % 16 != 0
        || (uintptr_t) Yt % 8 != 0)
    {
        return GG_ERR_UNSUPPORTED ;
    }
    if (B == 0 || W->ncols == 0) return GG_OK ;
    const float *X = (const float *) Xt ;
    float *Y = (float *) Yt ;
    const bool second = W->wtc != NULL && (uintptr_t) Yt % 16 == 0 && mode != GG_TC_EXACT ;
    if (cfg < 0)
    {
        const int64_t blocks = (W->n_pad / BC) * ((B + 255) / 256) ;
        cfg = second ? ((W->geom.n * 4 <= W->geom.m) ? 5 : 4)
            : (blocks >= NM_TC_MANY_BLOCKS) ? 1 : 0 ;
    }
    if ((cfg == 4 || cfg == 5) && !second) return GG_ERR_UNSUPPORTED ;
    switch (cfg)
    {
        case 0 : return launch_mode<false, tc_cfg<256, 4, 1, 2>> (W, B, X, Y, mode, stream) ;
        case 1 : return launch_mode<false, tc_cfg<256, 3, 3, 2>> (W, B, X, Y, mode, stream) ;
        case 4 : return launch_mode<true, tc_cfg<128, 4, 4, 2>> (W, B, X, Y, mode, stream) ;
        case 5 : return launch_mode<true, tc_cfg<128, 4, 4, 2>, true> (W, B, X, Y, mode, stream) ;
        default : return GG_ERR_UNSUPPORTED ;
    }
}

extern "C" int gg_cuda_nm_spmm_tc (const gg_nm_spmm_op *W, int64_t B,
    const void *Xt, void *Yt, int mode, cudaStream_t stream)
{
    return gg_cuda_nm_spmm_tc_cfg (W, B, Xt, Yt, mode, -1, stream) ;
}
