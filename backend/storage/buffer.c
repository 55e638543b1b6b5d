//------------------------------------------------------------------------------
// backend/storage/buffer.c: buffers for the result T
//------------------------------------------------------------------------------

// A T that GraphBLAS will own comes from the memory functions GraphBLAS was
// given (backend/interpose/galloc.h), with huge pages when those are the C
// library's; a T that is only accumulated into C and dropped lives in a
// per-thread scratch buffer of grbgpu's own.

#include "config.h"
#include "backend/storage/storage_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

//------------------------------------------------------------------------------
// building T's arrays
//------------------------------------------------------------------------------

// Large buffers (8 MiB and more) from the C library, 2 MiB aligned and
// advised for huge pages; smaller ones plain malloc.  Freed with free ().
static void *alloc_huge (size_t bytes)
{
    if (bytes < ((size_t) 8 << 20)) return malloc (bytes > 0 ? bytes : 1) ;
    const size_t huge = (size_t) 2 << 20 ;
    size_t rounded = (bytes + huge - 1) / huge * huge ;
    void *p = NULL ;
    if (posix_memalign (&p, huge, rounded) != 0) return NULL ;
#ifdef MADV_HUGEPAGE
    (void) madvise (p, rounded, MADV_HUGEPAGE) ;
#endif
    return p ;
}

// GraphBLAS frees this buffer with the free it was given: aligned huge
// pages only when that free is the C library's (posix_memalign's blocks are
// then its blocks); a program's own allocator gives what its malloc gives.
void *grbgpu_alloc_result (size_t bytes)
{
    return grbgpu_gb_is_libc ( ) ? alloc_huge (bytes) : grbgpu_gb_malloc (bytes) ;
}

//------------------------------------------------------------------------------
// the per-thread scratch buffer
//------------------------------------------------------------------------------

// A per-thread scratch buffer for a T that is accumulated into C in place
// and then dropped (PageRank's r += A'w, every iteration): its pages stay
// mapped between calls.  At most GG_SCRATCH_MAX bytes are kept per thread.
// It is grbgpu's own (never handed to GraphBLAS): C library memory.
#define GG_SCRATCH_MAX ((size_t) 64 << 20)
typedef struct { void *p ; size_t size ; } scratch_t ;
static pthread_key_t scratch_key ;
static pthread_once_t scratch_once = PTHREAD_ONCE_INIT ;
static bool scratch_ok = false ;

static void scratch_destroy (void *arg)
{
    scratch_t *sc = (scratch_t *) arg ;
    free (sc->p) ;
    free (sc) ;
}

static void scratch_init (void)
{
    scratch_ok = (pthread_key_create (&scratch_key, scratch_destroy) == 0) ;
}

void *grbgpu_storage_scratch (size_t bytes)
{
    if (bytes > GG_SCRATCH_MAX) return NULL ;
    pthread_once (&scratch_once, scratch_init) ;
    if (!scratch_ok) return NULL ;
    scratch_t *sc = pthread_getspecific (scratch_key) ;
    if (sc == NULL)
    {
        sc = calloc (1, sizeof (scratch_t)) ;
        if (sc == NULL || pthread_setspecific (scratch_key, sc) != 0) { free (sc) ; return NULL ; }
    }
    if (sc->size < bytes)
    {
        free (sc->p) ;
        sc->p = alloc_huge (bytes) ;
        sc->size = (sc->p != NULL) ? bytes : 0 ;
    }
    return sc->p ;
}
