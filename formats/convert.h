//------------------------------------------------------------------------------
// formats/convert.h: from a view of GraphBLAS storage to the kernels' forms
//------------------------------------------------------------------------------

// A gg_view describes a matrix exactly as SuiteSparse holds it (read through
// the iterator, never copied): vdim vectors of length vlen, by row or by
// column, sparse / hypersparse / bitmap / full, iso or not, of one of the 11
// built-in real types.  The functions here build, from a view, the forms the
// kernels take (kernels/gg_kernels.h): a CSR of the matrix or of its
// transpose with 32-bit indices when they fit, or a dense row-major array,
// with values cast to the semiring's type exactly as GraphBLAS casts them.
// Formats know nothing of GraphBLAS calls or of CUDA: plain arrays in and out.

#ifndef GG_CONVERT_H
#define GG_CONVERT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/gg_kernels.h"

// The 11 built-in real types, in this order.
typedef enum
{
    GG_SRC_BOOL = 0, GG_SRC_INT8, GG_SRC_INT16, GG_SRC_INT32, GG_SRC_INT64,
    GG_SRC_UINT8, GG_SRC_UINT16, GG_SRC_UINT32, GG_SRC_UINT64, GG_SRC_FP32,
    GG_SRC_FP64, GG_NSRC
}
gg_src_type ;

typedef enum
{
    GG_STORE_SPARSE = 0, GG_STORE_HYPER, GG_STORE_BITMAP, GG_STORE_FULL
}
gg_storage ;

typedef struct
{
    gg_storage storage ;
    bool by_col ;           // vectors are columns (else rows)
    bool iso ;              // x holds one value
    int64_t vlen, vdim ;    // vector length, number of vectors
    int64_t nvec ;          // vectors present (hypersparse), else vdim
    int64_t nvals ;         // entries
    const int64_t *p, *h, *i ;
    const int8_t *b ;
    const void *x ;
    gg_src_type src ;
}
gg_view ;

// The logical operand: the viewed matrix or its transpose.
static inline int64_t gg_view_nrows (const gg_view *v, bool transpose)
{
    return (v->by_col != transpose) ? v->vlen : v->vdim ;
}
static inline int64_t gg_view_ncols (const gg_view *v, bool transpose)
{
    return (v->by_col != transpose) ? v->vdim : v->vlen ;
}

// True if every entry is present.
static inline bool gg_view_is_dense (const gg_view *v)
{
    return v->vlen > 0 && v->vdim > 0 && v->nvals == v->vlen * v->vdim ;
}

// Size of one value of a source type.
size_t gg_src_size (gg_src_type s) ;

// Cast n values from src (type s; iso: src [0] for all) to dst (type t),
// exactly as GraphBLAS typecasts (float to integer: NaN -> 0, saturating;
// to bool: x != 0; between integers: C conversion, wrapping).
void gg_cast_array (void *dst, gg_type t, const void *src, gg_src_type s,
    bool iso, int64_t n) ;

//------------------------------------------------------------------------------
// CSR form
//------------------------------------------------------------------------------

typedef struct
{
    gg_csr csr ;            // what kernels read (pointers into the arrays below)
    void *p, *i, *x ;       // owned arrays
    int8_t *present ;       // present [r] = 1 iff row r has an entry (owned)
    size_t bytes ;          // total bytes owned
    // the rows of the transpose (the columns of this CSR), made at the
    // first product that multiplies by the transpose (gg_csr_form_columns):
    // col_present [c] = 1 iff column c has an entry, col_nonempty of them
    bool col_done ;
    int8_t *col_present ;
    int64_t col_nonempty ;
}
gg_csr_form ;

// Build the CSR of op (A) = transpose ? A' : A from its view.  values: cast
// the values to type t (else csr.x = NULL).  Returns GG_OK or GG_ERR_NOMEM.
int gg_csr_from_view (gg_csr_form **out, const gg_view *v, bool transpose,
    bool values, gg_type t) ;
void gg_csr_form_free (void *form) ;

// (formats/csr_t.c) The presence of each column of f's CSR (32-bit indices
// only), once: one pass over the column indices (O(nnz), in parallel, no
// counting) and one over the columns.  The caller serialises calls on the
// same form (the cache entry's lock).  The k bytes are not counted in f->bytes
// (the cache entry's size was fixed at insertion).  GG_OK, GG_ERR_NOMEM or, for 64-bit
// indices, GG_ERR_UNSUPPORTED.
int gg_csr_form_columns (gg_csr_form *f) ;

// (formats/csr_t.c) The transpose of an m x k CSR with 32-bit indices on the
// host: *pt (k+1), *it (nnz) and, when x != NULL, *xt (nnz values of elem
// bytes), fresh (malloc), each row's columns ascending.  The unique result,
// equal to what the device transpose gives.  GG_OK or GG_ERR_NOMEM (nothing
// kept).
int gg_csr32_transpose (int64_t m, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, size_t elem, int32_t **pt, int32_t **it,
    void **xt) ;

//------------------------------------------------------------------------------
// dense form
//------------------------------------------------------------------------------

typedef struct
{
    gg_dense dense ;        // what kernels read
    void *owned ;           // NULL when dense.x points into the viewed matrix
    size_t bytes ;
}
gg_dense_form ;

// Whether the dense op (A) of this view can be read in place (zero-copy) as
// row-major values of type t.
bool gg_dense_in_place (const gg_view *v, bool transpose, gg_type t) ;

// The row-major values of op (A), a dense matrix (gg_view_is_dense), in type
// t.  Zero-copy (dense.x points into the matrix) when the storage already is
// that array.  values == false: dense.x = NULL.
int gg_dense_from_view (gg_dense_form **out, const gg_view *v, bool transpose,
    bool values, gg_type t) ;
void gg_dense_form_free (void *form) ;

#endif
