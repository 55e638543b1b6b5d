//------------------------------------------------------------------------------
// kernels/gg_cuda.h: C-callable launchers of grbgpu's own CUDA kernels
//------------------------------------------------------------------------------

// These launch on device pointers and never copy to or from the host or
// synchronise: backend/cuda/ owns memory, copies, streams and errors.  The
// one exception to "never allocate": SpMM's merge and warp variants take a
// small stream-ordered scratch (merge: about 12 bytes per 2048 nonzeros and
// column; warp: 8 bytes per 256 nonzeros, plus 4 per 256 when no plan
// is given) from the kernels' own memory pool and free it in stream order
// (GG_ERR_DEVMEM if that fails).
// Semantics are those of kernels/gg_kernels.h (canonical sparse-on-the-left
// products, values already in the semiring type, NULL value arrays never
// read, row-major dense operands).  Indices are 32-bit.
//
// Every launcher returns 0 (launched) or a GG_ERR_* code (nothing launched:
// GG_ERR_UNSUPPORTED for a case it has no kernel for, GG_ERR_DEVICE for a
// launch error as reported by cudaGetLastError).

#ifndef GG_CUDA_H
#define GG_CUDA_H

#include <cuda_runtime_api.h>
#include "kernels/gg_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

// Y (m x n) = S (m x k, CSR p/i/x) (+.*) X (k x n).  Rows of S without entries
// are left unwritten.  x == NULL: S's values are never read; iso: x [0] is the
// value of every entry.  X == NULL: X's values are never read.
// kernel: NULL or "" = the chooser's pick; else a variant name (for tests and
// benchmarks; unknown names return GG_ERR_UNSUPPORTED).
int gg_cuda_spmm (const gg_semiring *sr, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *X, void *Y, const char *kernel, cudaStream_t stream) ;

// The same with S's rows permuted in Y: row r of S X is written to row
// row_out [r] of Y (row_out: m distinct rows, on the device; NULL:
// GG_ERR_UNSUPPORTED), rows without entries left unwritten as above.  So S
// may be held with its rows reordered (reorder/) and Y come out in the
// original order, without a pass over Y.  The row, nnz and slot schedules
// only (kernel: one of those, or NULL / "" for the chooser's pick among the
// row and nnz ones);
// every semiring and type gg_cuda_spmm takes.
int gg_cuda_spmm_rows (const gg_semiring *sr, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *X, void *Y, const int32_t *row_out, const char *kernel,
    cudaStream_t stream) ;

// gg_cuda_spmm_rows with S's SpMV plan kept and its longest row, as
// gg_cuda_spmm_plan below takes them (the plan and max_row are those of the
// CSR given, i.e. of the permuted S): the slot_kK schedules then run without
// making the plan in the call (kernel NULL or "": gg_cuda_spmm_choose_rows).
int gg_cuda_spmm_plan_rows (const gg_semiring *sr, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *X, void *Y, const void *plan, int64_t max_row,
    const int32_t *row_out, const char *kernel, cudaStream_t stream) ;

// S's rows ordered by length, longest first (equal lengths in S's order,
// empty rows last), made on the device (kernels/spmm/spmm_rows_order.cu: a
// stable radix sort of the lengths, a scan, a copy of the entries): the
// form's CSR (p, i, and x when S's values x are given, elem bytes each: 1,
// 2, 4 or 8), its SpMV plan (for gg_cuda_spmm_plan_rows) and perm, row q of
// the form being row perm [q] of S, which is the row_out of
// gg_cuda_spmm_rows for a product in S's row order.  One
// device allocation (buf, bytes), stream-ordered on `stream`; freed with
// gg_cuda_rows_form_free.  m, nnz < 2^31.  On R-MAT the nnz-split schedules
// run 1.1-1.7x faster on this order (bench/NOTES.md); on other graphs
// slower: chosen by measurement only.
typedef struct
{
    int64_t m, nnz ;
    int32_t *p, *i ;            // the form's CSR (device)
    void *x ;                   // its values, or NULL
    int32_t *perm ;             // row q of the form is row perm [q] of S
    void *plan ;                // the form's SpMV plan (gg_cuda_spmv_plan_build)
    void *buf ;                 // the one allocation holding all of them
    size_t bytes ;
}
gg_rows_form ;
int gg_cuda_rows_by_length (int64_t m, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, size_t elem, gg_rows_form *out,
    cudaStream_t stream) ;
void gg_cuda_rows_form_free (gg_rows_form *f, cudaStream_t stream) ;

// The same, with the SpMV plan of S (below) made once for S's pattern and
// kept with it (plan == NULL: the warp_tI and slot_kK variants make it in
// their scratch for this call, one pass over p: ~5 us on 4M rows; other
// variants ignore it), and S's longest row where the caller keeps it
// (max_row; -1 or 0: not known): slot_kK skips its first kernel where no
// row is longer than a slot.  A max_row below the true one (other than 0)
// gives wrong results.
int gg_cuda_spmm_plan (const gg_semiring *sr, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *X, void *Y, const void *plan, int64_t max_row,
    const char *kernel, cudaStream_t stream) ;

// The SpMV plan of a CSR pattern (m rows, nnz entries, row pointers p on the
// device): the row holding every 256th entry, plus the row of the last entry,
// as int32 (gg_cuda_spmv_plan_bytes (nnz) bytes of device memory, which the
// caller allocates and owns).  gg_cuda_spmv_plan_build writes it with one
// kernel on `stream` (no allocation, no synchronisation); it depends on p and
// nnz only (not on values, semiring or X), so it stays valid as long as the
// pattern does.  Returns GG_OK or GG_ERR_* as the launchers above.
size_t gg_cuda_spmv_plan_bytes (int64_t nnz) ;
int gg_cuda_spmv_plan_build (int64_t m, int64_t nnz, const int32_t *p,
    void *plan, cudaStream_t stream) ;

// Hot/cold SpMV (issue #5): the K columns of S with the most entries are
// served from shared memory, the others gathered as usual (on a power-law
// matrix, most x gathers then leave the L2, whose request rate bounds SpMV).
// gg_cuda_spmv_hot_max (type_size): the most hot columns the kernel can stage
// for values of type_size bytes on the current device (~49K for 4 bytes,
// ~20K for 8 on an H200; 0 for other sizes).
// gg_cuda_spmv_hot_build: the hot form of S's pattern (k columns, nnz
// entries, column indices i; p is not read): hot (kmax int32, device) = the
// columns of degree >= t in ascending order, t the smallest degree (>= 1)
// leaving at most kmax of them; ih (nnz int32, device) = i with a hot
// column's index replaced by (its position in hot) | 0x80000000; *K (host) =
// the number of hot columns (0: ih = i, the hybrid has nothing to gain);
// *hot_nnz (host, if not NULL) = the entries in them (the hybrid measured
// faster than warp_t8 from ~55 % of nnz, bench/NOTES.md).
// Scratch from the kernels' pool (4 bytes per column + 256 KB); it
// synchronises `stream` once (the degree histogram is read on the host): the
// one launcher that does.  Depends on the pattern only.
// gg_cuda_spmv_hot: Y (m) = S (+.*) X for n == 1 with S's column indices
// given in the hot form (ih, hot, K from the build; K <= gg_cuda_spmv_hot_max
// of the type, else GG_ERR_UNSUPPORTED), otherwise the contract of
// gg_cuda_spmm_plan with n = 1 and warp_t8's schedule (any semiring and type;
// plan may be NULL).  Use it where gg_cuda_spmv_hot_wins says it pays.
size_t gg_cuda_spmv_hot_max (int type_size) ;
int gg_cuda_spmv_hot_build (int64_t m, int64_t k, int64_t nnz,
    const int32_t *p, const int32_t *i, int64_t kmax, int32_t *hot,
    int32_t *ih, int64_t *K, int64_t *hot_nnz, cudaStream_t stream) ;
int gg_cuda_spmv_hot (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *ih, const void *x, bool iso,
    const void *X, void *Y, const void *plan, const int32_t *hot, int64_t K,
    cudaStream_t stream) ;

// Band SpMV (issue #5; kernels/spmv_band/): the columns ranked by their
// number of entries and cut into bands of W (what one block's shared memory
// holds of x); each band a compact CSR with 16-bit column slots, served from
// shared memory band after band; the columns after the last band ("cold")
// are gathered from global memory.
// Values of 4 bytes only (FP32, INT32, UINT32): gg_cuda_spmv_band_width
// (type_size) is W on the current device for them, 0 for other sizes (the
// build then answers GG_ERR_UNSUPPORTED).
// gg_cuda_spmv_band_build: the form of S (m x k CSR p/i on the device, nnz
// entries, values x of type_size bytes, or NULL to keep none: pattern-only
// multiplies, or iso values passed at each call).  Bands are kept, in rank
// order, while one holds at least min_nnz entries (min_nnz < 0: the
// measured rule, W: its columns hold one entry each on average), at most
// GG_SPMV_BAND_MAX; width > 0 narrows W (tests).  m < 2^27.
// *form = NULL (and GG_OK) when no band is kept.  Scratch ~36
// bytes per entry from the default pool during the build; it synchronises
// `stream` (three times).  The form owns one device allocation of
// gg_spmv_band_info's `bytes`; gg_cuda_spmv_band_free releases it (stream
// ordered; device = false: only the host struct, for a form whose device
// memory went with its context) and the host struct.
// gg_cuda_spmv_band: Y (m) = S (+.*) X for n == 1 through the form: any
// semiring whose multiply reads x, for the type size the form was built
// for (else GG_ERR_UNSUPPORTED, as when the multiply reads S's values and the
// form kept none).  x: S's values as for gg_cuda_spmm (read when iso).  Every
// row of Y is written: rows without entries hold the kernels' start value
// (the monoid's identity, but -0 for FP PLUS and NaN for FP MIN / MAX).
#define GG_SPMV_BAND_MAX 30
typedef struct gg_spmv_band_form gg_spmv_band_form ;
typedef struct
{
    int nbands ;                // bands served from shared memory
    int64_t width ;             // columns per band
    int64_t band_nnz ;          // entries in the bands (the rest are cold)
    int64_t nnz [GG_SPMV_BAND_MAX + 1], rows [GG_SPMV_BAND_MAX + 1] ;
                                // per band, then the cold part [nbands]
    size_t bytes ;              // the form's device memory
}
gg_spmv_band_info ;
size_t gg_cuda_spmv_band_width (int type_size) ;
int gg_cuda_spmv_band_build (int64_t m, int64_t k, int64_t nnz,
    const int32_t *p, const int32_t *i, const void *x, int type_size,
    int64_t width, int64_t min_nnz, gg_spmv_band_form **form,
    cudaStream_t stream) ;
void gg_cuda_spmv_band_info (const gg_spmv_band_form *f, gg_spmv_band_info *info) ;
void gg_cuda_spmv_band_free (gg_spmv_band_form *f, bool device,
    cudaStream_t stream) ;
int gg_cuda_spmv_band (const gg_semiring *sr, const gg_spmv_band_form *f,
    const void *x, bool iso, const void *X, void *Y, cudaStream_t stream) ;

// y [q] for every entry q of M (m x n CSR pattern p/i, nnz entries):
// (+) over t < k of mul (A (i,t), B (j,t)); A: m x k, B: n x k row-major.
// ri: the row of each entry (gg_cuda_sddmm_rows), or NULL (each warp then
// searches p for the rows of its entries).
int gg_cuda_sddmm (const gg_semiring *sr, int64_t m, int64_t n, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *i, const int32_t *ri,
    const void *A, const void *B, void *y, const char *kernel, cudaStream_t stream) ;
// The same with entry q's result stored to y [opos [q]] (opos: device, nnz
// positions, or NULL: y [q]); the tensor-core SDDMM's remainder, a CSR of
// some of a mask's entries, stores to the mask's positions this way.
int gg_cuda_sddmm_at (const gg_semiring *sr, int64_t m, int64_t n, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *i, const int32_t *ri,
    const void *A, const void *B, void *y, const int32_t *opos,
    const char *kernel, cudaStream_t stream) ;
// ri [q] = the row of entry q of the CSR pattern p (nnz entries).
int gg_cuda_sddmm_rows (int64_t m, int64_t nnz, const int32_t *p, int32_t *ri,
    cudaStream_t stream) ;

// Y (m x n, row-major) = A (m x k) (+.*) B' with B: n x k row-major.
int gg_cuda_gemm (const gg_semiring *sr, int64_t m, int64_t n, int64_t k,
    const void *A, const void *B, void *Y, cudaStream_t stream) ;

// w (k) = A' (+.*) u from A's own CSR (m x k, p/i/x), one monoid atomic per
// entry ("push"; kernels/spmv_push/).  w is filled with the kernels' start
// value first (the monoid's identity, but -0 for FP PLUS and NaN for FP MIN /
// MAX: neutral for non-finite terms too), which a column of A without
// entries keeps.
// Measured against the pull on a transposed CSR in bench/spmm_bench (vxm).
int gg_cuda_spmv_push (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *u, void *w, cudaStream_t stream) ;

// Whether any of the n values of type t at x (device) is special: an
// infinity, a NaN or a subnormal.  *flag (a device int) = 1 if so, else 0
// (integer and BOOL types: always 0, nothing launched but the clear; x must
// be 16-byte aligned, else GG_ERR_UNSUPPORTED).  backend/cuda/vendor.c hands
// cuSPARSE and cuBLAS only values without them (their padding and
// substituted values, 0 * INF, are not exact on non-finite values, and they
// do not document keeping subnormals); the own kernels take every value.
// Stream ordered, no synchronisation.
int gg_cuda_special_values (gg_type t, const void *x, int64_t n, int *flag,
    cudaStream_t stream) ;

// Dense vector operations (kernels/vec_ops/): a (kernels/gg_kernels.h) with
// z, x, y device pointers and present a device array (or NULL); and the
// reduction of x [0..n) (n > 0; present: a device array, only the i with
// present [i], or NULL: all) into *result_dev, with scratch of
// gg_cuda_vec_reduce_scratch (t) device bytes.  FP32 / FP64 only
// (GG_ERR_UNSUPPORTED otherwise).  Stream ordered, no synchronisation.
int gg_cuda_vec_op (const gg_vec_args *a, const int8_t *present,
    cudaStream_t stream) ;
size_t gg_cuda_vec_reduce_scratch (gg_type t) ;
int gg_cuda_vec_gather (gg_type t, const void *x, const int64_t *idx,
    int64_t nidx, void *out, cudaStream_t stream) ;
int gg_cuda_vec_reduce (gg_add add, gg_type t, const void *x, int64_t n,
    const int8_t *present, void *scratch, void *result_dev, cudaStream_t stream) ;
// z [i] = pb [i] ? x [i] : 0, zb [i] = pb [i] (a resident vector on a pattern)
int gg_cuda_vec_select (gg_type t, int64_t n, void *z, int8_t *zb,
    const void *x, const int8_t *pb, cudaStream_t stream) ;
// a resident matrix on a pattern (CSR p, 32-bit, m rows; device memory):
// out [i] = the monoid over row i's values (from its identity), and
// z [q] = op (d [i], x [q]) (d_first) or op (x [q], d [i]) for row i's q
int gg_cuda_csr_row_reduce (gg_add add, gg_type t, int64_t m, const int32_t *p,
    const void *x, void *out, cudaStream_t stream) ;
int gg_cuda_csr_row_op (gg_vop op, gg_type t, int64_t m, const int32_t *p,
    void *z, const void *x, const void *d, bool d_first, cudaStream_t stream) ;
// dst (cols x rows, row-major) = src' (rows x cols, row-major), 4- or 8-byte
// values copied exactly (a GEMM operand held in the other layout)
int gg_cuda_transpose (void *dst, const void *src, int64_t rows, int64_t cols,
    size_t elem, cudaStream_t stream) ;

// The names of the SpMM variants, NULL-terminated (for tests and benchmarks).
const char *const *gg_cuda_spmm_variants (void) ;

// The SpMM variant the chooser picks for S (m rows, nnz entries, longest row
// max_row entries; max_row < 0: unknown) times n dense columns.  kernel ==
// NULL in gg_cuda_spmm calls this with max_row = -1, which cannot see skew:
// a caller that knows the longest row (it is cheap to keep with a converted
// CSR) should pass this function's answer as `kernel`.
const char *gg_cuda_spmm_choose (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row) ;

// The same for a caller that keeps the SpMV plan of S and passes it to
// gg_cuda_spmm_plan: where the chooser takes a merge_iI SpMV (its plan-free
// form for small skewed matrices), warp_t8 instead.
const char *gg_cuda_spmm_choose_plan (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row) ;

// The same for FP32 and FP64 PLUS_TIMES (plus, times, float or double) with
// the plan kept: slot_k32 / slot_k64 where they measured faster than the
// pick above (32 <= n < 64 on skewed rows, every matrix from n = 64; fitted
// to FP32, bench/NOTES.md, 2026-11-29, sixth and seventh sessions; on FP64
// 0.946 -> 1.07x and 0.885 -> 1.206x cuSPARSE's best at n = 32 / 128, tenth
// session).  For other semirings and types the slot variants run nnz_k32 /
// nnz_k64, which were not measured: use gg_cuda_spmm_choose_plan for them.
const char *gg_cuda_spmm_choose_plan_fp32 (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row) ;

// The same among the schedules with a permuted store (gg_cuda_spmm_rows:
// the row and nnz ones): where the chooser takes an SpMV schedule (n = 1),
// its pick for n = 2.
const char *gg_cuda_spmm_choose_rows (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row) ;

// And for FP32 and FP64 PLUS_TIMES with the plan kept: gg_cuda_spmm_choose_plan_fp32's
// pick where it takes a permuted store (slot_kK does), else the above.
const char *gg_cuda_spmm_choose_rows_plan_fp32 (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row) ;

// Hand the memory the kernels' scratch pool keeps (kernels/gg_device.cu)
// back to the current device: the backend's retry after a failed call does,
// with the default pool's.
void gg_cuda_pool_trim (void) ;

#ifdef __cplusplus
}
#endif
#endif
