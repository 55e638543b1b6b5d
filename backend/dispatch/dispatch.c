//------------------------------------------------------------------------------
// backend/dispatch/dispatch.c: decide, convert (cached), compute, write back
//------------------------------------------------------------------------------

// grbgpu_dispatch is the whole life of one intercepted call:
//   classify -> choose the backend (settings, cost model) -> view operands ->
//   converted forms from the cache (or built and cached) -> kernel ->
//   write T into C exactly as GrB_mxm would.
// Any failure before the write-back (no device, out of memory, an injected
// fault, a launch error) frees what was taken, is counted and logged, and the
// caller forwards the call to the CPU library, whose answer is the answer.

#include "config.h"
#include "backend/cache/cache.h"
#include "backend/dispatch/classify.h"
#include "backend/dispatch/dispatch_private.h"
#include "backend/dispatch/vec_dispatch.h"
#include "backend/resident/resident.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

//------------------------------------------------------------------------------
// the runtime library's version: grbgpu reads 7.x internals (the iterator)
//------------------------------------------------------------------------------

static _Atomic int version_state = 0 ;     // 0 unknown, 1 good, -1 unsupported

static bool version_ok (void)
{
    int s = atomic_load (&version_state) ;
    if (s != 0) return s > 0 ;
    int v [3] = { 0, 0, 0 } ;
    if (GxB_Global_Option_get (GxB_LIBRARY_VERSION, v) != GrB_SUCCESS) return false ;
    s = (v [0] == GxB_IMPLEMENTATION_MAJOR && v [1] == GxB_IMPLEMENTATION_MINOR) ? 1 : -1 ;
    int expected = 0 ;
    if (atomic_compare_exchange_strong (&version_state, &expected, s) && s < 0)
    {
        fprintf (stderr, "grbgpu: SuiteSparse:GraphBLAS %d.%d.%d is not the version grbgpu "
            "was built for (%d.%d): every call goes to the CPU library\n",
            v [0], v [1], v [2], GxB_IMPLEMENTATION_MAJOR, GxB_IMPLEMENTATION_MINOR) ;
    }
    return s > 0 ;
}

//------------------------------------------------------------------------------
// the cost model (GRBGPU_DEVICE=auto with GRBGPU_MIN_WORK=auto)
//------------------------------------------------------------------------------

// Offload when the GPU's estimated time (launch latency + the bytes that
// must cross PCIe at a conservative 12 GB/s + the flops at 1 TFLOP/s) beats
// the CPU library's (the flops at 1 GFLOP/s per core: sparse products are
// memory-bound there).  The sparse operand's bytes count only when it is not
// already on the device, the dense one's only when it is not resident.  Documented in README (settings).
static bool worth_offloading (const gg_plan *plan, const char **why)
{
    const double zsz = (double) gg_type_size (plan->sr.type) ;
    double bytes = 0 ;
    if (plan->op == GG_OP_SPMM)
    {
        // S's CSR on the device already: op (A), or the direct form a
        // backend that transposes on its own multiplies by
        bool on_device = false ;
        for (int flip = 0 ; flip < 2 && !on_device ; flip++)
        {
            gg_operand o = plan->S ;
            o.transpose = (flip != 0) ? !o.transpose : o.transpose ;
            gg_cache_key key = dispatch_operand_key (FORM_CSR, &o, plan->sr.type) ;
            gg_cache_entry *e = grbgpu_cache_peek (&key) ;
            if (e == NULL) continue ;
            pthread_mutex_lock (&e->lock) ;
            on_device = (e->dev != NULL) ;
            pthread_mutex_unlock (&e->lock) ;
            grbgpu_cache_release (e) ;
        }
        double nnz = plan->flops / (2.0 * (double) plan->n) ;
        if (!on_device) bytes += nnz * (4.0 + (plan->S.values ? zsz : 0)) + 4.0 * (double) plan->m ;
        // a resident X is read in place (backend/resident/)
        if (plan->X.values && !grbgpu_resident_has (plan->X.obj))
        {
            bytes += (double) plan->k * (double) plan->n * zsz ;
        }
        bytes += (double) plan->m * (double) plan->n * zsz ;
    }
    else
    {
        // both dense operands up; GEMM: all of C down; SDDMM: the mask's
        // pattern up (32-bit indices) and one value per mask entry down
        bytes += (double) (plan->m + plan->n) * (double) plan->k * zsz ;
        double nnz_mask = plan->flops / (2.0 * (double) plan->k) ;
        bytes += (plan->op == GG_OP_GEMM) ? (double) plan->m * (double) plan->n * zsz
                                          : nnz_mask * (4.0 + zsz) ;
    }
    long ncpu = sysconf (_SC_NPROCESSORS_ONLN) ;
    if (ncpu < 1) ncpu = 1 ;
    double t_gpu = 30e-6 + bytes / 12e9 + plan->flops / 1e12 ;
    double t_cpu = plan->flops / (1e9 * (double) ncpu) ;
    grbgpu_log (2, "cost model: %.3g flops, %.3g bytes to move: gpu %.3g s, cpu %.3g s",
        plan->flops, bytes, t_gpu, t_cpu) ;
    if (t_gpu < t_cpu) return true ;
    *why = "too small to pay for the transfer" ;
    return false ;
}

//------------------------------------------------------------------------------
// running a plan
//------------------------------------------------------------------------------

#define MAX_HELD 3

// Does every row of S have an entry (so that T is full)?
static bool rows_all_present (const gg_csr *S)
{
    if (S->no_empty_rows) return true ;
    if (S->present != NULL) return S->nonempty == S->nrows ;
    for (int64_t i = 0 ; i < S->nrows ; i++)
    {
        int64_t a = S->p32 ? S->p32 [i] : S->p64 [i] ;
        int64_t b = S->p32 ? S->p32 [i+1] : S->p64 [i+1] ;
        if (b == a) return false ;
    }
    return true ;
}

// Can the resident res be read in place as the dense op (o), rows x cols?
// *trans: it holds op (o)'s transpose row-major (a GEMM's backend transposes
// it on the device first; SpMM's X must not be so: resident_fits).
static bool gemm_operand_fits (const gg_resident *res, const gg_operand *o,
    gg_type t, int64_t rows, int64_t cols, bool *trans)
{
    *trans = false ;
    if (res->zt != t || res->nrows * res->ncols != rows * cols || res->pattern != NULL
        || res->on_csr || res->on_rows) return false ;
    *trans = !res->is_vector && res->by_col != o->transpose ;
    return true ;
}

// Can the resident X (res) be read in place as the dense op (X), as held?
static bool resident_fits (const gg_resident *res, const gg_operand *o,
    gg_type t, int64_t k, int64_t n)
{
    bool trans ;
    return gemm_operand_fits (res, o, t, k, n, &trans) && !trans ;
}

// Returns GG_OK (and *info), GG_ERR_UNSUPPORTED (with *why), or an error.
// may_flag: S may go to the backend with `transposed` set (*flagged says
// whether it did).
static int run_plan (const gg_plan *plan, const gg_backend *be, bool may_flag,
    bool *flagged, GrB_Info *info, const char **why, double phase [7])
{
    *flagged = false ;
    double t_start = grbgpu_now (), t_compute = 0, t_write = 0 ;
    gg_cache_entry *held [MAX_HELD] = { NULL, NULL, NULL } ;
    int rc = GG_OK ;
    const gg_type t = plan->sr.type ;
    const size_t zsz = gg_type_size (t) ;
    gg_result r ;
    memset (&r, 0, sizeof (r)) ;
    r.ztype = plan->ztype ;
    r.zt = t ;
    gg_view v0, v1, v2 ;
    gg_csr S, P ;
    gg_dense X, L, R ;
    // resident results (backend/resident/): X read in place, T kept
    const bool res_on = grbgpu_resident_enabled (be) ;
    // GRBGPU_DEVICES with several slots: an SpMM's or SDDMM's result comes
    // to the host from every slot (the split path, backend/cuda/multi.c)
    // instead of staying on the main device unsplit (docs/SCALING.md)
    const bool keep_on = res_on && !grbgpu_split_listed (&grbgpu_settings) ;
    gg_resident xres, lres, rres ;
    bool x_res = false, l_res = false, r_res = false, l_t = false, r_t = false ;
    void *keep_buf = NULL ;
    size_t keep_bytes = 0 ;
    gg_resident cres ;      // an accumulation into a resident C (vec_dispatch.c)
    bool acc_res = false ;
    gg_resident sres ;      // S resident on a pattern, read in place
    bool s_res = false ;
    bool sddmm_keep = false ;   // an SDDMM's result kept on the mask's pattern
    bool keep_rows = false ;    // an SpMM's result kept as full and absent rows

    #define TRY(call) do { rc = (call) ; if (rc != GG_OK) goto done ; } while (0)
    // an operand this path reads through GraphBLAS comes down first
    #define HOST(obj, why) do { if (grbgpu_resident_materialise ((obj), (why)) != GrB_SUCCESS) \
        { rc = GG_ERR_DEVICE ; goto done ; } } while (0)
    // C written on the host: a resident C whose values the call does not
    // read (no mask, no accumulator, not an input) loses its device copy
    // unread; any other comes down first
    #define OUT_HOST(ins, nins) do { if (grbgpu_result_to_host (&plan->out, (ins), (nins)) != GrB_SUCCESS) \
        { rc = GG_ERR_DEVICE ; goto done ; } } while (0)
    #define VIEW(v, obj) do { if (grbgpu_view (&(v), (obj)) != GrB_SUCCESS) \
        { rc = GG_ERR_UNSUPPORTED ; *why = "operand cannot be viewed" ; goto done ; } } while (0)

    switch (plan->op)
    {
        case GG_OP_SPMM:
        {
            HOST (plan->out.M, "a product's mask") ;
            // S resident on a pattern (backend/dispatch/mat_pattern.c) is
            // read in place: its pattern's form and its values' buffer
            if (res_on && !plan->S.transpose && !plan->flipped
                && grbgpu_resident_pin (plan->S.obj, &sres))
            {
                s_res = sres.on_csr && sres.be == be && sres.zt == t && sres.csr.p32 != NULL ;
                if (!s_res) grbgpu_resident_unpin (plan->S.obj, sres.buf) ;
            }
            if (s_res)
            {
                S = sres.csr ;
                S.x = plan->S.values ? sres.buf : NULL ;
                S.x_dev = plan->S.values ;
                S.iso = false ;
                phase [3] = grbgpu_now () - t_start ;
            }
            else
            {
            HOST (plan->S.obj, "a product's sparse operand") ;
            VIEW (v0, plan->S.obj) ;
            phase [3] = grbgpu_now () - t_start ;
            if (v0.storage == GG_STORE_HYPER && v0.nvec * 8 < gg_view_nrows (&v0, plan->S.transpose))
            {
                // most rows of T would be absent: a dense T is the wrong shape
                rc = GG_ERR_UNSUPPORTED ;
                *why = "hypersparse operand with few vectors" ;
                goto done ;
            }
            *flagged = may_flag && dispatch_transpose_on_backend (be, &plan->S, &v0) ;
            if (*flagged) TRY (dispatch_get_csr_transposed (&plan->S, t, &v0, &S, &held [0])) ;
            else TRY (dispatch_get_csr (&plan->S, t, &v0, &S, &held [0])) ;
            }
            phase [4] = grbgpu_now () - t_start ;
            if (plan->out.is_vector)
            {
                r.nrows = plan->m ; r.ncols = 1 ;
            }
            else if (plan->flipped)
            {
                r.nrows = plan->n ; r.ncols = plan->m ; r.by_col = true ;
            }
            else
            {
                r.nrows = plan->m ; r.ncols = plan->n ;
            }
            r.present = &S ;
            const GrB_Matrix inputs [2] = { plan->S.obj, plan->X.obj } ;
            // T stays on the device when it is all of C's new content
            if (keep_on && !plan->flipped && rows_all_present (&S)
                && grbgpu_result_can_stay (&plan->out, &r, inputs, 2))
            {
                keep_bytes = (size_t) (r.nrows * r.ncols) * zsz ;
                keep_buf = grbgpu_resident_alloc (be, keep_bytes) ;
            }
            else if (keep_on && !plan->flipped && !S.transposed && S.p32 != NULL && S.cache != NULL
                && S.nnz > 0 && grbgpu_result_can_stay_rows (&plan->out, &r, inputs, 2))
            {
                // rows of S without entries: T's rows are full or absent, and
                // it stays as a bitmap of rows (backend/resident/resident_csr.c)
                keep_rows = true ;
                keep_bytes = (size_t) (r.nrows * r.ncols) * zsz ;
                keep_buf = grbgpu_resident_alloc (be, keep_bytes) ;
                if (keep_buf == NULL) keep_rows = false ;
            }
            else if (keep_on && plan->out.accum != NULL && !plan->flipped)
            {
                const char *awhy ;
                acc_res = grbgpu_vec_accum_begin (be, &plan->out, t, r.nrows, &cres, &awhy) ;
                if (!acc_res && awhy != NULL) grbgpu_log (2, "resident: %s", awhy) ;
                if (acc_res)
                {
                    keep_bytes = (size_t) r.nrows * zsz ;
                    keep_buf = grbgpu_resident_alloc (be, keep_bytes) ;
                    if (keep_buf == NULL) { grbgpu_resident_unpin (plan->out.C, cres.buf) ; acc_res = false ; }
                }
            }
            phase [5] = grbgpu_now () - t_start ;
            if (keep_buf != NULL && grbgpu_resident_pin (plan->X.obj, &xres))
            {
                // (held by this backend: a buffer of another is not readable here)
                x_res = (xres.be == be) && resident_fits (&xres, &plan->X, t, plan->k, plan->n) ;
                if (!x_res) grbgpu_resident_unpin (plan->X.obj, xres.buf) ;
            }
            if (x_res)
            {
                X.nrows = plan->k ; X.ncols = plan->n ;
                X.x = plan->X.values ? xres.buf : NULL ; X.cache = NULL ;
            }
            else
            {
                HOST (plan->X.obj, "a product's dense operand") ;
                VIEW (v1, plan->X.obj) ;
                TRY (dispatch_get_dense (&plan->X, t, &v1, &X, &held [1])) ;
            }
            if (grbgpu_fault (GG_FAULT_ALLOC)) { rc = GG_ERR_FAULT ; goto done ; }
            if (keep_buf != NULL)
            {
                t_compute = grbgpu_now () ;
                TRY (be->spmm_res (&plan->sr, &S, &X, x_res, keep_buf)) ;
                break ;
            }
            OUT_HOST (inputs, 2) ;
            grbgpu_result_prepare (&plan->out, &r, inputs, 2) ;
            if (r.x == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            t_compute = grbgpu_now () ;
            TRY (be->spmm (&plan->sr, &S, &X, r.x)) ;
            break ;
        }
        case GG_OP_SDDMM:
        case GG_OP_GEMM:
        {
            HOST (plan->out.M, "a product's mask") ;
            r.nrows = plan->m ;
            r.ncols = plan->n ;
            const GrB_Matrix inputs [2] = { plan->L.obj, plan->R.obj } ;
            // a GEMM's T stays on the device when it is all of C's new content
            if (plan->op == GG_OP_GEMM && res_on && be->gemm_res != NULL
                && grbgpu_result_can_stay (&plan->out, &r, inputs, 2))
            {
                keep_bytes = (size_t) (r.nrows * r.ncols) * zsz ;
                keep_buf = grbgpu_resident_alloc (be, keep_bytes) ;
            }
            const GrB_Matrix ins [3] = { plan->L.obj, plan->R.obj,
                (plan->op == GG_OP_SDDMM) ? plan->P.obj : NULL } ;
            // an SDDMM's T stays on the device on the mask's pattern when it
            // is all of C's new content (backend/resident/resident_csr.c)
            sddmm_keep = (plan->op == GG_OP_SDDMM && keep_on && be->sddmm_res != NULL
                && plan->k >= 1 && grbgpu_grb_type (plan->sr.type) == plan->ztype
                && grbgpu_result_can_stay_pattern (&plan->out, plan->ztype, ins, 3)) ;
            if (keep_buf == NULL && !sddmm_keep) OUT_HOST (ins, 3) ;
            // then a resident L (m x k) or R (n x k) is read in place (held
            // in the other layout: transposed there first); any other comes
            // down
            const gg_operand *ops [2] = { &plan->L, &plan->R } ;
            gg_resident *res [2] = { &lres, &rres } ;
            bool *in_place [2] = { &l_res, &r_res }, *held_t [2] = { &l_t, &r_t } ;
            gg_dense *dn [2] = { &L, &R } ;
            gg_view *vw [2] = { &v0, &v1 } ;
            const int64_t rows [2] = { plan->m, plan->n } ;
            for (int q = 0 ; q < 2 && keep_buf != NULL ; q++)
            {
                if (!grbgpu_resident_pin (ops [q]->obj, res [q])) continue ;
                *in_place [q] = (res [q]->be == be)
                    && gemm_operand_fits (res [q], ops [q], t, rows [q], plan->k, held_t [q]) ;
                if (!*in_place [q]) grbgpu_resident_unpin (ops [q]->obj, res [q]->buf) ;
            }
            for (int q = 0 ; q < 2 ; q++)
            {
                if (*in_place [q])
                {
                    *dn [q] = (gg_dense) { .nrows = rows [q], .ncols = plan->k,
                        .x = ops [q]->values ? res [q]->buf : NULL, .cache = NULL } ;
                    continue ;
                }
                HOST (ops [q]->obj, "a product's dense operand") ;
                VIEW (*vw [q], ops [q]->obj) ;
                TRY (dispatch_get_dense (ops [q], t, vw [q], dn [q], &held [q])) ;
            }
            if (plan->op == GG_OP_SDDMM)
            {
                HOST (plan->P.obj, "a product's mask pattern") ;
                VIEW (v2, plan->P.obj) ;
                TRY (dispatch_get_csr (&plan->P, t, &v2, &P, &held [2])) ;
            }
            if (grbgpu_fault (GG_FAULT_ALLOC)) { rc = GG_ERR_FAULT ; goto done ; }
            if (keep_buf != NULL)
            {
                t_compute = grbgpu_now () ;
                TRY (be->gemm_res (&plan->sr, &L, l_res, l_t, &R, r_res, r_t, keep_buf)) ;
                break ;
            }
            if (sddmm_keep && P.p32 != NULL && P.cache != NULL)
            {
                keep_bytes = (size_t) (P.nnz > 0 ? P.nnz : 1) * zsz ;
                keep_buf = grbgpu_resident_alloc (be, keep_bytes) ;
            }
            if (keep_buf == NULL && sddmm_keep)
            {
                sddmm_keep = false ;
                OUT_HOST (ins, 3) ;
            }
            if (sddmm_keep)
            {
                t_compute = grbgpu_now () ;
                TRY (be->sddmm_res (&plan->sr, &P, &L, &R, keep_buf)) ;
                break ;
            }
            if (plan->op == GG_OP_SDDMM)
            {
                r.x = grbgpu_alloc_result ((size_t) (P.nnz > 0 ? P.nnz : 1) * zsz) ;
                r.x_fresh = true ;
                r.pattern = &P ;
            }
            else
            {
                grbgpu_result_prepare (&plan->out, &r, inputs, 2) ;
            }
            if (r.x == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            t_compute = grbgpu_now () ;
            if (plan->op == GG_OP_SDDMM) TRY (be->sddmm (&plan->sr, &P, &L, &R, r.x)) ;
            else TRY (be->gemm (&plan->sr, &L, &R, r.x)) ;
            break ;
        }
    }

    // the product is done: T goes to C (this cannot be undone, so from here
    // on the call is answered by grbgpu, whatever GraphBLAS says)
    t_write = grbgpu_now () ;
    if (acc_res)
    {
        // C = accum (C, T) on the device; T is taken, C unpinned
        void *T = keep_buf ;
        keep_buf = NULL ;
        acc_res = false ;
        rc = grbgpu_vec_accum_finish (be, &plan->out, &cres, T, keep_bytes, &S) ;
        if (rc != GG_OK) goto done ;
        *info = GrB_SUCCESS ;
    }
    else if (sddmm_keep || keep_rows)
    {
        // on the mask's pattern (P), or as full and absent rows (S's)
        gg_resident kept = { .be = be, .buf = keep_buf, .bytes = keep_bytes, .zt = t,
            .nrows = plan->m, .ncols = plan->n, .nvals = P.nnz, .on_csr = true, .csr = P } ;
        if (keep_rows)
        {
            kept = (gg_resident) { .be = be, .buf = keep_buf, .bytes = keep_bytes, .zt = t,
                .nrows = r.nrows, .ncols = r.ncols, .on_rows = true, .csr = S } ;
        }
        kept.csr.x = NULL ;
        kept.csr.x_dev = false ;
        GrB_Info kinfo = grbgpu_resident_keep_csr (plan->out.C, &kept) ;
        keep_buf = NULL ;       // kept, or freed by keep
        if (kinfo != GrB_SUCCESS) { rc = GG_ERR_NOMEM ; goto done ; }
        *info = GrB_SUCCESS ;
        grbgpu_log (2, "resident: result %p kept on %s %s (%zu bytes not brought down)",
            (void *) plan->out.C, be->name, keep_rows ? "as full and absent rows"
            : "on its mask's pattern", keep_bytes) ;
    }
    else if (keep_buf != NULL)
    {
        gg_resident kept = { .be = be, .buf = keep_buf, .bytes = keep_bytes, .zt = t,
            .nrows = r.nrows, .ncols = r.ncols, .is_vector = plan->out.is_vector } ;
        GrB_Info kinfo = grbgpu_resident_keep (plan->out.C, &kept) ;
        keep_buf = NULL ;       // kept, or freed by keep
        if (kinfo != GrB_SUCCESS) { rc = GG_ERR_NOMEM ; goto done ; }
        *info = GrB_SUCCESS ;
        if (grbgpu_settings.verbose >= 2)
        {
            grbgpu_log (2, "resident: result %p kept on %s (%zu bytes not brought down),"
                " dense operand %s", (void *) plan->out.C, be->name, keep_bytes,
                (x_res || l_res || r_res) ? "read in place (nothing sent)" : "sent") ;
        }
    }
    else
    {
        *info = grbgpu_write_result (&plan->out, &r) ;
    }
    // seconds in: views and operand forms, the backend, the write-back
    phase [0] = t_compute - t_start ;
    phase [1] = t_write - t_compute ;
    phase [2] = grbgpu_now () - t_write ;

done:
    if (rc != GG_OK) grbgpu_result_discard (&r) ;
    if (keep_buf != NULL) grbgpu_resident_release (be, keep_buf, keep_bytes) ;
    if (acc_res) grbgpu_resident_unpin (plan->out.C, cres.buf) ;
    if (x_res) grbgpu_resident_unpin (plan->X.obj, xres.buf) ;
    if (s_res) grbgpu_resident_unpin (plan->S.obj, sres.buf) ;
    if (l_res) grbgpu_resident_unpin (plan->L.obj, lres.buf) ;
    if (r_res) grbgpu_resident_unpin (plan->R.obj, rres.buf) ;
    for (int k = 0 ; k < MAX_HELD ; k++) if (held [k] != NULL) grbgpu_cache_release (held [k]) ;
    if (rc == GG_ERR_UNSUPPORTED && *why == NULL) *why = "no kernel for this case on the backend" ;
    return rc ;
    #undef TRY
    #undef OUT_HOST
    #undef VIEW
}

//------------------------------------------------------------------------------
// grbgpu_dispatch
//------------------------------------------------------------------------------

static const char *error_name (int rc)
{
    switch (rc)
    {
        case GG_ERR_NOMEM:  return "out of host memory" ;
        case GG_ERR_DEVICE: return "device error" ;
        case GG_ERR_DEVMEM: return "out of device memory" ;
        case GG_ERR_FAULT:  return "injected fault" ;
        default:            return "error" ;
    }
}

// (the verbosity is tested here, so that a quiet decline makes no varargs call)
static void decline (const char *reason)
{
    grbgpu_count (GG_STAT_DECLINED, 1) ;
    grbgpu_count_decline (reason) ;
    grbgpu_set_last_decision ("declined", reason) ;
    if (grbgpu_settings.verbose >= 1) grbgpu_log (1, "declined: %s", reason) ;
}

// The settings are read once (grbgpu_settings_init); this flag spares every
// later call the trip to pthread_once.
static _Atomic bool settings_read = false ;

bool grbgpu_dispatch (const gg_call *call, GrB_Info *info)
{
    if (!atomic_load_explicit (&settings_read, memory_order_acquire))
    {
        grbgpu_settings_init () ;
        atomic_store_explicit (&settings_read, true, memory_order_release) ;
    }
    const gg_settings *s = &grbgpu_settings ;
    if (s->disable) return false ;
    grbgpu_count (GG_STAT_INTERCEPTED, 1) ;

    //--------------------------------------------------------------------------
    // classify
    //--------------------------------------------------------------------------

    if (s->device == GG_DEVICE_CPU) { decline ("GRBGPU_DEVICE=cpu") ; return false ; }
    if (s->precision != GG_PRECISION_EXACT)
    {
        // say once what the lower-precision mode changes: tf32 lets the
        // tensor-core SpMM rows (backend/cuda/family_tc.c) multiply FP32 in
        // one TF32 product; fp16 / bf16 have no kernel yet
        static _Atomic bool told = false ;
        if (!atomic_exchange (&told, true))
        {
            if (s->precision == GG_PRECISION_TF32)
                fprintf (stderr, "grbgpu: GRBGPU_PRECISION=tf32: FP32 plus-times SpMM on the "
                    "tensor-core kernels (where the chooser takes them) uses TF32 inputs; "
                    "everything else stays exact\n") ;
            else
                fprintf (stderr, "grbgpu: GRBGPU_PRECISION=%s is not implemented yet; "
                    "computing in exact precision\n",
                    s->precision == GG_PRECISION_FP16 ? "fp16" : "bf16") ;
        }
    }
    if (!version_ok ()) { decline ("unsupported GraphBLAS version") ; return false ; }
    // C = D*S with D diagonal and S resident on a pattern (mat_pattern.c)
    if (grbgpu_pattern_mxm (call, info))
    {
        grbgpu_log (2, "resident: C = D*S on the device (S on a pattern, D diagonal)") ;
        return true ;
    }
    gg_plan plan ;
    const char *why = grbgpu_classify (call, &plan) ;
    if (why != NULL) { decline (why) ; return false ; }

    //--------------------------------------------------------------------------
    // choose the backend
    //--------------------------------------------------------------------------

    // the work first: a call too small to offload must not open the CUDA
    // module nor start CUDA (~0.4 s), in a process that may never offload
    if (s->min_work >= 0)
    {
        if (plan.flops < s->min_work) { decline ("below GRBGPU_MIN_WORK") ; return false ; }
    }
    else if (s->device == GG_DEVICE_AUTO && !worth_offloading (&plan, &why))
    {
        decline (why) ;
        return false ;
    }
    const gg_backend *be = NULL ;
    if (s->device == GG_DEVICE_HOST)
    {
        be = &grbgpu_host_backend ;
    }
    else
    {
        be = grbgpu_cuda_backend () ;
        if (be == NULL) { decline ("no usable CUDA device") ; return false ; }
    }

    //--------------------------------------------------------------------------
    // run it
    //--------------------------------------------------------------------------

    why = NULL ;
    // operands, compute, write-back; within operands (SpMM), the times at
    // which S was viewed, S's form ready, the output's device side ready
    double phase [7] = { 0, 0, 0, 0, 0, 0, 0 } ;
    bool flagged = false ;
    int rc = run_plan (&plan, be, true, &flagged, info, &why, phase) ;
    if (rc == GG_ERR_UNSUPPORTED && flagged)
    {
        // the backend (or the direct form's 64-bit indices) refused S by
        // its transpose: the host transposes, as before
        grbgpu_log (2, "%s: S by its transpose declined (%s); transposing on the host",
            be->name, why != NULL ? why : "unsupported") ;
        why = NULL ;
        rc = run_plan (&plan, be, false, &flagged, info, &why, phase) ;
    }
    if (rc == GG_OK)
    {
        bool cuda = (be != &grbgpu_host_backend) ;
        grbgpu_count (cuda ? GG_STAT_OFFLOADED_CUDA : GG_STAT_OFFLOADED_HOST, 1) ;
        grbgpu_set_last_decision (be->name, NULL) ;
        grbgpu_log (2, "%s: %s %lldx%lldx%lld (%.3g flops) -> GrB_Info %d; ms: operands %.3f,"
            " compute %.3f, write-back %.3f", be->name,
            plan.op == GG_OP_SPMM ? "spmm" : plan.op == GG_OP_SDDMM ? "sddmm" : "gemm",
            (long long) plan.m, (long long) plan.k, (long long) plan.n, plan.flops, (int) *info,
            1e3 * phase [0], 1e3 * phase [1], 1e3 * phase [2]) ;
        if (plan.op == GG_OP_SPMM)
        {
            grbgpu_log (2, "%s: spmm operands, ms: S viewed %.3f, S's form %.3f, output %.3f,"
                " X %.3f", be->name, 1e3 * phase [3], 1e3 * (phase [4] - phase [3]),
                1e3 * (phase [5] - phase [4]), 1e3 * (phase [0] - phase [5])) ;
        }
        return true ;
    }
    if (rc == GG_ERR_UNSUPPORTED)
    {
        decline (why) ;
        return false ;
    }
    const char *what = error_name (rc) ;
    grbgpu_count (GG_STAT_FALLBACKS, 1) ;
    grbgpu_set_last_decision ("fallback", what) ;
    grbgpu_log (1, "fallback to the CPU library after %s on %s", what, be->name) ;
    return false ;
}
