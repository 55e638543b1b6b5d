//------------------------------------------------------------------------------
// backend/resident/resident.c: the registry of results kept on the device
//------------------------------------------------------------------------------

// See resident.h.  The registry is a small array behind one mutex (a program
// keeps a handful of results resident at a time); the common case, nothing
// resident, costs every wrapped GraphBLAS call one relaxed load
// (grbgpu_resident_touch in backend/grbgpu_internal.h).
//
// A resident object C holds its exact structure: full, of its type and
// dimensions, with one iso placeholder value, so nvals, size and type are
// right without a download (the wrappers do not materialise for those).
// Materialising unpacks the placeholder, downloads the values into an array
// from GraphBLAS's memory functions and packs it into C (the real GraphBLAS
// functions, looked up through grbgpu_real, so that no wrapper runs again).
// The pack changes C's storage, not its value; C's version is bumped all the
// same, so no cached form of the placeholder can survive.
//
// A download that fails (device error, injected fault) is retried; when it
// still fails the object stays resident, consistent, and the wrapped call
// returns GrB_OUT_OF_MEMORY without running (what the CPU library answers
// when it cannot get memory).  Entries in use by a product are pinned: an
// eviction skips them, and a materialisation or free while pinned defers
// the buffer's release to the last unpin.

#include "config.h"
#include "backend/resident/resident_private.h"
#include "backend/interpose/galloc.h"
#include "backend/cache/cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
    const void *obj ;
    gg_resident r ;
    uint64_t stamp ;        // last use (LRU)
    int pins ;
    gg_options opt ;
    // the object's own values array from before it became resident (full,
    // not iso, at least r.bytes: from GraphBLAS's memory functions), kept to
    // take the values when they come down instead of freeing it now and
    // allocating (and faulting in) a fresh one then; NULL: none
    void *shadow ;
    size_t shadow_size ;
}
gg_entry ;

// buffers whose entry left the registry while pinned
typedef struct
{
    const gg_backend *be ;
    void *buf ;
    int pins ;
    void *cache ;           // a matrix on a pattern's cache reference, or NULL
}
gg_orphan ;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER ;
static gg_entry *entries = NULL ;
static int nentries = 0, maxentries = 0 ;
static gg_orphan *orphans = NULL ;
static int norphans = 0, maxorphans = 0 ;
static size_t held_bytes = 0 ;
static uint64_t clock_stamp = 0 ;

atomic_int grbgpu_resident_live = 0 ;

static __thread int quiet_depth __attribute__ ((tls_model ("initial-exec"))) ;

//------------------------------------------------------------------------------
// settings
//------------------------------------------------------------------------------

bool grbgpu_resident_enabled (const gg_backend *be)
{
    return grbgpu_settings.resident && be != NULL && be->res_alloc != NULL
        && be->res_free != NULL && be->res_download != NULL && be->spmm_res != NULL ;
}

static size_t limit_bytes (void)
{
    uint64_t m = grbgpu_settings.device_memory ;
    return (m == 0) ? SIZE_MAX : (size_t) m ;
}

void grbgpu_resident_quiet (int delta)
{
    quiet_depth += delta ;
}

bool grbgpu_resident_is_quiet (void)
{
    return quiet_depth > 0 ;
}

//------------------------------------------------------------------------------
// the registry (all under lock)
//------------------------------------------------------------------------------

static gg_entry *find (const void *obj)
{
    for (int k = 0 ; k < nentries ; k++) if (entries [k].obj == obj) return &entries [k] ;
    return NULL ;
}

// A buffer (and a cache reference) released at its last unpin
static void orphan (const gg_backend *be, void *buf, int pins, void *cache)
{
    if (norphans == maxorphans)
    {
        int n = maxorphans ? 2 * maxorphans : 8 ;
        gg_orphan *o = realloc (orphans, (size_t) n * sizeof (gg_orphan)) ;
        if (o == NULL) abort () ;       // cannot happen in practice: tiny
        orphans = o ; maxorphans = n ;
    }
    orphans [norphans++] = (gg_orphan) { be, buf, pins, cache } ;
}

// Remove e from the registry and release its buffer (or leave it to the
// last unpin) and its shadow.
static void remove_entry (gg_entry *e)
{
    held_bytes -= e->r.bytes ;
    grbgpu_gb_free (e->shadow) ;
    if (e->pins > 0)
    {
        orphan (e->r.be, e->r.buf, e->pins, grbgpu_resident_cache_ref (&e->r)) ;
    }
    else
    {
        e->r.be->res_free (e->r.buf) ;
        grbgpu_cache_release (grbgpu_resident_cache_ref (&e->r)) ;
    }
    *e = entries [--nentries] ;
    atomic_store_explicit (&grbgpu_resident_live, nentries, memory_order_relaxed) ;
}

//------------------------------------------------------------------------------
// the shadow: obj's own values array, taken instead of freed
//------------------------------------------------------------------------------

typedef GrB_Info (*mopt_fn) (GrB_Matrix, GxB_Option_Field, ...) ;
typedef GrB_Info (*vopt_fn) (GrB_Vector, GxB_Option_Field, ...) ;
typedef GrB_Info (*miso_fn) (bool *, const GrB_Matrix) ;
typedef GrB_Info (*viso_fn) (bool *, const GrB_Vector) ;

// When obj (about to become resident as r) holds full, non-iso values of
// r's layout (by row or by column as r; the product's type, so r->bytes of
// them), they are unpacked into *x (*xsize) and kept instead of freed (a
// 537 MB array took ~36 ms to free, and as long again to fault in afresh
// when the values come down).  Anything else: nothing taken, obj unchanged.
static void take_shadow (GrB_Matrix obj, const gg_resident *r, void **x, size_t *xsize)
{
    *x = NULL ; *xsize = 0 ;
    if (r->pattern != NULL || r->on_csr || r->on_rows || r->bytes == 0) return ;
    int status = 0, format = 0 ;
    bool iso = true ;
    GrB_Info info ;
    if (r->is_vector)
    {
        info = REAL (vopt_fn, "GxB_Vector_Option_get") ((GrB_Vector) obj, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = REAL (viso_fn, "GxB_Vector_iso") (&iso, (GrB_Vector) obj) ;
    }
    else
    {
        info = REAL (mopt_fn, "GxB_Matrix_Option_get") (obj, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = REAL (mopt_fn, "GxB_Matrix_Option_get") (obj, GxB_FORMAT, &format) ;
        if (info == GrB_SUCCESS) info = REAL (miso_fn, "GxB_Matrix_iso") (&iso, obj) ;
        if (info == GrB_SUCCESS && (format == GxB_BY_COL) != r->by_col) return ;
    }
    if (info != GrB_SUCCESS || status != GxB_FULL || iso) return ;
    void *old = NULL ;
    GrB_Index old_size = 0 ;
    bool old_iso = false ;
    if (grbgpu_storage_unpack_full (obj, r->is_vector, r->by_col, &old, &old_size, &old_iso, true) != GrB_SUCCESS) return ;
    if (old_iso || old_size < r->bytes)
    {
        // (not expected after the checks above; obj is empty now and gets
        // the placeholder next, as it would have)
        grbgpu_gb_free (old) ;
        return ;
    }
    *x = old ; *xsize = (size_t) old_size ;
    if (grbgpu_settings.verbose >= 2)
    {
        grbgpu_log (2, "resident: %p's own values array (%zu bytes) kept to take its values"
            " when they come down", (void *) obj, *xsize) ;
    }
}

//------------------------------------------------------------------------------
// materialise (under lock)
//------------------------------------------------------------------------------

int grbgpu_res_fetch (const gg_resident *r, void *host, size_t bytes)
{
    int rc = GG_ERR_FAULT ;
    for (int t = 0 ; t < GG_MATERIALISE_TRIES && rc != GG_OK ; t++)
    {
        rc = grbgpu_fault (GG_FAULT_COPY) ? GG_ERR_FAULT : r->be->res_download (host, r->buf, bytes) ;
    }
    return rc ;
}

// A full object gets its values (*down: the bytes that came down), into e's
// shadow when it has one (which it then no longer has).  GrB_SUCCESS, or the
// error that left it holding the placeholder (and its shadow).
static GrB_Info fill_full (gg_entry *e, size_t *down)
{
    const gg_resident *r = &e->r ;
    GrB_Matrix obj = (GrB_Matrix) e->obj ;
    const bool shadow = (e->shadow != NULL) ;
    size_t xsize = shadow ? e->shadow_size : (r->bytes > 0 ? r->bytes : 1) ;
    void *x = shadow ? e->shadow : grbgpu_gb_malloc (xsize) ;
    if (x == NULL) return GrB_OUT_OF_MEMORY ;
    if (grbgpu_res_fetch (r, x, r->bytes) != GG_OK)
    {
        if (!shadow) grbgpu_gb_free (x) ;
        return GrB_OUT_OF_MEMORY ;
    }
    e->shadow = NULL ;      // x is given to GraphBLAS below, or freed
    // take the placeholder out, put the values in
    void *old = NULL ;
    GrB_Index old_size = 0 ;
    bool old_iso = false ;
    GrB_Info info = grbgpu_storage_unpack_full (obj, r->is_vector, r->by_col, &old, &old_size, &old_iso, true) ;
    if (info == GrB_SUCCESS)
    {
        grbgpu_gb_free (old) ;
        info = grbgpu_storage_pack_full (obj, r->is_vector, r->by_col, &x, xsize, false, true) ;
    }
    if (info != GrB_SUCCESS)
    {
        // the object is empty now (or unchanged): without its values the
        // only consistent state is resident; put a placeholder back
        grbgpu_gb_free (x) ;
        void *p = grbgpu_gb_calloc (1, gg_type_size (r->zt)) ;
        if (p != NULL && grbgpu_storage_pack_full (obj, r->is_vector, r->by_col, &p, gg_type_size (r->zt), true, true)
            != GrB_SUCCESS) grbgpu_gb_free (p) ;
        return info ;
    }
    *down = r->bytes ;
    return GrB_SUCCESS ;
}

static GrB_Info materialise_locked (gg_entry *e, const char *why)
{
    const gg_resident r = e->r ;
    size_t down = 0 ;
    GrB_Info info = (r.pattern != NULL)
        ? grbgpu_res_fill_pattern ((GrB_Vector) e->obj, &r, &down)
        : r.on_csr ? grbgpu_res_fill_csr ((GrB_Matrix) e->obj, &r, &down)
        : r.on_rows ? grbgpu_res_fill_rows ((GrB_Matrix) e->obj, &r, &down)
        : fill_full (e, &down) ;
    if (info != GrB_SUCCESS)
    {
        grbgpu_log (1, "resident: materialising %p for %s failed (GrB_Info %d): it stays on"
            " the device", e->obj, why, (int) info) ;
        return info ;
    }
    // the values are in: a failure to set an option back is the call's
    // answer, the object is no longer resident
    GrB_Info opt_info = grbgpu_storage_options_restore ((GrB_Matrix) e->obj, r.is_vector, true, &e->opt) ;
    if (opt_info == GrB_SUCCESS && (r.on_csr || r.on_rows)) opt_info = grbgpu_storage_conform ((GrB_Matrix) e->obj, true, &e->opt) ;
    grbgpu_count (GG_STAT_MATERIALISED, 1) ;
    if (grbgpu_settings.verbose >= 1)
    {
        if (r.pattern != NULL || r.on_csr)
        {
            grbgpu_log (1, "resident: materialised %p (on a pattern, %lld of %lld entries,"
                " %zu bytes down) for %s", e->obj, (long long) r.nvals, (long long) r.nrows,
                down, why) ;
        }
        else
        {
            grbgpu_log (1, "resident: materialised %p (%zu bytes down) for %s", e->obj, down, why) ;
        }
    }
    const void *obj = e->obj ;
    remove_entry (e) ;
    grbgpu_objver_bump (obj) ;
    return opt_info ;
}

//------------------------------------------------------------------------------
// what the wrappers call
//------------------------------------------------------------------------------

GrB_Info grbgpu_resident_touch_slow (const void *obj, const char *fn)
{
    if (quiet_depth > 0) return GrB_SUCCESS ;
    pthread_mutex_lock (&lock) ;
    gg_entry *e = find (obj) ;
    GrB_Info info = (e == NULL) ? GrB_SUCCESS : materialise_locked (e, fn) ;
    pthread_mutex_unlock (&lock) ;
    return info ;
}

// obj's entry removed without a download (what: for the verbose log)
static void remove_unread (const void *obj, const char *what)
{
    if (obj == NULL || atomic_load_explicit (&grbgpu_resident_live, memory_order_relaxed) == 0) return ;
    pthread_mutex_lock (&lock) ;
    gg_entry *e = find (obj) ;
    if (e != NULL)
    {
        if (grbgpu_settings.verbose >= 2) grbgpu_log (2, "resident: %p %s", obj, what) ;
        remove_entry (e) ;
    }
    pthread_mutex_unlock (&lock) ;
}

void grbgpu_resident_forget (const void *obj)
{
    remove_unread (obj, "freed on the device") ;
}

//------------------------------------------------------------------------------
// what the device path calls
//------------------------------------------------------------------------------

void grbgpu_resident_drop (const void *obj)
{
    remove_unread (obj, "dropped unread (a product overwrites all of it on the host)") ;
}

GrB_Info grbgpu_resident_materialise (const void *obj, const char *why)
{
    if (obj == NULL || atomic_load_explicit (&grbgpu_resident_live, memory_order_relaxed) == 0)
    {
        return GrB_SUCCESS ;
    }
    pthread_mutex_lock (&lock) ;
    gg_entry *e = find (obj) ;
    GrB_Info info = (e == NULL) ? GrB_SUCCESS : materialise_locked (e, why) ;
    pthread_mutex_unlock (&lock) ;
    return info ;
}

bool grbgpu_resident_has (const void *obj)
{
    if (obj == NULL || atomic_load_explicit (&grbgpu_resident_live, memory_order_relaxed) == 0)
    {
        return false ;
    }
    pthread_mutex_lock (&lock) ;
    bool has = (find (obj) != NULL) ;
    pthread_mutex_unlock (&lock) ;
    return has ;
}

bool grbgpu_resident_pin (const void *obj, gg_resident *r)
{
    if (obj == NULL || atomic_load_explicit (&grbgpu_resident_live, memory_order_relaxed) == 0)
    {
        return false ;
    }
    pthread_mutex_lock (&lock) ;
    gg_entry *e = find (obj) ;
    if (e != NULL)
    {
        e->pins++ ;
        e->stamp = ++clock_stamp ;
        *r = e->r ;
    }
    pthread_mutex_unlock (&lock) ;
    return e != NULL ;
}

void grbgpu_resident_unpin (const void *obj, void *buf)
{
    pthread_mutex_lock (&lock) ;
    gg_entry *e = find (obj) ;
    if (e != NULL && e->r.buf == buf)
    {
        e->pins-- ;
    }
    else
    {
        for (int k = 0 ; k < norphans ; k++)
        {
            if (orphans [k].buf != buf) continue ;
            if (--orphans [k].pins == 0)
            {
                orphans [k].be->res_free (buf) ;
                grbgpu_cache_release (orphans [k].cache) ;
                orphans [k] = orphans [--norphans] ;
            }
            break ;
        }
    }
    pthread_mutex_unlock (&lock) ;
}

void *grbgpu_resident_alloc (const gg_backend *be, size_t bytes)
{
    const size_t limit = limit_bytes () ;
    if (bytes > limit) return NULL ;
    pthread_mutex_lock (&lock) ;
    // evict (materialise) the least recently used unpinned entries
    while (held_bytes + bytes > limit)
    {
        gg_entry *lru = NULL ;
        for (int k = 0 ; k < nentries ; k++)
        {
            if (entries [k].pins == 0 && (lru == NULL || entries [k].stamp < lru->stamp))
            {
                lru = &entries [k] ;
            }
        }
        if (lru == NULL || materialise_locked (lru, "eviction (GRBGPU_DEVICE_MEMORY)") != GrB_SUCCESS)
        {
            pthread_mutex_unlock (&lock) ;
            return NULL ;
        }
        grbgpu_count (GG_STAT_RESIDENT_EVICTED, 1) ;
    }
    void *buf = (grbgpu_fault (GG_FAULT_ALLOC)) ? NULL : be->res_alloc (bytes > 0 ? bytes : 1) ;
    if (buf != NULL) held_bytes += bytes ;     // counted until keep or release
    pthread_mutex_unlock (&lock) ;
    return buf ;
}

// (held_bytes counts a buffer from alloc to release, or to its entry's removal)
void grbgpu_resident_release (const gg_backend *be, void *buf, size_t bytes)
{
    if (buf == NULL) return ;
    pthread_mutex_lock (&lock) ;
    held_bytes -= bytes ;
    be->res_free (buf) ;
    pthread_mutex_unlock (&lock) ;
}

// room for one more entry
static GrB_Info grow_locked (void)
{
    if (nentries < maxentries) return GrB_SUCCESS ;
    int n = maxentries ? 2 * maxentries : 16 ;
    gg_entry *e = realloc (entries, (size_t) n * sizeof (gg_entry)) ;
    if (e == NULL) return GrB_OUT_OF_MEMORY ;
    entries = e ; maxentries = n ;
    return GrB_SUCCESS ;
}

// fork: a child cannot reach its parent's device memory (a CUDA context does
// not survive fork), so every result held on the device comes down in the
// parent first, and the child starts with every object on the host.  (An
// entry pinned by a product running in another thread stays; the child's
// read of it answers GrB_OUT_OF_MEMORY.)
static void before_fork (void)
{
    pthread_mutex_lock (&lock) ;
    for (int k = 0 ; k < nentries ; )
    {
        if (entries [k].pins > 0 || entries [k].r.be == &grbgpu_host_backend
            || materialise_locked (&entries [k], "fork") != GrB_SUCCESS) k++ ;
        // (a materialised entry is removed: entry k is another one now)
    }
    pthread_mutex_unlock (&lock) ;
}

static pthread_once_t fork_once = PTHREAD_ONCE_INIT ;
static void fork_hook (void) { (void) pthread_atfork (before_fork, NULL, NULL) ; }

static void register_locked (const void *obj, const gg_resident *r, const gg_options *opt)
{
    pthread_once (&fork_once, fork_hook) ;
    entries [nentries++] = (gg_entry) { obj, *r, ++clock_stamp, 0, *opt, NULL, 0 } ;
    atomic_store_explicit (&grbgpu_resident_live, nentries, memory_order_relaxed) ;
}

// A keep that failed: r's buffer is freed (its bytes no longer held), the
// lock given back; returns info
static GrB_Info refused_locked (const gg_resident *r, GrB_Info info)
{
    held_bytes -= r->bytes ;
    r->be->res_free (r->buf) ;
    pthread_mutex_unlock (&lock) ;
    return info ;
}

// A keep that succeeded: obj's previous device copy (if any) is replaced by
// r (with its shadow, or none), the lock given back, the keep counted
static GrB_Info installed_locked (const void *obj, const gg_resident *r, const gg_options *opt,
    void *shadow, size_t shadow_size)
{
    gg_entry *old = find (obj) ;
    if (old != NULL) remove_entry (old) ;
    register_locked (obj, r, opt) ;
    entries [nentries-1].shadow = shadow ;
    entries [nentries-1].shadow_size = shadow_size ;
    pthread_mutex_unlock (&lock) ;
    grbgpu_count (GG_STAT_RESIDENT_KEPT, 1) ;
    return GrB_SUCCESS ;
}

// a failure to set obj's options back after its pack is logged, not answered
// (obj's value is right; only its storage choice may differ)
static void options_back (GrB_Matrix obj, bool is_vector, const gg_options *opt, bool conformed)
{
    GrB_Info info = grbgpu_storage_options_restore (obj, is_vector, true, opt) ;
    if (info == GrB_SUCCESS && conformed) info = grbgpu_storage_conform (obj, true, opt) ;
    if (info != GrB_SUCCESS)
    {
        grbgpu_log (1, "resident: setting the options of %p back failed (GrB_Info %d)",
            (void *) obj, (int) info) ;
    }
}

GrB_Info grbgpu_resident_keep (GrB_Matrix obj, const gg_resident *r)
{
    const size_t zsz = gg_type_size (r->zt) ;
    void *p = grbgpu_gb_calloc (1, zsz) ;
    if (p == NULL) { grbgpu_resident_release (r->be, r->buf, r->bytes) ; return GrB_OUT_OF_MEMORY ; }
    pthread_mutex_lock (&lock) ;
    GrB_Info info = grow_locked ( ) ;
    gg_options opt ;
    void *shadow = NULL ;
    size_t shadow_size = 0 ;
    if (info == GrB_SUCCESS) info = grbgpu_storage_options_get (obj, r->is_vector, true, &opt) ;
    if (info == GrB_SUCCESS) take_shadow (obj, r, &shadow, &shadow_size) ;
    if (info == GrB_SUCCESS) info = grbgpu_storage_pack_full (obj, r->is_vector, r->by_col, &p, zsz, true, true) ;
    if (info != GrB_SUCCESS)
    {
        // obj's own values go back (a product C = A*C falls back to the CPU
        // library, which reads them)
        if (shadow != NULL && grbgpu_storage_pack_full (obj, r->is_vector, r->by_col, &shadow, shadow_size, false, true) != GrB_SUCCESS)
        {
            grbgpu_gb_free (shadow) ;
        }
        grbgpu_gb_free (p) ;
        return refused_locked (r, info) ;
    }
    // the pack reset C's options; C is full, which they allow
    // (grbgpu_result_can_stay), so setting them back changes no storage
    options_back (obj, r->is_vector, &opt, false) ;
    // the old device copy of obj (if any) is replaced; its shadow (the array
    // obj had before it first became resident) serves the new one
    gg_entry *old = find (obj) ;
    if (old != NULL && shadow == NULL && old->shadow != NULL && old->shadow_size >= r->bytes)
    {
        shadow = old->shadow ; shadow_size = old->shadow_size ;
        old->shadow = NULL ;
    }
    return installed_locked (obj, r, &opt, shadow, shadow_size) ;
}

bool grbgpu_resident_rebuf (const void *obj, void *old_buf, void *buf)
{
    pthread_mutex_lock (&lock) ;
    gg_entry *e = find (obj) ;
    const bool ok = (e != NULL && e->r.buf == old_buf) ;
    if (ok)
    {
        // the old buffer goes when its last pin does (the caller holds one)
        if (e->pins > 0)
        {
            orphan (e->r.be, old_buf, e->pins, NULL) ;
        }
        else
        {
            e->r.be->res_free (old_buf) ;
        }
        held_bytes -= e->r.bytes ;      // (buf was counted by its alloc)
        e->pins = 0 ;
        e->r.buf = buf ;
        e->stamp = ++clock_stamp ;
    }
    pthread_mutex_unlock (&lock) ;
    return ok ;
}

// a and b have the same placeholder: on the same pattern (the same cache
// entry of the same form, which an entry's reference keeps alive, so a
// pointer cannot come back for another pattern), of one shape and type
static bool same_placeholder (const gg_resident *a, const gg_resident *b)
{
    return a->on_csr == b->on_csr && a->on_rows == b->on_rows && a->csr.cache == b->csr.cache
        && a->csr.cache != NULL && a->nrows == b->nrows && a->ncols == b->ncols
        && a->zt == b->zt && a->nvals == b->nvals && a->pattern == NULL && b->pattern == NULL ;
}

GrB_Info grbgpu_resident_keep_csr (GrB_Matrix obj, const gg_resident *r)
{
    if (r->csr.cache == NULL || r->on_csr == r->on_rows || (r->on_csr && r->nvals != r->csr.nnz))
    {
        grbgpu_resident_release (r->be, r->buf, r->bytes) ;
        return GrB_OUT_OF_MEMORY ;
    }
    pthread_mutex_lock (&lock) ;
    gg_options opt ;
    GrB_Info info = grow_locked ( ) ;
    // obj holds this very placeholder already (kept by a product on the
    // same pattern and not read or changed since: anything else would have
    // materialised it): only the buffer changes.  A bitmap of rows is m x n
    // bytes (537 MB for R-MAT 2^22 x 128), ~57 ms a call to make, fault in
    // and free the old one.
    gg_entry *old = (info == GrB_SUCCESS) ? find (obj) : NULL ;
    if (old != NULL && same_placeholder (&old->r, r))
    {
        opt = old->opt ;
        grbgpu_cache_addref ((gg_cache_entry *) r->csr.cache) ;
        grbgpu_log (2, "resident: %p keeps its placeholder (the same pattern), new values", (void *) obj) ;
        return installed_locked (obj, r, &opt, NULL, 0) ;
    }
    if (info == GrB_SUCCESS) info = grbgpu_storage_options_get (obj, false, true, &opt) ;
    if (info == GrB_SUCCESS) info = grbgpu_res_pack_placeholder (obj, r) ;
    if (info != GrB_SUCCESS) return refused_locked (r, info) ;
    options_back (obj, false, &opt, true) ;
    // (the reference is taken before an old entry of obj, which may hold one
    // to the same form, lets go of its own)
    grbgpu_cache_addref ((gg_cache_entry *) r->csr.cache) ;
    return installed_locked (obj, r, &opt, NULL, 0) ;
}

GrB_Info grbgpu_resident_keep_as_is (GrB_Vector obj, const gg_resident *r)
{
    pthread_mutex_lock (&lock) ;
    gg_options opt ;
    GrB_Info info = grow_locked ( ) ;
    if (info == GrB_SUCCESS) info = grbgpu_storage_options_get ((GrB_Matrix) obj, true, true, &opt) ;
    if (info != GrB_SUCCESS) return refused_locked (r, info) ;
    return installed_locked (obj, r, &opt, NULL, 0) ;
}

size_t grbgpu_resident_bytes (void)
{
    pthread_mutex_lock (&lock) ;
    size_t b = held_bytes ;
    pthread_mutex_unlock (&lock) ;
    return b ;
}

int grbgpu_resident_objects (void)
{
    return atomic_load (&grbgpu_resident_live) ;
}
