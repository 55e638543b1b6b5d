//------------------------------------------------------------------------------
// backend/cuda/multi.c: SpMM / SpMV and SDDMM split by row blocks across slots
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/multi.h).  Y = S (+.*) X with S's rows
// cut into one block per slot, each holding about nnz / nslots entries
// (formats/partition.c); SDDMM, y = (A (+.*) B') on M's pattern, the same with
// M in S's place (its rows cut by its entries), A read by the block's rows
// and B in X's place (all of it on every slot).  Slot s runs on worker s of
// the module's team
// (backend/team.h: threads started at the first split call and kept, each
// with its OpenMP team; the caller hands the jobs over and waits):
//   1. the slot's device made current, one context of the slot's pool
//      (slots.c; made once, kept in the pool between calls);
//   2. the block: rebased row pointers (S's column and value arrays are read
//      from the block's first entry on), kept in a cache entry of its own,
//      keyed (S's handle, S's version, S's form + slot + nslots), so that a
//      change to S drops every slot's entry with the whole operand's, and the
//      block's device form (forms.c; it records its device and is freed
//      there) is attached to that entry;
//   3. X on the slot: the cached device form of X when the slot is on the
//      main device (two slots of one device share it), else X's copy on the
//      slot's device, kept in a cache entry of its own (x_other): made from
//      the main device's copy, peer to peer, when the two devices can reach
//      each other (slots_peer) and X is large enough to gain, else uploaded
//      from the host;
//   4. the product through the family table and chooser (spmm.c), whose rows
//      come down straight into their place in the caller's Y; SDDMM: A's
//      cached form read from the block's first row on (on a device other
//      than the main one: the block's rows of A uploaded for this call), the
//      product through the SDDMM table (dense.c), the block's outputs (a
//      contiguous range of M's entries, from its first row's) straight into
//      their place in y.
// When every slot is done: any failure (a device error, an injected fault,
// out of memory) and the call returns it, each slot having freed what it took
// (its temporaries, its references to forms, its context); the dispatcher
// then asks the CPU library.  Nothing is retried here.

#include "backend/cuda/multi.h"
#include "formats/partition.h"

static _Atomic int fail_slot = -1 ;

int gg_multi_fail_slot (int s)
{
    return atomic_exchange (&fail_slot, s) ;
}

// X smaller than this is uploaded from the host to each slot of another
// device (a peer copy first needs X on the main device, synchronised).
#define GG_PEER_BYTES_MIN ((size_t) 1 << 20)

static gg_team slot_team = GG_TEAM_INIT ;

uint64_t gg_multi_workers (void) { return gg_team_started (&slot_team) ; }

// copies of X from the main device (form_dense.c makes them)
uint64_t gg_multi_peer_copies (void) { return gg_cuda_peer_copies () ; }

//------------------------------------------------------------------------------
// what a slot keeps in the cache: its block of S, X and an SDDMM's rows of A
//------------------------------------------------------------------------------

// The host part of every entry a slot keeps: first the rows it was made for
// (the cut follows S, or M, so an entry keyed by another operand may have
// been made for another cut and is then not used)
typedef struct
{
    int64_t r0, r1 ;        // -1, -1: all of the operand
}
slot_rows ;

typedef void *(*slot_make_fn) (const void *arg, size_t *bytes) ;

// An entry of the cache for what a slot keeps, keyed (the operand's handle,
// the operand's version, its entry's form ^ form): it is dropped when the
// operand changes, as the operand's own entries are.  Its host part, made by
// make (arg) when the entry is new (NULL: out of memory; freed by
// host_free), begins with the slot_rows r0, r1 it was made for.  *entry =
// NULL (nothing kept) when the operand is not cached or the entry was made
// for other rows.  Acquired.
static int slot_entry (const gg_cache_entry *oe, uint64_t form, int64_t r0, int64_t r1,
    slot_make_fn make, const void *arg, void (*host_free) (void *), gg_cache_entry **entry)
{
    *entry = NULL ;
    if (oe == NULL || oe->key.version == 0) return GG_OK ;
    gg_cache_key key = oe->key ;
    key.form ^= form ;
    gg_cache_entry *e = grbgpu_cache_acquire (&key) ;
    if (e == NULL)
    {
        size_t bytes = 0 ;
        void *host = make (arg, &bytes) ;
        if (host == NULL) return GG_ERR_NOMEM ;
        e = grbgpu_cache_insert (&key, host, bytes, host_free) ;
        if (e == NULL) return GG_ERR_NOMEM ;
    }
    const slot_rows *rows = e->host ;
    if (rows == NULL || rows->r0 != r0 || rows->r1 != r1)
    {
        grbgpu_cache_release (e) ;      // made for another cut: not used
        return GG_OK ;
    }
    *entry = e ;
    return GG_OK ;
}

// the host part of an entry that holds a device form only (X, A's rows)
static void *rows_make (const void *arg, size_t *bytes)
{
    slot_rows *rows = grbgpu_fault (GG_FAULT_ALLOC) ? NULL : malloc (sizeof (slot_rows)) ;
    if (rows != NULL) *rows = *(const slot_rows *) arg ;
    *bytes = sizeof (slot_rows) ;
    return rows ;
}

// the block of one slot: its rows of S over rebased row pointers
typedef struct
{
    slot_rows rows ;        // (first: slot_entry reads it)
    size_t pbytes ;
    void *p ;               // rebased row pointers (r1 - r0 + 1)
}
slot_block ;

static void block_free (void *host)
{
    slot_block *b = host ;
    if (b != NULL) free (b->p) ;
    free (b) ;
}

typedef struct { const gg_csr *S ; int64_t r0, r1 ; } block_arg ;

static void *block_new (const void *arg, size_t *bytes)
{
    const block_arg *a = arg ;
    if (grbgpu_fault (GG_FAULT_ALLOC)) return NULL ;
    slot_block *b = calloc (1, sizeof (slot_block)) ;
    if (b == NULL) return NULL ;
    b->rows = (slot_rows) { a->r0, a->r1 } ;
    b->pbytes = (size_t) (a->r1 - a->r0 + 1) * ((a->S->p32 != NULL) ? sizeof (int32_t) : sizeof (int64_t)) ;
    b->p = malloc (b->pbytes) ;
    if (b->p == NULL) { free (b) ; return NULL ; }
    gg_partition_rebase (a->S, a->r0, a->r1, b->p) ;
    *bytes = sizeof (*b) + b->pbytes ;
    return b ;
}

// The slot's block: from its cache entry (*entry acquired) when S is cached,
// else made for this call (*own, freed by the caller).
static int block_get (const gg_csr *S, int slot, int nslots, int64_t r0, int64_t r1,
    gg_cache_entry **entry, slot_block **own, const slot_block **out)
{
    *own = NULL ; *out = NULL ;
    const block_arg arg = { S, r0, r1 } ;
    int rc = slot_entry (S->cache, ((uint64_t) 1 << 40) | ((uint64_t) nslots << 44)
        | ((uint64_t) slot << 52), r0, r1, block_new, &arg, block_free, entry) ;
    if (rc != GG_OK) return rc ;
    if (*entry != NULL)
    {
        *out = (*entry)->host ;
        return GG_OK ;
    }
    size_t bytes ;
    *own = block_new (&arg, &bytes) ;
    if (*own == NULL) return GG_ERR_NOMEM ;
    *out = *own ;
    return GG_OK ;
}

// X's device copy on the slot's device (c's), from a cache entry of its own
// keyed (X's handle, X's version, X's form + the device), so that it stays
// there between calls while X is unchanged (a change to X drops it with X's
// other entries) and counts in that device's account; when X is not cached,
// a copy for this call only.  Made by a peer copy from src (X on the main
// device, complete) or, src NULL, uploaded from the host.  *entry, when set,
// is released by the caller once the call's stream is done.
static int x_other (gg_devcall *c, const gg_dense *X, size_t elem,
    const dev_dense *src, int src_dev, gg_cache_entry **entry, dev_dense **out)
{
    const slot_rows all = { -1, -1 } ;
    int rc = slot_entry (X->cache, ((uint64_t) 1 << 41) | ((uint64_t) c->ctx->device << 56),
        -1, -1, rows_make, &all, free, entry) ;
    if (rc != GG_OK) return rc ;
    return dense_get_from (c, *entry, X, elem, src, src_dev, out) ;
}

//------------------------------------------------------------------------------
// one slot
//------------------------------------------------------------------------------

typedef struct
{
    int device ;
    bool peer ;                 // copy X from the call's xsrc
    int rc ;
    double ms ;                 // the product's time (timing on), else -1
}
slot_job ;

// What every slot of one call reads, and each slot's job.
typedef struct
{
    int nslots, main_device ;
    const int64_t *r ;
    const gg_semiring *sr ;
    const gg_csr *S ;           // spmm: S; sddmm: the pattern M
    const gg_dense *X ;         // read whole by every slot: spmm's X, sddmm's B
    const gg_dense *A ;         // sddmm: A, read by the block's rows; spmm: NULL
    void *Y ;
    const dev_dense *xsrc ;     // X on the main device (peer source) or NULL
    slot_job job [GG_MAX_SLOTS] ;
}
split_call ;

// Slot s of the call (on worker s of the team; on the caller's thread when
// the worker could not be started).
static void slot_run (void *arg, int s)
{
    split_call *sc = arg ;
    slot_job *j = &sc->job [s] ;
    const int64_t r0 = sc->r [s], r1 = sc->r [s+1] ;
    int rc = GG_OK ;
    gg_devcall c = { 0 } ;
    gg_cache_entry *entry = NULL, *xentry = NULL, *aentry = NULL ;
    slot_block *own = NULL ;
    const slot_block *blk = NULL ;
    dev_dense *fx = NULL ;
    j->ms = -1 ;
    if (r1 == r0) { j->rc = GG_OK ; return ; }     // an empty block
    const int64_t e0 = (sc->S->p32 != NULL) ? sc->S->p32 [r0] : sc->S->p64 [r0] ;
    const int64_t e1 = (sc->S->p32 != NULL) ? sc->S->p32 [r1] : sc->S->p64 [r1] ;
    if (sc->A != NULL && e1 == e0) { j->rc = GG_OK ; return ; }   // no outputs
    GG_TRY (gg_cuda_set_device (j->device)) ;
    GG_TRY (slot_ctx_acquire (s, j->device, &c.ctx)) ;
    GG_TRY (block_get (sc->S, s, sc->nslots, r0, r1, &entry, &own, &blk)) ;
    const size_t elem = gg_type_size (sc->sr->type) ;
    gg_csr B, Sv = *sc->S ;
    if (sc->A != NULL) Sv.x = NULL ;        // SDDMM reads M's pattern only
    gg_partition_view (&Sv, r0, r1, blk->p, elem, &B) ;
    B.cache = entry ;
    gg_dense X = *sc->X ;
    if (j->device != sc->main_device)
    {
        // the main device's cached form of X is not this device's: X kept
        // on this device (copied from the main device's, or uploaded)
        if (X.x != NULL) GG_TRY (x_other (&c, sc->X, elem, j->peer ? sc->xsrc : NULL,
            sc->main_device, &xentry, &fx)) ;
        X.cache = NULL ;
    }
    if (sc->A == NULL)
    {
        void *Yb = (char *) sc->Y + (size_t) r0 * (size_t) X.ncols * elem ;
        rc = spmm_attempt_fx (&c, sc->sr, &B, &X, fx, Yb) ;
    }
    else
    {
        // A: on the main device its cached form, read from row r0 on (two
        // slots of one device share it); on another device the block's rows
        // only, uploaded once and kept there while A and the cut are
        // unchanged (slot_entry).  The outputs from M's entry e0 on.
        const int64_t k = sc->A->ncols ;
        gg_dense Ab = *sc->A ;
        int64_t a_row0 = r0 ;
        if (j->device != sc->main_device)
        {
            const slot_rows rows = { r0, r1 } ;
            if (sc->A->x != NULL) GG_TRY (slot_entry (sc->A->cache, ((uint64_t) 1 << 42)
                | ((uint64_t) sc->nslots << 44) | ((uint64_t) s << 52)
                | ((uint64_t) j->device << 56), r0, r1, rows_make, &rows, free, &aentry)) ;
            Ab = (gg_dense) { .nrows = r1 - r0, .ncols = k, .x = (sc->A->x == NULL) ? NULL
                : (const char *) sc->A->x + (size_t) r0 * (size_t) k * elem, .cache = aentry } ;
            a_row0 = 0 ;
        }
        rc = sddmm_attempt_rows (&c, sc->sr, &B, &Ab, a_row0, &X, fx,
            (char *) sc->Y + (size_t) e0 * elem) ;
    }
    fx = NULL ;                             // the attempt took it
    float ms = 0 ;
    if (rc == GG_OK && c.timed && cudaEventElapsedTime (&ms, c.ctx->t0, c.ctx->t1)
        == cudaSuccess) j->ms = ms ;
    if (rc == GG_OK && atomic_load (&fail_slot) == s)
    {
        grbgpu_log (1, "cuda: slot %d: injected failure (test)", s) ;
        rc = GG_ERR_FAULT ;
    }
done:
    if (fx != NULL) dense_unref (fx) ;
    if (c.ctx != NULL)
    {
        // the call's stream finished before its temporaries go (a failed
        // product may have left work queued), then the frees finished too,
        // so that the pool holds nothing of this call when it returns
        stream_finish (&c, &rc) ;
        call_free_tmp (&c) ;
        stream_finish (&c, &rc) ;
        (void) cudaGetLastError () ;
        slot_ctx_release (s, c.ctx) ;
    }
    if (entry != NULL) grbgpu_cache_release (entry) ;
    if (xentry != NULL) grbgpu_cache_release (xentry) ;
    if (aentry != NULL) grbgpu_cache_release (aentry) ;
    block_free (own) ;
    j->rc = rc ;
}

//------------------------------------------------------------------------------
// the split product
//------------------------------------------------------------------------------

// X's device form on the main device, for the peer copies, taken through a
// context of the main pool (runtime.c; never a slot's) and synchronised; the
// caller gives the context back.
static int x_on_main (const gg_semiring *sr, const gg_dense *X, int main_dev,
    gg_devcall *c, dev_dense **out)
{
    int rc = GG_OK ;
    *out = NULL ;
    GG_TRY (gg_cuda_set_device (main_dev)) ;
    GG_TRY (ctx_acquire (&c->ctx)) ;
    GG_TRY (dense_get (c, X, gg_type_size (sr->type), out)) ;
    CU_TRY (cudaStreamSynchronize (c->ctx->stream)) ;
done:
    return rc ;
}

// The split product: spmm (A NULL: Y = S * X) or sddmm (y = (A * X') on S's
// pattern); false when the split path is not taken.
static bool multi_run (const gg_semiring *sr, const gg_csr *S, const gg_dense *A,
    const gg_dense *X, void *Y, int *rc_out)
{
    int dev [GG_MAX_SLOTS] ;
    const gg_settings *set = grbgpu_settings_get () ;
    if (!grbgpu_split_listed (set)) return false ;     // the default
    // S given by its transpose's arrays (gg_csr.transposed): its rows are not
    // the arrays' rows, so no row blocks; one device transposes and multiplies
    // (backend/cuda/form_csrt.c)
    if (S->transposed) return false ;
    if (!gg_cuda_start () || atomic_load (&gg_cuda_broken)) return false ;
    int nslots = slots_resolve (dev) ;
    if (nslots < 2) return false ;

    int old = 0 ;
    if (cudaGetDevice (&old) != cudaSuccess) { (void) cudaGetLastError () ; old = gg_cuda_dev_id ; }
    int64_t r [GG_MAX_SLOTS + 1] ;
    // an SpMM's cut may weigh rows too (their download: GRBGPU_SPLIT_ROW_WEIGHT)
    gg_partition_rows_w (S, nslots, grbgpu_split_row_weight (A != NULL, X->ncols), r) ;
    int rc = GG_OK ;
    split_call sc = { .nslots = nslots, .main_device = gg_cuda_dev_id, .r = r,
        .sr = sr, .S = S, .X = X, .A = A, .Y = Y } ;

    // slots of other devices copy X from the main device when they can reach
    // it and X is large enough; X is put there first (else they upload it)
    const size_t xbytes = (size_t) X->nrows * (size_t) X->ncols * gg_type_size (sr->type) ;
    bool any_peer = false ;
    for (int s = 0 ; s < nslots ; s++)
    {
        sc.job [s] = (slot_job) { .device = dev [s], .rc = GG_OK, .ms = -1 } ;
        if (dev [s] != gg_cuda_dev_id && r [s+1] > r [s] && X->x != NULL
            && xbytes >= GG_PEER_BYTES_MIN && slots_peer (dev [s], gg_cuda_dev_id))
        {
            sc.job [s].peer = any_peer = true ;
        }
    }
    gg_devcall c0 = { 0 } ;
    dev_dense *xsrc = NULL ;
    if (any_peer && x_on_main (sr, X, gg_cuda_dev_id, &c0, &xsrc) != GG_OK)
    {
        // each slot uploads X from the host
        for (int s = 0 ; s < nslots ; s++) sc.job [s].peer = false ;
        dense_unref (xsrc) ;
        xsrc = NULL ;
    }
    sc.xsrc = xsrc ;

    int made = gg_team_run (&slot_team, nslots, slot_run, &sc) ;
    if (made > 0) grbgpu_count (GG_STAT_SPLIT_WORKERS, (uint64_t) made) ;
    double ms = -1 ;
    for (int s = 0 ; s < nslots ; s++)
    {
        if (sc.job [s].rc != GG_OK && rc == GG_OK) rc = sc.job [s].rc ;
        if (sc.job [s].ms > ms) ms = sc.job [s].ms ;
    }
    dense_unref (xsrc) ;
    if (c0.ctx != NULL) ctx_release (c0.ctx) ;
    CU_LOG (cudaSetDevice (old)) ;
    gg_cuda_last_ms = (rc == GG_OK) ? ms : -1 ;
    const char *what = (A == NULL) ? "spmm" : "sddmm" ;
    if (rc == GG_OK)
    {
        grbgpu_count (GG_STAT_SPLIT, 1) ;
        grbgpu_log (2, "cuda: %s %lldx%lld %s=%lld split over %d slots (rows %lld | %lld ...)",
            what, (long long) S->nrows, (long long) S->ncols, (A == NULL) ? "n" : "k",
            (long long) X->ncols, nslots, (long long) r [1], (long long) (r [2] - r [1])) ;
    }
    else
    {
        grbgpu_log (1, "cuda: split %s failed (%d) on a slot; all slots freed", what, rc) ;
    }
    *rc_out = rc ;
    return true ;
}

bool multi_spmm (const gg_semiring *sr, const gg_csr *S, const gg_dense *X,
    void *Y, int *rc_out)
{
    return multi_run (sr, S, NULL, X, Y, rc_out) ;
}

bool multi_sddmm (const gg_semiring *sr, const gg_csr *M, const gg_dense *A,
    const gg_dense *B, void *y, int *rc_out)
{
    return multi_run (sr, M, A, B, y, rc_out) ;
}
