//------------------------------------------------------------------------------
// backend/dispatch/vec_dispatch.h: dense vector and matrix operations on the device
//------------------------------------------------------------------------------

// The generated wrappers (backend/interpose/objver_wrappers.c) ask these
// before anything else; each returns true when it answered the call (*info
// is then the answer; the wrapper bumps versions as usual) and false when the
// CPU library must (the wrapper materialises and forwards).  Taken only with
// residency on (GRBGPU_RESIDENT) and a backend with vector operations, for
// FP32 / FP64 objects of one type, full operands (resident, or on the host
// and then uploaded and kept), no mask, no accumulator, no descriptor, an
// output whose sparsity control allows full; the result is kept on the
// device.  The grbgpu_dense_* serve vectors and matrices alike (is_vector:
// the objects are GrB_Vector's, cast): a full vector is the n-by-1 case, a
// full matrix its nrows*ncols values in storage order, and the operands and
// the output must be held in the same orientation (by row / by column).
// Anything else is declined with a named reason.

#ifndef GG_VEC_DISPATCH_H
#define GG_VEC_DISPATCH_H

#include "backend/grbgpu_internal.h"
#include "backend/resident/resident.h"
#include "backend/storage/storage.h"

GG_INTERNAL bool grbgpu_vec_assign (GrB_Vector w, const GrB_Vector mask,
    const GrB_BinaryOp accum, gg_type xt, double x, const GrB_Index *I,
    GrB_Index ni, const GrB_Descriptor desc, GrB_Info *info) ;
// C = A op B (eWiseAdd; eWiseMult of two full objects is the same)
GG_INTERNAL bool grbgpu_dense_ewise (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Matrix A,
    const GrB_Matrix B, const GrB_Descriptor desc, GrB_Info *info) ;
// eWiseMult: as grbgpu_dense_ewise, and for vectors FIRST / SECOND of a
// resident full vector and a vector of any built-in type on the host: w
// stays on the device on that vector's pattern (vec_pattern.c)
GG_INTERNAL bool grbgpu_dense_ewise_mult (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Matrix A,
    const GrB_Matrix B, const GrB_Descriptor desc, GrB_Info *info) ;
GG_INTERNAL bool grbgpu_dense_apply (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_UnaryOp op, const GrB_Matrix A,
    const GrB_Descriptor desc, GrB_Info *info) ;
// C = op (s, A) (first) or op (A, s); st: the type of the scalar argument
GG_INTERNAL bool grbgpu_dense_apply_bind (bool is_vector, GrB_Matrix C, const GrB_Matrix mask,
    const GrB_BinaryOp accum, const GrB_BinaryOp op, const GrB_Matrix A,
    gg_type st, double s, bool first, const GrB_Descriptor desc, GrB_Info *info) ;
// *c (of type ct) = reduce (u) with PLUS, TIMES, MIN or MAX (u resident, full
// or on a pattern)
GG_INTERNAL bool grbgpu_vec_reduce (void *c, gg_type ct, const GrB_BinaryOp accum,
    const GrB_Monoid monoid, const GrB_Vector u, const GrB_Descriptor desc,
    GrB_Info *info) ;
// dup of a resident A: handle is the GrB_Matrix * (GrB_Vector *) that gets
// the new object, made as the CPU library makes it (A's type, size,
// orientation and storage options)
GG_INTERNAL bool grbgpu_dense_dup (bool is_vector, void *handle, const GrB_Matrix A,
    GrB_Info *info) ;

// A matrix resident on a pattern (mat_pattern.c): C = op (A) (unary; EXP:
// is_exp), op (s, A) (s_first) or op (A, s); *applies false when A is not
// such a matrix (nothing done), else the call is answered or declined here
GG_INTERNAL bool grbgpu_pattern_apply (const gg_backend *be, GrB_Matrix C, gg_vop vop,
    bool is_exp, gg_type t, GrB_Matrix A, const gg_vscalar *s, bool s_first,
    GrB_Info *info, bool *applies) ;
// *C = diag (v) (k = 0, FP32 / FP64) made by grbgpu while results are held
// on the device (the hook of GrB_Matrix_diag; false: the CPU library's)
GG_INTERNAL bool grbgpu_pattern_diag (GrB_Matrix *C, const GrB_Vector v, int64_t k,
    GrB_Info *info) ;
// C = D*S, D diagonal on the host, S resident on a pattern (grbgpu_dispatch
// asks first; false: not this case, or declined, and the call goes on)
GG_INTERNAL bool grbgpu_pattern_mxm (const void *call, GrB_Info *info) ;
// w = reduce (A) by rows, A resident on a pattern (the hook of
// GrB_Matrix_reduce_Monoid)
GG_INTERNAL bool grbgpu_pattern_reduce (GrB_Vector w, const GrB_Vector mask,
    const GrB_BinaryOp accum, const GrB_Monoid monoid, const GrB_Matrix A,
    const GrB_Descriptor desc, GrB_Info *info) ;

// C (a full vector, or matrix, of type t on the host) uploaded to be and
// kept there.  True when C is resident on be afterwards.
GG_INTERNAL bool grbgpu_vec_adopt (const gg_backend *be, GrB_Matrix C, gg_type t,
    bool is_vector) ;

// A product's accumulation into C, a full vector of type t and length n,
// on be (r += A'*w): begin pins C's buffer (sending C up first when it is on
// the host) into *cres, or returns false (*why: a reason to decline, or
// NULL); finish computes C = accum (C, T) on the rows of S with an entry (T:
// a buffer of `bytes` from grbgpu_resident_alloc, which it takes), keeps the
// result as C's content and unpins.  Returns GG_OK or an error (C is then
// unchanged).
GG_INTERNAL bool grbgpu_vec_accum_begin (const gg_backend *be, const gg_output *out,
    gg_type t, int64_t n, gg_resident *cres, const char **why) ;
GG_INTERNAL int grbgpu_vec_accum_finish (const gg_backend *be, const gg_output *out,
    gg_resident *cres, void *T, size_t bytes, const gg_csr *S) ;

// The operator of a built-in FP32 / FP64 binary operator (FIRST, SECOND,
// PLUS, MINUS, TIMES, DIV, MIN, MAX, ISEQ, ISNE, ISGT, ISLT, ISGE, ISLE),
// with its type; false for any other.
GG_INTERNAL bool grbgpu_vec_binop (GrB_BinaryOp op, gg_vop *vop, gg_type *t) ;

#endif
