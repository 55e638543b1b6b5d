//------------------------------------------------------------------------------
// backend/cuda/form_dense.c: the dense device form (a copy of a dense operand)
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what); the shared form glue is in backend/cuda/forms.c (forms.h).

#include "backend/cuda/forms.h"

static void dense_destroy (dev_form *h)
{
    dev_dense *f = (dev_dense *) h ;
    void *const ptrs [1] = { f->x } ;
    form_free_device (h, ptrs, 1, NULL) ;
    free (f) ;
}
void dense_unref (dev_dense *f) { if (f != NULL) form_unref (&f->h) ; }

//------------------------------------------------------------------------------
// device forms: dense
//------------------------------------------------------------------------------

typedef struct
{
    const gg_dense *X ; size_t elem ;
    const dev_dense *src ; int src_dev ;    // copy from src, else upload X
}
dense_arg ;

static _Atomic uint64_t peer_copies = 0 ;
uint64_t gg_cuda_peer_copies (void) { return atomic_load (&peer_copies) ; }

static bool dense_fits (const dev_form *h, const void *arg)
{
    const dense_arg *a = (const dense_arg *) arg ;
    if (h->magic != GG_FORM_MAGIC_DENSE || h->generation != atomic_load (&gg_cuda_generation)) return false ;
    const dev_dense *f = (const dev_dense *) h ;
    return f->nrows == a->X->nrows && f->ncols == a->X->ncols && f->elem == a->elem ;
}

// Build a device copy of a dense operand (uploaded, or copied from another
// device's); one reference (the caller's).
static int dense_build (gg_devcall *c, const void *arg, dev_form **out)
{
    const dense_arg *a = (const dense_arg *) arg ;
    const gg_dense *X = a->X ;
    const size_t elem = a->elem ;
    int rc = GG_OK ;
    *out = NULL ;
    dev_dense *f = (dev_dense *) form_new (c, sizeof (dev_dense), GG_FORM_MAGIC_DENSE, dense_destroy) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->nrows = X->nrows ; f->ncols = X->ncols ; f->elem = elem ;
    f->h.bytes = (size_t) X->nrows * (size_t) X->ncols * elem ;
    CU_TRY (cudaEventCreateWithFlags (&f->h.ready, cudaEventDisableTiming)) ;
    GG_TRY (dev_alloc (c, &f->x, f->h.bytes)) ;
    if (a->src != NULL)
    {
        FAULT_TRY (GG_FAULT_COPY) ;
        CU_TRY (cudaMemcpyPeerAsync (f->x, gg_cuda_phys (c->ctx->device), a->src->x,
            gg_cuda_phys (a->src_dev), f->h.bytes, c->ctx->stream)) ;
        atomic_fetch_add (&peer_copies, 1) ;
    }
    else GG_TRY (upload (c, f->x, X->x, f->h.bytes)) ;
    CU_TRY (cudaEventRecord (f->h.ready, c->ctx->stream)) ;
    *out = &f->h ;
    f = NULL ;
done:
    if (f != NULL)
    {
        if (f->x != NULL) cudaFreeAsync (f->x, c->ctx->stream) ;
        f->x = NULL ;
        dense_destroy (&f->h) ;
    }
    return rc ;
}

// The device copy of a dense operand (see form_get).
int dense_get_from (gg_devcall *c, gg_cache_entry *e, const gg_dense *X,
    size_t elem, const dev_dense *src, int src_dev, dev_dense **out)
{
    dense_arg a = { X, elem, src, src_dev } ;
    dev_form *h = NULL ;
    int rc = form_get (c, e, dense_fits, dense_build, &a, &h) ;
    *out = (dev_dense *) h ;
    return rc ;
}

int dense_get (gg_devcall *c, const gg_dense *X, size_t elem,
    dev_dense **out)
{
    return dense_get_from (c, (gg_cache_entry *) X->cache, X, elem, NULL, 0, out) ;
}
