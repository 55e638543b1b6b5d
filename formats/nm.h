//------------------------------------------------------------------------------
// formats/nm.h: N:M structured sparsity: detection, packed form, unpacking
//------------------------------------------------------------------------------

// A matrix is N:M along its reduction dimension when every group of M
// consecutive positions along that dimension holds at most N entries (a group
// with fewer is padded).  Inference Y = X * W with a pruned weight W (k x n)
// reduces along k, so the groups run down each column of W.  The products
// reach the kernels canonically as C = S * X with S in CSR (gg_kernels.h), so
// two orientations of a CSR are described:
//
//  GG_NM_ROWS  groups of M consecutive columns within each row of the CSR: the
//              CSR is S = W' (n x k), the form the dispatcher hands a kernel
//              (the sparse operand on the left, reduction along its columns).
//  GG_NM_COLS  groups of M consecutive rows within each column of the CSR: the
//              CSR is W itself (k x n), reduction along its rows, the paper's
//              (NM-SpMM) orientation.
//
// Group g covers positions [g*M, g*M + M) of the reduction dimension; groups
// are aligned, and the last one is partial when k is not a multiple of M (its
// missing positions count as empty: the kernel pads k up to groups*M).
//
// Vector-wise N:M (the paper's pruning unit of length L, here V): the V
// consecutive rows of a block (V consecutive output positions: rows of S in
// GG_NM_ROWS, columns of W in GG_NM_COLS) share one set of N positions per
// group, i.e. the union of their positions in each group has at most N
// members.  V = 1 is element-wise N:M (the 2:4 of sparse tensor cores).
//
// Supported pairs: M in {2, 4, 8, 16, 32} with M <= k, and any N with
// 1 <= N <= M/2 (sparsity 50 % or more: 1:2, 2:4, 1:4, 4:8, 3:8, 2:8, 1:8,
// ..., 16:32, 12:32, 8:32, 4:32, ...).  Detection picks the pair of lowest
// N/M (highest sparsity) the matrix satisfies, the smallest M among equal
// ratios (2:4 rather than 4:8: it is the stronger statement; a 2:4 matrix is
// also 4:8, 8:16 and 16:32, see gg_nm_fits), and then the smallest N for that
// M.  A pair is also refused when its packed form would be mostly padding:
// fill = nnz / (rows * groups * N) must reach min_fill.
//
// The packed form (GG_NM_ROWS; a GG_NM_COLS operand is transposed first):
// rows R, G = ceil (k / M) groups, B = ceil (R / V) blocks.
//   offset [(b*G + g)*N + s]   uint8, the N positions (0 .. M-1) inside group g
//                              of block b, ascending: the block's positions,
//                              then the smallest unused ones as padding (these
//                              may lie past k in the last partial group)
//   present, bit (r*G + g)*N + s  whether row r has an entry at slot s
//   x [((r*G + g)*N + s) * esz]   its value (absent slots: zero bytes)
// The kernel reads x and offset (zero-valued padding is exact for PLUS_TIMES
// on finite inputs); present is what makes unpacking exact, and what a kernel
// with another semiring (or Inf / NaN in X) must honour.
//
// Indices are 32-bit (gg_csr's p32 / i32), columns sorted within rows.  No
// GraphBLAS, no CUDA: plain arrays in and out.

#ifndef GG_NM_H
#define GG_NM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/gg_kernels.h"

#define GG_NM_MAX_M 32
#define GG_NM_NLEVELS 5         // M = 2, 4, 8, 16, 32: level l has M = 2 << l
#define GG_NM_MAX_V 4096

typedef enum
{
    GG_NM_ROWS = 0,             // groups along each CSR row (S = W')
    GG_NM_COLS = 1              // groups down each CSR column (W)
}
gg_nm_orient ;

typedef struct
{
    gg_nm_orient orient ;
    int v ;                     // rows sharing one pattern (1: element-wise)
    double min_fill ;           // refuse a pair whose fill is below this
}
gg_nm_opts ;

// element-wise, GG_NM_ROWS, min_fill 0.25
#define GG_NM_MIN_FILL_DEFAULT 0.25
void gg_nm_opts_default (gg_nm_opts *opts) ;

typedef struct
{
    bool is_nm ;
    int n, m ;                  // the pair found (0, 0 when !is_nm)
    double fill ;               // nnz / (rows * groups * n) of that pair
    // most entries in one group (union over a block of V rows) for
    // M = 2 << l; -1 where level l was not followed to the end (excluded:
    // M > k, or too sparse to fill it; or it died: some group exceeded
    // min (M/2, the most its fill allows))
    int max_count [GG_NM_NLEVELS] ;
    int64_t rows, k ;           // output positions and reduction length
    const char *reason ;        // why not, when !is_nm (a static string)
}
gg_nm_info ;

// Decide whether the CSR A (p32, i32; values not read) is N:M as described by
// opts.  Returns GG_OK (the answer in *info), GG_ERR_UNSUPPORTED (64-bit
// indices, bad options) or GG_ERR_NOMEM.  One pass over the column indices,
// abandoned at the first group that every still possible pair refuses.
int gg_nm_detect (gg_nm_info *info, const gg_csr *A, const gg_nm_opts *opts) ;

// Whether the detected matrix is also n:m (m one of the levels that were
// followed to the end, n <= m/2).
bool gg_nm_fits (const gg_nm_info *info, int n, int m) ;

typedef struct
{
    int n, m, v ;
    gg_nm_orient orient ;       // of the CSR it was packed from
    int64_t rows, k ;           // R and the reduction length
    int64_t groups, blocks ;    // G = ceil (k/m), B = ceil (R/v)
    int64_t nnz ;               // entries (present slots)
    size_t esz ;                // bytes per value (0: no values)
    bool iso ;                  // x holds one value
    uint8_t *offset ;           // B x G x n
    uint8_t *present ;          // R x G x n bits, little-endian in bytes
    void *x ;                   // R x G x n values of esz bytes (or one)
    size_t bytes ;              // offset + present + x
}
gg_nm_form ;

// Pack A (values A->x of esz bytes each, or none when A->x is NULL or
// esz == 0) as n:m with blocks of v rows, in orientation orient.  Returns
// GG_OK, GG_ERR_UNSUPPORTED (A is not n:m that way, or an unsupported pair)
// or GG_ERR_NOMEM.
int gg_nm_pack (gg_nm_form **out, const gg_csr *A, size_t esz, int n, int m,
    int v, gg_nm_orient orient) ;
void gg_nm_form_free (gg_nm_form *f) ;

// col_info, the paper's packing of the dense operand at high sparsity (above
// about 70 %): a thread block multiplies a tile of qs consecutive blocks, and
// loads from X only the rows that some block of the tile uses.  For tile t
// and group g:
//   used [t*G + g]      the positions (bits of m) any block of the tile uses,
//                       padding slots included (their X rows are read too)
//   rank [(b*G + g)*n + s]  where slot s of block b finds its X row in the
//                       packed tile: the rank of its offset among used's bits
// (the paper merges two groups into one window of 2m at high sparsity; its
// mask is the two masks side by side, ranks of the second half shifted by the
// popcount of the first.)
typedef struct
{
    int qs ;
    int64_t tiles, groups ;     // ceil (blocks / qs), G
    uint32_t *used ;            // tiles x G
    uint8_t *rank ;             // blocks x G x n
    size_t bytes ;
}
gg_nm_col_info ;

// Returns GG_OK, GG_ERR_UNSUPPORTED (qs < 1) or GG_ERR_NOMEM.
int gg_nm_col_info_build (gg_nm_col_info **out, const gg_nm_form *f, int qs) ;
void gg_nm_col_info_free (gg_nm_col_info *c) ;

// A CSR owned by its holder (what unpacking gives back).
typedef struct
{
    int64_t nrows, ncols, nnz ;
    int32_t *p, *i ;
    void *x ;                   // NULL when the form had no values
    bool iso ;
}
gg_nm_csr ;

// The CSR the form was packed from, exactly: same entries in the same order,
// values byte for byte.  Returns GG_OK or GG_ERR_NOMEM.
int gg_nm_unpack (gg_nm_csr **out, const gg_nm_form *f) ;
void gg_nm_csr_free (gg_nm_csr *c) ;

#endif
