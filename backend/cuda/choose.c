//------------------------------------------------------------------------------
// backend/cuda/choose.c: which kernel family runs a product (rules, measuring)
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

// FP32 and FP64 PLUS_TIMES: where the slot schedules run and were measured
// (the FP32 rule, fitted to FP32 and measured on FP64 in the tenth session
// of 2026-11-29: our FP64 kernels 0.946 -> 1.07x / 0.885 -> 1.206x
// cuSPARSE's best at n = 32 / 128 over R-MAT 2^18 / 2^20 and the 18 shared
// matrices; and the static rule's n >= 128 below)
bool slot_plus_times (const gg_semiring *sr)
{
    return (sr->type == GG_FP32 || sr->type == GG_FP64) && sr->add == GG_ADD_PLUS
        && sr->mul == GG_MUL_TIMES ;
}

// The own SpMM variant: GRBGPU_KERNEL, else the chooser, told the longest row
// and that the form keeps the SpMV plan (FP32 and FP64 PLUS_TIMES: the
// chooser that also takes the slot variants, measured there only).
const char *spmm_kernel_name (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    const char *k = own_kernel_name () ;
    // (hot, band, the tensor-core rows tc3 / tc4, nm and nmtc are families,
    // not variants)
    return (k != NULL && strcmp (k, "hot") != 0 && strcmp (k, "band") != 0
        && strncmp (k, "tc", 2) != 0 && strncmp (k, "nm", 2) != 0) ? k
        : slot_plus_times (sr) ? gg_cuda_spmm_choose_plan_fp32 (S->nrows, n, S->nnz, S->max_row)
        : gg_cuda_spmm_choose_plan (S->nrows, n, S->nnz, S->max_row) ;
}

// SpMM of the plus-times family: cuSPARSE, except where our kernels
// measured faster on the H200 (bench/NOTES.md), unless GRBGPU_KERNEL=cusparse
// forces the vendor library:
//  - matrices without skewed rows at 2 <= n <= 32 (road networks 2.2x at
//    n = 32);
//  - FP32 and FP64 PLUS_TIMES from n = 128, n a multiple of 4 (the slot_kK
//    schedules with the kept plan: FP32 1.17x cuSPARSE's best in geometric
//    mean at n = 128 over R-MAT 2^18 / 2^20 and the 18 shared matrices,
//    1.25x at n = 256; at n = 64 1.07x but slower on 9 of 20, so cuSPARSE
//    stays there; bench/NOTES.md, seventh session of 2026-11-29; FP64 1.206x
//    at n = 128, slower on 3 of 20, tenth session);
//  - SpMV (n = 1) where the chooser takes a row-split kernel on a small
//    matrix of enough rows (one launch of ~7 us against cuSPARSE's ~12:
//    1.13-1.83x on the 10 such real matrices of session 3; the ones left out
//    measured 0.80x with 496 rows and 0.86-1.09x from 700K entries);
//  - large power-law SpMV: the hot/cold kernel (spmv_use_hot).
// (bench/rules_bench measures the crossovers behind GG_HOT_MIN_NNZ,
// GG_OWN_SPMV_MAX_NNZ / MIN_ROWS, the n <= 32 and the skew rule on the GPU
// at hand, and prints them beside these constants.)
bool spmm_use_vendor (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    if (!use_vendor (sr) || spmv_use_hot (sr, S, n) || spmv_use_band (sr, S, n)) return false ;
    if (kernel_is_vendor () || S->max_row < 0 || S->nrows == 0) return true ;
    if (n == 1)
    {
        return !(S->nnz <= GG_OWN_SPMV_MAX_NNZ && S->nrows >= GG_OWN_SPMV_MIN_ROWS
            && strncmp (spmm_kernel_name (sr, S, 1), "row_g", 5) == 0) ;
    }
    // (slot_kK reads X in 16-byte pieces: n a multiple of 4)
    if (n >= 128 && n % 4 == 0 && slot_plus_times (sr)) return false ;
    double mean = (double) S->nnz / (double) S->nrows ;
    bool skewed = S->max_row > 64 && (double) S->max_row > 4.0 * mean ;
    return skewed || n > 32 ;
}

//------------------------------------------------------------------------------
// the chooser that measures, for every family table (SpMM, SDDMM, GEMM)
//------------------------------------------------------------------------------

// Tune only products of at least this much work (SpMM: entries x columns;
// SDDMM: entries x K; GEMM: m x n x k / 16): smaller ones take microseconds,
// where launch noise decides a race and the static rule measured well enough.
#define GG_TUNE_MIN_WORK ((double) (1 << 22))

// Whether a product of this much work is measured (GRBGPU_TUNE on, no kernel
// forced by GRBGPU_KERNEL).
bool tune_wanted (double work)
{
    const gg_settings *set = grbgpu_settings_get () ;
    return set->tune && set->kernel [0] == '\0' && work >= GG_TUNE_MIN_WORK ;
}

static bool key_same (const gg_tune_key *a, const gg_tune_key *b)
{
    return a->kind == b->kind && a->m == b->m && a->n == b->n && a->k == b->k
        && a->add == b->add && a->mul == b->mul && a->type == b->type
        && a->precision == b->precision ;
}

// The remembered winner for this key in mem (under lock), or -1.
int tuned_find (gg_tune_memory *mem, pthread_mutex_t *lock, const gg_tune_key *key)
{
    int fam = -1 ;
    pthread_mutex_lock (lock) ;
    for (int k = 0 ; k < mem->n ; k++)
    {
        if (key_same (&mem->slot [k].key, key)) { fam = mem->slot [k].family ; break ; }
    }
    pthread_mutex_unlock (lock) ;
    return fam ;
}

// Remember the winner and the times of nrows rows (the oldest entry goes
// when mem is full).
void tuned_keep (gg_tune_memory *mem, pthread_mutex_t *lock, const gg_tune_key *key,
    int fam, const float *ms, int nrows)
{
    pthread_mutex_lock (lock) ;
    int slot = -1 ;
    for (int k = 0 ; k < mem->n && slot < 0 ; k++) if (key_same (&mem->slot [k].key, key)) slot = k ;
    if (slot < 0 && mem->n < GG_TUNED) slot = mem->n++ ;
    if (slot < 0) { slot = mem->next ; mem->next = (mem->next + 1) % GG_TUNED ; }
    gg_tuned *e = &mem->slot [slot] ;
    e->key = *key ;
    e->family = fam ;
    for (int f = 0 ; f < GG_FAM_MAX ; f++) e->ms [f] = (f < nrows) ? ms [f] : -1 ;
    pthread_mutex_unlock (lock) ;
}

// Run row f warm (plans and forms made by a first run), timed with the
// events: *ms = the mean of enough runs to fill GG_TUNE_MIN_MS (one run of a
// 20 us kernel varies by a third from launch to launch: the first H100 run
// of the chooser, timing one run each, picked the slower family on a few
// small matrices), at most GG_TUNE_MAX_REPS.
#define GG_TUNE_MIN_MS 0.25
#define GG_TUNE_MAX_REPS 16
static int timed_run (gg_devcall *c, gg_row_run_fn run, void *op, int f,
    cudaEvent_t e0, cudaEvent_t e1, float *ms)
{
    int rc = GG_OK ;
    cudaStream_t s = c->ctx->stream ;
    float first = 0 ;
    *ms = -1 ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    GG_TRY (run (op, f)) ;                          // warm-up
    CU_TRY (cudaEventRecord (e0, s)) ;
    GG_TRY (run (op, f)) ;
    CU_TRY (cudaEventRecord (e1, s)) ;
    CU_TRY (cudaEventSynchronize (e1)) ;
    CU_TRY (cudaEventElapsedTime (&first, e0, e1)) ;
    int reps = (first > 0) ? (int) (GG_TUNE_MIN_MS / first) : GG_TUNE_MAX_REPS ;
    if (reps > GG_TUNE_MAX_REPS) reps = GG_TUNE_MAX_REPS ;
    *ms = first ;
    if (reps > 1)
    {
        float total = 0 ;
        CU_TRY (cudaEventRecord (e0, s)) ;
        for (int r = 0 ; r < reps ; r++) GG_TRY (run (op, f)) ;
        CU_TRY (cudaEventRecord (e1, s)) ;
        CU_TRY (cudaEventSynchronize (e1)) ;
        CU_TRY (cudaEventElapsedTime (&total, e0, e1)) ;
        *ms = total / (float) reps ;
    }
done:
    return rc ;
}

// line = "name ms, name ms, ..." over a table's rows, for the log: name0 is
// the first row's name field, the rows lie stride bytes apart
void tune_times (char *line, size_t size, int nrows, const char *const *name0,
    size_t stride, const float *ms)
{
    size_t len = 0 ;
    line [0] = '\0' ;
    for (int f = 0 ; f < nrows && len < size ; f++)
    {
        const char *name = *(const char *const *) ((const char *) name0 + (size_t) f * stride) ;
        len += (size_t) snprintf (line + len, size - len, "%s%s %.4g", f ? ", " : "",
            name, ms [f]) ;
    }
}

// Time every row of a table (nrows <= GG_FAM_MAX) whose why [f] is NULL;
// *winner = the fastest, whose result is in the op when it returns (the last
// row run is re-run if it was not the winner); ms [f] = each row's time
// (-1: not run).  A row whose run fails as unsupported is left out; any
// other failure fails the call.
int tune_rows (gg_devcall *c, int nrows, const char **why,
    gg_row_run_fn run, void *op, float *ms, int *winner)
{
    int rc = GG_OK ;
    cudaEvent_t e0 = NULL, e1 = NULL ;
    int last = -1, best = -1 ;
    CU_TRY (cudaEventCreate (&e0)) ;
    CU_TRY (cudaEventCreate (&e1)) ;
    for (int f = 0 ; f < nrows ; f++)
    {
        ms [f] = -1 ;
        if (why [f] != NULL) continue ;
        int frc = timed_run (c, run, op, f, e0, e1, &ms [f]) ;
        if (frc == GG_ERR_UNSUPPORTED) { ms [f] = -1 ; (void) cudaGetLastError () ; continue ; }
        GG_TRY (frc) ;
        last = f ;
        if (best < 0 || ms [f] < ms [best]) best = f ;
    }
    if (best < 0) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    if (last != best) GG_TRY (run (op, best)) ;
    *winner = best ;
done:
    if (e0 != NULL) cudaEventDestroy (e0) ;
    if (e1 != NULL) cudaEventDestroy (e1) ;
    return rc ;
}
