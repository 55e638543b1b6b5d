//------------------------------------------------------------------------------
// backend/storage/storage_private.h: shared by the files of backend/storage/
//------------------------------------------------------------------------------

// Room for T (result.c) depends on the write-back it will get (writeback.c):
// C's own arrays are taken only when the write will be plain, and the scratch
// buffer (buffer.c) only when T will be accumulated into C in place.  Both
// unpack C's arrays and keep C's storage options across a pack.  Arrows point
// one way: result.c -> writeback.c -> buffer.c, and result.c -> buffer.c.

#ifndef GG_STORAGE_PRIVATE_H
#define GG_STORAGE_PRIVATE_H

#include "backend/storage/storage.h"
#include "backend/interpose/galloc.h"

// C's storage options (a pack resets them; setting one converts C)
typedef struct { int control ; double hyper, bitmap ; } gg_c_options ;

// Each function with `real` calls the library as a program does (false:
// through grbgpu's wrappers where there is one) or the library's own
// functions (true: no wrapper runs; backend/resident calls them under its
// lock).
GG_INTERNAL GrB_Info grbgpu_storage_options_get (GrB_Matrix C, bool is_vector, bool real,
    gg_c_options *o) ;
// Setting an option makes GraphBLAS conform C to it (a conversion of the
// whole matrix): set back only what a pack changed
GG_INTERNAL GrB_Info grbgpu_storage_options_restore (GrB_Matrix C, bool is_vector, bool real,
    const gg_c_options *o) ;
// A matrix packed as CSR conformed to the storage its options give (setting
// the sparsity control to what it is)
GG_INTERNAL GrB_Info grbgpu_storage_conform (GrB_Matrix C, bool real, const gg_c_options *o) ;
// Pack a full value array into X (a vector, or a matrix by column or by
// row); on success *x is NULL (GraphBLAS owns the array)
GG_INTERNAL GrB_Info grbgpu_storage_pack_full (GrB_Matrix X, bool is_vector, bool by_col,
    void **x, GrB_Index xsize, bool iso, bool real) ;

// Will T be packed straight into C (*plain)?  No mask, no accumulator, C of
// T's type and held in T's orientation.
GG_INTERNAL GrB_Info grbgpu_storage_plain_write (const gg_output *out,
    const gg_result *r, GrB_Type ctype, bool *plain) ;

// Will T be accumulated into C in place?  No mask, a built-in accumulator of
// T's type, C full and held in T's orientation.
GG_INTERNAL bool grbgpu_storage_in_place_write (const gg_output *out,
    const gg_result *r, GrB_Type ctype) ;

// Unpack X's value array (full), or its bitmap and values (bitmap): a
// vector, or a matrix held by column or by row.
GG_INTERNAL GrB_Info grbgpu_storage_unpack_full (GrB_Matrix X, bool is_vector,
    bool by_col, void **x, GrB_Index *xsize, bool *iso, bool real) ;
GG_INTERNAL GrB_Info grbgpu_storage_unpack_bitmap (GrB_Matrix X,
    bool is_vector, bool by_col, int8_t **b, void **x, GrB_Index *bsize,
    GrB_Index *xsize, bool *iso, GrB_Index *nvals) ;

// The calling thread's scratch buffer of at least `bytes` (buffer.c), or NULL
// (too large, or out of memory).  grbgpu's own memory, kept for the thread's
// next call: never freed by the caller nor handed to GraphBLAS.
GG_INTERNAL void *grbgpu_storage_scratch (size_t bytes) ;

// Free T's values unless they live in the thread's scratch buffer (they
// came from grbgpu_alloc_result or from C).
static inline void result_free_x (gg_result *r)
{
    if (!r->x_scratch) grbgpu_gb_free (r->x) ;
    r->x = NULL ;
}

#endif
