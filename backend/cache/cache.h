//------------------------------------------------------------------------------
// backend/cache/cache.h: converted operands keyed by version, never stale
//------------------------------------------------------------------------------

// A converted form of a GraphBLAS object (a CSR with 32-bit indices and values
// cast to a semiring type, a dense row-major copy, ...) is expensive to build.
// The cache keeps it, keyed by (handle, version, form), and hands it out while
// the object's version is unchanged.  The version changes with every call that
// changes the object (backend/interpose/objver.c), so an entry can never be
// stale; it is dropped when its object changes or is freed, or, least recently
// used first, when the cache is over its byte budget (GRBGPU_CACHE_BYTES).
//
// An entry may also own a device copy (set by a device backend): it counts
// against the budget of the device it is on, and is freed with the entry.
//
// Thread safety: all functions may be called from any thread.  An entry that
// has been acquired is never freed until released (eviction and invalidation
// only unlink it; the last release frees it).

#ifndef GRBGPU_CACHE_H
#define GRBGPU_CACHE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/grbgpu_internal.h"

typedef struct
{
    const void *handle ;    // the GrB_Matrix / GrB_Vector
    uint64_t version ;      // grbgpu_objver_get (handle); 0 is never cached
    uint64_t form ;         // what was built from it (see formats/convert.h)
}
gg_cache_key ;

typedef struct gg_cache_entry gg_cache_entry ;
struct gg_cache_entry
{
    gg_cache_key key ;

    // the host form: an opaque payload owned by the entry
    void *host ;
    size_t host_bytes ;
    void (*host_free) (void *host) ;

    // the device form (set and used by a device backend, under `lock`)
    pthread_mutex_t lock ;
    void *dev ;
    size_t dev_bytes ;
    void (*dev_free) (void *dev) ;

    // bookkeeping (private to cache.c)
    int refcount ;
    int linked ;                    // still in the table
    uint64_t last_use ;
    gg_cache_entry *next_in_bucket ;
} ;

// Look up (key).  Returns the entry with a reference taken, or NULL (a miss).
// Counts a hit or a miss.  Never returns an entry for version 0.
GG_INTERNAL gg_cache_entry *grbgpu_cache_acquire (const gg_cache_key *key) ;

// As acquire, but counts neither a hit nor a miss (for the cost model, which
// only asks whether a form is already on the device).
GG_INTERNAL gg_cache_entry *grbgpu_cache_peek (const gg_cache_key *key) ;

// Insert a freshly built host form under (key) and return it acquired.  If
// the key is already present (another thread built it meanwhile) the new
// payload is freed with host_free and the existing entry is returned.  If
// key->version is 0, or the payload alone exceeds the budget, the entry is
// returned acquired but not linked (it is freed on release).  Returns NULL
// only when out of memory (the payload has then been freed).
GG_INTERNAL gg_cache_entry *grbgpu_cache_insert (const gg_cache_key *key,
    void *host, size_t host_bytes, void (*host_free) (void *)) ;

// Give back a reference.
GG_INTERNAL void grbgpu_cache_release (gg_cache_entry *e) ;
// One more reference to e, which the caller holds one of already.
GG_INTERNAL void grbgpu_cache_addref (gg_cache_entry *e) ;

// Drop every entry of this handle (its object changed or was freed).
GG_INTERNAL void grbgpu_cache_invalidate (const void *handle) ;

// Device ids are the backend's (0 .. GG_MAX_DEVICES-1; larger ones share the
// last account); each device has its bytes and its budget.

// Drop device copies on `device` (< 0: on any), least recently used first,
// until at least `bytes` of device memory held by the cache there are freed
// (or none is left).  Returns the number of bytes freed.  Used by a device
// backend when it runs out of memory.
GG_INTERNAL size_t grbgpu_cache_evict_device (int device, size_t bytes) ;

// Record that a device copy of `bytes` on `device` was attached to e (under
// e->lock), replacing what was recorded for e; evicts other entries' device
// copies on that device to keep within its budget.
GG_INTERNAL void grbgpu_cache_account_device (gg_cache_entry *e, int device,
    size_t bytes) ;

// The budget of `device` (< 0: of every device) in bytes (set by the device
// backend when it starts a device: GRBGPU_DEVICE_MEMORY, or a safe fraction
// of its free memory; 0: no limit).
GG_INTERNAL void grbgpu_cache_set_device_budget (int device, size_t bytes) ;

// Bytes of device copies held on `device` (< 0: on all devices).
GG_INTERNAL size_t grbgpu_cache_device_usage (int device) ;

// Free everything (at exit, and in tests).
GG_INTERNAL void grbgpu_cache_clear (void) ;

// Bytes held: host forms, device forms.
GG_INTERNAL void grbgpu_cache_usage (size_t *host_bytes, size_t *dev_bytes) ;

#endif
