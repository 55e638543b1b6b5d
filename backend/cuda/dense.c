//------------------------------------------------------------------------------
// backend/cuda/dense.c: SDDMM and GEMM
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).

#include "backend/cuda/cuda_internal.h"

//------------------------------------------------------------------------------
// SDDMM: y [q] = (+) over t of mul (A (i,t), B (j,t)) for the entries of M
//------------------------------------------------------------------------------

// r (rows) = row sums of the row-major rows x k matrix R (device): in cuBLAS's
// column-major view R is k x rows, and r = R_cm' * 1.
static int row_sums (gg_devcall *c, gg_type t, const void *R, int64_t rows,
    int64_t k, void *r)
{
    int rc = GG_OK ;
    void *ones ;
    size_t elem = gg_type_size (t) ;
    if (rows == 0) return GG_OK ;
    if (k == 0)
    {
        CU_TRY (cudaMemsetAsync (r, 0, (size_t) rows * elem, c->ctx->stream)) ;
        return GG_OK ;
    }
    GG_TRY (tmp_alloc (c, &ones, (size_t) k * elem)) ;
    GG_TRY (fill_one (c, ones, t, (size_t) k)) ;
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

// FIRST / SECOND through the vendor library: the row sums of the operand
// the multiply reads (A's rows for FIRST, B's for SECOND; each m or n sums
// of k terms), computed on the device and brought to the host in *sums
// (malloc'd, the caller frees; NULL for PAIR or no rows).  SDDMM and GEMM
// then spread them over their outputs.
static int vendor_sums (gg_devcall *c, const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, dev_dense **fa, dev_dense **fb, void **sums)
{
    int rc = GG_OK ;
    const gg_type t = sr->type ;
    const size_t elem = gg_type_size (t) ;
    const int64_t k = A->ncols ;
    int64_t len = (sr->mul == GG_MUL_FIRST) ? A->nrows : B->nrows ;
    *sums = NULL ;
    if (sr->mul != GG_MUL_PAIR && len > 0)
    {
        const gg_dense *R = (sr->mul == GG_MUL_FIRST) ? A : B ;
        dev_dense **fr = (sr->mul == GG_MUL_FIRST) ? fa : fb ;
        void *dr ;
        if (*fr == NULL) GG_TRY (dense_get (c, R, elem, fr)) ;
        GG_TRY (tmp_alloc (c, &dr, (size_t) len * elem)) ;
        GG_TRY (row_sums (c, t, (*fr)->x, len, k, dr)) ;
        *sums = malloc ((size_t) len * elem) ;
        if (*sums == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
        GG_TRY (download (c, *sums, dr, (size_t) len * elem)) ;
    }
done:
    return rc ;
}

int sddmm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    int rc = GG_OK ;
    gg_type t = sr->type ;
    size_t elem = gg_type_size (t) ;
    int64_t m = M->nrows, n = M->ncols, k = A->ncols, nnz = M->nnz ;
    dev_csr *fm = NULL ;
    dev_dense *fa = NULL, *fb = NULL ;
    cusparseConstDnMatDescr_t Ad = NULL, Bd = NULL ;
    cusparseSpMatDescr_t Cd = NULL ;
    void *sums = NULL ;
    void *dy, *buf ;

    // the vendor libraries (row sums for FIRST / SECOND, cusparseSDDMM when
    // asked for) on ordinary values only, else our kernel (dense_vendor_ok)
    bool vendor = use_vendor (sr) && (sr->mul != GG_MUL_TIMES || kernel_is_vendor ()) ;
    if (vendor) GG_TRY (dense_vendor_ok (c, sr, A, B, &fa, &fb, &vendor)) ;
    if (vendor && sr->mul != GG_MUL_TIMES)
    {
        // FIRST: y [q] = sum_t A (i,t), SECOND: y [q] = sum_t B (j,t),
        // PAIR: y [q] = k.  Row sums on the device, spread on the host.
        GG_TRY (vendor_sums (c, sr, A, B, &fa, &fb, &sums)) ;
        for (int64_t i = 0 ; i < m ; i++)
        {
            for (int64_t q = M->p32 [i] ; q < M->p32 [i+1] ; q++)
            {
                double v = (sr->mul == GG_MUL_PAIR) ? (double) k
                    : get_value (sums, (size_t) ((sr->mul == GG_MUL_FIRST) ? i
                        : M->i32 [q]), t) ;
                put_value (y, (size_t) q, t, v) ;
            }
        }
        goto done ;
    }

    csr_needs nd = { .x = false, .ones = false, .t = t } ;
    GG_TRY (csr_get (c, M, &nd, &fm)) ;
    const void *dA = NULL, *dB = NULL ;
    if (A->x != NULL) { if (fa == NULL) GG_TRY (dense_get (c, A, elem, &fa)) ; dA = fa->x ; }
    if (B->x != NULL) { if (fb == NULL) GG_TRY (dense_get (c, B, elem, &fb)) ; dB = fb->x ; }
    GG_TRY (tmp_alloc (c, &dy, (size_t) nnz * elem)) ;

    // cusparseSDDMM fuses multiply-adds (one rounding where the CPU library
    // has two), so exact mode uses our own SDDMM; GRBGPU_KERNEL=cusparse
    // asks for the vendor's
    if (vendor)
    {
        // y = (A * B') .* spy (M): A m x k row-major; B (n x k row-major) is
        // B' (k x n) column-major with leading dimension k
        cudaDataType dt = cuda_type (t) ;
        cusparseHandle_t h = c->ctx->sparse ;
        float af = 1, bf = 0 ;
        double ad = 1, bd = 0 ;
        const void *alpha = (t == GG_FP32) ? (const void *) &af : (const void *) &ad ;
        const void *beta = (t == GG_FP32) ? (const void *) &bf : (const void *) &bd ;
        size_t bsize = 0 ;
        CU_TRY (cudaMemsetAsync (dy, 0, (size_t) nnz * elem, c->ctx->stream)) ;
        SP_TRY (cusparseCreateConstDnMat (&Ad, m, k, k, dA, dt,
            CUSPARSE_ORDER_ROW)) ;
        SP_TRY (cusparseCreateConstDnMat (&Bd, k, n, k, dB, dt,
            CUSPARSE_ORDER_COL)) ;
        SP_TRY (cusparseCreateCsr (&Cd, m, n, nnz, fm->p, fm->i, dy,
            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
            dt)) ;
        SP_TRY (cusparseSDDMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, Ad, Bd, beta, Cd, dt,
            CUSPARSE_SDDMM_ALG_DEFAULT, &bsize)) ;
        GG_TRY (tmp_alloc (c, &buf, bsize)) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        SP_TRY (cusparseSDDMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, Ad, Bd, beta, Cd, dt,
            CUSPARSE_SDDMM_ALG_DEFAULT, buf)) ;
        mark_end (c) ;
    }
    else
    {
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        GG_TRY (gg_cuda_sddmm (sr, m, n, k, nnz, fm->p, fm->i, dA, dB, dy,
            own_kernel_name (), c->ctx->stream)) ;
        mark_end (c) ;
    }
    GG_TRY (download (c, y, dy, (size_t) nnz * elem)) ;

done:
    stream_finish (c, &rc) ;
    if (Ad != NULL) cusparseDestroyDnMat (Ad) ;
    if (Bd != NULL) cusparseDestroyDnMat (Bd) ;
    if (Cd != NULL) cusparseDestroySpMat (Cd) ;
    free (sums) ;
    csr_unref (fm) ;
    dense_unref (fa) ;
    dense_unref (fb) ;
    return rc ;
}

//------------------------------------------------------------------------------
// GEMM: Y = A (+.*) B'
//------------------------------------------------------------------------------

int gemm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, void *Y)
{
    int rc = GG_OK ;
    gg_type t = sr->type ;
    size_t elem = gg_type_size (t) ;
    int64_t m = A->nrows, n = B->nrows, k = A->ncols ;
    dev_dense *fa = NULL, *fb = NULL ;
    void *sums = NULL ;
    void *dY ;

    // cuBLAS (row sums for FIRST / SECOND, GEMM for TIMES) on ordinary
    // values only, else our kernel (dense_vendor_ok)
    bool vendor = use_vendor (sr) ;
    if (vendor) GG_TRY (dense_vendor_ok (c, sr, A, B, &fa, &fb, &vendor)) ;
    if (vendor && sr->mul != GG_MUL_TIMES)
    {
        // FIRST: Y (i,j) = sum_t A (i,t); SECOND: Y (i,j) = sum_t B (j,t);
        // PAIR: Y (i,j) = k
        GG_TRY (vendor_sums (c, sr, A, B, &fa, &fb, &sums)) ;
        for (int64_t i = 0 ; i < m ; i++)
        {
            for (int64_t j = 0 ; j < n ; j++)
            {
                double v = (sr->mul == GG_MUL_PAIR) ? (double) k
                    : get_value (sums, (size_t) ((sr->mul == GG_MUL_FIRST) ? i
                        : j), t) ;
                put_value (Y, (size_t) (i * n + j), t, v) ;
            }
        }
        goto done ;
    }

    const void *dA = NULL, *dB = NULL ;
    if (A->x != NULL) { if (fa == NULL) GG_TRY (dense_get (c, A, elem, &fa)) ; dA = fa->x ; }
    if (B->x != NULL) { if (fb == NULL) GG_TRY (dense_get (c, B, elem, &fb)) ; dB = fb->x ; }
    GG_TRY (tmp_alloc (c, &dY, (size_t) m * (size_t) n * elem)) ;
    if (vendor)
    {
        // row-major Y = A B' is column-major Y' = B A', with A' (k x m, ld k)
        // and B' (k x n, ld k) as cuBLAS sees the row-major arrays:
        // Y' (n x m, ld n) = op_T (B') * A'
        if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
        {
            rc = GG_ERR_UNSUPPORTED ;
            goto done ;
        }
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        if (k == 0)
        {
            CU_TRY (cudaMemsetAsync (dY, 0, (size_t) m * (size_t) n * elem,
                c->ctx->stream)) ;
        }
        else if (t == GG_FP32)
        {
            float a = 1, b = 0 ;
            BL_TRY (cublasSgemm (c->ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N,
                (int) n, (int) m, (int) k, &a, dB, (int) k, dA, (int) k, &b,
                dY, (int) n)) ;
        }
        else
        {
            double a = 1, b = 0 ;
            BL_TRY (cublasDgemm (c->ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N,
                (int) n, (int) m, (int) k, &a, dB, (int) k, dA, (int) k, &b,
                dY, (int) n)) ;
        }
        mark_end (c) ;
    }
    else
    {
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        GG_TRY (gg_cuda_gemm (sr, m, n, k, dA, dB, dY, c->ctx->stream)) ;
        mark_end (c) ;
    }
    GG_TRY (download (c, Y, dY, (size_t) m * (size_t) n * elem)) ;

done:
    stream_finish (c, &rc) ;
    free (sums) ;
    dense_unref (fa) ;
    dense_unref (fb) ;
    return rc ;
}
