//------------------------------------------------------------------------------
// kernels/spmv_band/spmv_band.cu: SpMV with x served from shared memory, band by band
//------------------------------------------------------------------------------

// Why: on a power-law matrix (R-MAT 2^22, 65M entries) every CSR SpMV kernel
// is bound by the L2's request rate, not by DRAM: each entry gathers one
// 4-byte x value, one L2 request, and at ~160 G requests/s that caps SpMV near
// 34 % of the copy bandwidth (bench/NOTES.md, session 3).  The hot/cold form
// (spmm.cu) staged the ~50K columns with the most entries in shared memory
// (59 % of the gathers); this form goes on with the next ones.
//
// The form ("band form", made once per matrix): the columns are ranked by
// their number of entries; band b (b < nb) is the columns of rank
// [b W, (b+1) W), W = what one block's shared memory holds of x next to the
// warps' partial sums (49,664 FP32 values on an H200), and the columns after
// the last band are "cold".  Each band is its own compact CSR: the rows
// holding entries of the band (rows []), a bit per entry that starts a row,
// the row holding each chunk's first entry (plan []), a column slot in 16
// bits (the column's rank less b W) and the value; the cold part keeps
// 32-bit column indices.  Every array is padded to whole chunks of 256
// entries (the padding is a dummy row of its own).  Bands are kept, in rank
// order, while their columns hold at least one entry each on average, at
// most 30 (bench/NOTES.md: fewer bands, 6 or 3 entries a column, measured
// slower on R-MAT 2^20 and 2^22).  4-byte values only.
//
// The product (gg_cuda_spmv_band): one kernel fills y with the monoid's
// identity and gathers x at the band columns in rank order (xb); then one
// block of 1024 threads per SM (band_kernel): the bands' chunks, weighted by
// an estimate of their cost, are cut into one slice per block, so a block
// stages only the one to three bands its slice touches; then the cold
// chunks, x read from global memory, taken one at a time from a counter (a
// block whose slice went faster takes more).  A warp's chunk: each lane
// loads its 8 consecutive entries (one 16-byte load of slots, 32 bytes of
// FP32 values) a chunk ahead, finds their rows from the start bits (the
// chunk's first row plus the starts up to it: a warp scan), reduces by row,
// completes the rows cut between lanes with a segmented warp scan, puts each
// row's sum in the warp's shared memory, and adds them into y with one monoid
// atomic per row (a row is in several bands and several chunks).  FP sums are
// reordered, not lowered in precision; y starts from gg_identity (FP PLUS
// from -0, which keeps a sum of -0 values -0; FP MIN / MAX from NaN, which
// keeps a row whose terms are all NaN NaN).  Rows without entries keep it
// (they are not in the result).  The padding entries (value 0, slot or
// column 0) form a dummy row whose sum is never added, so 0 * x (col 0) is
// never combined into a real row even when x (col 0) is infinite.
//
// Bytes per entry: 2 + 4 (FP32) in a band against 8 in CSR, plus 4 per
// (row, band) pair; x leaves the L2 once per band per block that stages it.

#include <cstring>
#include <cub/cub.cuh>
#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

#define BAND_MAX      GG_SPMV_BAND_MAX   // bands (the cold part is band nb <= 30)
#define BAND_KEYBITS  5         // band number bits in the sort key
#define BAND_ITEMS    8         // entries per lane
#define BAND_CH       (32 * BAND_ITEMS)
#define BAND_WARPS    32        // one block of 1024 threads per SM
#define BAND_MIN_DEG  1         // a band is kept while its columns hold at
                                // least this many entries each on average
#define BAND_WORK_BASE 64

struct gg_spmv_band_form
{
    int64_t m, k, nnz ;
    int ts ;                    // value bytes of the form's W
    int nb ;                    // bands in shared memory
    int64_t W ;                 // slots per band
    bool vals ;                 // values kept
    void *mem ;                 // the one device allocation
    size_t bytes ;
    int32_t *order ;            // nb * W: the column of each rank
    int64_t E [BAND_MAX + 1], R [BAND_MAX + 1], nch [BAND_MAX + 1] ;
    int32_t *rows [BAND_MAX + 1], *plan [BAND_MAX + 1] ;
    uint32_t *flags [BAND_MAX + 1] ;
    void *ci [BAND_MAX + 1] ;   // uint16 slots (bands), int32 columns (cold)
    void *sx [BAND_MAX + 1] ;   // values or NULL
} ;

// one band as the kernel sees it
struct band_part
{
    const int32_t *rows, *plan ;
    const uint32_t *flags ;
    const void *ci ;
    const void *sx ;
    int64_t E, nch, R ;
    int64_t wt ;            // work units per chunk (band_kernel's slices)
} ;

struct band_parts
{
    band_part b [BAND_MAX + 1] ;
} ;

// The kernels' view of f's parts (bands, then the cold part)
static void band_parts_of (const gg_spmv_band_form *f, band_parts *parts)
{
    memset (parts, 0, sizeof (*parts)) ;
    for (int b = 0 ; b <= f->nb ; b++)
    {
        band_part &bp = parts->b [b] ;
        bp.rows = f->rows [b] ; bp.flags = f->flags [b] ; bp.plan = f->plan [b] ;
        bp.ci = f->ci [b] ; bp.sx = f->sx [b] ;
        bp.E = f->E [b] ; bp.nch = f->nch [b] ; bp.R = f->R [b] ;
        // a chunk's cost for band_kernel's slices: a base plus its part's
        // mean rows per chunk (one atomic each)
        bp.wt = BAND_WORK_BASE + ((bp.nch > 0) ? (bp.R + bp.nch - 1) / bp.nch : 0) ;
    }
}

static size_t band_round (size_t b) { return (b + 255) & ~(size_t) 255 ; }

// W for values of ts bytes: the opt-in shared memory of one block less the
// warps' partial sums (BAND_WARPS * BAND_CH values) and 1 KB of slack, at
// most 65,536 (16-bit slots), a multiple of 16 values
static int64_t band_width (int ts)
{
    if (ts != 4) return 0 ;     // 4-byte values only (see gg_cuda_spmv_band)
    int dev = 0, optin = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess
        || cudaDeviceGetAttribute (&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
    {
        cudaGetLastError () ;
        return 0 ;
    }
    int64_t w = ((int64_t) optin - 1024) / ts - BAND_WARPS * BAND_CH ;
    if (w > 65536) w = 65536 ;
    return (w < 16) ? 0 : (w & ~(int64_t) 15) ;
}

//------------------------------------------------------------------------------
// the product
//------------------------------------------------------------------------------

// Y [r] = the kernels' start value (gg_identity: -0 for FP PLUS, NaN for FP
// MIN / MAX, neutral for every operand) (r < m); xb [s] = X [order
// [s]] (s < nx); the cold chunks' counter = 0
template <typename T>
__global__ void band_prep_kernel (T *Y, int64_t m, int mon, T *xb,
    const T *X, const int32_t *order, int64_t nx, unsigned long long *ctr)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) *ctr = 0 ;
    const T init = gg_identity<T> (mon) ;      // -0 for FP PLUS, NaN for FP MIN / MAX
    // y 16 bytes a store (Y is 16-byte aligned: a device allocation), the
    // gathers beside them
    constexpr int V = 16 / sizeof (T) ;
    union { T t [V] ; uint4 u ; } iv ;
    #pragma unroll
    for (int v = 0 ; v < V ; v++) iv.t [v] = init ;
    const int64_t m4 = (m + V - 1) / V ;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
         t < m4 || t < nx ; t += stride)
    {
        if (t < m4)
        {
            if ((t + 1) * V <= m) ((uint4 *) Y) [t] = iv.u ;
            else for (int64_t r = t * V ; r < m ; r++) Y [r] = init ;
        }
        if (t < nx) xb [t] = X [order [t]] ;
    }
}

// y (+)= v with the monoid's atomic, out of line for the generic kernels: the
// chunk loop below is unrolled 8 times, and their atomics (a switch with
// compare-and-swap loops) inlined at every step took nvcc over 10 minutes
template <typename T>
__device__ __noinline__ void band_add (int mon, T *y, T v)
{
    gg_atomic (mon, y, v) ;
}

// What a lane reads of chunk c of a part before working on it: issued a
// chunk ahead (band_kernel), so that these loads are in flight while the
// warp works on the chunk before.  ci: the lane's 8 slots (4 words of two)
// or columns (COLD); sv: its 8 values (smode GG_S_ARRAY).
template <typename T, bool COLD>
struct band_in
{
    int row_lo ;            // the row holding the chunk's first entry
    uint32_t my ;           // which of the lane's entries start a row
    int32_t yrow ;          // y's index of row row_lo + lane
    uint32_t ci [COLD ? BAND_ITEMS : BAND_ITEMS / 2] ;
    T sv [BAND_ITEMS] ;
} ;

template <typename T, bool COLD>
__device__ __forceinline__ void band_load (const band_part &bp, int c,
    int smode, band_in<T, COLD> &in)
{
    const int lane = threadIdx.x & 31 ;
    const int q0 = c * BAND_CH + lane * BAND_ITEMS ;
    in.row_lo = bp.plan [c] ;
    // the chunk's first entry is in row_lo whether it starts it or not
    in.my = ((const uint8_t *) bp.flags) [c * (BAND_CH / 8) + lane] ;
    if (lane == 0) in.my &= ~1u ;
    in.yrow = (in.row_lo + lane < bp.R) ? bp.rows [in.row_lo + lane] : 0 ;
    if constexpr (COLD) gg_load_vec<uint32_t, BAND_ITEMS, true> (in.ci, ((const uint32_t *) bp.ci) + q0) ;
    else gg_load_vec<uint32_t, BAND_ITEMS / 2, true> (in.ci, ((const uint32_t *) bp.ci) + q0 / 2) ;
    if (smode == GG_S_ARRAY) gg_load_vec<T, BAND_ITEMS, true> (in.sv, ((const T *) bp.sx) + q0) ;
}

// A chunk of a part, its loads in `in` (the arrays are padded to whole
// chunks; the padding entries, slot or column 0 and value 0, form a dummy
// row R after the last row, whose sum is not added): COLD = false, slots into xs (shared
// memory); COLD = true, 32-bit columns into X.  part: the warp's BAND_CH
// values of shared memory, one per row of the chunk (a chunk has at most
// one row per entry): each row's sum over the chunk is put there by the one
// lane that ends it, then the warp adds them into y, 32 rows a step (y's
// indices of the first 32 loaded ahead, one monoid atomic per row).
template <typename T, int OP, bool COLD>
__device__ __forceinline__ void band_chunk (const band_part &bp,
    const band_in<T, COLD> &in, int smode, const T *s0, const T *X,
    const T *xs, T *Y, int mon_rt, int mul_rt, T *part)
{
    const int lane = threadIdx.x & 31 ;
    const int mon = gg_op_mon<OP> (mon_rt), mul = gg_op_mul<OP> (mul_rt) ;
    const T id = gg_identity<T> (mon) ;
    const int row_lo = in.row_lo ;
    const uint32_t my = in.my ;

    T sv [BAND_ITEMS] ;
    if (smode == GG_S_ARRAY)
    {
        #pragma unroll
        for (int u = 0 ; u < BAND_ITEMS ; u++) sv [u] = in.sv [u] ;
    }
    else
    {
        const T s = (smode == GG_S_ISO) ? s0 [0] : T (0) ;
        #pragma unroll
        for (int u = 0 ; u < BAND_ITEMS ; u++) sv [u] = s ;
    }
    T xv [BAND_ITEMS] ;
    #pragma unroll
    for (int u = 0 ; u < BAND_ITEMS ; u++)
    {
        uint32_t col ;
        if constexpr (COLD) col = in.ci [u] ;
        else col = (in.ci [u / 2] >> (16 * (u & 1))) & 0xffffu ;
        xv [u] = COLD ? __ldg (X + col) : xs [col] ;
    }

    // the rows started before this lane: a warp scan of the start counts
    int before = __popc (my) ;
    #pragma unroll
    for (int off = 1 ; off < 32 ; off *= 2)
    {
        const int o = __shfl_up_sync (0xffffffffu, before, off) ;
        if (lane >= off) before += o ;
    }
    const int nrows = __shfl_sync (0xffffffffu, before, 31) + 1 ;   // rows in the chunk
    before -= __popc (my) ;

    // reduce this lane's entries by row; rows closed inside it are added
    int r = row_lo + before + (int) (my & 1u) ;
    const int first = r ;
    T acc = id, head = id ;
    bool head_closed = false ;
    #pragma unroll
    for (int u = 0 ; u < BAND_ITEMS ; u++)
    {
        if (u > 0 && ((my >> u) & 1u))
        {
            if (!head_closed) { head = acc ; head_closed = true ; }
            else part [r - row_lo] = acc ;
            acc = id ;
            r++ ;
        }
        acc = gg_monoid (mon, acc, gg_multiply (mul, sv [u], xv [u])) ;
    }
    const int last = r ;

    // complete the rows cut between lanes (runs of one key are contiguous)
    int key = last ;
    T val = acc ;
    #pragma unroll
    for (int off = 1 ; off < 32 ; off *= 2)
    {
        const int ok = __shfl_up_sync (0xffffffffu, key, off) ;
        const T ov = gg_shfl_up (val, off) ;
        if (lane >= off && ok == key) val = gg_monoid (mon, ov, val) ;
    }
    int pk = __shfl_up_sync (0xffffffffu, key, 1) ;
    const T pv = gg_shfl_up (val, 1) ;
    int next = __shfl_down_sync (0xffffffffu, first, 1) ;
    if (lane == 31) next = -1 ;     // the chunk's last lane writes
    if (lane == 0) pk = -1 ;
    if (head_closed)
    {
        // the first row ends inside this lane; the lanes before hold the rest
        part [first - row_lo] = (pk == first) ? gg_monoid (mon, pv, head) : head ;
        if (next != last) part [last - row_lo] = acc ;
    }
    else if (next != last)
    {
        part [last - row_lo] = val ;
    }
    __syncwarp () ;
    // the rows' sums into y (the last chunk's dummy row, which holds its
    // padding, is row R: not added)
    const int nreal = (bp.R - row_lo < nrows) ? (int) (bp.R - row_lo) : nrows ;
    if (lane < nreal) gg_atomic (mon, Y + in.yrow, part [lane]) ;
    for (int t = lane + 32 ; t < nreal ; t += 32)
    {
        if (OP == GG_OP_GENERIC) band_add (mon, Y + bp.rows [row_lo + t], part [t]) ;
        else gg_atomic (mon, Y + bp.rows [row_lo + t], part [t]) ;
    }
    __syncwarp () ;         // part is read before the next chunk writes it
}

// 16-byte asynchronous copies of global to shared memory, and the wait for
// this thread's copies to land
__device__ __forceinline__ void band_cp16 (unsigned char *dst, const unsigned char *src)
{
    const unsigned d = (unsigned) __cvta_generic_to_shared (dst) ;
    asm volatile ("cp.async.cg.shared.global [%0], [%1], 16;" :: "r" (d), "l" (src)) ;
}
__device__ __forceinline__ void band_cp_wait (void)
{
    asm volatile ("cp.async.commit_group;\n\tcp.async.wait_group 0;" ::: "memory") ;
}

// Chunks w0, w0 + nw, ... (< nch) of a part, each chunk's loads issued while
// the warp works on its previous one
template <typename T, int OP, bool COLD>
__device__ __forceinline__ void band_run (const band_part &bp, int w0,
    int nch, int nw, int smode, const T *s0, const T *X, const T *xs, T *Y,
    int mon, int mul, T *part)
{
    if (w0 >= nch) return ;
    band_in<T, COLD> cur, nxt ;
    band_load<T, COLD> (bp, w0, smode, cur) ;
    for (int c = w0 ; c < nch ; c += nw)
    {
        if (c + nw < nch) band_load<T, COLD> (bp, c + nw, smode, nxt) ;
        band_chunk<T, OP, COLD> (bp, cur, smode, s0, X, xs, Y, mon, mul, part) ;
        cur = nxt ;
    }
}

// One block per SM.  The bands' chunks, each weighted by its band's cost
// estimate (wt: BAND_WORK_BASE plus the band's mean rows per chunk), form
// one sequence of work; block i takes the i-th of gridDim.x equal slices of
// it, so it stages only the one to three bands its slice touches (each
// stage: the whole block's asynchronous copies, then a barrier), and works
// through each with all its warps (chunk c to warp c mod 32).  Then the
// cold chunks (x gathered from global memory), which the grid's warps take
// one at a time from a counter: a block whose slice went faster takes more
// of them, which evens out part of what the estimate missed.  Measured and
// dropped (bench/NOTES.md): every block staging every band, chunks round
// robin over the grid (50 % of copy on R-MAT 2^22: each stage reads the
// band's x from L2 on all SMs at once, ~3 us a band); the cold chunks in
// the slices too (far worse: their cost is hard to estimate); the bands'
// work in 4 pieces per block taken from a counter (the SMs busier, but
// each block stages more bands: slower on every R-MAT).
template <typename T, int OP>
__global__ void __launch_bounds__ (32 * BAND_WARPS, 1)
band_kernel (const band_parts parts, int nb, int64_t W, const T *xb,
    const T *X, T *Y, int smode, const T *s0, int mon, int mul,
    unsigned long long *ctr)
{
    extern __shared__ __align__ (16) unsigned char band_smem [] ;
    const int wid = threadIdx.x >> 5, lane = threadIdx.x & 31 ;
    const T *xs = (const T *) band_smem ;
    // the warps' partial sums after the stage (W * sizeof (T) bytes)
    T *part = ((T *) (band_smem + W * (int64_t) sizeof (T))) + wid * BAND_CH ;
    const int64_t wbytes = W * (int64_t) sizeof (T) ;
    int64_t total = 0 ;
    for (int b = 0 ; b < nb ; b++) total += parts.b [b].nch * parts.b [b].wt ;
    const int64_t u0 = total * blockIdx.x / gridDim.x ;
    const int64_t u1 = total * (blockIdx.x + 1) / gridDim.x ;
    int64_t base = 0 ;
    for (int b = 0 ; b < nb && base < u1 ; b++)
    {
        const band_part &bp = parts.b [b] ;
        const int64_t wt = bp.wt ;
        const int64_t lo = (u0 > base) ? u0 - base : 0, hi = u1 - base ;
        base += bp.nch * wt ;
        // this block's chunks of the band: those whose first unit is in [u0, u1)
        const int c0 = (int) ((lo + wt - 1) / wt) ;
        const int c1 = (int) (((hi + wt - 1) / wt < bp.nch) ? (hi + wt - 1) / wt : bp.nch) ;
        if (c0 >= c1) continue ;
        // x at the band's W columns (W * sizeof (T) is a multiple of 16)
        const unsigned char *src = (const unsigned char *) (xb + (int64_t) b * W) ;
        for (int64_t q = threadIdx.x * 16 ; q < wbytes ; q += (int64_t) blockDim.x * 16)
            band_cp16 (band_smem + q, src + q) ;
        band_cp_wait () ;
        __syncthreads () ;
        band_run<T, OP, false> (bp, c0 + wid, c1, BAND_WARPS, smode, s0, X, xs, Y, mon, mul, part) ;
        __syncthreads () ;      // before the next band overwrites the stage
    }
    // the cold chunks, one at a time from the counter (the next one taken
    // and loaded while the warp works on the one before)
    const band_part &cp = parts.b [nb] ;
    const int nch = (int) cp.nch ;
    int c = 0 ;
    if (lane == 0) c = (int) atomicAdd (ctr, 1ull) ;
    c = __shfl_sync (0xffffffffu, c, 0) ;
    if (c >= nch) return ;
    band_in<T, true> cur, nxt ;
    band_load<T, true> (cp, c, smode, cur) ;
    while (c < nch)
    {
        int cn = 0 ;
        if (lane == 0) cn = (int) atomicAdd (ctr, 1ull) ;
        cn = __shfl_sync (0xffffffffu, cn, 0) ;
        if (cn < nch) band_load<T, true> (cp, cn, smode, nxt) ;
        band_chunk<T, OP, true> (cp, cur, smode, s0, X, xs, Y, mon, mul, part) ;
        cur = nxt ;
        c = cn ;
    }
}

template <typename T, int OP>
static int band_launch (const gg_spmv_band_form *f, const gg_canon *cs,
    const T *x, bool iso, const T *X, T *Y, cudaStream_t stream)
{
    const int smode = gg_mul_reads_s (cs->mul) ? (iso ? GG_S_ISO : GG_S_ARRAY) : GG_S_NONE ;
    if (smode == GG_S_ARRAY && !f->vals) return GG_ERR_UNSUPPORTED ;
    const size_t dyn = (size_t) (f->W + BAND_WARPS * BAND_CH) * sizeof (T) ;
    static bool set [64] ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 64) return GG_ERR_DEVICE ;
    if (!set [dev])
    {
        // the widest form's stage (narrower ones, tests, fit in it)
        if (cudaFuncSetAttribute (band_kernel<T, OP>,
            cudaFuncAttributeMaxDynamicSharedMemorySize,
            (int) ((band_width ((int) sizeof (T)) + BAND_WARPS * BAND_CH) * (int64_t) sizeof (T))) != cudaSuccess)
        {
            cudaGetLastError () ;
            return GG_ERR_DEVICE ;
        }
        set [dev] = true ;
    }
    band_parts parts ;
    band_parts_of (f, &parts) ;
    // xb: x at the bands' columns, contiguous, then the cold chunks' counter
    // (scratch)
    const int64_t nx = (int64_t) f->nb * f->W ;
    void *xb = NULL ;
    cudaMemPool_t pool = gg_kernel_pool () ;
    if (pool == NULL) return GG_ERR_DEVICE ;
    const size_t xbytes = ((size_t) nx * sizeof (T) + 15) & ~(size_t) 15 ;
    if (cudaMallocFromPoolAsync (&xb, xbytes + sizeof (unsigned long long), pool, stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVMEM ;
    }
    unsigned long long *ctr = (unsigned long long *) ((char *) xb + xbytes) ;
    const int sms = gg_device_sms () ;
    const int64_t m4 = (f->m + 16 / (int64_t) sizeof (T) - 1) / (16 / (int64_t) sizeof (T)) ;
    const int64_t most = (m4 > nx) ? m4 : nx ;
    const unsigned pblocks = (unsigned) ((most + 255) / 256 < (int64_t) sms * 16
        ? (most + 255) / 256 : (int64_t) sms * 16) ;
    band_prep_kernel<T> <<<pblocks > 0 ? pblocks : 1, 256, 0, stream>>>
        (Y, f->m, cs->mon, (T *) xb, X, f->order, nx, ctr) ;
    int64_t all_ch = 0 ;
    for (int b = 0 ; b <= f->nb ; b++) all_ch += f->nch [b] ;
    const int64_t want = (all_ch + BAND_WARPS - 1) / BAND_WARPS ;
    const unsigned blocks = (unsigned) ((sms > 0 && sms < want) ? sms : (want > 0 ? want : 1)) ;
    band_kernel<T, OP> <<<blocks, 32 * BAND_WARPS, dyn, stream>>>
        (parts, f->nb, f->W, (const T *) xb, X, Y, smode, x, cs->mon, cs->mul, ctr) ;
    const int rc = gg_launch_status () ;
    cudaFreeAsync (xb, stream) ;
    return rc ;
}

struct band_dispatch
{
    template <typename T>
    static int run (const gg_spmv_band_form *f, const gg_canon *cs,
        const void *x, bool iso, const void *X, void *Y, cudaStream_t stream)
    {
        if ((int) sizeof (T) != f->ts) return GG_ERR_UNSUPPORTED ;
        const T *xx = (const T *) x ;
        const int op = gg_pick_op<T> (cs->mon, cs->mul, cs->plus_times) ;
        if constexpr (std::is_same<T, float>::value)
        {
            switch (op)
            {
                case GG_OP_PLUS_TIMES: return band_launch<T, GG_OP_PLUS_TIMES> (f, cs, xx, iso, (const T *) X, (T *) Y, stream) ;
                case GG_OP_MIN:        return band_launch<T, GG_OP_MIN> (f, cs, xx, iso, (const T *) X, (T *) Y, stream) ;
                case GG_OP_MAX:        return band_launch<T, GG_OP_MAX> (f, cs, xx, iso, (const T *) X, (T *) Y, stream) ;
                default: break ;
            }
        }
        return band_launch<T, GG_OP_GENERIC> (f, cs, xx, iso, (const T *) X, (T *) Y, stream) ;
    }
} ;

extern "C" int gg_cuda_spmv_band (const gg_semiring *sr,
    const gg_spmv_band_form *f, const void *x, bool iso, const void *X,
    void *Y, cudaStream_t stream)
{
    gg_canon cs ;
    if (f == NULL || !gg_canon_semiring (sr, &cs)) return GG_ERR_UNSUPPORTED ;
    // the form serves the x gathers: a multiply that ignores x has none
    if (!gg_mul_reads_x (cs.mul) || X == NULL) return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_s (cs.mul) && x == NULL) return GG_ERR_UNSUPPORTED ;
    if ((int) gg_type_size (sr->type) != f->ts) return GG_ERR_UNSUPPORTED ;
    if (f->m == 0 || f->nnz == 0) return GG_OK ;
    // 4-byte types only: the kernel is instantiated for them alone (8-byte
    // values halve the band width and spill registers; FP64 SpMV stays with
    // the other kernels, as for the hot/cold form)
    switch (sr->type)
    {
        case GG_INT32:  return band_dispatch::run<int32_t>  (f, &cs, x, iso, X, Y, stream) ;
        case GG_UINT32: return band_dispatch::run<uint32_t> (f, &cs, x, iso, X, Y, stream) ;
        case GG_FP32:   return band_dispatch::run<float>    (f, &cs, x, iso, X, Y, stream) ;
        default:        return GG_ERR_UNSUPPORTED ;
    }
}

//------------------------------------------------------------------------------
// the form
//------------------------------------------------------------------------------

__global__ void band_degree_kernel (const int32_t *ci, int64_t nnz, uint32_t *deg)
{
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < nnz ;
         e += (int64_t) gridDim.x * blockDim.x) atomicAdd (deg + ci [e], 1u) ;
}

__global__ void band_iota_kernel (int32_t *a, int64_t n)
{
    for (int64_t t = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; t < n ;
         t += (int64_t) gridDim.x * blockDim.x) a [t] = (int32_t) t ;
}

// bsum [b] = the entries of the columns of rank [b W, (b+1) W), b < nbc
__global__ void band_sum_kernel (const uint32_t *dsorted, int64_t k, int64_t W,
    int nbc, unsigned long long *bsum)
{
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
         r < k && r < (int64_t) nbc * W ; r += (int64_t) gridDim.x * blockDim.x)
        if (dsorted [r] > 0) atomicAdd (bsum + r / W, (unsigned long long) dsorted [r]) ;
}

// rank [col] for the columns of the bands (rank != NULL); order [r] = the
// column of rank r, 0 past k: slots no entry names (order != NULL)
__global__ void band_rank_kernel (const int32_t *csorted, int64_t k, int64_t nx,
    int32_t *rank, int32_t *order)
{
    for (int64_t r = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; r < nx ;
         r += (int64_t) gridDim.x * blockDim.x)
    {
        const int32_t c = (r < k) ? csorted [r] : 0 ;
        if (rank != NULL && r < k) rank [c] = (int32_t) r ;
        if (order != NULL) order [r] = c ;
    }
}

// key [e] = band (e's column) << rb | row (e): a warp per row
__global__ void band_key_kernel (const int32_t *p, const int32_t *ci, int64_t m,
    const int32_t *rank, int64_t W, int nb, int rb, uint32_t *key)
{
    const int lane = threadIdx.x & 31 ;
    for (int64_t r = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ; r < m ;
         r += (int64_t) gridDim.x * blockDim.x / 32)
    {
        for (int64_t e = p [r] + lane ; e < p [r+1] ; e += 32)
        {
            const int32_t rk = rank [ci [e]] ;
            const uint32_t b = (rk >= 0) ? (uint32_t) (rk / W) : (uint32_t) nb ;
            key [e] = (b << rb) | (uint32_t) r ;
        }
    }
}

// the first run of each band (rstart [b], b <= nb; bands without runs keep
// the value set before)
__global__ void band_bounds_kernel (const uint32_t *ukey, int64_t nruns, int rb,
    int64_t *rstart)
{
    for (int64_t j = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; j < nruns ;
         j += (int64_t) gridDim.x * blockDim.x)
    {
        const uint32_t b = ukey [j] >> rb ;
        if (j == 0 || (ukey [j-1] >> rb) != b) rstart [b] = j ;
    }
}

// per run j (one (band, row)): the row, its start bit and the plan of its
// band (and the padding's dummy row start after the band's last run)
__global__ void band_rows_kernel (const uint32_t *ukey, const int32_t *cnt,
    const int32_t *eoff, int64_t nruns, int rb, band_parts parts,
    const int64_t *rstart_d, const int64_t *estart_d)
{
    for (int64_t j = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; j < nruns ;
         j += (int64_t) gridDim.x * blockDim.x)
    {
        const int b = (int) (ukey [j] >> rb) ;
        const band_part &bp = parts.b [b] ;
        const int64_t jl = j - rstart_d [b] ;
        const int64_t lo = eoff [j] - estart_d [b], hi = lo + cnt [j] ;
        ((int32_t *) bp.rows) [jl] = (int32_t) (ukey [j] & ((1u << rb) - 1u)) ;
        atomicOr ((uint32_t *) bp.flags + (lo >> 5), 1u << (lo & 31)) ;
        int32_t *plan = (int32_t *) bp.plan ;
        for (int64_t u = (lo + BAND_CH - 1) / BAND_CH ; u * BAND_CH < hi ; u++)
            plan [u] = (int32_t) jl ;
        if (hi == bp.E)
        {
            plan [bp.nch] = (int32_t) jl ;
            // the padding after the last entry: a dummy row of its own
            if (hi < bp.nch * BAND_CH) atomicOr ((uint32_t *) bp.flags + (hi >> 5), 1u << (hi & 31)) ;
        }
    }
}

// the entries, in (band, row, column) order: slot or column, and value
__global__ void band_fill_kernel (const uint32_t *skey, const int32_t *sidx,
    int64_t nnz, int rb, int nb, int64_t W, const int32_t *ci,
    const unsigned char *x, int ts, const int32_t *rank, band_parts parts,
    const int64_t *estart_d)
{
    for (int64_t s = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; s < nnz ;
         s += (int64_t) gridDim.x * blockDim.x)
    {
        const int b = (int) (skey [s] >> rb) ;
        const band_part &bp = parts.b [b] ;
        const int64_t l = s - estart_d [b] ;
        const int32_t e = sidx [s], c = ci [e] ;
        if (b < nb) ((uint16_t *) bp.ci) [l] = (uint16_t) (rank [c] - (int64_t) b * W) ;
        else ((int32_t *) bp.ci) [l] = c ;
        if (x != NULL)
        {
            unsigned char *d = ((unsigned char *) bp.sx) + l * ts ;
            const unsigned char *q = x + (int64_t) e * ts ;
            for (int t = 0 ; t < ts ; t++) d [t] = q [t] ;
        }
    }
}

#define BAND_TRY(call) do { if ((call) != cudaSuccess) { cudaGetLastError () ; \
    rc = GG_ERR_DEVICE ; goto done ; } } while (0)
#define BAND_ALLOC(ptr, bytes) do { if (cudaMallocAsync ((void **) &(ptr), \
    band_round (bytes), stream) != cudaSuccess) { cudaGetLastError () ; \
    rc = GG_ERR_DEVMEM ; goto done ; } } while (0)
// A CUB device call: its scratch size, the scratch (cub_tmp: made at the
// first call, grown when a call asks for more than its need bytes), then the
// call
#define BAND_CUB(fn, ...) do { size_t cub_bytes = 0 ; \
    BAND_TRY (fn (NULL, cub_bytes, __VA_ARGS__)) ; \
    if (cub_tmp == NULL || cub_bytes > need) { if (cub_tmp != NULL) cudaFreeAsync (cub_tmp, stream) ; \
        cub_tmp = NULL ; need = cub_bytes ; BAND_ALLOC (cub_tmp, need) ; } \
    BAND_TRY (fn (cub_tmp, cub_bytes, __VA_ARGS__)) ; } while (0)

extern "C" size_t gg_cuda_spmv_band_width (int type_size)
{
    return (size_t) band_width (type_size) ;
}

extern "C" int gg_cuda_spmv_band_build (int64_t m, int64_t k, int64_t nnz,
    const int32_t *p, const int32_t *i, const void *x, int type_size,
    int64_t width, int64_t min_nnz, gg_spmv_band_form **form,
    cudaStream_t stream)
{
    if (form == NULL) return GG_ERR_UNSUPPORTED ;
    *form = NULL ;
    int64_t W = band_width (type_size) ;
    if (width > 0 && width < W) W = (width < 16) ? 16 : (width & ~(int64_t) 15) ;
    if (W == 0 || m <= 0 || k <= 0 || nnz <= 0 || m > ((int64_t) 1 << (32 - BAND_KEYBITS))
        || k > INT32_MAX || nnz > INT32_MAX - BAND_CH) return GG_ERR_UNSUPPORTED ;
    int rc = GG_OK ;
    int rb = 1 ;
    while (((int64_t) 1 << rb) < m) rb++ ;
    const int nbc = (int) (((k + W - 1) / W < BAND_MAX) ? (k + W - 1) / W : BAND_MAX) ;
    const int sms = gg_device_sms () > 0 ? gg_device_sms () : 132 ;
    const unsigned grid = (unsigned) sms * 8 ;
    uint32_t *deg = NULL, *dsorted = NULL, *key = NULL, *skey = NULL, *ukey = NULL ;
    int32_t *cols = NULL, *csorted = NULL, *rank = NULL, *idx = NULL, *sidx = NULL,
        *cnt = NULL, *eoff = NULL ;
    unsigned long long *bsum = NULL ;
    int64_t *bounds = NULL, *nruns_d = NULL ;
    void *cub_tmp = NULL ;
    size_t need = 0 ;
    unsigned long long hsum [BAND_MAX] ;
    int64_t nruns = 0, rstart [BAND_MAX + 2], estart [BAND_MAX + 2] ;
    gg_spmv_band_form *f = NULL ;
    int nb = 0 ;
    int64_t thr ;
    band_parts parts ;

    // the columns by descending number of entries, and the entries per band
    BAND_ALLOC (deg, (size_t) k * 4) ;
    BAND_ALLOC (dsorted, (size_t) k * 4) ;
    BAND_ALLOC (cols, (size_t) k * 4) ;
    BAND_ALLOC (csorted, (size_t) k * 4) ;
    BAND_ALLOC (bsum, BAND_MAX * sizeof (unsigned long long)) ;
    BAND_TRY (cudaMemsetAsync (deg, 0, (size_t) k * 4, stream)) ;
    BAND_TRY (cudaMemsetAsync (bsum, 0, BAND_MAX * sizeof (unsigned long long), stream)) ;
    band_degree_kernel <<<grid, 256, 0, stream>>> (i, nnz, deg) ;
    band_iota_kernel <<<grid, 256, 0, stream>>> (cols, k) ;
    BAND_CUB (cub::DeviceRadixSort::SortPairsDescending, deg, dsorted, cols, csorted,
        (int) k, 0, 32, stream) ;
    band_sum_kernel <<<grid, 256, 0, stream>>> (dsorted, k, W, nbc, bsum) ;
    BAND_TRY (cudaMemcpyAsync (hsum, bsum, nbc * sizeof (unsigned long long),
        cudaMemcpyDeviceToHost, stream)) ;
    BAND_TRY (cudaStreamSynchronize (stream)) ;
    thr = (min_nnz >= 0) ? min_nnz : BAND_MIN_DEG * W ;
    if (thr < 1) thr = 1 ;
    while (nb < nbc && (int64_t) hsum [nb] >= thr) nb++ ;
    if (nb == 0) goto done ;        // nothing worth staging: no form

    f = (gg_spmv_band_form *) calloc (1, sizeof (gg_spmv_band_form)) ;
    if (f == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
    f->m = m ; f->k = k ; f->nnz = nnz ; f->ts = type_size ; f->nb = nb ;
    f->W = W ; f->vals = (x != NULL) ;
    estart [0] = 0 ;
    for (int b = 0 ; b < nb ; b++)
    {
        f->E [b] = (int64_t) hsum [b] ;
        estart [b+1] = estart [b] + f->E [b] ;
    }
    f->E [nb] = nnz - estart [nb] ;

    // the entries sorted by (band, row), stable: columns stay in order
    BAND_ALLOC (rank, (size_t) k * 4) ;
    BAND_ALLOC (key, (size_t) nnz * 4) ;
    BAND_ALLOC (skey, (size_t) nnz * 4) ;
    BAND_ALLOC (idx, (size_t) nnz * 4) ;
    BAND_ALLOC (sidx, (size_t) nnz * 4) ;
    BAND_TRY (cudaMemsetAsync (rank, 0xff, (size_t) k * 4, stream)) ;
    band_iota_kernel <<<grid, 256, 0, stream>>> (idx, nnz) ;
    // rank now; order is written into the form once it exists
    band_rank_kernel <<<grid, 256, 0, stream>>> (csorted, k, (int64_t) nb * W, rank, NULL) ;
    band_key_kernel <<<grid, 256, 0, stream>>> (p, i, m, rank, W, nb, rb, key) ;
    BAND_CUB (cub::DeviceRadixSort::SortPairs, key, skey, idx, sidx, (int) nnz, 0,
        rb + BAND_KEYBITS, stream) ;

    // runs of one (band, row): rows and their entry counts (key and idx are
    // free now: they hold the runs)
    ukey = key ; cnt = idx ;
    BAND_ALLOC (eoff, (size_t) nnz * 4) ;
    BAND_ALLOC (nruns_d, sizeof (int64_t)) ;
    BAND_ALLOC (bounds, (size_t) (2 * (BAND_MAX + 2)) * sizeof (int64_t)) ;
    BAND_CUB (cub::DeviceRunLengthEncode::Encode, skey, ukey, cnt, nruns_d, (int) nnz, stream) ;
    BAND_TRY (cudaMemcpyAsync (&nruns, nruns_d, sizeof (int64_t), cudaMemcpyDeviceToHost, stream)) ;
    BAND_TRY (cudaStreamSynchronize (stream)) ;
    BAND_CUB (cub::DeviceScan::ExclusiveSum, cnt, eoff, (int) nruns, stream) ;
    for (int b = 0 ; b <= nb + 1 ; b++) rstart [b] = nruns ;
    BAND_TRY (cudaMemcpyAsync (bounds, rstart, (nb + 2) * sizeof (int64_t), cudaMemcpyHostToDevice, stream)) ;
    band_bounds_kernel <<<grid, 256, 0, stream>>> (ukey, nruns, rb, bounds) ;
    BAND_TRY (cudaMemcpyAsync (rstart, bounds, (nb + 2) * sizeof (int64_t), cudaMemcpyDeviceToHost, stream)) ;
    BAND_TRY (cudaStreamSynchronize (stream)) ;
    // a band without runs (only the cold part can be empty) starts where
    // the next one does
    for (int b = nb ; b >= 0 ; b--) if (rstart [b] > rstart [b+1]) rstart [b] = rstart [b+1] ;

    // the form's one allocation
    {
        size_t off [BAND_MAX + 1][5], total = 0 ;
        const size_t order_bytes = band_round ((size_t) nb * W * 4) ;
        total += order_bytes ;
        for (int b = 0 ; b <= nb ; b++)
        {
            f->R [b] = rstart [b+1] - rstart [b] ;
            f->nch [b] = (f->E [b] + BAND_CH - 1) / BAND_CH ;
            const size_t Ep = (size_t) f->nch [b] * BAND_CH ;
            const size_t sz [5] = { (size_t) f->R [b] * 4, (size_t) f->nch [b] * (BAND_CH / 8),
                (size_t) (f->nch [b] + 1) * 4, Ep * (b < nb ? 2 : 4),
                (x != NULL) ? Ep * (size_t) type_size : 0 } ;
            for (int a = 0 ; a < 5 ; a++) { off [b][a] = total ; total += band_round (sz [a]) ; }
        }
        f->bytes = total ;
        if (cudaMallocAsync (&f->mem, total, stream) != cudaSuccess)
        {
            cudaGetLastError () ;
            f->mem = NULL ;
            rc = GG_ERR_DEVMEM ;
            goto done ;
        }
        BAND_TRY (cudaMemsetAsync (f->mem, 0, total, stream)) ;
        unsigned char *base = (unsigned char *) f->mem ;
        f->order = (int32_t *) base ;
        for (int b = 0 ; b <= nb ; b++)
        {
            f->rows [b] = (int32_t *) (base + off [b][0]) ;
            f->flags [b] = (uint32_t *) (base + off [b][1]) ;
            f->plan [b] = (int32_t *) (base + off [b][2]) ;
            f->ci [b] = base + off [b][3] ;
            f->sx [b] = (x != NULL) ? (void *) (base + off [b][4]) : NULL ;
        }
        band_parts_of (f, &parts) ;
    }
    // order (rank -> column) for the bands' ranks
    band_rank_kernel <<<grid, 256, 0, stream>>> (csorted, k, (int64_t) nb * W, NULL, f->order) ;
    // rstart and estart (parts 0 .. nb + 1) on the device, after each other
    // in bounds
    estart [nb + 1] = nnz ;
    BAND_TRY (cudaMemcpyAsync (bounds, rstart, (nb + 2) * sizeof (int64_t), cudaMemcpyHostToDevice, stream)) ;
    BAND_TRY (cudaMemcpyAsync (bounds + BAND_MAX + 2, estart, (nb + 2) * sizeof (int64_t), cudaMemcpyHostToDevice, stream)) ;
    band_rows_kernel <<<grid, 256, 0, stream>>> (ukey, cnt, eoff, nruns, rb, parts,
        bounds, bounds + BAND_MAX + 2) ;
    band_fill_kernel <<<grid, 256, 0, stream>>> (skey, sidx, nnz, rb, nb, W, i,
        (const unsigned char *) x, type_size, rank, parts, bounds + BAND_MAX + 2) ;
    BAND_TRY (cudaGetLastError ()) ;
    // the host copies above read rstart / estart: wait before they go
    BAND_TRY (cudaStreamSynchronize (stream)) ;

done:
    {
        void *tmp [] = { deg, dsorted, cols, csorted, bsum, rank, key, skey, idx,
            sidx, eoff, nruns_d, bounds, cub_tmp } ;
        for (size_t t = 0 ; t < sizeof (tmp) / sizeof (tmp [0]) ; t++)
            if (tmp [t] != NULL) cudaFreeAsync (tmp [t], stream) ;
    }
    if (rc != GG_OK && f != NULL)
    {
        gg_cuda_spmv_band_free (f, true, stream) ;
        f = NULL ;
    }
    *form = f ;
    return rc ;
}

extern "C" void gg_cuda_spmv_band_free (gg_spmv_band_form *f, bool device,
    cudaStream_t stream)
{
    if (f == NULL) return ;
    if (device && f->mem != NULL) cudaFreeAsync (f->mem, stream) ;
    free (f) ;
}

extern "C" void gg_cuda_spmv_band_info (const gg_spmv_band_form *f,
    gg_spmv_band_info *info)
{
    memset (info, 0, sizeof (*info)) ;
    if (f == NULL) return ;
    info->nbands = f->nb ;
    info->width = f->W ;
    info->bytes = f->bytes ;
    for (int b = 0 ; b <= f->nb ; b++)
    {
        info->nnz [b] = f->E [b] ;
        info->rows [b] = f->R [b] ;
        if (b < f->nb) info->band_nnz += f->E [b] ;
    }
}
