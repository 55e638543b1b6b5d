//------------------------------------------------------------------------------
// backend/host/host_vec_ops.c: dense vector operations, emulated on the host
//------------------------------------------------------------------------------

// The host emulation's gg_backend.vec_op / vec_reduce / vec_gather /
// vec_select / res_upload: the
// "device" buffers are host memory of grbgpu's own (host_backend.c), so these
// are plain loops over kernels/vec_ops/vec_elem.h, the semantics the CUDA
// kernels share.  The reduction runs in blocks of VEC_BLOCK entries, each
// from the identity, then combines the partials: a different order from the
// CPU library's, like the GPU's.

#include "backend/host/host_vec_ops.h"
#include "kernels/vec_ops/vec_elem.h"

#include <string.h>

#define VEC_BLOCK 4096

int host_res_upload (void *buf, const void *host, size_t bytes)
{
    if (bytes > 0) memcpy (buf, host, bytes) ;
    return GG_OK ;
}

#define VEC_LOOP(T, SUFFIX)                                                   \
{                                                                             \
    T *z = (T *) a->z ;                                                       \
    const T *x = (const T *) a->x, *y = (const T *) a->y ;                    \
    const T xs = (T) a->xs.SUFFIX ## _s, ys = (T) a->ys.SUFFIX ## _s ;        \
    for (int64_t i = 0 ; i < a->n ; i++)                                      \
    {                                                                         \
        if (a->present != NULL && !a->present [i]) continue ;                 \
        z [i] = gg_vec_apply_ ## SUFFIX (a->op, x ? x [i] : xs, y ? y [i] : ys) ; \
    }                                                                         \
}

#define fp32_s f
#define fp64_s d

int host_vec_op (const gg_vec_args *a)
{
    if (a->type == GG_FP32) VEC_LOOP (float, fp32)
    else if (a->type == GG_FP64) VEC_LOOP (double, fp64)
    else return GG_ERR_UNSUPPORTED ;
    return GG_OK ;
}

#define VEC_REDUCE(T, SUFFIX)                                                 \
{                                                                             \
    const T *x = (const T *) xv ;                                             \
    T total = gg_vec_identity_ ## SUFFIX (add) ;                              \
    for (int64_t b = 0 ; b < n ; b += VEC_BLOCK)                              \
    {                                                                         \
        T part = gg_vec_identity_ ## SUFFIX (add) ;                           \
        int64_t e = (b + VEC_BLOCK < n) ? b + VEC_BLOCK : n ;                 \
        for (int64_t i = b ; i < e ; i++)                                     \
        {                                                                     \
            if (present == NULL || present [i]) part = gg_vec_combine_ ## SUFFIX (add, part, x [i]) ; \
        }                                                                     \
        total = gg_vec_combine_ ## SUFFIX (add, total, part) ;                \
    }                                                                         \
    memcpy (result, &total, sizeof (T)) ;                                     \
}

int host_vec_reduce (gg_add add, gg_type t, const void *xv, int64_t n,
    const int8_t *present, void *result)
{
    if (n <= 0 || (add != GG_ADD_PLUS && add != GG_ADD_TIMES && add != GG_ADD_MIN
        && add != GG_ADD_MAX))
    {
        return GG_ERR_UNSUPPORTED ;
    }
    if (t == GG_FP32) VEC_REDUCE (float, fp32)
    else if (t == GG_FP64) VEC_REDUCE (double, fp64)
    else return GG_ERR_UNSUPPORTED ;
    return GG_OK ;
}

int host_vec_gather (gg_type t, const void *x, const int64_t *idx, int64_t nidx, void *out)
{
    const size_t zsz = gg_type_size (t) ;
    for (int64_t k = 0 ; k < nidx ; k++)
    {
        memcpy ((char *) out + k * zsz, (const char *) x + idx [k] * zsz, zsz) ;
    }
    return GG_OK ;
}

#define VEC_SELECT(T)                                                         \
{                                                                             \
    const T *x = (const T *) xv ;                                             \
    T *z = (T *) zv ;                                                         \
    for (int64_t i = 0 ; i < n ; i++) { z [i] = GG_VEC_SELECT (pb, x, i) ; zb [i] = pb [i] ; } \
}

int host_vec_select (gg_type t, int64_t n, void *zv, int8_t *zb, const void *xv,
    const int8_t *pb)
{
    if (t == GG_FP32) VEC_SELECT (float)
    else if (t == GG_FP64) VEC_SELECT (double)
    else return GG_ERR_UNSUPPORTED ;
    return GG_OK ;
}

//------------------------------------------------------------------------------
// row-wise operations on a resident matrix on a pattern
//------------------------------------------------------------------------------

// row i's entries [q0, q1) of P
#define ROW_RANGE(P, i, q0, q1) \
    int64_t q0 = (P)->p32 ? (P)->p32 [i] : (P)->p64 [i] ; \
    int64_t q1 = (P)->p32 ? (P)->p32 [(i)+1] : (P)->p64 [(i)+1] ;

#define ROW_REDUCE(T, SUFFIX)                                                 \
{                                                                             \
    const T *x = (const T *) xv ;                                             \
    T *out = (T *) outv ;                                                     \
    for (int64_t i = 0 ; i < P->nrows ; i++)                                  \
    {                                                                         \
        ROW_RANGE (P, i, q0, q1)                                              \
        T acc = gg_vec_identity_ ## SUFFIX (add) ;                            \
        int64_t at = INT64_MAX ;                                              \
        for (int64_t q = q0 ; q < q1 ; q++)                                   \
        {                                                                     \
            if (!minmax) acc = gg_vec_combine_ ## SUFFIX (add, acc, x [q]) ;  \
            else if (!gg_vec_keep_ ## SUFFIX (add, acc, at, x [q], q)) { acc = x [q] ; at = q ; } \
        }                                                                     \
        out [i] = acc ;                                                       \
    }                                                                         \
}

int host_csr_row_reduce (gg_add add, gg_type t, const gg_csr *P, const void *xv, void *outv)
{
    if (add != GG_ADD_PLUS && add != GG_ADD_TIMES && add != GG_ADD_MIN && add != GG_ADD_MAX)
    {
        return GG_ERR_UNSUPPORTED ;
    }
    // MIN / MAX: the entry the CPU library's in-order reduction keeps
    // (vec_elem.h, keep); PLUS / TIMES from the identity
    const bool minmax = (add == GG_ADD_MIN || add == GG_ADD_MAX) ;
    if (t == GG_FP32) ROW_REDUCE (float, fp32)
    else if (t == GG_FP64) ROW_REDUCE (double, fp64)
    else return GG_ERR_UNSUPPORTED ;
    return GG_OK ;
}

#define ROW_OP(T, SUFFIX)                                                     \
{                                                                             \
    const T *x = (const T *) xv, *d = (const T *) dv ;                        \
    T *z = (T *) zv ;                                                         \
    for (int64_t i = 0 ; i < P->nrows ; i++)                                  \
    {                                                                         \
        ROW_RANGE (P, i, q0, q1)                                              \
        for (int64_t q = q0 ; q < q1 ; q++)                                   \
        {                                                                     \
            z [q] = d_first ? gg_vec_apply_ ## SUFFIX (op, d [i], x [q])      \
                            : gg_vec_apply_ ## SUFFIX (op, x [q], d [i]) ;    \
        }                                                                     \
    }                                                                         \
}

int host_csr_row_op (gg_vop op, gg_type t, const gg_csr *P, void *zv, const void *xv,
    const void *dv, bool d_first)
{
    if (t == GG_FP32) ROW_OP (float, fp32)
    else if (t == GG_FP64) ROW_OP (double, fp64)
    else return GG_ERR_UNSUPPORTED ;
    return GG_OK ;
}
