//------------------------------------------------------------------------------
// backend/dispatch/forms.c: the converted operands of a product, through the cache
//------------------------------------------------------------------------------

// What dispatch.c's run_plan reads its operands through: the CSR or dense
// form of op (obj), from the cache by (object, version, form), or converted
// now and cached (dispatch_private.h).

#include "config.h"
#include "backend/dispatch/dispatch_private.h"

#include <pthread.h>
#include <stdint.h>

static uint64_t form_code (int kind, const gg_operand *o, gg_type t)
{
    return (uint64_t) kind | ((uint64_t) o->transpose << 4)
        | ((uint64_t) o->values << 5) | ((uint64_t) (o->values ? t : 0) << 8) ;
}

gg_cache_key dispatch_operand_key (int kind, const gg_operand *o, gg_type t)
{
    gg_cache_key key = { o->obj, grbgpu_objver_get (o->obj), form_code (kind, o, t) } ;
    return key ;
}

// The converted form of op (obj) of this kind, from the cache or built now
// (and cached).  Returns the entry with a reference held.
static int get_form (int kind, const gg_operand *o, gg_type t, const gg_view *v,
    gg_cache_entry **entry)
{
    gg_cache_key key = dispatch_operand_key (kind, o, t) ;
    gg_cache_entry *e = grbgpu_cache_acquire (&key) ;
    if (e != NULL && kind == FORM_DENSE && o->values
        && ((gg_dense_form *) e->host)->owned == NULL && !gg_dense_in_place (v, o->transpose, t))
    {
        // a form read in place, but the storage changed since (GrB_wait
        // keeps the version: the values are the same, their layout is not)
        grbgpu_cache_release (e) ;
        grbgpu_cache_invalidate (o->obj) ;
        e = NULL ;
    }
    if (e == NULL)
    {
        if (grbgpu_fault (GG_FAULT_CONVERT)) return GG_ERR_FAULT ;
        double t0 = grbgpu_now () ;
        void *form ;
        size_t bytes ;
        void (*form_free) (void *) ;
        int rc ;
        if (kind == FORM_CSR)
        {
            gg_csr_form *f ;
            rc = gg_csr_from_view (&f, v, o->transpose, o->values, t) ;
            form = f ; bytes = (rc == GG_OK) ? f->bytes : 0 ; form_free = gg_csr_form_free ;
        }
        else
        {
            gg_dense_form *f ;
            rc = gg_dense_from_view (&f, v, o->transpose, o->values, t) ;
            form = f ; bytes = (rc == GG_OK) ? f->bytes : 0 ; form_free = gg_dense_form_free ;
        }
        if (rc != GG_OK) return rc ;
        grbgpu_count_seconds (0, grbgpu_now () - t0) ;
        e = grbgpu_cache_insert (&key, form, bytes, form_free) ;
        if (e == NULL) return GG_ERR_NOMEM ;
    }
    *entry = e ;
    return GG_OK ;
}

// The CSR of op (obj).  *entry holds a reference.
int dispatch_get_csr (const gg_operand *o, gg_type t, const gg_view *v,
    gg_csr *csr, gg_cache_entry **entry)
{
    int rc = get_form (FORM_CSR, o, t, v, entry) ;
    if (rc != GG_OK) return rc ;
    *csr = ((gg_csr_form *) (*entry)->host)->csr ;
    csr->cache = *entry ;
    return GG_OK ;
}

// Whether op (obj)'s CSR can go to the backend as the CSR its storage gives
// directly plus the flag "multiply by its transpose" (gg_csr.transposed):
// the backend takes it, the storage is by the other orientation (building
// op (obj) would transpose on the host), sparse or hypersparse (bitmap and
// full are transposed by a plain walk), and the indices fit 32 bits.
bool dispatch_transpose_on_backend (const gg_backend *be, const gg_operand *o,
    const gg_view *v)
{
    return be->spmm_transposed && v->by_col != o->transpose
        && (v->storage == GG_STORE_SPARSE || v->storage == GG_STORE_HYPER)
        && v->vlen < INT32_MAX && v->vdim < INT32_MAX && v->nvals < INT32_MAX ;
}

// op (obj) as the direct CSR of its storage with `transposed` set: the cache
// entry is the direct form's (the one GrB_mxv reads), so the backend's device
// copy serves both; the rows of op (obj), i.e. the columns of the direct
// CSR, are marked once per form (gg_csr_form_columns, an O(nnz) pass).
// GG_ERR_UNSUPPORTED when the direct form has 64-bit indices.
int dispatch_get_csr_transposed (const gg_operand *o, gg_type t, const gg_view *v,
    gg_csr *csr, gg_cache_entry **entry)
{
    gg_operand d = *o ;
    d.transpose = !o->transpose ;
    int rc = get_form (FORM_CSR, &d, t, v, entry) ;
    if (rc != GG_OK) return rc ;
    gg_cache_entry *e = *entry ;
    gg_csr_form *f = (gg_csr_form *) e->host ;
    if (f->csr.p32 == NULL || f->csr.i32 == NULL) return GG_ERR_UNSUPPORTED ;
    pthread_mutex_lock (&e->lock) ;
    rc = gg_csr_form_columns (f) ;
    pthread_mutex_unlock (&e->lock) ;
    if (rc != GG_OK) return rc ;
    const gg_csr *A = &f->csr ;
    *csr = *A ;
    csr->nrows = A->ncols ;
    csr->ncols = A->nrows ;
    csr->transposed = true ;
    csr->max_row = -1 ;
    csr->present = f->col_present ;
    csr->nonempty = f->col_nonempty ;
    csr->no_empty_rows = (f->col_nonempty == A->ncols) ;
    csr->cache = e ;
    return GG_OK ;
}

// The dense row-major op (obj).  *entry holds a reference.
int dispatch_get_dense (const gg_operand *o, gg_type t, const gg_view *v,
    gg_dense *dense, gg_cache_entry **entry)
{
    int rc = get_form (FORM_DENSE, o, t, v, entry) ;
    if (rc != GG_OK) return rc ;
    gg_cache_entry *e = *entry ;
    gg_dense_form *f = (gg_dense_form *) e->host ;
    *dense = f->dense ;
    // a zero-copy form points into the matrix: take the address from this
    // call's view, which is current by construction
    if (o->values && f->owned == NULL) dense->x = v->x ;
    dense->cache = e ;
    return GG_OK ;
}
