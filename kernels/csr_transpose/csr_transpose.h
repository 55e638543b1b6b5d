//------------------------------------------------------------------------------
// kernels/csr_transpose/csr_transpose.h: the transpose of a CSR, on the device
//------------------------------------------------------------------------------

// S' in CSR from S in CSR, both in device memory: what GrB_vxm's pull SpMV
// reads (w' = u' A is computed as w = A' u; kernels/gg_kernels.h) when A is
// held by row, built where A already is instead of on the host.
//
// S is m x k with 32-bit row pointers p (m+1) and column indices i (nnz),
// sorted within each row (the CSR every kernel takes).  The result T = S' is
// k x m: row pointers p_t (k+1), column indices i_t (nnz), values x_t, with
// the column indices of each row of T strictly ascending: entry (r, c) of S
// becomes entry (c, r) of T, and the entries of column c of S keep their row
// order.  The result is unique, hence bit-identical to any host transpose
// (formats/convert.c's included) whatever the method.
//
// Methods (measured by bench/transpose_bench):
//  "sort" (the default): a stable LSD radix sort of (column, payload) pairs
//      on the ceil(log2 k) bits a column needs, the payload being the row
//      (and the value, packed beside it) of each entry; p_t from the sorted
//      columns by binary search.  Deterministic, no atomics.
//  "scatter": column counts by atomics, an exclusive scan (p_t), a scatter of
//      (row, value) to each column's next slot (atomics: the order within a
//      column is arbitrary), then a segmented sort of each row of T by
//      column index, which restores the unique order.
//
// Both launch on `stream` only: no allocation, no synchronisation, no copy
// to or from the host.  The caller owns every buffer, including a scratch
// of gg_cuda_csr_transpose_scratch_bytes bytes.  The inputs must be complete
// in `stream`'s order, and nothing may touch the outputs from elsewhere until
// T is read: an upload or a fill queued on another stream (the legacy
// default stream too, as a plain cudaMemcpy or cudaMemset is, when `stream`
// was created cudaStreamNonBlocking) needs an event or a synchronisation
// first.

#ifndef GG_CSR_TRANSPOSE_H
#define GG_CSR_TRANSPOSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>
#include "kernels/gg_kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

// Scratch (device bytes) that gg_cuda_csr_transpose needs for these sizes:
//  m, k, nnz   S's rows, columns and entries (each < 2^31)
//  elem        bytes of one value (1, 2, 4 or 8), or 0 when no values move
//              (x == NULL or iso in the call)
//  method      NULL or "" (the default, "sort"), "sort" or "scatter"
// Returns 0 for sizes or a method the launcher refuses.  About, per entry:
// "sort" 16 bytes (pattern), 32 (elem <= 4), 44 (elem 8); "scatter" 8 +
// 2 elem, plus 4 bytes per column; plus CUB's fixed part (some KB).
// It launches nothing and reads no device memory.
size_t gg_cuda_csr_transpose_scratch_bytes (int64_t m, int64_t k,
    int64_t nnz, int elem, const char *method) ;

// T = S' on the device.
//  m, k, nnz   S is m x k with nnz entries; 0 <= m, k, nnz < 2^31
//  p           device, m+1 int32: S's row pointers (p [0] = 0, p [m] = nnz)
//  i           device, nnz int32: S's column indices, in [0, k), ascending
//              within each row
//  x           device: S's values (nnz of elem bytes; iso: 1), or NULL when
//              none are kept (a pattern-only form)
//  elem        bytes of one value: 1, 2, 4 or 8 (ignored when x == NULL)
//  iso         x holds one value shared by every entry: x_t [0] = x [0]
//              (copied once, not broadcast: x_t holds that one value) and
//              nothing else moves (a copy of elem bytes on the device, done
//              whatever nnz, also when nnz = 0); iso with x == NULL: nothing
//  p_t         device, k+1 int32: T's row pointers (written; nnz = 0: all
//              zero)
//  i_t         device, nnz int32: T's column indices = S's row of each
//              entry, ascending within each row of T (written; not touched,
//              may be NULL, when nnz = 0; p and i are then not read either)
//  x_t         device: nnz values of elem bytes (1 if iso) in T's order, or
//              NULL exactly when x == NULL (written).  Also when nnz = 0
//              without iso: x and x_t are both set (neither is read nor
//              written then) or both NULL, as for any nnz
//  scratch     device, at least scratch_bytes = the query above with the
//              same m, k, nnz, method and elem (0 if x == NULL or iso);
//              256-byte aligned (cudaMalloc's); contents are garbage after
//  stream      every kernel, copy and CUB call is queued here; nothing
//              synchronises, so the caller may read T after the stream
//              (an event recorded on it) has passed
//  method      as in the query
// Returns GG_OK (all queued), GG_ERR_UNSUPPORTED (sizes out of range, an
// elem not in 1/2/4/8, an unknown method, scratch too small, x_t and x
// not both NULL or both set, or p_t NULL, or p, i or i_t NULL with nnz > 0;
// nothing is queued then), or GG_ERR_DEVICE (a CUB call or a launch
// failed, as cudaGetLastError reports it; T is then undefined).  Inputs
// are only read; the outputs must not overlap the inputs or the scratch.
int gg_cuda_csr_transpose (int64_t m, int64_t k, int64_t nnz,
    const int32_t *p, const int32_t *i, const void *x, int elem, bool iso,
    int32_t *p_t, int32_t *i_t, void *x_t,
    void *scratch, size_t scratch_bytes, const char *method,
    cudaStream_t stream) ;

// What gg_csr (kernels/gg_kernels.h) keeps about the rows of a CSR, from its
// row pointers on the device (for T: the columns of S), so that the host
// gets them with one small copy instead of a pass over the entries:
//  n           rows (k for T)
//  p           device, n+1 int32 row pointers
//  present     device, n int8: present [r] = 1 iff row r has an entry, or
//              NULL (not written)
//  stats       device, 2 int64 (16 bytes, 8-byte aligned): stats [0] = the
//              entries of the longest row (gg_csr.max_row), stats [1] = the
//              rows with an entry (gg_csr.nonempty; no_empty_rows is
//              stats [1] == n)
//  stream      as above (a memset and one kernel; no synchronisation)
// Returns GG_OK, GG_ERR_UNSUPPORTED (n out of range, stats NULL, or p NULL
// with n > 0) or GG_ERR_DEVICE.
int gg_cuda_csr_row_stats (int64_t n, const int32_t *p, int8_t *present,
    int64_t *stats, cudaStream_t stream) ;

#ifdef __cplusplus
}
#endif
#endif
