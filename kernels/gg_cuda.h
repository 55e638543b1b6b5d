//------------------------------------------------------------------------------
// kernels/gg_cuda.h: C-callable launchers of grbgpu's own CUDA kernels
//------------------------------------------------------------------------------

// These launch on device pointers and never copy to or from the host or
// synchronise: backend/device.c owns memory, copies, streams and errors.  The
// one exception to "never allocate": SpMM's merge variant takes a small
// stream-ordered scratch (about 12 bytes per 2048 nonzeros and column) from
// the kernels' own memory pool and frees it in stream order (GG_ERR_DEVMEM if
// that fails).
// Semantics are those of kernels/gg_kernels.h (canonical sparse-on-the-left
// products, values already in the semiring type, NULL value arrays never
// read, row-major dense operands).  Indices are 32-bit.
//
// Every launcher returns 0 (launched) or a GG_ERR_* code (nothing launched:
// GG_ERR_UNSUPPORTED for a case it has no kernel for, GG_ERR_DEVICE for a
// launch error as reported by cudaGetLastError).

#ifndef GG_CUDA_H
#define GG_CUDA_H

#include <cuda_runtime_api.h>
#include "kernels/gg_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

// Y (m x n) = S (m x k, CSR p/i/x) (+.*) X (k x n).  Rows of S without entries
// are left unwritten.  x == NULL: S's values are never read; iso: x [0] is the
// value of every entry.  X == NULL: X's values are never read.
// kernel: NULL or "" = the chooser's pick; else a variant name (for tests and
// benchmarks; unknown names return GG_ERR_UNSUPPORTED).
int gg_cuda_spmm (const gg_semiring *sr, int64_t m, int64_t k, int64_t n,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *X, void *Y, const char *kernel, cudaStream_t stream) ;

// y [q] for every entry q of M (m x n CSR pattern p/i, nnz entries):
// (+) over t < k of mul (A (i,t), B (j,t)); A: m x k, B: n x k row-major.
int gg_cuda_sddmm (const gg_semiring *sr, int64_t m, int64_t n, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *A,
    const void *B, void *y, const char *kernel, cudaStream_t stream) ;

// Y (m x n, row-major) = A (m x k) (+.*) B' with B: n x k row-major.
int gg_cuda_gemm (const gg_semiring *sr, int64_t m, int64_t n, int64_t k,
    const void *A, const void *B, void *Y, cudaStream_t stream) ;

// w (k) = A' (+.*) u from A's own CSR (m x k, p/i/x), one monoid atomic per
// entry ("push"; kernels/spmv_push.cu).  w is filled with the monoid's
// identity first, so a column of A without entries reads as the identity.
// Measured against the pull on a transposed CSR in bench/spmm_bench (vxm).
int gg_cuda_spmv_push (const gg_semiring *sr, int64_t m, int64_t k,
    int64_t nnz, const int32_t *p, const int32_t *i, const void *x, bool iso,
    const void *u, void *w, cudaStream_t stream) ;

// The names of the SpMM variants, NULL-terminated (for tests and benchmarks).
const char *const *gg_cuda_spmm_variants (void) ;

// The SpMM variant the chooser picks for S (m rows, nnz entries, longest row
// max_row entries; max_row < 0: unknown) times n dense columns.  kernel ==
// NULL in gg_cuda_spmm calls this with max_row = -1, which cannot see skew:
// a caller that knows the longest row (it is cheap to keep with a converted
// CSR) should pass this function's answer as `kernel`.
const char *gg_cuda_spmm_choose (int64_t m, int64_t n, int64_t nnz,
    int64_t max_row) ;

#ifdef __cplusplus
}
#endif
#endif
