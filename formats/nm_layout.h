//------------------------------------------------------------------------------
// formats/nm_layout.h: the packed N:M form as the N:M SpMM kernel reads it
//------------------------------------------------------------------------------

// gg_nm_layout_build turns a packed form (formats/nm.h, either orientation:
// its rows are the output columns of Y = X * W) into the layout of
// kernels/nm_spmm/nm_geom.h, on the host, in one buffer (values, then
// indices) so that one copy uploads it; the caller then points op.val and
// op.idx at the device copy (gg_nm_layout_bind).  Packing and this layout are
// host work for now.  The form must hold values (esz 4 or 8, not iso).

#ifndef GG_NM_LAYOUT_H
#define GG_NM_LAYOUT_H

#include "formats/nm.h"
#include "kernels/nm_spmm/nm_geom.h"

typedef struct
{
    gg_nm_spmm_op op ;          // geometry and shapes; val / idx: see bind
    void *buf ;                 // host: values, indices, packed positions
    size_t val_bytes, idx_bytes, cols_bytes, bytes ;
}
gg_nm_layout ;

// pack_x: the packed X tiles (col_info) where the layout allows them
// (shared indices, 75 % sparsity or more); the product must then be called
// with X k-major.  Returns GG_OK, GG_ERR_UNSUPPORTED (no values, iso, a pair
// or type the kernel lacks) or GG_ERR_NOMEM.
int gg_nm_layout_build (gg_nm_layout **out, const gg_nm_form *f, bool pack_x) ;
void gg_nm_layout_free (gg_nm_layout *L) ;

// op.val = dev, op.idx = dev + val_bytes, op.cols after it when packed
// (dev: a device copy of buf)
void gg_nm_layout_bind (gg_nm_layout *L, void *dev) ;

#endif
