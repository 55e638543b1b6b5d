//------------------------------------------------------------------------------
// backend/resident/resident_pattern.c: materialising a vector on a pattern
//------------------------------------------------------------------------------

// See resident_private.h.  A resident vector on a pattern (t .* sink, made
// by backend/dispatch/vec_pattern.c) holds, on the host, the structure the
// CPU library gave it (sparse or bitmap, its sparsity options applied) with
// one iso placeholder value; its buffer holds a value at every position (0
// outside the pattern) and the pattern itself.  Materialising keeps that
// structure: a bitmap's values come down whole (n of them, GraphBLAS reads
// them only where the bitmap is set; the positions outside hold 0), a sparse
// vector's are gathered on the device at its own indices (nvals of them).

#include "config.h"
#include "backend/resident/resident_private.h"
#include "backend/interpose/galloc.h"

#include <string.h>

typedef GrB_Info (*vopt_fn) (GrB_Vector, GxB_Option_Field, ...) ;
typedef GrB_Info (*unpack_bitmap_fn) (GrB_Vector, int8_t **, void **, GrB_Index *,
    GrB_Index *, bool *, GrB_Index *, const GrB_Descriptor) ;
typedef GrB_Info (*pack_bitmap_fn) (GrB_Vector, int8_t **, void **, GrB_Index,
    GrB_Index, bool, GrB_Index, const GrB_Descriptor) ;
typedef GrB_Info (*unpack_csc_fn) (GrB_Vector, GrB_Index **, void **, GrB_Index *,
    GrB_Index *, bool *, GrB_Index *, bool *, const GrB_Descriptor) ;
typedef GrB_Info (*pack_csc_fn) (GrB_Vector, GrB_Index **, void **, GrB_Index,
    GrB_Index, bool, GrB_Index, bool, const GrB_Descriptor) ;

// the values at the nvals indices I (a sparse vector's), gathered on the
// device, tried as grbgpu_res_fetch does
static int gather (const gg_resident *r, const GrB_Index *I, int64_t nvals, void *x)
{
    int rc = GG_ERR_FAULT ;
    for (int t = 0 ; t < GG_MATERIALISE_TRIES && rc != GG_OK ; t++)
    {
        rc = grbgpu_fault (GG_FAULT_COPY) ? GG_ERR_FAULT
            : r->be->vec_gather (r->zt, r->buf, (const int64_t *) I, nvals, x) ;
    }
    return rc ;
}

GrB_Info grbgpu_res_fill_pattern (GrB_Vector obj, const gg_resident *r, size_t *down)
{
    const size_t zsz = gg_type_size (r->zt) ;
    const int64_t n = r->nrows ;
    int status = 0 ;
    GrB_Info info = REAL (vopt_fn, "GxB_Vector_Option_get") (obj, GxB_SPARSITY_STATUS, &status) ;
    if (info != GrB_SUCCESS) return info ;
    void *old = NULL, *x = NULL ;
    GrB_Index old_size = 0, nvals = 0 ;
    bool iso = false ;
    int rc ;
    *down = 0 ;
    if (status == GxB_BITMAP)
    {
        int8_t *b = NULL ;
        GrB_Index b_size = 0 ;
        x = grbgpu_gb_malloc ((size_t) n * zsz) ;
        if (x == NULL) return GrB_OUT_OF_MEMORY ;
        // the values first: a failed download leaves obj untouched
        rc = grbgpu_res_fetch (r, x, (size_t) n * zsz) ;
        if (rc != GG_OK) { grbgpu_gb_free (x) ; return GrB_OUT_OF_MEMORY ; }
        info = REAL (unpack_bitmap_fn, "GxB_Vector_unpack_Bitmap") (obj, &b, &old,
            &b_size, &old_size, &iso, &nvals, NULL) ;
        if (info != GrB_SUCCESS) { grbgpu_gb_free (x) ; return info ; }
        pack_bitmap_fn pack = REAL (pack_bitmap_fn, "GxB_Vector_pack_Bitmap") ;
        info = pack (obj, &b, &x, b_size, (GrB_Index) n * zsz, false, nvals, NULL) ;
        if (info != GrB_SUCCESS)
        {
            // put the placeholder back (obj is empty now)
            grbgpu_gb_free (x) ;
            if (pack (obj, &b, &old, b_size, old_size, iso, nvals, NULL) != GrB_SUCCESS)
            {
                grbgpu_gb_free (b) ; grbgpu_gb_free (old) ;
            }
            return info ;
        }
        *down = (size_t) n * zsz ;
    }
    else if (status == GxB_SPARSE)
    {
        GrB_Index *I = NULL, i_size = 0 ;
        bool jumbled = false ;
        info = REAL (unpack_csc_fn, "GxB_Vector_unpack_CSC") (obj, &I, &old, &i_size,
            &old_size, &iso, &nvals, &jumbled, NULL) ;
        if (info != GrB_SUCCESS) return info ;
        pack_csc_fn pack = REAL (pack_csc_fn, "GxB_Vector_pack_CSC") ;
        const size_t x_size = (nvals > 0 ? (size_t) nvals : 1) * zsz ;
        x = grbgpu_gb_malloc (x_size) ;
        rc = (x == NULL) ? GG_ERR_NOMEM : (nvals > 0 ? gather (r, I, (int64_t) nvals, x) : GG_OK) ;
        info = (rc == GG_OK) ? pack (obj, &I, &x, i_size, x_size, false, nvals, jumbled, NULL)
            : GrB_OUT_OF_MEMORY ;
        if (info != GrB_SUCCESS)
        {
            grbgpu_gb_free (x) ;
            if (pack (obj, &I, &old, i_size, old_size, iso, nvals, jumbled, NULL) != GrB_SUCCESS)
            {
                grbgpu_gb_free (I) ; grbgpu_gb_free (old) ;
            }
            return info ;
        }
        *down = (size_t) nvals * zsz ;
    }
    else
    {
        // (vec_pattern.c registers a full result without a pattern)
        grbgpu_log (1, "resident: %p on a pattern held as sparsity %d", (void *) obj, status) ;
        return GrB_INVALID_OBJECT ;
    }
    grbgpu_gb_free (old) ;      // the placeholder
    return GrB_SUCCESS ;
}
