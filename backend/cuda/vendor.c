//------------------------------------------------------------------------------
// backend/cuda/vendor.c: cuSPARSE plans and products; the vendor libraries' value checks
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).

#include "backend/cuda/cuda_internal.h"

//------------------------------------------------------------------------------
// cuSPARSE plans
//------------------------------------------------------------------------------

// The CSR algorithm for a shape (row-major X and Y).  Measured on an H200
// (bench/NOTES.md), cuSPARSE's best CSR algorithm: R-MAT 2^20 (16M entries)
// FP32 N=32 ALG3, N=64..256 ALG2; FP64 N=32 ALG3 by 5 %, but road_usa_col
// FP64 N=32 ALG2 (0.17 vs 0.32 ms); the small graphs (amazon_photo,
// musae_facebook, < 1M entries) ALG3 at N=32 and 128 in FP32 (0.028 vs
// 0.036 ms, 0.033 vs 0.055), and at N=32 in FP64.  So: ALG3 for FP32 with
// N <= 32 or fewer than 1M entries, and for FP64 with N <= 32 and fewer than
// 1M entries; else ALG2.  GRBGPU_KERNEL=cusparse:alg1|alg2|alg3 forces one
// (SpMV: ALG1, or ALG2 when forced).  Returns the algorithm's number; the
// chooser that measures times the others too (the cusparse_alg rows of
// backend/cuda/spmm.c).
int spmm_static_alg (int64_t n, int64_t nnz, gg_type t)
{
    const char *k = grbgpu_settings_get ()->kernel ;
    if (n == 1) return (strcmp (k, "cusparse:alg2") == 0) ? 2 : 1 ;
    if (strcmp (k, "cusparse:alg1") == 0) return 1 ;
    if (strcmp (k, "cusparse:alg2") == 0) return 2 ;
    if (strcmp (k, "cusparse:alg3") == 0) return 3 ;
    const bool small = nnz < 1000000 ;
    const bool alg3 = (t == GG_FP32) ? (n <= 32 || small) : (n <= 32 && small) ;
    return alg3 ? 3 : 2 ;
}

// cuSPARSE's CSR algorithm number (1..3) as its enum, for SpMV (1, 2) or SpMM.
static int alg_enum (bool spmv, int num)
{
    if (spmv) return (num == 2) ? (int) CUSPARSE_SPMV_CSR_ALG2 : (int) CUSPARSE_SPMV_CSR_ALG1 ;
    return (num == 1) ? (int) CUSPARSE_SPMM_CSR_ALG1 : (num == 2) ? (int) CUSPARSE_SPMM_CSR_ALG2
        : (int) CUSPARSE_SPMM_CSR_ALG3 ;
}

// Y = alpha * S_vals * X (SpMM, n > 1) or y = S_vals * x (SpMV, n == 1), on
// the call's stream, with a plan kept in the form; CSR algorithm alg_num
// (1..3; 0: spmm_static_alg's).  Plans are shared by
// threads: plan_lock covers the enqueue, and `last` orders the GPU work of
// different streams that use the same buffer.
int sparse_product (gg_devcall *c, dev_csr *f, const void *vals,
    gg_type t, int64_t n, const void *X, void *Y, int alg_num)
{
    int rc = GG_OK ;
    cusparseHandle_t h = c->ctx->sparse ;
    cudaStream_t s = c->ctx->stream ;
    cudaDataType dt = cuda_type (t) ;
    float af = 1, bf = 0 ;
    double ad = 1, bd = 0 ;
    const void *alpha = (t == GG_FP32) ? (const void *) &af : (const void *) &ad ;
    const void *beta = (t == GG_FP32) ? (const void *) &bf : (const void *) &bd ;
    plan_kind kind = (n == 1) ? PLAN_SPMV : PLAN_SPMM ;
    int alg = alg_enum (kind == PLAN_SPMV, (alg_num > 0) ? alg_num
        : spmm_static_alg (n, f->nnz, t)) ;
    cusparseConstDnMatDescr_t Bd = NULL ;
    cusparseDnMatDescr_t Cd = NULL ;
    cusparseConstDnVecDescr_t xv = NULL ;
    cusparseDnVecDescr_t yv = NULL ;
    bool locked = false ;

    if (kind == PLAN_SPMM)
    {
        SP_TRY (cusparseCreateConstDnMat (&Bd, f->k, n, n, X, dt,
            CUSPARSE_ORDER_ROW)) ;
        SP_TRY (cusparseCreateDnMat (&Cd, f->m, n, n, Y, dt,
            CUSPARSE_ORDER_ROW)) ;
    }
    else
    {
        SP_TRY (cusparseCreateConstDnVec (&xv, f->k, X, dt)) ;
        SP_TRY (cusparseCreateDnVec (&yv, f->m, Y, dt)) ;
    }

    pthread_mutex_lock (&f->plan_lock) ;
    locked = true ;
    gg_sp_plan *pl = NULL ;
    for (int k = 0 ; k < GG_PLANS && pl == NULL ; k++)
    {
        gg_sp_plan *q = &f->plan [k] ;
        if (q->valid && q->kind == kind && q->vals == vals && q->type == t
            && q->n == n && q->alg == alg) pl = q ;
    }
    if (pl == NULL)
    {
        // a new plan in the next slot (round robin)
        pl = &f->plan [f->next_plan] ;
        f->next_plan = (f->next_plan + 1) % GG_PLANS ;
        plan_clear (pl, s) ;
        pl->valid = true ;
        pl->kind = kind ; pl->vals = vals ; pl->type = t ; pl->n = n ;
        pl->alg = alg ;
        CU_TRY (cudaEventCreateWithFlags (&pl->last, cudaEventDisableTiming)) ;
        SP_TRY (cusparseCreateConstCsr (&pl->A, f->m, f->k, f->nnz, f->p,
            f->i, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
            CUSPARSE_INDEX_BASE_ZERO, dt)) ;
        size_t bsize = 0 ;
        if (kind == PLAN_SPMM)
        {
            SP_TRY (cusparseSpMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, Bd, beta, Cd,
                dt, (cusparseSpMMAlg_t) alg, &bsize)) ;
        }
        else
        {
            SP_TRY (cusparseSpMV_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                alpha, pl->A, xv, beta, yv, dt, (cusparseSpMVAlg_t) alg,
                &bsize)) ;
        }
        GG_TRY (dev_alloc (c, &pl->buf, bsize)) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        if (kind == PLAN_SPMM)
        {
            SP_TRY (cusparseSpMM_preprocess (h,
                CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, Bd, beta, Cd,
                dt, (cusparseSpMMAlg_t) alg, pl->buf)) ;
        }
        else
        {
            SP_TRY (cusparseSpMV_preprocess (h,
                CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, xv, beta, yv,
                dt, (cusparseSpMVAlg_t) alg, pl->buf)) ;
        }
    }
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    CU_TRY (cudaStreamWaitEvent (s, pl->last, 0)) ;
    if (kind == PLAN_SPMM)
    {
        SP_TRY (cusparseSpMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, Bd, beta, Cd, dt,
            (cusparseSpMMAlg_t) alg, pl->buf)) ;
    }
    else
    {
        SP_TRY (cusparseSpMV (h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
            pl->A, xv, beta, yv, dt, (cusparseSpMVAlg_t) alg, pl->buf)) ;
    }
    CU_TRY (cudaEventRecord (pl->last, s)) ;

done:
    if (rc != GG_OK && pl != NULL && locked)
    {
        // a half-made or failed plan is not kept
        plan_clear (pl, s) ;
    }
    if (locked) pthread_mutex_unlock (&f->plan_lock) ;
    if (Bd != NULL) cusparseDestroyDnMat (Bd) ;
    if (Cd != NULL) cusparseDestroyDnMat (Cd) ;
    if (xv != NULL) cusparseDestroyDnVec (xv) ;
    if (yv != NULL) cusparseDestroyDnVec (yv) ;
    return rc ;
}

//------------------------------------------------------------------------------
// special values: the vendor libraries are handed ordinary values only
//------------------------------------------------------------------------------

// cuSPARSE and cuBLAS compute on substituted values (all-ones arrays for
// SECOND and PAIR, row sums for FIRST) and may pad what they are given with
// zeros (blocked and merge-based algorithms), and their documentation does
// not say that a padded or substituted value never meets a real one: 0 * INF
// or INF - INF there is NaN where the CPU library, which combines only the
// real terms, answers INF (a PLUS_SECOND SpMM with an iso +INF dense operand
// came back NaN everywhere).  Nor do they document keeping subnormals.  So a
// call whose values read by a vendor library hold an infinity, a NaN or a
// subnormal runs on grbgpu's own kernels, which combine exactly the terms the
// CPU library does (kernels/gg_semiring.cuh, gg_identity; built without
// flushing subnormals).  The check (gg_cuda_special_values) is one pass over
// the device copy, made once per device form, so once per version of a
// cached operand.

// Whether the count values of type t at x (device) hold a value that
// `check` flags (a kernel setting a device int to 1 when one does); *known
// remembers the answer in the form (0: not yet asked, 1: none, 2: some).  A
// type or layout the check does not take counts as flagged.  Serves the
// vendor path's special values and the tensor-core family's plain values.
int values_flagged (gg_devcall *c, gg_value_check check, gg_type t, const void *x,
    size_t count, _Atomic int *known, bool *flagged)
{
    int rc = GG_OK ;
    int k = atomic_load (known) ;
    if (k == 0)
    {
        int *dflag, flag = 1 ;
        GG_TRY (tmp_alloc (c, (void **) &dflag, sizeof (int))) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        int frc = check (t, x, (int64_t) count, dflag, c->ctx->stream) ;
        if (frc == GG_OK)
        {
            CU_TRY (cudaMemcpyAsync (&flag, dflag, sizeof (int),
                cudaMemcpyDeviceToHost, c->ctx->stream)) ;
            CU_TRY (cudaStreamSynchronize (c->ctx->stream)) ;
        }
        else if (frc != GG_ERR_UNSUPPORTED) GG_TRY (frc) ;
        k = (frc == GG_OK && flag == 0) ? 1 : 2 ;
        atomic_store (known, k) ;
    }
    *flagged = (k == 2) ;
done:
    return rc ;
}

static int values_special (gg_devcall *c, gg_type t, const void *x, size_t count,
    _Atomic int *known, bool *special)
{
    return values_flagged (c, gg_cuda_special_values, t, x, count, known, special) ;
}

// SpMM through cuSPARSE reads S's values (TIMES, FIRST) and X (TIMES,
// SECOND): *ok = false when one of them holds a special value.  The forms
// it got are handed to the caller (*fs: with S's values in the semiring's
// type, as the vendor path asks for them; *fx), to be used and released
// there; forms the caller already has (non-NULL, with those values) are
// checked as they are.
int spmm_vendor_ok (gg_devcall *c, const gg_semiring *sr,
    const gg_csr *S, const gg_dense *X, dev_csr **fs, dev_dense **fx, bool *ok)
{
    int rc = GG_OK ;
    bool special = false ;
    const gg_type t = sr->type ;
    if (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST)
    {
        csr_needs nd = { .x = true, .ones = false, .t = t } ;
        if (*fs == NULL) GG_TRY (csr_get (c, S, &nd, fs)) ;
        GG_TRY (values_special (c, t, (*fs)->x, (size_t) S->nnz, &(*fs)->x_special, &special)) ;
    }
    if (!special && (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_SECOND))
    {
        if (*fx == NULL) GG_TRY (dense_get (c, X, gg_type_size (t), fx)) ;
        GG_TRY (values_special (c, t, (*fx)->x, (size_t) X->nrows * (size_t) X->ncols,
            &(*fx)->x_special, &special)) ;
    }
done:
    *ok = !special ;
    return rc ;
}

// SDDMM and GEMM through cuBLAS / cuSPARSE read A (TIMES, FIRST) and B
// (TIMES, SECOND): *ok = false when one of them holds a special value; the
// forms it got (*fa, *fb) go to the caller (forms it has are checked as they
// are).
int dense_vendor_ok (gg_devcall *c, const gg_semiring *sr,
    const gg_dense *A, const gg_dense *B, dev_dense **fa, dev_dense **fb,
    bool *ok)
{
    int rc = GG_OK ;
    bool special = false ;
    const gg_type t = sr->type ;
    const size_t elem = gg_type_size (t) ;
    if (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST)
    {
        if (*fa == NULL) GG_TRY (dense_get (c, A, elem, fa)) ;
        GG_TRY (values_special (c, t, (*fa)->x, (size_t) A->nrows * (size_t) A->ncols,
            &(*fa)->x_special, &special)) ;
    }
    if (!special && (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_SECOND))
    {
        if (*fb == NULL) GG_TRY (dense_get (c, B, elem, fb)) ;
        GG_TRY (values_special (c, t, (*fb)->x, (size_t) B->nrows * (size_t) B->ncols,
            &(*fb)->x_special, &special)) ;
    }
done:
    *ok = !special ;
    return rc ;
}
