//------------------------------------------------------------------------------
// backend/dispatch/vec_private.h: what vec_dispatch.c, vec_pattern.c and vec_accum.c share
//------------------------------------------------------------------------------

#ifndef GG_VEC_PRIVATE_H
#define GG_VEC_PRIVATE_H

#include "backend/dispatch/vec_dispatch.h"
#include "backend/cache/cache.h"

// The shape of an object of a dense operation: a full vector is n-by-1, a
// full matrix nrows*ncols values in its storage order (by_col: column by
// column; a vector's is false, as its resident buffer says)
typedef struct
{
    bool is_vector ;
    int64_t nrows, ncols ;
    bool by_col ;
}
vec_shape ;

// an operand: a resident buffer (pinned) or, obj NULL, the scalar s
typedef struct
{
    GrB_Matrix obj ;        // (a GrB_Vector cast); NULL: the scalar s
    gg_resident r ;         // when pinned
    bool pinned ;
    gg_vscalar s ;
}
vec_in ;

// the monoid of a built-in FP32 / FP64 PLUS, TIMES, MIN or MAX monoid, with
// its type; false for any other
GG_INTERNAL bool vec_monoid_add (GrB_Monoid m, gg_add *add, gg_type *t) ;
// a named decline (counted, logged)
GG_INTERNAL void vec_decline (const char *reason) ;
// the backend for a dense operation, or NULL (declined, or residency off)
GG_INTERNAL const gg_backend *vec_backend (void) ;
// A's type (A: a matrix, or a vector cast), NULL if it cannot be read
GG_INTERNAL GrB_Type vec_type (GrB_Matrix A) ;
GG_INTERNAL bool vec_vsize (GrB_Vector v, GrB_Index *n) ;
// A's shape (is_vector: A is a GrB_Vector cast); false if it cannot be read
GG_INTERNAL bool vec_shape_of (GrB_Matrix A, bool is_vector, vec_shape *s) ;
// may A be held full (its sparsity control allows it)?
GG_INTERNAL bool vec_may_be_full (GrB_Matrix A) ;
// u resident on be in the shape s (pinned; on a pattern only when
// pattern_ok), an iso full object (its scalar), or a full one on the host
// (sent up, kept, pinned); NULL or the reason to decline
GG_INTERNAL const char *vec_get_input (const gg_backend *be, GrB_Matrix u, gg_type t,
    const vec_shape *s, bool pattern_ok, vec_in *in) ;
GG_INTERNAL void vec_put_input (vec_in *in) ;
// FIRST / SECOND of a resident full vector and a pattern: the result stays
// on the device on that pattern (vec_pattern.c; for grbgpu_dense_ewise_mult)
// (op: the call's operator, vop its kind; *applies false: not this case)
GG_INTERNAL bool vec_pattern_path (const gg_backend *be, GrB_Vector w, GrB_BinaryOp op,
    gg_vop vop, gg_type t, GrB_Vector u, GrB_Vector v, GrB_Info *info, bool *applies) ;
// The cache's form code of bytes kept in a backend's memory (dispatch.c's
// CSR and dense forms are 1 and 2): what they are, the backend (the host
// emulation's "device" memory is not the GPU's), and the form they were made
// from (0: the object itself)
enum { VEC_FORM_PATTERN = 3, VEC_FORM_ROWS = 4 } ;
#define VEC_FORM(kind, be, from) ((uint64_t) (kind) \
    | ((uint64_t) ((be) == &grbgpu_host_backend) << 8) | ((uint64_t) (from) << 16))

// n bytes kept in be's memory as the device form of key's cache entry,
// made by make and sent up when not there yet (vec_pattern.c says more)
typedef const int8_t *(*vec_bytes_fn) (void *ctx, int8_t **owned) ;
GG_INTERNAL int vec_cached_bytes (const gg_backend *be, const gg_cache_key *key, int64_t n,
    vec_bytes_fn make, void *ctx, gg_cache_entry **entry, size_t *sent) ;

#endif
