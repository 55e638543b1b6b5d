//------------------------------------------------------------------------------
// kernels/nm_spmm/nm_geom.h: the device layout the N:M SpMM kernel reads
//------------------------------------------------------------------------------

// Plain C (no CUDA): formats/nm_layout.c builds this layout on the host from
// a packed N:M form (formats/nm.h), the kernel (nm_spmm.cu) reads it.
//
// Y (B x n) = X (B x k) * W (k x n), W N:M along k.  Output column c of Y is
// row c of the packed form (S = W').  Slots u = g*N + s (group g, slot s),
// G groups padded to a whole number of stages; a stage covers ks = gs*M
// positions of k (gs groups) and ws = gs*N slots.
//   val [u * n_pad + c]        the value of slot u of column c (T = float or
//                              double); -0 where column c has no entry there
//   idx [u * (n_pad/ib) + c/ib]  uint8: the slot's position inside its stage
//                              window, (g % gs)*M + offset, or ks (a column of
//                              zeros the kernel keeps) where the slot has no
//                              entry; ib = tn (one index for a thread's tn
//                              columns: "shared", possible where all tn
//                              columns agree on every slot) or 1
// packed (NM-SpMM's col_info, for sparsity of 75 % and more with the shared
// layout, ks = 64; X given k-major only): a block of bn columns loads only
// the positions of the stage that some slot of its columns uses:
//   cols [(t * stages + st) * ks + r]  the position (0 .. ks-1) in stage st
//                              of row r of tile t's packed X tile, ascending,
//                              0xff past the last one
// and idx holds the row r instead of the position (ks still the zeros).
// Absent slots thus add (+0) * (-0) = -0, and sums start from -0, the
// identity of IEEE addition: the result is exactly the sum, in ascending k,
// of the entries' products (signed zeros, Inf and NaN included).

#ifndef GG_NM_GEOM_H
#define GG_NM_GEOM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GG_NM_SPMM_MAX_WS 16

typedef struct
{
    int n, m ;                  // the N:M pair
    int ks, gs, ws ;            // per stage: positions, groups, slots
    int bn, tn ;                // columns per block and per thread
}
gg_nm_spmm_geom ;

// The geometry for values of esz bytes (4 or 8) and the pair n:m (m a power
// of two, 2 <= m <= 32, 1 <= n <= m/2).  Returns false if unsupported.
static inline bool gg_nm_spmm_geometry (gg_nm_spmm_geom *g, size_t esz,
    int n, int m)
{
    if ((esz != 4 && esz != 8) || m < 2 || m > 32 || (m & (m - 1)) != 0
        || n < 1 || 2 * n > m)
    {
        return false ;
    }
    g->n = n ;
    g->m = m ;
    // a longer stage at 75 % sparsity and above (more work per X tile)
    g->ks = (4 * n <= m) ? 64 : 32 ;
    g->gs = g->ks / m ;
    g->ws = g->gs * n ;         // <= ks/2 <= 16 (ks = 32), <= 16 (ks = 64)
    g->bn = (esz == 4) ? 128 : 64 ;
    g->tn = (esz == 4) ? 8 : 4 ;
    return g->ws <= GG_NM_SPMM_MAX_WS ;
}

// The operand as the kernel reads it (val and idx on the device).
typedef struct
{
    gg_nm_spmm_geom geom ;
    size_t esz ;
    int64_t ncols ;             // n: columns of W and Y
    int64_t k ;                 // reduction length
    int64_t n_pad ;             // ncols rounded up to geom.bn
    int64_t stages ;            // ceil (groups / gs)
    bool shared ;               // ib = tn (else 1)
    bool packed ;               // X tiles packed (col_info): see below
    bool tc32 ;                 // FP32, and each aligned tile of 32 columns
                                // has one position per slot where its
                                // columns have one (nm_spmm_tc.cu)
    const void *val ;           // stages*ws x n_pad values
    const uint8_t *idx ;        // stages*ws x n_pad/ib
    const uint8_t *cols ;       // packed: (n_pad/bn) x stages x ks, or NULL
    const void *wtc ;           // tc32: the values split in two TF32 parts in
                                // the MMA's fragment order (nm_spmm_tc.cu,
                                // gg_cuda_nm_spmm_tc_prep), or NULL
}
gg_nm_spmm_op ;

#endif
