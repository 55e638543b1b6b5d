//------------------------------------------------------------------------------
// backend/cuda/cuda_internal.h: what the CUDA module's files share
//------------------------------------------------------------------------------

// The CUDA backend (libgrbgpu-cuda.so, backend/cuda/cuda_module.h) in files by
// concern; all of it is internal to the module:
//   runtime.c   start-up (lazy, per process), the context pool (stream,
//               cuSPARSE / cuBLAS handles, pinned buffers), a call's device
//               temporaries, errors, the retry loop around one product
//   copies.c    uploads / downloads through the pinned staging buffers
//   forms.c     the device-form cache glue (forms.h): forms of operands
//               attached to cache entries, one file per form: form_csr.c (CSR
//               with its plans), form_dense.c, form_band.c and form_hot.c
//               (the staged SpMV forms of a CSR form), form_csrt.c (the
//               transpose of a CSR form, made on the device), form_nm.c (its
//               N:M layout)
//   vendor.c    cuSPARSE plans and products, the vendor libraries' value check
//   choose.c    which family runs a product (GRBGPU_KERNEL, measured rules)
//   spmm.c, dense.c   the products: SpMM / SpMV, SDDMM, GEMM
//   backend.c   the gg_backend table and its entry points
//   multi.c     the split path: SpMM / SpMV / SDDMM by row blocks across the slots
//               of GRBGPU_DEVICES (each slot its contexts on its device)
// Arrows point down: backend.c -> spmm.c / dense.c -> choose.c, vendor.c,
// forms.c -> copies.c -> runtime.c -> kernels/ (kernels/gg_cuda.h).

#ifndef GRBGPU_CUDA_INTERNAL_H
#define GRBGPU_CUDA_INTERNAL_H

#include "config.h"
#include "backend/grbgpu_internal.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cuda_runtime_api.h>
// cusparse.h marks its legacy API deprecated in its own declarations
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>
#include <cublas_v2.h>

#include "backend/cache/cache.h"
#include "backend/cuda/cuda_module.h"
#include "kernels/gg_cuda.h"

//------------------------------------------------------------------------------
// tuning constants
//------------------------------------------------------------------------------

#define GG_CTX_MAX        4                 // contexts (streams) in the pool
#define GG_STAGE_BUFS     4                 // pinned staging buffers per context
#define GG_STAGE_BYTES    ((size_t) 16 << 20)  // each one (one chunk of a copy)
// (bench/xfer_bench on the H200 host, 512 MiB: 2 x 32 MiB staged at 49.8 GB/s
// up and 46.7 down; 4 x 16 MiB at 52.4 up and, with non-temporal stores into
// the destination, 53.7 down; pinned DMA alone 54-55.  Chunks of 8 MiB or
// less lose to the per-chunk event round trip: 4 MiB in 1 MiB chunks came
// down at 6.9 GB/s.)
#define GG_PAR_COPY_MIN   ((size_t) 256 << 10) // host memcpy: bytes per thread
#define GG_BUDGET_FRACTION 0.75             // of free memory, when not set
#define GG_PLANS          4                 // cuSPARSE plans kept per form
#define GG_HOT_MIN_NNZ    ((int64_t) 12 << 20) // hot/cold SpMV from this many
                                            // entries (R-MAT 2^20, 16.1M, 1.2x
                                            // cuSPARSE; smaller not measured)
#define GG_OWN_SPMV_MAX_NNZ ((int64_t) 300000) // own row-split SpMV for
#define GG_OWN_SPMV_MIN_ROWS ((int64_t) 2000)  // small matrices, see
                                               // spmm_use_vendor
#define GG_HOT_MIN_SHARE  0.55              // ... when its hot columns hold at
                                            // least this share of the entries
#define GG_BAND_MIN_SHARE 0.60              // band SpMV (same floor of entries)
                                            // when its bands hold at least
                                            // this share (R-MAT 2^20: 99.7 %,
                                            // 2^22: 99.2 %, 2.2-2.5x cuSPARSE)
#define GG_FORM_MAGIC_CSR   0x67674353u     // "ggCS"
#define GG_FORM_MAGIC_DENSE 0x6767444eu     // "ggDN"

//------------------------------------------------------------------------------
// one execution context, one call
//------------------------------------------------------------------------------

// One execution context: a thread borrows it for the duration of one call.
typedef struct
{
    bool busy ;
    int device ;                        // made on this (logical) device
    cudaStream_t stream ;
    cusparseHandle_t sparse ;
    cublasHandle_t blas ;
    void *stage [GG_STAGE_BUFS] ;       // pinned staging buffers (NULL: not
                                        // yet made)
    cudaEvent_t staged [GG_STAGE_BUFS] ; // last copy through stage [b] done
    cudaEvent_t t0, t1 ;        // around the product (benchmarks only)
}
gg_ctx ;

#define GG_CALL_TMP 8

typedef struct
{
    gg_ctx *ctx ;
    bool timed ;                // t0 / t1 were recorded around the product
    void *tmp [GG_CALL_TMP] ;   // stream-ordered temporaries, freed at the end
    int ntmp ;
    size_t bytes ;              // device bytes this call allocated
}
gg_devcall ;

//------------------------------------------------------------------------------
// checked calls
//------------------------------------------------------------------------------

// Checked calls: on failure set rc and jump to the function's `done` label,
// where everything taken is released.
#define CU_TRY(expr) do { cudaError_t e_ = (expr) ; if (e_ != cudaSuccess) \
    { rc = cuda_fail (e_, #expr, __LINE__) ; goto done ; } } while (0)
#define SP_TRY(expr) do { cusparseStatus_t s_ = (expr) ; \
    if (s_ != CUSPARSE_STATUS_SUCCESS) \
    { rc = sparse_fail (s_, #expr, __LINE__) ; goto done ; } } while (0)
#define BL_TRY(expr) do { cublasStatus_t s_ = (expr) ; \
    if (s_ != CUBLAS_STATUS_SUCCESS) \
    { rc = blas_fail (s_, #expr, __LINE__) ; goto done ; } } while (0)
// A CUDA call whose failure has nothing to undo (frees, teardown): logged.
#define CU_LOG(expr) do { cudaError_t e_ = (expr) ; if (e_ != cudaSuccess) \
    (void) cuda_fail (e_, #expr, __LINE__) ; } while (0)
#define GG_TRY(expr) do { rc = (expr) ; if (rc != GG_OK) goto done ; } while (0)

// An injected fault at point `pt` (GRBGPU_FAULT) fails like the real thing.
#define FAULT_TRY(pt) do { if (grbgpu_fault (pt)) \
    { grbgpu_log (2, "cuda: injected fault at line %d", __LINE__) ; \
      rc = GG_ERR_FAULT ; goto done ; } } while (0)

//------------------------------------------------------------------------------
// device forms of operands (backend/cuda/forms.c)
//------------------------------------------------------------------------------

// A form is reference counted: the cache entry holds one reference while it
// is attached, and each call using it holds one, so an eviction while a call
// runs frees the memory only when that call is done.

typedef enum { PLAN_SPMM, PLAN_SPMV } plan_kind ;

// A cuSPARSE plan for S (descriptor + buffer, preprocessed), reusable for
// products with the same values array, type, N and algorithm.
typedef struct
{
    bool valid ;
    plan_kind kind ;
    const void *vals ;
    gg_type type ;
    int64_t n ;
    int alg ;
    cusparseConstSpMatDescr_t A ;
    void *buf ;
    cudaEvent_t last ;          // the last product that used buf
}
gg_sp_plan ;

// What the chooser measured for one product shape (backend/cuda/choose.c):
// the key says which table (SpMM, SDDMM, GEMM) and which shape.
#define GG_TUNED 8                  // shapes remembered per memory
#define GG_FAM_MAX 16               // rows in a family table, at most
#define GG_TC_FORMS 3               // tensor-core hybrid forms per CSR form
                                    // (thresholds 3, 4; 3 on the reordered S)
typedef enum { GG_TUNE_SPMM, GG_TUNE_SDDMM, GG_TUNE_GEMM } gg_tune_kind ;
typedef struct
{
    int kind ;                      // gg_tune_kind
    int64_t m, n, k ;               // the shape (what the table's memory
                                    // does not already fix)
    int add, mul, type, precision ;
}
gg_tune_key ;
typedef struct
{
    gg_tune_key key ;
    int family ;                    // the winner (index in the table)
    float ms [GG_FAM_MAX] ;         // each family's timed run (< 0: not run)
}
gg_tuned ;
typedef struct
{
    gg_tuned slot [GG_TUNED] ;
    int n, next ;
}
gg_tune_memory ;

// What every device form starts with: kind, references (the cache entry's
// and each call's), the CUDA start-up it belongs to, size, and an event that
// marks the end of its uploads.
typedef struct dev_form dev_form ;
struct dev_form
{
    unsigned magic ;            // GG_FORM_MAGIC_CSR or _DENSE
    _Atomic int refs ;
    unsigned generation ;       // CUDA start-up it belongs to
    int device ;                // the (logical) device its memory is on
    int phys ;                  // the runtime's id of it when made (freed
                                // there, whatever the test hook says later)
    size_t bytes ;
    cudaEvent_t ready ;         // uploads into this form are done
    void (*destroy) (dev_form *) ;
} ;

typedef struct dev_csr dev_csr ;
struct dev_csr
{
    dev_form h ;                // GG_FORM_MAGIC_CSR
    int64_t m, k, nnz ;
    int32_t *p, *i ;
    void *x ;                   // values (iso expanded), or NULL
    gg_type xtype ;
    _Atomic int x_special ;     // x: 0 not yet known, 1 no special values,
                                // 2 some (values_special)
    void *ones ;                // nnz ones of onestype, or NULL
    gg_type onestype ;
    void *spmv_plan ;           // the own SpMV kernels' plan of the pattern
                                // (gg_cuda_spmv_plan_build), or NULL
    // the hot/cold SpMV form (gg_cuda_spmv_hot_build), made at the first SpMV
    // that wants it, under plan_lock: hot_K hot columns (hot), the column
    // indices with hot ones replaced by their slots (ih)
    bool hot_tried ;
    int64_t hot_K ;
    int32_t *hot, *ih ;
    // the band SpMV form (gg_cuda_spmv_band_build), the same way: made with
    // the form's values when it has them (4-byte types only)
    bool band_tried ;
    gg_spmv_band_form *band ;
    pthread_mutex_t plan_lock ;
    gg_sp_plan plan [GG_PLANS] ;
    int next_plan ;
    // the chooser's measurements (backend/cuda/choose.c), under plan_lock:
    // the family that won for each SpMM (N, semiring, type, precision) and
    // SDDMM (K, ...) on this pattern tuned so far
    gg_tune_memory tuned ;
    // the tensor-core family (backend/cuda/family_tc.c), under plan_lock:
    // the hybrid forms of thresholds 3 and 4 (kernels/tc_spmm/tc_layout.h), made at the
    // first product that measures them; x_plain as x_special, for "a finite
    // normal number, FP32 in [2^-51, 2^63]" (gg_tc_values_plain)
    bool tc_tried [GG_TC_FORMS] ;
    struct gg_hybrid_form *tc [GG_TC_FORMS] ;
    int32_t *tc_perm ;          // device: the reordered form's row order
    // the tensor-core SDDMM's form of this pattern as a mask (kernels/
    // tc_sddmm/, row tc3 of the SDDMM table in backend/cuda/dense.c), under
    // plan_lock: made at the first SDDMM that measures the row
    bool tcs_tried ;
    struct gg_tc_sddmm_form *tcs ;
    // S's rows ordered by length (backend/cuda/family_rows.c, row lenr),
    // under plan_lock: made at the first product that measures the row
    bool lenr_tried ;
    gg_rows_form *lenr ;
    _Atomic int x_plain ;
    _Atomic int x_range ;       // as x_plain, for gg_tc_values_range (nmtc)
    // the transposed form (form_csrt.c): the CSR of this form's transpose,
    // built on the device (kernels/csr_transpose) at the first product by
    // the transpose (gg_csr.transposed), a dev_csr of its own with its own
    // plans, staged forms and chooser memory.  Set under plan_lock and the
    // cache entry's lock; this form holds one reference, dropped with it;
    // its bytes count in this form's (form_grow).
    dev_csr *t ;
    // of a transposed form: its longest row and rows with an entry
    // (gg_cuda_csr_row_stats, at its build)
    int64_t max_row, nonempty ;
    // the N:M form (backend/cuda/form_nm.c), under plan_lock: whether S was
    // checked, why not when it is not N:M, the device layout when it is
    bool nm_tried ;
    const char *nm_why ;
    struct gg_nm_dev *nm ;
    // the row of each entry (gg_cuda_sddmm_rows), under plan_lock: made at
    // the first SDDMM with this form as its mask, so that the SDDMM kernels
    // need not search the row pointers (backend/cuda/dense.c)
    bool ri_tried ;
    int32_t *ri ;
} ;

typedef struct
{
    dev_form h ;                // GG_FORM_MAGIC_DENSE
    int64_t nrows, ncols ;
    size_t elem ;
    void *x ;
    _Atomic int x_special ;     // x: 0 not yet known, 1 no special values,
                                // 2 some (values_special)
    _Atomic int x_plain ;       // the same for gg_tc_values_plain
    _Atomic int x_range ;       // and for gg_tc_values_range
}
dev_dense ;

// What a product needs from S's device form.
typedef struct
{
    bool x ;            // S's values, in type t
    bool ones ;         // nnz ones of type t (cuSPARSE SECOND / PAIR)
    gg_type t ;
}
csr_needs ;

// Write the value v (type t) into Y [k].
static inline void put_value (void *Y, size_t k, gg_type t, double v)
{
    if (t == GG_FP32) ((float *) Y) [k] = (float) v ;
    else ((double *) Y) [k] = v ;
}

static inline double get_value (const void *Y, size_t k, gg_type t)
{
    return (t == GG_FP32) ? (double) ((const float *) Y) [k]
        : ((const double *) Y) [k] ;
}

//------------------------------------------------------------------------------
// process-wide state (runtime.c)
//------------------------------------------------------------------------------

GG_INTERNAL extern _Atomic unsigned gg_cuda_generation ;  // bumped by every start-up
GG_INTERNAL extern _Atomic pid_t gg_cuda_started_pid ;  // the process that ran start-up
GG_INTERNAL extern int gg_cuda_dev_id ;
GG_INTERNAL extern cudaStream_t gg_cuda_free_stream ;  // where forms are freed from
GG_INTERNAL extern _Atomic bool gg_cuda_broken ;  // a sticky CUDA error was seen
GG_INTERNAL extern _Thread_local double gg_cuda_last_ms ;

// Devices (runtime.c).  Every device id the module records or sets is a
// logical one: the runtime's id, except under the test hook, which makes ids
// past the real count stand for real devices (gg_cuda_phys).
GG_INTERNAL int gg_cuda_phys (int dev) ;          // the runtime's id of dev
GG_INTERNAL int gg_cuda_device_count (void) ;     // (pretended, under the hook)
GG_INTERNAL int gg_cuda_set_device (int dev) ;    // GG_OK, or the error logged
// the free stream of the runtime's device p (a gg_cuda_phys id), p current
GG_INTERNAL cudaStream_t gg_cuda_free_stream_of (int p) ;
// Tests: pretend there are n devices (0: off); returns the old value.  (Forms
// and slot contexts keep the runtime's id they were made on, so they are
// freed there after the hook is turned off; a later slot on a pretended id
// then fails to start and the product is not split.)
GG_INTERNAL int gg_cuda_fake_devices (int n) ;

// runtime.c
GG_INTERNAL int cuda_fail (cudaError_t e, const char *what, int line) ;
GG_INTERNAL int sparse_fail (cusparseStatus_t s, const char *what, int line) ;
GG_INTERNAL int blas_fail (cublasStatus_t s, const char *what, int line) ;
GG_INTERNAL cudaDataType cuda_type (gg_type t) ;
GG_INTERNAL int ctx_create (gg_ctx *c, int dev) ;  // on dev, made current
GG_INTERNAL void ctx_destroy (gg_ctx *c) ;
GG_INTERNAL int ctx_acquire (gg_ctx **out) ;
GG_INTERNAL void ctx_release (gg_ctx *c) ;
GG_INTERNAL int dev_alloc (gg_devcall *c, void **p, size_t bytes) ;
GG_INTERNAL int tmp_alloc (gg_devcall *c, void **p, size_t bytes) ;
GG_INTERNAL void mark_start (gg_devcall *c) ;
GG_INTERNAL void mark_end (gg_devcall *c) ;
GG_INTERNAL void call_free_tmp (gg_devcall *c) ;
GG_INTERNAL void stream_finish (gg_devcall *c, int *rc) ;

// copies.c
GG_INTERNAL int upload (gg_devcall *c, void *dst, const void *src, size_t bytes) ;
GG_INTERNAL int download (gg_devcall *c, void *dst, const void *src, size_t bytes) ;
GG_INTERNAL int fill_value (gg_devcall *c, void *dst, const void *value, size_t elem,
    size_t count) ;
GG_INTERNAL int fill_one (gg_devcall *c, void *dst, gg_type t, size_t count) ;

// forms.c and form_*.c
GG_INTERNAL void plan_clear (gg_sp_plan *pl, cudaStream_t s) ;
GG_INTERNAL void csr_unref (dev_csr *f) ;
// Free f's tensor-core forms (family_tc.c): their device memory too, on
// stream fs of f's device (made current by the caller), when fs is not NULL
// (the form belongs to this start-up), else the host parts only.
GG_INTERNAL void tc_forms_release (dev_csr *f, cudaStream_t fs) ;
// The same for f's N:M form (form_nm.c).
GG_INTERNAL void nm_form_release (dev_csr *f, cudaStream_t fs) ;
GG_INTERNAL void rows_form_release (dev_csr *f, cudaStream_t fs) ;
// Account `more` bytes of device memory to f and S's cache entry (a form
// made beside f: band, hot/cold, tensor-core).
GG_INTERNAL void form_grow (const gg_csr *S, dev_csr *f, size_t more) ;
GG_INTERNAL void dense_unref (dev_dense *f) ;
// (form_csr.c) the pieces of a CSR form that form_csrt.c makes too: the
// destructor, the own SpMV plan and the ones of type t (each accounted in
// f->h.bytes), and freeing a form that failed half-built, in the call's
// stream order
GG_INTERNAL void csr_form_destroy (dev_form *h) ;
GG_INTERNAL int csr_form_plan (gg_devcall *c, dev_csr *f) ;
GG_INTERNAL int csr_form_ones (gg_devcall *c, dev_csr *f, gg_type t) ;
GG_INTERNAL void csr_form_discard (gg_devcall *c, dev_csr *f) ;
// (form_csrt.c) The device form of S' for an S given by its transpose's
// arrays (gg_csr.transposed): A's own form (csr_get on the arrays, the one
// GrB_mxv finds), and its transpose made on the device and kept with it.
GG_INTERNAL int csrt_get (gg_devcall *c, const gg_csr *S, const csr_needs *nd,
    dev_csr **out) ;
// transposed forms built in this process (tests)
GG_INTERNAL uint64_t gg_csrt_builds (void) ;
GG_INTERNAL int csr_get (gg_devcall *c, const gg_csr *S, const csr_needs *nd,
    dev_csr **out) ;
GG_INTERNAL int dense_get (gg_devcall *c, const gg_dense *X, size_t elem,
    dev_dense **out) ;
// The same attached to cache entry e (NULL: for this call only), made when
// missing by a peer copy from src (complete, on device src_dev) or, src NULL,
// an upload of X (multi.c: X on a slot of another device); copies counted
// in gg_cuda_peer_copies.
GG_INTERNAL int dense_get_from (gg_devcall *c, gg_cache_entry *e, const gg_dense *X,
    size_t elem, const dev_dense *src, int src_dev, dev_dense **out) ;
GG_INTERNAL uint64_t gg_cuda_peer_copies (void) ;
GG_INTERNAL int band_form (gg_devcall *c, const gg_csr *S, dev_csr *f, size_t elem,
    const gg_spmv_band_form **band) ;
GG_INTERNAL int hot_form (gg_devcall *c, const gg_csr *S, dev_csr *f, size_t elem,
    int64_t *K) ;

// vendor.c
GG_INTERNAL int spmm_static_alg (int64_t n, int64_t nnz, gg_type t) ;
GG_INTERNAL int sparse_product (gg_devcall *c, dev_csr *f, const void *vals,
    gg_type t, int64_t n, const void *X, void *Y, int alg_num) ;
// A device check of values: sets *flag (device int) to 1 when one of the
// count values at x is of the kind it looks for (gg_cuda_special_values).
typedef int (*gg_value_check) (gg_type t, const void *x, int64_t count, int *flag,
    cudaStream_t stream) ;
GG_INTERNAL int values_flagged (gg_devcall *c, gg_value_check check, gg_type t,
    const void *x, size_t count, _Atomic int *known, bool *flagged) ;
// the check of the tensor-core rows: a value that is not a finite normal
// number, or an FP32 one outside [2^-51, 2^63] (gg_tc_values_plain;
// backend/cuda/family_tc.c)
GG_INTERNAL int tc_plain_check (gg_type t, const void *x, int64_t count, int *flag,
    cudaStream_t stream) ;
GG_INTERNAL int spmm_vendor_ok (gg_devcall *c, const gg_semiring *sr,
    const gg_csr *S, const gg_dense *X, dev_csr **fs, dev_dense **fx, bool *ok) ;
GG_INTERNAL int dense_vendor_ok (gg_devcall *c, const gg_semiring *sr,
    const gg_dense *A, const gg_dense *B, dev_dense **fa, dev_dense **fb,
    bool *ok) ;

// choose.c
GG_INTERNAL bool kernel_is_vendor (void) ;
GG_INTERNAL const char *own_kernel_name (void) ;
GG_INTERNAL bool use_vendor (const gg_semiring *sr) ;
GG_INTERNAL bool spmv_use_hot (const gg_semiring *sr, const gg_csr *S, int64_t n) ;
GG_INTERNAL bool spmv_use_band (const gg_semiring *sr, const gg_csr *S, int64_t n) ;
GG_INTERNAL const char *spmm_kernel_name (const gg_semiring *sr, const gg_csr *S, int64_t n) ;
// FP32 and FP64 PLUS_TIMES: where the slot schedules run and were measured (choose.c)
GG_INTERNAL bool slot_plus_times (const gg_semiring *sr) ;
GG_INTERNAL bool spmm_use_vendor (const gg_semiring *sr, const gg_csr *S, int64_t n) ;
// the measuring chooser, for every family table (choose.c)
typedef int (*gg_row_run_fn) (void *op, int f) ;
GG_INTERNAL int tune_rows (gg_devcall *c, int nrows, const char **why,
    gg_row_run_fn run, void *op, float *ms, int *winner) ;
GG_INTERNAL int tuned_find (gg_tune_memory *mem, pthread_mutex_t *lock,
    const gg_tune_key *key) ;
GG_INTERNAL void tuned_keep (gg_tune_memory *mem, pthread_mutex_t *lock,
    const gg_tune_key *key, int fam, const float *ms, int nrows) ;
GG_INTERNAL bool tune_wanted (double work) ;
GG_INTERNAL void tune_times (char *line, size_t size, int nrows,
    const char *const *name0, size_t stride, const float *ms) ;

// spmm.c
GG_INTERNAL int spmm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y) ;
// The same with X's device form given (fx, whose reference it takes over;
// NULL: made from X as usual): the split path's peer-copied X.
GG_INTERNAL int spmm_attempt_fx (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, dev_dense *fx, void *Y) ;

// multi.c: the split path (GRBGPU_DEVICES); false when it is not taken (one
// slot), else true with *rc the outcome
GG_INTERNAL bool multi_spmm (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y, int *rc) ;
// The same for SDDMM: M's rows (and A's) by blocks, B on every slot.
GG_INTERNAL bool multi_sddmm (const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y, int *rc) ;
GG_INTERNAL int spmm_attempt_res (gg_devcall *c, const gg_semiring *sr,
    const gg_csr *S, const gg_dense *X, bool x_dev, void *Y, bool y_dev) ;

// form_resident.c: buffers of resident results (backend/resident/)
// Every operation on them runs the same way: the module's device made
// current, a pooled context of it borrowed (res_begin: false when the
// device cannot be entered, nothing to undo; else *rc says whether the
// context was borrowed, and res_end must follow), its work queued on the
// context's stream, then the stream finished, the call's temporaries freed,
// the context given back and the caller's device restored (res_end).
GG_INTERNAL bool res_begin (int *old, gg_devcall *c, int *rc) ;
GG_INTERNAL void res_end (gg_devcall *c, int old, int *rc) ;
GG_INTERNAL void *cuda_res_alloc (size_t bytes) ;
GG_INTERNAL void cuda_res_free (void *buf) ;
GG_INTERNAL int cuda_res_download (void *host, const void *buf, size_t bytes) ;
GG_INTERNAL int cuda_res_upload (void *buf, const void *host, size_t bytes) ;
GG_INTERNAL int cuda_vec_op (const gg_vec_args *a) ;
GG_INTERNAL int cuda_vec_gather (gg_type t, const void *x, const int64_t *idx,
    int64_t nidx, void *out) ;
GG_INTERNAL int cuda_vec_reduce (gg_add add, gg_type t, const void *x, int64_t n,
    const int8_t *present, void *result) ;
GG_INTERNAL int cuda_vec_select (gg_type t, int64_t n, void *z, int8_t *zb,
    const void *x, const int8_t *pb) ;
// row-wise operations on a resident matrix on a pattern (gg_backend)
GG_INTERNAL int cuda_csr_row_reduce (gg_add add, gg_type t, const gg_csr *P,
    const void *x, void *out) ;
GG_INTERNAL int cuda_csr_row_op (gg_vop op, gg_type t, const gg_csr *P, void *z,
    const void *x, const void *d, bool d_first) ;
// form_exp.c: expf on a resident buffer, bit for bit the host's (gg_backend.vec_exp)
GG_INTERNAL int cuda_vec_exp (gg_type t, int64_t n, void *z, const void *x) ;

// dense.c
GG_INTERNAL int sddmm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y) ;
GG_INTERNAL int sddmm_attempt_res (gg_devcall *c, const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y) ;
// The same for a row block of M (the split path's): M's row 0 is A's row
// a_row0 (A whole, its cached form shared), and B's device form given (fb,
// whose reference it takes over; NULL: made from B as usual): a peer copy.
GG_INTERNAL int sddmm_attempt_rows (gg_devcall *c, const gg_semiring *sr,
    const gg_csr *M, const gg_dense *A, int64_t a_row0, const gg_dense *B,
    dev_dense *fb, void *y) ;
// GEMM where Y, and A->x / B->x when a_dev / b_dev, are resident buffers
GG_INTERNAL int gemm_attempt_res (gg_devcall *c, const gg_semiring *sr, const gg_dense *A,
    bool a_dev, bool a_t, const gg_dense *B, bool b_dev, bool b_t, void *Y) ;
GG_INTERNAL int gemm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, void *Y) ;

#endif
