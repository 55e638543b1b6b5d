//------------------------------------------------------------------------------
// kernels/spmm/spmm_internal.cuh: what the SpMM schedules' files share
//------------------------------------------------------------------------------

// Private to kernels/spmm/ and to the hot form of warp_t8 (kernels/spmv_hot/),
// which builds on it; the public launchers are in kernels/gg_cuda.h.
//
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
//  slot_kK (K = 32, 64): nnz-split for FP32 and FP64 PLUS_TIMES with 16-byte
//      pieces of X and 4 or more column lanes (any other case runs nnz_kK).  A group of
//      C column lanes takes slot j, the K entries from jK moved back to the
//      start of the row holding entry jK (unless that row is longer than a
//      slot): so only rows longer than K are cut (atomics, after a small
//      kernel sets them to the identity), every other row a plain store.  No
//      search: the slot plan, made once per pattern with the SpMV plan, gives
//      each slot's first row and start; the group loads C row ends, indices
//      and values at a time, shuffles the row ends out and stages the entries
//      in shared memory, SPMM_SBATCH rows of X in flight; no init kernel where
//      the caller's max_row says no row is longer than a slot (see
//      spmm_slot_kernel).
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
//      once per matrix, gg_cuda_spmv_hot_build; kernels/spmv_hot/).
//
// The chooser (gg_cuda_spmm_choose) picks a schedule from the shape; its
// thresholds are measured (bench/NOTES.md).  Kernels are templated on the
// value type, VEC and OP (gg_semiring.cuh): GENERIC (monoid and multiply as
// runtime switches) for every type, plus compile-time fast paths for FP32
// PLUS_TIMES / MIN / MAX and FP64 PLUS_TIMES, which keeps the build to about
// a hundred instantiations.

// Files: spmm_row_nnz.cu (row_gG, nnz_kK), spmm_merge.cu (merge_iI),
// spmv_warp.cu (warp_tI, its plan and the product of its hot form), spmm.cu
// (the variants, the chooser, the type and fast-path dispatch and the
// launchers).  Each schedule's launcher is a template defined in its own file
// and instantiated there, once, for the (type, OP) pairs of SPMM_TYPE_OPS;
// spmm.cu only declares it.

#ifndef GG_SPMM_INTERNAL_CUH
#define GG_SPMM_INTERNAL_CUH

#include <cstring>
#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

// shared between this folder's files, not exported from the CUDA module
#define SPMM_PRIVATE __attribute__ ((visibility ("hidden")))

//------------------------------------------------------------------------------
// kernel arguments (one struct: the same for every schedule)
//------------------------------------------------------------------------------

template <typename T>
struct spmm_args
{
    int64_t m, n, nnz ;
    int64_t k ;             // X's rows
    int64_t max_row ;       // S's longest row, -1 (or 0) when not known
    const int32_t *p, *ci ;
    const T *sx ;           // S's values (smode says how they are read)
    int smode ;
    const T *X ;            // NULL when the multiply ignores x
    T *Y ;
    const int32_t *row_out ;    // NULL, or row r of S goes to row row_out [r]
                                // of Y (row_gG, nnz_kK and slot_kK only)
    int mon, mul ;
    int G, C ;              // row_g: group lanes, column lanes per group
    int K ;                 // nnz_k: nonzeros per nonzero lane
    int aligned ;           // merge: ci and sx allow the vector loads
} ;

// The SpMV plan (spmv_warp.cu): the row holding every SPW_PLAN_UNIT-th entry,
// spw_plan_units (nnz) + 1 int32; then, from int32 offset
// spmm_slot_plan_offset (nnz) (8-byte aligned), the slot plan of slot_kK:
// (row holding entry SPMM_SLOT_UNIT * u, that row's start) for u < ceil (nnz
// / SPMM_SLOT_UNIT), int32 pairs.  gg_cuda_spmv_plan_bytes counts both.
#define SPW_PLAN_UNIT 256
#define SPMM_SLOT_UNIT 32
__host__ __device__ static inline int64_t spw_plan_units (int64_t nnz)
{
    return (nnz + SPW_PLAN_UNIT - 1) / SPW_PLAN_UNIT ;
}
__host__ __device__ static inline int64_t spmm_slot_plan_offset (int64_t nnz)
{
    return (spw_plan_units (nnz) + 2) & ~(int64_t) 1 ;
}

// row r's entries [lo, hi) in the slot plan
__device__ __forceinline__ void spmm_slot_plan_row (int64_t r, int64_t lo,
    int64_t hi, int32_t *slot)
{
    for (int64_t u = (lo + SPMM_SLOT_UNIT - 1) / SPMM_SLOT_UNIT ; u * SPMM_SLOT_UNIT < hi ; u++)
    {
        slot [2*u] = (int32_t) r ;
        slot [2*u+1] = (int32_t) lo ;
    }
}

// byte counts of scratch and shared-memory parts: each 16-byte aligned
__host__ __device__ static inline size_t spmm_round16 (size_t b)
{
    return (b + 15) & ~(size_t) 15 ;
}

// merge_iI and warp_tI:
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

// The hot form (gg_cuda_spmv_hot) runs one block of SPW_HOT_WARPS warps per
// SM, persistent: the block stages the hot part of x in shared memory once
// and its warps then take chunks w, w + gridDim.x * SPW_HOT_WARPS, ...
#define SPW_HOT_WARPS 32
#define SPW_HOT_ITEMS 8
#define SPW_HOT_FLAG ((int32_t) 0x80000000)

//------------------------------------------------------------------------------
// variants
//------------------------------------------------------------------------------

enum spmm_sched { SCHED_ROW = 0, SCHED_NNZ, SCHED_MERGE, SCHED_WARP } ;

typedef struct
{
    const char *name ;
    int sched ;
    int param ;         // row: G; nnz: K; merge, warp: I
    int slot ;          // nnz: 1 for slot_kK (FP32 PLUS_TIMES with 16-byte
                        // pieces of X; other cases run nnz_kK)
}
spmm_variant ;

// The (type, OP) pairs spmm_dispatch (spmm.cu) launches: GENERIC for every
// type, and gg_pick_op's fast paths (FP32 PLUS_TIMES / MIN / MAX, FP64
// PLUS_TIMES).  X (T, OP) for each.  Every schedule's file instantiates its
// launcher for these and no others; a pair the dispatch launches but this
// list lacks fails to link.
#define SPMM_TYPE_OPS(X)                                                    \
    X (uint8_t,  GG_OP_GENERIC)                                             \
    X (int32_t,  GG_OP_GENERIC)                                             \
    X (int64_t,  GG_OP_GENERIC)                                             \
    X (uint32_t, GG_OP_GENERIC)                                             \
    X (uint64_t, GG_OP_GENERIC)                                             \
    X (float,    GG_OP_GENERIC)                                             \
    X (double,   GG_OP_GENERIC)                                             \
    X (float,    GG_OP_PLUS_TIMES)                                          \
    X (float,    GG_OP_MIN)                                                 \
    X (float,    GG_OP_MAX)                                                 \
    X (double,   GG_OP_PLUS_TIMES)

//------------------------------------------------------------------------------
// the schedules' launchers (each in its own file, instantiated there)
//------------------------------------------------------------------------------

// row_gG and nnz_kK, VEC = 4, 2, 1 (spmm_row_nnz.cu)
template <typename T, int VEC, int OP>
SPMM_PRIVATE int spmm_launch_vec (const spmm_variant *var, spmm_args<T> a,
    cudaStream_t stream) ;

// slot_kK for FP32 and FP64 PLUS_TIMES, 16 bytes of X per lane (VEC = 4 /
// 2; spmm_row_nnz.cu, instantiated for float and double); plan: the SpMV
// plan with its slot part, or NULL (the slot plan made in the call);
// GG_ERR_UNSUPPORTED when n needs fewer than 4 column lanes (run nnz_kK)
template <typename T>
SPMM_PRIVATE int spmm_launch_slot (const spmm_variant *var, spmm_args<T> a,
    const int32_t *plan, cudaStream_t stream) ;

// merge_iI, I = 4, 8 (spmm_merge.cu)
template <typename T, int OP, int ITEMS>
SPMM_PRIVATE int spmm_launch_merge (spmm_args<T> a, cudaStream_t stream) ;

// warp_tI, I = 8, and its hot form (spmv_warp.cu)
template <typename T, int OP, int ITEMS>
SPMM_PRIVATE int spmm_launch_spmv_warp (spmm_args<T> a, const int32_t *plan,
    const int32_t *hot, int64_t nhot, cudaStream_t stream) ;

// The hot form's stage: what the block's shared memory holds next to the
// warps' buffers, in values of ts bytes (spmv_warp.cu)
SPMM_PRIVATE int64_t spw_hot_max (int ts) ;

//------------------------------------------------------------------------------
// the launchers' common part (spmm.cu), also for kernels/spmv_hot/
//------------------------------------------------------------------------------

// The semiring in canonical form, and whether the shapes and arrays are
// ones the kernels take
SPMM_PRIVATE bool spmm_check (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t n, int64_t nnz, const void *x, const void *X, gg_canon *cs) ;

// The variant of that name (without "/generic"), NULL if none
SPMM_PRIVATE const spmm_variant *spmm_variant_named (const char *name) ;

// Launch variant var for a call spmm_check accepted (m, n, nnz > 0): the
// type and fast-path dispatch (fast == false: GENERIC only); hot / nhot:
// the hot form (warp_t8 only; NULL, 0 otherwise); row_out: where each row
// of S goes in Y (NULL: row r to row r; row_gG, nnz_kK, slot_kK only, the others
// answer GG_ERR_UNSUPPORTED)
SPMM_PRIVATE int spmm_run (const gg_semiring *sr, const gg_canon *cs,
    const spmm_variant *var, bool fast, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *X, void *Y, const int32_t *plan, const int32_t *hot,
    int64_t nhot, cudaStream_t stream, const int32_t *row_out = NULL,
    int64_t max_row = -1) ;

#endif
