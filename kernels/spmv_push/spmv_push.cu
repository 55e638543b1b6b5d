//------------------------------------------------------------------------------
// kernels/spmv_push/spmv_push.cu: w = A' (+.*) u from A's own CSR, with atomics ("push")
//------------------------------------------------------------------------------

// GrB_vxm (w = u' A) is A' u.  grbgpu answers it with a pull SpMV on the
// transposed CSR, built on the host and cached (the same path as GrB_mxv).
// The alternative measured here pushes from A's CSR instead: every entry
// (i, j) combines s (*) u (i) into w (j) with a monoid atomic, so no
// transpose is built, at the price of one atomic per entry on w (and
// contention on the columns many rows share).  bench/spmm_bench's vxm rows
// compare the two (bench/NOTES.md); the backend keeps the pull.
//
// Semantics: as gg_cuda_spmm with n = 1 and S = A' (k x m) given by A's CSR
// (m x k, p/i/x), except that w [j] of a column without entries holds the
// kernels' start value (gg_identity: the launcher fills w with it first;
// -0 for FP PLUS and NaN for FP MIN / MAX, so that every term combines
// exactly, non-finite ones included).

#include <cstring>
#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

#define PUSH_THREADS 256
#define PUSH_G       8      // lanes per row of A (R-MAT: 16 entries per row)

template <typename T>
__global__ void push_fill_kernel (T *w, int64_t k, int mon)
{
    const T id = gg_identity<T> (mon) ;
    for (int64_t j = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; j < k ;
        j += (int64_t) gridDim.x * blockDim.x) w [j] = id ;
}

template <typename T>
__global__ void push_kernel (int64_t m, const int32_t *__restrict__ p,
    const int32_t *__restrict__ ci, int smode, const T *__restrict__ sx,
    const T *__restrict__ u, T *w, int mon, int mul)
{
    const int64_t g0 = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x)
        / PUSH_G ;
    const int lane = threadIdx.x % PUSH_G ;
    const int64_t ng = (int64_t) gridDim.x * blockDim.x / PUSH_G ;
    for (int64_t r = g0 ; r < m ; r += ng)
    {
        const int32_t e0 = p [r], e1 = p [r+1] ;
        if (e0 == e1) continue ;
        const T x = (u != NULL) ? u [r] : T (0) ;
        for (int32_t e = e0 + lane ; e < e1 ; e += PUSH_G)
        {
            const T s = gg_sval (smode, sx, e) ;
            gg_atomic (mon, w + ci [e], gg_multiply (mul, s, x)) ;
        }
    }
}

struct push_dispatch
{
    template <typename T>
    static int run (const gg_canon *cs, int64_t m, int64_t k,
        const int32_t *p, const int32_t *i, const void *x, bool iso,
        const void *u, void *w, int sms, cudaStream_t stream)
    {
        const int smode = gg_mul_reads_s (cs->mul)
            ? (iso ? GG_S_ISO : GG_S_ARRAY) : GG_S_NONE ;
        const T *uu = gg_mul_reads_x (cs->mul) ? (const T *) u : NULL ;
        int64_t fb = (k + PUSH_THREADS - 1) / PUSH_THREADS ;
        if (fb > (int64_t) sms * 8) fb = (int64_t) sms * 8 ;
        if (fb < 1) fb = 1 ;
        push_fill_kernel<T> <<<(unsigned) fb, PUSH_THREADS, 0, stream>>> (
            (T *) w, k, cs->mon) ;
        if (gg_launch_status () != GG_OK) return GG_ERR_DEVICE ;
        if (m == 0) return GG_OK ;
        int64_t rb = (m * PUSH_G + PUSH_THREADS - 1) / PUSH_THREADS ;
        if (rb > (int64_t) sms * 32) rb = (int64_t) sms * 32 ;
        push_kernel<T> <<<(unsigned) rb, PUSH_THREADS, 0, stream>>> (m, p, i,
            smode, (const T *) x, uu, (T *) w, cs->mon, cs->mul) ;
        return gg_launch_status () ;
    }
} ;

extern "C" int gg_cuda_spmv_push (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *u, void *w, cudaStream_t stream)
{
    gg_canon cs ;
    if (!gg_canon_semiring (sr, &cs)) return GG_ERR_UNSUPPORTED ;
    if (m < 0 || k < 0 || nnz < 0 || m > INT32_MAX || k > INT32_MAX
        || nnz > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_s (cs.mul) && x == NULL) return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_x (cs.mul) && u == NULL) return GG_ERR_UNSUPPORTED ;
    if (k == 0) return GG_OK ;
    int dev = 0, sms = 132 ;
    if (cudaGetDevice (&dev) != cudaSuccess
        || cudaDeviceGetAttribute (&sms, cudaDevAttrMultiProcessorCount, dev)
        != cudaSuccess) { (void) cudaGetLastError () ; sms = 132 ; }
    GG_TYPE_DISPATCH (sr->type, push_dispatch, &cs, nnz > 0 ? m : 0, k, p, i,
        x, iso, u, w, sms, stream) ;
}
