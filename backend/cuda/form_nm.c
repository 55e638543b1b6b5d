//------------------------------------------------------------------------------
// backend/cuda/form_nm.c: the N:M form of a CSR form, made once per CSR form
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what); the "nm" SpMM row (family_nm.c) multiplies through it.
//
// At the first product that asks (the row is forced, or the chooser that
// measures times it), S's host CSR is checked for N:M along its columns, the
// reduction dimension of Y = S * X (S = W' for GrB_mxm (Y, X, W), which the
// dispatcher turns into Y' = W' X'): formats/nm.c, element-wise (V = 1),
// one pass over the column indices with early exit, the pair of highest
// sparsity the matrix satisfies with a fill of at least 1/4.  When it is,
// it is packed (formats/nm_pack.c), laid out for the kernel
// (formats/nm_layout.c, with the X tiles packed at 75 % sparsity and above:
// the row gives X k-major) and uploaded in one buffer.  The answer (the form,
// or the reason there is none) is kept in the CSR form under its plan_lock,
// so S is checked once per version of a cached S; its bytes (at most about
// four times S's values plus padding to whole tiles) are counted in S's
// cache entry, and it is freed with the CSR form (forms.c).  Host work:
// O(entries) plus the layout's size.

#include "backend/cuda/form_nm.h"
#include "formats/nm.h"
#include "formats/nm_layout.h"
#include "formats/nm_layout_dev.h"
#include "kernels/nm_spmm/nm_spmm.h"

void nm_form_release (dev_csr *f, cudaStream_t fs)
{
    struct gg_nm_dev *d = f->nm ;
    if (d == NULL) return ;
    if (fs != NULL && d->buf != NULL) CU_LOG (cudaFreeAsync (d->buf, fs)) ;
    if (fs != NULL && d->tcbuf != NULL) CU_LOG (cudaFreeAsync (d->tcbuf, fs)) ;
    free (d) ;
    f->nm = NULL ;
}

// S as the N:M code reads it.  S may come by its transpose's arrays
// (S->transposed: the CSR of S' = W, k x m, which is how GrB_mxm (Y, X, W)
// with W held by row arrives): then the groups run down the columns of those
// arrays (GG_NM_COLS), and the packer transposes them into S's rows.
static void nm_view (const gg_csr *S, gg_csr *V, gg_nm_orient *orient)
{
    *V = *S ;
    *orient = GG_NM_ROWS ;
    if (S->transposed)
    {
        V->nrows = S->ncols ;
        V->ncols = S->nrows ;
        V->transposed = false ;
        V->max_row = -1 ;
        V->present = NULL ;
        V->nonempty = -1 ;
        V->no_empty_rows = false ;
        *orient = GG_NM_COLS ;
    }
}

// Whether S is N:M along its columns (info), or a reason it is not (*why).
static int nm_detect_of (const gg_csr *S, gg_nm_info *info, const char **why)
{
    if (S->p32 == NULL || S->i32 == NULL) { *why = "S has 64-bit indices" ; return GG_OK ; }
    gg_csr V ;
    gg_nm_opts opts ;
    gg_nm_opts_default (&opts) ;
    nm_view (S, &V, &opts.orient) ;
    int rc = gg_nm_detect (info, &V, &opts) ;
    if (rc == GG_ERR_UNSUPPORTED) { *why = "S has 64-bit indices" ; return GG_OK ; }
    if (rc == GG_OK && !info->is_nm) *why = "S is not N:M along its columns" ;
    return rc ;
}

// The host layout of S (values of elem bytes), S detected N:M (info), or a
// reason there is none.
static int nm_layout_host (const gg_csr *S, size_t elem, const gg_nm_info *info,
    gg_nm_layout **L, const char **why)
{
    int rc = GG_OK ;
    gg_nm_form *form = NULL ;
    void *expanded = NULL ;
    *L = NULL ;
    gg_csr V ;
    gg_nm_orient orient ;
    nm_view (S, &V, &orient) ;
    if (S->iso)
    {
        // the layout holds one value per slot: expand the iso value
        expanded = malloc ((size_t) (S->nnz > 0 ? S->nnz : 1) * elem) ;
        if (expanded == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
        for (int64_t q = 0 ; q < S->nnz ; q++)
            memcpy ((char *) expanded + (size_t) q * elem, S->x, elem) ;
        V.x = expanded ;
        V.iso = false ;
    }
    rc = gg_nm_pack (&form, &V, elem, info->n, info->m, 1, orient) ;
    if (rc == GG_ERR_UNSUPPORTED) { rc = GG_OK ; *why = "S could not be packed" ; goto done ; }
    GG_TRY (rc) ;
    rc = gg_nm_layout_build (L, form, true) ;
    if (rc == GG_ERR_UNSUPPORTED) { rc = GG_OK ; *why = "no kernel for this N:M pair" ; goto done ; }
    GG_TRY (rc) ;
done:
    gg_nm_form_free (form) ;
    free (expanded) ;
    return rc ;
}

// The layout made on the device from f's CSR (formats/nm_layout_dev.cu): the
// bytes the host path would upload (tests/test_nm_spmm compares them), into
// d->buf.  GG_ERR_UNSUPPORTED: not here (the host path answers).
static int nm_build_dev (gg_devcall *c, const gg_csr *S, dev_csr *f, size_t elem,
    const gg_nm_info *info, struct gg_nm_dev *d)
{
    if (f->x == NULL || gg_type_size (f->xtype) != elem || f->p == NULL || f->i == NULL)
        return GG_ERR_UNSUPPORTED ;
    size_t bb = 0, sb = 0, used = 0 ;
    int rc = gg_nm_layout_dev_size (S->nrows, S->ncols, elem, info->n, info->m, &bb, &sb) ;
    if (rc != GG_OK) return rc ;
    void *buf = NULL, *scratch = NULL ;
    rc = dev_alloc (c, &buf, bb) ;
    if (rc == GG_OK) rc = dev_alloc (c, &scratch, sb) ;
    if (rc == GG_OK)
    {
        rc = gg_nm_layout_dev_build (&d->op, &used, buf, scratch, S->nrows, S->ncols,
            f->nnz, f->p, f->i, f->x, elem, info->n, info->m, true, c->ctx->stream) ;
    }
    if (scratch != NULL) CU_LOG (cudaFreeAsync (scratch, c->ctx->stream)) ;
    if (rc != GG_OK)
    {
        if (buf != NULL) CU_LOG (cudaFreeAsync (buf, c->ctx->stream)) ;
        return rc ;
    }
    // other threads' streams read the form as soon as it is published
    if (cudaStreamSynchronize (c->ctx->stream) != cudaSuccess)
    {
        CU_LOG (cudaFreeAsync (buf, c->ctx->stream)) ;
        return GG_ERR_DEVICE ;
    }
    d->buf = buf ;
    d->bytes = bb ;
    (void) used ;
    return GG_OK ;
}

// For the tensor-core kernel (row nmtc), a layout whose 32-column tiles share
// their positions (op.tc32, FP32) also gets its values split in two TF32
// parts in the MMA's fragment order (op.wtc: twice the values' bytes), made
// on the device from op.val.  A failure leaves op.wtc NULL: the kernel then
// splits as it goes.
static int nm_build_tc (gg_devcall *c, struct gg_nm_dev *d)
{
    const size_t pb = gg_nm_spmm_tc_prep_bytes (&d->op) ;
    if (pb == 0) return GG_OK ;
    void *tb = NULL ;
    int rc = dev_alloc (c, &tb, pb) ;
    if (rc == GG_OK) rc = gg_cuda_nm_spmm_tc_prep (&d->op, tb, c->ctx->stream) ;
    // other threads' streams read the form as soon as it is published
    if (rc == GG_OK && cudaStreamSynchronize (c->ctx->stream) != cudaSuccess) rc = GG_ERR_DEVICE ;
    if (rc != GG_OK)
    {
        (void) cudaGetLastError () ;
        d->op.wtc = NULL ;
        if (tb != NULL) CU_LOG (cudaFreeAsync (tb, c->ctx->stream)) ;
        grbgpu_log (1, "cuda: N:M form's split values not made (error %d): nmtc splits as it goes", rc) ;
        return GG_OK ;
    }
    d->tcbuf = tb ;
    d->bytes += pb ;
    return GG_OK ;
}

// Make f's N:M form (f->nm, or f->nm_why); under f->plan_lock.  S is checked
// for N:M on the host (early exit); the layout is made on the device from f's
// CSR, or on the host (GRBGPU_NM_PACK=host, or where the device path does not
// apply) and uploaded.
static int nm_build (gg_devcall *c, const gg_csr *S, dev_csr *f, size_t elem)
{
    int rc = GG_OK ;
    gg_nm_layout *L = NULL ;
    struct gg_nm_dev *d = NULL ;
    void *buf = NULL ;
    gg_nm_info info ;
    const char *why = NULL ;
    memset (&info, 0, sizeof (info)) ;
    const double t0 = grbgpu_now () ;
    GG_TRY (nm_detect_of (S, &info, &why)) ;
    if (why != NULL)
    {
        f->nm_why = why ;
        grbgpu_log (2, "cuda: N:M form of %lldx%lld (%lld entries): none (%s%s%s)",
            (long long) S->nrows, (long long) S->ncols, (long long) S->nnz, why,
            info.reason ? ": " : "", info.reason ? info.reason : "") ;
        goto done ;
    }
    d = calloc (1, sizeof (*d)) ;
    if (d == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
    rc = grbgpu_settings_get ()->nm_host_pack ? GG_ERR_UNSUPPORTED
        : nm_build_dev (c, S, f, elem, &info, d) ;
    if (rc == GG_ERR_UNSUPPORTED)
    {
        // the host path (asked for, or where the device's does not apply)
        GG_TRY (nm_layout_host (S, elem, &info, &L, &why)) ;
        if (L == NULL)
        {
            f->nm_why = why ;
            goto done ;
        }
    }
    GG_TRY (rc) ;
    if (L != NULL)
    {
        GG_TRY (dev_alloc (c, &buf, L->bytes)) ;
        GG_TRY (upload (c, buf, L->buf, L->bytes)) ;
        // other threads' streams read the form as soon as it is published
        CU_TRY (cudaStreamSynchronize (c->ctx->stream)) ;
        gg_nm_layout_bind (L, buf) ;
        d->op = L->op ;
        d->buf = buf ;
        d->bytes = L->bytes ;
        buf = NULL ;
    }
    GG_TRY (nm_build_tc (c, d)) ;
    d->n = info.n ;
    d->m = info.m ;
    d->fill = info.fill ;
    f->nm = d ;
    form_grow (S, f, d->bytes) ;
    grbgpu_log (2, "cuda: N:M form of %lldx%lld (%lld entries): %d:%d, fill %.2f, "
        "%s indices%s%s, %.2f MB, made on the %s in %.3f ms", (long long) S->nrows,
        (long long) S->ncols, (long long) S->nnz, info.n, info.m, info.fill,
        d->op.shared ? "shared" : "per-column", d->op.packed ? ", X tiles packed" : "",
        d->op.tc32 ? ", 32-column tiles" : "", (double) d->bytes / 1e6,
        (L != NULL) ? "host" : "device", 1e3 * (grbgpu_now () - t0)) ;
    d = NULL ;
done:
    if (buf != NULL) cudaFreeAsync (buf, c->ctx->stream) ;
    free (d) ;
    gg_nm_layout_free (L) ;
    return rc ;
}

int nm_form (gg_devcall *c, const gg_csr *S, dev_csr *f, size_t elem,
    bool build, const struct gg_nm_dev **out, const char **why)
{
    *out = NULL ;
    *why = NULL ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->nm_tried && build)
    {
        f->nm_tried = true ;
        int rc = nm_build (c, S, f, elem) ;
        if (rc != GG_OK)
        {
            // no form: the other rows answer (as for the tensor-core forms)
            (void) cudaGetLastError () ;
            grbgpu_log (1, "cuda: N:M form not made: error %d", rc) ;
            f->nm_why = "its form could not be made" ;
        }
    }
    if (!f->nm_tried) *why = "chosen only by measurement (GRBGPU_TUNE) or when forced" ;
    else if (f->nm == NULL) *why = f->nm_why ;
    else if (f->nm->op.esz != elem) *why = "its form holds another type" ;
    else *out = f->nm ;
    pthread_mutex_unlock (&f->plan_lock) ;
    return GG_OK ;
}
