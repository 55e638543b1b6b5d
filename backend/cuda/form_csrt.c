//------------------------------------------------------------------------------
// backend/cuda/form_csrt.c: the transpose of a CSR form, made on the device
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what); the shared form glue is in backend/cuda/forms.c (forms.h).
//
// GrB_vxm (w' = u' A, computed as w = A' u) with A held by row, and every
// other product by op (A)' whose storage gives op (A) directly, reaches the
// backend as A's own CSR with gg_csr.transposed set (backend/dispatch).  A's
// device form is the one GrB_mxv reads (csr_get on the same cache entry);
// its transpose is made from it on the device (kernels/csr_transpose: a
// stable radix sort, bit-identical to the host's transpose) at the first such
// product, and kept as a dev_csr of its own hanging off A's form (dev_csr.t):
// freed with it, its bytes counted in A's form and cache entry, with its own
// SpMV plan, staged forms and chooser memory.  A new version of A is a new
// cache entry, hence a new A form and a new transpose.

#include "backend/cuda/forms.h"
#include "kernels/csr_transpose/csr_transpose.h"

static _Atomic uint64_t csrt_count = 0 ;
uint64_t gg_csrt_builds (void) { return atomic_load (&csrt_count) ; }

// Whether t has what the product reads.
static bool csrt_fits (const dev_csr *t, const csr_needs *nd)
{
    return (!nd->x || (t->x != NULL && t->xtype == nd->t))
        && (!nd->ones || (t->ones != NULL && t->onestype == nd->t)) ;
}

// The transpose of fa (which has values of type nd->t when nd->x), with what
// nd asks for; one reference (the caller's).  The build waits for its row
// statistics (16 bytes down), so the call's stream is synchronised once.
static int csrt_build (gg_devcall *c, const dev_csr *fa, const csr_needs *nd,
    dev_csr **out)
{
    int rc = GG_OK ;
    void *scratch = NULL ;
    *out = NULL ;
    dev_csr *t = (dev_csr *) form_new (c, sizeof (dev_csr), GG_FORM_MAGIC_CSR,
        csr_form_destroy) ;
    if (t == NULL) return GG_ERR_NOMEM ;
    pthread_mutex_init (&t->plan_lock, NULL) ;
    t->m = fa->k ; t->k = fa->m ; t->nnz = fa->nnz ;
    const size_t elem = gg_type_size (nd->t) ;
    const bool vals = nd->x ;
    if (vals && (fa->x == NULL || fa->xtype != nd->t)) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    CU_TRY (cudaEventCreateWithFlags (&t->h.ready, cudaEventDisableTiming)) ;
    FAULT_TRY (GG_FAULT_CONVERT) ;
    size_t sb = gg_cuda_csr_transpose_scratch_bytes (fa->m, fa->k, fa->nnz,
        vals ? (int) elem : 0, NULL) ;
    if (sb == 0) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    const size_t sb_al = (sb + 255) & ~(size_t) 255 ;
    const size_t pb = (size_t) (t->m + 1) * sizeof (int32_t) ;
    const size_t ib = (size_t) t->nnz * sizeof (int32_t) ;
    const size_t vb = (size_t) t->nnz * elem ;
    // the scratch, then 16 bytes for the row statistics
    GG_TRY (dev_alloc (c, &scratch, sb_al + 2 * sizeof (int64_t))) ;
    GG_TRY (dev_alloc (c, (void **) &t->p, pb)) ;
    GG_TRY (dev_alloc (c, (void **) &t->i, ib)) ;
    t->h.bytes = pb + ib ;
    if (vals)
    {
        GG_TRY (dev_alloc (c, &t->x, vb)) ;
        t->xtype = nd->t ;
        t->h.bytes += vb ;
    }
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    GG_TRY (gg_cuda_csr_transpose (fa->m, fa->k, fa->nnz, fa->p, fa->i,
        vals ? fa->x : NULL, (int) elem, false, t->p, t->i, vals ? t->x : NULL,
        scratch, sb, NULL, c->ctx->stream)) ;
    int64_t *dstats = (int64_t *) (void *) ((char *) scratch + sb_al) ;
    GG_TRY (gg_cuda_csr_row_stats (t->m, t->p, NULL, dstats, c->ctx->stream)) ;
    GG_TRY (csr_form_plan (c, t)) ;
    if (nd->ones) GG_TRY (csr_form_ones (c, t, nd->t)) ;
    int64_t stats [2] = { 0, 0 } ;
    GG_TRY (download (c, stats, dstats, sizeof (stats))) ;
    t->max_row = stats [0] ;
    t->nonempty = stats [1] ;
    CU_TRY (cudaEventRecord (t->h.ready, c->ctx->stream)) ;
    atomic_fetch_add (&csrt_count, 1) ;
    grbgpu_log (2, "cuda: transposed CSR form made on the device: %lldx%lld, "
        "%lld entries, %.1f MB", (long long) t->m, (long long) t->k,
        (long long) t->nnz, (double) t->h.bytes / 1e6) ;
    *out = t ;
    t = NULL ;
done:
    if (scratch != NULL) cudaFreeAsync (scratch, c->ctx->stream) ;
    csr_form_discard (c, t) ;
    return rc ;
}

int csrt_get (gg_devcall *c, const gg_csr *S, const csr_needs *nd,
    dev_csr **out)
{
    int rc = GG_OK ;
    dev_csr *fa = NULL, *t = NULL, *old = NULL ;
    *out = NULL ;
    // A's own CSR: S's arrays as they are (the form GrB_mxv finds)
    gg_csr A = *S ;
    A.nrows = S->ncols ; A.ncols = S->nrows ; A.transposed = false ;
    A.max_row = -1 ; A.no_empty_rows = false ; A.present = NULL ; A.nonempty = 0 ;
    csr_needs nda = { .x = nd->x, .ones = false, .t = nd->t } ;
    GG_TRY (csr_get (c, &A, &nda, &fa)) ;
    pthread_mutex_lock (&fa->plan_lock) ;
    if (fa->t != NULL && csrt_fits (fa->t, nd))
    {
        t = fa->t ;
        atomic_fetch_add (&t->h.refs, 1) ;
    }
    else
    {
        // (what the one it replaces had, it keeps: products of several
        // semirings on one A do not make it over and over)
        csr_needs nt = *nd ;
        const dev_csr *had = fa->t ;
        if (had != NULL && had->x != NULL && had->xtype == nd->t
            && fa->x != NULL && fa->xtype == nd->t) nt.x = true ;
        if (had != NULL && had->ones != NULL && had->onestype == nd->t) nt.ones = true ;
        rc = csrt_build (c, fa, &nt, &t) ;
        if (rc == GG_OK)
        {
            // attach it (A's form's reference), replacing one that lacked
            // what this product reads; its bytes go to A's form and entry
            gg_cache_entry *e = (gg_cache_entry *) S->cache ;
            atomic_fetch_add (&t->h.refs, 1) ;
            if (e != NULL) pthread_mutex_lock (&e->lock) ;
            old = fa->t ;
            fa->t = t ;
            fa->h.bytes += t->h.bytes ;
            if (old != NULL) fa->h.bytes -= old->h.bytes ;
            if (e != NULL && e->dev == (void *) fa) grbgpu_cache_account_device (e, fa->h.device, fa->h.bytes) ;
            if (e != NULL) pthread_mutex_unlock (&e->lock) ;
        }
    }
    pthread_mutex_unlock (&fa->plan_lock) ;
    GG_TRY (rc) ;
    CU_TRY (cudaStreamWaitEvent (c->ctx->stream, t->h.ready, 0)) ;
    *out = t ;
    t = NULL ;
done:
    csr_unref (old) ;
    csr_unref (t) ;
    csr_unref (fa) ;
    return rc ;
}
