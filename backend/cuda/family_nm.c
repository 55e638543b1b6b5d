//------------------------------------------------------------------------------
// backend/cuda/family_nm.c: dense x N:M-sparse SpMM (NM-SpMM) as a family row
//------------------------------------------------------------------------------

// Row "nm" of the SpMM table (backend/cuda/family.h): Y = S * X where S is
// exactly N:M along its columns (every group of M consecutive columns of a
// row holds at most N entries; M in 2..32, N <= M/2, formats/nm.h), through
// the packed form of S (backend/cuda/form_nm.c) and the NM-SpMM kernel
// (kernels/nm_spmm/).  This is how pruned-weight inference arrives:
// GrB_mxm (Y, X, W) with X dense and W N:M down its columns reaches the SpMM
// family as Y' = W' X' (backend/dispatch/classify.c), S = W'; and
// GrB_mxm (Y, W, X) with W N:M along its rows as Y = W X.
//
// Exactness.  PLUS_TIMES over FP32 and FP64 only.  The kernel makes one
// rounded product and one rounded sum per entry of S, in ascending column
// order, starting from -0 (the identity of IEEE addition); slots without an
// entry multiply -0 by a column of +0 kept in shared memory, never by X, so
// Inf and NaN in X reach only the sums they belong to, and -0 results stay
// -0.  Rows of S without entries come out as -0: they are absent from the
// result, whose structure the dispatcher takes from S (the backend contract,
// kernels/gg_kernels.h).  Every precision setting gets this exact result.
//
// Choice.  Not yet measured through the backend on a GPU, so no static rule:
// the row runs where the chooser that measures (GRBGPU_TUNE: a cached S and
// enough work) times it fastest, or when GRBGPU_KERNEL=nm forces it (then it
// refuses what it cannot do exactly and the other rows answer).  S is checked
// for N:M (and packed) only then, once per version of S.

#include "backend/cuda/family.h"
#include "backend/cuda/form_nm.h"
#include "kernels/nm_spmm/nm_spmm.h"

// GRBGPU_NM=0 withdraws the row.  (The GPU run of 2026-11-25 found it wrong
// on 1:4 / 1:8 operands through GraphBLAS: S given by its transpose's arrays,
// gg_csr.transposed, was packed as if they were S's; form_nm.c now packs
// them down their columns.)

const char *gg_nm_supports (gg_spmm_op *o)
{
    if (!grbgpu_settings_get ()->nm)
    {
        (void) o ;
        return "withdrawn (GRBGPU_NM=0)" ;
    }
    const char *forced = grbgpu_settings_get ()->kernel ;
    const bool is_forced = (forced [0] != '\0') ;
    if (is_forced && strcmp (forced, "nm") != 0) return "another kernel is forced" ;
    const gg_semiring *sr = o->sr ;
    if (sr->add != GG_ADD_PLUS || sr->mul != GG_MUL_TIMES
        || (o->t != GG_FP32 && o->t != GG_FP64))
        return "not plus-times over FP32 / FP64" ;
    if (o->dX == NULL || o->S->x == NULL) return "no values to multiply" ;
    if (o->k < 1 || o->m < 1 || o->n < 1) return "an empty product" ;
    // the kernel's grid: one block row per 128 (FP32) / 64 (FP64) columns of X
    const int64_t bm = (o->t == GG_FP32) ? 128 : 64 ;
    if ((o->n + bm - 1) / bm > 65535) return "too many columns in X" ;
    const struct gg_nm_dev *d = NULL ;
    const char *why = NULL ;
    (void) nm_form (o->c, o->S, o->fs, o->elem,
        is_forced || o->exploring || o->remembered >= 0, &d, &why) ;
    o->nm = d ;
    return (d != NULL) ? NULL : why ;
}

bool gg_nm_prefer (const gg_spmm_op *o)
{
    // only when forced; else only by measurement
    (void) o ;
    return strcmp (grbgpu_settings_get ()->kernel, "nm") == 0 ;
}

int gg_nm_run (gg_spmm_op *o)
{
    o->rowsum = false ;
    if (o->nm == NULL) return GG_ERR_UNSUPPORTED ;
    // fused multiply-adds where the values are plain (the vendor's check,
    // on S's and X's device forms: then the only difference from a rounded
    // product and sum is the one rounding fewer), else the unfused kernel
    const unsigned flags = (o->fx != NULL && spmm_values_plain (o) == NULL)
        ? GG_NM_SPMM_FMA : 0 ;
    // X (k x n, row-major) is the kernel's X' (k-major), Y (m x n) its Y'
    return gg_cuda_nm_spmm (&o->nm->op, o->n, o->dX, o->dY, true, flags,
        o->c->ctx->stream) ;
}
