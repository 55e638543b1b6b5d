//------------------------------------------------------------------------------
// kernels/tc_sddmm/tc_sddmm.cu: SDDMM on tensor cores, CUDA-core remainder
//------------------------------------------------------------------------------

// The layout, the arithmetic and the precision: tc_sddmm.h.  Fragment
// positions (mma.sync m16n8k8 TF32, g = lane / 4, t = lane % 4):
//   A operand (16 slots x 8 terms): a0 (g, t), a1 (g+8, t), a2 (g, t+4),
//     a3 (g+8, t+4): rows of B at the slots' columns;
//   B operand (8 terms x 8 rows): b0 (t, g), b1 (t+4, g): row g of the
//     window in A;
//   result (16 slots x 8 rows): d0 (g, 2t), d1 (g, 2t+1), d2 (g+8, 2t),
//     d3 (g+8, 2t+1).
// Term t of step s of a 32-term chunk at kc is column kc + 8t + s of A and
// B, term t+4 column kc + 8t + 4 + s (lane t holds columns kc + 8t .. +7).
// DMMA m8n8k4 (FP64): a0 (g, t), b0 (t, g), d0 (g, 2t), d1 (g, 2t+1); term
// t of step s of a 16-term chunk at kc is column kc + 4t + s.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <cuda_runtime.h>
#include "kernels/tc_spmm/tc_device.cuh"
#include "kernels/tc_sddmm/tc_sddmm.h"

#define TCS_WARPS 4                     // warps per block of threads

//------------------------------------------------------------------------------
// loads
//------------------------------------------------------------------------------

// 16 bytes of the type, and their values into v [o ..]
template <typename T> struct tcs_vec ;
template <> struct tcs_vec<float>
{
    typedef float4 type ;
    static __device__ __forceinline__ float4 zero (void) { return make_float4 (0, 0, 0, 0) ; }
    static __device__ __forceinline__ void put (const float4 &u, float (&v) [8], int o)
    { v [o] = u.x ; v [o + 1] = u.y ; v [o + 2] = u.z ; v [o + 3] = u.w ; }
} ;
template <> struct tcs_vec<double>
{
    typedef double2 type ;
    static __device__ __forceinline__ double2 zero (void) { return make_double2 (0, 0) ; }
    static __device__ __forceinline__ void put (const double2 &u, double (&v) [4], int o)
    { v [o] = u.x ; v [o + 1] = u.y ; }
} ;

// v = row [j .. j + NV - 1], 32 bytes (8 floats or 4 doubles; zero past k,
// or everywhere where row is NULL).  VEC: k a multiple of 16 bytes' values
// and rows 16-byte aligned (two 16-byte loads).
template <bool VEC, typename T, int NV>
__device__ __forceinline__ void tcs_load (const T *__restrict__ row, int64_t j, int64_t k,
    T (&v) [NV])
{
    static_assert (NV * sizeof (T) == 32, "32 bytes a load") ;
    if (VEC)
    {
        typedef typename tcs_vec<T>::type V ;
        constexpr int H = NV / 2 ;
        V lo = tcs_vec<T>::zero (), hi = lo ;
        if (row != NULL && j < k) lo = __ldg ((const V *) (row + j)) ;
        if (row != NULL && j + H < k) hi = __ldg ((const V *) (row + j + H)) ;
        tcs_vec<T>::put (lo, v, 0) ;
        tcs_vec<T>::put (hi, v, H) ;
    }
    else
    {
#pragma unroll
        for (int q = 0 ; q < NV ; q++)
            v [q] = (row != NULL && j + q < k) ? __ldg (row + j + q) : (T) 0 ;
    }
}

template <typename T>
__device__ __forceinline__ void tcs_put (T *__restrict__ y, int32_t pos1, T v)
{
    if (pos1 > 0) y [pos1 - 1] = v ;
}

//------------------------------------------------------------------------------
// the remainder in the same launch: warps past the segments
//------------------------------------------------------------------------------

// M's entries outside the tensor-core part: columns, rows, positions in M
struct tcs_rem
{
    int64_t nnz ;
    const int32_t *ci, *row, *pos ;
} ;
#define TCS_REM_WARP 8      // remainder entries per warp: 4 groups of 8 lanes, 2 rounds

// remainder run r: entries 8r .. 8r+7, a group of 8 lanes per entry, each
// lane taking every 8th 16-byte piece (VEC) or value of the two rows, then
// the group's sum by shuffles
template <typename T, bool VEC>
__device__ __forceinline__ void tcs_rem_run (int64_t r, const tcs_rem &R, int64_t k,
    const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ y)
{
    constexpr int W = VEC ? (int) (16 / sizeof (T)) : 1 ;
    const int lane = threadIdx.x & 31, grp = lane >> 3, g = lane & 7 ;
#pragma unroll
    for (int it = 0 ; it < 2 ; it++)
    {
        const int64_t q = (r * 2 + it) * 4 + grp ;
        // -0: neutral for every term (a sum of -0 products stays -0, as
        // the CPU library's, which starts from the first term)
        T acc = T (-0.0) ;
        if (q < R.nnz)
        {
            const T *arow = A + (int64_t) R.row [q] * k ;
            const T *brow = B + (int64_t) R.ci [q] * k ;
#pragma unroll 2
            for (int64_t j = (int64_t) g * W ; j < k ; j += 8 * W)
            {
                if constexpr (W == 4)
                {
                    const float4 a = __ldg ((const float4 *) (arow + j)) ;
                    const float4 b = __ldg ((const float4 *) (brow + j)) ;
                    acc = acc + a.x * b.x ; acc = acc + a.y * b.y ;
                    acc = acc + a.z * b.z ; acc = acc + a.w * b.w ;
                }
                else if constexpr (W == 2)
                {
                    const double2 a = __ldg ((const double2 *) (arow + j)) ;
                    const double2 b = __ldg ((const double2 *) (brow + j)) ;
                    acc = acc + a.x * b.x ; acc = acc + a.y * b.y ;
                }
                else acc = acc + __ldg (arow + j) * __ldg (brow + j) ;
            }
        }
#pragma unroll
        for (int off = 4 ; off >= 1 ; off /= 2) acc = acc + __shfl_xor_sync (0xffffffffu, acc, off) ;
        if (q < R.nnz && g == 0) y [R.pos [q]] = acc ;
    }
}

//------------------------------------------------------------------------------
// the warps' walk: segments, then the remainder
//------------------------------------------------------------------------------

// The grid's warps take the form's segments, then remw warps' worth of the
// remainder (tcs_rem_run); for segment s, body (b0, b1, arow): its blocks
// b0 .. b1 - 1 and the row of A (window row g of the lane, NULL past m).
template <typename T, bool VEC, typename Body>
__device__ __forceinline__ void tcs_walk (const int32_t *__restrict__ seg_blk,
    const uint32_t *__restrict__ seg_win, int64_t nseg, int64_t m, int64_t k,
    const T *__restrict__ A, const T *__restrict__ B, T *__restrict__ y, const tcs_rem &R,
    int64_t remw, Body body)
{
    const int g = (threadIdx.x & 31) >> 2 ;
    const int64_t nwarps = (int64_t) gridDim.x * TCS_WARPS ;
    for (int64_t s = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
         s < nseg + remw ; s += nwarps)
    {
        if (s >= nseg) { tcs_rem_run<T, VEC> (s - nseg, R, k, A, B, y) ; continue ; }
        const int64_t w = seg_win [s] & ~GG_HYB_SEG_SHARED ;
        const int64_t r = w * GG_HYB_WIN + g ;
        body (seg_blk [s], seg_blk [s + 1], (r < m) ? A + r * k : (const T *) NULL) ;
    }
}

//------------------------------------------------------------------------------
// FP32: split TF32 (MODE) on m16n8k8, two blocks per tile
//------------------------------------------------------------------------------

template <int MODE, bool VEC>
__global__ void __launch_bounds__ (TCS_WARPS * 32)
tcs_fp32_kernel (const int32_t *__restrict__ col, const int32_t *__restrict__ pos,
    const int32_t *__restrict__ seg_blk, const uint32_t *__restrict__ seg_win,
    int64_t nseg, int64_t m, int64_t k, const float *__restrict__ A,
    const float *__restrict__ B, float *__restrict__ y, const tcs_rem R, int64_t remw)
{
    constexpr int NS = tc_prec<MODE>::NS ;
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3 ;
    tcs_walk<float, VEC> (seg_blk, seg_win, nseg, m, k, A, B, y, R, remw,
        [&] (int32_t b0, int32_t b1, const float *arow)
    {
        for (int32_t b = b0 ; b < b1 ; b += 2)
        {
            const bool two = (b + 1 < b1) ;
            const int32_t c0 = col [8 * (int64_t) b + GG_HYB_COL_POS (g)] ;
            const int32_t c1 = two ? col [8 * (int64_t) (b + 1) + GG_HYB_COL_POS (g)] : -1 ;
            const float *brow0 = (c0 >= 0) ? B + (int64_t) c0 * k : NULL ;
            const float *brow1 = (c1 >= 0) ? B + (int64_t) c1 * k : NULL ;
            // two chains of small products (half the dependent MMAs each);
            // the next chunk's rows loaded before this chunk's MMAs
            float big [4] = { 0, 0, 0, 0 }, small [2][4] = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 } } ;
            float av [8], p0 [8], p1 [8] ;
            tcs_load<VEC> (arow, 8 * t, k, av) ;
            tcs_load<VEC> (brow0, 8 * t, k, p0) ;
            tcs_load<VEC> (brow1, 8 * t, k, p1) ;
            for (int64_t kc = 0 ; kc < k ; kc += 32)
            {
                float na [8], n0 [8], n1 [8] ;
                const int64_t j = kc + 32 + 8 * t ;     // (past k: no load)
                tcs_load<VEC> (arow, j, k, na) ;
                tcs_load<VEC> (brow0, j, k, n0) ;
                tcs_load<VEC> (brow1, j, k, n1) ;
#pragma unroll
                for (int u = 0 ; u < 4 ; u++)
                {
                    uint32_t s0 [3], s1 [3] ;
                    tc_split<NS> (av [u], s0) ;
                    tc_split<NS> (av [u + 4], s1) ;
                    tc_block_tile<MODE> (big, small [u & 1], p0 [u], p1 [u], p0 [u + 4],
                        p1 [u + 4], s0, s1) ;
                }
#pragma unroll
                for (int q = 0 ; q < 8 ; q++) { av [q] = na [q] ; p0 [q] = n0 [q] ; p1 [q] = n1 [q] ; }
            }
            float d [4] ;
#pragma unroll
            for (int q = 0 ; q < 4 ; q++)
                d [q] = (MODE == GG_TC_TF32) ? big [q] : big [q] + (small [0][q] + small [1][q]) ;
            const int32_t *pb = pos + 64 * (int64_t) b ;
            tcs_put (y, pb [GG_HYB_VAL_POS (2 * t, g)], d [0]) ;
            tcs_put (y, pb [GG_HYB_VAL_POS (2 * t + 1, g)], d [1]) ;
            if (two)
            {
                tcs_put (y, pb [64 + GG_HYB_VAL_POS (2 * t, g)], d [2]) ;
                tcs_put (y, pb [64 + GG_HYB_VAL_POS (2 * t + 1, g)], d [3]) ;
            }
        }
    }) ;
}

//------------------------------------------------------------------------------
// FP64: DMMA m8n8k4, one block per tile
//------------------------------------------------------------------------------

template <bool VEC>
__global__ void __launch_bounds__ (TCS_WARPS * 32)
tcs_fp64_kernel (const int32_t *__restrict__ col, const int32_t *__restrict__ pos,
    const int32_t *__restrict__ seg_blk, const uint32_t *__restrict__ seg_win,
    int64_t nseg, int64_t m, int64_t k, const double *__restrict__ A,
    const double *__restrict__ B, double *__restrict__ y, const tcs_rem R, int64_t remw)
{
    const int lane = threadIdx.x & 31, g = lane >> 2, t = lane & 3 ;
    tcs_walk<double, VEC> (seg_blk, seg_win, nseg, m, k, A, B, y, R, remw,
        [&] (int32_t b0, int32_t b1, const double *arow)
    {
        for (int32_t b = b0 ; b < b1 ; b++)
        {
            const int32_t c = col [8 * (int64_t) b + GG_HYB_COL_POS (g)] ;
            const double *brow = (c >= 0) ? B + (int64_t) c * k : NULL ;
            // two accumulators (half the dependent DMMAs each); the next
            // chunk loaded before this chunk's DMMAs
            double acc [2][2] = { { 0, 0 }, { 0, 0 } } ;
            double av [4], bv [4] ;
            tcs_load<VEC> (arow, 4 * t, k, av) ;
            tcs_load<VEC> (brow, 4 * t, k, bv) ;
            for (int64_t kc = 0 ; kc < k ; kc += 16)
            {
                double na [4], nb [4] ;
                const int64_t j = kc + 16 + 4 * t ;     // (past k: no load)
                tcs_load<VEC> (arow, j, k, na) ;
                tcs_load<VEC> (brow, j, k, nb) ;
#pragma unroll
                for (int u = 0 ; u < 4 ; u++) tc_dmma (acc [u & 1], bv [u], av [u]) ;
#pragma unroll
                for (int q = 0 ; q < 4 ; q++) { av [q] = na [q] ; bv [q] = nb [q] ; }
            }
            const int32_t *pb = pos + 64 * (int64_t) b ;
            tcs_put (y, pb [GG_HYB_VAL_POS (2 * t, g)], acc [0][0] + acc [1][0]) ;
            tcs_put (y, pb [GG_HYB_VAL_POS (2 * t + 1, g)], acc [0][1] + acc [1][1]) ;
        }
    }) ;
}

//------------------------------------------------------------------------------
// build, free
//------------------------------------------------------------------------------

extern "C" int gg_tc_sddmm_build (int64_t m, int64_t n, int64_t nnz, const int32_t *p,
    const int32_t *i, int threshold, int seg_blocks, gg_tc_sddmm_form **form,
    cudaStream_t stream)
{
    if (form == NULL) return GG_ERR_UNSUPPORTED ;
    *form = NULL ;
    if (m < 1 || n < 1 || nnz < 0 || p == NULL || (nnz > 0 && i == NULL))
        return GG_ERR_UNSUPPORTED ;
    if (seg_blocks <= 0) seg_blocks = 2 ;
    const auto t0 = std::chrono::steady_clock::now () ;
    gg_tc_sddmm_form *f = (gg_tc_sddmm_form *) calloc (1, sizeof (gg_tc_sddmm_form)) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->m = m ; f->n = n ; f->nnz = nnz ;
    // the index form has the remainder's rows (h->rrow) built with it; the
    // build ends synchronised
    int rc = gg_tc_build (m, n, nnz, p, i, NULL, GG_INT32, threshold, seg_blocks, &f->h, stream) ;
    if (rc != GG_OK)
    {
        free (f) ;
        return rc ;
    }
    f->bytes = f->h->bytes ;
    f->build_ms = std::chrono::duration<double, std::milli> (
        std::chrono::steady_clock::now () - t0).count () ;
    *form = f ;
    return GG_OK ;
}

extern "C" void gg_tc_sddmm_free (gg_tc_sddmm_form *f, cudaStream_t stream)
{
    if (f == NULL) return ;
    gg_tc_free (f->h, stream) ;
    free (f) ;
}

//------------------------------------------------------------------------------
// the product
//------------------------------------------------------------------------------

static unsigned tcs_grid (int64_t nseg)
{
    int64_t g = (nseg + TCS_WARPS - 1) / TCS_WARPS ;
    if (g > (INT64_C (1) << 30)) g = INT64_C (1) << 30 ;
    return (unsigned) (g < 1 ? 1 : g) ;
}

extern "C" int gg_tc_sddmm (const gg_tc_sddmm_form *f, gg_type type, int64_t k,
    const void *A, const void *B, void *y, int mode, int parts,
    const char *remainder, cudaStream_t stream)
{
    if (f == NULL || f->h == NULL || k < 1 || A == NULL || B == NULL || y == NULL
        || (type != GG_FP32 && type != GG_FP64)
        || (type == GG_FP32 && mode != GG_TC_EXACT && mode != GG_TC_EXACT3
            && mode != GG_TC_EXACT4 && mode != GG_TC_TF32)
        || parts < GG_TC_PARTS_ALL || parts > GG_TC_PARTS_REM)
        return GG_ERR_UNSUPPORTED ;
    const gg_hybrid_form *h = f->h ;
    const size_t ts = (type == GG_FP32) ? 4 : 8 ;
    // 16-byte loads: k a multiple of 16 bytes' worth, A and B aligned
    const bool vec = ((k * ts) % 16 == 0) && ((uintptr_t) A % 16 == 0)
        && ((uintptr_t) B % 16 == 0) ;
    // the remainder in the same launch (warps past the segments), or by
    // the CUDA-core SDDMM named, after it
    const bool fuse = (remainder == NULL || remainder [0] == '\0') ;
    const int64_t nseg = (parts != GG_TC_PARTS_REM) ? h->nseg : 0 ;
    const int64_t remw = (fuse && parts != GG_TC_PARTS_TC)
        ? (h->rem_nnz + TCS_REM_WARP - 1) / TCS_REM_WARP : 0 ;
    const tcs_rem R = { h->rem_nnz, h->ri, h->rrow, (const int32_t *) h->rx } ;
    if (nseg + remw > 0)
    {
        const unsigned grid = tcs_grid (nseg + remw) ;
        const int32_t *pos = (const int32_t *) h->val ;
        if (type == GG_FP64)
        {
            if (vec)
                tcs_fp64_kernel<true> <<<grid, TCS_WARPS * 32, 0, stream>>> (h->col, pos,
                    h->seg_blk, h->seg_win, nseg, h->m, k, (const double *) A,
                    (const double *) B, (double *) y, R, remw) ;
            else
                tcs_fp64_kernel<false> <<<grid, TCS_WARPS * 32, 0, stream>>> (h->col, pos,
                    h->seg_blk, h->seg_win, nseg, h->m, k, (const double *) A,
                    (const double *) B, (double *) y, R, remw) ;
        }
        else
        {
#define TCS_FP32(MODE, VEC) tcs_fp32_kernel<MODE, VEC> <<<grid, TCS_WARPS * 32, 0, stream>>> ( \
                h->col, pos, h->seg_blk, h->seg_win, nseg, h->m, k, (const float *) A, \
                (const float *) B, (float *) y, R, remw)
#define TCS_FP32_MODE(MODE) do { if (vec) TCS_FP32 (MODE, true) ; else TCS_FP32 (MODE, false) ; } while (0)
            switch (mode)
            {
                case GG_TC_TF32:   TCS_FP32_MODE (GG_TC_TF32) ; break ;
                case GG_TC_EXACT3: TCS_FP32_MODE (GG_TC_EXACT3) ; break ;
                case GG_TC_EXACT4: TCS_FP32_MODE (GG_TC_EXACT4) ; break ;
                default:           TCS_FP32_MODE (GG_TC_EXACT) ; break ;
            }
#undef TCS_FP32_MODE
#undef TCS_FP32
        }
        if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;
    }
    if (!fuse && parts != GG_TC_PARTS_TC && h->rem_nnz > 0)
    {
        const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, type } ;
        return gg_cuda_sddmm_at (&sr, h->m, f->n, k, h->rem_nnz, h->rp, h->ri, h->rrow,
            A, B, y, (const int32_t *) h->rx, strcmp (remainder, "rule") ? remainder : NULL,
            stream) ;
    }
    return GG_OK ;
}
