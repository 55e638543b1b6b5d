//------------------------------------------------------------------------------
// backend/interpose/galloc.c: the memory functions GraphBLAS was given
//------------------------------------------------------------------------------

// See galloc.h.  The four functions are recorded once, by the exported
// GxB_init, before the program makes any other GraphBLAS call (the
// GraphBLAS specification requires init to come first, so every later call
// of any thread is ordered after the store by the program's own
// synchronisation); they are read on every result buffer.

#include "config.h"
#include "backend/interpose/galloc.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef void * (*malloc_fn) (size_t) ;
typedef void * (*calloc_fn) (size_t, size_t) ;
typedef void * (*realloc_fn) (void *, size_t) ;
typedef void (*free_fn) (void *) ;

// GrB_init's functions: the C library's (through the same global symbols
// that libgraphblas binds, so an interposed malloc is seen alike by both)
static malloc_fn gb_malloc = malloc ;
static calloc_fn gb_calloc = calloc ;
static realloc_fn gb_realloc = realloc ;
static free_fn gb_free = free ;

// grbgpu_gb_is_libc's answer: -1 not known yet, 0 no, 1 yes
static atomic_int gb_libc = -1 ;

void grbgpu_gb_set (malloc_fn user_malloc, calloc_fn user_calloc,
    realloc_fn user_realloc, free_fn user_free)
{
    gb_malloc = user_malloc ;
    gb_calloc = user_calloc ;
    gb_realloc = user_realloc ;
    gb_free = user_free ;
    atomic_store (&gb_libc, -1) ;
}

void *grbgpu_gb_malloc (size_t bytes)
{
    return gb_malloc (bytes > 0 ? bytes : 1) ;
}

void *grbgpu_gb_calloc (size_t n, size_t size)
{
    if (n == 0 || size == 0) n = size = 1 ;
    if (gb_calloc != NULL) return gb_calloc (n, size) ;
    if (size > (size_t) -1 / n) return NULL ;
    void *p = gb_malloc (n * size) ;
    if (p != NULL) memset (p, 0, n * size) ;
    return p ;
}

void *grbgpu_gb_realloc (void *p, size_t old_bytes, size_t new_bytes)
{
    if (new_bytes == 0) new_bytes = 1 ;
    if (gb_realloc != NULL) return gb_realloc (p, new_bytes) ;
    // as GraphBLAS does without a realloc: a new block, the old one freed
    // only on success (on failure p is still the caller's)
    void *q = gb_malloc (new_bytes) ;
    if (q == NULL) return NULL ;
    if (p != NULL) memcpy (q, p, old_bytes < new_bytes ? old_bytes : new_bytes) ;
    if (p != NULL) gb_free (p) ;
    return q ;
}

void grbgpu_gb_free (void *p)
{
    if (p != NULL) gb_free (p) ;
}

// The loaded object that defines the function at f (NULL: unknown).
static void *object_of (void *f)
{
    Dl_info where ;
    return (dladdr (f, &where) != 0) ? where.dli_fbase : NULL ;
}

bool grbgpu_gb_is_libc (void)
{
    int known = atomic_load_explicit (&gb_libc, memory_order_relaxed) ;
    if (known >= 0) return known == 1 ;
    // GraphBLAS frees with the global free, and posix_memalign lives beside
    // that malloc and free (the C library, or a whole replacement such as
    // jemalloc): a block from posix_memalign is then one free takes
    bool same = gb_malloc == malloc && gb_free == free
        && (gb_calloc == NULL || gb_calloc == calloc)
        && (gb_realloc == NULL || gb_realloc == realloc) ;
    if (same)
    {
        void *m = object_of ((void *) malloc) ;
        same = m != NULL && m == object_of ((void *) free)
            && m == object_of ((void *) posix_memalign) ;
    }
    atomic_store_explicit (&gb_libc, same ? 1 : 0, memory_order_relaxed) ;
    return same ;
}
