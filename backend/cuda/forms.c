//------------------------------------------------------------------------------
// backend/cuda/forms.c: device forms of operands (CSR, dense, band, hot/cold), kept in the cache
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).

#include "backend/cuda/cuda_internal.h"

//------------------------------------------------------------------------------
// device forms of operands
//------------------------------------------------------------------------------

void plan_clear (gg_sp_plan *pl, cudaStream_t s)
{
    if (!pl->valid) return ;
    if (pl->A != NULL) cusparseDestroySpMat (pl->A) ;
    if (pl->buf != NULL)
    {
        if (pl->last != NULL) cudaStreamWaitEvent (s, pl->last, 0) ;
        cudaFreeAsync (pl->buf, s) ;
    }
    if (pl->last != NULL) cudaEventDestroy (pl->last) ;
    memset (pl, 0, sizeof (*pl)) ;
}

// Free a form's device memory: its users have all synchronised (they dropped
// their references after the product finished), so any stream will do.  A
// form made by another start-up (a forked child's parent) owns nothing here.
static void form_free_device (dev_form *h, void *const *ptrs, int nptrs,
    dev_csr *plans)
{
    if (h->generation != atomic_load (&gg_cuda_generation) ||
        atomic_load (&gg_cuda_started_pid) != getpid ())
    {
        // the host parts of the band and tensor-core forms only
        if (plans != NULL)
        {
            gg_cuda_spmv_band_free (plans->band, false, NULL) ;
            tc_forms_release (plans, false) ;
        }
        return ;
    }
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    (void) cudaSetDevice (gg_cuda_dev_id) ;
    if (plans != NULL)
    {
        for (int k = 0 ; k < GG_PLANS ; k++) plan_clear (&plans->plan [k], gg_cuda_free_stream) ;
        gg_cuda_spmv_band_free (plans->band, true, gg_cuda_free_stream) ;
        tc_forms_release (plans, true) ;
    }
    for (int k = 0 ; k < nptrs ; k++) if (ptrs [k] != NULL) cudaFreeAsync (ptrs [k], gg_cuda_free_stream) ;
    if (h->ready != NULL) cudaEventDestroy (h->ready) ;
    (void) cudaGetLastError () ;
    (void) cudaSetDevice (old) ;
}

static void csr_destroy (dev_form *h)
{
    dev_csr *f = (dev_csr *) h ;
    void *const ptrs [7] = { f->p, f->i, f->x, f->ones, f->spmv_plan, f->hot,
        f->ih } ;
    form_free_device (h, ptrs, 7, f) ;
    pthread_mutex_destroy (&f->plan_lock) ;
    free (f) ;
}

static void dense_destroy (dev_form *h)
{
    dev_dense *f = (dev_dense *) h ;
    void *const ptrs [1] = { f->x } ;
    form_free_device (h, ptrs, 1, NULL) ;
    free (f) ;
}

static void form_unref (dev_form *h)
{
    if (h != NULL && atomic_fetch_sub (&h->refs, 1) == 1) h->destroy (h) ;
}
void csr_unref (dev_csr *f) { if (f != NULL) form_unref (&f->h) ; }
void dense_unref (dev_dense *f) { if (f != NULL) form_unref (&f->h) ; }

// The cache's dev_free: drop the entry's reference.
static void form_dev_free (void *dev) { form_unref ((dev_form *) dev) ; }

// A new form of this kind with one reference (the caller's), or NULL.
static dev_form *form_new (size_t size, unsigned magic, void (*destroy) (dev_form *))
{
    dev_form *h = calloc (1, size) ;
    if (h == NULL) return NULL ;
    h->magic = magic ;
    atomic_init (&h->refs, 1) ;
    h->generation = atomic_load (&gg_cuda_generation) ;
    h->destroy = destroy ;
    return h ;
}

// The device form attached to cache entry e when fits () accepts it, else a
// new one from build () (attached to e, replacing one that does not fit).
// Returns it with a reference for the caller; the call's stream waits for
// its uploads.
typedef bool (*form_fits_fn) (const dev_form *have, const void *arg) ;
typedef int (*form_build_fn) (gg_devcall *c, const void *arg, dev_form **out) ;

static int form_get (gg_devcall *c, gg_cache_entry *e, form_fits_fn fits,
    form_build_fn build, const void *arg, dev_form **out)
{
    int rc = GG_OK ;
    dev_form *f = NULL ;
    *out = NULL ;
    if (e != NULL)
    {
        pthread_mutex_lock (&e->lock) ;
        dev_form *have = (dev_form *) e->dev ;
        if (have != NULL && fits (have, arg))
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
            if (have != NULL && fits (have, arg))
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
                grbgpu_cache_account_device (e, f->bytes) ;
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
    dev_csr *f = (dev_csr *) form_new (sizeof (dev_csr), GG_FORM_MAGIC_CSR, csr_destroy) ;
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
    if (S->nnz > 0)
    {
        // the row of every 256th entry: 4 bytes per 256 entries, made once
        // for the pattern so that the own SpMV kernels need no search per call
        // (a pattern the plan cannot describe goes without: the kernels then
        // make one per call or the chooser takes another variant)
        size_t qb = gg_cuda_spmv_plan_bytes (S->nnz) ;
        GG_TRY (dev_alloc (c, &f->spmv_plan, qb)) ;
        int prc = gg_cuda_spmv_plan_build (S->nrows, S->nnz, f->p,
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
    if (nd->ones)
    {
        GG_TRY (dev_alloc (c, &f->ones, vb)) ;
        GG_TRY (fill_one (c, f->ones, nd->t, (size_t) S->nnz)) ;
        f->onestype = nd->t ;
        f->h.bytes += vb ;
    }
    CU_TRY (cudaEventRecord (f->h.ready, c->ctx->stream)) ;
    *out = &f->h ;
    f = NULL ;
done:
    if (f != NULL)
    {
        // still in this call's stream order: free there
        if (f->p) cudaFreeAsync (f->p, c->ctx->stream) ;
        if (f->i) cudaFreeAsync (f->i, c->ctx->stream) ;
        if (f->x) cudaFreeAsync (f->x, c->ctx->stream) ;
        if (f->ones) cudaFreeAsync (f->ones, c->ctx->stream) ;
        if (f->spmv_plan) cudaFreeAsync (f->spmv_plan, c->ctx->stream) ;
        f->p = f->i = NULL ; f->x = f->ones = f->spmv_plan = NULL ;
        csr_destroy (&f->h) ;
    }
    return rc ;
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

//------------------------------------------------------------------------------
// device forms: dense
//------------------------------------------------------------------------------

typedef struct { const gg_dense *X ; size_t elem ; } dense_arg ;

static bool dense_fits (const dev_form *h, const void *arg)
{
    const dense_arg *a = (const dense_arg *) arg ;
    if (h->magic != GG_FORM_MAGIC_DENSE || h->generation != atomic_load (&gg_cuda_generation)) return false ;
    const dev_dense *f = (const dev_dense *) h ;
    return f->nrows == a->X->nrows && f->ncols == a->X->ncols && f->elem == a->elem ;
}

// Build a device copy of a dense operand; one reference (the caller's).
static int dense_build (gg_devcall *c, const void *arg, dev_form **out)
{
    const gg_dense *X = ((const dense_arg *) arg)->X ;
    const size_t elem = ((const dense_arg *) arg)->elem ;
    int rc = GG_OK ;
    *out = NULL ;
    dev_dense *f = (dev_dense *) form_new (sizeof (dev_dense), GG_FORM_MAGIC_DENSE, dense_destroy) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->nrows = X->nrows ; f->ncols = X->ncols ; f->elem = elem ;
    f->h.bytes = (size_t) X->nrows * (size_t) X->ncols * elem ;
    CU_TRY (cudaEventCreateWithFlags (&f->h.ready, cudaEventDisableTiming)) ;
    GG_TRY (dev_alloc (c, &f->x, f->h.bytes)) ;
    GG_TRY (upload (c, f->x, X->x, f->h.bytes)) ;
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
int dense_get (gg_devcall *c, const gg_dense *X, size_t elem,
    dev_dense **out)
{
    dense_arg a = { X, elem } ;
    dev_form *h = NULL ;
    int rc = form_get (c, (gg_cache_entry *) X->cache, dense_fits, dense_build, &a, &h) ;
    *out = (dev_dense *) h ;
    return rc ;
}

//------------------------------------------------------------------------------
// the staged SpMV forms (band, hot/cold), made once per CSR form
//------------------------------------------------------------------------------

// Account `more` bytes of device memory to f and its cache entry.
void form_grow (const gg_csr *S, dev_csr *f, size_t more)
{
    gg_cache_entry *e = (gg_cache_entry *) S->cache ;
    if (e != NULL)
    {
        pthread_mutex_lock (&e->lock) ;
        f->h.bytes += more ;
        if (e->dev == (void *) f) grbgpu_cache_account_device (e, f->h.bytes) ;
        pthread_mutex_unlock (&e->lock) ;
    }
    else f->h.bytes += more ;
}

// The band SpMV form of f (once per form, like hot_form): *band = NULL when
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
