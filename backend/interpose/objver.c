//------------------------------------------------------------------------------
// backend/interpose/objver.c: a version per GrB_Matrix / GrB_Vector handle
//------------------------------------------------------------------------------

// The wrappers in backend/interpose/objver_wrappers.c (and
// backend/interpose/interpose.c for the products) call grbgpu_objver_bump after
// every call that changes an object, and grbgpu_objver_drop when it is freed.
// The cache (backend/cache/cache.c) keys converted operands on (handle,
// version), so a version must never be handed out twice for the same handle,
// not even after the handle is freed and its address is given to a new object.
// This file does not call the cache: the cache registers its invalidation as
// the change hook (backend/interpose/objver.h) before it marks any handle.
//
// Versions: one global atomic counter, taken by each thread in blocks of
// GG_VERSION_BLOCK (so the common bump costs no shared write).  Every version
// comes from the counter exactly once, so (handle, version) pairs are never
// reused; versions of one handle are unique, not necessarily increasing.
//
// Table: GG_NSTRIPES independent open-addressing hash tables (linear probing,
// tombstones), each behind its own spin lock; the handle's hash picks the
// stripe.  A slot holds (handle, version << 1 | cached), where `cached` says
// that the cache may hold entries of this handle: a bump or drop calls the
// change hook (the cache's invalidation) only then (most objects are never
// cached, and SuiteSparse frees many temporaries through GrB_Matrix_free).
//
// The race between a cache insert and a bump is closed by
// grbgpu_objver_mark_cached (called by the cache after it links an entry):
// it sets the flag only if the entry's version is still current; otherwise
// the cache unlinks the entry itself.  Either the bump sees the flag, or the
// insert sees the new version.
//
// Unknown handles (objects created inside SuiteSparse and freed through the
// public GrB_Matrix_free, say) are tolerated: get returns 0 (never cached),
// drop does nothing, bump starts tracking them.

#include <sched.h>
#include <stdlib.h>

#include "backend/interpose/objver.h"

#define GG_NSTRIPES 256             // a power of 2
#define GG_VERSION_BLOCK 1024       // versions a thread takes at a time
#define GG_MIN_SLOTS 16             // smallest table of a stripe

// a freed slot (never a valid handle: handles are malloc'ed and aligned)
#define GG_TOMBSTONE ((const void *) (uintptr_t) 1)

typedef struct
{
    const void *key ;           // NULL: empty, GG_TOMBSTONE: deleted
    uint64_t val ;              // version << 1 | cached
}
gg_slot ;

typedef struct
{
    atomic_int lock ;           // 0: free, 1: held
    uint32_t mask ;             // number of slots - 1 (0 when slots is NULL)
    uint32_t used ;             // live slots
    uint32_t filled ;           // live + tombstones
    gg_slot *slots ;
}
gg_stripe ;

// one cache line per stripe, so that threads on different stripes do not
// share lines
typedef union
{
    gg_stripe s ;
    char pad [64] ;
}
gg_stripe_line ;

static gg_stripe_line stripes [GG_NSTRIPES] __attribute__ ((aligned (64))) ;

// The version counter (starts at 1: 0 means "unknown").
static atomic_uint_fast64_t version_counter = 1 ;

// This thread's block of versions [next, end).
static __thread uint64_t tl_next __attribute__ ((tls_model ("initial-exec"))) ;
static __thread uint64_t tl_end __attribute__ ((tls_model ("initial-exec"))) ;

// Called when a marked handle changes or is freed (the cache's invalidation).
static _Atomic (gg_objver_hook) change_hook = NULL ;

//------------------------------------------------------------------------------
// helpers
//------------------------------------------------------------------------------

// murmur3's 64-bit finalizer: handles differ in a few middle bits only
static inline uint64_t hash_handle (const void *handle)
{
    uint64_t h = (uint64_t) (uintptr_t) handle ;
    h ^= h >> 33 ;
    h *= 0xff51afd7ed558ccdULL ;
    h ^= h >> 33 ;
    h *= 0xc4ceb9fe1a85ec53ULL ;
    h ^= h >> 33 ;
    return h ;
}

static inline uint64_t new_version (void)
{
    if (__builtin_expect (tl_next == tl_end, 0))
    {
        tl_next = atomic_fetch_add_explicit (&version_counter,
            GG_VERSION_BLOCK, memory_order_relaxed) ;
        tl_end = tl_next + GG_VERSION_BLOCK ;
    }
    return tl_next++ ;
}

static inline void cpu_relax (void)
{
#if defined (__x86_64__) || defined (__i386__)
    __builtin_ia32_pause ( ) ;
#elif defined (__aarch64__)
    __asm__ __volatile__ ("yield") ;
#endif
}

static inline void stripe_lock (gg_stripe *s)
{
    int spins = 0 ;
    while (atomic_exchange_explicit (&s->lock, 1, memory_order_acquire))
    {
        // test before the next exchange; yield when the holder is slow
        // (descheduled, or growing its table)
        while (atomic_load_explicit (&s->lock, memory_order_relaxed))
        {
            if (++spins < 128) cpu_relax ( ) ;
            else sched_yield ( ) ;
        }
    }
}

static inline void stripe_unlock (gg_stripe *s)
{
    atomic_store_explicit (&s->lock, 0, memory_order_release) ;
}

static inline gg_stripe *stripe_of (uint64_t h)
{
    return &stripes [h & (GG_NSTRIPES - 1)].s ;
}

// The slot of handle in s, or NULL.  (The low bits of h picked the stripe;
// the slot index uses the next ones.)
static inline gg_slot *slot_find (gg_stripe *s, const void *handle,
    uint64_t h)
{
    if (s->slots == NULL) return NULL ;
    uint32_t k = (uint32_t) (h >> 8) & s->mask ;
    for ( ; ; k = (k + 1) & s->mask)
    {
        const void *key = s->slots [k].key ;
        if (key == handle) return &s->slots [k] ;
        if (key == NULL) return NULL ;
    }
}

// Rebuild s's table with room for its live slots (drops tombstones).
// Returns false when out of memory (s unchanged).
static bool stripe_rehash (gg_stripe *s)
{
    uint64_t nslots = GG_MIN_SLOTS ;
    while (nslots < 4 * ((uint64_t) s->used + 1)) nslots *= 2 ;
    if (nslots > ((uint64_t) 1 << 31)) return false ;
    gg_slot *slots = calloc (nslots, sizeof (gg_slot)) ;
    if (slots == NULL) return false ;
    uint32_t mask = (uint32_t) (nslots - 1) ;
    for (uint64_t k = 0 ; s->slots != NULL && k <= s->mask ; k++)
    {
        const void *key = s->slots [k].key ;
        if (key == NULL || key == GG_TOMBSTONE) continue ;
        uint32_t j = (uint32_t) (hash_handle (key) >> 8) & mask ;
        while (slots [j].key != NULL) j = (j + 1) & mask ;
        slots [j] = s->slots [k] ;
    }
    free (s->slots) ;
    s->slots = slots ;
    s->mask = mask ;
    s->filled = s->used ;
    return true ;
}

// The slot of handle in s, inserted (val 0) if absent; NULL if out of memory.
static gg_slot *slot_find_or_insert (gg_stripe *s, const void *handle,
    uint64_t h)
{
    gg_slot *slot = slot_find (s, handle, h) ;
    if (slot != NULL) return slot ;
    // keep the load (tombstones included) at most 1/2
    if (s->slots == NULL || 2 * ((uint64_t) s->filled + 1) > (uint64_t) s->mask + 1)
    {
        if (!stripe_rehash (s)) return NULL ;
    }
    uint32_t k = (uint32_t) (h >> 8) & s->mask ;
    while (s->slots [k].key != NULL && s->slots [k].key != GG_TOMBSTONE)
    {
        k = (k + 1) & s->mask ;
    }
    if (s->slots [k].key == NULL) s->filled++ ;
    s->used++ ;
    s->slots [k].key = handle ;
    s->slots [k].val = 0 ;
    return &s->slots [k] ;
}

// Tell the watcher that handle changed or was freed.  (A marked slot was
// marked after the hook was registered, and under the stripe lock this
// thread took since: the hook is seen.)
static void changed (const void *handle)
{
    gg_objver_hook hook = atomic_load_explicit (&change_hook,
        memory_order_acquire) ;
    if (hook != NULL) hook (handle) ;
}

//------------------------------------------------------------------------------
// grbgpu_objver_on_change: register the watcher (the cache)
//------------------------------------------------------------------------------

void grbgpu_objver_on_change (gg_objver_hook hook)
{
    atomic_store_explicit (&change_hook, hook, memory_order_release) ;
}

//------------------------------------------------------------------------------
// grbgpu_objver_get: the current version of handle (0: unknown)
//------------------------------------------------------------------------------

uint64_t grbgpu_objver_get (const void *handle)
{
    if (handle == NULL) return 0 ;
    uint64_t h = hash_handle (handle) ;
    gg_stripe *s = stripe_of (h) ;
    stripe_lock (s) ;
    gg_slot *slot = slot_find (s, handle, h) ;
    uint64_t version = (slot == NULL) ? 0 : (slot->val >> 1) ;
    stripe_unlock (s) ;
    return version ;
}

//------------------------------------------------------------------------------
// grbgpu_objver_bump: handle changed (or is new): give it a fresh version
//------------------------------------------------------------------------------

void grbgpu_objver_bump (const void *handle)
{
    if (handle == NULL) return ;
    uint64_t version = new_version ( ) ;
    uint64_t h = hash_handle (handle) ;
    gg_stripe *s = stripe_of (h) ;
    stripe_lock (s) ;
    gg_slot *slot = slot_find_or_insert (s, handle, h) ;
    uint64_t old = 0 ;
    if (slot != NULL)
    {
        old = slot->val ;
        slot->val = version << 1 ;
    }
    // else: out of memory for a handle never seen: it stays unknown (version
    // 0, never cached), which is safe
    stripe_unlock (s) ;
    // entries of the old version can never be hit again: free them now
    if (old & 1) changed (handle) ;
}

//------------------------------------------------------------------------------
// grbgpu_objver_drop: handle was freed
//------------------------------------------------------------------------------

void grbgpu_objver_drop (const void *handle)
{
    if (handle == NULL) return ;
    uint64_t h = hash_handle (handle) ;
    gg_stripe *s = stripe_of (h) ;
    stripe_lock (s) ;
    gg_slot *slot = slot_find (s, handle, h) ;
    uint64_t old = 0 ;
    if (slot != NULL)
    {
        old = slot->val ;
        slot->key = GG_TOMBSTONE ;
        slot->val = 0 ;
        s->used-- ;
    }
    stripe_unlock (s) ;
    if (old & 1) changed (handle) ;
}

//------------------------------------------------------------------------------
// grbgpu_objver_mark_cached: the cache linked an entry of (handle, version)
//------------------------------------------------------------------------------

// Returns true (and remembers that handle has cache entries) when version is
// still handle's current version; false when it is not (the object changed or
// was freed meanwhile: the caller must unlink its entry).  See objver.h.
bool grbgpu_objver_mark_cached (const void *handle, uint64_t version)
{
    if (handle == NULL || version == 0) return false ;
    uint64_t h = hash_handle (handle) ;
    gg_stripe *s = stripe_of (h) ;
    stripe_lock (s) ;
    gg_slot *slot = slot_find (s, handle, h) ;
    bool current = (slot != NULL && (slot->val >> 1) == version) ;
    if (current) slot->val |= 1 ;
    stripe_unlock (s) ;
    return current ;
}

//------------------------------------------------------------------------------
// grbgpu_objver_live: number of handles tracked (for tests)
//------------------------------------------------------------------------------

size_t grbgpu_objver_live (void)
{
    size_t n = 0 ;
    for (int k = 0 ; k < GG_NSTRIPES ; k++)
    {
        gg_stripe *s = &stripes [k].s ;
        stripe_lock (s) ;
        n += s->used ;
        stripe_unlock (s) ;
    }
    return n ;
}

//------------------------------------------------------------------------------
// release the tables at exit (so that leak checkers see nothing)
//------------------------------------------------------------------------------

// A wrapper called after this (from another library's destructor) simply
// starts a new table.
__attribute__ ((destructor)) static void objver_fini (void)
{
    for (int k = 0 ; k < GG_NSTRIPES ; k++)
    {
        gg_stripe *s = &stripes [k].s ;
        stripe_lock (s) ;
        free (s->slots) ;
        s->slots = NULL ;
        s->mask = 0 ;
        s->used = 0 ;
        s->filled = 0 ;
        stripe_unlock (s) ;
    }
}
