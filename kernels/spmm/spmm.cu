//------------------------------------------------------------------------------
// kernels/spmm/spmm.cu: Y = S (+.*) X on CUDA cores, any supported semiring
//------------------------------------------------------------------------------

// S: m x k CSR (32-bit p / i, values in the semiring type or none), X: k x n
// and Y: m x n, both row-major.  n == 1 is SpMV.  Two schedule families, after
// Sgap ("segment group" and "atomic parallelism"):
//
//  row_gG (G = 4, 8, 16, 32): row-split.  A group of G lanes owns one row.  The
//      group is C column lanes x R = G / C nonzero lanes: the C lanes cover a
//      strip of C * VEC columns with VEC-wide loads of X (VEC = 4, 2, 1 by n
//      and alignment), the R lanes take every R-th nonzero of the row, and a
//      shuffle reduction over the R lanes (xor offsets C .. G/2) combines them.
//      One lane per column vector writes Y with a plain store: no atomics, no
//      initialisation, deterministic.  Columns beyond C * VEC: more strips.
//
//  nnz_kK (K = 8, 16, 32, 128): nnz-split (merge-style), for skewed rows.  A warp owns
//      a chunk of R * K consecutive nonzeros, staged through shared memory;
//      each of its R nonzero lanes walks K of them in order (with C column
//      lanes beside it, as above) and writes every row that starts and ends
//      inside its K entries with a plain store.  Rows cut by a lane boundary
//      are combined by a segmented scan across the R lanes; rows cut by a chunk
//      boundary are combined in Y with a monoid-aware atomic (gg_atomic),
//      after a small kernel has set exactly those rows to the identity.  So
//      one row holding most entries (the arrow matrix, power-law hubs) is
//      spread over many warps, and the atomics touch only the cut rows.
//
//  merge_iI (I = 4, 8): SpMV (n == 1).  A block takes 256 * I consecutive
//      nonzeros, I per thread, reduces them by rows with a segmented block scan and hands the
//      rows cut by block boundaries to a small fix-up pass through a side
//      buffer (no atomics, no initialisation; see spmm_merge_kernel).
//
//  warp_tI (I = 8): SpMV.  A warp takes 32 * I consecutive nonzeros, without
//      block barriers or row searches: the rows come from a plan made once
//      per matrix (gg_cuda_spmv_plan_build, or in the call), a row map in
//      shared memory and warp scans; rows cut by chunk boundaries are
//      combined by a fix-up pass with one monoid atomic per run of carries
//      (see spmm_spmv_warp_kernel).  Its hot form (gg_cuda_spmv_hot): the
//      same chunks, one persistent 1024-thread block per SM that first
//      stages x at the K columns with the most entries in shared memory; the
//      column indices of those columns are replaced by their slots (made
//      once per matrix, gg_cuda_spmv_hot_build; see the end of this file).
//
// The chooser (gg_cuda_spmm_choose) picks a schedule from the shape; its
// thresholds are measured (bench/NOTES.md).  Kernels are templated on the
// value type, VEC and OP (gg_semiring.cuh): GENERIC (monoid and multiply as
// runtime switches) for every type, plus compile-time fast paths for FP32
// PLUS_TIMES / MIN / MAX and FP64 PLUS_TIMES, which keeps the build to about
// a hundred instantiations.

#include <cstring>
#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

//------------------------------------------------------------------------------
// kernel arguments (one struct: the same for every schedule)
//------------------------------------------------------------------------------

template <typename T>
struct spmm_args
{
    int64_t m, n, nnz ;
    const int32_t *p, *ci ;
    const T *sx ;           // S's values (smode says how they are read)
    int smode ;
    const T *X ;            // NULL when the multiply ignores x
    T *Y ;
    int mon, mul ;
    int G, C ;              // row_g: group lanes, column lanes per group
    int K ;                 // nnz_k: nonzeros per nonzero lane
    int aligned ;           // merge: ci and sx allow the vector loads
} ;

// x = X (col, j .. j+VEC-1), or unread when the multiply ignores X
template <typename T, int VEC>
__device__ __forceinline__ void spmm_load_x (T (&xv) [VEC], const T *X,
    int64_t col, int64_t n, int64_t j)
{
    if (X != NULL) gg_load_vec<T, VEC> (xv, X + col * n + j) ;
    else
    {
        #pragma unroll
        for (int v = 0 ; v < VEC ; v++) xv [v] = T (0) ;
    }
}

template <typename T, int VEC>
__device__ __forceinline__ void spmm_fill (T (&a) [VEC], T val)
{
    #pragma unroll
    for (int v = 0 ; v < VEC ; v++) a [v] = val ;
}

template <typename T, int VEC>
__device__ __forceinline__ void spmm_atomic_vec (int mon, T *y, const T (&a) [VEC])
{
    #pragma unroll
    for (int v = 0 ; v < VEC ; v++) gg_atomic (mon, y + v, a [v]) ;
}

//------------------------------------------------------------------------------
// row_gG: a group of G lanes per row
//------------------------------------------------------------------------------

template <typename T, int VEC, int OP>
__global__ void __launch_bounds__ (256)
spmm_row_kernel (const spmm_args<T> a)
{
    const int64_t tid = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    const int G = a.G, C = a.C, R = G / C ;
    const int g = (int) (tid % G) ;     // lane within the group
    const int c = g % C, r = g / C ;
    const int64_t row = tid / G ;
    // rows past m and empty rows still take part in the shuffles
    int64_t start = 0, end = 0 ;
    if (row < a.m) { start = a.p [row] ; end = a.p [row+1] ; }
    const T id = gg_identity<T> (gg_op_mon<OP> (a.mon)) ;

    for (int64_t strip = 0 ; strip < a.n ; strip += (int64_t) C * VEC)
    {
        const int64_t j = strip + (int64_t) c * VEC ;
        const bool colok = (j < a.n) ;
        T acc [VEC] ;
        spmm_fill<T, VEC> (acc, id) ;
        if (colok)
        {
            #pragma unroll 4
            for (int64_t e = start + r ; e < end ; e += R)
            {
                int64_t col = (a.X != NULL) ? a.ci [e] : 0 ;
                T s = gg_sval (a.smode, a.sx, e) ;
                T xv [VEC] ;
                spmm_load_x<T, VEC> (xv, a.X, col, a.n, j) ;
                gg_fma_vec<T, VEC, OP> (a.mon, a.mul, acc, s, xv) ;
            }
        }
        // acc = (+) over the R nonzero lanes of this column vector
        for (int off = C ; off < G ; off *= 2)
        {
            T o [VEC] ;
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) o [v] = gg_shfl_xor (acc [v], off) ;
            gg_combine_vec<T, VEC, OP> (a.mon, acc, o) ;
        }
        if (r == 0 && colok && end > start)
            gg_store_vec<T, VEC> (a.Y + row * a.n + j, acc) ;
    }
}

//------------------------------------------------------------------------------
// nnz_kK: chunks of nonzeros per warp, cut rows combined by scan and atomics
//------------------------------------------------------------------------------

// Before spmm_nnz_kernel: Y (r, :) = identity for every row r cut by a chunk
// boundary (p [r] < w * CH < p [r+1] for some w), the only rows it combines
// with atomics.  A group of GI lanes (a power of 2, GI <= 32, about n) per
// boundary; each lane finds the row itself (binary search, cached).
template <typename T>
__global__ void spmm_nnz_init_kernel (const spmm_args<T> a, int64_t CH,
    int64_t nbound, int GI)
{
    const int64_t tid = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    const int64_t w = tid / GI + 1 ;
    if (w > nbound) return ;
    const int g = (int) (tid % GI) ;
    const int64_t e = w * CH ;
    const int64_t r = gg_find_row (a.p, 0, a.m, e) ;
    if ((int64_t) a.p [r] == e) return ;            // row starts at the cut
    const T id = gg_identity<T> (a.mon) ;
    for (int64_t j = g ; j < a.n ; j += GI) a.Y [r * a.n + j] = id ;
}

// shared memory per warp of spmm_nnz_kernel: stage_n values, then stage_n
// column indices, each part 16-byte aligned
__host__ __device__ static inline size_t spmm_round16 (size_t b)
{
    return (b + 15) & ~(size_t) 15 ;
}
template <typename T>
__host__ __device__ static inline size_t spmm_stage_bytes (int64_t stage_n)
{
    return spmm_round16 ((size_t) stage_n * sizeof (T))
         + spmm_round16 ((size_t) stage_n * sizeof (int32_t)) ;
}

// The walk takes SPMM_BATCH entries at a time: their X loads are issued
// together (independent), then the entries are combined in order.
#define SPMM_BATCH 4

template <typename T, int VEC, int OP>
__global__ void __launch_bounds__ (256)
spmm_nnz_kernel (const spmm_args<T> a)
{
    extern __shared__ __align__ (16) unsigned char spmm_smem [] ;
    const int lane = threadIdx.x & 31 ;
    const int warp_in_block = threadIdx.x / 32 ;
    const int C = a.C, R = 32 / C, K = a.K ;
    const int c = lane % C, r = lane / C ;
    const int64_t CH = (int64_t) R * K ;
    const int64_t warp = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
    const int64_t e0 = warp * CH ;
    if (e0 >= a.nnz) return ;                       // whole warp
    const int64_t e1 = (e0 + CH < a.nnz) ? e0 + CH : a.nnz ;

    // stage the chunk's column indices and values, coalesced; entry t of the
    // chunk goes to t + t / K so that R lanes reading entry q of their own K
    // (stride K + 1, odd) hit distinct banks
    const int64_t stage_n = CH + R ;
    T *sval = (T *) (spmm_smem + (size_t) warp_in_block * spmm_stage_bytes<T> (stage_n)) ;
    int32_t *scol = (int32_t *) ((unsigned char *) sval
        + spmm_round16 (stage_n * sizeof (T))) ;
    for (int64_t t = lane ; t < e1 - e0 ; t += 32)
    {
        int64_t q = t + t / K ;
        if (a.X != NULL) scol [q] = a.ci [e0 + t] ;
        sval [q] = gg_sval (a.smode, a.sx, e0 + t) ;
    }
    __syncwarp () ;

    // rows of the chunk: row_lo holds e0, row_hi - 1 holds e1 - 1
    const int64_t row_lo = gg_warp_find_row (a.p, 0, a.m, e0) ;
    const int64_t row_hi = gg_warp_find_row (a.p, row_lo, a.m, e1 - 1) + 1 ;

    // this nonzero lane's entries [s, s_end), the row r0 holding s
    const int64_t s = e0 + (int64_t) r * K ;
    const int64_t s_end = (s + K < e1) ? s + K : e1 ;
    const bool active = (s < e1) ;
    const int64_t r0 = active ? gg_find_row (a.p, row_lo, row_hi, s) : -1 ;
    const bool have_head = active && ((int64_t) a.p [r0] < s) ;
    const int r_last = (int) ((e1 - 1 - e0) / K) ;
    const T id = gg_identity<T> (gg_op_mon<OP> (a.mon)) ;
    const int64_t n = a.n ;

    for (int64_t strip = 0 ; strip < n ; strip += (int64_t) C * VEC)
    {
        const int64_t j = strip + (int64_t) c * VEC ;
        const bool colok = (j < n) ;
        T acc [VEC], hv [VEC] ;
        spmm_fill<T, VEC> (acc, id) ;
        spmm_fill<T, VEC> (hv, id) ;
        bool head_closed = false ;
        int64_t carry_row = -1 ;

        if (active)
        {
            int64_t row = r0 ;
            int64_t rowend = a.p [row+1] ;
            for (int64_t tb = s ; tb < s_end ; tb += SPMM_BATCH)
            {
                T xs [SPMM_BATCH][VEC], ss [SPMM_BATCH] ;
                #pragma unroll
                for (int u = 0 ; u < SPMM_BATCH ; u++)
                {
                    const int64_t t = tb + u ;
                    if (t < s_end && colok)
                    {
                        int64_t q = (int64_t) r * (K + 1) + (t - s) ;
                        int64_t col = (a.X != NULL) ? scol [q] : 0 ;
                        ss [u] = sval [q] ;
                        spmm_load_x<T, VEC> (xs [u], a.X, col, n, j) ;
                    }
                }
                #pragma unroll
                for (int u = 0 ; u < SPMM_BATCH ; u++)
                {
                    const int64_t t = tb + u ;
                    if (t >= s_end) break ;
                    while (t >= rowend)
                    {
                        // row closes inside this lane's entries
                        if (row == r0 && have_head)
                        {
                            #pragma unroll
                            for (int v = 0 ; v < VEC ; v++) hv [v] = acc [v] ;
                            head_closed = true ;
                        }
                        else if (colok)
                        {
                            gg_store_vec<T, VEC> (a.Y + row * n + j, acc) ;
                        }
                        row++ ;
                        while ((int64_t) a.p [row+1] <= t) row++ ;    // empty rows
                        rowend = a.p [row+1] ;
                        spmm_fill<T, VEC> (acc, id) ;
                    }
                    if (colok) gg_fma_vec<T, VEC, OP> (a.mon, a.mul, acc, ss [u], xs [u]) ;
                }
            }
            if (rowend <= s_end)
            {
                // the last row closes exactly at this lane's end
                if (row == r0 && have_head)
                {
                    #pragma unroll
                    for (int v = 0 ; v < VEC ; v++) hv [v] = acc [v] ;
                    head_closed = true ;
                }
                else if (colok)
                {
                    gg_store_vec<T, VEC> (a.Y + row * n + j, acc) ;
                }
            }
            else
            {
                carry_row = row ;       // open past this lane (may be r0)
            }
        }
        if (carry_row < 0) spmm_fill<T, VEC> (acc, id) ;

        // segmented inclusive scan of the carries over the nonzero lanes, keyed
        // by row (rows are non-decreasing in lane order, so equal rows are
        // contiguous)
        for (int off = C ; off < 32 ; off *= 2)
        {
            T o [VEC] ;
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) o [v] = gg_shfl_up (acc [v], off) ;
            int64_t orow = __shfl_up_sync (0xffffffffu, carry_row, off) ;
            if (lane >= off && orow == carry_row && carry_row >= 0)
                gg_combine_vec<T, VEC, OP> (a.mon, acc, o) ;
        }
        // what flows into this lane: the scanned carry of the lane before
        T in [VEC] ;
        #pragma unroll
        for (int v = 0 ; v < VEC ; v++) in [v] = gg_shfl_up (acc [v], C) ;

        if (head_closed && colok)
        {
            // the row r0 ends here; lanes before hold the rest of it (if it
            // started before this chunk, the previous chunk holds more: atomic)
            if (r > 0) gg_combine_vec<T, VEC, OP> (a.mon, hv, in) ;
            if ((int64_t) a.p [r0] >= e0)
                gg_store_vec<T, VEC> (a.Y + r0 * n + j, hv) ;
            else
                spmm_atomic_vec<T, VEC> (gg_op_mon<OP> (a.mon), a.Y + r0 * n + j, hv) ;
        }
        if (r == r_last && carry_row >= 0 && colok)
        {
            // the row runs on into the next chunk
            spmm_atomic_vec<T, VEC> (gg_op_mon<OP> (a.mon), a.Y + carry_row * n + j, acc) ;
        }
    }
}

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

// n == 1, longest row unknown: merge_i8 from this many nonzeros
#define SPMM_MERGE_MIN_NNZ 200000

template <int ITEMS>
__host__ __device__ constexpr int mrg_chunk (void) { return MRG_THREADS * ITEMS ; }

// (key, value) segmented combine: b follows a; same key = same run
template <typename T, int OP>
__device__ __forceinline__ void mrg_seg_combine (int mon, int ka, T va, int &kb, T &vb)
{
    if (ka == kb)
    {
        T acc [1] = { va }, o [1] = { vb } ;
        gg_combine_vec<T, 1, OP> (mon, acc, o) ;
        vb = acc [0] ;
    }
}

template <typename T>
__device__ __forceinline__ T mrg_x (const T *X, int32_t col, int64_t n, int64_t j)
{
    if (X == NULL) return T (0) ;
    T v [1] ;
    gg_load_vec<T, 1> (v, X + (int64_t) col * n + j) ;
    return v [0] ;
}

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

// The side buffer of the carries: stream-ordered allocations from the
// kernels' own memory pool (one per device, created on first use, keeping
// its memory between calls), so a call neither synchronises nor pays
// cudaMalloc.  Freed in stream order after the fix-up.
#include <mutex>
cudaMemPool_t gg_kernel_pool (void)
{
    static std::mutex mu ;
    static cudaMemPool_t pools [64] ;
    static bool made [64] ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 64) return NULL ;
    std::lock_guard<std::mutex> lock (mu) ;
    if (!made [dev])
    {
        cudaMemPoolProps props ;
        memset (&props, 0, sizeof (props)) ;
        props.allocType = cudaMemAllocationTypePinned ;
        props.location.type = cudaMemLocationTypeDevice ;
        props.location.id = dev ;
        if (cudaMemPoolCreate (&pools [dev], &props) != cudaSuccess)
        {
            cudaGetLastError () ;
            return NULL ;
        }
        uint64_t keep = UINT64_MAX ;
        cudaMemPoolSetAttribute (pools [dev], cudaMemPoolAttrReleaseThreshold, &keep) ;
        made [dev] = true ;
    }
    return pools [dev] ;
}

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
#define SPW_PLAN_UNIT 256       // entries per plan step (the smallest chunk)
#define SPW_PLAN_THREADS 256

template <int ITEMS>
__host__ __device__ constexpr int spw_chunk (void) { return 32 * ITEMS ; }

// plan entries: one per SPW_PLAN_UNIT entries, plus the row of the last entry
__host__ __device__ static inline int64_t spw_plan_units (int64_t nnz)
{
    return (nnz + SPW_PLAN_UNIT - 1) / SPW_PLAN_UNIT ;
}

// plan [u] = the row holding entry u * SPW_PLAN_UNIT (u < nu), plan [nu] =
// the row holding entry nnz - 1.  One thread per row: each chunk start is in
// exactly one non-empty row, so every plan entry is written once.
__global__ void spmm_spmv_plan_kernel (const int32_t *p, int64_t m,
    int64_t nnz, int32_t *plan)
{
    const int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (r >= m) return ;
    const int64_t lo = p [r], hi = p [r+1] ;
    if (lo == hi) return ;
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

// The hot form (gg_cuda_spmv_hot) runs one block of SPW_HOT_WARPS warps per
// SM, persistent: the block stages the hot part of x in shared memory once
// and its warps then take chunks w, w + gridDim.x * SPW_HOT_WARPS, ...
#define SPW_HOT_WARPS 32
#define SPW_HOT_ITEMS 8
#define SPW_HOT_FLAG ((int32_t) 0x80000000)

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
// variants and chooser
//------------------------------------------------------------------------------

enum spmm_sched { SCHED_ROW = 0, SCHED_NNZ, SCHED_MERGE, SCHED_WARP } ;

typedef struct
{
    const char *name ;
    int sched ;
    int param ;         // row: G; nnz: K; merge, warp: I
}
spmm_variant ;

static const spmm_variant spmm_variant_table [] =
{
    { "row_g4",  SCHED_ROW, 4 },
    { "row_g8",  SCHED_ROW, 8 },
    { "row_g16", SCHED_ROW, 16 },
    { "row_g32", SCHED_ROW, 32 },
    { "nnz_k8",  SCHED_NNZ, 8 },
    { "nnz_k16", SCHED_NNZ, 16 },
    { "nnz_k32", SCHED_NNZ, 32 },
    { "nnz_k128", SCHED_NNZ, 128 },
    { "merge_i4", SCHED_MERGE, 4 },
    { "merge_i8", SCHED_MERGE, 8 },
    { "warp_t8", SCHED_WARP, 8 },
} ;
#define SPMM_NVARIANTS ((int) (sizeof (spmm_variant_table) / sizeof (spmm_variant_table [0])))

static const char *const spmm_variant_names [] =
{
    "row_g4", "row_g8", "row_g16", "row_g32", "nnz_k8", "nnz_k16", "nnz_k32",
    "nnz_k128", "merge_i4", "merge_i8", "warp_t8", NULL
} ;

extern "C" const char *const *gg_cuda_spmm_variants (void)
{
    return spmm_variant_names ;
}

// Column lanes: enough to cover n with VEC-wide vectors, a power of 2 <= cap.
static int spmm_col_lanes (int64_t n, int vec, int cap)
{
    int64_t nv = (n + vec - 1) / vec ;
    int c = 1 ;
    while (c < cap && c < nv) c *= 2 ;
    return c ;
}

extern "C" const char *gg_cuda_spmm_choose (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row)
{
    // Thresholds measured on an H200 (bench/kernels_bench; bench/NOTES.md,
    // "own kernels").  A row-split group walks its row alone, so the longest
    // row bounds the run time: with R = G / C lanes on the nonzeros, a row of
    // L entries costs L / R dependent steps.  nnz-split costs a row search per
    // chunk and atomics on cut rows, but no row is longer than a chunk.
    double mean = (m > 0) ? (double) nnz / (double) m : 0 ;
    if (n == 1)
    {
        // nnz-split: balanced whatever the rows, for skewed rows (R-MAT, the
        // arrow, musae_facebook, amazon_photo) or a large matrix whose
        // longest row is not known.  From 1M entries warp_t8 (1.34-1.52x
        // merge_i4 on R-MAT 2^18..2^22, its plan made in the call); below,
        // merge_i8 (two launches; warp_t8 without a kept plan is three, and
        // ~1-2 us slower there; with one, gg_cuda_spmm_choose_plan)
        if ((max_row > 256 && (double) max_row > 16.0 * mean)
            || (max_row < 0 && nnz >= SPMM_MERGE_MIN_NNZ))
            return (nnz >= 1000000) ? "warp_t8" : "merge_i8" ;
        // group size ~ mean row length (twice that when the longest row is
        // far above it), but enough threads to fill the GPU
        int G = 4 ;
        while (G < 32 && (double) G < mean) G *= 2 ;
        if (G < 32 && (double) max_row > 8.0 * mean) G *= 2 ;
        while (G < 32 && m * G < 65536) G *= 2 ;
        return (G == 4) ? "row_g4" : (G == 8) ? "row_g8" : (G == 16) ? "row_g16" : "row_g32" ;
    }
    // n > 1: a group spends its lanes on columns first (R = 1 when C = G), so
    // a row of more than ~64 entries is a long serial walk.  Longer chunks
    // (K = 128) pay off once the matrix is large and n is wide: fewer cut rows,
    // fewer row searches per nonzero.
    bool skewed = (max_row > 64 && (double) max_row > 4.0 * mean)
        || (max_row < 0 && n >= 32 && mean > 16) ;     // unknown: guess
    if (skewed)
    {
        if (n >= 64) return (nnz > 200000) ? "nnz_k128" : "nnz_k32" ;
        return (nnz > 10000000) ? "nnz_k128" : "nnz_k32" ;
    }
    if (mean <= 4) return (n <= 32) ? "row_g4" : "row_g8" ;
    if (mean <= 8) return (n <= 32) ? "row_g8" : "row_g16" ;
    return "row_g32" ;
}

// With the SpMV plan kept (gg_cuda_spmm_plan): warp_t8 wherever the chooser
// takes an nnz-split SpMV (measured 1.2-1.3x merge_i8 on the small skewed
// matrices, where the plan's launch was what made it slower).
extern "C" const char *gg_cuda_spmm_choose_plan (int64_t m, int64_t n,
    int64_t nnz, int64_t max_row)
{
    const char *k = gg_cuda_spmm_choose (m, n, nnz, max_row) ;
    return (strncmp (k, "merge", 5) == 0) ? "warp_t8" : k ;
}

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

template <typename T, int VEC, int OP>
static int spmm_launch_vec (const spmm_variant *var, spmm_args<T> a,
    cudaStream_t stream)
{
    if (var->sched == SCHED_ROW)
    {
        a.G = var->param ;
        a.C = spmm_col_lanes (a.n, VEC, a.G) ;
        int64_t threads = a.m * a.G ;
        int64_t blocks = (threads + 255) / 256 ;
        spmm_row_kernel<T, VEC, OP> <<<(unsigned) blocks, 256, 0, stream>>> (a) ;
    }
    else
    {
        a.K = var->param ;
        a.C = spmm_col_lanes (a.n, VEC, 32) ;
        int64_t R = 32 / a.C ;
        // a warp's stage must fit in 48 KB (nnz_k128 with C = 1 on 8-byte
        // types would not): halve K until it does
        while (a.K > 8 && spmm_stage_bytes<T> (R * a.K + R) > 48 * 1024) a.K /= 2 ;
        int64_t CH = R * a.K ;
        int64_t nchunks = (a.nnz + CH - 1) / CH ;
        // cut rows to the identity first (stream order makes it complete
        // before the main kernel)
        if (nchunks > 1)
        {
            int64_t nb = nchunks - 1 ;
            int GI = 1 ;
            while (GI < 32 && GI < a.n) GI *= 2 ;
            int64_t blocks = (nb * GI + 255) / 256 ;
            spmm_nnz_init_kernel<T> <<<(unsigned) blocks, 256, 0, stream>>> (a, CH, nb, GI) ;
        }
        size_t per_warp = spmm_stage_bytes<T> (CH + R) ;
        int wpb = 8 ;
        while (wpb > 1 && per_warp * wpb > 48 * 1024) wpb /= 2 ;
        int64_t blocks = (nchunks + wpb - 1) / wpb ;
        spmm_nnz_kernel<T, VEC, OP> <<<(unsigned) blocks, 32 * wpb,
            per_warp * wpb, stream>>> (a) ;
    }
    return gg_launch_status () ;
}

template <typename T, int OP, int ITEMS>
static int spmm_launch_merge (spmm_args<T> a, cudaStream_t stream)
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
    cudaMemPool_t pool = gg_kernel_pool () ;
    if (pool == NULL) return GG_ERR_DEVICE ;
    size_t rbytes = spmm_round16 ((size_t) nb * sizeof (int32_t)) ;
    size_t bytes = rbytes + (size_t) nb * (size_t) a.n * sizeof (T) ;
    void *ws = NULL ;
    if (cudaMallocFromPoolAsync (&ws, bytes, pool, stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVMEM ;
    }
    int32_t *crow = (int32_t *) ws ;
    T *cval = (T *) ((unsigned char *) ws + rbytes) ;
    spmm_merge_kernel<T, OP, ITEMS> <<<(unsigned) nb, MRG_THREADS, 0, stream>>> (a, NULL, crow, cval, nb) ;
    int64_t nt = nb * a.n ;
    spmm_merge_fixup_kernel<T, OP> <<<(unsigned) ((nt + 255) / 256), 256, 0, stream>>> (a, crow, cval, nb) ;
    int rc = gg_launch_status () ;
    cudaFreeAsync (ws, stream) ;
    return rc ;
}

// The SMs of the current device (asked once per device; 0 if unknown)
int gg_device_sms (void)
{
    static int sms [64] ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 64) return 0 ;
    if (sms [dev] == 0 && cudaDeviceGetAttribute (&sms [dev],
        cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    {
        cudaGetLastError () ;
        sms [dev] = 0 ;
    }
    return sms [dev] ;
}

// The hot form's stage: what the block's shared memory holds next to the
// warps' buffers (the opt-in maximum per block less those), in values of ts
// bytes, a multiple of 16 bytes
static int64_t spw_hot_max (int ts)
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
static int spmm_launch_spmv_warp (spmm_args<T> a, const int32_t *plan,
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
        cudaMemPool_t pool = gg_kernel_pool () ;
        if (pool == NULL) return GG_ERR_DEVICE ;
        if (cudaMallocFromPoolAsync (&ws, bytes, pool, stream) != cudaSuccess)
        {
            cudaGetLastError () ;
            return GG_ERR_DEVMEM ;
        }
    }
    unsigned char *wb = (unsigned char *) ws ;
    if (plan == NULL)
    {
        int32_t *pl = (int32_t *) wb ;
        spmm_spmv_plan_kernel <<<(unsigned) ((a.m + SPW_PLAN_THREADS - 1) / SPW_PLAN_THREADS),
            SPW_PLAN_THREADS, 0, stream>>> (a.p, a.m, a.nnz, pl) ;
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

template <typename T, int OP>
static int spmm_launch_op (const spmm_variant *var, const spmm_args<T> &a,
    int vec, const int32_t *plan, const int32_t *hot, int64_t nhot,
    cudaStream_t stream)
{
    if (var->sched == SCHED_WARP)
    {
        static_assert (SPW_HOT_ITEMS == 8, "the hot form is warp_t8's") ;
        return spmm_launch_spmv_warp<T, OP, 8> (a, plan, hot, nhot, stream) ;
    }
    if (var->sched == SCHED_MERGE)
    {
        if (var->param == 4) return spmm_launch_merge<T, OP, 4> (a, stream) ;
        return spmm_launch_merge<T, OP, 8> (a, stream) ;
    }
    switch (vec)
    {
        case 4:  return spmm_launch_vec<T, 4, OP> (var, a, stream) ;
        case 2:  return spmm_launch_vec<T, 2, OP> (var, a, stream) ;
        default: return spmm_launch_vec<T, 1, OP> (var, a, stream) ;
    }
}

struct spmm_dispatch
{
    template <typename T>
    static int run (const gg_canon *cs, const spmm_variant *var, bool fast,
        int64_t m, int64_t n, int64_t nnz, const int32_t *p, const int32_t *i,
        const void *x, bool iso, const void *X, void *Y, const int32_t *plan,
        const int32_t *hot, int64_t nhot, cudaStream_t stream)
    {
        spmm_args<T> a ;
        memset (&a, 0, sizeof (a)) ;
        a.m = m ; a.n = n ; a.nnz = nnz ; a.p = p ; a.ci = i ;
        a.sx = (const T *) x ;
        a.smode = gg_mul_reads_s (cs->mul) ? (iso ? GG_S_ISO : GG_S_ARRAY) : GG_S_NONE ;
        a.X = gg_mul_reads_x (cs->mul) ? (const T *) X : NULL ;
        a.Y = (T *) Y ;
        a.mon = cs->mon ; a.mul = cs->mul ;
        int vec = gg_pick_vec (n, sizeof (T), a.X != NULL ? X : Y, Y) ;
        // a compile-time fast path for the FP types' common semirings (the
        // runtime-switch kernel serves every other case, and these too when
        // fast == false)
        const int op = fast ? gg_pick_op<T> (cs->mon, cs->mul, cs->plus_times)
                            : GG_OP_GENERIC ;
        if constexpr (std::is_same<T, float>::value)
        {
            switch (op)
            {
                case GG_OP_PLUS_TIMES: return spmm_launch_op<T, GG_OP_PLUS_TIMES> (var, a, vec, plan, hot, nhot, stream) ;
                case GG_OP_MIN:        return spmm_launch_op<T, GG_OP_MIN> (var, a, vec, plan, hot, nhot, stream) ;
                case GG_OP_MAX:        return spmm_launch_op<T, GG_OP_MAX> (var, a, vec, plan, hot, nhot, stream) ;
                default: break ;
            }
        }
        if constexpr (std::is_same<T, double>::value)
        {
            if (op == GG_OP_PLUS_TIMES) return spmm_launch_op<T, GG_OP_PLUS_TIMES> (var, a, vec, plan, hot, nhot, stream) ;
        }
        return spmm_launch_op<T, GG_OP_GENERIC> (var, a, vec, plan, hot, nhot, stream) ;
    }
} ;

// The semiring in canonical form, and whether the shapes and arrays are
// ones the kernels take
static bool spmm_check (const gg_semiring *sr, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const void *x, const void *X, gg_canon *cs)
{
    if (!gg_canon_semiring (sr, cs)) return false ;
    if (m < 0 || k < 0 || n < 0 || nnz < 0) return false ;
    if (m > INT32_MAX || k > INT32_MAX || nnz > INT32_MAX
        || m * n > ((int64_t) 1 << 40)) return false ;
    // an array the multiply reads must be there
    if (gg_mul_reads_s (cs->mul) && x == NULL) return false ;
    if (gg_mul_reads_x (cs->mul) && X == NULL) return false ;
    return true ;
}

// kernel: a variant name, optionally with "/generic" (no fast path, for
// benchmarks that measure what the runtime switches cost).
extern "C" int gg_cuda_spmm_plan (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const void *plan, const char *kernel,
    cudaStream_t stream)
{
    gg_canon cs ;
    if (!spmm_check (sr, m, k, n, nnz, x, X, &cs)) return GG_ERR_UNSUPPORTED ;

    // the schedule
    const char *name = (kernel != NULL && kernel [0] != '\0') ? kernel
        : gg_cuda_spmm_choose (m, n, nnz, -1) ;
    bool fast = true ;
    char base [32] ;
    size_t len = strlen (name) ;
    const char *suffix = "/generic" ;
    size_t sl = strlen (suffix) ;
    if (len > sl && strcmp (name + len - sl, suffix) == 0)
    {
        fast = false ;
        len -= sl ;
    }
    if (len >= sizeof (base)) return GG_ERR_UNSUPPORTED ;
    memcpy (base, name, len) ;
    base [len] = '\0' ;
    const spmm_variant *var = NULL ;
    for (int v = 0 ; v < SPMM_NVARIANTS ; v++)
        if (strcmp (spmm_variant_table [v].name, base) == 0) var = &spmm_variant_table [v] ;
    if (var == NULL) return GG_ERR_UNSUPPORTED ;

    if (m == 0 || n == 0 || nnz == 0) return GG_OK ;   // no row has entries
    GG_TYPE_DISPATCH (sr->type, spmm_dispatch, &cs, var, fast, m, n, nnz, p, i,
        x, iso, X, Y, (const int32_t *) plan, NULL, 0, stream) ;
}

extern "C" int gg_cuda_spmm (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const char *kernel, cudaStream_t stream)
{
    return gg_cuda_spmm_plan (sr, m, k, n, nnz, p, i, x, iso, X, Y, NULL,
        kernel, stream) ;
}

extern "C" size_t gg_cuda_spmv_plan_bytes (int64_t nnz)
{
    return (size_t) (spw_plan_units (nnz < 0 ? 0 : nnz) + 1) * sizeof (int32_t) ;
}

extern "C" int gg_cuda_spmv_plan_build (int64_t m, int64_t nnz,
    const int32_t *p, void *plan, cudaStream_t stream)
{
    if (m < 0 || nnz < 0 || m > INT32_MAX || nnz > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (m == 0 || nnz == 0) return GG_OK ;
    spmm_spmv_plan_kernel <<<(unsigned) ((m + SPW_PLAN_THREADS - 1) / SPW_PLAN_THREADS),
        SPW_PLAN_THREADS, 0, stream>>> (p, m, nnz, (int32_t *) plan) ;
    return gg_launch_status () ;
}

//------------------------------------------------------------------------------
// hot/cold SpMV: the hot form of a pattern, and the product with it
//------------------------------------------------------------------------------

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
    cudaMemPool_t pool = gg_kernel_pool () ;
    if (pool == NULL) return GG_ERR_DEVICE ;
    void *ws = NULL ;
    if (cudaMallocFromPoolAsync (&ws, dbytes + hbytes + 2 * tbytes, pool, stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVMEM ;
    }
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
    const spmm_variant *var = NULL ;
    for (int v = 0 ; v < SPMM_NVARIANTS ; v++)
        if (spmm_variant_table [v].sched == SCHED_WARP) var = &spmm_variant_table [v] ;
    if (m == 0 || nnz == 0) return GG_OK ;
    GG_TYPE_DISPATCH (sr->type, spmm_dispatch, &cs, var, true, m, 1, nnz, p, ih,
        x, iso, X, Y, (const int32_t *) plan, hot, K, stream) ;
}

//------------------------------------------------------------------------------
// special values (gg_cuda_special_values)
//------------------------------------------------------------------------------

// *flag = 1 if some value of x [0..n) is special: all exponent bits set (an
// infinity or a NaN), or none set with a nonzero fraction (subnormal).  U:
// the unsigned type of the value's bits; 16-byte loads where they fit, the
// tail one value at a time; one atomic per block that saw one.
template <typename U>
__device__ __forceinline__ bool special_bits (U b, U expo)
{
    const U e = b & expo ;
    return e == expo || (e == 0 && (U) (b << 1) != 0) ;
}

template <typename U>
__global__ void special_values_kernel (const U *x, int64_t n, U expo, int *flag)
{
    constexpr int V = 16 / (int) sizeof (U) ;
    const int64_t nv = n / V ;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    const int64_t t0 = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    bool bad = false ;
    for (int64_t q = t0 ; q < nv ; q += stride)
    {
        union { uint4 u4 ; U u [V] ; } v ;
        v.u4 = __ldcs (((const uint4 *) x) + q) ;
        #pragma unroll
        for (int k = 0 ; k < V ; k++) bad |= special_bits (v.u [k], expo) ;
    }
    for (int64_t e = nv * V + t0 ; e < n ; e += stride) bad |= special_bits (x [e], expo) ;
    if (__syncthreads_or (bad) && threadIdx.x == 0) atomicOr (flag, 1) ;
}

extern "C" int gg_cuda_special_values (gg_type t, const void *x, int64_t n,
    int *flag, cudaStream_t stream)
{
    if (flag == NULL || n < 0 || (n > 0 && x == NULL)) return GG_ERR_UNSUPPORTED ;
    if (cudaMemsetAsync (flag, 0, sizeof (int), stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    if (n == 0 || (t != GG_FP32 && t != GG_FP64)) return GG_OK ;
    // 16-byte loads need 16-byte alignment: device allocations have it
    if ((uintptr_t) x % 16 != 0) return GG_ERR_UNSUPPORTED ;
    const int sms = (gg_device_sms () > 0) ? gg_device_sms () : 132 ;
    const int64_t want = (n / (t == GG_FP32 ? 4 : 2) + 255) / 256 ;
    const unsigned blocks = (unsigned) ((want < 1) ? 1 : (want > (int64_t) sms * 8) ? (int64_t) sms * 8 : want) ;
    if (t == GG_FP32)
        special_values_kernel<uint32_t> <<<blocks, 256, 0, stream>>> ((const uint32_t *) x, n, 0x7f800000u, flag) ;
    else
        special_values_kernel<uint64_t> <<<blocks, 256, 0, stream>>> ((const uint64_t *) x, n, 0x7ff0000000000000ull, flag) ;
    return gg_launch_status () ;
}
