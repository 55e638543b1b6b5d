//------------------------------------------------------------------------------
// backend/cuda/form_csr.c: the CSR device form (pattern, values, ones, SpMV plan)
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what); the shared form glue is in backend/cuda/forms.c (forms.h).

#include "backend/cuda/forms.h"

void csr_form_destroy (dev_form *h)
{
    dev_csr *f = (dev_csr *) h ;
    void *const ptrs [8] = { f->p, f->i, f->x, f->ones, f->spmv_plan, f->hot,
        f->ih, f->ri } ;
    form_free_device (h, ptrs, 8, f) ;
    csr_unref (f->t) ;          // the transposed form, when made
    pthread_mutex_destroy (&f->plan_lock) ;
    free (f) ;
}
void csr_unref (dev_csr *f) { if (f != NULL) form_unref (&f->h) ; }

//------------------------------------------------------------------------------
// device forms: CSR
//------------------------------------------------------------------------------

typedef struct { const gg_csr *S ; const csr_needs *nd ; } csr_arg ;

static bool csr_fits (const dev_form *h, const void *arg)
{
    const gg_csr *S = ((const csr_arg *) arg)->S ;
    const csr_needs *nd = ((const csr_arg *) arg)->nd ;
    if (h->magic != GG_FORM_MAGIC_CSR || h->generation != atomic_load (&gg_cuda_generation)) return false ;
    const dev_csr *f = (const dev_csr *) h ;
    return f->m == S->nrows && f->k == S->ncols && f->nnz == S->nnz
        && (!nd->x || (f->x != NULL && f->xtype == nd->t))
        && (!nd->ones || (f->ones != NULL && f->onestype == nd->t)) ;
}

// Build a device form of S with what nd asks for; one reference (the caller's).
static int csr_build (gg_devcall *c, const void *arg, dev_form **out)
{
    const gg_csr *S = ((const csr_arg *) arg)->S ;
    const csr_needs *nd = ((const csr_arg *) arg)->nd ;
    int rc = GG_OK ;
    *out = NULL ;
    dev_csr *f = (dev_csr *) form_new (c, sizeof (dev_csr), GG_FORM_MAGIC_CSR, csr_form_destroy) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->m = S->nrows ; f->k = S->ncols ; f->nnz = S->nnz ;
    pthread_mutex_init (&f->plan_lock, NULL) ;
    size_t pb = (size_t) (S->nrows + 1) * sizeof (int32_t) ;
    size_t ib = (size_t) S->nnz * sizeof (int32_t) ;
    size_t vb = (size_t) S->nnz * gg_type_size (nd->t) ;
    CU_TRY (cudaEventCreateWithFlags (&f->h.ready, cudaEventDisableTiming)) ;
    GG_TRY (dev_alloc (c, (void **) &f->p, pb)) ;
    GG_TRY (dev_alloc (c, (void **) &f->i, ib)) ;
    GG_TRY (upload (c, f->p, S->p32, pb)) ;
    GG_TRY (upload (c, f->i, S->i32, ib)) ;
    f->h.bytes = pb + ib ;
    GG_TRY (csr_form_plan (c, f)) ;
    if (nd->x)
    {
        GG_TRY (dev_alloc (c, &f->x, vb)) ;
        if (S->iso)
        {
            // expand the single value: every consumer then sees plain values
            GG_TRY (fill_value (c, f->x, S->x, gg_type_size (nd->t),
                (size_t) S->nnz)) ;
        }
        else
        {
            GG_TRY (upload (c, f->x, S->x, vb)) ;
        }
        f->xtype = nd->t ;
        f->h.bytes += vb ;
    }
    if (nd->ones) GG_TRY (csr_form_ones (c, f, nd->t)) ;
    CU_TRY (cudaEventRecord (f->h.ready, c->ctx->stream)) ;
    *out = &f->h ;
    f = NULL ;
done:
    csr_form_discard (c, f) ;
    return rc ;
}

// The row of every 256th entry: 4 bytes per 256 entries, made once for the
// pattern so that the own SpMV kernels need no search per call (a pattern
// the plan cannot describe goes without: the kernels then make one per call
// or the chooser takes another variant).
int csr_form_plan (gg_devcall *c, dev_csr *f)
{
    int rc = GG_OK ;
    if (f->nnz > 0)
    {
        size_t qb = gg_cuda_spmv_plan_bytes (f->nnz) ;
        GG_TRY (dev_alloc (c, &f->spmv_plan, qb)) ;
        int prc = gg_cuda_spmv_plan_build (f->m, f->nnz, f->p,
            f->spmv_plan, c->ctx->stream) ;
        if (prc == GG_ERR_UNSUPPORTED)
        {
            CU_TRY (cudaFreeAsync (f->spmv_plan, c->ctx->stream)) ;
            f->spmv_plan = NULL ;
        }
        else
        {
            GG_TRY (prc) ;
            f->h.bytes += qb ;
        }
    }
done:
    return rc ;
}

// nnz ones of type t (cuSPARSE's values for SECOND / PAIR).
int csr_form_ones (gg_devcall *c, dev_csr *f, gg_type t)
{
    int rc = GG_OK ;
    size_t vb = (size_t) f->nnz * gg_type_size (t) ;
    GG_TRY (dev_alloc (c, &f->ones, vb)) ;
    GG_TRY (fill_one (c, f->ones, t, (size_t) f->nnz)) ;
    f->onestype = t ;
    f->h.bytes += vb ;
done:
    return rc ;
}

// A form that failed half-built (NULL: nothing), its arrays still in this
// call's stream order: free them there.
void csr_form_discard (gg_devcall *c, dev_csr *f)
{
    if (f == NULL) return ;
    if (f->p) cudaFreeAsync (f->p, c->ctx->stream) ;
    if (f->i) cudaFreeAsync (f->i, c->ctx->stream) ;
    if (f->x) cudaFreeAsync (f->x, c->ctx->stream) ;
    if (f->ones) cudaFreeAsync (f->ones, c->ctx->stream) ;
    if (f->spmv_plan) cudaFreeAsync (f->spmv_plan, c->ctx->stream) ;
    f->p = f->i = NULL ; f->x = f->ones = f->spmv_plan = NULL ;
    csr_form_destroy (&f->h) ;
}

// The device form of S (see form_get).
int csr_get (gg_devcall *c, const gg_csr *S, const csr_needs *nd,
    dev_csr **out)
{
    csr_arg a = { S, nd } ;
    dev_form *h = NULL ;
    int rc = form_get (c, (gg_cache_entry *) S->cache, csr_fits, csr_build, &a, &h) ;
    *out = (dev_csr *) h ;
    return rc ;
}
