//------------------------------------------------------------------------------
// kernels/spmm/spmm_merge.cu: SpMV schedule merge_iI (nonzero chunks per block)
//------------------------------------------------------------------------------

// What it computes and when the chooser takes it: spmm_internal.cuh.

#include "kernels/spmm/spmm_internal.cuh"

//------------------------------------------------------------------------------
// merge_iI: fixed nonzero chunks per block, segmented block scan, no atomics
//------------------------------------------------------------------------------

// For SpMV first (n == 1; wider n loops over the columns, correct but not
// meant to be fast).  Block b owns the CH = 256 * I nonzeros [e0, e1); thread
// t owns I consecutive ones, loaded with vector loads straight into registers
// (pattern-only multiplies skip the column and/or value loads), and gathers
// their x.  Two warps find the rows holding e0 and e1 - 1 (32-ary searches
// over p) while the others gather; the block copies p over that row range
// into shared memory (unless empty rows make it longer than CH + 1: then it
// reads p in global memory) and each thread finds the row of its first entry
// there by binary search.  A thread walks its I entries in order: a row that
// starts and ends inside them is stored at once (plain store); the partial
// of its last open row is its "tail" and the partial of its first row, when
// that row ends inside it, its "head".  A segmented inclusive scan of the
// tails over the block, keyed by row (rows cut by thread boundaries are
// contiguous runs of threads, so equal keys mean one run), gives each thread
// the sum of its head row over the threads before it: the head is stored
// combined with it.  The tail of the block's last thread, when its row runs
// on past e1, is the block's carry: (row, value) into a small side buffer,
// and spmm_merge_fixup_kernel combines the carries of consecutive blocks of
// one row into Y afterwards (the block holding the row's last entry stored
// its part plainly).  So every row is written once by a plain store, plus one
// combine per cut row, in any monoid and type, without atomics or an
// initialisation pass; a hub row is spread over as many blocks as it has
// chunks.

#define MRG_THREADS 256

template <int ITEMS>
__host__ __device__ constexpr int mrg_chunk (void) { return MRG_THREADS * ITEMS ; }

template <typename T, int OP, int ITEMS>
// blocks of 256 per SM: 4 (<= 64 registers) while 8 entries of T fit, else 2;
// 6 (<= 40 registers) for 4 entries of up to 4 bytes
__global__ void __launch_bounds__ (MRG_THREADS,
    (ITEMS * sizeof (T) <= 16) ? 6 : (ITEMS * sizeof (T) <= 32) ? 4 : 2)
spmm_merge_kernel (const spmm_args<T> a, const int32_t *rs, int32_t *crow,
    T *cval, int64_t nblocks)
{
    constexpr int CH = mrg_chunk<ITEMS> () ;
    __shared__ int32_t s_p [CH + 2] ;
    __shared__ int s_rows [2] ;
    __shared__ int s_wk [MRG_THREADS / 32] ;
    __shared__ T s_wv [MRG_THREADS / 32] ;

    const int tid = threadIdx.x, lane = tid & 31, wid = tid >> 5 ;
    const int mon = gg_op_mon<OP> (a.mon) ;
    const T id = gg_identity<T> (mon) ;
    // nnz <= INT32_MAX (the launcher checks): entry positions are 32-bit
    const int b = blockIdx.x ;
    const int e0 = b * CH ;
    const int e1 = ((int64_t) e0 + CH < a.nnz) ? e0 + CH : (int) a.nnz ;
    const int q0 = e0 + tid * ITEMS ;
    const int nit = (q0 >= e1) ? 0 : (e1 - q0 >= ITEMS) ? ITEMS : e1 - q0 ;
    const bool rd_s = (a.smode == GG_S_ARRAY) ;
    const bool rd_c = (a.X != NULL) ;

    // this thread's entries
    int32_t col [ITEMS] ;
    T sv [ITEMS] ;
    #pragma unroll
    for (int u = 0 ; u < ITEMS ; u++) { col [u] = 0 ; sv [u] = T (0) ; }
    if (nit == ITEMS && a.aligned)
    {
        if (rd_c) gg_load_vec<int32_t, ITEMS, true> (col, a.ci + q0) ;
        if (rd_s) gg_load_vec<T, ITEMS, true> (sv, a.sx + q0) ;
    }
    else
    {
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++)
            if (u < nit)
            {
                if (rd_c) col [u] = a.ci [q0 + u] ;
                if (rd_s) sv [u] = a.sx [q0 + u] ;
            }
    }
    if (a.smode == GG_S_ISO)
    {
        const T s0 = a.sx [0] ;
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++) sv [u] = s0 ;
    }

    // the block's row range: given (rs [b], rs [b+1]; row_hi may be the row
    // after the one holding e1 - 1, harmless), or searched here by warps 0
    // and 1 while the others gather.  (A separate pass computing rs for all
    // blocks measured no faster on rmat22 and cost a launch, ~5 us, on small
    // matrices: bench/NOTES.md, session 2; the launcher passes NULL.)
    int row_lo, row_hi ;
    if (rs != NULL)
    {
        row_lo = rs [b] ;
        row_hi = rs [b + 1] ;
    }
    else
    {
        if (wid == 0)
        {
            int r = (int) gg_warp_find_row (a.p, 0, a.m, e0) ;
            if (lane == 0) s_rows [0] = r ;
        }
        else if (wid == 1)
        {
            int r = (int) gg_warp_find_row (a.p, 0, a.m, e1 - 1) ;
            if (lane == 0) s_rows [1] = r ;
        }
        __syncthreads () ;
        row_lo = s_rows [0] ;
        row_hi = s_rows [1] ;
    }
    T xv [ITEMS] ;
    #pragma unroll
    for (int u = 0 ; u < ITEMS ; u++) xv [u] = (u < nit) ? mrg_x (a.X, col [u], a.n, 0) : T (0) ;
    const int nr = row_hi - row_lo + 1 ;       // rows in the chunk
    const int32_t *pp ;
    if (nr + 1 <= CH + 2)
    {
        for (int k = tid ; k <= nr ; k += MRG_THREADS) s_p [k] = a.p [row_lo + k] ;
        pp = s_p ;
    }
    else
    {
        pp = a.p + row_lo ;         // long runs of empty rows
    }
    __syncthreads () ;

    // the row of this thread's first entry: the last k with pp [k] <= q0
    int kstart = 0 ;
    if (nit > 0)
    {
        int lo = 0, hi = nr ;
        while (hi - lo > 1)
        {
            int mid = (lo + hi) / 2 ;
            if (pp [mid] <= q0) lo = mid ; else hi = mid ;
        }
        kstart = lo ;
    }
    const int head_row = row_lo + kstart ;
    const int64_t n = a.n ;
    const bool last_active = (nit > 0) && (q0 + nit == e1) ;

    for (int64_t j = 0 ; j < n ; j++)
    {
        if (j > 0)
        {
            #pragma unroll
            for (int u = 0 ; u < ITEMS ; u++) xv [u] = (u < nit) ? mrg_x (a.X, col [u], n, j) : T (0) ;
        }
        // walk: rows closed inside are stored, the head is kept
        T acc [1] = { id }, hval = id ;
        bool hclosed = false ;
        int k = kstart ;
        int rowend = (nit > 0) ? pp [k + 1] : 0 ;
        #pragma unroll
        for (int u = 0 ; u < ITEMS ; u++)
        {
            if (u < nit)
            {
                const int q = q0 + u ;
                if (q >= rowend)
                {
                    if (!hclosed) { hval = acc [0] ; hclosed = true ; }
                    else a.Y [(int64_t) (row_lo + k) * n + j] = acc [0] ;
                    k++ ;
                    while (pp [k + 1] <= q) k++ ;     // empty rows
                    rowend = pp [k + 1] ;
                    acc [0] = id ;
                }
                T x1 [1] = { xv [u] } ;
                gg_fma_vec<T, 1, OP> (mon, a.mul, acc, sv [u], x1) ;
            }
        }
        const bool open = (nit > 0) && (rowend > q0 + nit) ;
        if (nit > 0 && !open)
        {
            // the last row ends with this thread's entries
            if (!hclosed) { hval = acc [0] ; hclosed = true ; }
            else a.Y [(int64_t) (row_lo + k) * n + j] = acc [0] ;
        }
        int key = open ? row_lo + k : -1 ;
        T val = open ? acc [0] : id ;

        // segmented inclusive scan of (key, val) over the warp, then the block
        #pragma unroll
        for (int off = 1 ; off < 32 ; off *= 2)
        {
            int ok = __shfl_up_sync (0xffffffffu, key, off) ;
            T ov = gg_shfl_up (val, off) ;
            if (lane >= off) mrg_seg_combine<T, OP> (mon, ok, ov, key, val) ;
        }
        if (lane == 31) { s_wk [wid] = key ; s_wv [wid] = val ; }
        __syncthreads () ;
        // the warps before this one, in order
        int pk = -1 ;
        T pv = id ;
        for (int w = 0 ; w < wid ; w++)
        {
            int wk = s_wk [w] ;
            T wv = s_wv [w] ;
            mrg_seg_combine<T, OP> (mon, pk, pv, wk, wv) ;
            pk = wk ; pv = wv ;
        }
        // exclusive value for this thread: the inclusive one of the lane
        // before (or the warps before, for lane 0)
        int ck = __shfl_up_sync (0xffffffffu, key, 1) ;
        T cv = gg_shfl_up (val, 1) ;
        if (lane == 0) { ck = pk ; cv = pv ; }
        else mrg_seg_combine<T, OP> (mon, pk, pv, ck, cv) ;
        if (hclosed)
        {
            T h [1] = { cv }, o [1] = { hval } ;
            if (ck == head_row) gg_combine_vec<T, 1, OP> (mon, h, o) ;
            else h [0] = hval ;
            a.Y [(int64_t) head_row * n + j] = h [0] ;
        }
        if (last_active && nblocks > 1)
        {
            // the block's carry: the last thread's inclusive value, if open
            mrg_seg_combine<T, OP> (mon, pk, pv, key, val) ;
            if (j == 0) crow [b] = open ? key : -1 ;
            if (open) cval [j * nblocks + b] = val ;
        }
        __syncthreads () ;      // s_wk / s_wv are reused by the next column
    }
}

// Y (r, j) (+)= the carries of a run of consecutive blocks with row r; one
// thread per (column, block), the run's first block does the run.
template <typename T, int OP>
__global__ void spmm_merge_fixup_kernel (const spmm_args<T> a,
    const int32_t *crow, const T *cval, int64_t nblocks)
{
    const int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (t >= nblocks * a.n) return ;
    const int64_t j = t / nblocks, b = t % nblocks ;
    const int r = crow [b] ;
    if (r < 0 || (b > 0 && crow [b-1] == r)) return ;
    const int mon = gg_op_mon<OP> (a.mon) ;
    T acc [1] = { cval [j * nblocks + b] } ;
    for (int64_t b2 = b + 1 ; b2 < nblocks && crow [b2] == r ; b2++)
    {
        T o [1] = { cval [j * nblocks + b2] } ;
        gg_combine_vec<T, 1, OP> (mon, acc, o) ;
    }
    T *y = a.Y + (int64_t) r * a.n + j ;
    T o [1] = { *y } ;
    gg_combine_vec<T, 1, OP> (mon, acc, o) ;
    *y = acc [0] ;
}

// The carries go to a side buffer: stream-ordered scratch from the kernels'
// pool (gg_kernel_pool), freed in stream order after the fix-up.
template <typename T, int OP, int ITEMS>
int spmm_launch_merge (spmm_args<T> a, cudaStream_t stream)
{
    const int64_t nb = (a.nnz + mrg_chunk<ITEMS> () - 1) / mrg_chunk<ITEMS> () ;
    size_t valign = (ITEMS * sizeof (T) < 16) ? ITEMS * sizeof (T) : 16 ;
    a.aligned = ((uintptr_t) a.ci % 16 == 0)
        && (a.smode != GG_S_ARRAY || (uintptr_t) a.sx % valign == 0) ;
    if (nb == 1)
    {
        // one block: no carries
        spmm_merge_kernel<T, OP, ITEMS> <<<1, MRG_THREADS, 0, stream>>> (a, NULL, NULL, NULL, 1) ;
        return gg_launch_status () ;
    }
    size_t rbytes = spmm_round16 ((size_t) nb * sizeof (int32_t)) ;
    size_t bytes = rbytes + (size_t) nb * (size_t) a.n * sizeof (T) ;
    void *ws = NULL ;
    const int src = gg_kernel_scratch (&ws, bytes, stream) ;
    if (src != GG_OK) return src ;
    int32_t *crow = (int32_t *) ws ;
    T *cval = (T *) ((unsigned char *) ws + rbytes) ;
    spmm_merge_kernel<T, OP, ITEMS> <<<(unsigned) nb, MRG_THREADS, 0, stream>>> (a, NULL, crow, cval, nb) ;
    int64_t nt = nb * a.n ;
    spmm_merge_fixup_kernel<T, OP> <<<(unsigned) ((nt + 255) / 256), 256, 0, stream>>> (a, crow, cval, nb) ;
    int rc = gg_launch_status () ;
    cudaFreeAsync (ws, stream) ;
    return rc ;
}

// the dispatch's variants, I = 4, 8 for each (type, OP)
#define SPMM_INST_MERGE(T, OP)                                              \
    template int spmm_launch_merge<T, OP, 4> (spmm_args<T>, cudaStream_t) ; \
    template int spmm_launch_merge<T, OP, 8> (spmm_args<T>, cudaStream_t) ;
SPMM_TYPE_OPS (SPMM_INST_MERGE)
