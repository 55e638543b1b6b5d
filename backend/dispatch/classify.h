//------------------------------------------------------------------------------
// backend/dispatch/classify.h: a call -> a plan, or a named reason to decline
//------------------------------------------------------------------------------

#ifndef GG_CLASSIFY_H
#define GG_CLASSIFY_H

#include "backend/grbgpu_internal.h"
#include "backend/storage/storage.h"

typedef enum { GG_CALL_MXM = 0, GG_CALL_MXV, GG_CALL_VXM } gg_call_kind ;

// The call exactly as the application made it.
typedef struct
{
    gg_call_kind kind ;
    GrB_Matrix C ;          // w for mxv / vxm (a GrB_Vector cast)
    GrB_Matrix M ;          // mask (matrix or vector) or NULL
    GrB_BinaryOp accum ;
    GrB_Semiring semiring ;
    GrB_Matrix A, B ;       // mxv: A, u ; vxm: u, A (vectors cast)
    GrB_Descriptor desc ;
}
gg_call ;

typedef enum { GG_OP_SPMM = 0, GG_OP_SDDMM, GG_OP_GEMM } gg_op_kind ;

// A logical operand: obj, or its transpose.
typedef struct
{
    GrB_Matrix obj ;
    bool transpose ;
    bool values ;           // the multiply reads its values
}
gg_operand ;

// The canonical product the kernels run (kernels/gg_kernels.h):
//  SPMM:  Y (m x n) = S (m x k) * X (k x n);            T = Y, or Y' if flipped
//  SDDMM: y = (L * R') on the pattern of P;  L: m x k, R: n x k
//  GEMM:  Y (m x n) = L (m x k) * R' ;       R: n x k
typedef struct
{
    gg_op_kind op ;
    gg_semiring sr ;        // operand swap already folded in (FIRST <-> SECOND)
    GrB_Type ztype ;
    int64_t m, n, k ;
    bool flipped ;          // T = Y' (the result is held by column)
    gg_operand S, X ;       // SPMM
    gg_operand L, R, P ;    // SDDMM / GEMM (P: the mask's pattern, SDDMM only)
    gg_output out ;         // where and how T goes
    double flops ;          // 2 * multiply-adds
}
gg_plan ;

// Classify a call: returns NULL and fills plan, or returns the reason to
// decline (a string literal; plan is then left unset).  Never changes any
// object (dense-ness is read from nvals).
GG_INTERNAL const char *grbgpu_classify (const gg_call *call, gg_plan *plan) ;

// Run the call through grbgpu if it can and should
// (backend/dispatch/dispatch.c).  Returns true when it answered the call (*info
// is then the answer), false when the caller must forward the call to the CPU
// library.
GG_INTERNAL bool grbgpu_dispatch (const gg_call *call, GrB_Info *info) ;

#endif
