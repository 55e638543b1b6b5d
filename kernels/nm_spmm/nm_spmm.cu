//------------------------------------------------------------------------------
// kernels/nm_spmm/nm_spmm.cu: dense X times N:M-sparse W (NM-SpMM schedule)
//------------------------------------------------------------------------------

// One thread block computes a BM x BN tile of Y; its threads form a
// (BM/TM) x (BN/TN) grid, each owning TM rows (interleaved: row i*TY + ty)
// and TN consecutive columns.  A warp is 4 thread rows x 8 thread columns,
// so a W value and a slot index are read by 4 lanes at once (broadcast).
// Per stage (ks positions of k): the X tile As [BM][ks] (row-major like X,
// padded to ks + PAD so that column ks is a column of zeros for absent
// slots), the values Bs [ws][BN] and indices Ds [ws][BN/ib] of the stage's
// slots, all brought in with cp.async into the other half of a double
// buffer while the current half is multiplied.  Per slot: the thread reads
// the TM X values its slot index points at (one index for its TN columns in
// the shared layout, one per column otherwise) and TN values of W, and does
// TM x TN products and sums.
//
// Resources (nvcc -Xptxas -v, sm_90, 256 threads, __launch_bounds__ (256, 2)):
// FP32 variants 128 registers (the shared-index ks = 64 row-major variant
// spills 12 bytes, the packed one 8), FP64 110-125 registers, no spills.
// Dynamic shared memory, two stage buffers: FP32 57,472 B (ks = 32) and
// 90,240 B (ks = 64); FP64 53,408 B and 87,200 B: two blocks per SM.
// Instantiated: {float, double} x ks {32, 64} x {shared, per-column} x
// {X row-major, X k-major}, plus the packed k-major shared ks = 64 pair;
// the X k-major ones also with fused multiply-adds (GG_NM_SPMM_FMA).

#include "kernels/nm_spmm/nm_spmm.h"

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

namespace {

__device__ __forceinline__ void cp_async (void *dst, const void *src,
    int bytes_copied, int size)
{
    // size (4, 8 or 16) bytes into shared memory; bytes_copied < size fills
    // the rest with zeros (0: all zeros, src not read)
    unsigned d = (unsigned) __cvta_generic_to_shared (dst) ;
    if (size == 16)
    {
        asm volatile ("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
            :: "r" (d), "l" (src), "r" (bytes_copied)) ;
    }
    else if (size == 8)
    {
        asm volatile ("cp.async.ca.shared.global [%0], [%1], 8, %2;\n"
            :: "r" (d), "l" (src), "r" (bytes_copied)) ;
    }
    else
    {
        asm volatile ("cp.async.ca.shared.global [%0], [%1], 4, %2;\n"
            :: "r" (d), "l" (src), "r" (bytes_copied)) ;
    }
}

__device__ __forceinline__ void cp_commit ()
{
    asm volatile ("cp.async.commit_group;\n" ::: "memory") ;
}

template <int N>
__device__ __forceinline__ void cp_wait ()
{
    asm volatile ("cp.async.wait_group %0;\n" :: "n" (N) : "memory") ;
}

template <typename T> struct nm_cfg ;
template <> struct nm_cfg<float>
{
    static constexpr int BM = 128, BN = 128, TM = 8, TN = 8, PAD = 4 ;
} ;
template <> struct nm_cfg<double>
{
    static constexpr int BM = 64, BN = 64, TM = 4, TN = 4, PAD = 2 ;
} ;

constexpr int NTHREADS = 256 ;
constexpr int WSMAX = GG_NM_SPMM_MAX_WS ;

// shared memory of one stage buffer (bytes), KS positions
// The X tile of a stage: [BM][ks + PAD] (X row-major: rows of X, the
// zero column at ks) or, X given k-major (trans), [ks + 1][BM + PAD] (the
// zero row at ks); room for either, in whole 16-byte units.
template <typename T>
__host__ __device__ constexpr size_t as_bytes (int ks)
{
    using C = nm_cfg<T> ;
    const size_t a = (size_t) C::BM * (ks + C::PAD) ;
    const size_t b = (size_t) (ks + 1) * (C::BM + C::PAD) ;
    return ((a > b ? a : b) * sizeof (T) + 15) / 16 * 16 ;
}

// where row r (of the block's BM) and position id (of the stage) sit
template <typename T, int KS, bool TRANS>
__device__ __forceinline__ int xat (int r, int id)
{
    using C = nm_cfg<T> ;
    return TRANS ? id * (C::BM + C::PAD) + r : r * (KS + C::PAD) + id ;
}
template <typename T>
__host__ __device__ constexpr size_t bs_bytes ()
{
    return (size_t) WSMAX * nm_cfg<T>::BN * sizeof (T) ;
}
template <typename T>
__host__ __device__ constexpr size_t ds_bytes ()
{
    return (size_t) WSMAX * nm_cfg<T>::BN ;     // uint8, ib = 1 at most
}
// the next stage's packed positions (col_info), ks <= 64 bytes
constexpr size_t CS_BYTES = 64 ;
template <typename T>
__host__ __device__ constexpr size_t stage_bytes (int ks)
{
    return as_bytes<T> (ks) + bs_bytes<T> () + ds_bytes<T> () + CS_BYTES ;
}

// load stage st into the buffer at sm; PACKED: only the positions colp [r]
// of the stage (global or shared memory; 0xff: none), and the positions of
// the next stage (cnext, global, or NULL) into the buffer's Cs
template <typename T, int KS, bool SHARED, bool TRANS, bool PACKED>
__device__ __forceinline__ void load_stage (char *sm, int64_t st,
    const T *__restrict__ X, int64_t B, int64_t k, bool vec,
    const T *__restrict__ val, const uint8_t *__restrict__ idx,
    int64_t n_pad, int ws, int64_t b0, int64_t c0, const uint8_t *colp,
    const uint8_t *cnext)
{
    using C = nm_cfg<T> ;
    constexpr int LDA = KS + C::PAD ;
    constexpr int IB = SHARED ? C::TN : 1 ;
    constexpr int DW = C::BN / IB ;             // index bytes per slot row
    T *As = (T *) sm ;
    T *Bs = (T *) (sm + as_bytes<T> (KS)) ;
    uint8_t *Ds = (uint8_t *) (sm + as_bytes<T> (KS) + bs_bytes<T> ()) ;
    const int tid = threadIdx.x ;
    const int64_t kk0 = st * KS ;

    // X tile: rows b0 .. b0+BM, positions kk0 .. kk0+KS (zeros outside X)
    if (TRANS)
    {
        // X' (k x B, row-major): chunks along B
        constexpr int LDX = C::BM + C::PAD ;
        if (vec)
        {
            constexpr int E = 16 / sizeof (T) ;
            constexpr int CPR = C::BM / E ;
            for (int q = tid ; q < KS * CPR ; q += NTHREADS)
            {
                const int r = q / CPR, cc = (q % CPR) * E ;
                const int pos = PACKED ? colp [r] : r ;
                if (PACKED && pos == 0xff) continue ;
                const int64_t kk = kk0 + pos, b = b0 + cc ;
                const bool in = (kk < k && b < B) ;  // B % E == 0
                const T *src = in ? X + kk * B + b : X ;
                cp_async (As + r * LDX + cc, src, in ? 16 : 0, 16) ;
            }
        }
        else
        {
            for (int q = tid ; q < KS * C::BM ; q += NTHREADS)
            {
                const int r = q / C::BM, cc = q % C::BM ;
                const int pos = PACKED ? colp [r] : r ;
                if (PACKED && pos == 0xff) continue ;
                const int64_t kk = kk0 + pos, b = b0 + cc ;
                const bool in = (kk < k && b < B) ;
                const T *src = in ? X + kk * B + b : X ;
                cp_async (As + r * LDX + cc, src, in ? (int) sizeof (T) : 0,
                    (int) sizeof (T)) ;
            }
        }
    }
    else if (vec)
    {
        constexpr int E = 16 / sizeof (T) ;     // elements per chunk
        constexpr int CPR = KS / E ;            // chunks per row
        for (int q = tid ; q < C::BM * CPR ; q += NTHREADS)
        {
            const int r = q / CPR, cc = (q % CPR) * E ;
            const int64_t b = b0 + r, kk = kk0 + cc ;
            const bool in = (b < B && kk < k) ;  // k % E == 0: all or none
            const T *src = in ? X + b * k + kk : X ;
            cp_async (As + r * LDA + cc, src, in ? 16 : 0, 16) ;
        }
    }
    else
    {
        for (int q = tid ; q < C::BM * KS ; q += NTHREADS)
        {
            const int r = q / KS, cc = q % KS ;
            const int64_t b = b0 + r, kk = kk0 + cc ;
            const bool in = (b < B && kk < k) ;
            const T *src = in ? X + b * k + kk : X ;
            cp_async (As + r * LDA + cc, src, in ? (int) sizeof (T) : 0,
                (int) sizeof (T)) ;
        }
    }
    // the stage's slots: values and indices (n_pad is a multiple of BN)
    {
        constexpr int E = 16 / sizeof (T) ;
        constexpr int CPR = C::BN / E ;
        const T *v0 = val + st * ws * n_pad + c0 ;
        for (int q = tid ; q < ws * CPR ; q += NTHREADS)
        {
            const int p = q / CPR, cc = (q % CPR) * E ;
            cp_async (Bs + p * C::BN + cc, v0 + p * n_pad + cc, 16, 16) ;
        }
        constexpr int DPR = DW / 16 ;
        const int64_t ldd = n_pad / IB ;
        const uint8_t *d0 = idx + st * ws * ldd + c0 / IB ;
        for (int q = tid ; q < ws * DPR ; q += NTHREADS)
        {
            const int p = q / DPR, cc = (q % DPR) * 16 ;
            cp_async (Ds + p * DW + cc, d0 + p * ldd + cc, 16, 16) ;
        }
    }
    if (PACKED && cnext != NULL && tid < KS / 16)
    {
        uint8_t *Cs = (uint8_t *) (sm + as_bytes<T> (KS) + bs_bytes<T> ()
            + ds_bytes<T> ()) ;
        cp_async (Cs + tid * 16, cnext + tid * 16, 16, 16) ;
    }
}

// acc + x * w: the product rounded, then the sum (the CPU library's
// arithmetic; the file is built with -fmad=false), or FMA: one fused
// multiply-add, rounded once (at least as accurate; CUDA cores' and the
// vendor libraries' arithmetic)
template <bool FMA>
__device__ __forceinline__ float madd (float x, float w, float acc)
{
    return FMA ? __fmaf_rn (x, w, acc) : acc + x * w ;
}

template <bool FMA>
__device__ __forceinline__ double madd (double x, double w, double acc)
{
    return FMA ? __fma_rn (x, w, acc) : acc + x * w ;
}

template <typename T, int KS, bool SHARED, bool TRANS, bool PACKED, bool FMA>
__global__ void __launch_bounds__ (NTHREADS, 2)
nm_spmm_kernel (const T *__restrict__ X, T *__restrict__ Y, int64_t B,
    int64_t k, int64_t n, bool vec, const T *__restrict__ val,
    const uint8_t *__restrict__ idx, int64_t n_pad, int64_t stages, int ws,
    const uint8_t *__restrict__ cols)
{
    static_assert (!PACKED || (TRANS && KS <= (int) CS_BYTES), "packed") ;
    using C = nm_cfg<T> ;
    constexpr int BM = C::BM, BN = C::BN, TM = C::TM, TN = C::TN ;
    constexpr int TY = BM / TM ;                // thread rows
    constexpr int IB = SHARED ? TN : 1 ;
    constexpr int DW = BN / IB ;
    static_assert (TY * (BN / TN) == NTHREADS, "tile / thread count") ;
    extern __shared__ __align__ (16) char smem [] ;
    const int64_t b0 = (int64_t) blockIdx.y * BM ;
    const int64_t c0 = (int64_t) blockIdx.x * BN ;
    const int tid = threadIdx.x, warp = tid / 32, lane = tid % 32 ;
    // a warp: 4 thread rows x 8 thread columns
    const int tx = (warp % 2) * 8 + lane % 8 ;
    const int ty = (warp / 2) * 4 + lane / 8 ;
    const size_t SB = stage_bytes<T> (KS) ;

    // the zero columns (position KS) of both X buffers, never overwritten
    for (int q = tid ; q < 2 * BM ; q += NTHREADS)
    {
        T *As = (T *) (smem + (q / BM) * SB) ;
        As [xat<T, KS, TRANS> (q % BM, KS)] = T (0) ;
    }

    T acc [TM][TN] ;
    #pragma unroll
    for (int i = 0 ; i < TM ; i++)
    {
        #pragma unroll
        for (int j = 0 ; j < TN ; j++) acc [i][j] = T (-0.0) ;
    }

    // PACKED: the tile's positions of each stage; those of stage 0 are read
    // from global memory, those of stage st+1 arrive with stage st (in its
    // buffer's Cs) so that loading st+1 need not wait for them
    const uint8_t *tcols = PACKED ? cols + (int64_t) blockIdx.x * stages * KS
        : NULL ;
    load_stage<T, KS, SHARED, TRANS, PACKED> (smem, 0, X, B, k, vec, val,
        idx, n_pad, ws, b0, c0, tcols, (PACKED && stages > 1) ? tcols + KS
        : NULL) ;
    cp_commit () ;
    for (int64_t st = 0 ; st < stages ; st++)
    {
        char *cur = smem + (st & 1) * SB ;
        if (PACKED)
        {
            // stage st (and the positions of st+1) in; then issue st+1
            // into the other buffer, free since the end of iteration st-1
            cp_wait<0> () ;
            __syncthreads () ;
            if (st + 1 < stages)
            {
                const uint8_t *Cs = (const uint8_t *) (cur + as_bytes<T> (KS)
                    + bs_bytes<T> () + ds_bytes<T> ()) ;
                load_stage<T, KS, SHARED, TRANS, PACKED> (smem
                    + ((st + 1) & 1) * SB, st + 1, X, B, k, vec, val, idx,
                    n_pad, ws, b0, c0, Cs, (st + 2 < stages)
                    ? tcols + (st + 2) * KS : NULL) ;
                cp_commit () ;
            }
        }
        else
        {
            if (st + 1 < stages)
            {
                load_stage<T, KS, SHARED, TRANS, PACKED> (smem
                    + ((st + 1) & 1) * SB, st + 1, X, B, k, vec, val, idx,
                    n_pad, ws, b0, c0, NULL, NULL) ;
                cp_commit () ;
                cp_wait<1> () ;
            }
            else
            {
                cp_wait<0> () ;
            }
            __syncthreads () ;
        }
        const T *As = (const T *) cur ;
        const T *Bs = (const T *) (cur + as_bytes<T> (KS)) ;
        const uint8_t *Ds = (const uint8_t *) (cur + as_bytes<T> (KS)
            + bs_bytes<T> ()) ;
        #pragma unroll 2
        for (int p = 0 ; p < ws ; p++)
        {
            // the TN values as 16-byte loads (TN * sizeof (T) = 32)
            T w [TN] ;
            {
                const uint4 *src = reinterpret_cast<const uint4 *>
                    (Bs + p * BN + tx * TN) ;
                #pragma unroll
                for (int q = 0 ; q < (int) (TN * sizeof (T) / 16) ; q++)
                {
                    const uint4 t = src [q] ;
                    memcpy (&w [q * 16 / sizeof (T)], &t, 16) ;
                }
            }
            if (SHARED)
            {
                const int id = Ds [p * DW + tx] ;
                T x [TM] ;
                #pragma unroll
                for (int i = 0 ; i < TM ; i++) x [i] = As [xat<T, KS, TRANS> (i * TY + ty, id)] ;
                #pragma unroll
                for (int i = 0 ; i < TM ; i++)
                {
                    #pragma unroll
                    for (int j = 0 ; j < TN ; j++)
                    {
                        acc [i][j] = madd<FMA> (x [i], w [j], acc [i][j]) ;
                    }
                }
            }
            else
            {
                #pragma unroll
                for (int j = 0 ; j < TN ; j++)
                {
                    const int id = Ds [p * DW + tx * TN + j] ;
                    #pragma unroll
                    for (int i = 0 ; i < TM ; i++)
                    {
                        acc [i][j] = madd<FMA> (As [xat<T, KS, TRANS>
                            (i * TY + ty, id)], w [j], acc [i][j]) ;
                    }
                }
            }
        }
        __syncthreads () ;
    }

    #pragma unroll
    for (int i = 0 ; i < TM ; i++)
    {
        const int64_t b = b0 + i * TY + ty ;
        if (b >= B) continue ;
        #pragma unroll
        for (int j = 0 ; j < TN ; j++)
        {
            const int64_t c = c0 + tx * TN + j ;
            if (c < n) Y [TRANS ? c * B + b : b * n + c] = acc [i][j] ;
        }
    }
}

template <typename T, int KS, bool SHARED, bool TRANS, bool PACKED, bool FMA>
int launch (const gg_nm_spmm_op *W, int64_t B, const T *X, T *Y,
    cudaStream_t stream)
{
    using C = nm_cfg<T> ;
    const size_t smem = 2 * stage_bytes<T> (KS) ;
    auto kern = nm_spmm_kernel<T, KS, SHARED, TRANS, PACKED, FMA> ;
    if (cudaFuncSetAttribute (kern, cudaFuncAttributeMaxDynamicSharedMemorySize,
        (int) smem) != cudaSuccess)
    {
        return GG_ERR_DEVICE ;
    }
    // 16-byte copies where X's rows start on 16 bytes
    const bool vec = ((TRANS ? B : W->k) % (16 / (int64_t) sizeof (T)) == 0)
        && ((uintptr_t) X % 16 == 0) ;
    const int64_t gy = (B + C::BM - 1) / C::BM ;
    if (gy > 65535) return GG_ERR_UNSUPPORTED ;
    dim3 grid ((unsigned) (W->n_pad / C::BN), (unsigned) gy) ;
    kern<<<grid, NTHREADS, smem, stream>>> (X, Y, B, W->k, W->ncols, vec,
        (const T *) W->val, W->idx, W->n_pad, W->stages, W->geom.ws,
        W->cols) ;
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

template <typename T, bool TRANS, bool FMA>
int dispatch (const gg_nm_spmm_op *W, int64_t B, const T *X, T *Y,
    cudaStream_t stream)
{
    if (W->packed)
    {
        // the layout made it only with the shared indices and ks = 64, and
        // the caller gives X k-major (checked by gg_cuda_nm_spmm)
        return launch<T, 64, true, true, true, FMA> (W, B, X, Y, stream) ;
    }
    if (W->geom.ks == 32)
    {
        return W->shared ? launch<T, 32, true, TRANS, false, FMA> (W, B, X, Y, stream)
                         : launch<T, 32, false, TRANS, false, FMA> (W, B, X, Y, stream) ;
    }
    return W->shared ? launch<T, 64, true, TRANS, false, FMA> (W, B, X, Y, stream)
                     : launch<T, 64, false, TRANS, false, FMA> (W, B, X, Y, stream) ;
}

// The fused variants exist for X k-major only (the SpMM family's
// orientation, and NM-SpMM's): no instances the dispatch cannot reach.
template <typename T>
int dispatch_t (const gg_nm_spmm_op *W, int64_t B, const T *X, T *Y,
    bool trans, bool fma, cudaStream_t stream)
{
    if (!trans) return dispatch<T, false, false> (W, B, X, Y, stream) ;
    return fma ? dispatch<T, true, true> (W, B, X, Y, stream)
               : dispatch<T, true, false> (W, B, X, Y, stream) ;
}

} // namespace

extern "C" int gg_cuda_nm_spmm (const gg_nm_spmm_op *W, int64_t B,
    const void *X, void *Y, bool trans, unsigned flags, cudaStream_t stream)
{
    gg_nm_spmm_geom g ;
    if (W == NULL || !gg_nm_spmm_geometry (&g, W->esz, W->geom.n, W->geom.m)
        || g.ks != W->geom.ks || g.ws != W->geom.ws || g.bn != W->geom.bn
        || W->k <= 0 || W->ncols < 0 || B < 0 || W->n_pad % g.bn != 0
        || (uintptr_t) X % W->esz != 0
        || (W->packed && (!trans || !W->shared || g.ks != 64 || W->cols == NULL))
        || (flags & ~GG_NM_SPMM_FMA) != 0 || ((flags & GG_NM_SPMM_FMA) && !trans))
    {
        return GG_ERR_UNSUPPORTED ;
    }
    if (B == 0 || W->ncols == 0) return GG_OK ;
    const bool fma = (flags & GG_NM_SPMM_FMA) != 0 ;
    if (W->esz == 4)
    {
        return dispatch_t<float> (W, B, (const float *) X, (float *) Y, trans, fma, stream) ;
    }
    return dispatch_t<double> (W, B, (const double *) X, (double *) Y, trans, fma, stream) ;
}
