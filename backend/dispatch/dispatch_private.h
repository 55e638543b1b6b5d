//------------------------------------------------------------------------------
// backend/dispatch/dispatch_private.h: what dispatch.c and forms.c share
//------------------------------------------------------------------------------

#ifndef GG_DISPATCH_PRIVATE_H
#define GG_DISPATCH_PRIVATE_H

#include "backend/cache/cache.h"
#include "backend/dispatch/classify.h"

// The cache's form codes of a product's operands (3, 4: vec_private.h's
// VEC_FORM)
enum { FORM_CSR = 1, FORM_DENSE = 2 } ;

// The cache key of op (obj)'s form of this kind: (object, its version, the
// form with the operand's transpose, values and type)
GG_INTERNAL gg_cache_key dispatch_operand_key (int kind, const gg_operand *o, gg_type t) ;

// The CSR of op (obj), from the cache or converted now (and cached); *entry
// holds a reference.
GG_INTERNAL int dispatch_get_csr (const gg_operand *o, gg_type t, const gg_view *v,
    gg_csr *csr, gg_cache_entry **entry) ;

// Whether op (obj)'s CSR can go to the backend as the CSR its storage gives
// directly plus the flag "multiply by its transpose" (gg_csr.transposed).
GG_INTERNAL bool dispatch_transpose_on_backend (const gg_backend *be, const gg_operand *o,
    const gg_view *v) ;

// op (obj) as the direct CSR of its storage with `transposed` set (the entry
// is the direct form's); GG_ERR_UNSUPPORTED when it has 64-bit indices.
GG_INTERNAL int dispatch_get_csr_transposed (const gg_operand *o, gg_type t, const gg_view *v,
    gg_csr *csr, gg_cache_entry **entry) ;

// The dense row-major op (obj); *entry holds a reference.
GG_INTERNAL int dispatch_get_dense (const gg_operand *o, gg_type t, const gg_view *v,
    gg_dense *dense, gg_cache_entry **entry) ;

#endif
