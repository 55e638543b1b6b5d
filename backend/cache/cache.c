//------------------------------------------------------------------------------
// backend/cache/cache.c: converted operands, keyed by (handle, version, form)
//------------------------------------------------------------------------------

// The contract is in backend/cache/cache.h.  How it is kept:
//
//  - One mutex (`cache_mutex`) guards the table, the LRU list, every entry's
//    bookkeeping (refcount, linked, last_use) and the byte totals.  Cache
//    operations happen a few times per product, not per element, so one lock
//    is plenty; the payloads are built and freed outside it.
//  - Buckets are chosen by the handle alone, so all entries of a handle share
//    one chain and grbgpu_cache_invalidate walks only that chain.
//  - Each entry sits in a private node with LRU links (most recent at the
//    head).  Only linked entries are on the list.
//  - Lifetime: a linked entry is owned by the table; each acquire adds a
//    reference.  Eviction and invalidation unlink; an unlinked entry is freed
//    when its last reference goes (at once if it has none).
//  - Host budget: grbgpu_settings.cache_bytes, read at every insert and
//    release.  Bytes of every live entry (linked, or unlinked but held) count.
//    Eviction takes least recently used entries that nobody holds; entries in
//    use are skipped (unlinking them would free nothing now).
//  - Device copies: attached by a device backend under e->lock and accounted
//    with grbgpu_cache_account_device (e, bytes), which sets e->dev_bytes and
//    replaces whatever was accounted for e before (a backend that frees its
//    copy itself accounts 0).  The cache keeps its own count of what it
//    accounted, so it never reads e->dev without e->lock.  Evicting another entry's device copy
//    takes that entry's lock with trylock (a busy lock means the copy is in
//    use), detaches it, and frees it after the cache mutex is released.
//  - Versions: an entry is linked only while its version is the handle's
//    current one (grbgpu_objver_mark_cached, see backend/interpose/objver.h),
//    so a bump or free always finds and drops it: at its first insert the
//    cache registers grbgpu_cache_invalidate as objver's change hook (objver
//    does not call the cache itself).

#include <stdlib.h>
#include <string.h>

#include "backend/cache/cache.h"
#include "backend/interpose/objver.h"

typedef struct gg_cache_node gg_cache_node ;
struct gg_cache_node
{
    gg_cache_entry e ;              // first: a gg_cache_entry * is a node *
    gg_cache_node *lru_prev ;       // towards the most recently used
    gg_cache_node *lru_next ;       // towards the least recently used
    size_t dev_accounted ;          // device bytes counted in dev_total
                                    // (cache_mutex; e.dev_bytes is the
                                    // backend's, under e.lock)
    int dev_device ;                // the device they are on (account index)
} ;

static pthread_mutex_t cache_mutex = PTHREAD_MUTEX_INITIALIZER ;
static gg_cache_entry **buckets = NULL ;
static size_t nbuckets = 0 ;        // a power of 2 (0 before the first insert)
static size_t nlinked = 0 ;
static gg_cache_node *lru_head = NULL ;     // most recently used
static gg_cache_node *lru_tail = NULL ;     // least recently used
static uint64_t use_clock = 0 ;
static size_t host_total = 0 ;      // bytes of host forms of live entries
static size_t dev_total = 0 ;       // bytes of device forms of live entries
// per device (ids past the last share its account): bytes and budget (0:
// not set, no limit)
static size_t dev_on [GG_MAX_DEVICES] ;
static size_t dev_budget [GG_MAX_DEVICES] ;

static inline int dev_index (int device)
{
    return (device < 0) ? 0 : (device >= GG_MAX_DEVICES) ? GG_MAX_DEVICES - 1 : device ;
}

// Take node's accounted device bytes out of the totals.
static void dev_unaccount (gg_cache_node *node)
{
    dev_total -= node->dev_accounted ;
    dev_on [node->dev_device] -= node->dev_accounted ;
    node->dev_accounted = 0 ;
}

// a device copy detached under the mutex, freed after it
typedef struct
{
    void *dev ;
    void (*dev_free) (void *) ;
}
gg_dev_victim ;

//------------------------------------------------------------------------------
// helpers (all with cache_mutex held unless said otherwise)
//------------------------------------------------------------------------------

static inline size_t bucket_of (const void *handle)
{
    uint64_t h = (uint64_t) (uintptr_t) handle ;
    h ^= h >> 31 ;
    h *= 0x9e3779b97f4a7c15ULL ;
    return (size_t) (h >> 32) & (nbuckets - 1) ;
}

static inline bool key_equal (const gg_cache_key *a, const gg_cache_key *b)
{
    return a->handle == b->handle && a->version == b->version
        && a->form == b->form ;
}

static gg_cache_entry *table_find (const gg_cache_key *key)
{
    if (nbuckets == 0) return NULL ;
    for (gg_cache_entry *e = buckets [bucket_of (key->handle)] ; e != NULL ;
        e = e->next_in_bucket)
    {
        if (key_equal (&e->key, key)) return e ;
    }
    return NULL ;
}

static void lru_unlink (gg_cache_node *n)
{
    if (n->lru_prev) n->lru_prev->lru_next = n->lru_next ;
    else lru_head = n->lru_next ;
    if (n->lru_next) n->lru_next->lru_prev = n->lru_prev ;
    else lru_tail = n->lru_prev ;
    n->lru_prev = n->lru_next = NULL ;
}

static void lru_push_front (gg_cache_node *n)
{
    n->lru_prev = NULL ;
    n->lru_next = lru_head ;
    if (lru_head) lru_head->lru_prev = n ;
    lru_head = n ;
    if (lru_tail == NULL) lru_tail = n ;
}

static void touch (gg_cache_entry *e)
{
    e->last_use = ++use_clock ;
    gg_cache_node *n = (gg_cache_node *) e ;
    if (e->linked && lru_head != n)
    {
        lru_unlink (n) ;
        lru_push_front (n) ;
    }
}

// Double the buckets when the chains get long.  Failure only means longer
// chains.
static void table_grow (void)
{
    size_t nb = (nbuckets == 0) ? 256 : 2 * nbuckets ;
    gg_cache_entry **b = calloc (nb, sizeof (gg_cache_entry *)) ;
    if (b == NULL) return ;
    gg_cache_entry **old = buckets ;
    size_t nold = nbuckets ;
    buckets = b ;
    nbuckets = nb ;
    for (size_t k = 0 ; k < nold ; k++)
    {
        gg_cache_entry *e = old [k] ;
        while (e != NULL)
        {
            gg_cache_entry *next = e->next_in_bucket ;
            size_t j = bucket_of (e->key.handle) ;
            e->next_in_bucket = buckets [j] ;
            buckets [j] = e ;
            e = next ;
        }
    }
    free (old) ;
}

// Put e in the table (e->key not present).  False if there is no table.
static bool table_link (gg_cache_entry *e)
{
    if (nbuckets == 0 || nlinked >= 2 * nbuckets) table_grow ( ) ;
    if (nbuckets == 0) return false ;
    size_t j = bucket_of (e->key.handle) ;
    e->next_in_bucket = buckets [j] ;
    buckets [j] = e ;
    e->linked = 1 ;
    nlinked++ ;
    lru_push_front ((gg_cache_node *) e) ;
    return true ;
}

// Take e out of the table and the LRU list.  Returns true when e should now
// be freed (nobody holds it).
static bool table_unlink (gg_cache_entry *e)
{
    gg_cache_entry **pp = &buckets [bucket_of (e->key.handle)] ;
    while (*pp != e) pp = &(*pp)->next_in_bucket ;
    *pp = e->next_in_bucket ;
    e->next_in_bucket = NULL ;
    e->linked = 0 ;
    nlinked-- ;
    lru_unlink ((gg_cache_node *) e) ;
    return e->refcount == 0 ;
}

// Subtract e's bytes from the totals (the entry is about to be freed).
static void forget_bytes (gg_cache_entry *e)
{
    host_total -= e->host_bytes ;
    dev_unaccount ((gg_cache_node *) e) ;
}

// Free an unlinked entry nobody holds (without cache_mutex: the payload's
// free functions may be slow, and nobody else can reach e any more).
static void entry_free (gg_cache_entry *e)
{
    if (e->host != NULL && e->host_free != NULL) e->host_free (e->host) ;
    if (e->dev != NULL && e->dev_free != NULL) e->dev_free (e->dev) ;
    pthread_mutex_destroy (&e->lock) ;
    free (e) ;
}

// A list of entries to free once the mutex is released, threaded through
// next_in_bucket (which unlinked entries no longer use).
static void defer_free (gg_cache_entry **list, gg_cache_entry *e)
{
    forget_bytes (e) ;
    e->next_in_bucket = *list ;
    *list = e ;
}

static void free_list (gg_cache_entry *list)
{
    while (list != NULL)
    {
        gg_cache_entry *next = list->next_in_bucket ;
        entry_free (list) ;
        list = next ;
    }
}

static size_t host_budget (void)
{
    return (size_t) grbgpu_settings.cache_bytes ;
}

// Evict unheld entries, least recently used first, until the host forms fit
// in the budget.  Returns the victims to free.
static gg_cache_entry *evict_host (size_t budget)
{
    gg_cache_entry *victims = NULL ;
    uint64_t n = 0 ;
    gg_cache_node *node = lru_tail ;
    while (host_total > budget && node != NULL)
    {
        gg_cache_node *prev = node->lru_prev ;
        if (node->e.refcount == 0)
        {
            table_unlink (&node->e) ;
            defer_free (&victims, &node->e) ;
            n++ ;
        }
        node = prev ;
    }
    if (n > 0) grbgpu_count (GG_STAT_CACHE_EVICTIONS, n) ;
    return victims ;
}

// Detach device copies on `device` (< 0: any device) of entries other than
// `keep`, least recently used first (first pass: entries nobody holds;
// second pass: any whose lock is free), until that device's bytes (all
// devices' for < 0) are at most target.  The copies go to victims[] (at most
// max); returns how many.
static size_t evict_device_copies (int device, size_t target,
    const gg_cache_entry *keep, gg_dev_victim *victims, size_t max, size_t *freed)
{
    size_t nv = 0 ;
    const size_t *held = (device < 0) ? &dev_total : &dev_on [dev_index (device)] ;
    for (int pass = 0 ; pass < 2 ; pass++)
    {
        for (gg_cache_node *node = lru_tail ;
            node != NULL && *held > target && nv < max ;
            node = node->lru_prev)
        {
            gg_cache_entry *e = &node->e ;
            // dev_accounted is guarded by cache_mutex, e->dev by e->lock
            if (e == keep || node->dev_accounted == 0) continue ;
            if (device >= 0 && node->dev_device != dev_index (device)) continue ;
            if (pass == 0 && e->refcount > 0) continue ;
            if (pthread_mutex_trylock (&e->lock) != 0) continue ;
            {
                victims [nv].dev = e->dev ;
                victims [nv].dev_free = e->dev_free ;
                nv++ ;
                *freed += node->dev_accounted ;
                dev_unaccount (node) ;
                e->dev = NULL ;
                e->dev_bytes = 0 ;
                e->dev_free = NULL ;
            }
            pthread_mutex_unlock (&e->lock) ;
        }
    }
    if (nv > 0) grbgpu_count (GG_STAT_CACHE_EVICTIONS, nv) ;
    return nv ;
}

static void free_dev_victims (gg_dev_victim *victims, size_t nv)
{
    for (size_t k = 0 ; k < nv ; k++)
    {
        if (victims [k].dev != NULL && victims [k].dev_free != NULL)
        {
            victims [k].dev_free (victims [k].dev) ;
        }
    }
}

//------------------------------------------------------------------------------
// grbgpu_cache_acquire
//------------------------------------------------------------------------------

// Shared by acquire (which counts a hit or a miss) and peek (which does not).
static gg_cache_entry *cache_lookup (const gg_cache_key *key)
{
    gg_cache_entry *e = NULL ;
    if (key != NULL && key->version != 0)
    {
        pthread_mutex_lock (&cache_mutex) ;
        e = table_find (key) ;
        if (e != NULL)
        {
            e->refcount++ ;
            touch (e) ;
        }
        pthread_mutex_unlock (&cache_mutex) ;
    }
    return e ;
}

gg_cache_entry *grbgpu_cache_acquire (const gg_cache_key *key)
{
    gg_cache_entry *e = cache_lookup (key) ;
    grbgpu_count (e ? GG_STAT_CACHE_HITS : GG_STAT_CACHE_MISSES, 1) ;
    return e ;
}

gg_cache_entry *grbgpu_cache_peek (const gg_cache_key *key)
{
    return cache_lookup (key) ;
}

//------------------------------------------------------------------------------
// grbgpu_cache_insert
//------------------------------------------------------------------------------

// A marked handle's bump or free drops its entries (objver.h)
static pthread_once_t hook_once = PTHREAD_ONCE_INIT ;

static void hook_register (void)
{
    grbgpu_objver_on_change (grbgpu_cache_invalidate) ;
}

gg_cache_entry *grbgpu_cache_insert (const gg_cache_key *key, void *host,
    size_t host_bytes, void (*host_free) (void *))
{
    pthread_once (&hook_once, hook_register) ;  // before any mark_cached
    gg_cache_node *node = calloc (1, sizeof (gg_cache_node)) ;
    if (node == NULL || key == NULL)
    {
        free (node) ;
        if (host != NULL && host_free != NULL) host_free (host) ;
        return NULL ;
    }
    gg_cache_entry *e = &node->e ;
    e->key = *key ;
    e->host = host ;
    e->host_bytes = host_bytes ;
    e->host_free = host_free ;
    pthread_mutex_init (&e->lock, NULL) ;
    e->refcount = 1 ;

    grbgpu_settings_init ( ) ;
    size_t budget = host_budget ( ) ;
    gg_cache_entry *victims = NULL ;
    bool want_link = (key->version != 0 && host_bytes <= budget) ;

    pthread_mutex_lock (&cache_mutex) ;
    if (want_link)
    {
        gg_cache_entry *old = table_find (key) ;
        if (old != NULL)
        {
            // another thread built it meanwhile: use theirs
            old->refcount++ ;
            touch (old) ;
            pthread_mutex_unlock (&cache_mutex) ;
            entry_free (e) ;
            return old ;
        }
    }
    host_total += host_bytes ;
    e->last_use = ++use_clock ;
    bool linked = want_link && table_link (e) ;
    if (linked) victims = evict_host (budget) ;
    pthread_mutex_unlock (&cache_mutex) ;
    free_list (victims) ;

    // link only while the version is current (see backend/interpose/objver.c);
    // if it is not, the object changed meanwhile and the entry can never be hit
    if (linked && !grbgpu_objver_mark_cached (key->handle, key->version))
    {
        pthread_mutex_lock (&cache_mutex) ;
        if (e->linked) table_unlink (e) ;   // refcount >= 1: not freed here
        pthread_mutex_unlock (&cache_mutex) ;
        grbgpu_count (GG_STAT_CACHE_INVALIDATIONS, 1) ;
    }
    return e ;
}

//------------------------------------------------------------------------------
// grbgpu_cache_release
//------------------------------------------------------------------------------

void grbgpu_cache_addref (gg_cache_entry *e)
{
    pthread_mutex_lock (&cache_mutex) ;
    e->refcount++ ;
    pthread_mutex_unlock (&cache_mutex) ;
}

void grbgpu_cache_release (gg_cache_entry *e)
{
    if (e == NULL) return ;
    gg_cache_entry *victims = NULL ;
    pthread_mutex_lock (&cache_mutex) ;
    e->refcount-- ;
    if (e->refcount == 0 && !e->linked)
    {
        defer_free (&victims, e) ;
    }
    else if (e->refcount == 0)
    {
        // entries skipped by eviction while held may now go
        size_t budget = host_budget ( ) ;
        if (host_total > budget) victims = evict_host (budget) ;
    }
    pthread_mutex_unlock (&cache_mutex) ;
    free_list (victims) ;
}

//------------------------------------------------------------------------------
// grbgpu_cache_invalidate
//------------------------------------------------------------------------------

void grbgpu_cache_invalidate (const void *handle)
{
    gg_cache_entry *victims = NULL ;
    uint64_t n = 0 ;
    pthread_mutex_lock (&cache_mutex) ;
    if (nbuckets > 0)
    {
        gg_cache_entry *e = buckets [bucket_of (handle)] ;
        while (e != NULL)
        {
            gg_cache_entry *next = e->next_in_bucket ;
            if (e->key.handle == handle)
            {
                n++ ;
                if (table_unlink (e)) defer_free (&victims, e) ;
            }
            e = next ;
        }
    }
    pthread_mutex_unlock (&cache_mutex) ;
    free_list (victims) ;
    if (n > 0) grbgpu_count (GG_STAT_CACHE_INVALIDATIONS, n) ;
}

//------------------------------------------------------------------------------
// device copies
//------------------------------------------------------------------------------

size_t grbgpu_cache_evict_device (int device, size_t bytes)
{
    gg_dev_victim victims [64] ;
    size_t freed = 0 ;
    for ( ; ; )
    {
        pthread_mutex_lock (&cache_mutex) ;
        size_t held = (device < 0) ? dev_total : dev_on [dev_index (device)] ;
        size_t target = (held > bytes - freed) ? held - (bytes - freed) : 0 ;
        size_t nv = evict_device_copies (device, target, NULL, victims, 64, &freed) ;
        pthread_mutex_unlock (&cache_mutex) ;
        free_dev_victims (victims, nv) ;
        if (nv < 64 || freed >= bytes) break ;      // nothing more to take
    }
    return freed ;
}

void grbgpu_cache_account_device (gg_cache_entry *e, int device, size_t bytes)
{
    if (e == NULL) return ;
    gg_dev_victim victims [64] ;
    size_t freed = 0 ;
    const int d = dev_index (device) ;
    pthread_mutex_lock (&cache_mutex) ;
    gg_cache_node *node = (gg_cache_node *) e ;
    dev_unaccount (node) ;
    node->dev_device = d ;
    node->dev_accounted = bytes ;
    dev_total += bytes ;
    dev_on [d] += bytes ;
    e->dev_bytes = bytes ;          // the caller holds e->lock
    // 64 victims at a time, until the budget holds: more small copies than
    // that may stand before the ones whose room is needed (they did: a
    // test's 128 small cached masks left the budget exceeded and the next
    // older copy in place)
    for ( ; ; )
    {
        const size_t nv = (dev_budget [d] > 0 && dev_on [d] > dev_budget [d])
            ? evict_device_copies (d, dev_budget [d], e, victims, 64, &freed) : 0 ;
        pthread_mutex_unlock (&cache_mutex) ;
        free_dev_victims (victims, nv) ;
        if (nv < 64) break ;
        pthread_mutex_lock (&cache_mutex) ;
    }
}

void grbgpu_cache_set_device_budget (int device, size_t bytes)
{
    pthread_mutex_lock (&cache_mutex) ;
    if (device < 0) for (int d = 0 ; d < GG_MAX_DEVICES ; d++) dev_budget [d] = bytes ;
    else dev_budget [dev_index (device)] = bytes ;
    pthread_mutex_unlock (&cache_mutex) ;
}

size_t grbgpu_cache_device_usage (int device)
{
    pthread_mutex_lock (&cache_mutex) ;
    size_t b = (device < 0) ? dev_total : dev_on [dev_index (device)] ;
    pthread_mutex_unlock (&cache_mutex) ;
    return b ;
}

//------------------------------------------------------------------------------
// grbgpu_cache_clear, grbgpu_cache_usage
//------------------------------------------------------------------------------

void grbgpu_cache_clear (void)
{
    gg_cache_entry *victims = NULL ;
    pthread_mutex_lock (&cache_mutex) ;
    while (lru_head != NULL)
    {
        gg_cache_entry *e = &lru_head->e ;
        if (table_unlink (e)) defer_free (&victims, e) ;
    }
    free (buckets) ;
    buckets = NULL ;
    nbuckets = 0 ;
    pthread_mutex_unlock (&cache_mutex) ;
    free_list (victims) ;
}

void grbgpu_cache_usage (size_t *host_bytes, size_t *dev_bytes)
{
    pthread_mutex_lock (&cache_mutex) ;
    if (host_bytes) *host_bytes = host_total ;
    if (dev_bytes) *dev_bytes = dev_total ;
    pthread_mutex_unlock (&cache_mutex) ;
}

// Free every cached form at exit.  Device forms are freed too: a device
// backend that tears down its context earlier must clear the cache first.
__attribute__ ((destructor)) static void cache_fini (void)
{
    grbgpu_cache_clear ( ) ;
}
