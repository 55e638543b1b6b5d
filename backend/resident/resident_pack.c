//------------------------------------------------------------------------------
// backend/resident/resident_pack.c: a resident object's storage through the real pack functions
//------------------------------------------------------------------------------

// The library's own pack / unpack and option functions, looked up through
// grbgpu_real so that no wrapper runs again (resident.c calls these under its
// lock), and the shadow: an object's own values array, kept instead of freed.

#include "config.h"
#include "backend/resident/resident_private.h"
#include "backend/interpose/galloc.h"

//------------------------------------------------------------------------------
// the real pack / unpack functions (no wrapper may run under the lock)
//------------------------------------------------------------------------------

typedef GrB_Info (*vunpack_fn) (GrB_Vector, void **, GrB_Index *, bool *, const GrB_Descriptor) ;
typedef GrB_Info (*vpack_fn) (GrB_Vector, void **, GrB_Index, bool, const GrB_Descriptor) ;
typedef GrB_Info (*munpack_fn) (GrB_Matrix, void **, GrB_Index *, bool *, const GrB_Descriptor) ;
typedef GrB_Info (*mpack_fn) (GrB_Matrix, void **, GrB_Index, bool, const GrB_Descriptor) ;

// Pack x (xsize bytes, from GraphBLAS's memory functions) into obj as full;
// on success x belongs to GraphBLAS (and *x is NULL).
GrB_Info grbgpu_res_pack_full (GrB_Matrix obj, const gg_resident *r, void **x,
    size_t xsize, bool iso)
{
    if (r->is_vector)
    {
        return REAL (vpack_fn, "GxB_Vector_pack_Full") ((GrB_Vector) obj, x, xsize, iso, NULL) ;
    }
    return REAL (mpack_fn, r->by_col ? "GxB_Matrix_pack_FullC" : "GxB_Matrix_pack_FullR")
        (obj, x, xsize, iso, NULL) ;
}

GrB_Info grbgpu_res_unpack_full (GrB_Matrix obj, const gg_resident *r, void **x,
    GrB_Index *xsize, bool *iso)
{
    if (r->is_vector)
    {
        return REAL (vunpack_fn, "GxB_Vector_unpack_Full") ((GrB_Vector) obj, x, xsize, iso, NULL) ;
    }
    return REAL (munpack_fn, r->by_col ? "GxB_Matrix_unpack_FullC" : "GxB_Matrix_unpack_FullR")
        (obj, x, xsize, iso, NULL) ;
}

typedef GrB_Info (*vopt_fn) (GrB_Vector, GxB_Option_Field, ...) ;
typedef GrB_Info (*mopt_fn) (GrB_Matrix, GxB_Option_Field, ...) ;

// (a vector's hyper switch too, through the matrix functions: GrB_Vector_dup
// copies it and a pack resets it)
GrB_Info grbgpu_res_options_get (GrB_Matrix obj, bool is_vector, gg_options *o)
{
    GrB_Info info ;
    o->control = GxB_AUTO_SPARSITY ; o->hyper = 0 ; o->bitmap = 0 ;
    mopt_fn mget = REAL (mopt_fn, "GxB_Matrix_Option_get") ;
    if (is_vector)
    {
        vopt_fn get = REAL (vopt_fn, "GxB_Vector_Option_get") ;
        info = get ((GrB_Vector) obj, GxB_SPARSITY_CONTROL, &o->control) ;
        if (info == GrB_SUCCESS) info = get ((GrB_Vector) obj, GxB_BITMAP_SWITCH, &o->bitmap) ;
    }
    else
    {
        info = mget (obj, GxB_SPARSITY_CONTROL, &o->control) ;
        if (info == GrB_SUCCESS) info = mget (obj, GxB_BITMAP_SWITCH, &o->bitmap) ;
    }
    if (info == GrB_SUCCESS) info = mget (obj, GxB_HYPER_SWITCH, &o->hyper) ;
    return info ;
}

GrB_Info grbgpu_res_options_restore (GrB_Matrix obj, bool is_vector, const gg_options *o)
{
    gg_options now ;
    GrB_Info info = grbgpu_res_options_get (obj, is_vector, &now) ;
    if (info != GrB_SUCCESS) return info ;
    mopt_fn mset = REAL (mopt_fn, "GxB_Matrix_Option_set") ;
    if (is_vector)
    {
        vopt_fn set = REAL (vopt_fn, "GxB_Vector_Option_set") ;
        if (now.control != o->control) info = set ((GrB_Vector) obj, GxB_SPARSITY_CONTROL, o->control) ;
        if (info == GrB_SUCCESS && now.bitmap != o->bitmap)
            info = set ((GrB_Vector) obj, GxB_BITMAP_SWITCH, o->bitmap) ;
    }
    else
    {
        if (now.control != o->control) info = mset (obj, GxB_SPARSITY_CONTROL, o->control) ;
        if (info == GrB_SUCCESS && now.bitmap != o->bitmap) info = mset (obj, GxB_BITMAP_SWITCH, o->bitmap) ;
    }
    if (info == GrB_SUCCESS && now.hyper != o->hyper) info = mset (obj, GxB_HYPER_SWITCH, o->hyper) ;
    return info ;
}

// A matrix packed as CSR is held in the storage GraphBLAS conforms it to
// (sparse, hypersparse or bitmap by its options and size), as the CPU
// library's result would be: setting the sparsity control (to what it is)
// conforms it; a pack does not
GrB_Info grbgpu_res_conform (GrB_Matrix obj, const gg_options *o)
{
    return REAL (mopt_fn, "GxB_Matrix_Option_set") (obj, GxB_SPARSITY_CONTROL, o->control) ;
}

//------------------------------------------------------------------------------
// the shadow: obj's own values array, taken instead of freed
//------------------------------------------------------------------------------

typedef GrB_Info (*miso_fn) (bool *, const GrB_Matrix) ;
typedef GrB_Info (*viso_fn) (bool *, const GrB_Vector) ;

// When obj (about to become resident as r) holds full, non-iso values of
// r's layout (by row or by column as r; the product's type, so r->bytes of
// them), they are unpacked into *x (*xsize) and kept instead of freed (a
// 537 MB array took ~36 ms to free, and as long again to fault in afresh
// when the values come down).  Anything else: nothing taken, obj unchanged.
void grbgpu_res_take_shadow (GrB_Matrix obj, const gg_resident *r, void **x, size_t *xsize)
{
    *x = NULL ; *xsize = 0 ;
    if (r->pattern != NULL || r->on_csr || r->on_rows || r->bytes == 0) return ;
    int status = 0, format = 0 ;
    bool iso = true ;
    GrB_Info info ;
    if (r->is_vector)
    {
        info = REAL (vopt_fn, "GxB_Vector_Option_get") ((GrB_Vector) obj, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = REAL (viso_fn, "GxB_Vector_iso") (&iso, (GrB_Vector) obj) ;
    }
    else
    {
        info = REAL (mopt_fn, "GxB_Matrix_Option_get") (obj, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = REAL (mopt_fn, "GxB_Matrix_Option_get") (obj, GxB_FORMAT, &format) ;
        if (info == GrB_SUCCESS) info = REAL (miso_fn, "GxB_Matrix_iso") (&iso, obj) ;
        if (info == GrB_SUCCESS && (format == GxB_BY_COL) != r->by_col) return ;
    }
    if (info != GrB_SUCCESS || status != GxB_FULL || iso) return ;
    void *old = NULL ;
    GrB_Index old_size = 0 ;
    bool old_iso = false ;
    if (grbgpu_res_unpack_full (obj, r, &old, &old_size, &old_iso) != GrB_SUCCESS) return ;
    if (old_iso || old_size < r->bytes)
    {
        // (not expected after the checks above; obj is empty now and gets
        // the placeholder next, as it would have)
        grbgpu_gb_free (old) ;
        return ;
    }
    *x = old ; *xsize = (size_t) old_size ;
    if (grbgpu_settings.verbose >= 2)
    {
        grbgpu_log (2, "resident: %p's own values array (%zu bytes) kept to take its values"
            " when they come down", (void *) obj, *xsize) ;
    }
}
