//------------------------------------------------------------------------------
// kernels/tc_spmm/tc_fused.cu: the FP64 (DMMA) kernel and the fused kernels
//------------------------------------------------------------------------------

// Part of the tensor-core hybrid SpMM (tc_spmm.cu has the layout, the
// arithmetic and the launchers that call the two functions at the end).

#include "kernels/tc_spmm/tc_device.cuh"

//------------------------------------------------------------------------------
// the FP64 kernel: DMMA (mma.sync m8n8k4, FP64 in, FP64 accumulation)
//------------------------------------------------------------------------------

// The same swap-and-transpose as the FP32 kernel, with the m8n8k4 shape:
// Y' (n x 8) += X_g' (n x 8 slots) * S_blk' (8 slots x 8 rows) as two MMAs
// of k = 4 (slots 0..3, then 4..7).  A fragment (8 x 4): lane (g, t) holds
// A (g, t); B (4 x 8): B (t, g); D (8 x 8): D (g, 2t), D (g, 2t + 1).  MMA q
// (q = 0..3) lets its row g stand for column j + q, j = n0 + 4g, so lane
// (g, t) reads X [c_t] [j .. j+3] and X [c_{t+4}] [j .. j+3] (two 16-byte
// loads each) and holds, after the four, Y [8w + 2t] [j .. j+3] and
// Y [8w + 2t + 1] [j .. j+3].  The block's values are the FP32 layout's
// pairs (GG_HYB_VAL_POS): lane 4g + t holds S (8w + g, slot t) and
// S (8w + g, slot t + 4), which are B (t, g) of the two MMAs.  Every product
// and sum is an FP64 operation (the tensor core's FP64 path is IEEE FP64),
// chained in the accumulator: the order of summation differs from the
// CUDA-core kernels', the accuracy does not.

template <int U, bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_dmma_kernel (const int32_t *__restrict__ col, const double2 *__restrict__ val,
    const int32_t *__restrict__ seg_blk, const uint32_t *__restrict__ seg_win,
    int64_t nseg, int64_t ntiles, const int32_t *__restrict__ rp,
    const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const double *__restrict__ X, double *__restrict__ Y)
{
    __shared__ int2 cols_s [TC_WARPS][TC_SEG_MAX * 4] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t seg = gw / ntiles ;
    if (seg >= nseg) return ;
    const int64_t n0 = (gw % ntiles) * 32 ;
    const int64_t j = n0 + 4 * g ;
    const int32_t b0 = seg_blk [seg], b1 = seg_blk [seg + 1] ;
    const uint32_t wv = seg_win [seg] ;
    const int64_t w = wv & ~GG_HYB_SEG_SHARED ;
    const bool shared = (wv & GG_HYB_SEG_SHARED) != 0 ;
    const int nb = b1 - b0 ;
    tc_stage_cols (cols_s [wid], col, b0, nb, lane) ;
    double acc [4][2] ;
#pragma unroll
    for (int q = 0 ; q < 4 ; q++) { acc [q][0] = 0 ; acc [q][1] = 0 ; }
    tc_dmma_blocks<U, VEC> (cols_s [wid], val + (int64_t) b0 * 32 + lane, nb, t, X, n, j, acc) ;
    const double y0 [4] = { acc [0][0], acc [1][0], acc [2][0], acc [3][0] } ;
    const double y1 [4] = { acc [0][1], acc [1][1], acc [2][1], acc [3][1] } ;
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    const int64_t o0 = (r0 < m && row_out) ? row_out [r0] : r0 ;
    const int64_t o1 = (r1 < m && row_out) ? row_out [r1] : r1 ;
    // (the remainder in the form's order: rp by the form's row)
    if (r0 < m) tc_store4<VEC> (Y, o0, n, j, y0, (rp != NULL) && rp [r0 + 1] > rp [r0], shared) ;
    if (r1 < m) tc_store4<VEC> (Y, o1, n, j, y1, (rp != NULL) && rp [r1 + 1] > rp [r1], shared) ;
}


//------------------------------------------------------------------------------
// the fused kernels: a window's tensor-core blocks and its remainder rows
//------------------------------------------------------------------------------

// One warp per (window, 32 columns) does the whole window: its blocks on the
// tensor cores (in chunks of TC_SEG_MAX, as a segment), then the remainder
// entries of its rows on CUDA cores, lane (g, t) adding row 8w + 2t's and
// row 8w + 2t + 1's at columns j .. j+3 (the rows and columns its D
// fragments hold), and one plain store.  One launch instead of three (the
// remainder, the zero pass, the tensor-core part), no atomics, Y written
// once: what the small matrices need, where each launch is several
// microseconds of a 10-30 us product.  A window of many blocks is one warp's
// work: the chooser measures this against the split variants.  Rows of S
// without entries are written as zeros.  The remainder's sums are FP32
// products and adds in CSR order (the CUDA-core kernels' arithmetic), added
// to the tensor-core part's sum at the end.
template <int MODE, bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_fused_kernel (const int32_t *__restrict__ col, const float2 *__restrict__ val,
    const int32_t *__restrict__ win_blk, int64_t nwin, int64_t ntiles,
    const int32_t *__restrict__ rp, const int32_t *__restrict__ ri,
    const float *__restrict__ rx, const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const float *__restrict__ X, float *__restrict__ Y)
{
    __shared__ uint2 offs_s [TC_WARPS][TC_SEG_MAX * 4] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t w = gw / ntiles ;
    if (w >= nwin) return ;
    const int64_t j = (gw % ntiles) * 32 + 4 * g ;
    const int32_t wb0 = win_blk [w], wb1 = win_blk [w + 1] ;

    float big [2][4], small [2][4] ;
    tc_blocks_run<MODE, 2, VEC> (offs_s [wid], col, val, wb0, wb1, lane, t, X, n, j, big, small) ;

    // the remainder of rows 8w + 2t (h = 0) and 8w + 2t + 1 (h = 1)
    float4 rs [2] = { make_float4 (0, 0, 0, 0), make_float4 (0, 0, 0, 0) } ;
#pragma unroll
    for (int h = 0 ; h < 2 ; h++)
    {
        const int64_t r = w * GG_HYB_WIN + 2 * t + h ;
        if (r >= m) continue ;
        const int32_t e1 = rp [r + 1] ;    // (the remainder in the form's order)
        int32_t e = rp [r] ;
        for ( ; e + 1 < e1 ; e += 2)
        {
            const int32_t c0 = __ldg (ri + e), c1 = __ldg (ri + e + 1) ;
            const float v0 = __ldg (rx + e), v1 = __ldg (rx + e + 1) ;
            const float4 x0 = tc_load_x<VEC> (X, c0, n, j), x1 = tc_load_x<VEC> (X, c1, n, j) ;
            tc_axpy4 (rs [h], v0, x0) ;
            tc_axpy4 (rs [h], v1, x1) ;
        }
        if (e < e1)
        {
            const int32_t c0 = __ldg (ri + e) ;
            const float v0 = __ldg (rx + e) ;
            const float4 x0 = tc_load_x<VEC> (X, c0, n, j) ;
            tc_axpy4 (rs [h], v0, x0) ;
        }
    }

    float4 y0, y1 ;
    tc_rows<MODE> (big, small, y0, y1) ;
    tc_add4 (y0, rs [0]) ;
    tc_add4 (y1, rs [1]) ;
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    if (r0 < m) tc_store<VEC> (Y, row_out ? row_out [r0] : r0, n, j, y0, false, false) ;
    if (r1 < m) tc_store<VEC> (Y, row_out ? row_out [r1] : r1, n, j, y1, false, false) ;
}

// The same for FP64 (DMMA for the blocks, FP64 for the remainder).
template <bool VEC>
__global__ void __launch_bounds__ (TC_WARPS * 32)
tc_fused_dmma_kernel (const int32_t *__restrict__ col, const double2 *__restrict__ val,
    const int32_t *__restrict__ win_blk, int64_t nwin, int64_t ntiles,
    const int32_t *__restrict__ rp, const int32_t *__restrict__ ri,
    const double *__restrict__ rx, const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const double *__restrict__ X, double *__restrict__ Y)
{
    __shared__ int2 cols_s [TC_WARPS][TC_SEG_MAX * 4] ;
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t gw = (int64_t) blockIdx.x * TC_WARPS + wid ;
    const int64_t w = gw / ntiles ;
    if (w >= nwin) return ;
    const int64_t j = (gw % ntiles) * 32 + 4 * g ;
    const int32_t wb0 = win_blk [w], wb1 = win_blk [w + 1] ;
    double acc [4][2] ;
#pragma unroll
    for (int q = 0 ; q < 4 ; q++) { acc [q][0] = 0 ; acc [q][1] = 0 ; }
    for (int32_t b0 = wb0 ; b0 < wb1 ; b0 += TC_SEG_MAX)
    {
        const int nb = (wb1 - b0 < TC_SEG_MAX) ? wb1 - b0 : TC_SEG_MAX ;
        __syncwarp () ;        // (the previous run's columns are read)
        tc_stage_cols (cols_s [wid], col, b0, nb, lane) ;
        tc_dmma_blocks<1, VEC> (cols_s [wid], val + (int64_t) b0 * 32 + lane, nb, t, X, n, j, acc) ;
    }
    double y [2][4] ;
#pragma unroll
    for (int h = 0 ; h < 2 ; h++)
    {
        double rs [4] = { 0, 0, 0, 0 } ;
        const int64_t r = w * GG_HYB_WIN + 2 * t + h ;
        if (r < m)      // (the remainder in the form's order)
            for (int32_t e = rp [r] ; e < rp [r + 1] ; e++)
            {
                double x [4] ;
                tc_load_x4<VEC> (X, __ldg (ri + e), n, j, x) ;
                const double v = __ldg (rx + e) ;
#pragma unroll
                for (int q = 0 ; q < 4 ; q++) rs [q] = rs [q] + v * x [q] ;
            }
#pragma unroll
        for (int q = 0 ; q < 4 ; q++) y [h][q] = acc [q][h] + rs [q] ;
    }
    const int64_t r0 = w * GG_HYB_WIN + 2 * t, r1 = r0 + 1 ;
    if (r0 < m) tc_store4<VEC> (Y, row_out ? row_out [r0] : r0, n, j, y [0], false, false) ;
    if (r1 < m) tc_store4<VEC> (Y, row_out ? row_out [r1] : r1, n, j, y [1], false, false) ;
}

//------------------------------------------------------------------------------
// the team kernel: the fused kernel's window shared by the warps of a block
//------------------------------------------------------------------------------

// One thread block (TC_WARPS warps) per (window, 32 columns).  Warp q takes
// the q-th quarter of the window's blocks (tensor cores, as the fused kernel)
// and the remainder of the window's rows 2q and 2q + 1: lane (g, t) sums the
// entries t, t + 4, ... of the row at columns j .. j+3 (two entries in
// flight, FP32 products and adds), and the four lanes of a column quad are
// added by shuffles.  The warps' sums meet in shared memory, are added in a
// fixed order (tensor-core quarters 0..3, then the remainder) and stored a
// row at a time (8 lanes x 16 bytes per row).  Against the fused kernel (one
// warp per window): four times the warps on matrices of few windows, and
// remainder rows walked four entries abreast instead of one, where the fused
// kernel's lanes each walk a whole row (bench/NOTES.md, 2026-11-29).  Rows
// of S without entries are written as zeros.  FP32 only (the FP64 form runs
// the fused DMMA kernel under this name).
// MINB: thread blocks per SM asked of the register allocator (0: none asked)
template <int MODE, int U, bool VEC, int MINB>
__global__ void __launch_bounds__ (TC_WARPS * 32, MINB)
tc_team_kernel (const int32_t *__restrict__ col, const float2 *__restrict__ val,
    const int32_t *__restrict__ win_blk, int64_t ntiles,
    const int32_t *__restrict__ rp, const int32_t *__restrict__ ri,
    const float *__restrict__ rx, const int32_t *__restrict__ row_out, int64_t m,
    int64_t n, const float *__restrict__ X, float *__restrict__ Y)
{
    static_assert (TC_WARPS * 2 == GG_HYB_WIN, "a warp per two rows of a window") ;
    __shared__ uint2 offs_s [TC_WARPS][TC_SEG_MAX * 4] ;
    __shared__ float4 part_s [TC_WARPS + 1][GG_HYB_WIN][8] ;   // [TC_WARPS]: remainder
    const int wid = threadIdx.x / 32, lane = threadIdx.x & 31 ;
    const int g = lane >> 2, t = lane & 3 ;
    const int64_t w = blockIdx.x / ntiles ;
    const int64_t n0 = (blockIdx.x % ntiles) * 32 ;
    const int64_t j = n0 + 4 * g ;

    // this warp's quarter of the window's blocks
    const int32_t wb0 = win_blk [w], wb1 = win_blk [w + 1] ;
    const int32_t per = (wb1 - wb0 + TC_WARPS - 1) / TC_WARPS ;
    const int32_t mb0 = min (wb0 + wid * per, wb1), mb1 = min (mb0 + per, wb1) ;
    float big [2][4], small [2][4] ;
    tc_blocks_run<MODE, U, VEC> (offs_s [wid], col, val, mb0, mb1, lane, t, X, n, j, big, small) ;
    float4 y0, y1 ;
    tc_rows<MODE> (big, small, y0, y1) ;
    part_s [wid][2 * t][g] = y0 ;
    part_s [wid][2 * t + 1][g] = y1 ;

    // the remainder of rows 2 wid and 2 wid + 1 of the window
#pragma unroll
    for (int h = 0 ; h < 2 ; h++)
    {
        const int64_t r = w * GG_HYB_WIN + 2 * wid + h ;
        float4 acc = make_float4 (0, 0, 0, 0) ;
        if (r < m)
        {
            const int32_t e1 = rp [r + 1] ;    // (the remainder in the form's order)
            for (int32_t e = rp [r] + t ; e < e1 ; e += 8)
            {
                const bool two = e + 4 < e1 ;
                const int32_t c0 = __ldg (ri + e), c1 = two ? __ldg (ri + e + 4) : c0 ;
                const float v0 = __ldg (rx + e), v1 = two ? __ldg (rx + e + 4) : 0.0f ;
                const float4 x0 = tc_load_x<VEC> (X, c0, n, j), x1 = tc_load_x<VEC> (X, c1, n, j) ;
                tc_axpy4 (acc, v0, x0) ;
                if (two) tc_axpy4 (acc, v1, x1) ;
            }
        }
#pragma unroll
        for (int s = 1 ; s < 4 ; s <<= 1)
        {
            acc.x = acc.x + __shfl_xor_sync (0xffffffffu, acc.x, s) ;
            acc.y = acc.y + __shfl_xor_sync (0xffffffffu, acc.y, s) ;
            acc.z = acc.z + __shfl_xor_sync (0xffffffffu, acc.z, s) ;
            acc.w = acc.w + __shfl_xor_sync (0xffffffffu, acc.w, s) ;
        }
        if (t == 0) part_s [TC_WARPS][2 * wid + h][g] = acc ;
    }
    __syncthreads () ;

    // the window's 8 rows x 32 columns: thread (row, quad) adds and stores
    if (threadIdx.x < GG_HYB_WIN * 8)
    {
        const int rr = threadIdx.x / 8, qq = threadIdx.x % 8 ;
        const int64_t r = w * GG_HYB_WIN + rr ;
        float4 v = part_s [0][rr][qq] ;
#pragma unroll
        for (int q = 1 ; q <= TC_WARPS ; q++) tc_add4 (v, part_s [q][rr][qq]) ;
        if (r < m) tc_store<VEC> (Y, row_out ? row_out [r] : r, n, n0 + 4 * qq, v, false, false) ;
    }
}

//------------------------------------------------------------------------------
// launchers (called by gg_tc_spmm_ex)
//------------------------------------------------------------------------------

int tc_launch_dmma (const gg_hybrid_form *f, const void *X, void *Y, int64_t n,
    bool run_rem, bool vec, int64_t grid, int64_t ntiles, cudaStream_t stream)
{
    // DMMA: one schedule (the variant names are the FP32 kernel's)
    if (vec)
        tc_dmma_kernel<2, true> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
            (const double2 *) f->val, f->seg_blk, f->seg_win, f->nseg, ntiles,
            run_rem ? f->rp : NULL, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
    else
        tc_dmma_kernel<2, false> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
            (const double2 *) f->val, f->seg_blk, f->seg_win, f->nseg, ntiles,
            run_rem ? f->rp : NULL, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

int tc_launch_fused (const gg_hybrid_form *f, const void *X, void *Y, int64_t n,
    int mode, bool vec, int64_t ntiles, cudaStream_t stream)
{
    const int64_t grid = (f->nwin * ntiles + TC_WARPS - 1) / TC_WARPS ;   // (a warp per window)
    if (grid > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (f->type == GG_FP64)
    {
        if (vec)
            tc_fused_dmma_kernel<true> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
                (const double2 *) f->val, f->win_blk, f->nwin, ntiles, f->rp, f->ri,
                (const double *) f->rx, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
        else
            tc_fused_dmma_kernel<false> <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col,
                (const double2 *) f->val, f->win_blk, f->nwin, ntiles, f->rp, f->ri,
                (const double *) f->rx, f->row_out, f->m, n, (const double *) X, (double *) Y) ;
    }
    else
    {
        typedef void (*fused_fn) (const int32_t *, const float2 *, const int32_t *, int64_t,
            int64_t, const int32_t *, const int32_t *, const float *, const int32_t *,
            int64_t, int64_t, const float *, float *) ;
        fused_fn kf = NULL ;
        switch (mode)
        {
            case GG_TC_EXACT:  kf = vec ? tc_fused_kernel<GG_TC_EXACT, true> : tc_fused_kernel<GG_TC_EXACT, false> ; break ;
            case GG_TC_EXACT3: kf = vec ? tc_fused_kernel<GG_TC_EXACT3, true> : tc_fused_kernel<GG_TC_EXACT3, false> ; break ;
            case GG_TC_EXACT4: kf = vec ? tc_fused_kernel<GG_TC_EXACT4, true> : tc_fused_kernel<GG_TC_EXACT4, false> ; break ;
            default:           kf = vec ? tc_fused_kernel<GG_TC_TF32, true> : tc_fused_kernel<GG_TC_TF32, false> ; break ;
        }
        kf <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col, (const float2 *) f->val,
            f->win_blk, f->nwin, ntiles, f->rp, f->ri, (const float *) f->rx, f->row_out,
            f->m, n, (const float *) X, (float *) Y) ;
    }
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

int tc_launch_team (const gg_hybrid_form *f, const void *X, void *Y, int64_t n,
    int mode, bool vec, int64_t ntiles, cudaStream_t stream)
{
    const int64_t grid = f->nwin * ntiles ;       // (a thread block per window)
    if (grid > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (f->type == GG_FP64) return tc_launch_fused (f, X, Y, n, mode, vec, ntiles, stream) ;
    typedef void (*team_fn) (const int32_t *, const float2 *, const int32_t *, int64_t,
        const int32_t *, const int32_t *, const float *, const int32_t *, int64_t, int64_t,
        const float *, float *) ;
    team_fn kf = NULL ;
    switch (mode)
    {
        case GG_TC_EXACT:
            // 16-byte rows: 2 blocks in flight and 7 thread blocks per SM
            // asked (72 registers, no spills; with 4 in flight and none
            // asked, 90 registers and 5 per SM: 1.0-1.48x slower on the
            // H200, bench/NOTES.md 2026-11-29 third session)
            kf = vec ? tc_team_kernel<GG_TC_EXACT, 2, true, 7> : tc_team_kernel<GG_TC_EXACT, 2, false, 0> ;
            break ;
        case GG_TC_EXACT3: kf = vec ? tc_team_kernel<GG_TC_EXACT3, 4, true, 0> : tc_team_kernel<GG_TC_EXACT3, 2, false, 0> ; break ;
        case GG_TC_EXACT4: kf = vec ? tc_team_kernel<GG_TC_EXACT4, 4, true, 0> : tc_team_kernel<GG_TC_EXACT4, 2, false, 0> ; break ;
        default:           kf = vec ? tc_team_kernel<GG_TC_TF32, 4, true, 0> : tc_team_kernel<GG_TC_TF32, 2, false, 0> ; break ;
    }
    kf <<<(unsigned) grid, TC_WARPS * 32, 0, stream>>> (f->col, (const float2 *) f->val,
        f->win_blk, ntiles, f->rp, f->ri, (const float *) f->rx, f->row_out, f->m, n,
        (const float *) X, (float *) Y) ;
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}
