//------------------------------------------------------------------------------
// backend/dispatch/vec_accum.c: accumulation into a resident vector
//------------------------------------------------------------------------------

// See vec_dispatch.h: a product accumulated into a resident full vector
// (r += A'*w, called from dispatch.c).

#include "config.h"
#include "backend/dispatch/vec_private.h"
#include "backend/interpose/galloc.h"

#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// a product's accumulation into a resident output: C += T
//------------------------------------------------------------------------------

bool grbgpu_vec_accum_begin (const gg_backend *be, const gg_output *out, gg_type t,
    int64_t n, gg_resident *cres, const char **why)
{
    gg_vop op ;
    gg_type at ;
    GrB_Index cn ;
    GrB_Vector C = (GrB_Vector) out->C ;
    *why = NULL ;
    if (be->vec_op == NULL || be->res_upload == NULL) return false ;
    if (!out->is_vector || out->M != NULL) { *why = "accumulation: not a plain vector" ; return false ; }
    // (the accumulators of the write-back's in-place path that are vector
    // operators too; MIN / MAX and the comparisons are not taken here)
    if (!grbgpu_vec_binop (out->accum, &op, &at) || at != t || op > GG_VOP_DIV)
    {
        *why = "accumulation: operator not built in or of another type" ;
        return false ;
    }
    if (vec_type (out->C) != grbgpu_grb_type (t) || !vec_vsize (C, &cn) || (int64_t) cn != n)
    {
        *why = "accumulation: output of another type" ;
        return false ;
    }
    if (!vec_may_be_full (out->C)) { *why = "accumulation: output's sparsity control excludes full" ; return false ; }
    vec_in in ;
    const vec_shape shape = { .is_vector = true, .nrows = n, .ncols = 1 } ;
    if (!grbgpu_resident_has (C)) (void) grbgpu_vec_adopt (be, out->C, t, true) ;
    if (vec_get_input (be, out->C, t, &shape, false, &in) != NULL || !in.pinned)
    {
        // (an iso C is not pinned: it is sent up as a scalar only; not here)
        vec_put_input (&in) ;
        *why = "accumulation: output not full" ;
        return false ;
    }
    *cres = in.r ;
    return true ;
}

// the rows of S that hold an entry, one byte each: S's own array, or made
// from its row pointers (*owned)
static const int8_t *rows_present (void *ctx, int8_t **owned)
{
    const gg_csr *S = (const gg_csr *) ctx ;
    *owned = NULL ;
    if (S->present != NULL) return (const int8_t *) S->present ;
    int8_t *present = malloc ((size_t) (S->nrows > 0 ? S->nrows : 1)) ;
    if (present == NULL) return NULL ;
    for (int64_t i = 0 ; i < S->nrows ; i++)
    {
        int64_t a = S->p32 ? S->p32 [i] : S->p64 [i] ;
        int64_t b = S->p32 ? S->p32 [i+1] : S->p64 [i+1] ;
        present [i] = (b > a) ;
    }
    *owned = present ;
    return present ;
}

int grbgpu_vec_accum_finish (const gg_backend *be, const gg_output *out,
    gg_resident *cres, void *T, size_t bytes, const gg_csr *S)
{
    gg_vop op ;
    gg_type t ;
    int rc = GG_OK ;
    const int8_t *present = NULL ;
    int8_t *owned = NULL ;
    bool present_dev = false ;
    gg_cache_entry *pe = NULL ;
    void *z = NULL ;
    (void) grbgpu_vec_binop (out->accum, &op, &t) ;
    const int64_t n = cres->nrows ;
    // the rows of T that hold an entry (C keeps its value elsewhere): kept in
    // the backend's memory with S's version (sent up once per version of the
    // matrix), else sent with the call
    if (!S->no_empty_rows && (S->present == NULL || S->nonempty < S->nrows))
    {
        size_t sent = 0 ;
        const gg_cache_entry *se = (const gg_cache_entry *) S->cache ;
        if (se != NULL && S->nrows == n)
        {
            gg_cache_key key = { se->key.handle, se->key.version,
                VEC_FORM (VEC_FORM_ROWS, be, se->key.form) } ;
            if (vec_cached_bytes (be, &key, n, rows_present, (void *) S, &pe, &sent) == GG_OK)
            {
                present = (const int8_t *) pe->dev ;
                present_dev = true ;
            }
        }
        if (present == NULL)
        {
            present = rows_present ((void *) S, &owned) ;
            if (present == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
        }
        grbgpu_log (2, "resident: accumulation: the rows the product writes %s",
            present_dev ? (sent > 0 ? "sent up and kept" : "kept on the device") : "sent with the call") ;
    }
    z = grbgpu_resident_alloc (be, bytes) ;
    if (z == NULL) { rc = GG_ERR_DEVMEM ; goto done ; }
    if (present != NULL)
    {
        gg_vec_args copy = { .op = GG_VOP_IDENTITY, .type = t, .n = n, .z = z, .x = cres->buf } ;
        rc = be->vec_op (&copy) ;
    }
    if (rc == GG_OK)
    {
        gg_vec_args acc = { .op = op, .type = t, .n = n, .z = z, .x = cres->buf, .y = T,
            .present = present, .present_dev = present_dev } ;
        rc = be->vec_op (&acc) ;
    }
    if (rc != GG_OK) goto done ;
    gg_resident r = { .be = be, .buf = z, .bytes = bytes, .zt = t, .nrows = n, .ncols = 1,
        .is_vector = true } ;
    z = NULL ;
    if (grbgpu_resident_keep (out->C, &r) != GrB_SUCCESS) rc = GG_ERR_NOMEM ;   // z freed
done:
    free (owned) ;
    if (pe != NULL) { pthread_mutex_unlock (&pe->lock) ; grbgpu_cache_release (pe) ; }
    if (z != NULL) grbgpu_resident_release (be, z, bytes) ;
    grbgpu_resident_release (be, T, bytes) ;
    grbgpu_resident_unpin (out->C, cres->buf) ;
    return rc ;
}
