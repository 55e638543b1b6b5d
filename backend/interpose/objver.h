//------------------------------------------------------------------------------
// backend/interpose/objver.h: object versions, as the cache sees them
//------------------------------------------------------------------------------

// grbgpu_objver_get / _bump / _drop, which every part uses, are declared in
// backend/grbgpu_internal.h.  This header is for the one watcher of changes,
// the cache (backend/cache/cache.c), and for tests.  objver.c knows nothing
// of the cache: the cache registers its invalidation as the change hook, so
// the arrow points one way (cache -> objver).

#ifndef GG_OBJVER_H
#define GG_OBJVER_H

#include "backend/grbgpu_internal.h"

// Called (outside objver's locks) with a handle whose version changed or
// which was freed, when the handle was marked cached.
typedef void (*gg_objver_hook) (const void *handle) ;

// Register the change hook.  It must be registered before the first
// grbgpu_objver_mark_cached: a bump that finds a handle marked then finds
// the hook too.
GG_INTERNAL void grbgpu_objver_on_change (gg_objver_hook hook) ;

// The cache linked an entry of (handle, version).  Returns true (and marks
// the handle: its next bump or drop calls the hook) when version is still
// handle's current version; false when it is not (the object changed or was
// freed meanwhile: the caller must unlink its entry).
GG_INTERNAL bool grbgpu_objver_mark_cached (const void *handle,
    uint64_t version) ;

// Number of handles tracked (for tests).
GG_INTERNAL size_t grbgpu_objver_live (void) ;

#endif
