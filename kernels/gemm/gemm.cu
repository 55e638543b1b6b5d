//------------------------------------------------------------------------------
// kernels/gemm/gemm.cu: Y = A (+.*) B' for dense A (m x k) and B (n x k), any semiring
//------------------------------------------------------------------------------

// Y (i,j) = (+) over t < k of mul (A (i,t), B (j,t)); all row-major.  For the
// semirings cuBLAS cannot do (FP32 / FP64 PLUS_TIMES go to cuBLAS in
// backend/cuda/dense.c).  A shared-memory tiled kernel: a block of 16 x 16
// threads computes a 64 x 64 tile of Y, each thread a 4 x 4 sub-tile at
// stride 16 (so that a warp's shared-memory reads are one broadcast of A and
// 16 consecutive words of B); the k dimension goes in slabs of 16 staged in
// shared memory, stored t-major.  The monoid and multiply are runtime
// switches taken once per 4 products.  Out-of-range rows and columns are
// computed on padding and not stored; out-of-range t are never combined (an
// identity-free padding would be wrong for MIN_PLUS and the like, and a zero
// padding times an infinite value is NaN).

#include <cstring>
#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

#define GEMM_TILE 64
#define GEMM_KT   16
#define GEMM_SUB  4
static_assert (GEMM_TILE == 16 * GEMM_SUB, "16 x 16 threads, SUB x SUB each") ;

template <typename T>
__global__ void __launch_bounds__ (256)
gemm_tiled_kernel (int64_t m, int64_t n, int64_t k, const T *A, const T *B,
    T *Y, int mon, int mul)
{
    __shared__ T As [GEMM_KT][GEMM_TILE + 1] ;
    __shared__ T Bs [GEMM_KT][GEMM_TILE + 1] ;
    const int tx = threadIdx.x % 16, ty = threadIdx.x / 16 ;
    const int64_t i0 = (int64_t) blockIdx.y * GEMM_TILE ;
    const int64_t j0 = (int64_t) blockIdx.x * GEMM_TILE ;
    // every term is combined into a value neutral for all operands (NaN for
    // FP MIN / MAX, -0 for FP PLUS); no terms at all (k == 0): the identity
    const T id = (k > 0) ? gg_identity<T> (mon) : gg_empty_value<T> (mon) ;
    T acc [GEMM_SUB][GEMM_SUB] ;
    #pragma unroll
    for (int u = 0 ; u < GEMM_SUB ; u++)
        #pragma unroll
        for (int v = 0 ; v < GEMM_SUB ; v++) acc [u][v] = id ;

    for (int64_t t0 = 0 ; t0 < k ; t0 += GEMM_KT)
    {
        // stage A (i0.., t0..) and B (j0.., t0..): 64 x 16 each, 4 per thread
        for (int q = threadIdx.x ; q < GEMM_TILE * GEMM_KT ; q += 256)
        {
            int rr = q / GEMM_KT, tt = q % GEMM_KT ;
            int64_t ia = i0 + rr, jb = j0 + rr, t = t0 + tt ;
            As [tt][rr] = (A != NULL && ia < m && t < k) ? A [ia * k + t] : T (0) ;
            Bs [tt][rr] = (B != NULL && jb < n && t < k) ? B [jb * k + t] : T (0) ;
        }
        __syncthreads () ;
        const int kt = (k - t0 < GEMM_KT) ? (int) (k - t0) : GEMM_KT ;
        for (int tt = 0 ; tt < kt ; tt++)
        {
            T av [GEMM_SUB], bv [GEMM_SUB] ;
            #pragma unroll
            for (int u = 0 ; u < GEMM_SUB ; u++) av [u] = As [tt][ty + 16 * u] ;
            #pragma unroll
            for (int v = 0 ; v < GEMM_SUB ; v++) bv [v] = Bs [tt][tx + 16 * v] ;
            #pragma unroll
            for (int u = 0 ; u < GEMM_SUB ; u++)
                gg_fma_vec<T, GEMM_SUB, false> (mon, mul, acc [u], av [u], bv) ;
        }
        __syncthreads () ;
    }
    #pragma unroll
    for (int u = 0 ; u < GEMM_SUB ; u++)
    {
        int64_t i = i0 + ty + 16 * u ;
        if (i >= m) continue ;
        #pragma unroll
        for (int v = 0 ; v < GEMM_SUB ; v++)
        {
            int64_t j = j0 + tx + 16 * v ;
            if (j < n) Y [i * n + j] = acc [u][v] ;
        }
    }
}

struct gemm_dispatch
{
    template <typename T>
    static int run (const gg_canon *cs, int64_t m, int64_t n, int64_t k,
        const void *A, const void *B, void *Y, cudaStream_t stream)
    {
        const T *a = gg_mul_reads_s (cs->mul) ? (const T *) A : NULL ;
        const T *b = gg_mul_reads_x (cs->mul) ? (const T *) B : NULL ;
        dim3 grid ((unsigned) ((n + GEMM_TILE - 1) / GEMM_TILE),
                   (unsigned) ((m + GEMM_TILE - 1) / GEMM_TILE)) ;
        gemm_tiled_kernel<T> <<<grid, 256, 0, stream>>> (m, n, k, a, b,
            (T *) Y, cs->mon, cs->mul) ;
        return gg_launch_status () ;
    }
} ;

extern "C" int gg_cuda_gemm (const gg_semiring *sr, int64_t m, int64_t n,
    int64_t k, const void *A, const void *B, void *Y, cudaStream_t stream)
{
    gg_canon cs ;
    if (!gg_canon_semiring (sr, &cs)) return GG_ERR_UNSUPPORTED ;
    if (m < 0 || n < 0 || k < 0) return GG_ERR_UNSUPPORTED ;
    if ((m + GEMM_TILE - 1) / GEMM_TILE > 65535) return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_s (cs.mul) && A == NULL) return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_x (cs.mul) && B == NULL) return GG_ERR_UNSUPPORTED ;
    if (m == 0 || n == 0) return GG_OK ;
    GG_TYPE_DISPATCH (sr->type, gemm_dispatch, &cs, m, n, k, A, B, Y, stream) ;
}
