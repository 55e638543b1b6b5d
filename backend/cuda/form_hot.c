//------------------------------------------------------------------------------
// backend/cuda/form_hot.c: the hot/cold SpMV form, made once per CSR form
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what); the shared form glue is in backend/cuda/forms.c (forms.h).

#include "backend/cuda/forms.h"

// the call then takes the other SpMV kernels).  The build synchronises the
// call's stream once; its device memory is accounted to S's cache entry.
int hot_form (gg_devcall *c, const gg_csr *S, dev_csr *f, size_t elem,
    int64_t *K)
{
    int rc = GG_OK ;
    int32_t *hot = NULL, *ih = NULL ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->hot_tried)
    {
        f->hot_tried = true ;
        // sized for this call's value type (a later call of a wider type
        // finds too many hot columns for its shared memory and goes without)
        int64_t kmax = (int64_t) gg_cuda_spmv_hot_max ((int) elem) ;
        if (kmax > f->k) kmax = f->k ;
        int64_t got = 0, hot_nnz = 0 ;
        if (kmax > 0)
        {
            GG_TRY (dev_alloc (c, (void **) &hot, (size_t) kmax * sizeof (int32_t))) ;
            GG_TRY (dev_alloc (c, (void **) &ih, (size_t) f->nnz * sizeof (int32_t))) ;
            FAULT_TRY (GG_FAULT_LAUNCH) ;
            GG_TRY (gg_cuda_spmv_hot_build (f->m, f->k, f->nnz, f->p, f->i,
                kmax, hot, ih, &got, &hot_nnz, c->ctx->stream)) ;
        }
        // it pays from ~55 % of the entries in the hot columns (bench/NOTES.md)
        // (GRBGPU_KERNEL=hot takes it whatever the share)
        const char *forced = own_kernel_name () ;
        if ((forced == NULL || strcmp (forced, "hot") != 0)
            && (double) hot_nnz < GG_HOT_MIN_SHARE * (double) f->nnz) got = 0 ;
        if (got > 0)
        {
            f->hot = hot ; f->ih = ih ; f->hot_K = got ;
            hot = ih = NULL ;
            form_grow (S, f, (size_t) kmax * sizeof (int32_t)
                + (size_t) f->nnz * sizeof (int32_t)) ;
        }
        grbgpu_log (2, "cuda: hot/cold SpMV form: %lld hot columns holding "
            "%.1f%% of the entries%s", (long long) got, f->nnz ? 100.0 *
            (double) hot_nnz / (double) f->nnz : 0.0, got ? "" : " (not used)") ;
    }
    *K = f->hot_K ;
done:
    if (hot != NULL) cudaFreeAsync (hot, c->ctx->stream) ;
    if (ih != NULL) cudaFreeAsync (ih, c->ctx->stream) ;
    pthread_mutex_unlock (&f->plan_lock) ;
    if (rc != GG_OK) *K = 0 ;
    return rc ;
}
