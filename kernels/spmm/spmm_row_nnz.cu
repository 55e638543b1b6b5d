//------------------------------------------------------------------------------
// kernels/spmm/spmm_row_nnz.cu: SpMM row_gG (row-split) and nnz_kK (nnz-split)
//------------------------------------------------------------------------------

// What they compute and when the chooser takes them: spmm_internal.cuh.

#include "kernels/spmm/spmm_internal.cuh"

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

// the row of Y that row r of S is written to
template <typename T>
__device__ __forceinline__ int64_t spmm_yrow (const spmm_args<T> &a, int64_t r)
{
    return (a.row_out != NULL) ? (int64_t) a.row_out [r] : r ;
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
            gg_store_vec<T, VEC> (a.Y + spmm_yrow (a, row) * a.n + j, acc) ;
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
    const int64_t yr = spmm_yrow (a, r) ;
    for (int64_t j = g ; j < a.n ; j += GI) a.Y [yr * a.n + j] = id ;
}

// shared memory per warp of spmm_nnz_kernel: stage_n values, then stage_n
// column indices, each part 16-byte aligned
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
                            gg_store_vec<T, VEC> (a.Y + spmm_yrow (a, row) * n + j, acc) ;
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
                    gg_store_vec<T, VEC> (a.Y + spmm_yrow (a, row) * n + j, acc) ;
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
                gg_store_vec<T, VEC> (a.Y + spmm_yrow (a, r0) * n + j, hv) ;
            else
                spmm_atomic_vec<T, VEC> (gg_op_mon<OP> (a.mon), a.Y + spmm_yrow (a, r0) * n + j, hv) ;
        }
        if (r == r_last && carry_row >= 0 && colok)
        {
            // the row runs on into the next chunk
            spmm_atomic_vec<T, VEC> (gg_op_mon<OP> (a.mon), a.Y + spmm_yrow (a, carry_row) * n + j, acc) ;
        }
    }
}

// Threads per row of the init kernels (nnz_kK's, slot_kK's): n rounded up to
// a power of 2, at most 32.
static int spmm_init_lanes (int64_t n)
{
    int g = 1 ;
    while (g < 32 && g < n) g *= 2 ;
    return g ;
}

// Column lanes: enough to cover n with VEC-wide vectors, a power of 2 <= cap.
static int spmm_col_lanes (int64_t n, int vec, int cap)
{
    int64_t nv = (n + vec - 1) / vec ;
    int c = 1 ;
    while (c < cap && c < nv) c *= 2 ;
    return c ;
}

//------------------------------------------------------------------------------
// slot_kK: row-aligned slots of the nnz split, from the slot plan
//------------------------------------------------------------------------------

// FP32 and FP64 PLUS_TIMES with 16-byte pieces of X (4 floats or 2 doubles
// per lane, SPMM_SVEC) and 4 or more column lanes (any other case runs
// nnz_kK).  Slot j of K entries [jK, (j+1)K) is moved to
// start at the row holding entry jK: B_j = the start of that row, unless the
// row began at or before (j-1)K (a row longer than a slot), then B_j = jK.
// So B_j is strictly increasing, a group of C column lanes takes the entries
// [B_j, B_j+1) (under 2K), and only rows longer than K are ever cut: those
// take atomics after spmm_slot_init_kernel has set them to the identity;
// every other row is a plain store.  No search: the slot plan (the row
// holding every 32nd entry and that row's start, made once per pattern with
// the SpMV plan) gives B_j and the first row; the group loads C row ends,
// C column indices and C values at a time (coalesced, the next C in flight
// while these are used), hands the row ends out by shuffles and the entries
// through shared memory (spmm_slot_entry) and keeps SPMM_SBATCH rows of X in
// flight.  Where no row is longer than K (the caller's max_row) the init
// kernel is not launched.  Why (bench/NOTES.md, 2026-11-29, sixth and
// seventh sessions): ncu counted 59 warp instructions per entry for nnz_k128
// at N = 128 on amazon_photo (a row search per chunk, 64-bit positions, the
// lane scan; cuSPARSE 24) and its init kernel, a search per cut row, at 5-8
// us of a 40 us product; this schedule with shuffles 36, staged 22.
#define SPMM_SBATCH 8

// A lane's columns: 16 bytes of T
template <typename T>
struct spmm_svec { static constexpr int V = 16 / (int) sizeof (T) ; } ;

// The staged entry (spmm_slot_entry): X's row offset in 16-byte units and
// the value, 8 bytes for FP32 (one broadcast read), 16 for FP64
template <typename T> struct spmm_sent ;
template <> struct spmm_sent<float>
{
    typedef uint2 type ;
    static __device__ __forceinline__ type make (uint32_t off, float v)
    { return make_uint2 (off, __float_as_uint (v)) ; }
    static __device__ __forceinline__ uint32_t off (const type &e) { return e.x ; }
    static __device__ __forceinline__ float val (const type &e) { return __uint_as_float (e.y) ; }
} ;
template <> struct spmm_sent<double>
{
    typedef uint4 type ;
    static __device__ __forceinline__ type make (uint32_t off, double v)
    {
        const unsigned long long b = (unsigned long long) __double_as_longlong (v) ;
        return make_uint4 (off, 0u, (uint32_t) b, (uint32_t) (b >> 32)) ;
    }
    static __device__ __forceinline__ uint32_t off (const type &e) { return e.x ; }
    static __device__ __forceinline__ double val (const type &e)
    { return __hiloint2double ((int) e.w, (int) e.z) ; }
} ;

// row's part of [b0, b1) to Y: a store, or an atomic where a slot boundary
// cuts the row (other groups hold the rest); nothing for an empty row.
// Positions and rows in 32 bits (nnz, m < 2^31: spmm_check).
template <typename T, int V>
__device__ __forceinline__ void spmm_slot_flush (const spmm_args<T> &a, bool colok,
    int32_t row, int32_t rstart, int32_t rend, int32_t b0, int32_t b1, int64_t j,
    const T (&acc) [V])
{
    if (!colok || rend <= rstart) return ;
    T *y = a.Y + spmm_yrow (a, row) * a.n + j ;
    if (rstart < b0 || rend > b1)
        spmm_atomic_vec<T, V> (gg_op_mon<GG_OP_PLUS_TIMES> (a.mon), y, acc) ;
    else
        gg_store_vec<T, V> (y, acc) ;
}

// Whether slot boundary jK cuts the row holding entry jK, which starts at
// prow (the plan's row start): the row began at or before (j-1)K
__device__ __forceinline__ bool spmm_slot_cut (int64_t j, int K, int32_t prow)
{
    return (int64_t) prow <= (j - 1) * K ;
}

// slot j's start B_j: that row's start, or jK where the boundary cuts it
__device__ __forceinline__ int32_t spmm_slot_start (int64_t j, int K, int32_t prow)
{
    return spmm_slot_cut (j, K, prow) ? (int32_t) (j * K) : prow ;
}

// The slot plan: slot [2u] = the row holding entry 32u, slot [2u+1] = where
// that row starts (u < ceil (nnz / 32)).  One thread per row.
__global__ void spmm_slot_plan_kernel (const int32_t *p, int64_t m, int32_t *slot)
{
    const int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    if (r >= m) return ;
    spmm_slot_plan_row (r, p [r], p [r+1], slot) ;
}

// Before spmm_slot_kernel: Y (r, :) = identity for the row r cut at each
// slot boundary j = 1 .. nslots-1 (a row cut at several is set by each of
// them, to the same value).  GI threads per boundary.
template <typename T>
__global__ void spmm_slot_init_kernel (const spmm_args<T> a, const int32_t *slot,
    int64_t nb, int GI)
{
    const int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    const int64_t j = 1 + t / GI ;
    const int g = (int) (t % GI) ;
    if (j > nb) return ;
    const int64_t u = j * (a.K / SPMM_SLOT_UNIT) ;
    const int32_t row = slot [2*u], start = slot [2*u+1] ;
    if (!spmm_slot_cut (j, a.K, start)) return ;
    const T id = gg_identity<T> (gg_op_mon<GG_OP_PLUS_TIMES> (a.mon)) ;
    const int64_t yr = spmm_yrow (a, row) ;
    for (int64_t c = g ; c < a.n ; c += GI) a.Y [yr * a.n + c] = id ;
}

// The group's C entries of a round, staged in shared memory as (where X's
// row for the entry's column starts, in 16-byte units: < 2^32,
// spmm_launch_slot; the value): one 8-byte broadcast read per entry where
// shuffles took two, and one wide multiply-add to the lane's address.
// Entries past b1: X's row 0 (a row that exists when S has an entry) and 0.
template <typename T>
__device__ __forceinline__ typename spmm_sent<T>::type spmm_slot_entry (const spmm_args<T> &a,
    int32_t e, int32_t b1)
{
    int32_t col = 0 ;
    T v = 0 ;
    if (e < b1)
    {
        col = a.ci [e] ;
        v = gg_sval (a.smode, a.sx, e) ;
    }
    return spmm_sent<T>::make ((uint32_t) col * (uint32_t) (a.n / spmm_svec<T>::V), v) ;
}

// C column lanes per group (4, 8, 16 or 32), a compile-time constant so that
// the round's batches unroll; SB entries of X in flight.  A batch wholly
// inside the current row (most of them unless rows are short) runs without
// the per-entry row and count tests.
template <typename T, int C>
__global__ void __launch_bounds__ (256, 3)
spmm_slot_kernel (const spmm_args<T> a, const int32_t *slot)
{
    constexpr int SB = (C < SPMM_SBATCH) ? C : SPMM_SBATCH ;
    constexpr int V = spmm_svec<T>::V ;
    typedef spmm_sent<T> SE ;
    typedef typename SE::type ent ;
    __shared__ ent stage [256] ;                // one per thread, by group
    const int lane = threadIdx.x & 31 ;
    const int K = a.K ;
    const int c = lane & (C - 1), r = lane / C ;
    const unsigned gmask = (C == 32) ? 0xffffffffu : (((1u << C) - 1u) << (r * C)) ;
    ent *gst = stage + (threadIdx.x - c) ;     // the group's C entries
    const int64_t jj = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / C ;
    const int64_t nslots = (a.nnz + K - 1) / K ;
    if (jj >= nslots) return ;                      // the whole group
    const int f = K / SPMM_SLOT_UNIT ;
    const int32_t row0 = slot [2 * jj * f], start0 = slot [2 * jj * f + 1] ;
    const int32_t b0 = spmm_slot_start (jj, K, start0) ;
    const int32_t b1 = (jj + 1 < nslots)
        ? spmm_slot_start (jj + 1, K, slot [2 * (jj + 1) * f + 1]) : (int32_t) a.nnz ;
    const T id = gg_identity<T> (gg_op_mon<GG_OP_PLUS_TIMES> (a.mon)) ;
    const int32_t n = (int32_t) a.n ;         // < 2^31: spmm_launch_slot
    const int32_t m = (int32_t) a.m ;

    // blockIdx.y: the strip of C * V columns
    const int32_t j = (int32_t) blockIdx.y * (C * V) + c * V ;
    const bool colok = (j < n) ;
    // X from the lane's column (lanes past n read column 0 and store
    // nothing)
    const uint4 *Xj = (const uint4 *) (a.X + (colok ? j : 0)) ;     // (16-byte units)
    // row ends: lane c holds p [rbase + 1 + c]; the row is rbase + q
    int32_t rbase = row0 ;
    int q = 0 ;
    int32_t pn = (rbase + 1 + c <= m) ? a.p [rbase + 1 + c] : (int32_t) a.nnz ;
    int32_t rstart = start0 ;
    T acc [V] ;
    spmm_fill<T, V> (acc, id) ;
    int32_t rend = __shfl_sync (gmask, pn, 0, C) ;
    gst [c] = spmm_slot_entry (a, b0 + c, b1) ;
    __syncwarp (gmask) ;
    for (int32_t tb = b0 ; tb < b1 ; tb += C)
    {
        // the next C, in flight while these are used
        const ent next = spmm_slot_entry (a, tb + C + c, b1) ;
        const int cnt = (b1 - tb < C) ? b1 - tb : C ;
        for (int u0 = 0 ; u0 < cnt ; u0 += SB)
        {
            T xs [SB][V], ss [SB] ;
            #pragma unroll
            for (int v = 0 ; v < SB ; v++)
            {
                // every load valid (u0 + v < C), used only below cnt
                const ent e = gst [u0 + v] ;
                ss [v] = SE::val (e) ;
                gg_load_vec<T, V> (xs [v], (const T *) (Xj + SE::off (e))) ;
            }
            const int32_t t0 = tb + u0 ;
            if (u0 + SB <= cnt && t0 + SB <= rend)
            {
                // the batch inside the current row
                #pragma unroll
                for (int v = 0 ; v < SB ; v++)
                    gg_fma_vec<T, V, GG_OP_PLUS_TIMES> (a.mon, a.mul, acc, ss [v], xs [v]) ;
                continue ;
            }
            #pragma unroll
            for (int v = 0 ; v < SB ; v++)
            {
                const int u = u0 + v ;
                if (u >= cnt) break ;
                const int32_t t = tb + u ;
                while (t >= rend)
                {
                    spmm_slot_flush (a, colok, rbase + q, rstart, rend, b0, b1, j, acc) ;
                    spmm_fill<T, V> (acc, id) ;
                    rstart = rend ;
                    if (++q == C)
                    {
                        rbase += C ;
                        q = 0 ;
                        pn = (rbase + 1 + c <= m) ? a.p [rbase + 1 + c] : (int32_t) a.nnz ;
                    }
                    rend = __shfl_sync (gmask, pn, q, C) ;
                }
                gg_fma_vec<T, V, GG_OP_PLUS_TIMES> (a.mon, a.mul, acc, ss [v], xs [v]) ;
            }
        }
        __syncwarp (gmask) ;                    // this round's reads done
        gst [c] = next ;
        __syncwarp (gmask) ;
    }
    spmm_slot_flush (a, colok, rbase + q, rstart, rend, b0, b1, j, acc) ;
}

template <typename T>
int spmm_launch_slot (const spmm_variant *var, spmm_args<T> a,
    const int32_t *plan, cudaStream_t stream)
{
    constexpr int V = spmm_svec<T>::V ;
    const int C = spmm_col_lanes (a.n, V, 32) ;
    // (the caller runs nnz_kK otherwise)
    // (positions, rows and offsets in 32 bits, with room for a slot and a
    // group past the last one)
    if (C < 4 || a.X == NULL || a.n > INT32_MAX / 4 || a.nnz > INT32_MAX - 256
        || a.m > INT32_MAX - 64 || a.k * (a.n / V) > (int64_t) UINT32_MAX
        || (a.n + V * C - 1) / (V * C) > 65535)
        return GG_ERR_UNSUPPORTED ;
    a.K = var->param ;               // (C: the kernel's template parameter)
    const int64_t units = (a.nnz + SPMM_SLOT_UNIT - 1) / SPMM_SLOT_UNIT ;
    const int64_t nslots = (a.nnz + a.K - 1) / a.K ;
    const int32_t *slot = (plan != NULL) ? plan + spmm_slot_plan_offset (a.nnz) : NULL ;
    void *ws = NULL ;
    if (slot == NULL)
    {
        // no plan kept: made here, in the kernels' scratch
        const int src = gg_kernel_scratch (&ws, (size_t) units * 2 * sizeof (int32_t), stream) ;
        if (src != GG_OK) return src ;
        spmm_slot_plan_kernel <<<(unsigned) ((a.m + 255) / 256), 256, 0, stream>>> (a.p, a.m, (int32_t *) ws) ;
        slot = (const int32_t *) ws ;
    }
    // (no row longer than a slot: none is cut; a max_row of 0 where S has
    // entries cannot be true and is taken as not known)
    if (nslots > 1 && !(a.max_row >= 1 && a.max_row <= a.K))
    {
        const int GI = spmm_init_lanes (a.n) ;
        const int64_t threads = (nslots - 1) * GI ;
        spmm_slot_init_kernel<T> <<<(unsigned) ((threads + 255) / 256), 256, 0, stream>>> (a, slot, nslots - 1, GI) ;
    }
    const int64_t threads = nslots * C ;
    const dim3 blocks ((unsigned) ((threads + 255) / 256), (unsigned) ((a.n + V * C - 1) / (V * C))) ;
    switch (C)
    {
        case 4:  spmm_slot_kernel<T, 4>  <<<blocks, 256, 0, stream>>> (a, slot) ; break ;
        case 8:  spmm_slot_kernel<T, 8>  <<<blocks, 256, 0, stream>>> (a, slot) ; break ;
        case 16: spmm_slot_kernel<T, 16> <<<blocks, 256, 0, stream>>> (a, slot) ; break ;
        default: spmm_slot_kernel<T, 32> <<<blocks, 256, 0, stream>>> (a, slot) ; break ;
    }
    int rc = gg_launch_status () ;
    if (ws != NULL) cudaFreeAsync (ws, stream) ;
    return rc ;
}
template int spmm_launch_slot<float> (const spmm_variant *, spmm_args<float>,
    const int32_t *, cudaStream_t) ;
template int spmm_launch_slot<double> (const spmm_variant *, spmm_args<double>,
    const int32_t *, cudaStream_t) ;

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

template <typename T, int VEC, int OP>
int spmm_launch_vec (const spmm_variant *var, spmm_args<T> a,
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
            const int GI = spmm_init_lanes (a.n) ;
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

// the dispatch's variants, VEC = 4, 2, 1 for each (type, OP)
#define SPMM_INST_VEC(T, OP)                                                \
    template int spmm_launch_vec<T, 1, OP> (const spmm_variant *,          \
        spmm_args<T>, cudaStream_t) ;                                       \
    template int spmm_launch_vec<T, 2, OP> (const spmm_variant *,          \
        spmm_args<T>, cudaStream_t) ;                                       \
    template int spmm_launch_vec<T, 4, OP> (const spmm_variant *,          \
        spmm_args<T>, cudaStream_t) ;
SPMM_TYPE_OPS (SPMM_INST_VEC)
