//------------------------------------------------------------------------------
// backend/resident/resident_private.h: what resident.c and resident_pattern.c
// share
//------------------------------------------------------------------------------

#ifndef GG_RESIDENT_PRIVATE_H
#define GG_RESIDENT_PRIVATE_H

#include "backend/resident/resident.h"
#include "backend/storage/storage_private.h"

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

// The object's storage options, kept across its packs (storage_private.h's
// functions with real = true: no wrapper runs under the registry's lock)
typedef gg_c_options gg_options ;


#endif
