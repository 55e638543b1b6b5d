//------------------------------------------------------------------------------
// kernels/sddmm/sddmm.cu: y (q) = A (i,:) (+.*) B (j,:) for each entry q = (i,j) of M
//------------------------------------------------------------------------------

// M: m x n CSR pattern (values never read); A: m x k and B: n x k, row-major,
// so each output is a dot product of two rows of length k.  Schedule: a group
// of G lanes per mask entry (G = 4 .. 32, from k), each lane taking every G-th
// VEC-wide piece of the two rows (VEC = 4, 2, 1 by k and alignment), then a
// shuffle reduction over the group.  A warp owns 32 / G * SDDMM_ITER
// consecutive entries, finds the rows they lie in with one 32-ary warp search
// and each group's row by a short binary search inside that range, so long
// mask rows (hubs) cost no more than short ones.  Given the row of each entry
// (ri, from gg_cuda_sddmm_rows; the backend keeps it with M's device form),
// both schedules read it instead of searching: the searches are a chain of
// dependent loads at the start of every warp.
//
// The batch schedule (FP32 / FP64, sddmm_batch_kernel): a group of G = 8 ..
// 32 lanes takes E = 8 (or 4) consecutive entries at once: each lane loads
// its piece of the E rows of B (E loads in flight, where the group schedule
// has one or two) and of A (only where the row changes: consecutive entries
// mostly lie in one row), accumulates E partial dot products, and the group
// reduces them by halving: at each of the first log2 E shuffle steps a lane
// keeps half its values and sends the other half, so 8 entries cost
// 4 + 2 + 1 (+ 1 per further step) shuffles instead of 8 per step.  The rows
// of the warp's entries are found by independent searches (one per lane and
// entry) into shared memory first.  Measured against the group schedule
// (ncu, R-MAT 2^20, FP32, K = 128, H200): E = 8 half the instructions but a
// third of the occupancy (116 registers), 2.37 against 2.92 ms; E = 4 70 % of
// the instructions at 46 % occupancy, 2.19 ms (bench/NOTES.md, 2026-11-28).
//
// Kernel names: NULL / "" (the rule: the batch schedule of 4 entries for
// FP32 rows of 8 or more 16-byte pieces, else the group schedule with G from
// k; its run length by sddmm_rule_runs), "grp" (the group schedule, G from
// k), "g4", "g8", "g16", "g32" (the group schedule with that G), "w" / "w4"
// (the batch schedule of 8 / 4 entries; the group schedule for the integer
// types), "grpl", "wl", "w4l" (the same with SDDMM_LONG times the rounds per
// warp), "grps", "ws", "w4s" (one round per warp: 4x the warps, each with a
// quarter of the chain).  The long runs were written so that a block spans
// more FEM rows sharing columns (more of B in L1); they do not help there
// (bcsstk16 0.042 against 0.043 ms), but they take 1.19-1.37x off R-MAT
// 2^18-2^22 in FP32 and 1.1-1.3x in FP64 without the rows given, 1.0-1.15x
// with them: each warp's fixed cost is spread over 4x the entries.  On small
// matrices they leave the GPU underfilled, and there the short runs win
// (H200, 2026-11-28).  The backend's chooser times "w" and the long runs
// against the rule (backend/cuda/dense.c).

#include <cstring>
#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

#define SDDMM_ITER 4

template <typename T>
struct sddmm_args
{
    int64_t m, n, k, nnz ;
    const int32_t *p, *ci ;
    const int32_t *ri ;     // the row of each entry (gg_cuda_sddmm_rows), or NULL: searched
    const T *A, *B ;        // NULL when the multiply ignores them
    T *y ;
    const int32_t *opos ;   // NULL, or where each entry's result goes: y [opos [q]]
    int mon, mul, G ;
    int iter ;              // rounds per warp (SDDMM_ITER / SDDMM_WITER, or 4x that)
} ;

template <typename T, int VEC, bool PT>
__global__ void __launch_bounds__ (256)
sddmm_group_kernel (const sddmm_args<T> a)
{
    const int lane = threadIdx.x & 31 ;
    const int G = a.G, per_warp = 32 / G ;
    const int g = lane % G, grp = lane / G ;
    const int64_t warp = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
    const int64_t q0 = warp * per_warp * a.iter ;
    if (q0 >= a.nnz) return ;                                   // whole warp
    int64_t q1 = q0 + per_warp * a.iter ;
    if (q1 > a.nnz) q1 = a.nnz ;
    int64_t row_lo = 0, row_hi = a.m ;
    if (a.ri == NULL)
    {
        row_lo = gg_warp_find_row (a.p, 0, a.m, q0) ;
        row_hi = gg_warp_find_row (a.p, row_lo, a.m, q1 - 1) + 1 ;
    }
    // lanes past k combine nothing: they hold a value neutral for every
    // operand (gg_identity); k == 0 (no terms): the monoid's identity
    const T id = (a.k > 0) ? gg_identity<T> (a.mon) : gg_empty_value<T> (a.mon) ;

    for (int it = 0 ; it < a.iter ; it++)
    {
        const int64_t q = q0 + (int64_t) it * per_warp + grp ;
        const bool ok = (q < q1) ;
        T acc [VEC] ;
        #pragma unroll
        for (int v = 0 ; v < VEC ; v++) acc [v] = id ;
        if (ok)
        {
            const int64_t i = (a.ri != NULL) ? (int64_t) a.ri [q] : gg_find_row (a.p, row_lo, row_hi, q) ;
            const int64_t j = a.ci [q] ;
            const T *arow = (a.A != NULL) ? a.A + i * a.k : NULL ;
            const T *brow = (a.B != NULL) ? a.B + j * a.k : NULL ;
            #pragma unroll 2
            for (int64_t t = (int64_t) g * VEC ; t < a.k ; t += (int64_t) G * VEC)
            {
                T av [VEC], bv [VEC] ;
                if (arow != NULL) gg_load_vec<T, VEC> (av, arow + t) ;
                else
                {
                    #pragma unroll
                    for (int v = 0 ; v < VEC ; v++) av [v] = T (0) ;
                }
                if (brow != NULL) gg_load_vec<T, VEC> (bv, brow + t) ;
                else
                {
                    #pragma unroll
                    for (int v = 0 ; v < VEC ; v++) bv [v] = T (0) ;
                }
                // acc [v] (+)= mul (a [v], b [v]): VEC separate products
                #pragma unroll
                for (int v = 0 ; v < VEC ; v++)
                {
                    T one [1] = { acc [v] } ;
                    const T bx [1] = { bv [v] } ;
                    gg_fma_vec<T, 1, PT> (a.mon, a.mul, one, av [v], bx) ;
                    acc [v] = one [0] ;
                }
            }
        }
        // fold the VEC partials, then the G lanes of the group
        T s = acc [0] ;
        #pragma unroll
        for (int v = 1 ; v < VEC ; v++) s = PT ? gg_plus (s, acc [v]) : gg_monoid (a.mon, s, acc [v]) ;
        for (int off = 1 ; off < G ; off *= 2)
        {
            T o = gg_shfl_xor (s, off) ;
            s = PT ? gg_plus (s, o) : gg_monoid (a.mon, s, o) ;
        }
        if (ok && g == 0) a.y [(a.opos != NULL) ? (int64_t) a.opos [q] : q] = s ;
    }
}

#define SDDMM_WITER 4       // batches per warp
#define SDDMM_LONG 4        // the long runs ("grpl", "wl", "w4l"): 4x the rounds per warp

// The rule's run length (lng: 0 usual, 1 long, 2 short) for nnz entries at
// per_warp entries a warp in usual runs.  Short where the usual runs give
// fewer than 16 warps per multiprocessor: each warp's chain of dependent
// loads is then the call's time (citeseer, cora: 4-5 us a call against
// 7 us); long from 2^21 entries (FP32 / FP64; measured between road_usa_col,
// 1.04M entries, where they lose up to 8 %, and R-MAT 2^18, 3.9M, where
// they gain 5-12 %).  With the rows given, on the 21 matrices of
// bench/NOTES.md (H200, 2026-11-28): back to back 2.29 -> 2.51x
// cusparseSDDMM at K = 32 FP32, 2.61 -> 2.77x FP64.
static int sddmm_rule_runs (int64_t nnz, int64_t per_warp, bool fp)
{
    const int sms = gg_device_sms () > 0 ? gg_device_sms () : 132 ;
    if (nnz / per_warp < (int64_t) 16 * sms) return 2 ;
    return (fp && nnz >= ((int64_t) 1 << 21)) ? 1 : 0 ;
}

static int sddmm_iter (int usual, int lng)
{
    return (lng == 2) ? 1 : usual * (lng == 1 ? SDDMM_LONG : 1) ;
}

// E entries per group and batch (E = 4: half the registers, so about twice
// the warps per multiprocessor, each with half the loads in flight)
template <typename T, int VEC, bool PT, int E>
__global__ void __launch_bounds__ (256)
sddmm_batch_kernel (const sddmm_args<T> a)
{
    const int lane = threadIdx.x & 31 ;
    const int G = a.G, ngrp = 32 / G ;
    const int g = lane & (G - 1), grp = lane / G ;
    const int64_t warp = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
    const int64_t per_warp = (int64_t) ngrp * E * a.iter ;
    const int64_t q0 = warp * per_warp ;
    if (q0 >= a.nnz) return ;                                   // whole warp
    int64_t q1 = q0 + per_warp ;
    if (q1 > a.nnz) q1 = a.nnz ;
    const T id = (a.k > 0) ? gg_identity<T> (a.mon) : gg_empty_value<T> (a.mon) ;
    const int64_t step = (int64_t) G * VEC ;

    // the row of each of the warp's entries, one independent search per
    // lane and entry (m < 2^31: gg_cuda_sddmm), per_warp of them per warp
    extern __shared__ int32_t sddmm_rows_s [] ;
    int32_t *rows = sddmm_rows_s + (threadIdx.x / 32) * per_warp ;
    if (a.ri != NULL)
        for (int64_t x = lane ; x < q1 - q0 ; x += 32) rows [x] = a.ri [q0 + x] ;
    else
    {
        const int64_t row_lo = gg_warp_find_row (a.p, 0, a.m, q0) ;
        const int64_t row_hi = gg_warp_find_row (a.p, row_lo, a.m, q1 - 1) + 1 ;
        for (int64_t x = lane ; x < q1 - q0 ; x += 32)
            rows [x] = (int32_t) gg_find_row (a.p, row_lo, row_hi, q0 + x) ;
    }
    __syncwarp () ;

    for (int it = 0 ; it < a.iter ; it++)
    {
        // the group's entries qb .. qb + E - 1 (those < q1), their rows and columns
        const int64_t xb = ((int64_t) it * ngrp + grp) * E, qb = q0 + xb ;
        int32_t ri [E], cj [E] ;
        bool newrow [E] ;
        #pragma unroll
        for (int e = 0 ; e < E ; e++)
        {
            const int64_t q = qb + e ;
            if (q < q1) { ri [e] = rows [xb + e] ; cj [e] = a.ci [q] ; }
            else { ri [e] = -1 ; cj [e] = -1 ; }
            newrow [e] = (e == 0) || (ri [e] != ri [e-1]) ;
        }
        T acc [E] ;
        #pragma unroll
        for (int e = 0 ; e < E ; e++) acc [e] = id ;
        #pragma unroll 1
        for (int64_t t = (int64_t) g * VEC ; t < a.k ; t += step)
        {
            // each row's piece of B, and of A where the row changes
            T av [E][VEC], bv [E][VEC] ;
            #pragma unroll
            for (int e = 0 ; e < E ; e++)
            {
                #pragma unroll
                for (int v = 0 ; v < VEC ; v++) { bv [e][v] = T (0) ; av [e][v] = T (0) ; }
                if (cj [e] >= 0 && a.B != NULL) gg_load_vec<T, VEC> (bv [e], a.B + (int64_t) cj [e] * a.k + t) ;
                if (e > 0 && !newrow [e])
                {
                    #pragma unroll
                    for (int v = 0 ; v < VEC ; v++) av [e][v] = av [e-1][v] ;
                }
                else if (ri [e] >= 0 && a.A != NULL)
                    gg_load_vec<T, VEC> (av [e], a.A + (int64_t) ri [e] * a.k + t) ;
            }
            #pragma unroll
            for (int e = 0 ; e < E ; e++)
            {
                if (ri [e] < 0) continue ;
                #pragma unroll
                for (int v = 0 ; v < VEC ; v++)
                {
                    T one [1] = { acc [e] } ;
                    const T bx [1] = { bv [e][v] } ;
                    gg_fma_vec<T, 1, PT> (a.mon, a.mul, one, av [e][v], bx) ;
                    acc [e] = one [0] ;
                }
            }
        }
        // reduce the E partials over the group's G lanes by halving: after
        // the step at offset off, a lane holds the half of its values picked
        // by its bit off (the low half when clear), each combined with the
        // lane across; then the single value over the remaining offsets
        auto mon = [&] (T x, T y) { return PT ? gg_plus (x, y) : gg_monoid (a.mon, x, y) ; } ;
        int off = G / 2, e = 0 ;
        #pragma unroll
        for (int h = E / 2 ; h >= 1 ; h /= 2)
        {
            const bool hi = (g & off) != 0 ;
            #pragma unroll
            for (int k = 0 ; k < h ; k++)
            {
                const T send = hi ? acc [k] : acc [k + h], keep = hi ? acc [k + h] : acc [k] ;
                acc [k] = mon (keep, gg_shfl_xor (send, off)) ;
            }
            e += hi ? h : 0 ;
            off /= 2 ;
        }
        T s1 = acc [0] ;
        for (int o = off ; o >= 1 ; o /= 2) s1 = mon (s1, gg_shfl_xor (s1, o)) ;
        const int64_t q = qb + e ;
        // (off == 0: the halving used every lane's bit, each lane holds its own)
        const int low = (off > 0) ? 2 * off - 1 : 0 ;
        if ((g & low) == 0 && q < q1) a.y [(a.opos != NULL) ? (int64_t) a.opos [q] : q] = s1 ;
    }
}

template <typename T, int VEC, bool PT>
static void sddmm_launch_batch (sddmm_args<T> a, int E, cudaStream_t stream)
{
    int64_t per_warp = (int64_t) (32 / a.G) * E * a.iter ;
    int64_t warps = (a.nnz + per_warp - 1) / per_warp ;
    int64_t blocks = (warps * 32 + 255) / 256 ;
    size_t smem = 8 * per_warp * sizeof (int32_t) ;       // the rows of 8 warps' entries
    if (E == 4) sddmm_batch_kernel<T, VEC, PT, 4> <<<(unsigned) blocks, 256, smem, stream>>> (a) ;
    else        sddmm_batch_kernel<T, VEC, PT, 8> <<<(unsigned) blocks, 256, smem, stream>>> (a) ;
}

// the batch kernel for vec values a piece (4 only for FP32: 16 bytes at most)
template <typename T, bool PT>
static void sddmm_launch_batch_vec (sddmm_args<T> a, int vec, int E, cudaStream_t stream)
{
    if constexpr (sizeof (T) == 4)
        if (vec == 4) { sddmm_launch_batch<T, 4, PT> (a, E, stream) ; return ; }
    if (vec >= 2) sddmm_launch_batch<T, 2, PT> (a, E, stream) ;
    else          sddmm_launch_batch<T, 1, PT> (a, E, stream) ;
}

template <typename T, int VEC, bool PT>
static void sddmm_launch_vec (sddmm_args<T> a, cudaStream_t stream)
{
    int64_t per_warp = (32 / a.G) * a.iter ;
    int64_t warps = (a.nnz + per_warp - 1) / per_warp ;
    int64_t blocks = (warps * 32 + 255) / 256 ;
    sddmm_group_kernel<T, VEC, PT> <<<(unsigned) blocks, 256, 0, stream>>> (a) ;
}

struct sddmm_dispatch
{
    template <typename T>
    // sched: 0 the rule (below), 1 the group schedule, 2 / 3 the batch
    // schedule of 8 / 4 entries (FP32 / FP64); lng: 0 the usual rounds per
    // warp, 1 SDDMM_LONG times them, 2 one round (short runs)
    static int run (const gg_canon *cs, int G, int sched, int lng, int64_t m, int64_t n,
        int64_t k, int64_t nnz, const int32_t *p, const int32_t *i, const int32_t *ri, const void *A,
        const void *B, void *y, const int32_t *opos, cudaStream_t stream)
    {
        sddmm_args<T> a ;
        memset (&a, 0, sizeof (a)) ;
        a.m = m ; a.n = n ; a.k = k ; a.nnz = nnz ; a.p = p ; a.ci = i ; a.ri = ri ;
        a.opos = opos ;
        a.A = gg_mul_reads_s (cs->mul) ? (const T *) A : NULL ;
        a.B = gg_mul_reads_x (cs->mul) ? (const T *) B : NULL ;
        a.y = (T *) y ;
        a.mon = cs->mon ; a.mul = cs->mul ;
        const void *pa = a.A != NULL ? A : y ;
        const void *pb = a.B != NULL ? B : pa ;
        int vec = gg_pick_vec (k, sizeof (T), pa, pb) ;
        constexpr bool fp = std::is_same<T, float>::value || std::is_same<T, double>::value ;
        const bool pt = cs->plus_times && fp ;
        if constexpr (fp)
        {
            // at most 16 bytes a load (FP64: VEC <= 2), so that the batch's
            // 8 x 2 vectors stay in registers
            const int vmax = 16 / (int) sizeof (T) ;
            const int bvec = vec < vmax ? vec : vmax ;
            const int64_t nv = (k + bvec - 1) / bvec ;
            // the rule: FP32 rows of 8 or more 16-byte pieces take the batch
            // schedule of 4 entries (1.25-1.36x the group schedule on R-MAT,
            // 0.92-1.27x on the 18 shared matrices, H200, 2026-11-28); FP64
            // keeps the group schedule (the batch ones 0.55-1.10x of it, below
            // 1 on 40 of 42 cells)
            const bool rule = (sched == 0 && G == 0 && sizeof (T) == 4 && bvec == 4 && nv >= 8) ;
            if (sched >= 2 || rule)
            {
                const int E = (sched == 2) ? 8 : 4 ;
                int Gb = 8 ;
                while (Gb < 32 && Gb < nv) Gb *= 2 ;
                a.G = Gb ;
                if (rule) lng = sddmm_rule_runs (nnz, (int64_t) (32 / Gb) * E * SDDMM_WITER, true) ;
                a.iter = sddmm_iter (SDDMM_WITER, lng) ;
                if (pt) sddmm_launch_batch_vec<T, true> (a, bvec, E, stream) ;
                else    sddmm_launch_batch_vec<T, false> (a, bvec, E, stream) ;
                return gg_launch_status () ;
            }
        }
        const bool forced_g = (G != 0) ;
        if (G == 0)
        {
            // enough lanes that each takes about 2 vectors of the row
            int64_t nv = (k + vec - 1) / vec ;
            G = 4 ;
            while (G < 32 && (int64_t) G * 2 < nv) G *= 2 ;
        }
        a.G = G ;
        if (sched == 0 && lng == 0 && !forced_g)
            lng = sddmm_rule_runs (nnz, (int64_t) (32 / G) * SDDMM_ITER, fp) ;
        a.iter = sddmm_iter (SDDMM_ITER, lng) ;
        if (pt)
        {
            if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value)
            {
                switch (vec)
                {
                    case 4:  sddmm_launch_vec<T, 4, true> (a, stream) ; break ;
                    case 2:  sddmm_launch_vec<T, 2, true> (a, stream) ; break ;
                    default: sddmm_launch_vec<T, 1, true> (a, stream) ; break ;
                }
            }
        }
        else
        {
            switch (vec)
            {
                case 4:  sddmm_launch_vec<T, 4, false> (a, stream) ; break ;
                case 2:  sddmm_launch_vec<T, 2, false> (a, stream) ; break ;
                default: sddmm_launch_vec<T, 1, false> (a, stream) ; break ;
            }
        }
        return gg_launch_status () ;
    }
} ;

// the row of each entry: a warp per row, its lanes across the row's
// entries (one thread per entry with a binary search of p took 1.5 ms for
// R-MAT 2^22's 65M entries, H200, 2026-11-28: a chain of ~22 loads each)
__global__ void sddmm_rows_kernel (int64_t m, const int32_t *p, int32_t *ri)
{
    const int64_t r = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) / 32 ;
    if (r >= m) return ;
    const int lane = threadIdx.x % 32 ;
    const int32_t end = p [r + 1] ;
    for (int32_t q = p [r] + lane ; q < end ; q += 32) ri [q] = (int32_t) r ;
}

extern "C" int gg_cuda_sddmm_rows (int64_t m, int64_t nnz, const int32_t *p,
    int32_t *ri, cudaStream_t stream)
{
    if (m < 0 || nnz < 0 || m > INT32_MAX || nnz > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (nnz == 0 || m == 0) return GG_OK ;
    sddmm_rows_kernel <<<(unsigned) ((m + 7) / 8), 256, 0, stream>>> (m, p, ri) ;
    return gg_launch_status () ;
}

extern "C" int gg_cuda_sddmm (const gg_semiring *sr, int64_t m, int64_t n,
    int64_t k, int64_t nnz, const int32_t *p, const int32_t *i, const int32_t *ri,
    const void *A, const void *B, void *y, const char *kernel, cudaStream_t stream)
{
    return gg_cuda_sddmm_at (sr, m, n, k, nnz, p, i, ri, A, B, y, NULL, kernel, stream) ;
}

extern "C" int gg_cuda_sddmm_at (const gg_semiring *sr, int64_t m, int64_t n,
    int64_t k, int64_t nnz, const int32_t *p, const int32_t *i, const int32_t *ri,
    const void *A, const void *B, void *y, const int32_t *opos, const char *kernel,
    cudaStream_t stream)
{
    gg_canon cs ;
    if (!gg_canon_semiring (sr, &cs)) return GG_ERR_UNSUPPORTED ;
    if (m < 0 || n < 0 || k < 0 || nnz < 0 || m > INT32_MAX || nnz > INT32_MAX)
        return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_s (cs.mul) && A == NULL) return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_x (cs.mul) && B == NULL) return GG_ERR_UNSUPPORTED ;
    int G = 0, sched = 0, lng = 0 ;
    if (kernel != NULL && kernel [0] != '\0')
    {
        // "grp", "w", "w4", each with "l" (long runs) or "s" (short) after it
        const char *const base [3] = { "grp", "w", "w4" } ;
        for (int b = 0 ; b < 3 && sched == 0 ; b++)
        {
            const size_t len = strlen (base [b]) ;
            if (strncmp (kernel, base [b], len) != 0) continue ;
            const char *x = kernel + len ;
            if (x [0] == '\0' || (x [1] == '\0' && (x [0] == 'l' || x [0] == 's')))
            {
                sched = b + 1 ;
                lng = (x [0] == 'l') ? 1 : (x [0] == 's') ? 2 : 0 ;
            }
        }
        if (sched != 0) { }
        else if (strcmp (kernel, "g4")  == 0) G = 4 ;
        else if (strcmp (kernel, "g8")  == 0) G = 8 ;
        else if (strcmp (kernel, "g16") == 0) G = 16 ;
        else if (strcmp (kernel, "g32") == 0) G = 32 ;
        else return GG_ERR_UNSUPPORTED ;
    }
    if (nnz == 0 || m == 0) return GG_OK ;
    GG_TYPE_DISPATCH (sr->type, sddmm_dispatch, &cs, G, sched, lng, m, n, k, nnz, p,
        i, ri, A, B, y, opos, stream) ;
}
