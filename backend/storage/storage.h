//------------------------------------------------------------------------------
// backend/storage/storage.h: read operands without copying, write results back
//------------------------------------------------------------------------------

// Operands are viewed in place (view.c), the result T gets its room
// (result.c: C's own arrays, or a buffer from buffer.c), and T is written
// into C exactly as GrB_mxm would (writeback.c).

#ifndef GG_STORAGE_H
#define GG_STORAGE_H

#include "backend/grbgpu_internal.h"
#include "formats/convert.h"

// The built-in real type code of a GraphBLAS type, or -1 (user-defined,
// complex, NULL).
GG_INTERNAL int grbgpu_src_code (GrB_Type type) ;

// The GraphBLAS type of a kernel type.
GG_INTERNAL GrB_Type grbgpu_grb_type (gg_type t) ;

// View A's storage (finishing any pending work first, as GrB_mxm itself
// would).  Nothing is copied or changed.  GrB_Vector handles may be passed
// cast to GrB_Matrix.  Returns GrB_SUCCESS or the iterator's error.
GG_INTERNAL GrB_Info grbgpu_view (gg_view *v, GrB_Matrix A) ;

// A CSR's structure as GraphBLAS's CSR arrays (from its memory functions,
// 64-bit): *Ap (nrows+1) and *Aj (nnz, at least one), their sizes in bytes
// (writeback.c; an SDDMM's result packed on the host, or kept on the device)
GG_INTERNAL GrB_Info grbgpu_storage_csr_arrays (const gg_csr *csr, GrB_Index **Ap,
    size_t *ap_size, GrB_Index **Aj, size_t *aj_size) ;

// A buffer for a result that GraphBLAS will own, from the memory functions
// GraphBLAS was given (backend/interpose/galloc.h; free it with
// grbgpu_gb_free).  With the C library's functions, large ones are 2 MiB
// aligned and advised for huge pages, so that writing them the first time does
// not stall on a page fault every 4 KiB.
GG_INTERNAL void *grbgpu_alloc_result (size_t bytes) ;

// The result T of a product, in one of three layouts, to be written to C.
typedef struct
{
    GrB_Type ztype ;        // type of T (the semiring's)
    gg_type zt ;
    int64_t nrows, ncols ;  // dimensions of T (= C's)
    bool by_col ;           // values are column-major (T' row-major)
    // dense layout: x holds nrows*ncols values (grbgpu_alloc_result, C's
    // own array, or the scratch buffer); present rows of
    // the stored orientation given by `present` (NULL: all present)
    void *x ;
    const gg_csr *present ; // a CSR whose non-empty rows are the present
                            // stored vectors (the sparse operand)
    // sparse layout (SDDMM): the pattern `pattern` (CSR, by row) with values x
    const gg_csr *pattern ;
    // filled by grbgpu_result_prepare (zero: x came from the caller's
    // grbgpu_alloc_result)
    size_t x_size ;         // bytes allocated at x
    int8_t *b ;             // a bitmap array taken from C, or NULL (freed
                            // with grbgpu_gb_free)
    size_t b_size ;
    bool x_fresh ;          // x is new memory: absent values must be zeroed
    bool x_scratch ;        // x is the thread's scratch buffer (never freed
                            // or handed to GraphBLAS)
    bool opt_saved ;        // C's storage options, read before C was unpacked
    int opt_control ;
    double opt_hyper, opt_bitmap ;
}
gg_result ;

// What the call asked for.
typedef struct
{
    GrB_Matrix C ;          // or a GrB_Vector cast
    bool is_vector ;
    GrB_Matrix M ;          // mask or NULL
    GrB_BinaryOp accum ;
    bool replace, mask_comp, mask_struct ;
}
gg_output ;

// Room for a dense T (r->nrows x r->ncols of r->zt, r->by_col set): when the
// write will be plain (no mask, no accumulator, C of T's type and
// orientation) and C is held bitmap or full, not iso, and is none of the
// inputs, C's own arrays are unpacked and reused: their pages are already
// mapped, so the product lands in them at full speed and GraphBLAS frees
// nothing.  Otherwise a fresh buffer.  Sets r->x (NULL: out of memory).
// C's content is lost either way, as the call overwrites it.
GG_INTERNAL void grbgpu_result_prepare (const gg_output *out, gg_result *r,
    const GrB_Matrix *inputs, int ninputs) ;

// May T (dense, row-major, every entry present) stay on the device instead
// of being written into C (backend/resident/)?  Only when C's final content
// is T itself: no mask, no accumulator, C of T's type and orientation, C's
// sparsity control allows full, and C is none of the inputs.
// Before a product's result is written into C on the host: a resident C
// whose values the call does not read (no mask, no accumulator, not one of
// the inputs ins) is dropped unread, any other materialised.
GG_INTERNAL GrB_Info grbgpu_result_to_host (const gg_output *out, const GrB_Matrix *ins,
    int nins) ;
GG_INTERNAL bool grbgpu_result_can_stay (const gg_output *out,
    const gg_result *r, const GrB_Matrix *inputs, int ninputs) ;
// The same for a matrix T whose rows are full or absent (an SpMM whose
// sparse operand has rows without entries): C held as a bitmap instead
GG_INTERNAL bool grbgpu_result_can_stay_rows (const gg_output *out,
    const gg_result *r, const GrB_Matrix *inputs, int ninputs) ;

// The same for an SDDMM's T on the pattern of C's structural mask: when the
// write-back would pack it into C whole (grbgpu_storage_pattern_is_all), C is
// none of the inputs and may be held sparse; the caller checks that T has
// every mask entry (dense operands, k >= 1) and is of ztype
GG_INTERNAL bool grbgpu_result_can_stay_pattern (const gg_output *out, GrB_Type ztype,
    const GrB_Matrix *inputs, int ninputs) ;

// An SDDMM's T, on the pattern of C's structural mask M (C of ctype, T of
// ztype): is C<struct(M)> = T all of C's new content (no accumulator, C by
// row and empty or replaced, the types equal)?  (writeback.c; the write-back
// then packs T into C, and the device path may keep it there instead)
GG_INTERNAL bool grbgpu_storage_pattern_is_all (const gg_output *out, GrB_Type ctype,
    GrB_Type ztype) ;

// Free what grbgpu_result_prepare gave (the call failed before the write).
GG_INTERNAL void grbgpu_result_discard (gg_result *r) ;

// Write T into C as GrB_mxm would: C<M,replace> = accum (C, T).  Takes
// ownership of r->x (freed or handed to GraphBLAS).  Returns the GrB_Info of
// the write (the call's answer).
GG_INTERNAL GrB_Info grbgpu_write_result (const gg_output *out, gg_result *r) ;

#endif
