//------------------------------------------------------------------------------
// backend/cuda/form_band.c: the band SpMV form, made once per CSR form
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what); the shared form glue is in backend/cuda/forms.c (forms.h).

#include "backend/cuda/forms.h"

// there is none (no band worth staging, its bands hold too few of the
// entries, a type it does not take, or it could not be made: the call then
// takes the other SpMV kernels).  Made with f's values when f has them.
int band_form (gg_devcall *c, const gg_csr *S, dev_csr *f, size_t elem,
    const gg_spmv_band_form **band)
{
    int rc = GG_OK ;
    gg_spmv_band_form *bf = NULL ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->band_tried)
    {
        f->band_tried = true ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        const void *x = (f->x != NULL && gg_type_size (f->xtype) == elem) ? f->x : NULL ;
        // GRBGPU_KERNEL=band: every band that has entries (tests)
        const char *forced = own_kernel_name () ;
        const bool force = (forced != NULL && strcmp (forced, "band") == 0) ;
        int brc = gg_cuda_spmv_band_build (f->m, f->k, f->nnz, f->p, f->i, x,
            (int) elem, 0, force ? 1 : -1, &bf, c->ctx->stream) ;
        // no form for this type or shape, or no room for it (its scratch is
        // ~36 bytes per entry): the other kernels answer
        if (brc == GG_ERR_DEVMEM)
            grbgpu_log (1, "cuda: band SpMV form: no device memory for it") ;
        if (brc == GG_ERR_UNSUPPORTED || brc == GG_ERR_DEVMEM) brc = GG_OK ;
        GG_TRY (brc) ;
        gg_spmv_band_info info ;
        gg_cuda_spmv_band_info (bf, &info) ;
        // it paid on R-MAT with 92-94 % of the entries in bands (bench/NOTES.md)
        // (GRBGPU_KERNEL=band takes it whatever the share)
        bool keep = bf != NULL && (force
            || (double) info.band_nnz >= GG_BAND_MIN_SHARE * (double) f->nnz) ;
        grbgpu_log (2, "cuda: band SpMV form: %d bands of %lld columns holding "
            "%.1f%% of the entries, %.1f MB%s", info.nbands, (long long) info.width,
            f->nnz ? 100.0 * (double) info.band_nnz / (double) f->nnz : 0.0,
            (double) info.bytes / 1e6, keep ? "" : " (not used)") ;
        if (keep)
        {
            f->band = bf ;
            bf = NULL ;
            form_grow (S, f, info.bytes) ;
        }
    }
    *band = f->band ;
done:
    gg_cuda_spmv_band_free (bf, true, c->ctx->stream) ;
    pthread_mutex_unlock (&f->plan_lock) ;
    if (rc != GG_OK) *band = NULL ;
    return rc ;
}

// The hot/cold SpMV form of f (once per form; later calls read what the
// first made).  *K = 0: none (too few hot columns, or it could not be made:
