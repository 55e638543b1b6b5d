//------------------------------------------------------------------------------
// kernels/spmv_band/spmv_band.cu: band SpMV, the product (gg_cuda_spmv_band)
//------------------------------------------------------------------------------

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
// The form and why: spmv_band_internal.cuh, spmv_band_form.cu.

#include "kernels/spmv_band/spmv_band_internal.cuh"

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
    const size_t xbytes = ((size_t) nx * sizeof (T) + 15) & ~(size_t) 15 ;
    const int src = gg_kernel_scratch (&xb, xbytes + sizeof (unsigned long long), stream) ;
    if (src != GG_OK) return src ;
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
