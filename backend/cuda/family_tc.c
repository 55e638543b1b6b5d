//------------------------------------------------------------------------------
// backend/cuda/family_tc.c: the tensor-core hybrid SpMM as two family rows
//------------------------------------------------------------------------------

// Rows "tc3", "tc4", "tc3f" and "tc4f" of the SpMM table (backend/cuda/
// family.h): Y = S * X through the hybrid tensor-core / CUDA-core form of S
// (formats/hybrid.cu, kernels/tc_spmm/) with the window-vector threshold 3
// or 4, run as three launches (remainder, zero pass, tensor-core part) or as
// one fused launch ("f": one warp per window and 32 columns does the
// window's blocks and its remainder rows); and "tc3r", threshold 3 on S's
// rows reordered by the RSH pass (only with GRBGPU_REORDER=1: the pass runs
// on the host, up to a second, once per version of S).  The first
// measurements (bench/NOTES.md, tc_bench on an H100) found the hybrid slower
// than cuSPARSE and our CUDA-core kernels on most matrices and faster on a
// few (road networks at threshold 4: 1.36-1.41x cuSPARSE's best), so these
// rows never win the static rule: the chooser that measures (GRBGPU_TUNE)
// takes them where they are the fastest for that matrix and shape, or
// GRBGPU_KERNEL=tc3 / tc4 / tc3f / tc4f forces them (tests).
//
// Exactness.  PLUS_TIMES over FP32 (default precision "exact": every operand
// split in three TF32 parts, as accurate as FP32 CUDA-core summation;
// GRBGPU_PRECISION=tf32: one TF32 product, only when asked) and FP64 (DMMA,
// FP64 products and sums).  The tensor-core part pads blocks with zeros and
// starts its sums at +0, which an IEEE sum of the real terms alone would not
// do: 0 * Inf is NaN, and a sum of -0 terms is -0 where +0 + -0 is +0.  So
// the rows take a product only where S's values and X hold finite normal
// numbers and nothing else (no zero of either sign, no subnormal: TF32
// conversion and the tensor cores are not documented to keep those; FP32
// magnitudes in [2^-51, 2^63], where the split's smallest products stay
// normal: gg_tc_values_plain in kernels/tc_spmm/tc_spmm.h); then
// every real product is a nonzero finite number, a padding product cannot
// change a sum, and a zero result (an exact cancellation) is +0 in any order
// of summation.  The check is one pass over each operand's device copy,
// remembered in its form (once per version of a cached S).
//
// Forms: made under the CSR form's plan_lock at the first product that
// measures these rows (the build reads S's device CSR, ~1.6 ms for 16M
// entries on an H100), kept with the CSR form and freed with it; their bytes
// (from the stream-ordered pool) are counted in S's cache entry.

#include "backend/cuda/family.h"
#include "kernels/tc_spmm/tc_spmm.h"
#include "kernels/tc_sddmm/tc_sddmm.h"
#include "reorder/reorder.h"

static const int tc_thresholds [GG_TC_FORMS] = { 3, 4, 3 } ;
#define TC_REORDERED 2                  // the slot of the reordered form

// The window rule of the threshold-3 form of S (tc3 and tc3f;
// gg_tc_build_rule): a window with fewer than 32 entries in tensor-core
// vectors goes wholly to the remainder, one with at least 40 % of its
// entries in them wholly to the tensor cores.  Measured (tc_bench --rules,
// H200, R-MAT 2^18 + 18 shared matrices, bench/NOTES.md 2026-11-29 ninth
// session): FP32 exact hybrid 0.965 -> 1.155x cuSPARSE at N = 128, 1.009 ->
// 1.143x at N = 32 (the roads and arrow stop paying for blocks of one
// vector; FEM windows lose their remainder); FP64 (DMMA) 0.793 -> 0.893x at
// N = 128, 0.797 -> 0.871x at N = 32, but groebner_aug and mbeacxc lose
// (absorbed windows of long rows: many blocks of low fill), so the
// threshold-4 form (tc4) keeps the vector rule alone, for the chooser to
// measure both.  The reordered form (tc3r) takes the rule too: on the
// RSH-ordered R-MAT 2^18 / 2^20 its exact hybrid went from 0.3237 / 1.3949
// ms (vector rule) to 0.2645 / 1.1572 ms at N = 128, and on 2^20 from 0.6004
// to 0.5447 ms at N = 32 (tc_bench --reorder, H200, bench/NOTES.md
// 2026-11-29, tenth session).
#define TC_ABSORB_PCT 40
#define TC_WIN_MIN 32

static gg_tc_rule tc_rule_of (int slot)
{
    const bool rule = (slot != 1) ;
    const gg_tc_rule r = { tc_thresholds [slot], 0, rule ? TC_ABSORB_PCT : 0, rule ? TC_WIN_MIN : 0, 0 } ;
    return r ;
}

static int tc_build_form (gg_spmm_op *o, const dev_csr *f, int slot, gg_hybrid_form **h)
{
    const gg_tc_rule r = tc_rule_of (slot) ;
    return gg_tc_build_rule (o->m, o->k, o->S->nnz, f->p, f->i, f->x, o->t, &r, h,
        o->c->ctx->stream) ;
}

void tc_forms_release (dev_csr *f, cudaStream_t fs)
{
    for (int k = 0 ; k < GG_TC_FORMS ; k++)
    {
        if (f->tc [k] == NULL) continue ;
        if (fs != NULL) gg_tc_free (f->tc [k], fs) ;
        else free (f->tc [k]) ;         // (calloc'ed host struct, no device part here)
        f->tc [k] = NULL ;
    }
    if (f->tc_perm != NULL && fs != NULL) CU_LOG (cudaFreeAsync (f->tc_perm, fs)) ;
    f->tc_perm = NULL ;
    // the tensor-core SDDMM's form of this pattern (backend/cuda/dense.c)
    if (f->tcs != NULL)
    {
        if (fs != NULL) gg_tc_sddmm_free (f->tcs, fs) ;
        else { free (f->tcs->h) ; free (f->tcs) ; }     // (host structs only)
        f->tcs = NULL ;
    }
}

// The reordered form (GRBGPU_REORDER, row tc3r; issue 15): the RSH pass
// (reorder/rsh.c) on S's host pattern within REORDER_BUDGET_S, S's rows
// permuted on the host (values expanded when iso), sent up, the hybrid form
// built from them and made to write Y in S's own order (gg_tc_set_row_out:
// no extra pass over Y).  Paid once per version of S, on the first product
// that measures the row.  *h = NULL when it is not made.
#define REORDER_BUDGET_S 1.0
static int tc_build_reordered (gg_spmm_op *o, dev_csr *f, gg_hybrid_form **h)
{
    *h = NULL ;
    const gg_csr *S = o->S ;
    const int64_t m = o->m, nnz = S->nnz ;
    const size_t elem = o->elem ;
    if (S->p32 == NULL || S->i32 == NULL || S->x == NULL || nnz == 0) return GG_ERR_UNSUPPORTED ;
    int rc = GG_OK ;
    int32_t *perm = malloc ((size_t) m * sizeof (int32_t)) ;
    int32_t *bp = malloc ((size_t) (m + 1) * sizeof (int32_t)) ;
    int32_t *bi = malloc ((size_t) nnz * sizeof (int32_t)) ;
    char *bx = malloc ((size_t) nnz * elem) ;
    void *dbuf = NULL ;
    cudaStream_t st = o->c->ctx->stream ;
    if (perm == NULL || bp == NULL || bi == NULL || bx == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
    gg_reorder_options opt ;
    gg_reorder_options_default (&opt) ;
    opt.budget_s = REORDER_BUDGET_S ;
    gg_reorder_info info ;
    // (an injected fault: as a failed pass, the product goes on without it)
    rc = grbgpu_fault (GG_FAULT_REORDER) ? GG_ERR_FAULT
        : gg_reorder_rsh (S->p32, S->i32, m, o->k, &opt, perm, NULL, &info) ;
    if (rc != GG_OK) goto done ;
    gg_reorder_permute_rows (S->p32, S->i32, S->x, elem, S->iso, m, perm, bp, bi, bx) ;
    // one device buffer: perm (kept), then p, i, x (freed after the build)
    const size_t b_perm = ((size_t) m * 4 + 255) & ~(size_t) 255 ;
    const size_t b_p = ((size_t) (m + 1) * 4 + 255) & ~(size_t) 255 ;
    const size_t b_i = ((size_t) nnz * 4 + 255) & ~(size_t) 255 ;
    int32_t *dperm = NULL ;
    if (cudaMallocAsync ((void **) &dperm, b_perm, st) != cudaSuccess) { rc = GG_ERR_DEVMEM ; goto done ; }
    if (cudaMallocAsync (&dbuf, b_p + b_i + (size_t) nnz * elem, st) != cudaSuccess)
    {
        cudaFreeAsync (dperm, st) ;
        rc = GG_ERR_DEVMEM ;
        goto done ;
    }
    {
        char *base = (char *) dbuf ;
        int32_t *dp = (int32_t *) base, *di = (int32_t *) (base + b_p) ;
        void *dx = base + b_p + b_i ;
        if (cudaMemcpyAsync (dperm, perm, (size_t) m * 4, cudaMemcpyHostToDevice, st) != cudaSuccess
            || cudaMemcpyAsync (dp, bp, (size_t) (m + 1) * 4, cudaMemcpyHostToDevice, st) != cudaSuccess
            || cudaMemcpyAsync (di, bi, (size_t) nnz * 4, cudaMemcpyHostToDevice, st) != cudaSuccess
            || cudaMemcpyAsync (dx, bx, (size_t) nnz * elem, cudaMemcpyHostToDevice, st) != cudaSuccess)
            rc = GG_ERR_DEVICE ;
        const gg_tc_rule r = tc_rule_of (TC_REORDERED) ;
        if (rc == GG_OK) rc = gg_tc_build_rule (m, o->k, nnz, dp, di, dx, o->t, &r, h, st) ;
        if (rc == GG_OK && (rc = gg_tc_set_row_out (*h, dperm, st)) != GG_OK)
        {
            gg_tc_free (*h, st) ;
            *h = NULL ;
        }
    }
    if (rc == GG_OK)
    {
        f->tc_perm = dperm ;
        form_grow (S, f, b_perm) ;
        grbgpu_log (2, "cuda: rows reordered (RSH, %.3f s%s) for the tensor-core row tc3r",
            info.t_total, info.fallback ? ", budget reached: first-column order" : "") ;
    }
    else cudaFreeAsync (dperm, st) ;
done:
    if (dbuf != NULL) cudaFreeAsync (dbuf, st) ;
    if (rc != GG_OK) (void) cudaGetLastError () ;
    free (perm) ; free (bp) ; free (bi) ; free (bx) ;
    return rc ;
}

// gg_tc_values_plain in the shape of a gg_value_check (also the SDDMM's tc3
// row's, backend/cuda/dense.c)
int tc_plain_check (gg_type t, const void *x, int64_t count, int *flag, cudaStream_t s)
{
    return gg_tc_values_plain (x, count, t, (int32_t *) flag, s) ;
}

static int tc_range_check (gg_type t, const void *x, int64_t count, int *flag, cudaStream_t s)
{
    return gg_tc_values_range (x, count, t, (int32_t *) flag, s) ;
}

// NULL when S's values (its CSR form's) and X hold finite normal numbers
// only, FP32 ones in [2^-51, 2^63] (with zeros: zeros of either sign too),
// each operand checked once per version, the answer kept in its form; else
// why not: the condition of every row of this file (zeros false) and of
// nmtc's (true)
const char *tc_operands_check (gg_spmm_op *o, bool zeros)
{
    bool flagged = false ;
    dev_csr *f = o->fs ;
    const gg_value_check check = zeros ? tc_range_check : tc_plain_check ;
    const char *why_s = zeros
        ? "S holds a subnormal or non-finite value, or a nonzero FP32 one outside [2^-51, 2^63]"
        : "S holds a zero, subnormal or non-finite value, or an FP32 one outside [2^-51, 2^63]" ;
    const char *why_x = zeros
        ? "X holds a subnormal or non-finite value, or a nonzero FP32 one outside [2^-51, 2^63]"
        : "X holds a zero, subnormal or non-finite value, or an FP32 one outside [2^-51, 2^63]" ;
    if (values_flagged (o->c, check, o->t, f->x, (size_t) o->S->nnz,
        zeros ? &f->x_range : &f->x_plain, &flagged) != GG_OK)
        return "its value check failed" ;
    if (flagged) return why_s ;
    if (o->fx == NULL) return "no device copy of X" ;
    if (values_flagged (o->c, check, o->t, o->fx->x,
        (size_t) o->X->nrows * (size_t) o->X->ncols, zeros ? &o->fx->x_range : &o->fx->x_plain,
        &flagged) != GG_OK)
        return "its value check failed" ;
    if (flagged) return why_x ;
    return NULL ;
}

static const char *tc_supports (gg_spmm_op *o, int slot, const char *name)
{
    const char *forced = grbgpu_settings_get ()->kernel ;
    const bool is_forced = (forced [0] != '\0') ;
    if (is_forced && strcmp (forced, name) != 0) return "another kernel is forced" ;
    const gg_semiring *sr = o->sr ;
    if (sr->add != GG_ADD_PLUS || sr->mul != GG_MUL_TIMES
        || (o->t != GG_FP32 && o->t != GG_FP64))
        return "not plus-times over FP32 / FP64" ;
    if (o->dX == NULL || o->S->x == NULL || o->fs->x == NULL) return "no values to multiply" ;
    if (o->t == GG_FP32 && o->precision != GG_PRECISION_EXACT
        && o->precision != GG_PRECISION_TF32)
        return "no FP16 / BF16 tensor-core kernel" ;
    if (o->S->nnz >= (int64_t) INT32_MAX - 64 || o->m >= INT32_MAX || o->k >= INT32_MAX)
        return "too large for the hybrid form's 32-bit indices" ;
    if (o->t == GG_FP32 && (uint64_t) o->k * (uint64_t) o->n > UINT32_MAX)
        return "X too large for the FP32 kernels' 32-bit row offsets" ;
    dev_csr *f = o->fs ;
    // made only where it will be measured (or forced): never by the static rule
    if (!is_forced && !o->exploring && f->tc [slot] == NULL)
        return "chosen only by measurement (GRBGPU_TUNE)" ;

    const char *why = tc_operands_check (o, false) ;
    if (why != NULL) return why ;

    if (slot == TC_REORDERED && grbgpu_settings_get ()->reorder != 1 && !is_forced)
        return "the RSH pass is off (GRBGPU_REORDER is not 1)" ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->tc_tried [slot])
    {
        f->tc_tried [slot] = true ;
        gg_hybrid_form *h = NULL ;
        int rc = (slot == TC_REORDERED) ? tc_build_reordered (o, f, &h)
            : tc_build_form (o, f, slot, &h) ;
        if (rc == GG_OK)
        {
            f->tc [slot] = h ;
            form_grow (o->S, f, gg_tc_bytes (h)) ;
            gg_tc_info info ;
            if (gg_tc_form_info (h, &info) == GG_OK)
                grbgpu_log (2, "cuda: tensor-core form, threshold %d, window rule %d:%d: %.1f %% "
                    "of %lld entries in %lld blocks (fill %.2f), %.2f MB, built in %.3f ms",
                    info.threshold, info.absorb_pct, info.win_min, 100 * info.tc_share,
                    (long long) info.nnz, (long long) info.nblk, info.fill,
                    (double) info.bytes / 1e6, info.build_ms) ;
        }
        else
        {
            (void) cudaGetLastError () ;
            grbgpu_log (1, "cuda: tensor-core form (threshold %d) not made: error %d",
                tc_thresholds [slot], rc) ;
        }
    }
    const bool have = (f->tc [slot] != NULL) ;
    pthread_mutex_unlock (&f->plan_lock) ;
    return have ? NULL : "no tensor-core form (its build failed)" ;
}

bool gg_tc_prefer (const gg_spmm_op *o)
{
    // only when forced; else only by measurement
    (void) o ;
    return strncmp (grbgpu_settings_get ()->kernel, "tc", 2) == 0 ;
}

// split: the remainder, the zero pass and the tensor-core kernel (direct2);
// fused: one launch per product (kernels/tc_spmm, "fused")
static int tc_run (gg_spmm_op *o, int slot, bool fused)
{
    o->rowsum = false ;
    const int mode = (o->precision == GG_PRECISION_TF32) ? GG_TC_TF32 : GG_TC_EXACT ;
    return gg_tc_spmm_ex (o->fs->tc [slot], o->dX, o->dY, o->n, mode, fused ? "fused" : NULL,
        GG_TC_PARTS_ALL, NULL, o->c->ctx->stream) ;
}

const char *gg_tc3_supports (gg_spmm_op *o) { return tc_supports (o, 0, "tc3") ; }
const char *gg_tc4_supports (gg_spmm_op *o) { return tc_supports (o, 1, "tc4") ; }
// The fused kernel gives a window (8 rows, all its blocks, all its remainder
// entries) to one warp: on a matrix with long rows that warp is the whole
// product (R-MAT 2^18, amazon_photo: 0.1-0.25 ms against 0.02-0.05 ms for
// the split kernels, H100, bench/NOTES.md), so it is not even timed there.
#define TC_FUSED_MAX_ROW 256
static const char *tc_fused_supports (gg_spmm_op *o, int slot, const char *name)
{
    const char *why = tc_supports (o, slot, name) ;
    if (why != NULL) return why ;
    const gg_hybrid_form *h = o->fs->tc [slot] ;
    if (h->rem_max_row > TC_FUSED_MAX_ROW || (o->S->max_row > 8 * TC_FUSED_MAX_ROW))
        return "rows too long for one warp per window" ;
    return NULL ;
}

const char *gg_tc3f_supports (gg_spmm_op *o) { return tc_fused_supports (o, 0, "tc3f") ; }
const char *gg_tc4f_supports (gg_spmm_op *o) { return tc_fused_supports (o, 1, "tc4f") ; }
int gg_tc3_run (gg_spmm_op *o) { return tc_run (o, 0, false) ; }
int gg_tc4_run (gg_spmm_op *o) { return tc_run (o, 1, false) ; }
int gg_tc3f_run (gg_spmm_op *o) { return tc_run (o, 0, true) ; }
int gg_tc4f_run (gg_spmm_op *o) { return tc_run (o, 1, true) ; }
const char *gg_tc3r_supports (gg_spmm_op *o) { return tc_supports (o, TC_REORDERED, "tc3r") ; }
int gg_tc3r_run (gg_spmm_op *o) { return tc_run (o, TC_REORDERED, false) ; }
