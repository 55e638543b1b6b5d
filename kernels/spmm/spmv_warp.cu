//------------------------------------------------------------------------------
// kernels/spmm/spmv_warp.cu: SpMV schedule warp_tI (a nonzero chunk per warp)
//------------------------------------------------------------------------------

// What it computes and when the chooser takes it: spmm_internal.cuh.  Also
// the product of its hot form (HOT = true; the form itself, the launcher
// gg_cuda_spmv_hot and gg_cuda_spmv_hot_max: kernels/spmv_hot/).

#include "kernels/spmm/spmm_internal.cuh"

//------------------------------------------------------------------------------
// warp_tI: SpMV with a fixed nonzero chunk per warp, no block barriers
//------------------------------------------------------------------------------

// For SpMV (n == 1; the launcher runs wider n one column at a time).  Warp w
// owns the CH = 32 * I nonzeros [e0, e1) (I = 8: 256).  They are loaded (read
// once: streaming loads) and their x gathered with lane l taking entries
// e0 + 32 u + l, so that each load instruction covers 32 consecutive entries:
// coalesced, and consecutive entries of a row (close columns) share the
// sectors of x.  The products then pass through shared memory so that lane l
// holds the I consecutive products from e0 + l * I.  The rows the chunk touches
// come from a plan made once per matrix (spmm_spmv_plan_kernel: the row
// holding every SPW_PLAN_UNIT-th entry), so no search is on the warp's
// critical path: its x gathers are issued as soon as the column indices are
// in, and the row pointers of the rows starting inside the chunk are loaded
// beside them (coalesced, 32 rows a step) and scattered to a per-warp row map
// in shared memory: s_row [q] = the row starting at entry e0 + q (the largest
// such row, atomicMax, so that empty rows lose to the row holding the entry),
// -1 elsewhere.  A running max over the lane's I positions and a warp max-scan
// give every entry its row.  Each lane then reduces its entries by row in
// order (rows closed inside it are stored at once), and a segmented warp scan
// of the lanes' last partials, keyed by row, completes the rows cut between
// lanes; the lane holding a row's last entry stores it.  The row running on
// past e1 is the warp's carry (row, value); spmm_spmv_fixup_kernel combines
// the carries into Y afterwards with a segmented warp reduction and one
// monoid atomic per run (Y's row was stored plainly by the warp holding its
// last entry).  So no __syncthreads, no search, one row map pass; a hub row is
// spread over as many warps as it has chunks.  A chunk spanning more than
// SPW_MAX_SCAN rows (long runs of empty rows) finds its entries' rows by
// binary search in p instead.

#define SPW_WARPS 4             // warps per block (128 threads)
#define SPW_PLAN_THREADS 256

template <int ITEMS>
__host__ __device__ constexpr int spw_chunk (void) { return 32 * ITEMS ; }

// plan [u] = the row holding entry u * SPW_PLAN_UNIT (u < nu), plan [nu] =
// the row holding entry nnz - 1, and (slot != NULL) slot_kK's slot plan
// (spmm_internal.cuh).  One thread per row: each chunk start is in exactly
// one non-empty row, so every plan entry is written once.
__global__ void spmm_spmv_plan_kernel (const int32_t *p, int64_t m,
    int64_t nnz, int32_t *plan, int32_t *slot)
{
    const int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (r >= m) return ;
    const int64_t lo = p [r], hi = p [r+1] ;
    if (lo == hi) return ;
    if (slot != NULL) spmm_slot_plan_row (r, lo, hi, slot) ;
    for (int64_t u = (lo + SPW_PLAN_UNIT - 1) / SPW_PLAN_UNIT ;
         u * SPW_PLAN_UNIT < hi ; u++) plan [u] = (int32_t) r ;
    if (hi == nnz) plan [spw_plan_units (nnz)] = (int32_t) r ;
}

// (key, value) inclusive segmented scan over the warp: runs of equal keys are
// contiguous lanes
template <typename T, int OP>
__device__ __forceinline__ void spw_seg_scan (int mon, int lane, int key, T &val)
{
    #pragma unroll
    for (int off = 1 ; off < 32 ; off *= 2)
    {
        int ok = __shfl_up_sync (0xffffffffu, key, off) ;
        T ov = gg_shfl_up (val, off) ;
        if (lane >= off) mrg_seg_combine<T, OP> (mon, ok, ov, key, val) ;
    }
}

// Per warp: the row map (CH int32), reused for the products of the
// transposed form (CH values of T, one pad every 32: conflict-free both ways)
__host__ __device__ constexpr int spw_buf_bytes_ts (int ch, int ts)
{
    return (ch * 4 > (ch + ch / 32) * ts) ? ch * 4 : (ch + ch / 32) * ts ;
}
template <typename T, int ITEMS>
__host__ __device__ constexpr int spw_buf_bytes (void)
{
    return spw_buf_bytes_ts (spw_chunk<ITEMS> (), (int) sizeof (T)) ;
}

// warps per block: the hot form's SPW_HOT_WARPS (spmm_internal.cuh), else
// SPW_WARPS
template <bool HOT>
__host__ __device__ constexpr int spw_warps (void) { return HOT ? SPW_HOT_WARPS : SPW_WARPS ; }

// blocks per SM the launch bounds ask for: 12 / 8 of 128 threads (40 / 64
// registers), or the hot form's one block of 1024 (64 registers)
template <typename T, int ITEMS, bool HOT = false>
__host__ __device__ constexpr int spw_min_blocks (void)
{
    return HOT ? 1 : (ITEMS * sizeof (T) <= 32) ? 12 : 8 ;
}

// x (col): from the staged hot part of x when col is a hot slot (the hot
// form's column indices: slot | SPW_HOT_FLAG), else gathered
template <typename T, bool HOT>
__device__ __forceinline__ T spw_x (const T *X, int32_t col, int64_t n, const T *xs)
{
    if (HOT && col < 0) return xs [col & 0x7fffffff] ;
    return mrg_x (X, col, n, 0) ;
}

// chunk w of the warp kernel (below); buf: the warp's spw_buf_bytes of
// shared memory; xs: the staged hot part of x (HOT only)
template <typename T, int OP, int ITEMS, bool HOT>
__device__ __forceinline__ void spw_chunk_run (const spmm_args<T> &a,
    const int32_t *plan, int32_t *crow, T *cval, const int64_t w,
    unsigned char *buf, const T *xs)
{
    constexpr int CH = spw_chunk<ITEMS> () ;
    constexpr int PSTEP = CH / SPW_PLAN_UNIT ;
    static_assert (CH % SPW_PLAN_UNIT == 0, "a chunk is whole plan units") ;
    static_assert (ITEMS % 4 == 0, "the row map is read 4 entries at a time") ;
    const int lane = threadIdx.x & 31 ;
    const int mon = gg_op_mon<OP> (a.mon), mul = gg_op_mul<OP> (a.mul) ;
    const T id = gg_identity<T> (mon) ;
    // nnz <= INT32_MAX (the launcher checks): entry positions are 32-bit
    const int e0 = (int) (w * CH) ;
    const int e1 = ((int64_t) e0 + CH < a.nnz) ? e0 + CH : (int) a.nnz ;
    const int q0 = e0 + lane * ITEMS ;      // this lane's products: [q0, q0 + nit)
    const int nit = (q0 >= e1) ? 0 : (e1 - q0 >= ITEMS) ? ITEMS : e1 - q0 ;
    const bool rd_s = (a.smode == GG_S_ARRAY) ;
    const bool rd_c = (a.X != NULL) ;

    // the chunk's rows: row_lo holds e0, row_hi holds e1 (or the last entry)
    const int64_t nu = spw_plan_units (a.nnz) ;
    const int row_lo = plan [w * PSTEP] ;
    const int row_hi = plan [((w + 1) * PSTEP < nu) ? (w + 1) * PSTEP : nu] ;

    // entries e0 + 32 u + lane, read once (streaming), and their x
    int32_t col [ITEMS] ;
    T sv [ITEMS] ;
    bool in [ITEMS] ;
    #pragma unroll
    for (int u = 0 ; u < ITEMS ; u++)
    {
        col [u] = 0 ; sv [u] = T (0) ;
        in [u] = (e0 + 32 * u + lane < e1) ;
        if (in [u])
        {
            if (rd_c) col [u] = gg_ld<true> (a.ci + e0 + 32 * u + lane) ;
            if (rd_s) sv [u] = gg_ld<true> (a.sx + e0 + 32 * u + lane) ;
        }
    }
    if (a.smode == GG_S_ISO)
    {
        const T s0 = a.sx [0] ;
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++) sv [u] = s0 ;
    }
    T xv [ITEMS] ;
    #pragma unroll
    for (int u = 0 ; u < ITEMS ; u++) xv [u] = in [u] ? spw_x<T, HOT> (a.X, col [u], a.n, xs) : T (0) ;

    // the row of each of this lane's products (positions q0 + u)
    int rid [ITEMS] ;
    int32_t *map = (int32_t *) buf ;
    if (row_hi - row_lo <= CH)
    {
        // row map: -1, then the rows starting inside the chunk at their start
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u += 4)
            *((int4 *) (map + lane * ITEMS + u)) = make_int4 (-1, -1, -1, -1) ;
        __syncwarp () ;
        for (int r = row_lo + 1 + lane ; r <= row_hi ; r += 64)
        {
            // two steps' loads in flight
            const int r2 = r + 32 ;
            const int pr = a.p [r] ;
            const int pr2 = (r2 <= row_hi) ? a.p [r2] : e1 ;
            if (pr > e0 && pr < e1) atomicMax (map + (pr - e0), r) ;
            if (pr2 > e0 && pr2 < e1) atomicMax (map + (pr2 - e0), r2) ;
        }
        __syncwarp () ;
        int run = -1 ;
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u += 4)
        {
            int4 v = *((const int4 *) (map + lane * ITEMS + u)) ;
            rid [u]   = run = max (run, v.x) ;
            rid [u+1] = run = max (run, v.y) ;
            rid [u+2] = run = max (run, v.z) ;
            rid [u+3] = run = max (run, v.w) ;
        }
        // the rows started before this lane: a warp max-scan (rows increase
        // with the position), row_lo for the entries before the first start
        int incl = run ;
        #pragma unroll
        for (int off = 1 ; off < 32 ; off *= 2)
        {
            int o = __shfl_up_sync (0xffffffffu, incl, off) ;
            if (lane >= off) incl = max (incl, o) ;
        }
        int before = __shfl_up_sync (0xffffffffu, incl, 1) ;
        if (lane == 0) before = -1 ;
        before = max (before, row_lo) ;
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++) rid [u] = max (rid [u], before) ;
    }
    else
    {
        // long runs of empty rows: search p for each entry
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++)
            rid [u] = (u < nit) ? (int) gg_find_row (a.p, row_lo, (int64_t) row_hi + 1, q0 + u) : row_hi ;
    }

    // the products, to this lane's positions q0 + u through shared memory
    // (the row map has been read: __syncwarp first); position q is kept at
    // q + q / 32, so that neither the stores nor the loads conflict
    T z [ITEMS] ;
    {
        T *zb = (T *) buf ;
        __syncwarp () ;
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++)
            zb [33 * u + lane] = in [u] ? gg_multiply (mul, sv [u], xv [u]) : id ;
        __syncwarp () ;
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++)
        {
            const int q = lane * ITEMS + u ;
            z [u] = zb [q + q / 32] ;
        }
    }

    // reduce this lane's entries by row; rows closed inside it are stored
    T acc = id, head = id ;
    bool head_closed = false ;
    #pragma unroll
    for (int u = 0 ; u < ITEMS ; u++)
    {
        if (u < nit)
        {
            if (u > 0 && rid [u] != rid [u-1])
            {
                if (!head_closed) { head = acc ; head_closed = true ; }
                else a.Y [(int64_t) rid [u-1] * a.n] = acc ;
                acc = id ;
            }
            acc = gg_monoid (mon, acc, z [u]) ;
        }
    }
    const int first = rid [0] ;
    int last = rid [0] ;
    #pragma unroll
    for (int u = 1 ; u < ITEMS ; u++) if (u < nit) last = rid [u] ;

    // complete the rows cut between lanes
    const int key = (nit > 0) ? last : -1 ;
    T val = acc ;
    spw_seg_scan<T, OP> (mon, lane, key, val) ;
    int pk = __shfl_up_sync (0xffffffffu, key, 1) ;
    T pv = gg_shfl_up (val, 1) ;
    int next = __shfl_down_sync (0xffffffffu, first, 1) ;
    if (nit == 0) return ;
    const bool last_lane = (q0 + nit == e1) ;
    if (last_lane) next = (e1 < a.nnz) ? row_hi : -1 ;
    if (lane == 0) pk = -1 ;
    if (head_closed)
    {
        // the first row ends inside this lane; the lanes before hold the rest
        T h = (pk == first) ? gg_monoid (mon, pv, head) : head ;
        a.Y [(int64_t) first * a.n] = h ;
        if (next != last) a.Y [(int64_t) last * a.n] = acc ;
    }
    else if (next != last)
    {
        // one row in this lane, ending here: the scan holds all of it
        a.Y [(int64_t) last * a.n] = val ;
    }
    if (last_lane && crow != NULL)
    {
        // the row running on into the next chunk is the carry
        const bool open = (next == last) ;
        crow [w] = open ? last : -1 ;
        if (open) cval [w] = val ;     // (= acc when the row starts in this lane)
    }
}

// HOT = false: warp w of the grid takes chunk w.  HOT = true (n == 1, the
// hot form's column indices in a.ci): the block first copies the nhot values
// xhot (x at the hot columns, gathered by spmm_spmv_hot_gather_kernel) to its
// dynamic shared memory, then its warps loop over the chunks.
template <typename T, int OP, int ITEMS, bool HOT>
__global__ void __launch_bounds__ (32 * spw_warps<HOT> (), (spw_min_blocks<T, ITEMS, HOT> ()))
spmm_spmv_warp_kernel (const spmm_args<T> a, const int32_t *plan,
    int32_t *crow, T *cval, int64_t nchunks, const T *xhot, int64_t nhot)
{
    constexpr int WARPS = spw_warps<HOT> () ;
    constexpr int BUF = spw_buf_bytes<T, ITEMS> () ;
    __shared__ __align__ (16) unsigned char s_buf [HOT ? 1 : WARPS][BUF] ;
    const int wid = threadIdx.x >> 5 ;
    int64_t w = (int64_t) blockIdx.x * WARPS + wid ;
    if (!HOT)
    {
        // whole warp; no block barrier
        if (w < nchunks) spw_chunk_run<T, OP, ITEMS, false> (a, plan, crow, cval, w, s_buf [wid], NULL) ;
        return ;
    }
    // dynamic shared memory (more than the 48 KB of static): the warps'
    // buffers, then xhot staged 16 bytes a step (both 16-byte aligned, the
    // copy rounded up to 16 bytes)
    extern __shared__ __align__ (16) unsigned char spmm_smem [] ;
    int4 *xs = (int4 *) (spmm_smem + WARPS * BUF) ;
    const int64_t n16 = ((int64_t) nhot * (int64_t) sizeof (T) + 15) / 16 ;
    for (int64_t q = threadIdx.x ; q < n16 ; q += blockDim.x) xs [q] = __ldg (((const int4 *) xhot) + q) ;
    __syncthreads () ;
    for ( ; w < nchunks ; w += (int64_t) gridDim.x * WARPS)
    {
        __syncwarp () ;     // the previous chunk's lanes are done with the buffer
        spw_chunk_run<T, OP, ITEMS, true> (a, plan, crow, cval, w, spmm_smem + wid * BUF, (const T *) xs) ;
    }
}

// xhot [s] = X [hot [s]]: the hot part of x, contiguous, for the stage
template <typename T>
__global__ void spmm_spmv_hot_gather_kernel (const T *X, const int32_t *hot,
    int64_t nhot, T *xhot)
{
    const int64_t s = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (s < nhot) xhot [s] = X [hot [s]] ;
}

// Y (r) (+)= the carries of the chunks whose row r runs on past them: a
// segmented reduction per warp of threads (one per chunk; runs of one row are
// consecutive chunks), then one monoid atomic per run (Y (r) was stored by the
// chunk holding r's last entry, which the main kernel has finished).
template <typename T, int OP>
__global__ void spmm_spmv_fixup_kernel (const spmm_args<T> a,
    const int32_t *crow, const T *cval, int64_t nchunks)
{
    const int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    const int lane = threadIdx.x & 31 ;
    const int mon = gg_op_mon<OP> (a.mon) ;
    const int key = (t < nchunks) ? crow [t] : -1 ;
    T val = (key >= 0) ? cval [t] : gg_identity<T> (mon) ;
    spw_seg_scan<T, OP> (mon, lane, key, val) ;
    int next = __shfl_down_sync (0xffffffffu, key, 1) ;
    if (lane == 31) next = -1 ;
    if (key >= 0 && next != key) gg_atomic (mon, a.Y + (int64_t) key * a.n, val) ;
}

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

// The hot form's stage: what the block's shared memory holds next to the
// warps' buffers (the opt-in maximum per block less those), in values of ts
// bytes, a multiple of 16 bytes
int64_t spw_hot_max (int ts)
{
    if (ts != 1 && ts != 2 && ts != 4 && ts != 8) return 0 ;
    int dev = 0, optin = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess
        || cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    {
        cudaGetLastError () ;
        return 0 ;
    }
    const int64_t stat = (int64_t) SPW_HOT_WARPS * spw_buf_bytes_ts (spw_chunk<SPW_HOT_ITEMS> (), ts) ;
    const int64_t dyn = (int64_t) optin - stat ;
    return (dyn <= 0) ? 0 : (dyn & ~(int64_t) 15) / ts ;
}

// warp_tI: the plan (the caller's, or made here in the scratch), then per
// column of X the main kernel and, when there is more than one chunk, the
// carry fix-up.  Scratch from the pool: the plan when not given, the carries,
// and for the hot form (hot != NULL, nhot > 0, n == 1) x at the hot columns.
template <typename T, int OP, int ITEMS>
int spmm_launch_spmv_warp (spmm_args<T> a, const int32_t *plan,
    const int32_t *hot, int64_t nhot, cudaStream_t stream)
{
    const bool use_hot = (hot != NULL && nhot > 0 && a.X != NULL && a.n == 1) ;
    if (use_hot && nhot > spw_hot_max ((int) sizeof (T))) return GG_ERR_UNSUPPORTED ;
    // the kernel's shared memory is small: ask for the smallest carve-out that
    // keeps the blocks the launch bounds allow, so that L1 (which holds the
    // reused part of x) keeps the rest of the SM's 256 KB (once per device).
    // The hot form: all of it, and the most dynamic shared memory.
    static bool carved [64], carved_hot [64] ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 64) return GG_ERR_DEVICE ;
    if (!use_hot && !carved [dev])
    {
        const int need = spw_min_blocks<T, ITEMS> () * (SPW_WARPS * spw_buf_bytes<T, ITEMS> () + 1024) ;
        const int pct = (need * 100 + 228 * 1024 - 1) / (228 * 1024) ;
        if (cudaFuncSetAttribute (spmm_spmv_warp_kernel<T, OP, ITEMS, false>,
            cudaFuncAttributePreferredSharedMemoryCarveout, pct) != cudaSuccess)
            cudaGetLastError () ;       // a hint only
        carved [dev] = true ;
    }
    if (use_hot && !carved_hot [dev])
    {
        const int dyn = (int) (SPW_HOT_WARPS * spw_buf_bytes<T, ITEMS> ()
            + spw_hot_max ((int) sizeof (T)) * (int64_t) sizeof (T)) ;
        if (cudaFuncSetAttribute (spmm_spmv_warp_kernel<T, OP, ITEMS, true>,
            cudaFuncAttributeMaxDynamicSharedMemorySize, dyn) != cudaSuccess)
        {
            cudaGetLastError () ;
            return GG_ERR_DEVICE ;
        }
        if (cudaFuncSetAttribute (spmm_spmv_warp_kernel<T, OP, ITEMS, true>,
            cudaFuncAttributePreferredSharedMemoryCarveout, 100) != cudaSuccess)
            cudaGetLastError () ;       // a hint only
        carved_hot [dev] = true ;
    }
    const int64_t CH = spw_chunk<ITEMS> () ;
    const int64_t nchunks = (a.nnz + CH - 1) / CH ;
    const int64_t nu = spw_plan_units (a.nnz) ;
    const size_t pbytes = (plan == NULL) ? spmm_round16 ((size_t) (nu + 1) * sizeof (int32_t)) : 0 ;
    const size_t rbytes = (nchunks > 1) ? spmm_round16 ((size_t) nchunks * sizeof (int32_t)) : 0 ;
    const size_t cbytes = (nchunks > 1) ? spmm_round16 ((size_t) nchunks * sizeof (T)) : 0 ;
    const size_t hbytes = use_hot ? spmm_round16 ((size_t) nhot * sizeof (T)) : 0 ;
    const size_t bytes = pbytes + rbytes + cbytes + hbytes ;
    void *ws = NULL ;
    if (bytes > 0)
    {
        const int src = gg_kernel_scratch (&ws, bytes, stream) ;
        if (src != GG_OK) return src ;
    }
    unsigned char *wb = (unsigned char *) ws ;
    if (plan == NULL)
    {
        int32_t *pl = (int32_t *) wb ;
        spmm_spmv_plan_kernel <<<(unsigned) ((a.m + SPW_PLAN_THREADS - 1) / SPW_PLAN_THREADS),
            SPW_PLAN_THREADS, 0, stream>>> (a.p, a.m, a.nnz, pl, NULL) ;
        plan = pl ;
    }
    int32_t *crow = (nchunks > 1) ? (int32_t *) (wb + pbytes) : NULL ;
    T *cval = (nchunks > 1) ? (T *) (wb + pbytes + rbytes) : NULL ;
    if (use_hot)
    {
        // x at the hot columns, then one persistent block per SM
        T *xhot = (T *) (wb + pbytes + rbytes + cbytes) ;
        spmm_spmv_hot_gather_kernel<T> <<<(unsigned) ((nhot + 255) / 256), 256, 0, stream>>> (a.X, hot, nhot, xhot) ;
        const int64_t want = (nchunks + SPW_HOT_WARPS - 1) / SPW_HOT_WARPS ;
        const int sms = gg_device_sms () ;
        const unsigned blocks = (unsigned) ((sms > 0 && sms < want) ? sms : want) ;
        static_assert (spw_buf_bytes<T, ITEMS> () % 16 == 0, "xhot's stage is 16-byte aligned") ;
        spmm_spmv_warp_kernel<T, OP, ITEMS, true> <<<blocks, 32 * SPW_HOT_WARPS,
            SPW_HOT_WARPS * spw_buf_bytes<T, ITEMS> () + hbytes, stream>>>
            (a, plan, crow, cval, nchunks, xhot, nhot) ;
        if (nchunks > 1)
            spmm_spmv_fixup_kernel<T, OP> <<<(unsigned) ((nchunks + 255) / 256), 256, 0, stream>>> (a, crow, cval, nchunks) ;
    }
    else
    {
        const unsigned blocks = (unsigned) ((nchunks + SPW_WARPS - 1) / SPW_WARPS) ;
        for (int64_t j = 0 ; j < a.n ; j++)
        {
            // column j: X and Y offset by j, rows n apart
            spmm_args<T> c = a ;
            if (c.X != NULL) c.X += j ;
            c.Y += j ;
            spmm_spmv_warp_kernel<T, OP, ITEMS, false> <<<blocks, 32 * SPW_WARPS, 0, stream>>>
                (c, plan, crow, cval, nchunks, NULL, 0) ;
            if (nchunks > 1)
                spmm_spmv_fixup_kernel<T, OP> <<<(unsigned) ((nchunks + 255) / 256), 256, 0, stream>>> (c, crow, cval, nchunks) ;
        }
    }
    int rc = gg_launch_status () ;
    if (ws != NULL) cudaFreeAsync (ws, stream) ;
    return rc ;
}

// the dispatch's variants: I = 8 (warp_t8) for each (type, OP)
#define SPMM_INST_WARP(T, OP)                                               \
    template int spmm_launch_spmv_warp<T, OP, 8> (spmm_args<T>,            \
        const int32_t *, const int32_t *, int64_t, cudaStream_t) ;
SPMM_TYPE_OPS (SPMM_INST_WARP)

//------------------------------------------------------------------------------
// the plan, made once per pattern
//------------------------------------------------------------------------------

extern "C" size_t gg_cuda_spmv_plan_bytes (int64_t nnz)
{
    if (nnz < 0) nnz = 0 ;
    const int64_t units = (nnz + SPMM_SLOT_UNIT - 1) / SPMM_SLOT_UNIT ;
    return (size_t) (spmm_slot_plan_offset (nnz) + 2 * units) * sizeof (int32_t) ;
}

extern "C" int gg_cuda_spmv_plan_build (int64_t m, int64_t nnz,
    const int32_t *p, void *plan, cudaStream_t stream)
{
    if (m < 0 || nnz < 0 || m > INT32_MAX || nnz > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (m == 0 || nnz == 0) return GG_OK ;
    spmm_spmv_plan_kernel <<<(unsigned) ((m + SPW_PLAN_THREADS - 1) / SPW_PLAN_THREADS),
        SPW_PLAN_THREADS, 0, stream>>> (p, m, nnz, (int32_t *) plan,
        (int32_t *) plan + spmm_slot_plan_offset (nnz)) ;
    return gg_launch_status () ;
}
