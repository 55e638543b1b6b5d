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
#include "kernels/tc_spmm/tc_spmm.h"

// GRBGPU_NM=0 withdraws the row.  (The GPU run of 2026-11-25 found it wrong
// on 1:4 / 1:8 operands through GraphBLAS: S given by its transpose's arrays,
// gg_csr.transposed, was packed as if they were S's; form_nm.c now packs
// them down their columns.)

// What rows nm and nmtc (`name`) both need: S N:M and its form made (o->nm)
static const char *nm_supports_as (gg_spmm_op *o, const char *name)
{
    if (!grbgpu_settings_get ()->nm)
    {
        (void) o ;
        return "withdrawn (GRBGPU_NM=0)" ;
    }
    const char *forced = grbgpu_settings_get ()->kernel ;
    const bool is_forced = (forced [0] != '\0') ;
    if (is_forced && strcmp (forced, name) != 0) return "another kernel is forced" ;
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

const char *gg_nm_supports (gg_spmm_op *o) { return nm_supports_as (o, "nm") ; }

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

//------------------------------------------------------------------------------
// row "nmtc": the same form on tensor cores (kernels/nm_spmm/nm_spmm_tc.cu)
//------------------------------------------------------------------------------

// Vector-wise N:M only (every aligned tile of 32 rows of S uses one position
// per slot: the layout's tc32), FP32, X's column count a multiple of 4.
// Precision "exact" (the default): each operand split in two TF32 parts and
// three MMAs per product, each MMA group's sum added in FP32 (GG_TC_EXACT3;
// its error against FP64 is measured next to the CUDA-core kernel's by
// tests/test_nm_spmm and bench/nm_gpu_bench); "tf32": one TF32 product, only
// when asked.  It pads with zeros and starts sums at +0, which is exact for
// values that are finite and not subnormal (the vendor rows' check,
// spmm_values_plain), nonzero ones of magnitude in [2^-51, 2^63] (the
// split's range, gg_tc_values_range: just above 2^-126 the two-way split
// leaves more than 2^-22 of a value), but for the sign of a zero result: where every product
// is -0 the IEEE sum is -0, and a second pass over Y sets those from S's CSR
// (gg_cuda_nm_zero_signs).  So X may hold zeros, as activations after a ReLU
// do.  The form carries W's values split in two TF32 parts and the X' rows
// of every stage (op.wtc, form_nm.c), which the faster second kernel reads;
// without them (not made) the first kernel splits as it goes, with the same
// result.  Chosen only by measurement (or GRBGPU_KERNEL=nmtc).

#define NM_TC_EXACT_MODE GG_TC_EXACT3

const char *gg_nmtc_supports (gg_spmm_op *o)
{
    if (o->t != GG_FP32) return "not FP32" ;
    if (o->precision != GG_PRECISION_EXACT && o->precision != GG_PRECISION_TF32)
        return "no FP16 / BF16 kernel" ;
    const char *why = nm_supports_as (o, "nmtc") ;
    if (why != NULL) return why ;
    if (!gg_nm_spmm_tc_fits (&o->nm->op, o->n))
        return "S is not vector-wise N:M by 32 rows, or X's columns are not a multiple of 4" ;
    if ((uintptr_t) o->dX % 16 != 0 || (uintptr_t) o->dY % 8 != 0)
        return "X or Y not aligned" ;
    if (o->fs->x == NULL || o->S->x_dev) return "no values of S in its CSR form" ;
    why = spmm_values_plain (o) ;
    if (why != NULL) return why ;
    // the split's range (FP32 magnitudes in [2^-51, 2^63]; zeros pass, their
    // signs set apart as above)
    return tc_operands_check (o, true) ;
}

bool gg_nmtc_prefer (const gg_spmm_op *o)
{
    (void) o ;
    return strcmp (grbgpu_settings_get ()->kernel, "nmtc") == 0 ;
}

int gg_nmtc_run (gg_spmm_op *o)
{
    o->rowsum = false ;
    if (o->nm == NULL) return GG_ERR_UNSUPPORTED ;
    const int mode = (o->precision == GG_PRECISION_TF32) ? GG_TC_TF32 : NM_TC_EXACT_MODE ;
    const dev_csr *f = o->fs ;
    int rc = gg_cuda_nm_spmm_tc (&o->nm->op, o->n, o->dX, o->dY, mode, o->c->ctx->stream) ;
    if (rc != GG_OK) return rc ;
    return gg_cuda_nm_zero_signs (o->m, o->n, f->p, f->i, f->x, o->dX, o->dY,
        o->c->ctx->stream) ;
}
