//------------------------------------------------------------------------------
// backend/cuda/spmm.c: SpMM / SpMV: Y = S (+.*) X, through the family table
//------------------------------------------------------------------------------

// The SpMM kernel families (backend/cuda/family.h) in the order of the static
// choice, and the chooser that measures them (GRBGPU_TUNE).  One product:
//   1. S's device form with what every family may read (its values when it
//      has them, ones for the vendor's SECOND / PAIR), X's when the multiply
//      reads X, room for Y;
//   2. the family: GRBGPU_KERNEL's, else the one remembered in S's form for
//      this shape, else (tuning on, enough work, S cached) each supporting
//      family timed and the fastest remembered, else the static rule;
//   3. Y comes down (spread from row sums for the vendor's FIRST / PAIR).

#include "backend/cuda/family.h"

// Tune only products of at least this many entries x columns (smaller ones
// take microseconds, where launch noise decides a race and the static rule
// measured well enough).
#define GG_TUNE_MIN_WORK ((double) (1 << 22))

//------------------------------------------------------------------------------
// the families
//------------------------------------------------------------------------------

// The band SpMV (kernels/spmv_band): x staged in shared memory band by band;
// for large power-law SpMV of 4-byte types where its bands hold most entries.
static const char *band_supports (gg_spmm_op *o)
{
    if (o->dX == NULL) return "the multiply does not read x" ;
    if (!spmv_use_band (o->sr, o->S, o->n)) return "not a large 4-byte SpMV" ;
    o->band = NULL ;
    int rc = band_form (o->c, o->S, o->fs, o->elem, &o->band) ;
    if (rc != GG_OK || o->band == NULL) return "no band form (too few entries in bands)" ;
    return NULL ;
}

static bool always (const gg_spmm_op *o) { (void) o ; return true ; }

static int band_run (gg_spmm_op *o)
{
    o->rowsum = false ;
    return gg_cuda_spmv_band (o->sr, o->band, (o->S->x != NULL) ? o->fs->x : NULL,
        false, o->dX, o->dY, o->c->ctx->stream) ;
}

// The hot/cold SpMV (kernels/spmv_hot): the hottest columns of x in shared
// memory, where they hold most entries.
static const char *hot_supports (gg_spmm_op *o)
{
    if (o->dX == NULL) return "the multiply does not read x" ;
    if (!spmv_use_hot (o->sr, o->S, o->n)) return "not a large 4-byte SpMV" ;
    o->hot_K = 0 ;
    int rc = hot_form (o->c, o->S, o->fs, o->elem, &o->hot_K) ;
    if (rc != GG_OK || o->hot_K == 0) return "no hot form (too few entries in hot columns)" ;
    return NULL ;
}

static int hot_run (gg_spmm_op *o)
{
    o->rowsum = false ;
    const dev_csr *f = o->fs ;
    return gg_cuda_spmv_hot (o->sr, o->m, o->k, o->S->nnz, f->p, f->ih,
        (o->S->x != NULL) ? f->x : NULL, false, o->dX, o->dY, f->spmv_plan,
        f->hot, o->hot_K, o->c->ctx->stream) ;
}

// cuSPARSE (SpMM / SpMV) for PLUS with TIMES / FIRST / SECOND / PAIR over
// FP32 / FP64, on ordinary values only (backend/cuda/vendor.c).
static bool vendor_prefer (const gg_spmm_op *o)
{
    return spmm_use_vendor (o->sr, o->S, o->n) ;
}

static const char *vendor_supports (gg_spmm_op *o)
{
    if (!use_vendor (o->sr)) return "not plus-times FP32 / FP64, or an own kernel forced" ;
    // the value check reads S's values and X once on the device (and waits
    // for it): asked only where the answer can matter
    if (!o->exploring && !vendor_prefer (o)) return "the static rule prefers another" ;
    if (o->vendor_ok == 0)
    {
        bool ok = false ;
        if (spmm_vendor_ok (o->c, o->sr, o->S, o->X, &o->fs, &o->fx, &ok) != GG_OK)
        {
            return "its value check failed" ;
        }
        o->vendor_ok = ok ? 1 : -1 ;
    }
    if (o->vendor_ok < 0) return "special values (Inf, NaN, subnormal) where it reads" ;
    return NULL ;
}

static int vendor_run (gg_spmm_op *o)
{
    // FIRST and PAIR: Y (i,:) = r (i) for every column, r = S_vals * 1
    // with S_vals = s (FIRST) or 1 (PAIR): one SpMV, and only m values
    // come back.  TIMES: S_vals = s, SECOND: S_vals = 1, times X.
    int rc = GG_OK ;
    const gg_semiring *sr = o->sr ;
    bool rowsum = (sr->mul == GG_MUL_FIRST || sr->mul == GG_MUL_PAIR) ;
    bool use_x = (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST) ;
    const void *vals = use_x ? o->fs->x : o->fs->ones ;
    const void *dX = o->dX ;
    if (rowsum)
    {
        void *ones ;
        GG_TRY (tmp_alloc (o->c, &ones, (size_t) o->k * o->elem)) ;
        GG_TRY (fill_one (o->c, ones, o->t, (size_t) o->k)) ;
        dX = ones ;
    }
    GG_TRY (sparse_product (o->c, o->fs, vals, o->t, rowsum ? 1 : o->n, dX, o->dY)) ;
    o->rowsum = rowsum ;
done:
    return rc ;
}

// grbgpu's own CUDA-core schedules (kernels/spmm): every semiring and type;
// the variant from GRBGPU_KERNEL or kernels/spmm's own chooser.
static const char *own_supports (gg_spmm_op *o) { (void) o ; return NULL ; }

static int own_run (gg_spmm_op *o)
{
    o->rowsum = false ;
    const dev_csr *f = o->fs ;
    return gg_cuda_spmm_plan (o->sr, o->m, o->k, o->n, o->S->nnz, f->p, f->i,
        (o->S->x != NULL) ? f->x : NULL, false, o->dX, o->dY, f->spmv_plan,
        spmm_kernel_name (o->S, o->n), o->c->ctx->stream) ;
}

const gg_spmm_family gg_spmm_families [GG_SPMM_NFAM] =
{
    { "band",     band_supports,   always,        band_run   },
    { "hot",      hot_supports,    always,        hot_run    },
    { "cusparse", vendor_supports, vendor_prefer, vendor_run },
    { "own",      own_supports,    always,        own_run    },
} ;
const int gg_spmm_nfamilies = GG_SPMM_NFAM ;

//------------------------------------------------------------------------------
// the chooser's memory: one entry per (N, semiring, type, precision) in S's form
//------------------------------------------------------------------------------

static bool tuned_same (const gg_tuned *e, const gg_spmm_op *o)
{
    return e->n == o->n && e->add == (int) o->sr->add && e->mul == (int) o->sr->mul
        && e->type == (int) o->t && e->precision == (int) o->precision ;
}

// The remembered winner for this shape, or -1.
static int tuned_find (dev_csr *f, const gg_spmm_op *o)
{
    int fam = -1 ;
    pthread_mutex_lock (&f->plan_lock) ;
    for (int k = 0 ; k < f->ntuned ; k++)
    {
        if (tuned_same (&f->tuned [k], o)) { fam = f->tuned [k].family ; break ; }
    }
    pthread_mutex_unlock (&f->plan_lock) ;
    return fam ;
}

static void tuned_keep (dev_csr *f, const gg_spmm_op *o, int fam, const float *ms)
{
    pthread_mutex_lock (&f->plan_lock) ;
    int slot = -1 ;
    for (int k = 0 ; k < f->ntuned && slot < 0 ; k++) if (tuned_same (&f->tuned [k], o)) slot = k ;
    if (slot < 0 && f->ntuned < GG_TUNED) slot = f->ntuned++ ;
    if (slot < 0) { slot = f->next_tuned ; f->next_tuned = (f->next_tuned + 1) % GG_TUNED ; }
    gg_tuned *e = &f->tuned [slot] ;
    e->n = o->n ; e->add = (int) o->sr->add ; e->mul = (int) o->sr->mul ;
    e->type = (int) o->t ; e->precision = (int) o->precision ; e->family = fam ;
    memcpy (e->ms, ms, sizeof (e->ms)) ;
    pthread_mutex_unlock (&f->plan_lock) ;
}

// Run family f warm (plans and forms made by a first run), timed with the
// events: *ms = the mean of enough runs to fill GG_TUNE_MIN_MS (one run of a
// 20 us kernel varies by a third from launch to launch: the first H100 run
// of the chooser, timing one run each, picked the slower family on a few
// small matrices), at most GG_TUNE_MAX_REPS.
#define GG_TUNE_MIN_MS 0.25
#define GG_TUNE_MAX_REPS 16
static int timed_run (gg_spmm_op *o, int f, cudaEvent_t e0, cudaEvent_t e1, float *ms)
{
    int rc = GG_OK ;
    cudaStream_t s = o->c->ctx->stream ;
    float first = 0 ;
    *ms = -1 ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    GG_TRY (gg_spmm_families [f].run (o)) ;         // warm-up
    CU_TRY (cudaEventRecord (e0, s)) ;
    GG_TRY (gg_spmm_families [f].run (o)) ;
    CU_TRY (cudaEventRecord (e1, s)) ;
    CU_TRY (cudaEventSynchronize (e1)) ;
    CU_TRY (cudaEventElapsedTime (&first, e0, e1)) ;
    int reps = (first > 0) ? (int) (GG_TUNE_MIN_MS / first) : GG_TUNE_MAX_REPS ;
    if (reps > GG_TUNE_MAX_REPS) reps = GG_TUNE_MAX_REPS ;
    *ms = first ;
    if (reps > 1)
    {
        float total = 0 ;
        CU_TRY (cudaEventRecord (e0, s)) ;
        for (int r = 0 ; r < reps ; r++) GG_TRY (gg_spmm_families [f].run (o)) ;
        CU_TRY (cudaEventRecord (e1, s)) ;
        CU_TRY (cudaEventSynchronize (e1)) ;
        CU_TRY (cudaEventElapsedTime (&total, e0, e1)) ;
        *ms = total / (float) reps ;
    }
done:
    return rc ;
}

// Time every family that supports the product; *winner = the fastest (its
// result is in o->dY when it returns: the last family run is re-run if it
// was not the winner).  A family whose run fails as unsupported is left out;
// any other failure fails the call.
static int tune (gg_spmm_op *o, const char **why, int *winner)
{
    int rc = GG_OK ;
    float ms [GG_SPMM_NFAM] ;
    cudaEvent_t e0 = NULL, e1 = NULL ;
    int last = -1, best = -1 ;
    CU_TRY (cudaEventCreate (&e0)) ;
    CU_TRY (cudaEventCreate (&e1)) ;
    for (int f = 0 ; f < GG_SPMM_NFAM ; f++)
    {
        ms [f] = -1 ;
        if (why [f] != NULL) continue ;
        int frc = timed_run (o, f, e0, e1, &ms [f]) ;
        if (frc == GG_ERR_UNSUPPORTED) { ms [f] = -1 ; (void) cudaGetLastError () ; continue ; }
        GG_TRY (frc) ;
        last = f ;
        if (best < 0 || ms [f] < ms [best]) best = f ;
    }
    if (best < 0) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    if (last != best) GG_TRY (gg_spmm_families [best].run (o)) ;
    tuned_keep (o->fs, o, best, ms) ;
    *winner = best ;
    grbgpu_log (2, "cuda: tuned spmm %lldx%lld (%lld entries) n=%lld: band %.4g, hot %.4g, "
        "cusparse %.4g, own %.4g ms (-1: not a candidate) -> %s",
        (long long) o->m, (long long) o->k, (long long) o->S->nnz, (long long) o->n,
        ms [0], ms [1], ms [2], ms [3], gg_spmm_families [best].name) ;
done:
    if (e0 != NULL) cudaEventDestroy (e0) ;
    if (e1 != NULL) cudaEventDestroy (e1) ;
    return rc ;
}

//------------------------------------------------------------------------------
// one SpMM
//------------------------------------------------------------------------------

int spmm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y)
{
    return spmm_attempt_fx (c, sr, S, X, NULL, Y) ;
}

int spmm_attempt_fx (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, dev_dense *fx, void *Y)
{
    int rc = GG_OK ;
    const gg_settings *set = grbgpu_settings_get () ;
    gg_spmm_op o = { .c = c, .sr = sr, .S = S, .X = X, .m = S->nrows,
        .k = S->ncols, .n = X->ncols, .t = sr->type,
        .elem = gg_type_size (sr->type), .precision = set->precision,
        .fx = fx } ;
    const int64_t m = o.m, n = o.n ;
    const size_t elem = o.elem ;

    // S's form with what every family may read, X's, room for Y
    const bool vendor = use_vendor (sr) ;
    const bool use_x = (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST) ;
    csr_needs nd = { .x = (S->x != NULL) || (vendor && use_x),
        .ones = vendor && !use_x, .t = o.t } ;
    GG_TRY (csr_get (c, S, &nd, &o.fs)) ;
    if (X->x != NULL)
    {
        if (o.fx == NULL) GG_TRY (dense_get (c, X, elem, &o.fx)) ;
        o.dX = o.fx->x ;
    }
    GG_TRY (tmp_alloc (c, &o.dY, (size_t) m * (size_t) n * elem)) ;
    if (!S->no_empty_rows)
    {
        // the own kernels leave empty rows unwritten: give them defined
        // values (they are absent from T; the host writes no zeros)
        CU_TRY (cudaMemsetAsync (o.dY, 0, (size_t) m * (size_t) n * elem, c->ctx->stream)) ;
    }

    // a remembered winner; else, with enough work on a cached S and no
    // forced kernel, the chooser measures; else the static rule
    const bool forced = (set->kernel [0] != '\0') ;
    int fam = forced ? -1 : tuned_find (o.fs, &o) ;
    o.exploring = (fam < 0 && set->tune && !forced && S->cache != NULL
        && (double) S->nnz * (double) n >= GG_TUNE_MIN_WORK) ;

    // which families can run it (each may make the form it needs; with a
    // remembered winner only it and the last row, which takes everything)
    const char *why [GG_SPMM_NFAM] ;
    int nsup = 0 ;
    for (int f = 0 ; f < GG_SPMM_NFAM ; f++)
    {
        why [f] = (fam >= 0 && f != fam && f != GG_SPMM_NFAM - 1) ? "not the remembered winner"
            : gg_spmm_families [f].supports (&o) ;
        if (why [f] == NULL) nsup++ ;
    }
    if (fam >= 0 && why [fam] != NULL) fam = -1 ;
    bool done_run = false ;
    if (o.exploring && nsup > 1)
    {
        GG_TRY (tune (&o, why, &fam)) ;
        done_run = true ;
    }
    if (!done_run)
    {
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        rc = GG_ERR_UNSUPPORTED ;
        if (fam >= 0) rc = gg_spmm_families [fam].run (&o) ;
        for (int f = 0 ; rc == GG_ERR_UNSUPPORTED && f < GG_SPMM_NFAM ; f++)
        {
            // (a staged SpMV kernel refuses what its form cannot do: the
            // next family answers)
            if (why [f] == NULL && gg_spmm_families [f].prefer (&o))
            {
                fam = f ;
                rc = gg_spmm_families [f].run (&o) ;
            }
        }
        GG_TRY (rc) ;
        mark_end (c) ;
    }
    grbgpu_log (2, "cuda: spmm %lldx%lld n=%lld: %s", (long long) m, (long long) o.k,
        (long long) n, gg_spmm_families [fam].name) ;

    if (o.rowsum && n > 1)
    {
        // r comes down (m values) and is spread over each row of Y
        char *r = malloc ((size_t) (m > 0 ? m : 1) * elem) ;
        if (r == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
        rc = download (c, r, o.dY, (size_t) m * elem) ;
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
        GG_TRY (download (c, Y, o.dY, (size_t) m * (size_t) (o.rowsum ? 1 : n) * elem)) ;
    }
done:
    stream_finish (c, &rc) ;
    csr_unref (o.fs) ;
    dense_unref (o.fx) ;
    return rc ;
}
