//------------------------------------------------------------------------------
// backend/cuda/dense.c: SDDMM and GEMM through their family tables
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).  SDDMM and GEMM sign the SpMM families' contract (family.h,
// gg_dense_op): each row says whether it supports the product (else a named
// reason), whether the static rule prefers it, and runs it.  One product:
//   1. the family: GRBGPU_KERNEL's (cusparse: the vendor rows; another name:
//      the own kernel), else the one remembered for this shape, else (tuning
//      on, enough work) each supporting row timed (choose.c, tune_rows) and
//      the fastest remembered, else the first row that supports and prefers
//      it (the last row, grbgpu's own kernel, takes everything);
//   2. the outputs come down (spread from row sums on the host for the
//      vendor's FIRST / SECOND / PAIR).
// SDDMM's winner is remembered in M's device form (so per version of M and
// K); GEMM's, whose time depends on the shape only, process-wide.

#include "backend/cuda/family.h"
#include "kernels/tc_sddmm/tc_sddmm.h"

//------------------------------------------------------------------------------
// the rows shared by both tables
//------------------------------------------------------------------------------

// r (rows) = row sums of the row-major rows x k matrix R (device): in cuBLAS's
// column-major view R is k x rows, and r = R_cm' * 1.
static int row_sums (gg_devcall *c, gg_type t, const void *R, int64_t rows,
    int64_t k, void *r, void **kones)
{
    int rc = GG_OK ;
    size_t elem = gg_type_size (t) ;
    if (rows == 0) return GG_OK ;
    if (k == 0)
    {
        CU_TRY (cudaMemsetAsync (r, 0, (size_t) rows * elem, c->ctx->stream)) ;
        return GG_OK ;
    }
    if (*kones == NULL)
    {
        // once per call (the chooser may run the row many times)
        GG_TRY (tmp_alloc (c, kones, (size_t) k * elem)) ;
        GG_TRY (fill_one (c, *kones, t, (size_t) k)) ;
    }
    const void *ones = *kones ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    if (t == GG_FP32)
    {
        float a = 1, b = 0 ;
        BL_TRY (cublasSgemv (c->ctx->blas, CUBLAS_OP_T, (int) k, (int) rows,
            &a, R, (int) k, ones, 1, &b, r, 1)) ;
    }
    else
    {
        double a = 1, b = 0 ;
        BL_TRY (cublasDgemv (c->ctx->blas, CUBLAS_OP_T, (int) k, (int) rows,
            &a, R, (int) k, ones, 1, &b, r, 1)) ;
    }
done:
    return rc ;
}

// The device forms of A and B that the multiply reads.
static int dense_operands (gg_dense_op *o)
{
    int rc = GG_OK ;
    if (o->A->x != NULL && o->fa == NULL) GG_TRY (dense_get (o->c, o->A, o->elem, &o->fa)) ;
    if (o->B->x != NULL && o->fb == NULL) GG_TRY (dense_get (o->c, o->B, o->elem, &o->fb)) ;
done:
    return rc ;
}

// Room for the outputs on the device (once per call).
static int out_alloc (gg_dense_op *o)
{
    if (o->dy != NULL) return GG_OK ;
    return tmp_alloc (o->c, &o->dy, (size_t) (o->nnz > 0 ? o->nnz : 1) * o->elem) ;
}

static const void *dev_a (const gg_dense_op *o)
{
    if (o->fa == NULL || o->A->x == NULL) return NULL ;
    return (const char *) o->fa->x + (size_t) o->a_row0 * (size_t) o->k * o->elem ;
}
static const void *dev_b (const gg_dense_op *o) { return (o->fb != NULL && o->B->x != NULL) ? o->fb->x : NULL ; }

static bool always (const gg_dense_op *o) { (void) o ; return true ; }

// The vendor rows: plus with TIMES / FIRST / SECOND / PAIR over FP32 / FP64,
// no own kernel forced, ordinary values where they read (dense_vendor_ok,
// asked once per call).
static const char *vendor_common (gg_dense_op *o)
{
    if (!use_vendor (o->sr)) return "not plus-times FP32 / FP64, or an own kernel forced" ;
    if (o->vendor_ok == 0)
    {
        bool ok = false ;
        if (dense_vendor_ok (o->c, o->sr, o->A, o->B, &o->fa, &o->fb, &ok) != GG_OK)
        {
            return "its value check failed" ;
        }
        o->vendor_ok = ok ? 1 : -1 ;
    }
    if (o->vendor_ok < 0) return "special values (Inf, NaN, subnormal) where it reads" ;
    return NULL ;
}

// FIRST / SECOND / PAIR through the vendor library: the row sums of the
// operand the multiply reads (A's rows for FIRST, B's for SECOND; each m or n
// sums of k terms) on the device, spread over the outputs on the host; PAIR
// is k everywhere.
static const char *rowsum_supports (gg_dense_op *o)
{
    if (o->sr->mul == GG_MUL_TIMES) return "the multiply reads both operands (TIMES)" ;
    if (o->y_dev) return "its outputs are spread on the host, and this one stays on the device" ;
    return vendor_common (o) ;
}

static int rowsum_run (gg_dense_op *o)
{
    int rc = GG_OK ;
    const gg_semiring *sr = o->sr ;
    if (sr->mul == GG_MUL_PAIR) { o->spread = 3 ; return GG_OK ; }
    const bool first = (sr->mul == GG_MUL_FIRST) ;
    const int64_t len = first ? o->m : o->n ;
    o->spread = first ? 1 : 2 ;
    if (len == 0) return GG_OK ;
    GG_TRY (dense_operands (o)) ;
    if (o->dsums == NULL) GG_TRY (tmp_alloc (o->c, &o->dsums, (size_t) len * o->elem)) ;
    GG_TRY (row_sums (o->c, o->t, first ? dev_a (o) : dev_b (o), len, o->k, o->dsums,
        &o->kones)) ;
done:
    return rc ;
}

// grbgpu's own kernels (kernels/sddmm, kernels/gemm): every semiring and type.
static const char *own_supports (gg_dense_op *o) { (void) o ; return NULL ; }

//------------------------------------------------------------------------------
// SDDMM: y [q] = (+) over t of mul (A (i,t), B (j,t)) for the entries of M
//------------------------------------------------------------------------------

// M's pattern on the device.
static int sddmm_pattern (gg_dense_op *o)
{
    int rc = GG_OK ;
    csr_needs nd = { .x = false, .ones = false, .t = o->t } ;
    if (o->fm == NULL) GG_TRY (csr_get (o->c, o->M, &nd, &o->fm)) ;
done:
    return rc ;
}

// cusparseSDDMM fuses multiply-adds (one rounding where the CPU library has
// two), so it runs only when GRBGPU_KERNEL=cusparse asks for it.
static const char *sddmm_vendor_supports (gg_dense_op *o)
{
    if (o->sr->mul != GG_MUL_TIMES) return "FIRST / SECOND / PAIR take the row sums" ;
    if (!kernel_is_vendor ()) return "fuses multiply-adds (GRBGPU_KERNEL=cusparse asks for it)" ;
    return vendor_common (o) ;
}

static int sddmm_vendor_run (gg_dense_op *o)
{
    // y = (A * B') .* spy (M): A m x k row-major; B (n x k row-major) is
    // B' (k x n) column-major with leading dimension k
    int rc = GG_OK ;
    gg_devcall *c = o->c ;
    const gg_type t = o->t ;
    cusparseConstDnMatDescr_t Ad = NULL, Bd = NULL ;
    cusparseSpMatDescr_t Cd = NULL ;
    void *buf ;
    GG_TRY (sddmm_pattern (o)) ;
    GG_TRY (dense_operands (o)) ;
    GG_TRY (out_alloc (o)) ;
    cudaDataType dt = cuda_type (t) ;
    cusparseHandle_t h = c->ctx->sparse ;
    float af = 1, bf = 0 ;
    double ad = 1, bd = 0 ;
    const void *alpha = (t == GG_FP32) ? (const void *) &af : (const void *) &ad ;
    const void *beta = (t == GG_FP32) ? (const void *) &bf : (const void *) &bd ;
    size_t bsize = 0 ;
    o->spread = 0 ;
    CU_TRY (cudaMemsetAsync (o->dy, 0, (size_t) o->nnz * o->elem, c->ctx->stream)) ;
    SP_TRY (cusparseCreateConstDnMat (&Ad, o->m, o->k, o->k, dev_a (o), dt,
        CUSPARSE_ORDER_ROW)) ;
    SP_TRY (cusparseCreateConstDnMat (&Bd, o->k, o->n, o->k, dev_b (o), dt,
        CUSPARSE_ORDER_COL)) ;
    SP_TRY (cusparseCreateCsr (&Cd, o->m, o->n, o->nnz, o->fm->p, o->fm->i, o->dy,
        CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt)) ;
    SP_TRY (cusparseSDDMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
        CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, Ad, Bd, beta, Cd, dt,
        CUSPARSE_SDDMM_ALG_DEFAULT, &bsize)) ;
    GG_TRY (tmp_alloc (c, &buf, bsize)) ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    SP_TRY (cusparseSDDMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
        CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, Ad, Bd, beta, Cd, dt,
        CUSPARSE_SDDMM_ALG_DEFAULT, buf)) ;
done:
    if (Ad != NULL) cusparseDestroyDnMat (Ad) ;
    if (Bd != NULL) cusparseDestroyDnMat (Bd) ;
    if (Cd != NULL) cusparseDestroySpMat (Cd) ;
    return rc ;
}

// The row of each of M's entries, kept in M's cached device form (made at
// its first SDDMM; 4 bytes an entry): the SDDMM kernels then read each
// entry's row where they would search the row pointers for it.  NULL where
// M is not cached (the form is dropped after this call) or the build failed
// (the kernels search, as before).
static const int32_t *sddmm_rows (gg_dense_op *o)
{
    dev_csr *f = o->fm ;
    if (o->M->cache == NULL || f->nnz == 0 || f->nnz != o->nnz) return NULL ;
    gg_devcall *c = o->c ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->ri_tried)
    {
        f->ri_tried = true ;
        int32_t *ri = NULL ;
        int rc = dev_alloc (c, (void **) &ri, (size_t) f->nnz * sizeof (int32_t)) ;
        if (rc == GG_OK) rc = grbgpu_fault (GG_FAULT_CONVERT) ? GG_ERR_FAULT
            : gg_cuda_sddmm_rows (f->m, f->nnz, f->p, ri, c->ctx->stream) ;
        // other threads' streams read it as soon as it is published
        if (rc == GG_OK && cudaStreamSynchronize (c->ctx->stream) != cudaSuccess)
            rc = GG_ERR_DEVICE ;
        if (rc == GG_OK)
        {
            f->ri = ri ;
            form_grow (o->M, f, (size_t) f->nnz * sizeof (int32_t)) ;
        }
        else
        {
            (void) cudaGetLastError () ;
            if (ri != NULL) cudaFreeAsync (ri, c->ctx->stream) ;
            grbgpu_log (1, "cuda: the rows of the SDDMM mask's entries not made: "
                "error %d (the kernels search for them)", rc) ;
        }
    }
    const int32_t *ri = f->ri ;
    pthread_mutex_unlock (&f->plan_lock) ;
    return ri ;
}

// our kernel, the schedule named (NULL: GRBGPU_KERNEL's, else the rule's)
static int sddmm_own_named (gg_dense_op *o, const char *name)
{
    int rc = GG_OK ;
    GG_TRY (sddmm_pattern (o)) ;
    GG_TRY (dense_operands (o)) ;
    GG_TRY (out_alloc (o)) ;
    o->spread = 0 ;
    const int32_t *ri = sddmm_rows (o) ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    // (GRBGPU_KERNEL=tc3 names the tensor-core row: where it declines, the rule)
    const char *forced = own_kernel_name () ;
    if (forced != NULL && strcmp (forced, "tc3") == 0) forced = NULL ;
    GG_TRY (gg_cuda_sddmm (o->sr, o->m, o->n, o->k, o->nnz, o->fm->p, o->fm->i,
        ri, dev_a (o), dev_b (o), o->dy, name != NULL ? name : forced,
        o->c->ctx->stream)) ;
done:
    return rc ;
}

static int sddmm_own_run (gg_dense_op *o) { return sddmm_own_named (o, NULL) ; }
static int sddmm_w8_run (gg_dense_op *o) { return sddmm_own_named (o, "w") ; }
static int sddmm_long_run (gg_dense_op *o)
{
    return sddmm_own_named (o, o->t == GG_FP32 ? "w4l" : "grpl") ;
}

// the batch schedule of 8 entries (kernels/sddmm), FP32 rows of A of 32 or
// more: a row of the chooser only, against the rule's (FP32: the batch
// schedule of 4 entries; FP64 keeps the group one, which the batch
// schedules lost to on 40 of 42 products measured: bench/NOTES.md, 2026-11-28)
static const char *sddmm_w8_supports (gg_dense_op *o)
{
    if (o->t != GG_FP32) return "the 8-entry batch is timed for FP32 only" ;
    if (o->k < 32) return "rows of A shorter than 32" ;
    if (own_kernel_name () != NULL) return "a kernel is forced" ;
    return NULL ;
}

// the rule's schedule in long runs (4x the entries per warp: "w4l" for FP32,
// "grpl" for FP64): a row of the chooser only.  The rule takes them from
// 2^21 entries (kernels/sddmm/sddmm.cu: with the rows given they gained
// 1.0-1.15x on R-MAT 2^18-2^22 and lost up to 8 % on the shared graphs of
// 0.3-1M entries, bench/NOTES.md, 2026-11-28); below that they are measured.
static const char *sddmm_long_supports (gg_dense_op *o)
{
    if (o->t != GG_FP32 && o->t != GG_FP64) return "the long runs are timed for FP32 / FP64 only" ;
    if (o->k < 32) return "rows of A shorter than 32" ;
    if (own_kernel_name () != NULL) return "a kernel is forced" ;
    return NULL ;
}
static bool never (const gg_dense_op *o) { (void) o ; return false ; }

// The tensor-core SDDMM (kernels/tc_sddmm/, row "tc3": the entries of M
// whose 8x1 column vectors in a window of 8 rows hold 3 or more, as 8 x 8
// tiles on mma.sync, the rest in the same launch on CUDA cores): PLUS_TIMES
// over FP32 (precision exact: three TF32 parts; tf32 only when asked) and
// FP64 (DMMA).  Measured (bench/NOTES.md, 2026-11-29, H200): 1.2-2x
// cusparseSDDMM on the FEM matrices where our CUDA-core schedules lost, and
// slower than them on R-MAT and most graphs, so it never wins the static
// rule: the chooser that measures takes it where it is the fastest for that
// M and K, or GRBGPU_KERNEL=tc3 forces it.  Exact where A and B hold finite
// normal numbers only, FP32 ones in [2^-51, 2^63] (gg_tc_values_plain; the tensor cores start sums at +0 and split an
// infinity into NaNs; with no zero, subnormal or non-finite value every
// product is a nonzero finite number and a zero result is +0 in any order
// of summation): each operand checked once per version (its form keeps the
// answer).  The form lives in M's device form (so only a cached M), built
// under plan_lock at the first SDDMM that measures the row.
static const char *sddmm_tc_supports (gg_dense_op *o)
{
    const char *forced = grbgpu_settings_get ()->kernel ;
    const bool is_forced = (forced [0] != '\0') ;
    if (is_forced && strcmp (forced, "tc3") != 0) return "another kernel is forced" ;
    const gg_semiring *sr = o->sr ;
    if (sr->add != GG_ADD_PLUS || sr->mul != GG_MUL_TIMES
        || (o->t != GG_FP32 && o->t != GG_FP64))
        return "not plus-times over FP32 / FP64" ;
    if (o->A->x == NULL || o->B->x == NULL) return "no values to multiply" ;
    if (o->t == GG_FP32 && o->precision != GG_PRECISION_EXACT
        && o->precision != GG_PRECISION_TF32)
        return "no FP16 / BF16 tensor-core kernel" ;
    if (o->M->cache == NULL || o->a_row0 != 0 || o->k < 1)
        return "the form is kept with a cached mask only" ;
    if (o->nnz >= (int64_t) INT32_MAX - 64 || o->m >= INT32_MAX - 8 || o->n >= INT32_MAX)
        return "too large for the form's 32-bit indices" ;
    if (sddmm_pattern (o) != GG_OK) return "no device pattern" ;
    dev_csr *f = o->fm ;
    if (f->nnz != o->nnz) return "the pattern's form does not match" ;
    // made only where it will be measured (or forced): never by the static rule
    if (!is_forced && !o->exploring && f->tcs == NULL)
        return "chosen only by measurement (GRBGPU_TUNE)" ;
    if (dense_operands (o) != GG_OK || o->fa == NULL || o->fb == NULL)
        return "no device copies of A and B" ;
    bool flagged = false ;
    if (values_flagged (o->c, tc_plain_check, o->t, o->fa->x,
        (size_t) o->fa->nrows * (size_t) o->fa->ncols, &o->fa->x_plain, &flagged) != GG_OK)
        return "its value check failed" ;
    if (flagged) return "A holds a zero, subnormal or non-finite value, or an FP32 one outside [2^-51, 2^63]" ;
    if (values_flagged (o->c, tc_plain_check, o->t, o->fb->x,
        (size_t) o->fb->nrows * (size_t) o->fb->ncols, &o->fb->x_plain, &flagged) != GG_OK)
        return "its value check failed" ;
    if (flagged) return "B holds a zero, subnormal or non-finite value, or an FP32 one outside [2^-51, 2^63]" ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->tcs_tried)
    {
        f->tcs_tried = true ;
        gg_tc_sddmm_form *h = NULL ;
        int rc = grbgpu_fault (GG_FAULT_CONVERT) ? GG_ERR_FAULT
            : gg_tc_sddmm_build (f->m, f->k, f->nnz, f->p, f->i, 3, 0, &h, o->c->ctx->stream) ;
        if (rc == GG_OK)
        {
            f->tcs = h ;
            form_grow (o->M, f, h->bytes) ;
            grbgpu_log (2, "cuda: tensor-core SDDMM form, threshold 3: %.1f %% of %lld entries "
                "in %lld blocks, %.2f MB, built in %.3f ms",
                100.0 * (double) h->h->tc_nnz / (double) (f->nnz > 0 ? f->nnz : 1),
                (long long) f->nnz, (long long) h->h->nblk, (double) h->bytes / 1e6, h->build_ms) ;
        }
        else
        {
            (void) cudaGetLastError () ;
            grbgpu_log (1, "cuda: tensor-core SDDMM form not made: error %d", rc) ;
        }
    }
    const bool have = (f->tcs != NULL) ;
    pthread_mutex_unlock (&f->plan_lock) ;
    return have ? NULL : "no tensor-core SDDMM form (its build failed)" ;
}

static bool sddmm_tc_prefer (const gg_dense_op *o)
{
    (void) o ;
    return strcmp (grbgpu_settings_get ()->kernel, "tc3") == 0 ;
}

static int sddmm_tc_run (gg_dense_op *o)
{
    int rc = GG_OK ;
    GG_TRY (sddmm_pattern (o)) ;
    GG_TRY (dense_operands (o)) ;
    GG_TRY (out_alloc (o)) ;
    o->spread = 0 ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    // FP32 "exact": six or four MMAs a step by the dot product's length
    // (gg_tc_sddmm_exact_mode, kernels/tc_sddmm/tc_sddmm.h); FP64 ignores it
    const int mode = (o->precision == GG_PRECISION_TF32) ? GG_TC_TF32
        : gg_tc_sddmm_exact_mode (o->k) ;
    GG_TRY (gg_tc_sddmm (o->fm->tcs, o->t, o->k, dev_a (o), dev_b (o), o->dy, mode,
        GG_TC_PARTS_ALL, NULL, o->c->ctx->stream)) ;
done:
    return rc ;
}

const gg_dense_family gg_sddmm_families [GG_SDDMM_NFAM] =
{
    { "rowsum",   rowsum_supports,        always, rowsum_run       },
    { "cusparse", sddmm_vendor_supports,  always, sddmm_vendor_run },
    { "own_w",    sddmm_w8_supports,      never,  sddmm_w8_run     },
    { "own_l",    sddmm_long_supports,    never,  sddmm_long_run   },
    { "tc3",      sddmm_tc_supports,      sddmm_tc_prefer, sddmm_tc_run },
    { "own",      own_supports,           always, sddmm_own_run    },
} ;

//------------------------------------------------------------------------------
// GEMM: Y = A (+.*) B'
//------------------------------------------------------------------------------

static const char *gemm_vendor_supports (gg_dense_op *o)
{
    if (o->sr->mul != GG_MUL_TIMES) return "FIRST / SECOND / PAIR take the row sums" ;
    if (o->m > INT_MAX || o->n > INT_MAX || o->k > INT_MAX) return "a dimension over INT_MAX" ;
    return vendor_common (o) ;
}

static int gemm_vendor_run (gg_dense_op *o)
{
    // row-major Y = A B' is column-major Y' = B A', with A' (k x m, ld k)
    // and B' (k x n, ld k) as cuBLAS sees the row-major arrays:
    // Y' (n x m, ld n) = op_T (B') * A'
    int rc = GG_OK ;
    gg_devcall *c = o->c ;
    const int m = (int) o->m, n = (int) o->n, k = (int) o->k ;
    GG_TRY (dense_operands (o)) ;
    GG_TRY (out_alloc (o)) ;
    o->spread = 0 ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    if (k == 0)
    {
        CU_TRY (cudaMemsetAsync (o->dy, 0, (size_t) o->nnz * o->elem, c->ctx->stream)) ;
    }
    else if (o->t == GG_FP32)
    {
        float a = 1, b = 0 ;
        BL_TRY (cublasSgemm (c->ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k,
            &a, dev_b (o), k, dev_a (o), k, &b, o->dy, n)) ;
    }
    else
    {
        double a = 1, b = 0 ;
        BL_TRY (cublasDgemm (c->ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N, n, m, k,
            &a, dev_b (o), k, dev_a (o), k, &b, o->dy, n)) ;
    }
done:
    return rc ;
}

static int gemm_own_run (gg_dense_op *o)
{
    int rc = GG_OK ;
    GG_TRY (dense_operands (o)) ;
    GG_TRY (out_alloc (o)) ;
    o->spread = 0 ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    GG_TRY (gg_cuda_gemm (o->sr, o->m, o->n, o->k, dev_a (o), dev_b (o), o->dy,
        o->c->ctx->stream)) ;
done:
    return rc ;
}

const gg_dense_family gg_gemm_families [GG_GEMM_NFAM] =
{
    { "rowsum",   rowsum_supports,      always, rowsum_run      },
    { "cublas",   gemm_vendor_supports, always, gemm_vendor_run },
    { "own",      own_supports,         always, gemm_own_run    },
} ;

//------------------------------------------------------------------------------
// one SDDMM or GEMM: walk the table
//------------------------------------------------------------------------------

// GEMM's memory: its time depends on the shape only.
static gg_tune_memory gemm_tuned ;
static pthread_mutex_t gemm_tuned_lock = PTHREAD_MUTEX_INITIALIZER ;

typedef struct { const gg_dense_family *tab ; gg_dense_op *o ; } dense_runner ;

static int dense_row_run (void *op, int f)
{
    dense_runner *r = (dense_runner *) op ;
    return r->tab [f].run (r->o) ;
}

static int dense_attempt (gg_dense_op *o, const gg_dense_family *tab, int nfam,
    void *y)
{
    int rc = GG_OK ;
    gg_devcall *c = o->c ;
    const bool sddmm = (o->M != NULL) ;
    const char *what = sddmm ? "sddmm" : "gemm" ;
    const gg_settings *set = grbgpu_settings_get () ;
    const bool forced = (set->kernel [0] != '\0') ;
    char *sums = NULL ;

    // the memory: SDDMM's in M's device form (made only where tuning can
    // happen: a cached M and enough work), GEMM's process-wide
    gg_tune_key key = { .kind = sddmm ? GG_TUNE_SDDMM : GG_TUNE_GEMM,
        .m = sddmm ? 0 : o->m, .n = sddmm ? 0 : o->n, .k = o->k,
        .add = (int) o->sr->add, .mul = (int) o->sr->mul, .type = (int) o->t,
        .precision = (int) o->precision } ;
    const double work = sddmm ? (double) o->nnz * (double) o->k
        : (double) o->m * (double) o->n * (double) o->k / 16.0 ;
    const bool may_tune = !forced && tune_wanted (work) && (!sddmm || o->M->cache != NULL) ;
    gg_tune_memory *mem = NULL ;
    pthread_mutex_t *lock = NULL ;
    if (may_tune && sddmm)
    {
        GG_TRY (sddmm_pattern (o)) ;
        mem = &o->fm->tuned ; lock = &o->fm->plan_lock ;
    }
    else if (may_tune)
    {
        mem = &gemm_tuned ; lock = &gemm_tuned_lock ;
    }
    int fam = (mem != NULL) ? tuned_find (mem, lock, &key) : -1 ;
    o->exploring = (fam < 0 && mem != NULL) ;

    const char *why [GG_DENSE_NFAM_MAX] ;
    int nsup = 0 ;
    for (int f = 0 ; f < nfam ; f++)
    {
        why [f] = (fam >= 0 && f != fam && f != nfam - 1) ? "not the remembered winner"
            : tab [f].supports (o) ;
        if (why [f] == NULL) nsup++ ;
        grbgpu_log (3, "cuda: %s row %s: %s", what, tab [f].name, why [f] ? why [f] : "supports") ;
    }
    if (fam >= 0 && why [fam] != NULL) fam = -1 ;
    if (o->exploring && nsup > 1)
    {
        float ms [GG_DENSE_NFAM_MAX] ;
        dense_runner r = { tab, o } ;
        const double t0 = grbgpu_now () ;
        GG_TRY (tune_rows (c, nfam, why, dense_row_run, &r, ms, &fam)) ;
        const double tuning_ms = 1e3 * (grbgpu_now () - t0) ;
        tuned_keep (mem, lock, &key, fam, ms, nfam) ;
        if (set->verbose >= 2)
        {
            char times [64 * GG_DENSE_NFAM_MAX] ;
            tune_times (times, sizeof (times), nfam, &tab [0].name, sizeof (tab [0]), ms) ;
            grbgpu_log (2, "cuda: tuned %s %lldx%lld k=%lld (%lld outputs): %s ms "
                "(-1: not a candidate) -> %s (tuning %.1f ms)", what, (long long) o->m,
                (long long) o->n, (long long) o->k, (long long) o->nnz, times,
                tab [fam].name, tuning_ms) ;
        }
    }
    else
    {
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        rc = GG_ERR_UNSUPPORTED ;
        if (fam >= 0) rc = tab [fam].run (o) ;
        for (int f = 0 ; rc == GG_ERR_UNSUPPORTED && f < nfam ; f++)
        {
            if (why [f] == NULL && tab [f].prefer (o))
            {
                fam = f ;
                rc = tab [f].run (o) ;
            }
        }
        GG_TRY (rc) ;
        mark_end (c) ;
    }
    grbgpu_log (2, "cuda: %s %lldx%lld k=%lld: %s", what, (long long) o->m,
        (long long) o->n, (long long) o->k, tab [fam].name) ;

    if (o->y_dev)
    {
        // (y is o->dy: the outputs stay; no row spreads them, rowsum_supports)
        if (o->spread != 0) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    }
    else if (o->spread == 0)
    {
        GG_TRY (download (c, y, o->dy, (size_t) o->nnz * o->elem)) ;
    }
    else
    {
        // FIRST: output (i,j) = r (i); SECOND: r (j); PAIR: k
        const int64_t len = (o->spread == 1) ? o->m : (o->spread == 2) ? o->n : 0 ;
        if (len > 0)
        {
            sums = malloc ((size_t) len * o->elem) ;
            if (sums == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            GG_TRY (download (c, sums, o->dsums, (size_t) len * o->elem)) ;
        }
        const gg_type t = o->t ;
        for (int64_t i = 0 ; i < o->m ; i++)
        {
            const int64_t q0 = sddmm ? o->M->p32 [i] : i * o->n ;
            const int64_t q1 = sddmm ? o->M->p32 [i+1] : (i + 1) * o->n ;
            for (int64_t q = q0 ; q < q1 ; q++)
            {
                const int64_t j = sddmm ? o->M->i32 [q] : q - q0 ;
                double v = (o->spread == 3) ? (double) o->k
                    : get_value (sums, (size_t) ((o->spread == 1) ? i : j), t) ;
                put_value (y, (size_t) q, t, v) ;
            }
        }
    }

done:
    stream_finish (c, &rc) ;
    free (sums) ;
    csr_unref (o->fm) ;
    if (!o->a_dev) dense_unref (o->fa) ;
    if (!o->b_dev) dense_unref (o->fb) ;
    return rc ;
}

int sddmm_attempt_rows (gg_devcall *c, const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, int64_t a_row0, const gg_dense *B, dev_dense *fb, void *y)
{
    gg_dense_op o = { .c = c, .sr = sr, .M = M, .A = A, .a_row0 = a_row0, .B = B,
        .m = M->nrows, .n = M->ncols, .k = A->ncols, .nnz = M->nnz, .t = sr->type,
        .elem = gg_type_size (sr->type), .fb = fb,
        .precision = grbgpu_settings_get ()->precision } ;
    return dense_attempt (&o, gg_sddmm_families, GG_SDDMM_NFAM, y) ;     // (it unrefs o.fb)
}

int sddmm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    return sddmm_attempt_rows (c, sr, M, A, 0, B, NULL, y) ;
}

// y a resident buffer (the result stays on the device: a matrix on M's pattern)
int sddmm_attempt_res (gg_devcall *c, const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    gg_dense_op o = { .c = c, .sr = sr, .M = M, .A = A, .B = B,
        .m = M->nrows, .n = M->ncols, .k = A->ncols, .nnz = M->nnz, .t = sr->type,
        .elem = gg_type_size (sr->type), .y_dev = true, .dy = y,
        .precision = grbgpu_settings_get ()->precision } ;
    return dense_attempt (&o, gg_sddmm_families, GG_SDDMM_NFAM, y) ;
}

// *d: the call's own device form of the resident operand X (rows x cols):
// its buffer, or, when it holds X' (trans), X made row-major in a temporary
// of the call.
static int resident_view (gg_devcall *c, const gg_dense *X, bool trans, size_t elem,
    dev_dense *d)
{
    int rc = GG_OK ;
    *d = (dev_dense) { .nrows = X->nrows, .ncols = X->ncols, .elem = elem, .x = (void *) X->x } ;
    if (!trans) return GG_OK ;
    GG_TRY (tmp_alloc (c, &d->x, (size_t) X->nrows * (size_t) X->ncols * elem)) ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    GG_TRY (gg_cuda_transpose (d->x, X->x, X->ncols, X->nrows, elem, c->ctx->stream)) ;
done:
    return rc ;
}

int gemm_attempt_res (gg_devcall *c, const gg_semiring *sr, const gg_dense *A,
    bool a_dev, bool a_t, const gg_dense *B, bool b_dev, bool b_t, void *Y)
{
    int rc = GG_OK ;
    gg_dense_op o = { .c = c, .sr = sr, .M = NULL, .A = A, .B = B, .m = A->nrows,
        .n = B->nrows, .k = A->ncols, .nnz = A->nrows * B->nrows, .t = sr->type,
        .elem = gg_type_size (sr->type),
        .precision = grbgpu_settings_get ()->precision,
        .a_dev = a_dev && A->x != NULL, .b_dev = b_dev && B->x != NULL, .y_dev = true,
        .dy = Y } ;
    // a resident operand is its own device form for this call (the vendor's
    // value check reads it there)
    if (o.a_dev)
    {
        GG_TRY (resident_view (c, A, a_t, o.elem, &o.da)) ;
        o.fa = &o.da ;
    }
    if (o.b_dev)
    {
        GG_TRY (resident_view (c, B, b_t, o.elem, &o.db)) ;
        o.fb = &o.db ;
    }
    return dense_attempt (&o, gg_gemm_families, GG_GEMM_NFAM, Y) ;
done:
    return rc ;
}

int gemm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, void *Y)
{
    gg_dense_op o = { .c = c, .sr = sr, .M = NULL, .A = A, .B = B, .m = A->nrows,
        .n = B->nrows, .k = A->ncols, .nnz = A->nrows * B->nrows, .t = sr->type,
        .elem = gg_type_size (sr->type),
        .precision = grbgpu_settings_get ()->precision } ;
    return dense_attempt (&o, gg_gemm_families, GG_GEMM_NFAM, Y) ;
}
