//------------------------------------------------------------------------------
// backend/dispatch/semiring.h: the semirings the kernels run (classify.c's)
//------------------------------------------------------------------------------

#ifndef GG_SEMIRING_H
#define GG_SEMIRING_H

#include "backend/grbgpu_internal.h"

// Build the operator tables and find the library's own segments, once; cheap
// (one load) after the first call.  Call it before the functions below.
GG_INTERNAL void grbgpu_semiring_init (void) ;

// The kernels' semiring (*sr) for a GraphBLAS semiring, or the reason it is
// declined (a string literal; *sr is then unset).  The verdicts of the
// library's built-in semirings are remembered.
GG_INTERNAL const char *grbgpu_semiring_check (GrB_Semiring semiring,
    gg_semiring *sr) ;

// The GraphBLAS type of a kernel type (grbgpu_grb_type, looked up once).
GG_INTERNAL GrB_Type grbgpu_semiring_ztype (gg_type t) ;

// Does object lie in the GraphBLAS library itself (a built-in object: never
// changed, never freed)?
GG_INTERNAL bool grbgpu_in_library (const void *object) ;

#endif
