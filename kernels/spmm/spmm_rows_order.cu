//------------------------------------------------------------------------------
// kernels/spmm/spmm_rows_order.cu: S's rows ordered by length, on the device
//------------------------------------------------------------------------------

// The form gg_cuda_spmm_rows multiplies (kernels/gg_cuda.h): S's rows sorted
// by their number of entries, longest first, rows of equal length in S's
// order, empty rows last; their entries unchanged.  Measured (bench/NOTES.md,
// 2026-11-28, H100): on R-MAT 2^18 / 2^20 the nnz-split schedules run 1.33x /
// 1.66x faster at N = 32 (1.18x / 1.12x at N = 128) on rows in this order,
// as much as any locality order gave (RSH, first column): a chunk then holds
// rows of one size.  Made with a stable radix sort of the lengths (CUB), a
// scan, and one warp per row copying its entries: one pass over S; then the
// form's SpMV plan (gg_cuda_spmv_plan_build), which its slot_kK run takes.

#include "kernels/gg_cuda.h"

#include <cub/cub.cuh>
#include <cuda_runtime.h>
#include <stdint.h>

namespace {

constexpr size_t RO_ALIGN = 256 ;

size_t ro_round (size_t b) { return (b + RO_ALIGN - 1) & ~(RO_ALIGN - 1) ; }

unsigned ro_grid (int64_t n, int per_block)
{
    int64_t b = (n + per_block - 1) / per_block ;
    if (b < 1) b = 1 ;
    if (b > 65535 * 16) b = 65535 * 16 ;
    return (unsigned) b ;
}

// len [r] = the entries of row r, ids [r] = r
__global__ void ro_len_kernel (const int32_t *__restrict__ p, int64_t m,
    uint32_t *__restrict__ len, int32_t *__restrict__ ids)
{
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; r < m ;
         r += (int64_t) gridDim.x * blockDim.x)
    {
        len [r] = (uint32_t) (p [r+1] - p [r]) ;
        ids [r] = (int32_t) r ;
    }
}

// row q of the form = row perm [q] of S: one warp per row, its column
// indices and (x != NULL) values
template <typename V>
__global__ void ro_gather_kernel (const int32_t *__restrict__ p,
    const int32_t *__restrict__ i, const V *__restrict__ x,
    const int32_t *__restrict__ perm, const int32_t *__restrict__ np, int64_t m,
    int32_t *__restrict__ ni, V *__restrict__ nx)
{
    const int lane = threadIdx.x & 31 ;
    for (int64_t q = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ; q < m ;
         q += ((int64_t) gridDim.x * blockDim.x) / 32)
    {
        const int64_t src = p [perm [q]], len = p [perm [q] + 1] - src, dst = np [q] ;
        for (int64_t e = lane ; e < len ; e += 32)
        {
            ni [dst + e] = i [src + e] ;
            if (x != NULL) nx [dst + e] = x [src + e] ;
        }
    }
}

template <typename V>
cudaError_t ro_gather (const int32_t *p, const int32_t *i, const void *x,
    const int32_t *perm, const int32_t *np, int64_t m, int32_t *ni, void *nx,
    cudaStream_t stream)
{
    ro_gather_kernel<V><<<ro_grid (m * 32, 256), 256, 0, stream>>> (p, i,
        (const V *) x, perm, np, m, ni, (V *) nx) ;
    return cudaGetLastError () ;
}

// CUB, each call once for its size (tmp NULL) and once to run
cudaError_t ro_sort (void *tmp, size_t &bytes, const uint32_t *len, uint32_t *len_out,
    const int32_t *ids, int32_t *perm, int64_t m, cudaStream_t stream)
{
    return cub::DeviceRadixSort::SortPairsDescending (tmp, bytes, len, len_out, ids,
        perm, (int) m, 0, 32, stream) ;
}

cudaError_t ro_scan (void *tmp, size_t &bytes, const uint32_t *len, int32_t *out,
    int64_t m, cudaStream_t stream)
{
    return cub::DeviceScan::InclusiveSum (tmp, bytes, (const int32_t *) len, out, (int) m,
        stream) ;
}

} // namespace

extern "C" void gg_cuda_rows_form_free (gg_rows_form *f, cudaStream_t stream)
{
    if (f == NULL) return ;
    if (f->buf != NULL) (void) cudaFreeAsync (f->buf, stream) ;
    memset (f, 0, sizeof (*f)) ;
}

extern "C" int gg_cuda_rows_by_length (int64_t m, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, size_t elem, gg_rows_form *out,
    cudaStream_t stream)
{
    if (out == NULL) return GG_ERR_UNSUPPORTED ;
    memset (out, 0, sizeof (*out)) ;
    if (m <= 0 || nnz < 0 || m >= INT32_MAX || nnz >= INT32_MAX || p == NULL
        || (nnz > 0 && i == NULL)
        || (x != NULL && elem != 1 && elem != 2 && elem != 4 && elem != 8))
    {
        return GG_ERR_UNSUPPORTED ;
    }
    (void) cudaGetLastError () ;        // not ours: an earlier call's, already reported
    // the form: p (m + 1), i (nnz), perm (m), x (nnz values)
    const size_t b_p = ro_round ((size_t) (m + 1) * 4), b_i = ro_round ((size_t) nnz * 4 + 4),
        b_perm = ro_round ((size_t) m * 4), b_x = (x == NULL) ? 0 : ro_round ((size_t) nnz * elem + 8),
        b_plan = ro_round (gg_cuda_spmv_plan_bytes (nnz)) ;
    // scratch: the lengths, sorted, the row ids, CUB's space
    size_t sort_bytes = 0, scan_bytes = 0 ;
    if (ro_sort (NULL, sort_bytes, NULL, NULL, NULL, NULL, m, stream) != cudaSuccess
        || ro_scan (NULL, scan_bytes, NULL, NULL, m, stream) != cudaSuccess)
    {
        return GG_ERR_DEVICE ;
    }
    const size_t b_len = ro_round ((size_t) m * 4), b_cub = ro_round (std::max (sort_bytes, scan_bytes)) ;
    char *buf = NULL, *tmp = NULL ;
    if (cudaMallocAsync ((void **) &buf, b_p + b_i + b_perm + b_x + b_plan, stream) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        return GG_ERR_DEVMEM ;
    }
    if (cudaMallocAsync ((void **) &tmp, 3 * b_len + b_cub, stream) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        (void) cudaFreeAsync (buf, stream) ;
        return GG_ERR_DEVMEM ;
    }
    int32_t *np = (int32_t *) buf, *ni = (int32_t *) (buf + b_p),
        *perm = (int32_t *) (buf + b_p + b_i) ;
    void *nx = (x == NULL) ? NULL : buf + b_p + b_i + b_perm ;
    void *plan = buf + b_p + b_i + b_perm + b_x ;
    uint32_t *len = (uint32_t *) tmp, *len_sorted = (uint32_t *) (tmp + b_len) ;
    int32_t *ids = (int32_t *) (tmp + 2 * b_len) ;
    void *cub_tmp = tmp + 3 * b_len ;
    cudaError_t err = cudaSuccess ;
    ro_len_kernel<<<ro_grid (m, 256), 256, 0, stream>>> (p, m, len, ids) ;
    err = cudaGetLastError () ;
    size_t sb = sort_bytes, cb = scan_bytes ;
    if (err == cudaSuccess) err = ro_sort (cub_tmp, sb, len, len_sorted, ids, perm, m, stream) ;
    // np [0] = 0, np [q + 1] = the entries of the form's rows 0 .. q
    if (err == cudaSuccess) err = cudaMemsetAsync (np, 0, sizeof (int32_t), stream) ;
    if (err == cudaSuccess) err = ro_scan (cub_tmp, cb, len_sorted, np + 1, m, stream) ;
    if (err == cudaSuccess && nnz > 0)
    {
        switch ((x == NULL) ? 4 : elem)
        {
            case 1:  err = ro_gather<uint8_t>  (p, i, x, perm, np, m, ni, nx, stream) ; break ;
            case 2:  err = ro_gather<uint16_t> (p, i, x, perm, np, m, ni, nx, stream) ; break ;
            case 4:  err = ro_gather<uint32_t> (p, i, x, perm, np, m, ni, nx, stream) ; break ;
            default: err = ro_gather<uint64_t> (p, i, x, perm, np, m, ni, nx, stream) ; break ;
        }
    }
    // the form's SpMV plan (its slot part for slot_kK)
    if (err == cudaSuccess && gg_cuda_spmv_plan_build (m, nnz, np, plan, stream) != GG_OK)
        err = cudaErrorLaunchFailure ;
    (void) cudaFreeAsync (tmp, stream) ;
    if (err != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        (void) cudaFreeAsync (buf, stream) ;
        return GG_ERR_DEVICE ;
    }
    out->m = m ;
    out->nnz = nnz ;
    out->p = np ;
    out->i = ni ;
    out->x = nx ;
    out->perm = perm ;
    out->plan = plan ;
    out->buf = buf ;
    out->bytes = b_p + b_i + b_perm + b_x + b_plan ;
    return GG_OK ;
}
