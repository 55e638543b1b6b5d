//------------------------------------------------------------------------------
// formats/hybrid.cu: build the hybrid tensor-core / CUDA-core form on the device
//------------------------------------------------------------------------------

// gg_tc_build (kernels/tc_spmm/tc_spmm.h): S (device CSR) -> gg_hybrid_form
// (kernels/tc_spmm/tc_layout.h), with no copy of S to the host.  The steps:
//
//  1. row_of: the row of every entry (a warp per row, so a long row costs
//     its length / 32 stores, not a serial loop).
//  2. vectors: for every entry (r, c) of window w, the other rows of w are
//     searched for c (binary search in their sorted columns); the count of
//     rows holding c is the size of the entry's 8x1 column vector, the same
//     for all its entries, and the first row holding c gives the vector's
//     leader (its entry in the lowest row).  A vector with >= threshold
//     entries goes to the tensor-core part.  Flags per entry: leader of a
//     tensor-core vector (high 32 bits), remainder entry (low 32 bits).
//  3. one exclusive scan of the flags: leader rank L (e) and remainder rank
//     R (e).  A window's vectors are the leaders in [p [8w], p [8w+8]), so
//     its vector count is a difference of two L's; a vector's slot in its
//     window is L (leader) - L (p [8w]): vectors in CSR order of their
//     leaders (deterministic; not sorted by column, which the product does
//     not need).
//  4. per window: blocks = ceil (vectors / 8), segments = ceil (blocks /
//     seg_blocks), and the rows to zero before atomics; scanned.
//  5. sizes to the host (synchronisation 1), one allocation for the form.
//  6. scatter: TC entries to their block's values (fragment order), leaders
//     write the block's column; remainder entries to the remainder CSR at
//     R (e) (the index form: also their rows, rrow); rp [r] = R (p [r]);
//     segments and zero rows per window; the remainder's SpMV plan (not in
//     the index form); its longest row to the host (synchronisation 2).
//
// Scratch: 24 bytes per entry (row, leader, flags, scan) plus 32 per window,
// one stream-ordered allocation (cudaMallocAsync; CUB's scratch a second),
// freed before returning.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <chrono>
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include "kernels/gg_cuda.h"
#include "kernels/tc_spmm/tc_spmm.h"

//------------------------------------------------------------------------------
// kernels
//------------------------------------------------------------------------------

// row [e] = the row of entry e: warp per row
__global__ void hyb_row_of_kernel (const int32_t *__restrict__ p, int64_t m,
    int32_t *__restrict__ row)
{
    const int lane = threadIdx.x & 31 ;
    const int64_t nwarps = (int64_t) gridDim.x * (blockDim.x / 32) ;
    for (int64_t r = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
         r < m ; r += nwarps)
    {
        const int32_t lo = p [r], hi = p [r+1] ;
        for (int32_t e = lo + lane ; e < hi ; e += 32) row [e] = (int32_t) r ;
    }
}

// lead [e] = the leader entry of e's column vector if the vector goes to the
// tensor-core part, else -1; flags [e] = (leader of a TC vector) << 32 |
// (remainder entry).  raw (a window rule follows): lead [e] = the leader
// whatever the vector's size, flags [e] = the vector's size
__global__ void hyb_vector_kernel (const int32_t *__restrict__ p,
    const int32_t *__restrict__ ci, const int32_t *__restrict__ row, int64_t m,
    int64_t nnz, int threshold, bool raw, int32_t *__restrict__ lead,
    unsigned long long *__restrict__ flags)
{
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        const int32_t r = row [e], c = ci [e] ;
        const int64_t w0 = r & ~7 ;
        const int rr = r & 7 ;
        int cnt = 1 ;
        int32_t ld = (int32_t) e ;
        for (int q = 0 ; q < GG_HYB_WIN ; q++)
        {
            if (q == rr || w0 + q >= m) continue ;
            int32_t lo = p [w0 + q], hi = p [w0 + q + 1] ;
            if (lo >= hi || ci [lo] > c || ci [hi - 1] < c) continue ;
            // first position in [lo, hi) with column >= c (exists: ci [hi-1] >= c)
            while (lo < hi)
            {
                const int32_t mid = lo + ((hi - lo) >> 1) ;
                if (ci [mid] < c) lo = mid + 1 ; else hi = mid ;
            }
            if (ci [lo] == c)
            {
                cnt++ ;
                // q ascends: the first row below r holding c is the leader's
                if (q < rr && ld == (int32_t) e) ld = lo ;
            }
        }
        if (raw)
        {
            lead [e] = ld ;
            flags [e] = (unsigned long long) cnt ;
            continue ;
        }
        const bool tc = cnt >= threshold ;
        lead [e] = tc ? ld : -1 ;
        flags [e] = tc ? ((ld == (int32_t) e) ? (1ull << 32) : 0ull) : 1ull ;
    }
}

// The window rule (gg_tc_rule), a warp per window, after the raw vector
// kernel: a window whose vectors of >= threshold entries hold fewer than
// win_min entries goes wholly to the remainder (a block of one or two
// vectors costs its 8 rows of X and its 8 rows of Y read and written again,
// for a few entries); else a window whose such vectors hold at least
// absorb_pct % of its entries goes wholly to the tensor-core part (every
// column a vector, whatever its size: the window's rows then have no
// remainder entries, so the remainder's kernel neither reads nor writes
// them, and where no window keeps a remainder the product is one launch).
// Otherwise the vector rule.  Then lead and flags as hyb_vector_kernel's.
__global__ void hyb_window_rule_kernel (const int32_t *__restrict__ p, int64_t m,
    int64_t nwin, int threshold, int absorb_pct, int win_min, int absorb_grow,
    int32_t *__restrict__ lead, unsigned long long *__restrict__ flags)
{
    const int lane = threadIdx.x & 31 ;
    const int64_t nwarps = (int64_t) gridDim.x * (blockDim.x / 32) ;
    for (int64_t w = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
         w < nwin ; w += nwarps)
    {
        const int64_t r0 = w * GG_HYB_WIN ;
        const int64_t r1 = (r0 + GG_HYB_WIN < m) ? r0 + GG_HYB_WIN : m ;
        const int32_t lo = p [r0], hi = p [r1] ;
        // entries in TC vectors; vectors (their leaders), and TC ones
        int64_t tc = 0 ;
        int32_t nv = 0, nvt = 0 ;
        for (int32_t e = lo + lane ; e < hi ; e += 32)
        {
            const bool big = flags [e] >= (unsigned long long) threshold, leader = (lead [e] == e) ;
            tc += big ;
            nv += leader ;
            nvt += leader && big ;
        }
        for (int o = 16 ; o > 0 ; o >>= 1)
        {
            tc += __shfl_xor_sync (0xffffffffu, tc, o) ;
            nv += __shfl_xor_sync (0xffffffffu, nv, o) ;
            nvt += __shfl_xor_sync (0xffffffffu, nvt, o) ;
        }
        const int64_t tot = hi - lo ;
        const bool none = tc < win_min ;
        // (absorb_grow: only where the window's blocks, ceil (vectors / 8),
        // stay within that many times its blocks of TC vectors)
        const bool few = absorb_grow <= 0
            || (nv + 7) / 8 <= (int64_t) absorb_grow * ((nvt + 7) / 8) ;
        const bool all = !none && few && absorb_pct > 0 && tc > 0 && tc * 100 >= (int64_t) absorb_pct * tot ;
        for (int32_t e = lo + lane ; e < hi ; e += 32)
        {
            const int32_t ld = lead [e] ;
            const bool in = all || (!none && flags [e] >= (unsigned long long) threshold) ;
            lead [e] = in ? ld : -1 ;
            flags [e] = in ? ((ld == e) ? (1ull << 32) : 0ull) : 1ull ;
        }
    }
}

// per-window counts, scanned together
struct hyb_cnt
{
    int32_t blk, seg, zero, pad ;
} ;
struct hyb_cnt_add
{
    __host__ __device__ hyb_cnt operator() (const hyb_cnt &a, const hyb_cnt &b) const
    {
        hyb_cnt s = { a.blk + b.blk, a.seg + b.seg, a.zero + b.zero, 0 } ;
        return s ;
    }
} ;

__device__ __forceinline__ int64_t hyb_L (const unsigned long long *scan, int64_t e)
{
    return (int64_t) (scan [e] >> 32) ;
}
__device__ __forceinline__ int64_t hyb_R (const unsigned long long *scan, int64_t e)
{
    return (int64_t) (scan [e] & 0xffffffffull) ;
}

// wc [w] = window w's blocks, segments and rows to zero (wc [nwin] = 0)
__global__ void hyb_window_count_kernel (const int32_t *__restrict__ p, int64_t m,
    int64_t nwin, const unsigned long long *__restrict__ scan, int seg_blocks,
    hyb_cnt *__restrict__ wc)
{
    for (int64_t w = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; w <= nwin ;
         w += (int64_t) gridDim.x * blockDim.x)
    {
        hyb_cnt c = { 0, 0, 0, 0 } ;
        if (w < nwin)
        {
            const int64_t r0 = w * GG_HYB_WIN ;
            const int64_t r1 = (r0 + GG_HYB_WIN < m) ? r0 + GG_HYB_WIN : m ;
            const int64_t nvec = hyb_L (scan, p [r1]) - hyb_L (scan, p [r0]) ;
            c.blk = (nvec + GG_HYB_SLOTS - 1) / GG_HYB_SLOTS ;
            c.seg = (c.blk + seg_blocks - 1) / seg_blocks ;
            if (c.seg > 1)
                for (int64_t r = r0 ; r < r1 ; r++)
                {
                    const int64_t rem = hyb_R (scan, p [r+1]) - hyb_R (scan, p [r]) ;
                    const int64_t tot = p [r+1] - p [r] ;
                    if (rem == 0 && tot > 0) c.zero++ ;
                }
        }
        wc [w] = c ;
    }
}

// entries to their part; x == NULL (the index form, T = int32_t): val gets
// the entry's position + 1 (0 stays: absent), rx its position
template <typename T>
__global__ void hyb_scatter_kernel (const int32_t *__restrict__ p,
    const int32_t *__restrict__ ci, const T *__restrict__ x,
    const int32_t *__restrict__ row, const int32_t *__restrict__ lead,
    const unsigned long long *__restrict__ scan, const hyb_cnt *__restrict__ wc,
    int64_t nnz, int32_t *__restrict__ col, T *__restrict__ val,
    int32_t *__restrict__ ri, T *__restrict__ rx, int32_t *__restrict__ rrow)
{
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        const int32_t ld = lead [e], c = ci [e] ;
        if (ld < 0)
        {
            const int64_t q = hyb_R (scan, e) ;
            ri [q] = c ;
            rx [q] = (x != NULL) ? x [e] : (T) e ;
            if (rrow != NULL) rrow [q] = row [e] ;
            continue ;
        }
        const int32_t r = row [e] ;
        const int64_t w = r / GG_HYB_WIN ;
        const int64_t v = hyb_L (scan, ld) - hyb_L (scan, p [w * GG_HYB_WIN]) ;
        const int64_t b = wc [w].blk + v / GG_HYB_SLOTS ;
        const int s = (int) (v % GG_HYB_SLOTS) ;
        val [64 * b + GG_HYB_VAL_POS (r % GG_HYB_WIN, s)] = (x != NULL) ? x [e] : (T) (e + 1) ;
        if (ld == (int32_t) e) col [8 * b + GG_HYB_COL_POS (s)] = c ;
    }
}

// rp [r] = R (p [r]); the remainder's longest row into maxrow [0], the
// number of rows holding remainder entries added to maxrow [1]
__global__ void hyb_rowptr_kernel (const int32_t *__restrict__ p, int64_t m,
    const unsigned long long *__restrict__ scan, int32_t *__restrict__ rp,
    int *__restrict__ maxrow)
{
    int best = 0, rows = 0 ;
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; r <= m ;
         r += (int64_t) gridDim.x * blockDim.x)
    {
        const int32_t a = (int32_t) hyb_R (scan, p [r]) ;
        rp [r] = a ;
        if (r < m)
        {
            const int32_t b = (int32_t) hyb_R (scan, p [r+1]) ;
            if (b - a > best) best = b - a ;
            rows += (b > a) ;
        }
    }
    if (best > 0) atomicMax (maxrow, best) ;
    if (rows > 0) atomicAdd (maxrow + 1, rows) ;
}

// segments and rows to zero, per window
__global__ void hyb_segment_kernel (const int32_t *__restrict__ p, int64_t m,
    int64_t nwin, const unsigned long long *__restrict__ scan,
    const hyb_cnt *__restrict__ wc, int seg_blocks, int64_t nblk,
    int64_t nseg, int32_t *__restrict__ seg_blk, uint32_t *__restrict__ seg_win,
    int32_t *__restrict__ zero_rows)
{
    for (int64_t w = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; w < nwin ;
         w += (int64_t) gridDim.x * blockDim.x)
    {
        const hyb_cnt a = wc [w], b = wc [w+1] ;
        const int64_t ns = b.seg - a.seg ;
        const uint32_t flag = (ns > 1) ? GG_HYB_SEG_SHARED : 0u ;
        for (int64_t j = 0 ; j < ns ; j++)
        {
            seg_blk [a.seg + j] = (int32_t) (a.blk + j * seg_blocks) ;
            seg_win [a.seg + j] = (uint32_t) w | flag ;
        }
        if (ns > 1)
        {
            const int64_t r0 = w * GG_HYB_WIN ;
            const int64_t r1 = (r0 + GG_HYB_WIN < m) ? r0 + GG_HYB_WIN : m ;
            int64_t z = a.zero ;
            for (int64_t r = r0 ; r < r1 ; r++)
            {
                const int64_t rem = hyb_R (scan, p [r+1]) - hyb_R (scan, p [r]) ;
                if (rem == 0 && p [r+1] > p [r]) zero_rows [z++] = (int32_t) r ;
            }
        }
        if (w == nwin - 1) seg_blk [nseg] = (int32_t) nblk ;
    }
}

// win_blk [w] = the blocks before window w (w = 0 .. nwin)
__global__ void hyb_win_blk_kernel (const hyb_cnt *__restrict__ wc, int64_t nwin,
    int32_t *__restrict__ win_blk)
{
    for (int64_t w = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; w <= nwin ;
         w += (int64_t) gridDim.x * blockDim.x)
        win_blk [w] = (int32_t) wc [w].blk ;
}

//------------------------------------------------------------------------------
// the build
//------------------------------------------------------------------------------

static size_t hyb_round (size_t b) { return (b + 255) & ~(size_t) 255 ; }

#define HYB_TRY(call) do { if ((call) != cudaSuccess) { cudaGetLastError () ; \
    rc = GG_ERR_DEVICE ; goto done ; } } while (0)
#define HYB_ALLOC(ptr, bytes) do { if (cudaMallocAsync ((void **) &(ptr), \
    hyb_round (bytes), stream) != cudaSuccess) { cudaGetLastError () ; \
    rc = GG_ERR_DEVMEM ; goto done ; } } while (0)
#define HYB_LAUNCH(...) do { __VA_ARGS__ ; HYB_TRY (cudaGetLastError ()) ; } while (0)
// a CUB device call with its scratch (grown when a call needs more)
#define HYB_CUB(fn, ...) do { size_t cub_bytes = 0 ; \
    HYB_TRY (fn (NULL, cub_bytes, __VA_ARGS__)) ; \
    if (cub_tmp == NULL || cub_bytes > cub_have) { if (cub_tmp != NULL) cudaFreeAsync (cub_tmp, stream) ; \
        cub_tmp = NULL ; cub_have = cub_bytes ; HYB_ALLOC (cub_tmp, cub_have) ; } \
    HYB_TRY (fn (cub_tmp, cub_bytes, __VA_ARGS__)) ; } while (0)

static unsigned hyb_grid (int64_t work, int threads)
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
    int64_t g = (work + threads - 1) / threads ;
    const int64_t cap = (int64_t) sms * 16 ;
    if (g > cap) g = cap ;
    return (unsigned) (g < 1 ? 1 : g) ;
}

extern "C" int gg_tc_build (int64_t m, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, gg_type type, int threshold,
    int seg_blocks, gg_hybrid_form **form, cudaStream_t stream)
{
    const gg_tc_rule rule = { threshold, seg_blocks, 0, 0, 0 } ;
    return gg_tc_build_rule (m, k, nnz, p, i, x, type, &rule, form, stream) ;
}

extern "C" int gg_tc_build_rule (int64_t m, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, gg_type type, const gg_tc_rule *rule,
    gg_hybrid_form **form, cudaStream_t stream)
{
    if (form == NULL || rule == NULL) return GG_ERR_UNSUPPORTED ;
    int threshold = rule->threshold, seg_blocks = rule->seg_blocks ;
    const int absorb_pct = (rule->absorb_pct > 0 && rule->absorb_pct <= 100) ? rule->absorb_pct : 0 ;
    const int win_min = (rule->win_min > 0) ? rule->win_min : 0 ;
    const int absorb_grow = (absorb_pct > 0 && rule->absorb_grow > 0) ? rule->absorb_grow : 0 ;
    const bool win_rule = (absorb_pct > 0 || win_min > 0) ;
    *form = NULL ;
    // GG_INT32 with x == NULL: the index form (tc_spmm.h)
    const bool index = (type == GG_INT32) ;
    if (type != GG_FP32 && type != GG_FP64 && !(index && x == NULL)) return GG_ERR_UNSUPPORTED ;
    if (m <= 0 || k <= 0 || nnz < 0 || m >= INT32_MAX - 8 || k >= INT32_MAX
        || nnz >= INT32_MAX - 64 || p == NULL
        || (nnz > 0 && (i == NULL || (x == NULL && !index))))
        return GG_ERR_UNSUPPORTED ;
    if (threshold <= 0) threshold = 3 ;
    if (threshold > GG_HYB_WIN) threshold = GG_HYB_WIN + 1 ;    // nothing to the TC part
    if (seg_blocks <= 0) seg_blocks = 16 ;
    if (seg_blocks > 32) seg_blocks = 32 ;          // the kernel stages <= 32 blocks' columns

    const auto t0 = std::chrono::steady_clock::now () ;
    const size_t ts = (type == GG_FP64) ? 8 : 4 ;
    const int64_t nwin = (m + GG_HYB_WIN - 1) / GG_HYB_WIN ;
    int rc = GG_OK ;
    int32_t *row = NULL, *lead = NULL ;
    unsigned long long *flags = NULL, *scan = NULL ;
    hyb_cnt *wcnt = NULL, *wc = NULL ;
    int *maxrow_d = NULL ;
    char *scratch = NULL ;
    void *cub_tmp = NULL ;
    size_t cub_have = 0 ;
    unsigned long long tot = 0 ;
    hyb_cnt wtot ;
    int maxrow [2] = { 0, 0 } ;         // longest remainder row, rows holding any
    gg_hybrid_form *f = NULL ;
    size_t off = 0 ;
    char *base ;

    f = (gg_hybrid_form *) calloc (1, sizeof (gg_hybrid_form)) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->m = m ; f->k = k ; f->nnz = nnz ; f->type = type ;
    f->threshold = threshold ; f->seg_blocks = seg_blocks ;
    f->absorb_pct = absorb_pct ; f->win_min = win_min ; f->absorb_grow = absorb_grow ;

    // 1-3: rows, vectors, ranks; the scratch arrays in one allocation (one
    // pool call instead of seven: the build's fixed cost is what small
    // matrices pay)
    {
        const size_t sz [7] = { (size_t) nnz * 4 + 4, (size_t) nnz * 4 + 4,
            (size_t) (nnz + 1) * 8, (size_t) (nnz + 1) * 8,
            (size_t) (nwin + 1) * sizeof (hyb_cnt), (size_t) (nwin + 1) * sizeof (hyb_cnt),
            2 * sizeof (int) } ;
        size_t total = 0 ;
        for (int q = 0 ; q < 7 ; q++) total += hyb_round (sz [q]) ;
        HYB_ALLOC (scratch, total) ;
        char *at = scratch ;
        row = (int32_t *) at ; at += hyb_round (sz [0]) ;
        lead = (int32_t *) at ; at += hyb_round (sz [1]) ;
        flags = (unsigned long long *) at ; at += hyb_round (sz [2]) ;
        scan = (unsigned long long *) at ; at += hyb_round (sz [3]) ;
        wcnt = (hyb_cnt *) at ; at += hyb_round (sz [4]) ;
        wc = (hyb_cnt *) at ; at += hyb_round (sz [5]) ;
        maxrow_d = (int *) at ;
    }
    HYB_TRY (cudaMemsetAsync (flags + nnz, 0, 8, stream)) ;
    HYB_TRY (cudaMemsetAsync (maxrow_d, 0, 2 * sizeof (int), stream)) ;
    if (nnz > 0)
    {
        HYB_LAUNCH ((hyb_row_of_kernel <<<hyb_grid (m * 32, 256), 256, 0, stream>>> (p, m, row))) ;
        HYB_LAUNCH ((hyb_vector_kernel <<<hyb_grid (nnz, 256), 256, 0, stream>>> (p, i, row, m,
            nnz, threshold, win_rule, lead, flags))) ;
        if (win_rule)
            HYB_LAUNCH ((hyb_window_rule_kernel <<<hyb_grid (nwin * 32, 256), 256, 0, stream>>> (p, m,
                nwin, threshold, absorb_pct, win_min, absorb_grow, lead, flags))) ;
    }
    HYB_CUB (cub::DeviceScan::ExclusiveSum, flags, scan, (int64_t) nnz + 1, stream) ;

    // 4: per window
    HYB_LAUNCH ((hyb_window_count_kernel <<<hyb_grid (nwin + 1, 256), 256, 0, stream>>> (p, m,
        nwin, scan, seg_blocks, wcnt))) ;
    {
        hyb_cnt zero = { 0, 0, 0, 0 } ;
        HYB_CUB (cub::DeviceScan::ExclusiveScan, wcnt, wc, hyb_cnt_add (), zero,
            (int64_t) nwin + 1, stream) ;
    }

    // 5: sizes, and the form's allocation
    HYB_TRY (cudaMemcpyAsync (&tot, scan + nnz, 8, cudaMemcpyDeviceToHost, stream)) ;
    HYB_TRY (cudaMemcpyAsync (&wtot, wc + nwin, sizeof (hyb_cnt), cudaMemcpyDeviceToHost, stream)) ;
    HYB_TRY (cudaStreamSynchronize (stream)) ;
    f->nvec = (int64_t) (tot >> 32) ;
    f->rem_nnz = (int64_t) (tot & 0xffffffffull) ;
    f->tc_nnz = nnz - f->rem_nnz ;
    f->nblk = wtot.blk ;
    f->nseg = wtot.seg ;
    f->nzero = wtot.zero ;
    if (f->nblk * 64 >= INT64_C (1) << 40) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    {
        const size_t sz [9] = {
            (size_t) f->nblk * 8 * 4,           // col
            (size_t) f->nblk * 64 * ts,         // val
            (size_t) (f->nseg + 1) * 4,         // seg_blk
            (size_t) f->nseg * 4,               // seg_win
            (size_t) f->nzero * 4,              // zero_rows
            (size_t) (m + 1) * 4,               // rp
            (size_t) f->rem_nnz * 4,            // ri
            (size_t) f->rem_nnz * ts,           // rx
            (size_t) (nwin + 1) * 4 } ;         // win_blk
        // the index form: the remainder's rows (rrow) where the others have
        // the SpMV plan
        const size_t plan = index ? (size_t) f->rem_nnz * 4 + 4
            : gg_cuda_spmv_plan_bytes (f->rem_nnz) ;
        size_t total = hyb_round (plan) ;
        for (int q = 0 ; q < 9 ; q++) total += hyb_round (sz [q]) ;
        HYB_TRY (cudaMallocAsync (&f->base, total, stream)) ;
        f->bytes = total ;
        base = (char *) f->base ;
        f->col = (int32_t *) (base + off) ; off += hyb_round (sz [0]) ;
        f->val = (void *) (base + off) ; off += hyb_round (sz [1]) ;
        f->seg_blk = (int32_t *) (base + off) ; off += hyb_round (sz [2]) ;
        f->seg_win = (uint32_t *) (base + off) ; off += hyb_round (sz [3]) ;
        f->zero_rows = (int32_t *) (base + off) ; off += hyb_round (sz [4]) ;
        f->rp = (int32_t *) (base + off) ; off += hyb_round (sz [5]) ;
        f->ri = (int32_t *) (base + off) ; off += hyb_round (sz [6]) ;
        f->rx = (void *) (base + off) ; off += hyb_round (sz [7]) ;
        f->win_blk = (int32_t *) (base + off) ; off += hyb_round (sz [8]) ;
        f->nwin = nwin ;
        if (index) f->rrow = (int32_t *) (base + off) ;
        else f->rplan = (void *) (base + off) ;
    }

    // 6: fill
    if (f->nblk > 0)
    {
        HYB_TRY (cudaMemsetAsync (f->col, 0xff, (size_t) f->nblk * 8 * 4, stream)) ;
        HYB_TRY (cudaMemsetAsync (f->val, 0, (size_t) f->nblk * 64 * ts, stream)) ;
    }
    if (nnz > 0)
    {
        if (index)
            HYB_LAUNCH ((hyb_scatter_kernel<int32_t> <<<hyb_grid (nnz, 256), 256, 0, stream>>> (p, i,
                (const int32_t *) NULL, row, lead, scan, wc, nnz, f->col, (int32_t *) f->val, f->ri,
                (int32_t *) f->rx, f->rrow))) ;
        else if (type == GG_FP32)
            HYB_LAUNCH ((hyb_scatter_kernel<float> <<<hyb_grid (nnz, 256), 256, 0, stream>>> (p, i,
                (const float *) x, row, lead, scan, wc, nnz, f->col, (float *) f->val, f->ri,
                (float *) f->rx, (int32_t *) NULL))) ;
        else
            HYB_LAUNCH ((hyb_scatter_kernel<double> <<<hyb_grid (nnz, 256), 256, 0, stream>>> (p, i,
                (const double *) x, row, lead, scan, wc, nnz, f->col, (double *) f->val, f->ri,
                (double *) f->rx, (int32_t *) NULL))) ;
    }
    HYB_LAUNCH ((hyb_rowptr_kernel <<<hyb_grid (m + 1, 256), 256, 0, stream>>> (p, m, scan,
        f->rp, maxrow_d))) ;
    HYB_LAUNCH ((hyb_win_blk_kernel <<<hyb_grid (nwin + 1, 256), 256, 0, stream>>> (wc, nwin,
        f->win_blk))) ;
    HYB_LAUNCH ((hyb_segment_kernel <<<hyb_grid (nwin, 256), 256, 0, stream>>> (p, m, nwin,
        scan, wc, seg_blocks, f->nblk, f->nseg, f->seg_blk, f->seg_win, f->zero_rows))) ;
    if (!index && f->rem_nnz > 0
        && gg_cuda_spmv_plan_build (m, f->rem_nnz, f->rp, f->rplan, stream) != GG_OK)
    {
        rc = GG_ERR_DEVICE ;
        goto done ;
    }
    HYB_TRY (cudaMemcpyAsync (maxrow, maxrow_d, 2 * sizeof (int), cudaMemcpyDeviceToHost, stream)) ;
    HYB_TRY (cudaStreamSynchronize (stream)) ;
    f->rem_max_row = maxrow [0] ;
    f->rem_rows = maxrow [1] ;

done:
    if (scratch) cudaFreeAsync (scratch, stream) ;
    if (cub_tmp) cudaFreeAsync (cub_tmp, stream) ;
    if (rc != GG_OK)
    {
        if (f->base) cudaFreeAsync (f->base, stream) ;
        cudaGetLastError () ;
        free (f) ;
        return rc ;
    }
    f->build_ms = std::chrono::duration<double, std::milli> (
        std::chrono::steady_clock::now () - t0).count () ;
    *form = f ;
    return GG_OK ;
}


//------------------------------------------------------------------------------
// a row-permuted form: zero_rows in Y's order
//------------------------------------------------------------------------------

// The remainder stays in the form's row order (its rows neighbours as the
// reordering made them: what its kernel gains from the order) and is stored
// through row_out like the tensor-core part; only zero_rows, which a kernel
// of its own clears in Y, move to Y's order.
__global__ void hyb_perm_map_kernel (int32_t *__restrict__ rows, int64_t n,
    const int32_t *__restrict__ perm)
{
    for (int64_t q = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; q < n ;
         q += (int64_t) gridDim.x * blockDim.x)
        rows [q] = perm [rows [q]] ;
}

extern "C" int gg_tc_set_row_out (gg_hybrid_form *f, const int32_t *perm, cudaStream_t stream)
{
    if (f == NULL || perm == NULL || f->row_out != NULL
        || (f->type != GG_FP32 && f->type != GG_FP64)) return GG_ERR_UNSUPPORTED ;
    if (f->nzero > 0)
    {
        hyb_perm_map_kernel <<<hyb_grid (f->nzero, 256), 256, 0, stream>>> (f->zero_rows,
            f->nzero, perm) ;
        if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;
    }
    if (cudaStreamSynchronize (stream) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    f->row_out = perm ;
    return GG_OK ;
}

extern "C" void gg_tc_free (gg_hybrid_form *form, cudaStream_t stream)
{
    if (form == NULL) return ;
    if (form->base) cudaFreeAsync (form->base, stream) ;
    cudaGetLastError () ;
    free (form) ;
}

extern "C" size_t gg_tc_bytes (const gg_hybrid_form *form)
{
    return form ? form->bytes : 0 ;
}

extern "C" int gg_tc_form_info (const gg_hybrid_form *f, gg_tc_info *info)
{
    if (f == NULL || info == NULL) return GG_ERR_UNSUPPORTED ;
    memset (info, 0, sizeof (*info)) ;
    info->m = f->m ; info->k = f->k ; info->nnz = f->nnz ;
    info->threshold = f->threshold ; info->seg_blocks = f->seg_blocks ;
    info->absorb_pct = f->absorb_pct ; info->win_min = f->win_min ;
    info->absorb_grow = f->absorb_grow ;
    info->tc_nnz = f->tc_nnz ; info->rem_nnz = f->rem_nnz ;
    info->tc_share = f->nnz > 0 ? (double) f->tc_nnz / (double) f->nnz : 0 ;
    info->nvec = f->nvec ; info->nblk = f->nblk ; info->nseg = f->nseg ;
    info->fill = f->nblk > 0 ? (double) f->tc_nnz / (64.0 * (double) f->nblk) : 0 ;
    info->vec_fill = f->nvec > 0 ? (double) f->tc_nnz / (8.0 * (double) f->nvec) : 0 ;
    info->bytes = f->bytes ;
    info->build_ms = f->build_ms ;
    return GG_OK ;
}
