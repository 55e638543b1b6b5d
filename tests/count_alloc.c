//------------------------------------------------------------------------------
// tests/count_alloc.c: a counting, tagging, failing allocator for GxB_init
//------------------------------------------------------------------------------

// See count_alloc.h.  Thread-safe (GraphBLAS and grbgpu allocate from
// OpenMP threads too): every count is atomic.  The blocks themselves come
// from the C library's malloc, 16 bytes larger.

#include "tests/count_alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// The tag of a live block, at p - 8 where the C library keeps a chunk's
// size: read as a size (the low three flag bits clear) it is within 2 GiB of
// 2^64, so p + size wraps around for any heap address, and glibc's free ()
// stops with "free(): invalid pointer".
#define TAG_LIVE  0xFFFFFFFFA110C000ull
#define TAG_FREED 0xFFFFFFFFF4EED000ull

typedef struct { uint64_t size ; uint64_t tag ; } header ;     // 16 bytes

static atomic_llong n_calls, n_allocated, n_freed, n_failed, n_foreign, n_twice ;
static atomic_llong fail_at ;       // the call number that fails (0: none)
static atomic_bool fail_sticky ;

// Count one allocation call; true when it must fail.
static bool must_fail (void)
{
    long long k = atomic_fetch_add (&n_calls, 1) + 1 ;
    long long at = atomic_load (&fail_at) ;
    bool fail = at > 0 && (k == at || (k > at && atomic_load (&fail_sticky))) ;
    if (fail) atomic_fetch_add (&n_failed, 1) ;
    return fail ;
}

static void *block (size_t size)
{
    if (size > SIZE_MAX - sizeof (header)) return NULL ;
    header *h = malloc (sizeof (header) + size) ;
    if (h == NULL) return NULL ;
    h->size = size ;
    h->tag = TAG_LIVE ;
    atomic_fetch_add (&n_allocated, 1) ;
    return h + 1 ;
}

// The header of p when p is a live block of ours, else NULL (counted).
static header *ours (void *p)
{
    header *h = (header *) p - 1 ;
    if (h->tag == TAG_LIVE) return h ;
    if (h->tag == TAG_FREED) atomic_fetch_add (&n_twice, 1) ;
    else atomic_fetch_add (&n_foreign, 1) ;
    return NULL ;
}

static void release (header *h)
{
    h->tag = TAG_FREED ;
    atomic_fetch_add (&n_freed, 1) ;
    free (h) ;
}

void *ca_malloc (size_t size)
{
    return must_fail ( ) ? NULL : block (size) ;
}

void *ca_calloc (size_t n, size_t size)
{
    if (must_fail ( )) return NULL ;
    if (size != 0 && n > SIZE_MAX / size) return NULL ;
    void *p = block (n * size) ;
    if (p != NULL) memset (p, 0, n * size) ;
    return p ;
}

void *ca_realloc (void *p, size_t size)
{
    if (must_fail ( )) return NULL ;        // p stays the caller's
    if (p == NULL) return block (size) ;
    header *h = ours (p) ;
    if (h == NULL) return NULL ;
    void *q = block (size) ;
    if (q == NULL) return NULL ;
    memcpy (q, p, h->size < size ? h->size : size) ;
    release (h) ;
    return q ;
}

void ca_free (void *p)
{
    if (p == NULL) return ;
    header *h = ours (p) ;
    if (h != NULL) release (h) ;
}

void ca_get (ca_counts *c)
{
    c->calls = atomic_load (&n_calls) ;
    c->allocated = atomic_load (&n_allocated) ;
    c->freed = atomic_load (&n_freed) ;
    c->failed = atomic_load (&n_failed) ;
    c->foreign = atomic_load (&n_foreign) ;
    c->twice = atomic_load (&n_twice) ;
}

int64_t ca_live (void)
{
    return atomic_load (&n_allocated) - atomic_load (&n_freed) ;
}

void ca_fail_from (int64_t k, bool sticky)
{
    atomic_store (&fail_sticky, sticky) ;
    atomic_store (&fail_at, atomic_load (&n_calls) + k) ;
}

void ca_fail_off (void)
{
    atomic_store (&fail_at, 0) ;
}
