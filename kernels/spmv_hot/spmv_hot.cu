//------------------------------------------------------------------------------
// kernels/spmv_hot/spmv_hot.cu: hot/cold SpMV: the hot form and the product
//------------------------------------------------------------------------------

// The product is warp_t8's (kernels/spmm/spmv_warp.cu, HOT = true), reached
// through the SpMM family's dispatch (kernels/spmm/spmm_internal.cuh).

#include "kernels/spmm/spmm_internal.cuh"

// The x gathers of SpMV on a power-law matrix are bound by the L2's request
// rate (bench/NOTES.md, session 3).  The columns with the most entries (on
// R-MAT 2^22 the top 49K of 4M hold ~60 % of the entries) are served from
// shared memory instead: per matrix, `hot` lists the K columns of degree >= t
// (t: the smallest threshold that leaves at most kmax of them; ascending
// column order) and `ih` is a copy of the column indices with a hot column's
// index replaced by its slot | SPW_HOT_FLAG.  Per call, x at the hot columns
// is gathered into a contiguous buffer and each persistent block of the warp
// kernel stages it in shared memory (spmm_spmv_warp_kernel, HOT = true).
//
// The build: column degrees (atomics), a histogram of the degrees (exact up
// to SPW_HIST_BINS - 2, the last bin holding all larger ones), copied to the
// host to pick t (the one synchronisation), then the hot columns' slots by a
// scan over tiles of columns, and the renumbered copy of the indices.

#define SPW_HIST_BINS 65536     // degree histogram bins (the last: >= 65535)
#define SPW_HIST_SMEM 4096      // low bins counted per block in shared memory
#define SPW_TILE 1024           // columns per block in the slot scan

__global__ void spw_degree_kernel (const int32_t *ci, int64_t nnz, int32_t *deg)
{
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x)
        atomicAdd (deg + ci [e], 1) ;
}

__global__ void spw_hist_kernel (const int32_t *deg, int64_t k, int32_t *hist)
{
    __shared__ int32_t s_h [SPW_HIST_SMEM] ;
    for (int b = threadIdx.x ; b < SPW_HIST_SMEM ; b += blockDim.x) s_h [b] = 0 ;
    __syncthreads () ;
    for (int64_t c = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; c < k ;
         c += (int64_t) gridDim.x * blockDim.x)
    {
        const int d = min (deg [c], SPW_HIST_BINS - 1) ;
        if (d < SPW_HIST_SMEM) atomicAdd (s_h + d, 1) ;
        else atomicAdd (hist + d, 1) ;
    }
    __syncthreads () ;
    for (int b = threadIdx.x ; b < SPW_HIST_SMEM ; b += blockDim.x)
        if (s_h [b] != 0) atomicAdd (hist + b, s_h [b]) ;
}

// exclusive sum of v over a block of SPW_TILE threads; *total = the sum
__device__ __forceinline__ int spw_block_scan (int v, int *total)
{
    __shared__ int s_w [SPW_TILE / 32] ;
    const int lane = threadIdx.x & 31, wid = threadIdx.x >> 5 ;
    int incl = v ;
    #pragma unroll
    for (int off = 1 ; off < 32 ; off *= 2)
    {
        int o = __shfl_up_sync (0xffffffffu, incl, off) ;
        if (lane >= off) incl += o ;
    }
    if (lane == 31) s_w [wid] = incl ;
    __syncthreads () ;
    if (wid == 0)
    {
        int x = s_w [lane] ;        // SPW_TILE / 32 == 32 warps
        #pragma unroll
        for (int off = 1 ; off < 32 ; off *= 2)
        {
            int o = __shfl_up_sync (0xffffffffu, x, off) ;
            if (lane >= off) x += o ;
        }
        s_w [lane] = x ;
    }
    __syncthreads () ;
    const int before = (wid > 0) ? s_w [wid - 1] : 0 ;
    *total = s_w [SPW_TILE / 32 - 1] ;
    __syncthreads () ;          // s_w is reused by the next call
    return before + incl - v ;
}

// tcount [b] = hot columns in tile b
__global__ void __launch_bounds__ (SPW_TILE)
spw_tile_count_kernel (const int32_t *deg, int64_t k, int32_t t, int32_t *tcount)
{
    const int64_t c = (int64_t) blockIdx.x * SPW_TILE + threadIdx.x ;
    const int n = __syncthreads_count (c < k && deg [c] >= t) ;
    if (threadIdx.x == 0) tcount [blockIdx.x] = n ;
}

// toff = exclusive sum of tcount (one block)
__global__ void __launch_bounds__ (SPW_TILE)
spw_tile_scan_kernel (const int32_t *tcount, int64_t ntiles, int32_t *toff)
{
    int carry = 0 ;
    for (int64_t b0 = 0 ; b0 < ntiles ; b0 += SPW_TILE)
    {
        const int64_t b = b0 + threadIdx.x ;
        int total ;
        const int ex = spw_block_scan ((b < ntiles) ? tcount [b] : 0, &total) ;
        if (b < ntiles) toff [b] = carry + ex ;
        carry += total ;
    }
}

// deg [c] becomes the slot of column c (-1: cold); hot [slot] = c
__global__ void __launch_bounds__ (SPW_TILE)
spw_slot_kernel (int32_t *deg, int64_t k, int32_t t, const int32_t *toff,
    int32_t *hot)
{
    const int64_t c = (int64_t) blockIdx.x * SPW_TILE + threadIdx.x ;
    const bool h = (c < k && deg [c] >= t) ;
    int total ;
    const int slot = toff [blockIdx.x] + spw_block_scan (h ? 1 : 0, &total) ;
    if (c < k) deg [c] = h ? slot : -1 ;
    if (h) hot [slot] = (int32_t) c ;
}

// ih [e] = slot (ci [e]) | SPW_HOT_FLAG for a hot column, else ci [e]
__global__ void spw_renumber_kernel (const int32_t *ci, int64_t nnz,
    const int32_t *slot, int32_t *ih)
{
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        const int32_t c = ci [e] ;
        const int32_t s = slot [c] ;
        ih [e] = (s >= 0) ? (s | SPW_HOT_FLAG) : c ;
    }
}

extern "C" size_t gg_cuda_spmv_hot_max (int type_size)
{
    return (size_t) spw_hot_max (type_size) ;
}

extern "C" int gg_cuda_spmv_hot_build (int64_t m, int64_t k, int64_t nnz,
    const int32_t *p, const int32_t *i, int64_t kmax, int32_t *hot,
    int32_t *ih, int64_t *K, int64_t *hot_nnz, cudaStream_t stream)
{
    (void) p ;
    if (K == NULL) return GG_ERR_UNSUPPORTED ;
    *K = 0 ;
    if (hot_nnz != NULL) *hot_nnz = 0 ;
    if (m < 0 || k < 0 || nnz < 0 || m > INT32_MAX || k > INT32_MAX
        || nnz > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (nnz == 0) return GG_OK ;
    if (kmax <= 0 || k == 0)
    {
        // no hot columns: ih = i
        if (cudaMemcpyAsync (ih, i, (size_t) nnz * sizeof (int32_t),
            cudaMemcpyDeviceToDevice, stream) != cudaSuccess)
        {
            cudaGetLastError () ;
            return GG_ERR_DEVICE ;
        }
        return GG_OK ;
    }

    // scratch: degrees (then slots), the histogram, tile counts and offsets
    const int64_t ntiles = (k + SPW_TILE - 1) / SPW_TILE ;
    const size_t dbytes = spmm_round16 ((size_t) k * sizeof (int32_t)) ;
    const size_t hbytes = spmm_round16 ((size_t) SPW_HIST_BINS * sizeof (int32_t)) ;
    const size_t tbytes = spmm_round16 ((size_t) ntiles * sizeof (int32_t)) ;
    void *ws = NULL ;
    const int src = gg_kernel_scratch (&ws, dbytes + hbytes + 2 * tbytes, stream) ;
    if (src != GG_OK) return src ;
    unsigned char *wb = (unsigned char *) ws ;
    int32_t *deg = (int32_t *) wb ;
    int32_t *hist = (int32_t *) (wb + dbytes) ;
    int32_t *tcount = (int32_t *) (wb + dbytes + hbytes) ;
    int32_t *toff = (int32_t *) (wb + dbytes + hbytes + tbytes) ;
    int32_t *h_hist = (int32_t *) malloc ((size_t) SPW_HIST_BINS * sizeof (int32_t)) ;
    int rc = GG_OK ;
    int64_t nhot = 0 ;
    int32_t t = 0 ;
    const int sms = (gg_device_sms () > 0) ? gg_device_sms () : 132 ;

    // deg = column degrees, hist = their histogram, to the host
    if (h_hist == NULL) rc = GG_ERR_NOMEM ;
    if (rc == GG_OK)
    {
        cudaMemsetAsync (ws, 0, dbytes + hbytes, stream) ;
        spw_degree_kernel <<<(unsigned) (sms * 8), 256, 0, stream>>> (i, nnz, deg) ;
        spw_hist_kernel <<<(unsigned) sms, 1024, 0, stream>>> (deg, k, hist) ;
        if (cudaMemcpyAsync (h_hist, hist, (size_t) SPW_HIST_BINS * sizeof (int32_t),
            cudaMemcpyDeviceToHost, stream) != cudaSuccess
            || cudaStreamSynchronize (stream) != cudaSuccess)
        {
            cudaGetLastError () ;
            rc = GG_ERR_DEVICE ;
        }
    }
    if (rc == GG_OK)
    {
        // t: the smallest degree >= 1 with at most kmax columns at or above it
        t = SPW_HIST_BINS ;
        for (int d = SPW_HIST_BINS - 1 ; d >= 1 ; d--)
        {
            if (nhot + h_hist [d] > kmax) break ;
            nhot += h_hist [d] ;
            t = d ;
        }
        // the entries in the hot columns: all but those of degree < t (the
        // last bin, degrees >= its index, is hot whenever any column is)
        int64_t cold = 0 ;
        for (int d = 1 ; d < t && d < SPW_HIST_BINS ; d++) cold += (int64_t) d * h_hist [d] ;
        if (hot_nnz != NULL && nhot > 0) *hot_nnz = nnz - cold ;
        if (nhot == 0)
        {
            if (cudaMemcpyAsync (ih, i, (size_t) nnz * sizeof (int32_t),
                cudaMemcpyDeviceToDevice, stream) != cudaSuccess) rc = GG_ERR_DEVICE ;
        }
        else
        {
            // slots in ascending column order, then the renumbered indices
            spw_tile_count_kernel <<<(unsigned) ntiles, SPW_TILE, 0, stream>>> (deg, k, t, tcount) ;
            spw_tile_scan_kernel <<<1, SPW_TILE, 0, stream>>> (tcount, ntiles, toff) ;
            spw_slot_kernel <<<(unsigned) ntiles, SPW_TILE, 0, stream>>> (deg, k, t, toff, hot) ;
            spw_renumber_kernel <<<(unsigned) (sms * 8), 256, 0, stream>>> (i, nnz, deg, ih) ;
        }
        if (rc == GG_OK) rc = gg_launch_status () ;
    }
    cudaFreeAsync (ws, stream) ;
    free (h_hist) ;
    if (rc == GG_OK) *K = nhot ;
    return rc ;
}

// n == 1 with the hot form; rows, scratch and errors as gg_cuda_spmm_plan
extern "C" int gg_cuda_spmv_hot (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *ih, const void *x, bool iso,
    const void *X, void *Y, const void *plan, const int32_t *hot, int64_t K,
    cudaStream_t stream)
{
    gg_canon cs ;
    if (!spmm_check (sr, m, k, 1, nnz, x, X, &cs)) return GG_ERR_UNSUPPORTED ;
    if (K < 0 || K > k || (K > 0 && hot == NULL)) return GG_ERR_UNSUPPORTED ;
    const spmm_variant *var = spmm_variant_named ("warp_t8") ;
    if (m == 0 || nnz == 0) return GG_OK ;
    return spmm_run (sr, &cs, var, true, m, k, 1, nnz, p, ih, x, iso, X, Y,
        (const int32_t *) plan, hot, K, stream) ;
}
