//------------------------------------------------------------------------------
// formats/nm_layout_dev.h: the N:M SpMM layout made on the device from a CSR
//------------------------------------------------------------------------------

// The same bytes as formats/nm_layout.c's gg_nm_layout_build on the packed
// form of S with vector length 1 (gg_nm_pack (.., 1, GG_NM_ROWS)), made from
// S's CSR on the device (rows = output columns, columns sorted within rows,
// S exactly n:m along its columns: the caller has detected the pair, e.g.
// with gg_nm_detect).  Two calls: gg_nm_layout_dev_size gives the bytes of
// the result buffer (at most) and of a scratch buffer; gg_nm_layout_dev_build
// fills them on `stream`, waits once for two flags (whether the indices can be
// shared, whether the 32-column tiles share positions), and sets *op (its
// val / idx / cols pointing into buf) and *bytes (the bytes of buf used, the
// host layout's L->bytes: the buffers compare equal byte for byte).  The
// scratch may be freed after the call.  Returns GG_OK, GG_ERR_UNSUPPORTED
// (a pair or type the kernel lacks, 64-bit sizes past its indices) or
// GG_ERR_DEVICE.

#ifndef GG_NM_LAYOUT_DEV_H
#define GG_NM_LAYOUT_DEV_H

#include <cuda_runtime_api.h>
#include "kernels/nm_spmm/nm_geom.h"

#ifdef __cplusplus
extern "C" {
#endif

int gg_nm_layout_dev_size (int64_t rows, int64_t k, size_t esz, int n, int m,
    size_t *buf_bytes, size_t *scratch_bytes) ;

int gg_nm_layout_dev_build (gg_nm_spmm_op *op, size_t *bytes, void *buf,
    void *scratch, int64_t rows, int64_t k, int64_t nnz, const int32_t *p,
    const int32_t *i, const void *x, size_t esz, int n, int m, bool pack_x,
    cudaStream_t stream) ;

#ifdef __cplusplus
}
#endif

#endif
