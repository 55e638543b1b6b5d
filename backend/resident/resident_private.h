//------------------------------------------------------------------------------
// backend/resident/resident_private.h: what resident.c and resident_pattern.c
// share
//------------------------------------------------------------------------------

#ifndef GG_RESIDENT_PRIVATE_H
#define GG_RESIDENT_PRIVATE_H

#include "backend/resident/resident.h"

#define GG_MATERIALISE_TRIES 3

#define REAL(type, name) ((type) grbgpu_real (name))

// bytes of r's buffer (from its start) into host, tried up to
// GG_MATERIALISE_TRIES times (each may be an injected copy fault); GG_OK or
// the last error
GG_INTERNAL int grbgpu_res_fetch (const gg_resident *r, void *host, size_t bytes) ;

// A vector on a pattern (r->pattern set) gets its values: obj, which holds
// the pattern (sparse or bitmap) with a placeholder value, is unpacked and
// packed again with the values of r's buffer at its entries (*down: the
// bytes that came down).  GrB_SUCCESS, or the error that left obj as it was
// (holding the placeholder).  Under the registry's lock; the real GraphBLAS
// functions only.
GG_INTERNAL GrB_Info grbgpu_res_fill_pattern (GrB_Vector obj, const gg_resident *r,
    size_t *down) ;

// obj (by row) gets the structure of r, a matrix on a pattern (r->on_csr:
// csr's, packed as CSR) or of full and absent rows (r->on_rows: the bitmap
// of csr's rows with entries), with an iso placeholder value; the real
// GraphBLAS functions only.  On error what the pack did not take is freed
// (obj's previous content was not going to be read: the caller's result
// replaces all of it, or the CPU library's does).
GG_INTERNAL GrB_Info grbgpu_res_pack_placeholder (GrB_Matrix obj, const gg_resident *r) ;

// A matrix of full and absent rows (r->on_rows) gets its values: obj, which
// holds the bitmap with a placeholder value, is unpacked as a bitmap by row
// and packed again with r's buffer's values.  As grbgpu_res_fill_pattern.
GG_INTERNAL GrB_Info grbgpu_res_fill_rows (GrB_Matrix obj, const gg_resident *r, size_t *down) ;
// The bitmap (by row, nrows*ncols bytes, from GraphBLAS's memory functions)
// of csr's rows with entries, full across ncols, and its entries (*nvals)
GG_INTERNAL int8_t *grbgpu_res_rows_bitmap (const gg_csr *csr, int64_t ncols, int64_t *nvals) ;

typedef GrB_Info (*gg_mpack_bitmap_fn) (GrB_Matrix, int8_t **, void **, GrB_Index,
    GrB_Index, bool, GrB_Index, const GrB_Descriptor) ;

// A matrix on a pattern (r->on_csr) gets its values: obj, which holds the
// pattern with a placeholder value, is unpacked (CSR, sorted) and packed
// again with the values of r's buffer.  As grbgpu_res_fill_pattern.
GG_INTERNAL GrB_Info grbgpu_res_fill_csr (GrB_Matrix obj, const gg_resident *r, size_t *down) ;


typedef GrB_Info (*gg_mpack_csr_fn) (GrB_Matrix, GrB_Index **, GrB_Index **, void **,
    GrB_Index, GrB_Index, GrB_Index, bool, bool, const GrB_Descriptor) ;

// The object's storage options: a pack resets them, so they are read before
// the placeholder goes in and set again after each pack (as the write-back
// does, backend/storage/writeback.c)
typedef struct
{
    int control ;
    double hyper, bitmap ;
}
gg_options ;

// resident_pack.c: pack x (xsize bytes, from GraphBLAS's memory functions)
// into obj as full (on success x belongs to GraphBLAS and *x is NULL), and
// the reverse
GG_INTERNAL GrB_Info grbgpu_res_pack_full (GrB_Matrix obj, const gg_resident *r, void **x,
    size_t xsize, bool iso) ;
GG_INTERNAL GrB_Info grbgpu_res_unpack_full (GrB_Matrix obj, const gg_resident *r, void **x,
    GrB_Index *xsize, bool *iso) ;
// obj's storage options read, and set back to o where they differ
GG_INTERNAL GrB_Info grbgpu_res_options_get (GrB_Matrix obj, bool is_vector, gg_options *o) ;
GG_INTERNAL GrB_Info grbgpu_res_options_restore (GrB_Matrix obj, bool is_vector,
    const gg_options *o) ;
// a matrix packed as CSR conformed to the storage its options give
GG_INTERNAL GrB_Info grbgpu_res_conform (GrB_Matrix obj, const gg_options *o) ;
// obj's own full values array of r's layout taken (*x, *xsize) instead of
// freed, or nothing taken (*x NULL, obj unchanged)
GG_INTERNAL void grbgpu_res_take_shadow (GrB_Matrix obj, const gg_resident *r, void **x,
    size_t *xsize) ;

#endif
