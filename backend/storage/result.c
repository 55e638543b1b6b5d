//------------------------------------------------------------------------------
// backend/storage/result.c: room for the result T
//------------------------------------------------------------------------------

// When the write will overwrite C anyway (plain, C held bitmap or full, not
// iso, not an input of the call), C's own arrays are unpacked and the product
// lands in them; when T is accumulated into a full C in place and then
// dropped, it lives in the thread's scratch buffer (buffer.c); otherwise T
// gets a fresh buffer.  Which write-back a call gets is decided in
// writeback.c; this file asks it (storage_private.h).

#include "config.h"
#include "backend/storage/storage_private.h"
#include "backend/resident/resident.h"

//------------------------------------------------------------------------------
// room for T: C's own arrays when the write will overwrite C
//------------------------------------------------------------------------------

// Unpack C's arrays if C is held bitmap or full, not iso, with room for T.
static void take_c_arrays (const gg_output *out, gg_result *r, size_t xbytes)
{
    GrB_Matrix C = out->C ;
    int status = 0 ;
    bool iso = true ;
    GrB_Info info ;
    if (out->is_vector)
    {
        info = GxB_Vector_Option_get ((GrB_Vector) C, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = GxB_Vector_iso (&iso, (GrB_Vector) C) ;
    }
    else
    {
        info = GxB_Matrix_Option_get (C, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = GxB_Matrix_iso (&iso, C) ;
    }
    if (info != GrB_SUCCESS || iso || (status != GxB_BITMAP && status != GxB_FULL)) return ;

    void *x = NULL ;
    int8_t *b = NULL ;
    GrB_Index xsize = 0, bsize = 0, nvals = 0 ;
    bool xiso = false ;
    if (status == GxB_BITMAP)
    {
        info = grbgpu_storage_unpack_bitmap (C, out->is_vector, r->by_col, &b,
            &x, &bsize, &xsize, &xiso, &nvals) ;
    }
    else
    {
        info = grbgpu_storage_unpack_full (C, out->is_vector, r->by_col, &x,
            &xsize, &xiso, false) ;
    }
    if (info != GrB_SUCCESS) return ;      // C is unchanged
    // C is empty now; its old content is overwritten by this call anyway
    if (xiso || (size_t) xsize < xbytes)
    {
        grbgpu_gb_free (x) ; grbgpu_gb_free (b) ;
        return ;
    }
    r->x = x ;
    r->x_size = (size_t) xsize ;
    r->b = b ;
    r->b_size = (size_t) bsize ;
    grbgpu_count (GG_STAT_OUTPUTS_REUSED, 1) ;
}

void grbgpu_result_prepare (const gg_output *out, gg_result *r,
    const GrB_Matrix *inputs, int ninputs)
{
    const size_t zsz = gg_type_size (r->zt) ;
    const size_t xbytes = (size_t) (r->nrows * r->ncols > 0 ? r->nrows * r->ncols : 1) * zsz ;
    r->x = NULL ; r->b = NULL ; r->x_size = 0 ; r->b_size = 0 ;
    r->x_fresh = true ; r->x_scratch = false ; r->opt_saved = false ;
    bool aliased = false ;
    for (int k = 0 ; k < ninputs ; k++) aliased = aliased || (inputs [k] == out->C) ;
    GrB_Type ctype ;
    if (GxB_Matrix_type (&ctype, out->C) != GrB_SUCCESS) ctype = NULL ;
    if (ctype != NULL && grbgpu_storage_in_place_write (out, r, ctype))
    {
        r->x = grbgpu_storage_scratch (xbytes) ;
        if (r->x != NULL)
        {
            // absent values are never read by the in-place accumulation
            r->x_size = xbytes ; r->x_scratch = true ; r->x_fresh = false ;
            return ;
        }
    }
    bool plain = false ;
    if (!aliased && ctype != NULL
        && grbgpu_storage_plain_write (out, r, ctype, &plain) == GrB_SUCCESS && plain)
    {
        gg_c_options opt ;
        if (grbgpu_storage_options_get (out->C, out->is_vector, false, &opt) == GrB_SUCCESS)
        {
            r->opt_saved = true ;
            r->opt_control = opt.control ; r->opt_hyper = opt.hyper ; r->opt_bitmap = opt.bitmap ;
            take_c_arrays (out, r, xbytes) ;
        }
    }
    if (r->x != NULL) { r->x_fresh = false ; return ; }
    r->x = grbgpu_alloc_result (xbytes) ;
    r->x_size = (r->x != NULL) ? xbytes : 0 ;
}

void grbgpu_result_discard (gg_result *r)
{
    result_free_x (r) ;
    grbgpu_gb_free (r->b) ; r->b = NULL ;
}

//------------------------------------------------------------------------------
// may T stay on the device (backend/resident/)?
//------------------------------------------------------------------------------

// Only when C's final content is T itself and T is full: the write would be
// plain (no mask, no accumulator, C of T's type and orientation), C may be
// held full (its sparsity control allows it), and C is none of the inputs.
// (The caller checks that T has every entry.)
static bool can_stay_as (const gg_output *out, const gg_result *r,
    const GrB_Matrix *inputs, int ninputs, int sparsity)
{
    if (out->C == NULL || out->M != NULL || out->accum != NULL || r->by_col) return false ;
    for (int k = 0 ; k < ninputs ; k++) if (inputs [k] == out->C) return false ;
    GrB_Type ctype ;
    if (GxB_Matrix_type (&ctype, out->C) != GrB_SUCCESS) return false ;
    bool plain = false ;
    if (grbgpu_storage_plain_write (out, r, ctype, &plain) != GrB_SUCCESS || !plain) return false ;
    gg_c_options opt ;
    if (grbgpu_storage_options_get (out->C, out->is_vector, false, &opt) != GrB_SUCCESS) return false ;
    return (opt.control & sparsity) != 0 ;
}

bool grbgpu_result_can_stay (const gg_output *out, const gg_result *r,
    const GrB_Matrix *inputs, int ninputs)
{
    return can_stay_as (out, r, inputs, ninputs, GxB_FULL) ;
}

bool grbgpu_result_can_stay_pattern (const gg_output *out, GrB_Type ztype,
    const GrB_Matrix *inputs, int ninputs)
{
    if (out->C == NULL) return false ;
    for (int k = 0 ; k < ninputs ; k++) if (inputs [k] == out->C) return false ;
    GrB_Type ctype ;
    int control = 0 ;
    return GxB_Matrix_type (&ctype, out->C) == GrB_SUCCESS
        && grbgpu_storage_pattern_is_all (out, ctype, ztype)
        && GxB_Matrix_Option_get (out->C, GxB_SPARSITY_CONTROL, &control) == GrB_SUCCESS
        && (control & (GxB_SPARSE | GxB_HYPERSPARSE)) != 0 ;
}

bool grbgpu_result_can_stay_rows (const gg_output *out, const gg_result *r,
    const GrB_Matrix *inputs, int ninputs)
{
    return !out->is_vector && can_stay_as (out, r, inputs, ninputs, GxB_BITMAP) ;
}

// Before a product's result is written into C on the host: C's values are
// read only with a mask or an accumulator, or when C is one of the inputs;
// otherwise a resident C is dropped (its device copy freed, its host side the
// placeholder that the write-back replaces whole: a call that then fails is
// answered by the CPU library, which reads none of C's values either).
GrB_Info grbgpu_result_to_host (const gg_output *out, const GrB_Matrix *ins, int nins)
{
    bool read = (out->M != NULL || out->accum != NULL) ;
    for (int k = 0 ; k < nins && !read ; k++) read = (ins [k] == out->C) ;
    if (read) return grbgpu_resident_materialise (out->C, "a product's output (written on the host)") ;
    grbgpu_resident_drop (out->C) ;
    return GrB_SUCCESS ;
}
