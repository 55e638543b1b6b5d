//------------------------------------------------------------------------------
// backend/cuda/family_rows.c: grbgpu's CUDA-core SpMM on S's rows ordered by length
//------------------------------------------------------------------------------

// Row "lenr" of the SpMM table (backend/cuda/family.h): Y = S (+.*) X by the
// row and nnz schedules of kernels/spmm on S's rows sorted by length
// (gg_cuda_rows_by_length: made on the device, once per version of S, kept
// with S's CSR form and counted in its cache entry), each row stored to its
// place in Y (gg_cuda_spmm_rows), so Y needs no pass to put rows back.
// Every semiring and type the own kernels take.  Measured (bench/NOTES.md,
// 2026-11-28, H200, the kernel alone, the form made on the device): 1.35x /
// 1.75x / 1.42x the same kernel on S at N = 32 on R-MAT 2^18 / 2^20 / 2^22,
// 1.17x / 1.12x at N = 128 on 2^18 / 2^20; 0.84-1.03x on the shared graphs;
// the form built in 0.34 / 0.67 / 1.86 ms.  So it is never the static
// choice: the chooser that measures times it (GRBGPU_REORDER=auto, the
// default, or 1) and takes it where it wins; GRBGPU_REORDER=0 never offers
// it; GRBGPU_KERNEL=lenr forces it (tests).  A form that lost stays with S's
// CSR form, as the tensor-core forms do (its bytes are counted there).

#include "backend/cuda/family.h"

void rows_form_release (dev_csr *f, cudaStream_t fs)
{
    if (f->lenr == NULL) return ;
    if (fs != NULL) gg_cuda_rows_form_free (f->lenr, fs) ;
    free (f->lenr) ;
    f->lenr = NULL ;
}

const char *gg_lenr_supports (gg_spmm_op *o)
{
    const char *forced = grbgpu_settings_get ()->kernel ;
    const bool is_forced = (forced [0] != '\0') ;
    if (is_forced && strcmp (forced, "lenr") != 0) return "another kernel is forced" ;
    if (!is_forced && grbgpu_settings_get ()->reorder == 0)
        return "row reordering is off (GRBGPU_REORDER=0)" ;
    dev_csr *f = o->fs ;
    // made only where it will be measured (or forced): never by the static rule
    if (!is_forced && !o->exploring && f->lenr == NULL) return "chosen only by measurement (GRBGPU_TUNE)" ;
    if (o->S->nnz >= (int64_t) INT32_MAX || o->m >= INT32_MAX || o->m == 0)
        return "too large for 32-bit rows, or no rows" ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->lenr_tried)
    {
        f->lenr_tried = true ;
        gg_rows_form *F = calloc (1, sizeof (gg_rows_form)) ;
        // (an injected fault: as a failed build, the product goes on without it)
        int rc = (F == NULL) ? GG_ERR_NOMEM
            : grbgpu_fault (GG_FAULT_REORDER) ? GG_ERR_FAULT
            : gg_cuda_rows_by_length (o->m, o->S->nnz, f->p, f->i, f->x,
                (f->x == NULL) ? 0 : gg_type_size (f->xtype), F, o->c->ctx->stream) ;
        // other threads' streams read the form as soon as it is published
        if (rc == GG_OK && cudaStreamSynchronize (o->c->ctx->stream) != cudaSuccess)
        {
            gg_cuda_rows_form_free (F, o->c->ctx->stream) ;
            rc = GG_ERR_DEVICE ;
        }
        if (rc == GG_OK)
        {
            f->lenr = F ;
            form_grow (o->S, f, F->bytes) ;
            grbgpu_log (2, "cuda: rows ordered by length for row lenr: %lld rows, %.2f MB",
                (long long) o->m, (double) F->bytes / 1e6) ;
        }
        else
        {
            (void) cudaGetLastError () ;
            free (F) ;
            grbgpu_log (1, "cuda: rows ordered by length not made: error %d", rc) ;
        }
    }
    const bool have = (f->lenr != NULL) ;
    // (made from this CSR form's values, if it has any, in their type: the
    // form was chosen for this product, so they are the product's)
    const bool same_values = have && ((f->lenr->x != NULL) == (f->x != NULL)) ;
    pthread_mutex_unlock (&f->plan_lock) ;
    if (!have) return "no form of rows by length (its build failed)" ;
    return same_values ? NULL : "the form of rows by length has other values" ;
}

bool gg_lenr_prefer (const gg_spmm_op *o)
{
    (void) o ;
    return strcmp (grbgpu_settings_get ()->kernel, "lenr") == 0 ;
}

int gg_lenr_run (gg_spmm_op *o)
{
    o->rowsum = false ;
    const gg_rows_form *F = o->fs->lenr ;
    // the own chooser's pick with S's longest row (the lengths are S's) and
    // the form's plan: for FP32 and FP64 PLUS_TIMES the FP32 rule's
    // (slot_kK, whose stores go through perm as the row and nnz schedules' do)
    const int64_t m = o->m, n = o->n, nnz = o->S->nnz, mr = o->S->max_row ;
    const char *k = slot_plus_times (o->sr) ? gg_cuda_spmm_choose_rows_plan_fp32 (m, n, nnz, mr)
        : gg_cuda_spmm_choose_rows (m, n, nnz, mr) ;
    return gg_cuda_spmm_plan_rows (o->sr, m, o->k, n, nnz, F->p, F->i, F->x, false,
        o->dX, o->dY, F->plan, mr, F->perm, k, o->c->ctx->stream) ;
}
