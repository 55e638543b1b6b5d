//------------------------------------------------------------------------------
// backend/dispatch/vec_accum.c: accumulation into a resident vector, and the
// pattern gather
//------------------------------------------------------------------------------

// See vec_dispatch.h: a product accumulated into a resident full vector
// (r += A'*w, called from dispatch.c), and FIRST / SECOND of a resident full
// vector and a sparse one (t .* sink).

#include "config.h"
#include "backend/dispatch/vec_private.h"
#include "backend/interpose/galloc.h"

#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// a product's accumulation into a resident output: C += T
//------------------------------------------------------------------------------

bool grbgpu_vec_accum_begin (const gg_backend *be, const gg_output *out, gg_type t,
    int64_t n, gg_resident *cres, const char **why)
{
    gg_vop op ;
    gg_type at ;
    GrB_Index cn ;
    GrB_Vector C = (GrB_Vector) out->C ;
    *why = NULL ;
    if (be->vec_op == NULL || be->res_upload == NULL) return false ;
    if (!out->is_vector || out->M != NULL) { *why = "accumulation: not a plain vector" ; return false ; }
    if (!grbgpu_vec_binop (out->accum, &op, &at) || at != t)
    {
        *why = "accumulation: operator not built in or of another type" ;
        return false ;
    }
    if (vec_vtype (C) != grbgpu_grb_type (t) || !vec_vsize (C, &cn) || (int64_t) cn != n)
    {
        *why = "accumulation: output of another type" ;
        return false ;
    }
    if (!vec_may_be_full (C)) { *why = "accumulation: output's sparsity control excludes full" ; return false ; }
    vec_in in ;
    if (!grbgpu_resident_has (C)) (void) grbgpu_vec_adopt (be, out->C, t) ;
    if (vec_get_input (be, C, t, cn, &in) != NULL || !in.pinned)
    {
        // (an iso C is not pinned: it is sent up as a scalar only; not here)
        vec_put_input (&in) ;
        *why = "accumulation: output not full" ;
        return false ;
    }
    *cres = in.r ;
    return true ;
}

int grbgpu_vec_accum_finish (const gg_backend *be, const gg_output *out,
    gg_resident *cres, void *T, size_t bytes, const gg_csr *S)
{
    gg_vop op ;
    gg_type t ;
    int rc = GG_OK ;
    int8_t *present = NULL ;
    void *z = NULL ;
    (void) grbgpu_vec_binop (out->accum, &op, &t) ;
    const int64_t n = cres->nrows ;
    // the rows of T that hold an entry (C keeps its value elsewhere)
    if (!S->no_empty_rows && (S->present == NULL || S->nonempty < S->nrows))
    {
        if (S->present != NULL)
        {
            present = (int8_t *) S->present ;
        }
        else
        {
            present = malloc ((size_t) n) ;
            if (present == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            for (int64_t i = 0 ; i < n ; i++)
            {
                int64_t a = S->p32 ? S->p32 [i] : S->p64 [i] ;
                int64_t b = S->p32 ? S->p32 [i+1] : S->p64 [i+1] ;
                present [i] = (b > a) ;
            }
        }
    }
    z = grbgpu_resident_alloc (be, bytes) ;
    if (z == NULL) { rc = GG_ERR_DEVMEM ; goto done ; }
    if (present != NULL)
    {
        gg_vec_args copy = { .op = GG_VOP_IDENTITY, .type = t, .n = n, .z = z, .x = cres->buf } ;
        rc = be->vec_op (&copy) ;
    }
    if (rc == GG_OK)
    {
        gg_vec_args acc = { .op = op, .type = t, .n = n, .z = z, .x = cres->buf, .y = T,
            .present = present } ;
        rc = be->vec_op (&acc) ;
    }
    if (rc != GG_OK) goto done ;
    gg_resident r = { be, z, bytes, t, n, 1, false, true } ;
    z = NULL ;
    if (grbgpu_resident_keep (out->C, &r) != GrB_SUCCESS) rc = GG_ERR_NOMEM ;   // z freed
done:
    if (present != NULL && present != S->present) free (present) ;
    if (z != NULL) grbgpu_resident_release (be, z, bytes) ;
    grbgpu_resident_release (be, T, bytes) ;
    grbgpu_resident_unpin (out->C, cres->buf) ;
    return rc ;
}

//------------------------------------------------------------------------------
// w = u .* s with FIRST (or s .* v with SECOND): a resident full vector
// masked by the pattern of a sparse one (PageRank's t .* sink)
//------------------------------------------------------------------------------

// The result has s's pattern and the resident vector's values there: s's
// indices go to the device, the gathered values come down (nnz (s) of them,
// not all of the resident vector), and w gets them packed (sparse, or bitmap
// when s is bitmap, as the CPU library would hold it).  A bitmap s holding
// at least an eighth of its positions takes a shorter way: the whole
// resident vector comes down as the bitmap's values (GraphBLAS reads them
// only where the bitmap is set) next to a copy of s's bitmap, with no index
// list and no scatter on the host (PageRank's t .* sink on R-MAT 2^20,
// about half the vertices sinks: the gather path cost 12 ms per call on the
// host side in the GPU run of 2026-11-25).  Returns true when it answered;
// *applies false: not this case (the caller goes on).
bool vec_gather_path (const gg_backend *be, GrB_Vector w, gg_vop op, gg_type t,
    GrB_Vector u, GrB_Vector v, GrB_Info *info, bool *applies)
{
    GrB_Vector f = (op == GG_VOP_FIRST) ? u : v, s = (op == GG_VOP_FIRST) ? v : u ;
    GrB_Index n, sn, fn, snv ;
    *applies = false ;
    if ((op != GG_VOP_FIRST && op != GG_VOP_SECOND) || be->vec_gather == NULL) return false ;
    if (!grbgpu_resident_has (f) || grbgpu_resident_has (s) || w == s || w == f) return false ;
    if (grbgpu_src_code (vec_vtype (s)) < 0 || vec_vtype (f) != grbgpu_grb_type (t)
        || vec_vtype (w) != grbgpu_grb_type (t)) return false ;
    if (!vec_vsize (w, &n) || !vec_vsize (s, &sn) || !vec_vsize (f, &fn) || sn != n || fn != n) return false ;
    if (GrB_Vector_nvals (&snv, s) != GrB_SUCCESS || snv == n) return false ;
    gg_view sv ;
    if (grbgpu_view (&sv, (GrB_Matrix) s) != GrB_SUCCESS) return false ;
    if (sv.storage != GG_STORE_SPARSE && sv.storage != GG_STORE_BITMAP) return false ;
    *applies = true ;
    const size_t zsz = gg_type_size (t) ;
    const size_t nz = (size_t) snv ;
    const bool whole = (sv.storage == GG_STORE_BITMAP && 8 * nz >= (size_t) n) ;
    // whole: X takes all of f's values and no index list is made
    int64_t *I = whole ? NULL : grbgpu_gb_malloc ((nz > 0 ? nz : 1) * sizeof (int64_t)) ;
    void *X = grbgpu_gb_malloc (whole ? (size_t) n * zsz : (nz > 0 ? nz : 1) * zsz) ;
    gg_resident fr ;
    bool pinned = false ;
    int rc = GG_OK ;
    if ((I == NULL && !whole) || X == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
    if (sv.storage == GG_STORE_SPARSE)
    {
        memcpy (I, sv.i + sv.p [0], nz * sizeof (int64_t)) ;
    }
    else if (!whole)
    {
        size_t k = 0 ;
        for (int64_t i = 0 ; i < (int64_t) n && k < nz ; i++) if (sv.b [i]) I [k++] = i ;
    }
    pinned = grbgpu_resident_pin (f, &fr) ;
    if (!pinned || fr.be != be || fr.zt != t || fr.nrows != (int64_t) n) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    if (whole) rc = grbgpu_fault (GG_FAULT_COPY) ? GG_ERR_FAULT : be->res_download (X, fr.buf, (size_t) n * zsz) ;
    else rc = be->vec_gather (t, fr.buf, I, (int64_t) nz, X) ;
    if (rc != GG_OK) goto done ;
    // w's options survive the pack (which resets them)
    int control = 0 ;
    double bswitch = 0 ;
    GrB_Info ginfo = GxB_Vector_Option_get (w, GxB_SPARSITY_CONTROL, &control) ;
    if (ginfo == GrB_SUCCESS) ginfo = GxB_Vector_Option_get (w, GxB_BITMAP_SWITCH, &bswitch) ;
    if (ginfo != GrB_SUCCESS) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    grbgpu_resident_forget (w) ;       // (not resident: checked above; kept for safety)
    if (sv.storage == GG_STORE_BITMAP)
    {
        // s bitmap: w bitmap too, as the CPU library makes it (so that what
        // reads w later, a reduction say, sums in the CPU library's order)
        int8_t *B = grbgpu_gb_malloc ((size_t) n) ;
        void *XB = whole ? X : grbgpu_gb_calloc ((size_t) n, zsz) ;
        if (whole) X = NULL ;       // (XB's now)
        if (B == NULL || XB == NULL)
        {
            grbgpu_gb_free (B) ; grbgpu_gb_free (XB) ;
            rc = GG_ERR_NOMEM ; goto done ;
        }
        memcpy (B, sv.b, (size_t) n) ;
        for (size_t k = 0 ; !whole && k < nz ; k++)
        {
            memcpy ((char *) XB + (size_t) I [k] * zsz, (const char *) X + k * zsz, zsz) ;
        }
        ginfo = GxB_Vector_pack_Bitmap (w, &B, &XB, (GrB_Index) n, (GrB_Index) n * zsz,
            false, snv, NULL) ;
        grbgpu_gb_free (B) ; grbgpu_gb_free (XB) ;     // (NULL when packed)
    }
    else
    {
        ginfo = GxB_Vector_pack_CSC (w, (GrB_Index **) &I, &X, (nz > 0 ? nz : 1) * sizeof (int64_t),
            (nz > 0 ? nz : 1) * zsz, false, snv, false, NULL) ;
    }
    if (ginfo != GrB_SUCCESS) { rc = GG_ERR_UNSUPPORTED ; goto done ; }
    // (I and X belong to w now)
    int now_control = 0 ;
    double now_switch = 0 ;
    ginfo = GxB_Vector_Option_get (w, GxB_SPARSITY_CONTROL, &now_control) ;
    if (ginfo == GrB_SUCCESS && now_control != control) ginfo = GxB_Vector_Option_set (w, GxB_SPARSITY_CONTROL, control) ;
    if (ginfo == GrB_SUCCESS) ginfo = GxB_Vector_Option_get (w, GxB_BITMAP_SWITCH, &now_switch) ;
    if (ginfo == GrB_SUCCESS && now_switch != bswitch) ginfo = GxB_Vector_Option_set (w, GxB_BITMAP_SWITCH, bswitch) ;
    *info = ginfo ;     // w holds the result: an option's error is the answer
done:
    if (pinned) grbgpu_resident_unpin (f, fr.buf) ;
    grbgpu_gb_free (I) ;
    grbgpu_gb_free (X) ;
    if (rc != GG_OK)
    {
        if (rc == GG_ERR_UNSUPPORTED) vec_decline ("vector op: pattern gather not possible") ;
        else
        {
            grbgpu_count (GG_STAT_FALLBACKS, 1) ;
            grbgpu_log (1, "fallback to the CPU library after a gather failed (%d) on %s", rc, be->name) ;
        }
        return false ;
    }
    grbgpu_count (be == &grbgpu_host_backend ? GG_STAT_OFFLOADED_HOST : GG_STAT_OFFLOADED_CUDA, 1) ;
    grbgpu_set_last_decision (be->name, NULL) ;
    if (grbgpu_settings.verbose >= 2)
    {
        grbgpu_log (2, "resident: %p gathered on %llu entries (%zu bytes down)", (void *) f,
            (unsigned long long) snv, nz * zsz) ;
    }
    return true ;
}
