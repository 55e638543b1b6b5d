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

// Whether cuSPARSE can run it: the semiring, and no special value where it
// reads (the value check reads S's values and X once on the device and
// waits for it: asked only where the answer can matter).
// Whether the values a product reads are plain (no Inf, NaN or subnormal:
// spmm_vendor_ok), checked once per product; NULL when they are, else why
// not.  Arithmetic that rounds otherwise than a product and a sum (the
// vendor libraries, the nm row's fused multiply-adds) runs only then.
const char *spmm_values_plain (gg_spmm_op *o)
{
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

static const char *vendor_check (gg_spmm_op *o)
{
    if (!use_vendor (o->sr)) return "not plus-times FP32 / FP64, or an own kernel forced" ;
    if (o->y_dev && o->n > 1 && (o->sr->mul == GG_MUL_FIRST || o->sr->mul == GG_MUL_PAIR))
        return "a row sum spread over Y's columns cannot stay on the device" ;
    return spmm_values_plain (o) ;
}

// Whether the chooser remembered the row called `name`.
static bool is_remembered (const gg_spmm_op *o, const char *name)
{
    return o->remembered >= 0 && strcmp (gg_spmm_families [o->remembered].name, name) == 0 ;
}

static const char *vendor_supports (gg_spmm_op *o)
{
    if (!use_vendor (o->sr)) return "not plus-times FP32 / FP64, or an own kernel forced" ;
    if (!o->exploring && !is_remembered (o, "cusparse") && !vendor_prefer (o))
    {
        return "the static rule prefers another" ;
    }
    return vendor_check (o) ;
}

static int vendor_run_alg (gg_spmm_op *o, int alg)
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
        // (made once per call: the chooser may run this row many times, and
        // a call holds at most GG_CALL_TMP temporaries)
        if (o->xones == NULL)
        {
            GG_TRY (tmp_alloc (o->c, &o->xones, (size_t) o->k * o->elem)) ;
            GG_TRY (fill_one (o->c, o->xones, o->t, (size_t) o->k)) ;
        }
        dX = o->xones ;
    }
    GG_TRY (sparse_product (o->c, o->fs, vals, o->t, rowsum ? 1 : o->n, dX, o->dY, alg)) ;
    o->rowsum = rowsum ;
done:
    return rc ;
}

static int vendor_run (gg_spmm_op *o) { return vendor_run_alg (o, 0) ; }

// cuSPARSE with each of its CSR algorithms (SpMM: ALG1..3, SpMV: ALG1..2),
// as rows of their own, so that the chooser that measures times each: the
// "cusparse" row runs the static rule's algorithm (vendor.c,
// spmm_static_alg), which on small matrices is not always the fastest.
// Never the static choice: they run when the chooser times them or
// remembered one of them.
static const char *vendor_alg_supports (gg_spmm_op *o, int alg, const char *self)
{
    const bool remembered = is_remembered (o, self) ;
    if (!o->exploring && !remembered) return "timed by the chooser only" ;
    if (o->sr->mul == GG_MUL_FIRST || o->sr->mul == GG_MUL_PAIR) return "row sums: one SpMV" ;
    if (o->n == 1 && alg > 2) return "SpMV has two algorithms" ;
    if (!remembered && alg == spmm_static_alg (o->n, o->S->nnz, o->t)) return "the cusparse row runs it" ;
    return vendor_check (o) ;
}

static const char *alg1_supports (gg_spmm_op *o) { return vendor_alg_supports (o, 1, "cusparse_alg1") ; }
static const char *alg2_supports (gg_spmm_op *o) { return vendor_alg_supports (o, 2, "cusparse_alg2") ; }
static const char *alg3_supports (gg_spmm_op *o) { return vendor_alg_supports (o, 3, "cusparse_alg3") ; }
static int alg1_run (gg_spmm_op *o) { return vendor_run_alg (o, 1) ; }
static int alg2_run (gg_spmm_op *o) { return vendor_run_alg (o, 2) ; }
static int alg3_run (gg_spmm_op *o) { return vendor_run_alg (o, 3) ; }
static bool never (const gg_spmm_op *o) { (void) o ; return false ; }

// grbgpu's own CUDA-core schedules (kernels/spmm): every semiring and type;
// the variant from GRBGPU_KERNEL or kernels/spmm's own chooser.
static const char *own_supports (gg_spmm_op *o) { (void) o ; return NULL ; }

static int own_run (gg_spmm_op *o)
{
    o->rowsum = false ;
    const dev_csr *f = o->fs ;
    // (S's values: its form's, or a resident buffer of S's own, gg_csr.x_dev)
    const void *sx = (o->S->x == NULL) ? NULL : o->S->x_dev ? o->S->x : f->x ;
    return gg_cuda_spmm_plan (o->sr, o->m, o->k, o->n, o->S->nnz, f->p, f->i,
        sx, false, o->dX, o->dY, f->spmv_plan, o->S->max_row,
        spmm_kernel_name (o->sr, o->S, o->n), o->c->ctx->stream) ;
}

const gg_spmm_family gg_spmm_families [GG_SPMM_NFAM] =
{
    { "band",     band_supports,   always,        band_run   },
    { "hot",      hot_supports,    always,        hot_run    },
    { "cusparse", vendor_supports, vendor_prefer, vendor_run },
    { "cusparse_alg1", alg1_supports, never,      alg1_run   },
    { "cusparse_alg2", alg2_supports, never,      alg2_run   },
    { "cusparse_alg3", alg3_supports, never,      alg3_run   },
    { "tc3",      gg_tc3_supports, gg_tc_prefer,  gg_tc3_run },
    { "tc4",      gg_tc4_supports, gg_tc_prefer,  gg_tc4_run },
    { "tc3f",     gg_tc3f_supports, gg_tc_prefer, gg_tc3f_run },
    { "tc4f",     gg_tc4f_supports, gg_tc_prefer, gg_tc4f_run },
    { "tc3r",     gg_tc3r_supports, gg_tc_prefer, gg_tc3r_run },
    { "nm",       gg_nm_supports,  gg_nm_prefer,  gg_nm_run  },
    { "nmtc",     gg_nmtc_supports, gg_nmtc_prefer, gg_nmtc_run },
    { "lenr",     gg_lenr_supports, gg_lenr_prefer, gg_lenr_run },
    { "own",      own_supports,    always,        own_run    },
} ;
const int gg_spmm_nfamilies = GG_SPMM_NFAM ;

//------------------------------------------------------------------------------
// the chooser's memory: one entry per (N, semiring, type, precision) in S's form
//------------------------------------------------------------------------------

static gg_tune_key spmm_key (const gg_spmm_op *o)
{
    gg_tune_key key = { .kind = GG_TUNE_SPMM, .n = o->n, .add = (int) o->sr->add,
        .mul = (int) o->sr->mul, .type = (int) o->t, .precision = (int) o->precision } ;
    return key ;
}

static int spmm_row_run (void *op, int f)
{
    return gg_spmm_families [f].run ((gg_spmm_op *) op) ;
}

// Time every family that supports the product (choose.c, tune_rows) and
// remember the fastest in S's form.
static int tune (gg_spmm_op *o, const char **why, int *winner)
{
    int rc = GG_OK ;
    float ms [GG_SPMM_NFAM] ;
    const double t0 = grbgpu_now () ;
    GG_TRY (tune_rows (o->c, GG_SPMM_NFAM, why, spmm_row_run, o, ms, winner)) ;
    const double tuning_ms = 1e3 * (grbgpu_now () - t0) ;
    gg_tune_key key = spmm_key (o) ;
    tuned_keep (&o->fs->tuned, &o->fs->plan_lock, &key, *winner, ms, GG_SPMM_NFAM) ;
    if (grbgpu_settings_get ()->verbose >= 2)
    {
        char line [64 * GG_SPMM_NFAM] ;
        tune_times (line, sizeof (line), GG_SPMM_NFAM, &gg_spmm_families [0].name,
            sizeof (gg_spmm_families [0]), ms) ;
        grbgpu_log (2, "cuda: tuned spmm %lldx%lld (%lld entries) n=%lld: %s ms "
            "(-1: not a candidate) -> %s (tuning %.1f ms, forms made included)",
            (long long) o->m, (long long) o->k, (long long) o->S->nnz, (long long) o->n,
            line, gg_spmm_families [*winner].name, tuning_ms) ;
    }
done:
    return rc ;
}

//------------------------------------------------------------------------------
// one SpMM
//------------------------------------------------------------------------------

// the family that ran this thread's last SpMM (tests)
static _Thread_local const char *last_family = "none" ;
const char *gg_spmm_last_family (void) { return last_family ; }

// One SpMM.  fx: X's device form when the caller has it (the split path's
// peer-copied X; its reference is taken over), else NULL; x_dev: X->x is a
// device buffer (a resident result, backend/resident/); y_dev: Y is one (the
// result stays on the device, nothing comes down).
static int spmm_core (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, dev_dense *fx, bool x_dev, void *Y, bool y_dev)
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
    // S's values in a resident buffer (a matrix on a pattern): its form is
    // the pattern's, and only the own kernels take values from elsewhere
    if (S->x_dev)
    {
        if (S->transposed) return GG_ERR_UNSUPPORTED ;
        nd.x = false ; nd.ones = false ;
    }
    gg_csr St ;
    if (S->transposed)
    {
        // S given by its transpose's arrays: S's own form is made from
        // theirs on the device (form_csrt.c), which learns S's longest row
        GG_TRY (csrt_get (c, S, &nd, &o.fs)) ;
        St = *S ;
        St.max_row = o.fs->max_row ;
        St.no_empty_rows = (o.fs->nonempty == S->nrows) ;
        S = o.S = &St ;
    }
    else GG_TRY (csr_get (c, S, &nd, &o.fs)) ;
    // a resident X is its own device form for this call (the vendor's value
    // check reads it there); it is not counted nor freed here
    dev_dense xres = { .nrows = X->nrows, .ncols = X->ncols, .elem = elem,
        .x = (void *) X->x } ;
    if (X->x != NULL && x_dev)
    {
        o.fx = &xres ;
        o.dX = X->x ;
    }
    else if (X->x != NULL)
    {
        if (o.fx == NULL) GG_TRY (dense_get (c, X, elem, &o.fx)) ;
        o.dX = o.fx->x ;
    }
    o.y_dev = y_dev ;
    if (y_dev) o.dY = Y ;
    else GG_TRY (tmp_alloc (c, &o.dY, (size_t) m * (size_t) n * elem)) ;
    if (!S->no_empty_rows)
    {
        // the own kernels leave empty rows unwritten: give them defined
        // values (they are absent from T; the host writes no zeros)
        CU_TRY (cudaMemsetAsync (o.dY, 0, (size_t) m * (size_t) n * elem, c->ctx->stream)) ;
    }

    // a remembered winner; else, with enough work on a cached S and no
    // forced kernel, the chooser measures; else the static rule
    const bool forced = (set->kernel [0] != '\0') ;
    gg_tune_key key = spmm_key (&o) ;
    int fam = (forced || S->x_dev) ? -1 : tuned_find (&o.fs->tuned, &o.fs->plan_lock, &key) ;
    o.exploring = (fam < 0 && !S->x_dev && S->cache != NULL
        && tune_wanted ((double) S->nnz * (double) n)) ;
    o.remembered = fam ;

    // which families can run it (each may make the form it needs; with a
    // remembered winner only it and the last row, which takes everything)
    const char *why [GG_SPMM_NFAM] ;
    int nsup = 0 ;
    for (int f = 0 ; f < GG_SPMM_NFAM ; f++)
    {
        why [f] = (S->x_dev && f != GG_SPMM_NFAM - 1) ? "values in a resident buffer"
            : (fam >= 0 && f != fam && f != GG_SPMM_NFAM - 1) ? "not the remembered winner"
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
    last_family = gg_spmm_families [fam].name ;

    if (y_dev)
    {
        // Y stays on the device; a row sum spread over n > 1 columns would
        // need a kernel of its own (the vendor rows decline it: vendor_check)
        if (o.rowsum && n > 1) rc = GG_ERR_UNSUPPORTED ;
    }
    else if (o.rowsum && n > 1)
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
    if (o.fx != &xres) dense_unref (o.fx) ;
    return rc ;
}

int spmm_attempt_fx (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, dev_dense *fx, void *Y)
{
    return spmm_core (c, sr, S, X, fx, false, Y, false) ;
}

int spmm_attempt_res (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, bool x_dev, void *Y, bool y_dev)
{
    return spmm_core (c, sr, S, X, NULL, x_dev, Y, y_dev) ;
}

int spmm_attempt (gg_devcall *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y)
{
    return spmm_core (c, sr, S, X, NULL, false, Y, false) ;
}
