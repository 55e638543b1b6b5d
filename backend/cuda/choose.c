//------------------------------------------------------------------------------
// backend/cuda/choose.c: which kernel family runs a product
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).

#include "backend/cuda/cuda_internal.h"

//------------------------------------------------------------------------------
// which path
//------------------------------------------------------------------------------

// PLUS with TIMES / FIRST / SECOND / PAIR over FP32 / FP64: the vendor
// libraries' arithmetic on substituted values.
static bool plus_times_family (const gg_semiring *sr)
{
    return sr->add == GG_ADD_PLUS && (sr->type == GG_FP32 ||
        sr->type == GG_FP64) && (sr->mul == GG_MUL_TIMES ||
        sr->mul == GG_MUL_FIRST || sr->mul == GG_MUL_SECOND ||
        sr->mul == GG_MUL_PAIR) ;
}

// GRBGPU_KERNEL: "" = chooser, "cusparse[:algN]" = the vendor library where it
// can, any other name = that variant of grbgpu's own kernels.
bool kernel_is_vendor (void)
{
    return strncmp (grbgpu_settings_get ()->kernel, "cusparse", 8) == 0 ;
}

const char *own_kernel_name (void)
{
    const char *k = grbgpu_settings_get ()->kernel ;
    return (k [0] == '\0' || kernel_is_vendor ()) ? NULL : k ;
}

bool use_vendor (const gg_semiring *sr)
{
    return plus_times_family (sr) && own_kernel_name () == NULL ;
}

// SpMV (n == 1) through one of the kernels that stage x in shared memory,
// named form: "band" (kernels/gg_cuda.h, gg_cuda_spmv_band; taken where its
// bands hold at least GG_BAND_MIN_SHARE of the entries, band_form) or "hot"
// (gg_cuda_spmv_hot, the hot/cold form; where the band form is not made).
// Where they measured faster than cuSPARSE and our other SpMV kernels
// (bench/NOTES.md, sessions 3 and 4): 4-byte types from GG_HOT_MIN_NNZ
// entries (FP64's hot/cold, K about 20K, measured 0.94x of cuSPARSE on
// R-MAT 2^20 where FP32 gained 1.07-1.17x; the band kernel takes 4-byte
// values only).  GRBGPU_KERNEL=<form> forces it, any other forced kernel
// disables it.
static bool spmv_use_staged (const char *form, const gg_semiring *sr,
    const gg_csr *S, int64_t n)
{
    if (n != 1 || kernel_is_vendor ()) return false ;
    const char *k = own_kernel_name () ;
    if (k != NULL) return strcmp (k, form) == 0 ;
    return gg_type_size (sr->type) == 4 && S->nnz >= GG_HOT_MIN_NNZ ;
}

bool spmv_use_hot (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    return spmv_use_staged ("hot", sr, S, n) ;
}

bool spmv_use_band (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    return spmv_use_staged ("band", sr, S, n) ;
}

// The own SpMM variant: GRBGPU_KERNEL, else the chooser, told the longest row
// and that the form keeps the SpMV plan.
const char *spmm_kernel_name (const gg_csr *S, int64_t n)
{
    const char *k = own_kernel_name () ;
    // (hot, band and the tensor-core rows tc3 / tc4 are families, not variants)
    return (k != NULL && strcmp (k, "hot") != 0 && strcmp (k, "band") != 0
        && strncmp (k, "tc", 2) != 0) ? k
        : gg_cuda_spmm_choose_plan (S->nrows, n, S->nnz, S->max_row) ;
}

// SpMM of the plus-times family: cuSPARSE, except where our kernels
// measured faster on the H200 (bench/NOTES.md), unless GRBGPU_KERNEL=cusparse
// forces the vendor library:
//  - matrices without skewed rows at 2 <= n <= 32 (road networks 2.2x at
//    n = 32);
//  - SpMV (n = 1) where the chooser takes a row-split kernel on a small
//    matrix of enough rows (one launch of ~7 us against cuSPARSE's ~12:
//    1.13-1.83x on the 10 such real matrices of session 3; the ones left out
//    measured 0.80x with 496 rows and 0.86-1.09x from 700K entries);
//  - large power-law SpMV: the hot/cold kernel (spmv_use_hot).
bool spmm_use_vendor (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    if (!use_vendor (sr) || spmv_use_hot (sr, S, n) || spmv_use_band (sr, S, n)) return false ;
    if (kernel_is_vendor () || S->max_row < 0 || S->nrows == 0) return true ;
    if (n == 1)
    {
        return !(S->nnz <= GG_OWN_SPMV_MAX_NNZ && S->nrows >= GG_OWN_SPMV_MIN_ROWS
            && strncmp (spmm_kernel_name (S, 1), "row_g", 5) == 0) ;
    }
    double mean = (double) S->nnz / (double) S->nrows ;
    bool skewed = S->max_row > 64 && (double) S->max_row > 4.0 * mean ;
    return skewed || n > 32 ;
}
