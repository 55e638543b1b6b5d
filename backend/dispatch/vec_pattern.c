//------------------------------------------------------------------------------
// backend/dispatch/vec_pattern.c: a resident vector on a pattern
//------------------------------------------------------------------------------

// w = f .* s with FIRST (f = u) or SECOND (f = v): f a resident full vector,
// s a vector on the host that is not resident (sparse or bitmap, of any
// built-in type; only its structure is read: the operator takes f's value).
// PageRank's t .* sink, summed next.  The result stays on the device
// (backend/resident/resident.h, gg_resident.pattern):
//   - w's structure comes from the CPU library itself: the real eWiseMult
//     on f's placeholder (full, iso) and s gives w exactly the structure,
//     sparsity and options the CPU library gives it, with an iso placeholder
//     value (O(n) on the host for a bitmap s, the CPU library's own work);
//   - s's pattern goes up as n bytes, kept as the device form of s's cache
//     entry (handle, version), so an unchanged s goes up once;
//   - one kernel (gg_backend.vec_select) writes w's values (f's on the
//     pattern, 0 elsewhere) and a copy of the pattern into w's buffer;
//   - w is registered on that pattern.  A pattern with every entry present
//     is declined: then the CPU library's format for w depends on more than
//     the structure (with t iso or not it differs, 7.4);
//   - when w is still resident from an earlier t .* s with the same s (its
//     version and storage unchanged), its structure is already the one the
//     CPU library would make: only the values are computed (a loop's
//     tsink = t .* sink costs no host work per iteration).
// Reductions of w run on the device over the pattern (vec_dispatch.c);
// anything else materialises it (resident_pattern.c).  Until w's structure
// is made nothing has changed; after it, any failure answers through the CPU
// library, which overwrites w (no mask, no accumulator).

#include "config.h"
#include "backend/dispatch/vec_private.h"
#include "backend/cache/cache.h"

#include <stdlib.h>
#include <string.h>

typedef GrB_Info (*emult_fn) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_BinaryOp, const GrB_Vector, const GrB_Vector, const GrB_Descriptor) ;

// n bytes of be's memory kept as the device form of key's cache entry
// (*entry acquired and its lock held, also on failure when it was acquired;
// the caller unlocks and releases), made by make (ctx, &owned: the bytes,
// *owned what to free after, or NULL) and sent up now when they are not
// there (*sent: bytes sent up).  The pattern of t .* s below and the rows
// a product accumulates into a resident vector (vec_accum.c) are kept so.
int vec_cached_bytes (const gg_backend *be, const gg_cache_key *key, int64_t n,
    vec_bytes_fn make, void *ctx, gg_cache_entry **entry, size_t *sent)
{
    *entry = NULL ;
    *sent = 0 ;
    gg_cache_entry *e = grbgpu_cache_acquire (key) ;
    if (e == NULL) e = grbgpu_cache_insert (key, NULL, 0, NULL) ;
    if (e == NULL) return GG_ERR_NOMEM ;
    *entry = e ;
    pthread_mutex_lock (&e->lock) ;
    if (e->dev != NULL) return GG_OK ;
    int8_t *owned = NULL ;
    const int8_t *b = make (ctx, &owned) ;
    if (b == NULL) return GG_ERR_NOMEM ;
    void *d = (grbgpu_fault (GG_FAULT_ALLOC)) ? NULL : be->res_alloc ((size_t) n) ;
    int rc = (d == NULL) ? GG_ERR_DEVMEM
        : grbgpu_fault (GG_FAULT_COPY) ? GG_ERR_FAULT : be->res_upload (d, b, (size_t) n) ;
    free (owned) ;
    if (rc != GG_OK)
    {
        if (d != NULL) be->res_free (d) ;
        return rc ;
    }
    e->dev = d ;
    e->dev_free = be->res_free ;
    // (on the backend's main device; the host emulation stands for device 0)
    grbgpu_cache_account_device (e, (be == &grbgpu_host_backend) ? 0 : grbgpu_settings.device_id,
        (size_t) n) ;
    *sent = (size_t) n ;
    return GG_OK ;
}

// s's pattern as n bytes (one per position): its bitmap, or made from its
// sparse indices
typedef struct { const gg_view *sv ; int64_t n ; } pattern_src ;

static const int8_t *pattern_bytes (void *ctx, int8_t **owned)
{
    const pattern_src *ps = (const pattern_src *) ctx ;
    const gg_view *sv = ps->sv ;
    *owned = NULL ;
    if (sv->storage != GG_STORE_SPARSE) return sv->b ;
    int8_t *hb = calloc ((size_t) ps->n, 1) ;
    if (hb == NULL) return NULL ;
    for (int64_t k = sv->p [0] ; k < sv->p [1] ; k++) hb [sv->i [k]] = 1 ;
    *owned = hb ;
    return hb ;
}

bool vec_pattern_path (const gg_backend *be, GrB_Vector w, GrB_BinaryOp op, gg_vop vop,
    gg_type t, GrB_Vector u, GrB_Vector v, GrB_Info *info, bool *applies)
{
    GrB_Vector f = (vop == GG_VOP_FIRST) ? u : v, s = (vop == GG_VOP_FIRST) ? v : u ;
    GrB_Index n, sn, fn, snv ;
    *applies = false ;
    if ((vop != GG_VOP_FIRST && vop != GG_VOP_SECOND) || be->vec_select == NULL
        || be->vec_gather == NULL) return false ;
    if (!grbgpu_resident_has (f) || grbgpu_resident_has (s) || w == s || w == f) return false ;
    if (grbgpu_src_code (vec_type ((GrB_Matrix) s)) < 0
        || vec_type ((GrB_Matrix) f) != grbgpu_grb_type (t)
        || vec_type ((GrB_Matrix) w) != grbgpu_grb_type (t)) return false ;
    if (!vec_vsize (w, &n) || !vec_vsize (s, &sn) || !vec_vsize (f, &fn) || sn != n || fn != n) return false ;
    // (nvals finishes s's pending work before it is viewed)
    if (GrB_Vector_nvals (&snv, s) != GrB_SUCCESS) return false ;
    gg_view sv ;
    if (grbgpu_view (&sv, (GrB_Matrix) s) != GrB_SUCCESS) return false ;
    if (sv.storage != GG_STORE_SPARSE && sv.storage != GG_STORE_BITMAP) return false ;
    if (snv == n)
    {
        // every entry present: the CPU library's format for w then depends
        // on more than the structure (t iso or not, s's type: with s sparse
        // of t's type it makes w full against w's sparsity control), so the
        // placeholder cannot stand for it
        *applies = true ;
        vec_decline ("vector op: pattern with every entry present") ;
        return false ;
    }
    gg_resident fr ;
    if (!grbgpu_resident_pin (f, &fr)) return false ;
    if (fr.be != be || fr.zt != t || fr.nrows != (int64_t) n || fr.pattern != NULL
        || fr.on_csr || fr.on_rows)
    {
        // (eWise declines it with its reason)
        grbgpu_resident_unpin (f, fr.buf) ;
        return false ;
    }
    *applies = true ;
    const char *why = NULL ;
    int rc = GG_OK ;
    void *buf = NULL ;
    size_t bytes = 0, sent = 0 ;
    gg_cache_entry *e = NULL ;
    GrB_Index wnv = 0 ;
    int status = 0 ;
    const size_t vbytes = (size_t) n * gg_type_size (t) ;
    const uint64_t sver = grbgpu_objver_get (s) ;
    // w still holds the structure of an earlier t .* s with this s (the same
    // version, held the same way; w untouched since, or it would have been
    // materialised): the CPU library would make the same again
    gg_resident wr ;
    bool same = false ;
    if (sver != 0 && grbgpu_resident_pin (w, &wr))
    {
        same = wr.be == be && wr.zt == t && wr.is_vector && wr.nrows == (int64_t) n
            && wr.src == s && wr.src_version == sver && wr.src_storage == (int) sv.storage ;
        same = same && wr.pattern != NULL ;
        wnv = (GrB_Index) wr.nvals ;
        grbgpu_resident_unpin (w, wr.buf) ;
    }
    if (!same)
    {
        // w's structure, by the CPU library, from f's placeholder and s; w's
        // old device copy (if any) goes: w is overwritten
        grbgpu_resident_forget (w) ;
        GrB_Info ginfo = ((emult_fn) grbgpu_real ("GrB_Vector_eWiseMult_BinaryOp"))
            (w, NULL, NULL, op, u, v, NULL) ;
        if (ginfo == GrB_SUCCESS) ginfo = GrB_Vector_nvals (&wnv, w) ;
        if (ginfo == GrB_SUCCESS) ginfo = GxB_Vector_Option_get (w, GxB_SPARSITY_STATUS, &status) ;
        if (ginfo != GrB_SUCCESS || (status != GxB_BITMAP && status != GxB_SPARSE))
        {
            // (w has fewer entries than its size: never full)
            why = "vector op: the pattern's structure could not be made" ;
            goto done ;
        }
    }
    bytes = vbytes + (size_t) n ;
    buf = grbgpu_resident_alloc (be, bytes) ;
    if (buf == NULL) { why = "vector op: no device memory for the result" ; goto done ; }
    gg_cache_key key = { s, sver, VEC_FORM (VEC_FORM_PATTERN, be, 0) } ;
    pattern_src ps = { &sv, (int64_t) n } ;
    rc = vec_cached_bytes (be, &key, (int64_t) n, pattern_bytes, &ps, &e, &sent) ;
    if (rc == GG_OK)
    {
        rc = grbgpu_fault (GG_FAULT_LAUNCH) ? GG_ERR_FAULT : be->vec_select (t, (int64_t) n,
            buf, (int8_t *) buf + vbytes, fr.buf, (const int8_t *) e->dev) ;
    }
    if (rc != GG_OK) goto done ;
    gg_resident r = { .be = be, .buf = buf, .bytes = bytes, .zt = t, .nrows = (int64_t) n,
        .ncols = 1, .is_vector = true, .pattern = (const int8_t *) buf + vbytes,
        .nvals = (int64_t) wnv, .src = s, .src_version = sver, .src_storage = (int) sv.storage } ;
    buf = NULL ;
    if (grbgpu_resident_keep_as_is (w, &r) != GrB_SUCCESS) rc = GG_ERR_NOMEM ;   // (r.buf freed)
done:
    if (e != NULL) { pthread_mutex_unlock (&e->lock) ; grbgpu_cache_release (e) ; }
    grbgpu_resident_unpin (f, fr.buf) ;
    if (buf != NULL) grbgpu_resident_release (be, buf, bytes) ;
    if (why != NULL) { vec_decline (why) ; return false ; }
    if (rc != GG_OK)
    {
        grbgpu_count (GG_STAT_FALLBACKS, 1) ;
        grbgpu_set_last_decision ("fallback", "vector op on a pattern failed") ;
        grbgpu_log (1, "fallback to the CPU library after a vector op on a pattern failed (%d)"
            " on %s", rc, be->name) ;
        return false ;
    }
    grbgpu_count (be == &grbgpu_host_backend ? GG_STAT_OFFLOADED_HOST : GG_STAT_OFFLOADED_CUDA, 1) ;
    grbgpu_set_last_decision (be->name, NULL) ;
    if (grbgpu_settings.verbose >= 2)
    {
        grbgpu_log (2, "resident: %p kept on a pattern of %llu of %llu entries (%s; pattern %s;"
            " structure %s)", (void *) w, (unsigned long long) wnv, (unsigned long long) n,
            same ? "as before" : status == GxB_BITMAP ? "bitmap" : "sparse",
            sent > 0 ? "sent up" : "cached on the device", same ? "unchanged" : "made by the CPU library") ;
    }
    *info = GrB_SUCCESS ;
    return true ;
}
