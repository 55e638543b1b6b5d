//------------------------------------------------------------------------------
// kernels/spmm.cu: Y = S (+.*) X on CUDA cores, any supported semiring
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
// The chooser (gg_cuda_spmm_choose) picks a schedule from the shape; its
// thresholds are measured (bench/NOTES.md).  Kernels are templated on the
// value type and VEC only (plus a PLUS_TIMES fast path for FP32 / FP64), with
// the monoid and multiply runtime switches (kernels/gg_semiring.cuh), which
// keeps the build to a few dozen instantiations.

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

template <typename T, int VEC, bool PT>
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
    const T id = gg_identity<T> (a.mon) ;

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
                gg_fma_vec<T, VEC, PT> (a.mon, a.mul, acc, s, xv) ;
            }
        }
        // acc = (+) over the R nonzero lanes of this column vector
        for (int off = C ; off < G ; off *= 2)
        {
            T o [VEC] ;
            #pragma unroll
            for (int v = 0 ; v < VEC ; v++) o [v] = gg_shfl_xor (acc [v], off) ;
            gg_combine_vec<T, VEC, PT> (a.mon, acc, o) ;
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

template <typename T, int VEC, bool PT>
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
    const T id = gg_identity<T> (a.mon) ;
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
                    if (colok) gg_fma_vec<T, VEC, PT> (a.mon, a.mul, acc, ss [u], xs [u]) ;
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
                gg_combine_vec<T, VEC, PT> (a.mon, acc, o) ;
        }
        // what flows into this lane: the scanned carry of the lane before
        T in [VEC] ;
        #pragma unroll
        for (int v = 0 ; v < VEC ; v++) in [v] = gg_shfl_up (acc [v], C) ;

        if (head_closed && colok)
        {
            // the row r0 ends here; lanes before hold the rest of it (if it
            // started before this chunk, the previous chunk holds more: atomic)
            if (r > 0) gg_combine_vec<T, VEC, PT> (a.mon, hv, in) ;
            if ((int64_t) a.p [r0] >= e0)
                gg_store_vec<T, VEC> (a.Y + r0 * n + j, hv) ;
            else
                spmm_atomic_vec<T, VEC> (a.mon, a.Y + r0 * n + j, hv) ;
        }
        if (r == r_last && carry_row >= 0 && colok)
        {
            // the row runs on into the next chunk
            spmm_atomic_vec<T, VEC> (a.mon, a.Y + carry_row * n + j, acc) ;
        }
    }
}

//------------------------------------------------------------------------------
// variants and chooser
//------------------------------------------------------------------------------

enum spmm_sched { SCHED_ROW = 0, SCHED_NNZ } ;

typedef struct
{
    const char *name ;
    int sched ;
    int param ;         // row: G; nnz: K
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
} ;
#define SPMM_NVARIANTS ((int) (sizeof (spmm_variant_table) / sizeof (spmm_variant_table [0])))

static const char *const spmm_variant_names [] =
{
    "row_g4", "row_g8", "row_g16", "row_g32", "nnz_k8", "nnz_k16", "nnz_k32",
    "nnz_k128", NULL
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
        // 32 lanes on a row: rows up to ~1K entries are cheaper than nnz-split
        if (max_row > 1024 && (double) max_row > 16.0 * mean) return "nnz_k8" ;
        // group size ~ mean row length, but enough threads to fill the GPU
        int G = 4 ;
        while (G < 32 && (double) G < mean) G *= 2 ;
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

//------------------------------------------------------------------------------
// launch
//------------------------------------------------------------------------------

template <typename T, int VEC, bool PT>
static void spmm_launch_vec (const spmm_variant *var, spmm_args<T> a,
    cudaStream_t stream)
{
    if (var->sched == SCHED_ROW)
    {
        a.G = var->param ;
        a.C = spmm_col_lanes (a.n, VEC, a.G) ;
        int64_t threads = a.m * a.G ;
        int64_t blocks = (threads + 255) / 256 ;
        spmm_row_kernel<T, VEC, PT> <<<(unsigned) blocks, 256, 0, stream>>> (a) ;
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
        spmm_nnz_kernel<T, VEC, PT> <<<(unsigned) blocks, 32 * wpb,
            per_warp * wpb, stream>>> (a) ;
    }
}

struct spmm_dispatch
{
    template <typename T>
    static int run (const gg_canon *cs, const spmm_variant *var, bool fast,
        int64_t m, int64_t n, int64_t nnz, const int32_t *p, const int32_t *i,
        const void *x, bool iso, const void *X, void *Y, cudaStream_t stream)
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
        // PLUS_TIMES fast path for the FP types (the runtime-switch kernel
        // serves every other case, and these too when fast == false)
        const bool pt = fast && cs->plus_times
            && (std::is_same<T, float>::value || std::is_same<T, double>::value) ;
        if (pt)
        {
            if constexpr (std::is_same<T, float>::value || std::is_same<T, double>::value)
            {
                switch (vec)
                {
                    case 4:  spmm_launch_vec<T, 4, true> (var, a, stream) ; break ;
                    case 2:  spmm_launch_vec<T, 2, true> (var, a, stream) ; break ;
                    default: spmm_launch_vec<T, 1, true> (var, a, stream) ; break ;
                }
            }
        }
        else
        {
            switch (vec)
            {
                case 4:  spmm_launch_vec<T, 4, false> (var, a, stream) ; break ;
                case 2:  spmm_launch_vec<T, 2, false> (var, a, stream) ; break ;
                default: spmm_launch_vec<T, 1, false> (var, a, stream) ; break ;
            }
        }
        return gg_launch_status () ;
    }
} ;

// kernel: a variant name, optionally with "/generic" (no PLUS_TIMES fast path,
// for benchmarks that measure what the runtime switches cost).
extern "C" int gg_cuda_spmm (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const int32_t *p, const int32_t *i, const void *x,
    bool iso, const void *X, void *Y, const char *kernel, cudaStream_t stream)
{
    gg_canon cs ;
    if (!gg_canon_semiring (sr, &cs)) return GG_ERR_UNSUPPORTED ;
    if (m < 0 || k < 0 || n < 0 || nnz < 0) return GG_ERR_UNSUPPORTED ;
    if (m > INT32_MAX || k > INT32_MAX || nnz > INT32_MAX
        || m * n > ((int64_t) 1 << 40)) return GG_ERR_UNSUPPORTED ;
    // an array the multiply reads must be there
    if (gg_mul_reads_s (cs.mul) && x == NULL) return GG_ERR_UNSUPPORTED ;
    if (gg_mul_reads_x (cs.mul) && X == NULL) return GG_ERR_UNSUPPORTED ;

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
        x, iso, X, Y, stream) ;
}
