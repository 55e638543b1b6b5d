//------------------------------------------------------------------------------
// backend/host/host_vec_ops.h: the host emulation's dense vector operations
//------------------------------------------------------------------------------

#ifndef GG_HOST_VEC_OPS_H
#define GG_HOST_VEC_OPS_H

#include "kernels/gg_kernels.h"

#define GG_HOST_HIDDEN __attribute__ ((visibility ("hidden")))

GG_HOST_HIDDEN int host_res_upload (void *buf, const void *host, size_t bytes) ;
GG_HOST_HIDDEN int host_vec_op (const gg_vec_args *a) ;
GG_HOST_HIDDEN int host_vec_reduce (gg_add add, gg_type t, const void *x, int64_t n,
    const int8_t *present, void *result) ;
GG_HOST_HIDDEN int host_vec_select (gg_type t, int64_t n, void *z, int8_t *zb,
    const void *x, const int8_t *pb) ;

GG_HOST_HIDDEN int host_vec_gather (gg_type t, const void *x, const int64_t *idx,
    int64_t nidx, void *out) ;

// row-wise operations on a resident matrix on a pattern (gg_backend)
GG_HOST_HIDDEN int host_csr_row_reduce (gg_add add, gg_type t, const gg_csr *P,
    const void *x, void *out) ;
GG_HOST_HIDDEN int host_csr_row_op (gg_vop op, gg_type t, const gg_csr *P, void *z,
    const void *x, const void *d, bool d_first) ;
// backend/host/host_exp.c: expf, by the same method as the CUDA backend's
GG_HOST_HIDDEN int host_vec_exp (gg_type t, int64_t n, void *z, const void *x) ;

#endif
