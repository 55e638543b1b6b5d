//------------------------------------------------------------------------------
// backend/host/host_backend.c: the host emulation backend, in plain C
//------------------------------------------------------------------------------

// grbgpu_host_backend implements the launcher contract of kernels/gg_kernels.h
// in plain C, for every supported semiring: monoid PLUS, TIMES, MIN, MAX, ANY
// (and LOR, LAND for BOOL) times multiply TIMES, FIRST, SECOND, PAIR, PLUS,
// MIN, MAX, LAND, LOR, over BOOL, INT32, INT64, UINT32, UINT64, FP32, FP64.
// It is what GRBGPU_DEVICE=host runs, how CI exercises the whole offload path
// without a GPU, and the reference GPU results are checked against, so it
// computes what SuiteSparse:GraphBLAS computes: integers wrap modulo 2^bits,
// FP MIN/MAX are fmin/fmax, BOOL PLUS/MAX are LOR and TIMES/MIN are LAND, and
// each sum takes its terms in index order starting from the first term.
//
// Structure: backend/host/host_kernels.h, included once per type, gives row
// kernels that take (add, mul) as arguments; below, one small function per
// (type, add, mul) calls them with constants, so every semiring has its own
// inner loop with no switch in it.  A table indexed by (type, add, mul) holds
// them; one driver runs any of them over row ranges with OpenMP.

#if defined (__GNUC__) && !defined (__clang__)
// The inner loops must be vectorised, and gcc's default -O2 vectorises only
// loops whose trip count is a known multiple of the vector width.
#pragma GCC optimize ("O3")
#endif

#include "backend/grbgpu_internal.h"
#include "formats/partition.h"
#include "backend/team.h"
#include "formats/convert.h"
#include "backend/host/host_vec_ops.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define HOST_INLINE inline __attribute__ ((always_inline))
#define HOST_CAT2(a, b) a ## _ ## b
#define HOST_CAT(a, b) HOST_CAT2 (a, b)

#define HOST_KIND_BOOL 0
#define HOST_KIND_INT  1
#define HOST_KIND_FP   2

// Block sizes: a slice of a row of Y that stays in L1 (SpMM), the number of
// mask entries whose dot products are interleaved (SDDMM), and the block of
// Y that GEMM accumulates into while a slice of B' is reused across rows.
#define HOST_SPMM_COLS   512
#define HOST_SDDMM_LANES 4
#define HOST_GEMM_ROWS   8
#define HOST_GEMM_COLS   256

// Below this many multiply-adds an operation runs on one thread.
#define HOST_PARALLEL_WORK 65536.0

// What a row kernel needs; the fields an operation does not use are NULL.
typedef struct
{
    const gg_csr *S ;       // spmm: S; sddmm: the pattern M
    const gg_dense *X ;     // spmm: X
    const gg_dense *A ;     // sddmm, gemm: A (m x k)
    const gg_dense *B ;     // sddmm, gemm: B (n x k)
    const void *Bt ;        // gemm: B' (k x n), or NULL when B is not read
    void *Y ;               // the output
}
host_args ;

// A row kernel: rows i0 to i1-1 of S (spmm), M (sddmm) or A (gemm).
typedef void (*host_rows_fn) (const host_args *a, int64_t i0, int64_t i1) ;

// Which operands a multiply reads (the others may be NULL: never touch them).
static inline bool host_mul_reads_s (gg_mul mul)
{
    return mul != GG_MUL_SECOND && mul != GG_MUL_PAIR ;
}

static inline bool host_mul_reads_x (gg_mul mul)
{
    return mul != GG_MUL_FIRST && mul != GG_MUL_PAIR ;
}

//------------------------------------------------------------------------------
// the row kernels of each type
//------------------------------------------------------------------------------

#define GG_TN BOOL
#define GG_T uint8_t
#define GG_U uint8_t
#define GG_KIND HOST_KIND_BOOL
#define GG_TMIN 0
#define GG_TMAX 1
#include "backend/host/host_kernels.h"

#define GG_TN INT32
#define GG_T int32_t
#define GG_U uint32_t
#define GG_KIND HOST_KIND_INT
#define GG_TMIN INT32_MIN
#define GG_TMAX INT32_MAX
#include "backend/host/host_kernels.h"

#define GG_TN INT64
#define GG_T int64_t
#define GG_U uint64_t
#define GG_KIND HOST_KIND_INT
#define GG_TMIN INT64_MIN
#define GG_TMAX INT64_MAX
#include "backend/host/host_kernels.h"

#define GG_TN UINT32
#define GG_T uint32_t
#define GG_U uint32_t
#define GG_KIND HOST_KIND_INT
#define GG_TMIN 0
#define GG_TMAX UINT32_MAX
#include "backend/host/host_kernels.h"

#define GG_TN UINT64
#define GG_T uint64_t
#define GG_U uint64_t
#define GG_KIND HOST_KIND_INT
#define GG_TMIN 0
#define GG_TMAX UINT64_MAX
#include "backend/host/host_kernels.h"

#define GG_TN FP32
#define GG_T float
#define GG_U float
#define GG_KIND HOST_KIND_FP
#define GG_TMIN (-INFINITY)
#define GG_TMAX INFINITY
#define GG_FMIN fminf
#define GG_FMAX fmaxf
#include "backend/host/host_kernels.h"

#define GG_TN FP64
#define GG_T double
#define GG_U double
#define GG_KIND HOST_KIND_FP
#define GG_TMIN (-INFINITY)
#define GG_TMAX INFINITY
#define GG_FMIN fmin
#define GG_FMAX fmax
#include "backend/host/host_kernels.h"

//------------------------------------------------------------------------------
// one function per (type, add, mul): the kernels with constant (add, mul)
//------------------------------------------------------------------------------

// X (TN, ADD, MUL) for every multiply, for every semiring of a type.  BOOL
// lists only LOR, LAND and ANY and the multiplies that differ on 0/1 values:
// host_canonical maps the others onto them, as GraphBLAS does.
#define HOST_MULS(X, TN, ADD) \
    X (TN, ADD, TIMES) X (TN, ADD, FIRST) X (TN, ADD, SECOND) \
    X (TN, ADD, PAIR) X (TN, ADD, PLUS) X (TN, ADD, MIN) X (TN, ADD, MAX) \
    X (TN, ADD, LAND) X (TN, ADD, LOR)
#define HOST_SEMIRINGS(X, TN) \
    HOST_MULS (X, TN, PLUS) HOST_MULS (X, TN, TIMES) HOST_MULS (X, TN, MIN) \
    HOST_MULS (X, TN, MAX) HOST_MULS (X, TN, ANY)
#define HOST_BOOL_MULS(X, ADD) \
    X (BOOL, ADD, FIRST) X (BOOL, ADD, SECOND) X (BOOL, ADD, PAIR) \
    X (BOOL, ADD, LAND) X (BOOL, ADD, LOR)
#define HOST_ALL_SEMIRINGS(X) \
    HOST_BOOL_MULS (X, LOR) HOST_BOOL_MULS (X, LAND) HOST_BOOL_MULS (X, ANY) \
    HOST_SEMIRINGS (X, INT32) HOST_SEMIRINGS (X, INT64) \
    HOST_SEMIRINGS (X, UINT32) HOST_SEMIRINGS (X, UINT64) \
    HOST_SEMIRINGS (X, FP32) HOST_SEMIRINGS (X, FP64)

#define HOST_NAME(op, TN, ADD, MUL) host_ ## op ## _ ## TN ## _ ## ADD ## _ ## MUL

#define HOST_DEFINE(TN, ADD, MUL) \
    static void HOST_NAME (spmm, TN, ADD, MUL) (const host_args *a, \
        int64_t i0, int64_t i1) \
    { \
        if (a->S->p64 != NULL) \
            host_spmm_rows_ ## TN (GG_ADD_ ## ADD, GG_MUL_ ## MUL, true, a, i0, i1) ; \
        else \
            host_spmm_rows_ ## TN (GG_ADD_ ## ADD, GG_MUL_ ## MUL, false, a, i0, i1) ; \
    } \
    static void HOST_NAME (sddmm, TN, ADD, MUL) (const host_args *a, \
        int64_t i0, int64_t i1) \
    { \
        if (a->S->p64 != NULL) \
            host_sddmm_rows_ ## TN (GG_ADD_ ## ADD, GG_MUL_ ## MUL, true, a, i0, i1) ; \
        else \
            host_sddmm_rows_ ## TN (GG_ADD_ ## ADD, GG_MUL_ ## MUL, false, a, i0, i1) ; \
    } \
    static void HOST_NAME (gemm, TN, ADD, MUL) (const host_args *a, \
        int64_t i0, int64_t i1) \
    { \
        host_gemm_rows_ ## TN (GG_ADD_ ## ADD, GG_MUL_ ## MUL, a, i0, i1) ; \
    }

HOST_ALL_SEMIRINGS (HOST_DEFINE)

typedef struct
{
    host_rows_fn spmm, sddmm, gemm ;
}
host_kernels ;

#define HOST_ENTRY(TN, ADD, MUL) \
    [GG_ ## TN][GG_ADD_ ## ADD][GG_MUL_ ## MUL] = { \
        HOST_NAME (spmm, TN, ADD, MUL), HOST_NAME (sddmm, TN, ADD, MUL), \
        HOST_NAME (gemm, TN, ADD, MUL) },

// NULL entries: semirings outside the supported set.
static const host_kernels host_table [GG_NTYPES][GG_NADD][GG_NMUL] =
{
    HOST_ALL_SEMIRINGS (HOST_ENTRY)
} ;

//------------------------------------------------------------------------------
// host_lookup: the kernels of a semiring, or NULL when it is not supported
//------------------------------------------------------------------------------

// For BOOL, GraphBLAS's PLUS and MAX are LOR, TIMES and MIN are LAND, both as
// monoids and as multiplies; the table holds only the LOR / LAND forms.
static const host_kernels *host_lookup (const gg_semiring *sr)
{
    if (sr == NULL) return NULL ;
    gg_add add = sr->add ;
    gg_mul mul = sr->mul ;
    gg_type type = sr->type ;
    if ((unsigned) type >= GG_NTYPES || (unsigned) add >= GG_NADD
        || (unsigned) mul >= GG_NMUL)
    {
        return NULL ;
    }
    if (type == GG_BOOL)
    {
        if (add == GG_ADD_PLUS || add == GG_ADD_MAX) add = GG_ADD_LOR ;
        if (add == GG_ADD_TIMES || add == GG_ADD_MIN) add = GG_ADD_LAND ;
        if (mul == GG_MUL_PLUS || mul == GG_MUL_MAX) mul = GG_MUL_LOR ;
        if (mul == GG_MUL_TIMES || mul == GG_MUL_MIN) mul = GG_MUL_LAND ;
    }
    const host_kernels *k = &host_table [type][add][mul] ;
    return (k->spmm == NULL) ? NULL : k ;
}

//------------------------------------------------------------------------------
// host_run_rows: fn over rows 0 to nrows-1, in parallel when worth it
//------------------------------------------------------------------------------

// Rows go out in chunks, dynamically (row lengths vary a lot in graphs): about
// 32 chunks per thread, so that one long row costs little imbalance.
static void host_run_rows (host_rows_fn fn, const host_args *a, int64_t nrows,
    double work)
{
    if (nrows <= 0) return ;
    int nthreads = 1 ;
#ifdef _OPENMP
    if (work > HOST_PARALLEL_WORK) nthreads = omp_get_max_threads () ;
#else
    (void) work ;
#endif
    if (nthreads <= 1)
    {
        fn (a, 0, nrows) ;
        return ;
    }
    const int64_t chunk = (nrows + 32 * (int64_t) nthreads - 1)
        / (32 * (int64_t) nthreads) ;
    const int64_t nchunks = (nrows + chunk - 1) / chunk ;
#ifdef _OPENMP
    #pragma omp parallel for num_threads (nthreads) schedule (dynamic, 1)
#endif
    for (int64_t c = 0 ; c < nchunks ; c++)
    {
        const int64_t i0 = c * chunk ;
        const int64_t i1 = (nrows - i0 < chunk) ? nrows : i0 + chunk ;
        fn (a, i0, i1) ;
    }
}

// True when a CSR operand is complete enough to read.
static bool host_csr_ok (const gg_csr *S)
{
    if (S == NULL || S->nrows < 0 || S->ncols < 0) return false ;
    return (S->p32 != NULL && S->i32 != NULL)
        || (S->p64 != NULL && S->i64 != NULL) ;
}

//------------------------------------------------------------------------------
// the split path of GRBGPU_DEVICES, modelled: row blocks balanced by entries
//------------------------------------------------------------------------------

// What backend/cuda/multi.c does across devices, done here on the CPU so that
// `make check` runs the partition, the block views, the gathering and the
// slots' persistent workers (backend/team.c): the rows of S (SpMM) or of the
// mask M (SDDMM) cut into nslots blocks balanced by entries
// (formats/partition.c), block s computed by worker s on its own view: SpMM
// into its rows of Y; SDDMM from its rows of A and all of B into its range of
// the outputs (M's entries of the block are a contiguous range of M's).  A
// failure on any slot (an injected fault) fails the call, every slot having
// freed what it took.
typedef struct
{
    const host_kernels *k ;
    const gg_semiring *sr ;
    const gg_csr *S ;       // spmm: S; sddmm: M
    const gg_dense *X ;     // read whole by every slot: spmm's X, sddmm's B
    const gg_dense *A ;     // sddmm: A, read by row blocks; spmm: NULL
    void *Y ;
    const int64_t *r ;
    int rc [GG_MAX_SLOTS] ;
}
host_split_job ;

static gg_team host_team = GG_TEAM_INIT ;

static void host_split_slot (void *arg, int s)
{
    host_split_job *j = arg ;
    const int64_t r0 = j->r [s], r1 = j->r [s+1] ;
    j->rc [s] = GG_OK ;
    if (r1 == r0) return ;
    if (grbgpu_fault (GG_FAULT_ALLOC)) { j->rc [s] = GG_ERR_FAULT ; return ; }
    const size_t elem = gg_type_size (j->sr->type) ;
    const size_t pelem = (j->S->p32 != NULL) ? sizeof (int32_t) : sizeof (int64_t) ;
    void *p = malloc ((size_t) (r1 - r0 + 1) * pelem) ;
    if (p == NULL) { j->rc [s] = GG_ERR_NOMEM ; return ; }
    gg_csr B, Sv = *j->S ;
    if (j->A != NULL) Sv.x = NULL ;         // SDDMM reads M's pattern only
    gg_partition_rebase (j->S, r0, r1, p) ;
    gg_partition_view (&Sv, r0, r1, p, elem, &B) ;
    if (j->A == NULL)
    {
        const host_args a = { .S = &B, .X = j->X,
            .Y = (char *) j->Y + (size_t) r0 * (size_t) j->X->ncols * elem } ;
        host_run_rows (j->k->spmm, &a, B.nrows, (double) B.nnz * (double) j->X->ncols) ;
    }
    else
    {
        // rows r0 .. r1-1 of A; the block's outputs from M's entry e0 on
        const int64_t e0 = (j->S->p32 != NULL) ? j->S->p32 [r0] : j->S->p64 [r0] ;
        const int64_t k = j->A->ncols ;
        const gg_dense Ab = { .nrows = r1 - r0, .ncols = k, .x = (j->A->x == NULL) ? NULL
            : (const char *) j->A->x + (size_t) r0 * (size_t) k * elem } ;
        const host_args a = { .S = &B, .A = &Ab, .B = j->X,
            .Y = (char *) j->Y + (size_t) e0 * elem } ;
        host_run_rows (j->k->sddmm, &a, B.nrows, (double) B.nnz * (double) k) ;
    }
    free (p) ;
}

// The split SpMM (A NULL: Y = S * X) or SDDMM (y = (A * X') on S's pattern).
static int host_split (const host_kernels *k, const gg_semiring *sr,
    const gg_csr *S, const gg_dense *A, const gg_dense *X, void *Y, int nslots)
{
    int64_t r [GG_MAX_SLOTS + 1] ;
    gg_partition_rows_w (S, nslots, grbgpu_split_row_weight (A != NULL, X->ncols), r) ;
    host_split_job j = { .k = k, .sr = sr, .S = S, .X = X, .A = A, .Y = Y, .r = r } ;
    int made = gg_team_run (&host_team, nslots, host_split_slot, &j) ;
    if (made > 0) grbgpu_count (GG_STAT_SPLIT_WORKERS, (uint64_t) made) ;
    for (int s = 0 ; s < nslots ; s++) if (j.rc [s] != GG_OK) return j.rc [s] ;
    grbgpu_count (GG_STAT_SPLIT, 1) ;
    grbgpu_log (2, "host: %s split over %d slots (rows %lld | %lld ...)",
        (A == NULL) ? "spmm" : "sddmm", nslots, (long long) r [1],
        (long long) (r [2] - r [1])) ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// host_spmm: Y = S (+.*) X
//------------------------------------------------------------------------------

static int host_spmm_plain (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y, bool may_split) ;

// S given by its transpose's arrays (gg_csr.transposed): transpose them here,
// as the CUDA backend does on the device, then the plain product, on one
// slot as there (backend/cuda/multi.c makes no row blocks of it).  (32-bit
// indices only, as the dispatcher promises; else GG_ERR_UNSUPPORTED, and the
// dispatcher transposes itself.)
static int host_spmm_transposed (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y)
{
    if (S->p32 == NULL || S->i32 == NULL) return GG_ERR_UNSUPPORTED ;
    int32_t *pt, *it ;
    void *xt = NULL ;
    const bool move_x = (S->x != NULL && !S->iso) ;
    int rc = gg_csr32_transpose (S->ncols, S->nrows, S->nnz, S->p32, S->i32,
        move_x ? S->x : NULL, gg_type_size (sr->type), &pt, &it, move_x ? &xt : NULL) ;
    if (rc != GG_OK) return rc ;
    gg_csr T = *S ;
    T.transposed = false ;
    T.p32 = pt ; T.i32 = it ;
    if (move_x) T.x = xt ;
    rc = host_spmm_plain (sr, &T, X, Y, false) ;
    free (pt) ; free (it) ; free (xt) ;
    return rc ;
}

static int host_spmm (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y)
{
    if (S != NULL && S->transposed) return host_spmm_transposed (sr, S, X, Y) ;
    return host_spmm_plain (sr, S, X, Y, true) ;
}

static int host_spmm_plain (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y, bool may_split)
{
    if (grbgpu_fault (GG_FAULT_LAUNCH)) return GG_ERR_FAULT ;

    // check inputs
    const host_kernels *k = host_lookup (sr) ;
    if (k == NULL || !host_csr_ok (S) || X == NULL) return GG_ERR_UNSUPPORTED ;
    if (X->nrows != S->ncols || X->ncols < 0) return GG_ERR_UNSUPPORTED ;
    if (S->nrows == 0 || X->ncols == 0 || S->nnz == 0) return GG_OK ;
    if (Y == NULL) return GG_ERR_UNSUPPORTED ;
    if ((host_mul_reads_s (sr->mul) && S->x == NULL)
        || (host_mul_reads_x (sr->mul) && X->x == NULL))
    {
        return GG_ERR_UNSUPPORTED ;     // a value array the multiply needs
    }

    // GRBGPU_DEVICES with several slots: the split path modelled on the CPU
    const gg_settings *set = grbgpu_settings_get () ;
    if (may_split && set->ndevices > 1) return host_split (k, sr, S, NULL, X, Y, set->ndevices) ;

    // Y (i,:) = (+) over entries (i,c) of S of mul (S (i,c), X (c,:))
    const host_args a = { .S = S, .X = X, .Y = Y } ;
    host_run_rows (k->spmm, &a, S->nrows, (double) S->nnz * (double) X->ncols) ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// host_sddmm: y = (A (+.*) B') at the entries of M
//------------------------------------------------------------------------------

static int host_sddmm (const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    if (grbgpu_fault (GG_FAULT_LAUNCH)) return GG_ERR_FAULT ;

    // check inputs
    const host_kernels *k = host_lookup (sr) ;
    if (k == NULL || !host_csr_ok (M) || A == NULL || B == NULL)
    {
        return GG_ERR_UNSUPPORTED ;
    }
    if (A->nrows != M->nrows || B->nrows != M->ncols || A->ncols != B->ncols
        || A->ncols < 0)
    {
        return GG_ERR_UNSUPPORTED ;
    }
    if (M->nrows == 0 || M->nnz == 0) return GG_OK ;
    if (y == NULL) return GG_ERR_UNSUPPORTED ;
    if (A->ncols > 0 && ((host_mul_reads_s (sr->mul) && A->x == NULL)
        || (host_mul_reads_x (sr->mul) && B->x == NULL)))
    {
        return GG_ERR_UNSUPPORTED ;
    }

    // GRBGPU_DEVICES with several slots: M's rows split, modelled on the CPU
    const gg_settings *set = grbgpu_settings_get () ;
    if (set->ndevices > 1) return host_split (k, sr, M, A, B, y, set->ndevices) ;

    // y [q] = (+) over t of mul (A (i,t), B (j,t)), (i,j) the q-th entry of M
    const host_args a = { .S = M, .A = A, .B = B, .Y = y } ;
    host_run_rows (k->sddmm, &a, M->nrows, (double) M->nnz * (double) A->ncols) ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// host_gemm: Y = A (+.*) B'
//------------------------------------------------------------------------------

// Bt = B' for a k x n... B is n x k row-major; Bt is k x n row-major.
static void host_transpose (void *restrict Bt, const void *restrict B,
    int64_t n, int64_t k, size_t size)
{
    const char *src = B ;
    char *dst = Bt ;
    // in 64 x 64 tiles so that both sides stay in cache
    for (int64_t j0 = 0 ; j0 < n ; j0 += 64)
    {
        const int64_t j1 = (n - j0 < 64) ? n : j0 + 64 ;
        for (int64_t t0 = 0 ; t0 < k ; t0 += 64)
        {
            const int64_t t1 = (k - t0 < 64) ? k : t0 + 64 ;
            for (int64_t j = j0 ; j < j1 ; j++)
            {
                for (int64_t t = t0 ; t < t1 ; t++)
                {
                    memcpy (dst + (t * n + j) * size, src + (j * k + t) * size,
                        size) ;
                }
            }
        }
    }
}

static int host_gemm (const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, void *Y)
{
    if (grbgpu_fault (GG_FAULT_LAUNCH)) return GG_ERR_FAULT ;

    // check inputs
    const host_kernels *kern = host_lookup (sr) ;
    if (kern == NULL || A == NULL || B == NULL) return GG_ERR_UNSUPPORTED ;
    const int64_t m = A->nrows, n = B->nrows, k = A->ncols ;
    if (B->ncols != k || m < 0 || n < 0 || k < 0) return GG_ERR_UNSUPPORTED ;
    if (m == 0 || n == 0) return GG_OK ;
    if (Y == NULL) return GG_ERR_UNSUPPORTED ;
    const bool ra = host_mul_reads_s (sr->mul) && k > 0 ;
    const bool rb = host_mul_reads_x (sr->mul) && k > 0 ;
    if ((ra && A->x == NULL) || (rb && B->x == NULL)) return GG_ERR_UNSUPPORTED ;

    // Bt = B', so that the inner loop runs along rows of Y and of Bt
    void *Bt = NULL ;
    if (rb)
    {
        const size_t size = gg_type_size (sr->type) ;
        if ((uint64_t) n > SIZE_MAX / size / (uint64_t) k) return GG_ERR_NOMEM ;
        Bt = malloc ((size_t) n * (size_t) k * size) ;
        if (Bt == NULL) return GG_ERR_NOMEM ;
        host_transpose (Bt, B->x, n, k, size) ;
    }

    // Y (i,j) = (+) over t of mul (A (i,t), Bt (t,j))
    const host_args a = { .A = A, .B = B, .Bt = Bt, .Y = Y } ;
    host_run_rows (kern->gemm, &a, m, (double) m * (double) n * (double) k) ;
    free (Bt) ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// the backend
//------------------------------------------------------------------------------

// Resident results (backend/resident/): the emulated device memory is host
// memory of grbgpu's own, so a resident X is read in place.
static void *host_res_alloc (size_t bytes)
{
    return malloc (bytes) ;
}

static void host_res_free (void *buf)
{
    free (buf) ;
}

static int host_res_download (void *host, const void *buf, size_t bytes)
{
    memcpy (host, buf, bytes) ;
    return GG_OK ;
}

static int host_spmm_res (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, bool x_res, void *Y)
{
    (void) x_res ;
    return host_spmm (sr, S, X, Y) ;
}

// (the emulated device memory is host memory: an operand held transposed is
// transposed into a copy, as the CUDA backend does on the device)
// X (rows x cols) from a buffer holding X' (cols x rows): a copy (*copy,
// which the caller frees); false: out of memory
static bool untransposed (gg_dense *X, size_t size, void **copy)
{
    *copy = malloc ((size_t) X->nrows * (size_t) X->ncols * size) ;
    if (*copy == NULL) return false ;
    host_transpose (*copy, X->x, X->ncols, X->nrows, size) ;
    X->x = *copy ;
    return true ;
}

static int host_gemm_res (const gg_semiring *sr, const gg_dense *A, bool a_res, bool a_t,
    const gg_dense *B, bool b_res, bool b_t, void *Y)
{
    if (A->nrows == 0 || B->nrows == 0) return GG_ERR_UNSUPPORTED ;
    const size_t size = gg_type_size (sr->type) ;
    gg_dense At = *A, Bt = *B ;
    void *ta = NULL, *tb = NULL ;
    int rc = GG_ERR_NOMEM ;
    if ((!a_res || !a_t || A->x == NULL || untransposed (&At, size, &ta))
        && (!b_res || !b_t || B->x == NULL || untransposed (&Bt, size, &tb)))
    {
        rc = host_gemm (sr, &At, &Bt, Y) ;
    }
    free (ta) ;
    free (tb) ;
    return rc ;
}

GG_INTERNAL const gg_backend grbgpu_host_backend =
{
    .name = "host", .spmm = host_spmm, .sddmm = host_sddmm, .gemm = host_gemm,
    .res_alloc = host_res_alloc, .res_free = host_res_free,
    .res_download = host_res_download, .spmm_res = host_spmm_res,
    .spmm_transposed = true,
    .res_upload = host_res_upload, .vec_op = host_vec_op, .vec_reduce = host_vec_reduce,
    .vec_gather = host_vec_gather, .vec_select = host_vec_select,
    .gemm_res = host_gemm_res, .sddmm_res = host_sddmm,
    .csr_row_reduce = host_csr_row_reduce, .csr_row_op = host_csr_row_op,
    .vec_exp = host_vec_exp
} ;
