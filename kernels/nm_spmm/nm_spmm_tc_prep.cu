//------------------------------------------------------------------------------
// kernels/nm_spmm/nm_spmm_tc_prep.cu: the passes around the tensor-core N:M product
//------------------------------------------------------------------------------

// Once per form (backend/cuda/form_nm.c): W's values split in two TF32 parts
// in the MMA's fragment order and the X' row of every (tile, stage, slot),
// into op.wtc, which the second kernel of nm_spmm_tc.cu reads.  After each
// product (backend/cuda/family_nm.c): the zeros of Y that must be -0.

#include "kernels/nm_spmm/nm_tc_common.cuh"

namespace {

// W's values split and in fragment order: thread e = ((tile, stage) * 2 + k8)
// * 2 + mi) * 32 + lane writes its hi and lo float4
__global__ void tc_prep_kernel (const gg_nm_spmm_op W, float4 *__restrict__ out,
    int64_t npipe, int64_t total)
{
    const int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (e >= total) return ;
    const int lane = (int) (e & 31), mi = (int) ((e >> 5) & 1), k8 = (int) ((e >> 6) & 1) ;
    const int64_t tp = e >> 7 ;
    const int64_t p = tp % npipe, tile = tp / npipe ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t U = W.stages * W.geom.ws, ld = W.n_pad ;
    const int64_t c = tile * BC + mi * 16 + g ;
    const int64_t u0 = p * PS + k8 * 8 + t, u1 = u0 + 4 ;
    const float *v = (const float *) W.val ;
    const float x [4] = {
        (u0 < U) ? v [u0 * ld + c] : 0.0f, (u0 < U) ? v [u0 * ld + c + 8] : 0.0f,
        (u1 < U) ? v [u1 * ld + c] : 0.0f, (u1 < U) ? v [u1 * ld + c + 8] : 0.0f } ;
    uint32_t s [4][3] ;
#pragma unroll
    for (int q = 0 ; q < 4 ; q++) tc_split<2> (x [q], s [q]) ;
    float4 *o = out + (((tp * 2 + k8) * 2 + mi) * 2) * 32 + lane ;
    o [0] = make_float4 (__uint_as_float (s [0][0]), __uint_as_float (s [1][0]),
        __uint_as_float (s [2][0]), __uint_as_float (s [3][0])) ;
    o [32] = make_float4 (__uint_as_float (s [0][1]), __uint_as_float (s [1][1]),
        __uint_as_float (s [2][1]), __uint_as_float (s [3][1])) ;
}

// the X' row of each (tile, pipe stage, slot): slot_row, once per form
template <bool SHARED>
__global__ void tc_rows_kernel (const gg_nm_spmm_op W, int *__restrict__ rows,
    int64_t npipe, int64_t total)
{
    const int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (e >= total) return ;
    const int64_t tile = e / (npipe * PS) ;
    const int u = (int) (e % (npipe * PS)) ;
    const int U = (int) (W.stages * W.geom.ws) ;
    const int64_t ldd = SHARED ? W.n_pad / W.geom.tn : W.n_pad ;
    rows [e] = (u < U) ? slot_row<SHARED> (W, u, tile * BC, ldd) : -1 ;
}

} // namespace

// op.wtc: per (tile, pipe stage), the split values (WTC_STAGE float4), then
// per (tile, pipe stage) the X' rows of its PS slots (int, -1: none)
extern "C" size_t gg_nm_spmm_tc_prep_bytes (const gg_nm_spmm_op *W)
{
    if (W == NULL || !W->tc32 || W->esz != 4 || W->n_pad % BC != 0) return 0 ;
    const int64_t npipe = tc_npipe (*W) ;
    return (size_t) (W->n_pad / BC) * (size_t) npipe
        * (WTC_STAGE * sizeof (float4) + PS * sizeof (int)) ;
}

extern "C" int gg_cuda_nm_spmm_tc_prep (gg_nm_spmm_op *W, void *buf, cudaStream_t stream)
{
    const size_t bytes = gg_nm_spmm_tc_prep_bytes (W) ;
    if (bytes == 0 || buf == NULL || (uintptr_t) buf % 16 != 0) return GG_ERR_UNSUPPORTED ;
    const int64_t npipe = tc_npipe (*W) ;
    const int64_t total = (W->n_pad / BC) * npipe * 128 ;
    tc_prep_kernel<<<(unsigned) ((total + 255) / 256), 256, 0, stream>>> (*W,
        (float4 *) buf, npipe, total) ;
    int *rows = (int *) ((float4 *) buf + (W->n_pad / BC) * npipe * WTC_STAGE) ;
    const int64_t nr = (W->n_pad / BC) * npipe * PS ;
    if (W->shared)
        tc_rows_kernel<true><<<(unsigned) ((nr + 255) / 256), 256, 0, stream>>> (*W, rows, npipe, nr) ;
    else
        tc_rows_kernel<false><<<(unsigned) ((nr + 255) / 256), 256, 0, stream>>> (*W, rows, npipe, nr) ;
    if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;
    W->wtc = buf ;
    return GG_OK ;
}

// Y (m x n) = S X with every zero of Y that should be -0 made -0: where every
// product of the row of S and the column of X is -0 (the IEEE sum of any
// other set of terms that is zero is +0).  One thread per element of Y;
// only zeros read S's row.
__global__ void zero_signs_kernel (int64_t m, int64_t n, const int32_t *__restrict__ p,
    const int32_t *__restrict__ ci, const float *__restrict__ sx,
    const float *__restrict__ X, float *__restrict__ Y)
{
    const int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (e >= m * n) return ;
    if (Y [e] != 0.0f) return ;
    const int64_t r = e / n, b = e % n ;
    if (p [r] == p [r + 1]) return ;
    for (int64_t q = p [r] ; q < p [r + 1] ; q++)
    {
        const float t = sx [q] * X [(int64_t) ci [q] * n + b] ;
        if (!(t == 0.0f && signbit (t))) return ;
    }
    Y [e] = -0.0f ;
}

extern "C" int gg_cuda_nm_zero_signs (int64_t m, int64_t n, const int32_t *p,
    const int32_t *i, const void *sx, const void *X, void *Y, cudaStream_t stream)
{
    if (m < 0 || n < 0 || sx == NULL) return GG_ERR_UNSUPPORTED ;
    if (m == 0 || n == 0) return GG_OK ;
    const int64_t cells = m * n ;
    zero_signs_kernel<<<(unsigned) ((cells + 255) / 256), 256, 0, stream>>> (m, n, p, i,
        (const float *) sx, (const float *) X, (float *) Y) ;
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

