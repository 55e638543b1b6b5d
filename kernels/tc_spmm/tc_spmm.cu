//------------------------------------------------------------------------------
// kernels/tc_spmm/tc_spmm.cu: tensor-core hybrid SpMM (mma.sync TF32, split)
//------------------------------------------------------------------------------

// This file: the split FP32 kernel, the value checks and the launchers;
// tc_device.cuh: the device helpers; tc_fused.cu: the FP64 (DMMA) kernel and
// the fused kernels (one warp per window, remainder included).

// Y = S * X through the hybrid form of S (kernels/tc_spmm/tc_layout.h): the remainder
// (a CSR) through gg_cuda_spmm_plan first, then the tensor-core kernel adds
// the blocks' products into the rows it wrote (same stream: no atomics
// between the two; rows of windows cut into several segments are added with
// atomics, zeroed first where the remainder did not write them).
//
// The tensor-core kernel (swap-and-transpose): a block holds 8 window rows x
// 8 slots (columns c_0..c_7 of S).  Y (8 rows, N) += S_blk (8 x 8) * X_g
// (8 x N), X_g = rows c_0..c_7 of X, is computed transposed,
//   Y' (N x 8) += X_g' (N x 8) * S_blk' (8 x 8),
// so that the dense operand is the MMA's A (m16n8k8: 16 columns of X by the
// 8 slots) and the sparse block is B (8 slots x 8 rows).  A warp owns one
// segment (<= seg_blocks blocks of one window) and 32 columns of X: lane
// (g = lane / 4, t = lane % 4) reads X [c_t] [n0 + 4g .. 4g+3] and
// X [c_{t+4}] [n0 + 4g .. 4g+3] (two 16-byte loads; the 8 lanes of a slot
// read 128 contiguous bytes), which are the A fragments of two MMAs when
// MMA row g stands for column n0 + 4g + 2j and row g + 8 for n0 + 4g + 2j + 1
// (j = 0, 1).  Its D fragments then hold Y [8w + 2t] and Y [8w + 2t + 1] at
// columns n0 + 4g .. 4g+3: one 16-byte store per row.  The block's values
// are stored in B-fragment order (one 8-byte load per lane).  Each X value
// feeds 8 multiplies in the MMA: the reuse a CUDA-core kernel cannot have.
//
// Staging variants: "direct<U>" loads U blocks' X rows to registers before
// using them; "cpasync<S>" copies them with cp.async into an S-stage ring in
// shared memory (each lane reads back only what it copied: no barrier but
// cp.async.wait_group).  Both read the segment's column indices into shared
// memory once.
//
// Precision: exact modes split a = a1 + a2 (+ a3), a_i = tf32 (a - a_1 - ...
// - a_{i-1}) rounded to nearest; the leading product s1*x1 of a block is
// summed with C = 0 and added to the running sum by an FP32 add (the tensor
// core's own accumulation truncates: chaining all blocks in it would bias
// long rows), the small products are chained in a second accumulator (their
// truncation is 2^-11 smaller), and the two are added at the end.

#include <cstring>
#include "kernels/tc_spmm/tc_device.cuh"

//------------------------------------------------------------------------------
// the tensor-core kernel
//------------------------------------------------------------------------------

// The 16-column tile (variant "narrow2", STAGE == TC_STAGE_NARROW): one MMA
// tile per warp, lane (g, t) reading X [c_t] [j .. j+1] and X [c_{t+4}]
// [j .. j+1], j = n0 + 2g, as 8-byte loads (MMA row g = column j, row g + 8
// = column j + 1), two blocks' rows loaded before they are used; its D
// fragment holds Y [8w + 2t] and Y [8w + 2t + 1] at columns j .. j+1 (one
// 8-byte store per row).  Twice the warps of the 32-column tile for the
// same product, for products of few windows (bcsstk16 at N = 128: 2440
// warps, 24 % occupancy with 32 columns).  VEC only (n % 4 == 0, X and Y
// 16-byte aligned); lanes past the last column read the last two (their
// sums are not stored).  Measured: twice the occupancy, 43 % more
// instructions (the per-block work is paid per 16 columns), no faster
// (docs/BENCHMARKS.md, ninth session): a variant of the bench and tests.
#define TC_STAGE_NARROW (-102)
template <int MODE>
__device__ __forceinline__ void tc_narrow (const uint2 *__restrict__ offs,
    const float2 *__restrict__ vals, int nb, int t, const float *__restrict__ X,
    int64_t n, int64_t j, int64_t w, bool shared, const int32_t *__restrict__ rp,
    const int32_t *__restrict__ row_out, int64_t m, float *__restrict__ Y)
{
    constexpr int U = 2 ;
    constexpr int NS = tc_prec<MODE>::NS ;
    const float *xj = tc_xj<true, 2> (X, n, j) ;
    float big [4] = { 0, 0, 0, 0 }, small [4] = { 0, 0, 0, 0 } ;
    for (int b = 0 ; b < nb ; b += U)
    {
        float2 xa [U], xb [U], sv [U] ;
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            const bool ok = b + u < nb ;
            const int bu = ok ? b + u : nb - 1 ;
            const uint2 cc = offs [bu * 4 + t] ;
            xa [u] = __ldg ((const float2 *) (xj + cc.x)) ;
            xb [u] = __ldg ((const float2 *) (xj + cc.y)) ;
            const float2 v = __ldg (vals + (int64_t) bu * 32) ;
            sv [u] = ok ? v : make_float2 (0, 0) ;
        }
#pragma unroll
        for (int u = 0 ; u < U ; u++)
        {
            uint32_t s0 [3], s1 [3] ;
            tc_split<NS> (sv [u].x, s0) ;
            tc_split<NS> (sv [u].y, s1) ;
            tc_block_tile<MODE> (big, small, xa [u].x, xa [u].y, xb [u].x, xb [u].y, s0, s1) ;
        }
    }
    const bool tf = (MODE == GG_TC_TF32) ;
    const float2 y0 = make_float2 (big [0] + (tf ? 0.0f : small [0]), big [2] + (tf ? 0.0f : small [2])) ;
    const float2 y1 = make_float2 (big [1] + (tf ? 0.0f : small [1]), big [3] + (tf ? 0.0f : small [3])) ;
    const int64_t r0 = w * GG_HYB_WIN + 2 * t ;
#pragma unroll
    for (int h = 0 ; h < 2 ; h++)
    {
        const int64_t r = r0 + h ;
        if (r >= m) continue ;
        const int64_t o = row_out ? row_out [r] : r ;
        tc_store2 (Y, o, n, j, h ? y1 : y0, (rp != NULL) && rp [r + 1] > rp [r], shared) ;
    }
}

// STAGE > 0: cp.async ring of STAGE stages; STAGE < 0: direct, -STAGE blocks
// in flight; TC_STAGE_NARROW: tc_narrow (VEC).  rp == NULL: nothing to add to (plain stores).
template <int MODE, int STAGE, bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_spmm_kernel (const int32_t *__restrict__ col, const float2 *__restrict__ val,
    const int32_t *__restrict__ seg_blk, const uint32_t *__restrict__ seg_win,
    int64_t nseg, int64_t ntiles, const int32_t *__restrict__ rp,
    const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const float *__restrict__ X, float *__restrict__ Y)
{
    constexpr int NST = (STAGE > 0) ? STAGE : 1 ;
    __shared__ uint2 offs_s [TC_WARPS][TC_SEG_MAX * 4] ;
    __shared__ float4 ring_s [TC_WARPS][NST][2][32] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t seg = gw / ntiles ;
    if (seg >= nseg) return ;
    constexpr bool NARROW = (STAGE == TC_STAGE_NARROW) ;
    const int64_t n0 = (gw % ntiles) * (NARROW ? 16 : 32) ;
    const int64_t j = n0 + (NARROW ? 2 : 4) * g ;      // this lane's 2 or 4 columns
    const int32_t b0 = seg_blk [seg], b1 = seg_blk [seg + 1] ;
    const uint32_t wv = seg_win [seg] ;
    const int64_t w = wv & ~GG_HYB_SEG_SHARED ;
    const bool shared = (wv & GG_HYB_SEG_SHARED) != 0 ;
    const int nb = b1 - b0 ;

    // the segment's columns, as the (slot t, slot t+4) pairs of each block,
    // as their rows' offsets in X
    tc_stage_offs<(STAGE > 0)> (offs_s [wid], col, b0, nb, lane, (uint32_t) n) ;
    if constexpr (NARROW)
    {
        tc_narrow<MODE> (offs_s [wid], val + (int64_t) b0 * 32 + lane, nb, t, X, n, j, w,
            shared, rp, row_out, m, Y) ;
        return ;
    }
    const float *xj = tc_xj<VEC> (X, n, j) ;

    float big [2][4], small [2][4] ;
#pragma unroll
    for (int a = 0 ; a < 2 ; a++)
#pragma unroll
        for (int q = 0 ; q < 4 ; q++) { big [a][q] = 0 ; small [a][q] = 0 ; }

    const float2 *vals = val + (int64_t) b0 * 32 + lane ;
    if constexpr (STAGE < 0)
        tc_blocks_direct<MODE, -STAGE, VEC> (offs_s [wid], vals, nb, t, xj, n, j, big, small) ;
    else
    {
        // cp.async ring: block b lives in stage b % STAGE; STAGE - 1 blocks
        // are in flight ahead of the one being multiplied (VEC only: the
        // scalar form runs direct2)
        auto issue = [&] (int b)
        {
            const int st = b % NST ;
            const bool in = b < nb ;
            const uint2 cc = in ? offs_s [wid][b * 4 + t] : make_uint2 (TC_PAD, TC_PAD) ;
            const bool va = cc.x != TC_PAD, vb = cc.y != TC_PAD ;
            tc_cp_async16 (&ring_s [wid][st][0][lane], va ? xj + cc.x : X, va) ;
            tc_cp_async16 (&ring_s [wid][st][1][lane], vb ? xj + cc.y : X, vb) ;
            tc_cp_commit () ;
        } ;
#pragma unroll
        for (int b = 0 ; b < NST - 1 ; b++) issue (b) ;
        for (int b = 0 ; b < nb ; b++)
        {
            issue (b + NST - 1) ;
            const float2 sv = __ldg (vals + (int64_t) b * 32) ;
            tc_cp_wait<NST - 1> () ;
            const int st = b % NST ;
            const float4 xa = ring_s [wid][st][0][lane], xb = ring_s [wid][st][1][lane] ;
            tc_block<MODE> (big, small, xa, xb, sv) ;
        }
        tc_cp_wait<0> () ;
    }

    float4 y0, y1 ;
    tc_rows<MODE> (big, small, y0, y1) ;
    // (a permuted form: its row r is Y's row row_out [r]; the remainder is
    // in the form's order)
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    if (r0 < m)
    {
        const int64_t o0 = row_out ? row_out [r0] : r0 ;
        const bool add = (rp != NULL) && rp [r0 + 1] > rp [r0] ;
        tc_store<VEC> (Y, o0, n, j, y0, add, shared) ;
    }
    if (r1 < m)
    {
        const int64_t o1 = row_out ? row_out [r1] : r1 ;
        const bool add = (rp != NULL) && rp [r1 + 1] > rp [r1] ;
        tc_store<VEC> (Y, o1, n, j, y1, add, shared) ;
    }
}

// Y [rows [q]] [:] = 0
template <typename T>
__global__ void tc_zero_rows_kernel (const int32_t *__restrict__ rows, int64_t nrows,
    int64_t n, T *__restrict__ Y)
{
    const int64_t total = nrows * n ;
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < total ;
         e += (int64_t) gridDim.x * blockDim.x)
        Y [(int64_t) rows [e / n] * n + e % n] = 0 ;
}

// *flag = 1 if any value is not finite
template <typename T>
__global__ void tc_nonfinite_kernel (const T *__restrict__ x, int64_t count,
    int32_t *__restrict__ flag)
{
    bool bad = false ;
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < count ;
         e += (int64_t) gridDim.x * blockDim.x)
        bad |= !isfinite (x [e]) ;
    if (__any_sync (0xffffffffu, bad) && (threadIdx.x & 31) == 0) *flag = 1 ;
}

// *flag = 1 if any value is outside the family's range: FP32 magnitudes
// below 2^-51 or above 2^63 (a zero of either sign, a subnormal, an
// infinity and a NaN among them), FP64 anything but a finite normal number;
// with ZEROS, zeros of either sign pass
template <typename T, bool ZEROS>
__global__ void tc_plain_kernel (const T *__restrict__ x, int64_t count,
    int32_t *__restrict__ flag)
{
    const T lo = (sizeof (T) == 4) ? (T) 0x1p-51f : (T) 2.2250738585072014e-308 ;
    const T hi = (sizeof (T) == 4) ? (T) 0x1p63f : (T) 1.7976931348623157e308 ;
    bool bad = false ;
    for (int64_t e = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; e < count ;
         e += (int64_t) gridDim.x * blockDim.x)
    {
        const T v = x [e] ;
        bad |= !((fabs (v) >= lo && fabs (v) <= hi) || (ZEROS && v == 0)) ;
    }
    if (__any_sync (0xffffffffu, bad) && (threadIdx.x & 31) == 0) *flag = 1 ;
}

//------------------------------------------------------------------------------
// launchers
//------------------------------------------------------------------------------

static const char *const tc_variant_names [] =
    { "direct2", "direct4", "cpasync2", "cpasync4", "fused", "team", "narrow2", NULL } ;
#define TC_STAGE_FUSED 0                // (the fused kernels: no stage)
#define TC_STAGE_TEAM 1                 // (the team kernel: no stage)
static const int tc_variant_stage [] = { -2, -4, 2, 4, TC_STAGE_FUSED, TC_STAGE_TEAM,
    TC_STAGE_NARROW } ;           // (narrow: VEC only, else direct2)

extern "C" const char *const *gg_tc_variants (void)
{
    return tc_variant_names ;
}

extern "C" const char *gg_tc_mode_name (int mode)
{
    static const char *const names [GG_TC_NMODES] = { "exact", "exact3", "exact4", "tf32" } ;
    return (mode >= 0 && mode < GG_TC_NMODES) ? names [mode] : "?" ;
}

static int tc_sms (void)
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
    return sms ;
}

typedef void (*tc_kernel_fn) (const int32_t *, const float2 *, const int32_t *,
    const uint32_t *, int64_t, int64_t, const int32_t *, const int32_t *, int64_t,
    int64_t, const float *, float *) ;

template <int MODE>
static tc_kernel_fn tc_pick_mode (int stage, bool vec)
{
    if (!vec) return tc_spmm_kernel<MODE, -2, false> ;
    switch (stage)
    {
        case -4: return tc_spmm_kernel<MODE, -4, true> ;
        case 2:  return tc_spmm_kernel<MODE, 2, true> ;
        case 4:  return tc_spmm_kernel<MODE, 4, true> ;
        case TC_STAGE_NARROW: return tc_spmm_kernel<MODE, TC_STAGE_NARROW, true> ;
        default: return tc_spmm_kernel<MODE, -2, true> ;
    }
}

static tc_kernel_fn tc_pick (int mode, int stage, bool vec)
{
    switch (mode)
    {
        case GG_TC_EXACT:  return tc_pick_mode<GG_TC_EXACT> (stage, vec) ;
        case GG_TC_EXACT3: return tc_pick_mode<GG_TC_EXACT3> (stage, vec) ;
        case GG_TC_EXACT4: return tc_pick_mode<GG_TC_EXACT4> (stage, vec) ;
        case GG_TC_TF32:   return tc_pick_mode<GG_TC_TF32> (stage, vec) ;
        default:           return NULL ;
    }
}

extern "C" int gg_tc_spmm_ex (const gg_hybrid_form *f, const void *X, void *Y,
    int64_t n, int mode, const char *variant, int parts, const char *remainder,
    cudaStream_t stream)
{
    if (f == NULL || X == NULL || Y == NULL || n < 1
        || (f->type != GG_FP32 && f->type != GG_FP64)
        || mode < 0 || mode >= GG_TC_NMODES || parts < GG_TC_PARTS_ALL
        || parts > GG_TC_PARTS_REM)
        return GG_ERR_UNSUPPORTED ;
    if (f->seg_blocks > TC_SEG_MAX) return GG_ERR_UNSUPPORTED ;
    // (the FP32 kernels' 32-bit offsets of X's rows: tc_stage_offs)
    if (f->type == GG_FP32 && (uint64_t) f->k * (uint64_t) n > UINT32_MAX) return GG_ERR_UNSUPPORTED ;
    int stage = tc_variant_stage [0] ;
    if (variant != NULL && variant [0] != '\0')
    {
        int v = 0 ;
        while (tc_variant_names [v] != NULL && strcmp (tc_variant_names [v], variant) != 0) v++ ;
        if (tc_variant_names [v] == NULL) return GG_ERR_UNSUPPORTED ;
        stage = tc_variant_stage [v] ;
    }
    if (stage == TC_STAGE_FUSED || stage == TC_STAGE_TEAM)
    {
        // the whole product in one launch (parts: all only)
        if (parts != GG_TC_PARTS_ALL) return GG_ERR_UNSUPPORTED ;
        const bool vec = (n % 4 == 0) && ((uintptr_t) X % 16 == 0) && ((uintptr_t) Y % 16 == 0) ;
        const int64_t ntiles = (n + 31) / 32 ;
        return (stage == TC_STAGE_TEAM) ? tc_launch_team (f, X, Y, n, mode, vec, ntiles, stream)
            : tc_launch_fused (f, X, Y, n, mode, vec, ntiles, stream) ;
    }
    const bool run_rem = (parts != GG_TC_PARTS_TC) && f->rem_nnz > 0 ;
    const bool run_tc = (parts != GG_TC_PARTS_REM) && f->nseg > 0 ;

    // remainder: writes its rows of Y (rows without remainder entries are
    // left alone)
    if (run_rem)
    {
        const gg_semiring sr = { GG_ADD_PLUS, GG_MUL_TIMES, f->type } ;
        const char *kern = (remainder != NULL && remainder [0] != '\0') ? remainder
            : gg_tc_rem_kernel (f, n) ;
        // (a permuted form: its remainder in the form's order, stored
        // through row_out)
        const int rc = (f->row_out != NULL)
            ? gg_cuda_spmm_plan_rows (&sr, f->m, f->k, n, f->rem_nnz, f->rp, f->ri, f->rx,
                false, X, Y, f->rplan, f->rem_max_row, f->row_out, kern, stream)
            : gg_cuda_spmm_plan (&sr, f->m, f->k, n, f->rem_nnz, f->rp, f->ri,
                f->rx, false, X, Y, f->rplan, f->rem_max_row, kern, stream) ;
        if (rc != GG_OK) return rc ;
    }
    if (!run_tc) return GG_OK ;

    // rows that windows of several segments add to with atomics and that
    // the remainder did not write
    if (f->nzero > 0)
    {
        const int64_t total = f->nzero * n ;
        int64_t grid = (total + 255) / 256 ;
        if (grid > (int64_t) tc_sms () * 16) grid = (int64_t) tc_sms () * 16 ;
        if (f->type == GG_FP64)
            tc_zero_rows_kernel<double> <<<(unsigned) grid, 256, 0, stream>>> (f->zero_rows,
                f->nzero, n, (double *) Y) ;
        else
            tc_zero_rows_kernel<float> <<<(unsigned) grid, 256, 0, stream>>> (f->zero_rows,
                f->nzero, n, (float *) Y) ;
        if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;
    }

    // the tensor-core part: one warp per (segment, 32 columns), or per
    // (segment, 16 columns) in the narrow variant (FP32 with VEC; else
    // direct2)
    const bool vec = (n % 4 == 0) && ((uintptr_t) X % 16 == 0) && ((uintptr_t) Y % 16 == 0) ;
    if (stage == TC_STAGE_NARROW && !(vec && f->type == GG_FP32)) stage = -2 ;
    const int tile = (stage == TC_STAGE_NARROW) ? 16 : 32 ;
    const int64_t ntiles = (n + tile - 1) / tile ;
    const int64_t warps = f->nseg * ntiles ;
    const int64_t grid = (warps + TC_WARPS - 1) / TC_WARPS ;
    if (grid > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (f->type == GG_FP64)
        return tc_launch_dmma (f, X, Y, n, run_rem, vec, grid, ntiles, stream) ;
    tc_kernel_fn kern = tc_pick (mode, stage, vec) ;
    kern <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col, (const float2 *) f->val,
        f->seg_blk, f->seg_win, f->nseg, ntiles, run_rem ? f->rp : NULL, f->row_out, f->m, n,
        (const float *) X, (float *) Y) ;
    if (cudaGetLastError () != cudaSuccess) return GG_ERR_DEVICE ;
    return GG_OK ;
}

// The remainder's kernel: the whole-matrix rule over the rows that hold
// remainder entries (on FEM matrices the remainder sits in a quarter to a
// half of the rows; over all m rows the rule saw a mean of ~5 entries and
// took row_g8 / row_g16, where row_g32 measured 1.5-1.9x faster on
// bcsstk16 and fidap_ex14 at N = 32 and 128: tc_bench's # REM lines,
// bench/NOTES.md 2026-11-28).  Row-split kernels still walk every row.
extern "C" const char *gg_tc_rem_kernel (const gg_hybrid_form *f, int64_t n)
{
    const int64_t rows = (f->rem_rows > 0 && f->rem_rows < f->m) ? f->rem_rows : f->m ;
    // (FP32 and FP64 PLUS_TIMES: the FP32 rule, measured on both)
    if (f->row_out != NULL) return gg_cuda_spmm_choose_rows_plan_fp32 (rows, n, f->rem_nnz, f->rem_max_row) ;
    return gg_cuda_spmm_choose_plan_fp32 (rows, n, f->rem_nnz, f->rem_max_row) ;
}

extern "C" int gg_tc_spmm (const gg_hybrid_form *form, const void *X, void *Y,
    int64_t n, int mode, cudaStream_t stream)
{
    return gg_tc_spmm_ex (form, X, Y, n, mode, NULL, GG_TC_PARTS_ALL, NULL, stream) ;
}

// *flag_dev = whether K flags any of the count values (FP32 / FP64 only)
template <template <typename> class K>
static int tc_value_check (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream)
{
    if (flag_dev == NULL || count < 0 || (count > 0 && ptr == NULL)
        || (type != GG_FP32 && type != GG_FP64))
        return GG_ERR_UNSUPPORTED ;
    if (cudaMemsetAsync (flag_dev, 0, sizeof (int32_t), stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    if (count == 0) return GG_OK ;
    int64_t grid = (count + 255) / 256 ;
    if (grid > (int64_t) tc_sms () * 8) grid = (int64_t) tc_sms () * 8 ;
    if (type == GG_FP32)
        K<float>::launch ((unsigned) grid, stream, (const float *) ptr, count, flag_dev) ;
    else
        K<double>::launch ((unsigned) grid, stream, (const double *) ptr, count, flag_dev) ;
    return cudaGetLastError () == cudaSuccess ? GG_OK : GG_ERR_DEVICE ;
}

template <typename T> struct tc_nonfinite_check
{
    static void launch (unsigned grid, cudaStream_t s, const T *x, int64_t count, int32_t *flag)
    { tc_nonfinite_kernel<T> <<<grid, 256, 0, s>>> (x, count, flag) ; }
} ;
template <typename T> struct tc_plain_check
{
    static void launch (unsigned grid, cudaStream_t s, const T *x, int64_t count, int32_t *flag)
    { tc_plain_kernel<T, false> <<<grid, 256, 0, s>>> (x, count, flag) ; }
} ;
template <typename T> struct tc_range_check
{
    static void launch (unsigned grid, cudaStream_t s, const T *x, int64_t count, int32_t *flag)
    { tc_plain_kernel<T, true> <<<grid, 256, 0, s>>> (x, count, flag) ; }
} ;

extern "C" int gg_cuda_has_nonfinite (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream)
{
    return tc_value_check<tc_nonfinite_check> (ptr, count, type, flag_dev, stream) ;
}

extern "C" int gg_tc_values_plain (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream)
{
    return tc_value_check<tc_plain_check> (ptr, count, type, flag_dev, stream) ;
}

extern "C" int gg_tc_values_range (const void *ptr, int64_t count, gg_type type,
    int32_t *flag_dev, cudaStream_t stream)
{
    return tc_value_check<tc_range_check> (ptr, count, type, flag_dev, stream) ;
}
