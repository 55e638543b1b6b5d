//------------------------------------------------------------------------------
// backend/storage/view.c: operands read in place (iterator attach), O(1)
//------------------------------------------------------------------------------

// GxB_Matrix_Iterator_attach finishes pending work and exposes the internal
// arrays (p, h, b, i, x), sparsity, iso and orientation in O(1), without
// changing the matrix.  Inputs are never unpacked.  Also here: the mapping
// between GraphBLAS's built-in types and the kernels' type codes.

#include "config.h"
#include "backend/storage/storage.h"

#include <string.h>

//------------------------------------------------------------------------------
// types
//------------------------------------------------------------------------------

int grbgpu_src_code (GrB_Type type)
{
    if (type == NULL) return -1 ;
    const GrB_Type builtin [GG_NSRC] =
    {
        GrB_BOOL, GrB_INT8, GrB_INT16, GrB_INT32, GrB_INT64, GrB_UINT8,
        GrB_UINT16, GrB_UINT32, GrB_UINT64, GrB_FP32, GrB_FP64
    } ;
    for (int k = 0 ; k < GG_NSRC ; k++) if (type == builtin [k]) return k ;
    return -1 ;
}

GrB_Type grbgpu_grb_type (gg_type t)
{
    switch (t)
    {
        case GG_BOOL:   return GrB_BOOL ;
        case GG_INT32:  return GrB_INT32 ;
        case GG_INT64:  return GrB_INT64 ;
        case GG_UINT32: return GrB_UINT32 ;
        case GG_UINT64: return GrB_UINT64 ;
        case GG_FP32:   return GrB_FP32 ;
        case GG_FP64:   return GrB_FP64 ;
        default:        return NULL ;
    }
}

//------------------------------------------------------------------------------
// grbgpu_view
//------------------------------------------------------------------------------

GrB_Info grbgpu_view (gg_view *v, GrB_Matrix A)
{
    memset (v, 0, sizeof (gg_view)) ;
    GrB_Type type ;
    GrB_Info info = GxB_Matrix_type (&type, A) ;
    if (info != GrB_SUCCESS) return info ;
    int src = grbgpu_src_code (type) ;
    if (src < 0) return GrB_NOT_IMPLEMENTED ;
    GxB_Iterator it = NULL ;
    info = GxB_Iterator_new (&it) ;
    if (info != GrB_SUCCESS) return info ;
    info = GxB_Matrix_Iterator_attach (it, A, NULL) ;   // finishes pending work
    if (info == GrB_SUCCESS)
    {
        GrB_Index nvals ;
        info = GrB_Matrix_nvals (&nvals, A) ;
        v->nvals = (int64_t) nvals ;
    }
    if (info == GrB_SUCCESS)
    {
        switch (it->A_sparsity)
        {
            case GxB_HYPERSPARSE: v->storage = GG_STORE_HYPER ; break ;
            case GxB_SPARSE:      v->storage = GG_STORE_SPARSE ; break ;
            case GxB_BITMAP:      v->storage = GG_STORE_BITMAP ; break ;
            case GxB_FULL:        v->storage = GG_STORE_FULL ; break ;
            default:              info = GrB_NOT_IMPLEMENTED ; break ;
        }
        v->by_col = it->by_col ;
        v->iso = it->iso ;
        v->vlen = it->avlen ;
        v->vdim = it->avdim ;
        v->nvec = it->anvec ;
        v->p = it->Ap ;
        v->h = it->Ah ;
        v->i = it->Ai ;
        v->b = it->Ab ;
        v->x = it->Ax ;
        v->src = (gg_src_type) src ;
    }
    GxB_Iterator_free (&it) ;
    return info ;
}
