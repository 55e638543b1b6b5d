//------------------------------------------------------------------------------
// kernels/gg_kernels.h: the launcher contract every compute backend implements
//------------------------------------------------------------------------------

// One interface, two implementations: the host emulation backend
// (backend/host/host_backend.c, plain C) and the CUDA backend (kernels/*.cu
// behind backend/cuda/).  The dispatcher hands both the same converted
// operands.
//
// Conventions (all backends):
//  - Every product is canonical: the sparse operand is on the left, in CSR
//    with row pointers p (nrows+1) and column indices i, sorted within rows.
//    The dispatcher turns dense x sparse into this form by transposing
//    (C' = A' * B'), and folds the swap of operands into the multiply
//    (FIRST <-> SECOND), so a kernel always computes mul (s, x) with s from
//    the sparse (or left) operand and x from the dense (or right) one.
//  - Values are already cast to the semiring's type (the multiply's x, y and
//    z types, which are equal for every supported operator).  A value array
//    is NULL when the multiply never reads it (FIRST ignores x, SECOND
//    ignores s, PAIR ignores both): kernels must not touch it then.
//  - Dense operands are row-major and contiguous (leading dimension = ncols).
//  - Host pointers everywhere; a device backend copies what it needs (and may
//    keep the copy of a sparse operand in its cache entry, see `cache`).
//  - Return 0 on success, or a GG_ERR_* code; on error nothing is leaked and
//    the output is undefined (the dispatcher then asks the CPU library).

#ifndef GG_KERNELS_H
#define GG_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// The value types a kernel computes in.
typedef enum
{
    GG_BOOL = 0, GG_INT32, GG_INT64, GG_UINT32, GG_UINT64, GG_FP32, GG_FP64,
    GG_NTYPES
}
gg_type ;

// Monoids ("add").  LOR and LAND exist for BOOL only.
typedef enum
{
    GG_ADD_PLUS = 0, GG_ADD_TIMES, GG_ADD_MIN, GG_ADD_MAX, GG_ADD_ANY,
    GG_ADD_LOR, GG_ADD_LAND,
    GG_NADD
}
gg_add ;

// Multiplies.  PAIR is GraphBLAS's PAIR / ONEB: always 1.
// LOR / LAND over a non-boolean type T give (T) ((x != 0) || (y != 0)) etc.
typedef enum
{
    GG_MUL_TIMES = 0, GG_MUL_FIRST, GG_MUL_SECOND, GG_MUL_PAIR, GG_MUL_PLUS,
    GG_MUL_MIN, GG_MUL_MAX, GG_MUL_LAND, GG_MUL_LOR,
    GG_NMUL
}
gg_mul ;

typedef struct
{
    gg_add add ;
    gg_mul mul ;
    gg_type type ;      // type of x, y, z and of the monoid
}
gg_semiring ;

// Error codes.
#define GG_OK            0
#define GG_ERR_NOMEM     1   // host allocation failed
#define GG_ERR_DEVICE    2   // a CUDA or library call failed
#define GG_ERR_DEVMEM    3   // device out of memory (after eviction and retry)
#define GG_ERR_UNSUPPORTED 4 // this backend has no kernel for the case
#define GG_ERR_FAULT     5   // injected fault (GRBGPU_FAULT)

// A sparse operand in CSR.  Exactly one of (p32,i32) and (p64,i64) is set:
// 32-bit indices whenever nrows, ncols and nnz fit in int32.
typedef struct
{
    int64_t nrows, ncols, nnz ;
    const int32_t *p32, *i32 ;
    const int64_t *p64, *i64 ;
    const void *x ;         // values in the semiring type; NULL if never read
    bool iso ;              // x holds a single value shared by all entries
    int64_t max_row ;       // entries in the longest row (-1: not known);
                            // kernel choosers use it to detect skew
    bool no_empty_rows ;    // every row has an entry (false: some may not)
    const int8_t *present ; // present [r] = 1 iff row r has an entry (NULL:
    int64_t nonempty ;      // not kept), and how many rows have one
    // cache: the cache entry that owns this form, or NULL when the form was
    // built for this call only.  A device backend may attach its device copy
    // to it (see backend/cache/cache.h) so the next call with the same
    // unchanged matrix finds it on the device.
    void *cache ;
    // x_dev: x is a buffer of the backend's (the nnz values of a resident
    // matrix on a pattern, backend/resident/), not host memory; p and i are
    // host memory as always (the pattern's form, with its cache entry)
    bool x_dev ;
    // transposed: the arrays (p, i, x) hold the CSR of S' (ncols x nrows,
    // ncols+1 row pointers), not of S: the backend multiplies by their
    // transpose (built on the device, kept with S' own device form; the host
    // backend transposes on the host).  nrows, ncols and nnz are S's, and so
    // are max_row (-1 when transposed: the backend learns it), no_empty_rows,
    // present and nonempty (the rows of S, i.e. the columns of the arrays).
    // Set only for a backend whose spmm_transposed is true, with 32-bit
    // indices.
    bool transposed ;
}
gg_csr ;

// A dense operand: nrows x ncols, row-major.  x is NULL when never read.
typedef struct
{
    int64_t nrows, ncols ;
    const void *x ;
    void *cache ;           // as in gg_csr (dense operands may be cached too)
}
gg_dense ;

// Element-wise operations on dense vectors held by a backend (resident
// buffers, backend/resident/; a full matrix is its n values in storage
// order): z [i] = op (x [i], y [i]) for i < n, or op (x [i]) for the unary
// ones.  x or y NULL: the scalar xs / ys instead.
// present (host memory, or the backend's with present_dev; NULL: every i):
// only the z [i] with present [i] are written.  Exact in every backend: one IEEE operation per entry, as the C
// operators of the CPU library (kernels/vec_ops/vec_elem.h serves both).
typedef enum
{
    GG_VOP_FIRST = 0, GG_VOP_SECOND, GG_VOP_PLUS, GG_VOP_MINUS, GG_VOP_TIMES,
    GG_VOP_DIV, GG_VOP_MIN, GG_VOP_MAX,         // binary
    GG_VOP_ISEQ, GG_VOP_ISNE, GG_VOP_ISGT, GG_VOP_ISLT, GG_VOP_ISGE,
    GG_VOP_ISLE,                                // binary, 1 or 0 in the type
    GG_VOP_IDENTITY, GG_VOP_AINV, GG_VOP_ABS,   // unary (of x)
    GG_NVOP
}
gg_vop ;

typedef union { float f ; double d ; } gg_vscalar ;    // a scalar of gg_vec_args

typedef struct
{
    gg_vop op ;
    gg_type type ;          // GG_FP32 or GG_FP64 (x, y, z)
    int64_t n ;
    void *z ;
    const void *x, *y ;
    gg_vscalar xs, ys ;
    const int8_t *present ;
    bool present_dev ;      // present is in the backend's memory (a copy kept
                            // in the cache), not host memory
}
gg_vec_args ;

typedef struct gg_backend
{
    const char *name ;      // "host" or "cuda"

    // Y = S (+.*) X.  S: m x k CSR, X: k x n dense, Y: m x n row-major,
    // allocated by the caller (m*n values of the semiring type).  Rows of S
    // without entries may be left unwritten (the caller knows they are
    // absent from the result).  n == 1 is SpMV.
    int (*spmm) (const gg_semiring *sr, const gg_csr *S, const gg_dense *X,
                 void *Y) ;

    // SDDMM: for every entry p of the pattern M (m x n CSR; M's values are
    // not read), y [p] = (+) over k of mul (A (i,k), B (j,k)), where
    // A: m x k and B: n x k, both row-major (so this is A * B' on M).
    int (*sddmm) (const gg_semiring *sr, const gg_csr *M, const gg_dense *A,
                  const gg_dense *B, void *y) ;

    // GEMM: Y (m x n, row-major) = A (m x k) (+.*) B' with B: n x k.
    int (*gemm) (const gg_semiring *sr, const gg_dense *A, const gg_dense *B,
                 void *Y) ;

    // Resident results (backend/resident/; all NULL: this backend keeps
    // nothing).  A buffer of the backend's memory, its release, and its copy
    // into host memory; spmm_res is spmm where Y is such a buffer, and so is
    // X->x when x_res (else X->x is host memory).
    void *(*res_alloc) (size_t bytes) ;
    void (*res_free) (void *buf) ;
    int (*res_download) (void *host, const void *buf, size_t bytes) ;
    int (*spmm_res) (const gg_semiring *sr, const gg_csr *S, const gg_dense *X,
                     bool x_res, void *Y) ;

    // spmm takes an S with `transposed` set (gg_csr): the dispatcher then
    // hands it the CSR that op (A)'s storage gives directly (the one mxv
    // reads) instead of transposing on the host.  A backend may still answer
    // GG_ERR_UNSUPPORTED for such an S: the dispatcher then transposes on
    // the host and calls it again.
    bool spmm_transposed ;
    // Dense vector operations on resident buffers (kernels/vec_ops/; all
    // NULL: none).  res_upload copies host memory into a buffer; vec_op runs
    // gg_vec_args; vec_reduce reduces x [0..n) (n > 0) with PLUS, TIMES, MIN
    // or MAX (FP: MIN / MAX omit NaNs, as fminf / fmaxf) into *result (host),
    // over the i with present [i] only when present (a buffer of the
    // backend's, n bytes) is not NULL.
    int (*res_upload) (void *buf, const void *host, size_t bytes) ;
    int (*vec_op) (const gg_vec_args *a) ;
    int (*vec_reduce) (gg_add add, gg_type t, const void *x, int64_t n,
                       const int8_t *present, void *result) ;
    // out [k] = x [idx [k]] for k < nidx (idx and out: host memory)
    int (*vec_gather) (gg_type t, const void *x, const int64_t *idx,
                       int64_t nidx, void *out) ;
    // A resident vector on a pattern (all buffers of the backend's):
    // z [i] = pb [i] ? x [i] : 0 and zb [i] = pb [i] for i < n
    int (*vec_select) (gg_type t, int64_t n, void *z, int8_t *zb,
                       const void *x, const int8_t *pb) ;
    // gemm with Y a resident buffer (as spmm_res), and A->x / B->x such
    // buffers when a_res / b_res (else host memory); a resident operand
    // held in the other layout (a_t / b_t: A->x holds A' row-major, k x m)
    // is transposed there first; NULL: none
    int (*gemm_res) (const gg_semiring *sr, const gg_dense *A, bool a_res, bool a_t,
                     const gg_dense *B, bool b_res, bool b_t, void *Y) ;

    // A resident matrix on a pattern (backend/resident/): its P->nnz values
    // x, a buffer of the backend's, in the order of the entries of the CSR
    // pattern P (host arrays with their cache entry, as spmm's S; P->x is
    // not read).  NULL: none.
    // sddmm_res: sddmm with y such a buffer (A, B host memory)
    int (*sddmm_res) (const gg_semiring *sr, const gg_csr *M, const gg_dense *A,
                      const gg_dense *B, void *y) ;
    // csr_row_reduce: out [i] (host memory, P->nrows values of t) = the
    // monoid (PLUS, TIMES, MIN, MAX; kernels/vec_ops/vec_elem.h's combine,
    // from its identity) over the values of row i; rows without entries
    // get the identity (the caller leaves them absent)
    int (*csr_row_reduce) (gg_add add, gg_type t, const gg_csr *P, const void *x,
                           void *out) ;
    // csr_row_op: z [p] = op (d [i], x [p]) (d_first) or op (x [p], d [i])
    // for every entry p of row i (z may be x); d: host memory, P->nrows
    // values of t (binary gg_vop only)
    int (*csr_row_op) (gg_vop op, gg_type t, const gg_csr *P, void *z, const void *x,
                       const void *d, bool d_first) ;
    // vec_exp: z [i] = expf (x [i]) for i < n (FP32 only; z may be x; both
    // buffers of the backend's), bit for bit the host libm's expf, which the
    // CPU library calls (kernels/vec_ops/vec_exp.h says how)
    int (*vec_exp) (gg_type t, int64_t n, void *z, const void *x) ;
}
gg_backend ;

// The size in bytes of one value of type t.
static inline size_t gg_type_size (gg_type t)
{
    static const size_t size [GG_NTYPES] = { 1, 4, 8, 4, 8, 4, 8 } ;
    return size [t] ;
}

#ifdef __cplusplus
}
#endif
#endif
