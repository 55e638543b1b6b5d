//------------------------------------------------------------------------------
// backend/cuda/spmm.c: SpMM / SpMV: Y = S (+.*) X
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).

#include "backend/cuda/cuda_internal.h"

//------------------------------------------------------------------------------
// SpMM: Y = S (+.*) X
//------------------------------------------------------------------------------

int spmm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y)
{
    int rc = GG_OK ;
    gg_type t = sr->type ;
    size_t elem = gg_type_size (t) ;
    int64_t m = S->nrows, k = S->ncols, n = X->ncols ;
    dev_csr *fs = NULL ;
    dev_dense *fx = NULL ;
    void *dY = NULL ;

    // cuSPARSE on ordinary values only, else our kernels (spmm_vendor_ok)
    bool vendor = spmm_use_vendor (sr, S, n) ;
    if (vendor) GG_TRY (spmm_vendor_ok (c, sr, S, X, &fs, &fx, &vendor)) ;
    if (vendor)
    {
        // FIRST and PAIR: Y (i,:) = r (i) for every column, r = S_vals * 1
        // with S_vals = s (FIRST) or 1 (PAIR): one SpMV, and only m values
        // come back.  TIMES: S_vals = s, SECOND: S_vals = 1, times X.
        bool rowsum = (sr->mul == GG_MUL_FIRST || sr->mul == GG_MUL_PAIR) ;
        bool use_x = (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST) ;
        csr_needs nd = { .x = use_x, .ones = !use_x, .t = t } ;
        if (fs == NULL) GG_TRY (csr_get (c, S, &nd, &fs)) ;
        const void *vals = use_x ? fs->x : fs->ones ;
        const void *dX ;
        int64_t nn = rowsum ? 1 : n ;
        if (rowsum)
        {
            void *ones ;
            GG_TRY (tmp_alloc (c, &ones, (size_t) k * elem)) ;
            GG_TRY (fill_one (c, ones, t, (size_t) k)) ;
            dX = ones ;
        }
        else
        {
            if (fx == NULL) GG_TRY (dense_get (c, X, elem, &fx)) ;
            dX = fx->x ;
        }
        GG_TRY (tmp_alloc (c, &dY, (size_t) m * (size_t) nn * elem)) ;
        mark_start (c) ;
        GG_TRY (sparse_product (c, fs, vals, t, nn, dX, dY)) ;
        mark_end (c) ;
        if (rowsum && n > 1)
        {
            // r comes down (m values) and is spread over each row of Y
            char *r = malloc ((size_t) (m > 0 ? m : 1) * elem) ;
            if (r == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            rc = download (c, r, dY, (size_t) m * elem) ;
            if (rc != GG_OK) { free (r) ; goto done ; }
            #pragma omp parallel for schedule(static) if (m * n > 1000000)
            for (int64_t i = 0 ; i < m ; i++)
            {
                char *row = (char *) Y + (size_t) (i * n) * elem ;
                for (int64_t j = 0 ; j < n ; j++) memcpy (row + (size_t) j * elem, r + (size_t) i * elem, elem) ;
            }
            free (r) ;
        }
        else
        {
            GG_TRY (download (c, Y, dY, (size_t) m * (size_t) nn * elem)) ;
        }
    }
    else
    {
        // grbgpu's own kernels: any semiring and type
        // (fs and fx may come from spmm_vendor_ok: S's values in type t)
        bool use_s = (S->x != NULL) ;
        csr_needs nd = { .x = use_s, .ones = false, .t = t } ;
        if (fs == NULL) GG_TRY (csr_get (c, S, &nd, &fs)) ;
        const void *dX = NULL ;
        if (X->x != NULL)
        {
            if (fx == NULL) GG_TRY (dense_get (c, X, elem, &fx)) ;
            dX = fx->x ;
        }
        GG_TRY (tmp_alloc (c, &dY, (size_t) m * (size_t) n * elem)) ;
        if (!S->no_empty_rows)
        {
            // the kernels leave empty rows unwritten: give them defined
            // values (they are absent from T; the host writes no zeros)
            CU_TRY (cudaMemsetAsync (dY, 0, (size_t) m * (size_t) n * elem, c->ctx->stream)) ;
        }
        // the band SpMV where it pays, else the hot/cold one, else the other
        // kernels.  Both forms serve x's gathers: a multiply that ignores x
        // makes neither.  Each kernel answers GG_ERR_UNSUPPORTED for what its
        // form cannot do (the hot/cold one: more hot columns than this value
        // type's shared memory holds).
        int64_t K = 0 ;
        const gg_spmv_band_form *bf = NULL ;
        if (dX != NULL && spmv_use_band (sr, S, n)) GG_TRY (band_form (c, S, fs, elem, &bf)) ;
        if (dX != NULL && bf == NULL && spmv_use_hot (sr, S, n)) GG_TRY (hot_form (c, S, fs, elem, &K)) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        rc = (bf != NULL) ? gg_cuda_spmv_band (sr, bf, use_s ? fs->x : NULL,
                false, dX, dY, c->ctx->stream)
            : (K > 0) ? gg_cuda_spmv_hot (sr, m, k, S->nnz, fs->p, fs->ih,
                use_s ? fs->x : NULL, false, dX, dY, fs->spmv_plan, fs->hot, K,
                c->ctx->stream)
            : GG_ERR_UNSUPPORTED ;
        if (rc == GG_ERR_UNSUPPORTED)
        {
            GG_TRY (gg_cuda_spmm_plan (sr, m, k, n, S->nnz, fs->p, fs->i,
                use_s ? fs->x : NULL, false, dX, dY, fs->spmv_plan,
                spmm_kernel_name (S, n), c->ctx->stream)) ;
        }
        else if (rc != GG_OK) goto done ;
        mark_end (c) ;
        GG_TRY (download (c, Y, dY, (size_t) m * (size_t) n * elem)) ;
    }
done:
    stream_finish (c, &rc) ;
    csr_unref (fs) ;
    dense_unref (fx) ;
    return rc ;
}
