//------------------------------------------------------------------------------
// backend/cuda/forms.c: the device-form cache glue (new, get, references, free)
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).  Each form lives in a file of its own (form_csr.c, form_dense.c,
// form_band.c, form_hot.c); what they share is declared in forms.h.

#include "backend/cuda/forms.h"

//------------------------------------------------------------------------------
// device forms of operands
//------------------------------------------------------------------------------

void plan_clear (gg_sp_plan *pl, cudaStream_t s)
{
    if (!pl->valid) return ;
    if (pl->A != NULL && cusparseDestroySpMat (pl->A) != CUSPARSE_STATUS_SUCCESS)
        grbgpu_log (1, "cuda: cusparseDestroySpMat failed") ;
    if (pl->buf != NULL)
    {
        if (pl->last != NULL) CU_LOG (cudaStreamWaitEvent (s, pl->last, 0)) ;
        CU_LOG (cudaFreeAsync (pl->buf, s)) ;
    }
    if (pl->last != NULL) CU_LOG (cudaEventDestroy (pl->last)) ;
    memset (pl, 0, sizeof (*pl)) ;
}

// Free a form's device memory: its users have all synchronised (they dropped
// their references after the product finished), and its build is waited for
// (its ready event), so any stream of the form's device will do: that
// device's free stream, with the device made current
// around the frees and the caller's restored.  A form made by another
// start-up (a forked child's parent) owns nothing here.  (A device that
// cannot be made current, or has no free stream, keeps the memory: logged.)
void form_free_device (dev_form *h, void *const *ptrs, int nptrs,
    dev_csr *plans)
{
    int old = 0 ;
    cudaStream_t fs = NULL ;
    bool here = h->generation == atomic_load (&gg_cuda_generation)
        && atomic_load (&gg_cuda_started_pid) == getpid () ;
    if (here)
    {
        cudaError_t e = cudaGetDevice (&old) ;
        if (e == cudaSuccess) e = cudaSetDevice (h->phys) ;
        if (e != cudaSuccess) (void) cuda_fail (e, "cudaSetDevice (form's device)", __LINE__) ;
        here = (e == cudaSuccess) && (fs = gg_cuda_free_stream_of (h->phys)) != NULL ;
        if (!here)
        {
            grbgpu_log (1, "cuda: a form of device %d could not be freed there",
                h->device) ;
            (void) cudaGetLastError () ;
            (void) cudaSetDevice (old) ;
        }
    }
    if (!here)
    {
        // the host parts of the band, tensor-core and N:M forms only
        if (plans != NULL)
        {
            gg_cuda_spmv_band_free (plans->band, false, NULL) ;
            tc_forms_release (plans, NULL) ;
            nm_form_release (plans, NULL) ;
            rows_form_release (plans, NULL) ;
        }
        return ;
    }
    // a form discarded right after its build (form_get: another thread
    // attached one meanwhile) may still have its uploads in flight on the
    // builder's stream: the frees wait for them (the build's last act)
    if (h->ready != NULL) CU_LOG (cudaStreamWaitEvent (fs, h->ready, 0)) ;
    if (plans != NULL)
    {
        for (int k = 0 ; k < GG_PLANS ; k++) plan_clear (&plans->plan [k], fs) ;
        gg_cuda_spmv_band_free (plans->band, true, fs) ;
        tc_forms_release (plans, fs) ;
        nm_form_release (plans, fs) ;
        rows_form_release (plans, fs) ;
    }
    for (int k = 0 ; k < nptrs ; k++) if (ptrs [k] != NULL) CU_LOG (cudaFreeAsync (ptrs [k], fs)) ;
    if (h->ready != NULL) CU_LOG (cudaEventDestroy (h->ready)) ;
    CU_LOG (cudaSetDevice (old)) ;
}

void form_unref (dev_form *h)
{
    if (h != NULL && atomic_fetch_sub (&h->refs, 1) == 1) h->destroy (h) ;
}
// The cache's dev_free: drop the entry's reference.
static void form_dev_free (void *dev) { form_unref ((dev_form *) dev) ; }

// A new form of this kind with one reference (the caller's), or NULL; it
// belongs to the device of c's context.
dev_form *form_new (gg_devcall *c, size_t size, unsigned magic,
    void (*destroy) (dev_form *))
{
    dev_form *h = calloc (1, size) ;
    if (h == NULL) return NULL ;
    h->magic = magic ;
    h->device = c->ctx->device ;
    h->phys = gg_cuda_phys (h->device) ;
    atomic_init (&h->refs, 1) ;
    h->generation = atomic_load (&gg_cuda_generation) ;
    h->destroy = destroy ;
    return h ;
}

// The device form attached to cache entry e when fits () accepts it, else a
// new one from build () (attached to e, replacing one that does not fit).
// Returns it with a reference for the caller; the call's stream waits for
// its uploads.

int form_get (gg_devcall *c, gg_cache_entry *e, form_fits_fn fits,
    form_build_fn build, const void *arg, dev_form **out)
{
    int rc = GG_OK ;
    dev_form *f = NULL ;
    *out = NULL ;
    if (e != NULL)
    {
        pthread_mutex_lock (&e->lock) ;
        dev_form *have = (dev_form *) e->dev ;
        if (have != NULL && have->device == c->ctx->device && fits (have, arg))
        {
            atomic_fetch_add (&have->refs, 1) ;
            f = have ;
        }
        pthread_mutex_unlock (&e->lock) ;
    }
    if (f == NULL)
    {
        GG_TRY (build (c, arg, &f)) ;
        if (e != NULL)
        {
            pthread_mutex_lock (&e->lock) ;
            dev_form *have = (dev_form *) e->dev ;
            if (have != NULL && have->device == c->ctx->device && fits (have, arg))
            {
                // another thread attached one meanwhile: use that one
                atomic_fetch_add (&have->refs, 1) ;
                pthread_mutex_unlock (&e->lock) ;
                form_unref (f) ;
                f = have ;
            }
            else
            {
                if (have != NULL && e->dev_free != NULL) e->dev_free (have) ;
                atomic_fetch_add (&f->refs, 1) ;      // the entry's reference
                e->dev = f ;
                e->dev_bytes = f->bytes ;
                e->dev_free = form_dev_free ;
                grbgpu_cache_account_device (e, f->device, f->bytes) ;
                pthread_mutex_unlock (&e->lock) ;
            }
        }
    }
    CU_TRY (cudaStreamWaitEvent (c->ctx->stream, f->ready, 0)) ;
    *out = f ;
    f = NULL ;
done:
    form_unref (f) ;
    return rc ;
}


// Account `more` bytes of device memory to f and its cache entry: f is the
// entry's form, or the transposed form (form_csrt.c) of it, whose bytes
// count in its owner's too.
void form_grow (const gg_csr *S, dev_csr *f, size_t more)
{
    gg_cache_entry *e = (gg_cache_entry *) S->cache ;
    if (e != NULL)
    {
        pthread_mutex_lock (&e->lock) ;
        f->h.bytes += more ;
        dev_form *have = (dev_form *) e->dev ;
        if (have == &f->h) grbgpu_cache_account_device (e, f->h.device, f->h.bytes) ;
        else if (have != NULL && have->magic == GG_FORM_MAGIC_CSR
            && ((dev_csr *) have)->t == f)
        {
            // (the owner's t is set under this lock: form_csrt.c)
            have->bytes += more ;
            grbgpu_cache_account_device (e, have->device, have->bytes) ;
        }
        pthread_mutex_unlock (&e->lock) ;
    }
    else f->h.bytes += more ;
}

// The band SpMV form of f (once per form, like hot_form): *band = NULL when
