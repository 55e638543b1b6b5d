//------------------------------------------------------------------------------
// tests/count_alloc.h: a counting, tagging, failing allocator for GxB_init
//------------------------------------------------------------------------------

// Memory functions a program may give SuiteSparse:GraphBLAS through
// GxB_init, as memory-accounting test harnesses do.  Every block carries a
// 16-byte header in front: its size and a tag.  The counts say how many
// blocks were handed out and taken back; the tag tells a block of this
// allocator from any other, so that
//   - a foreign block given to ca_free (e.g. one from the C library's
//     malloc) is counted in `foreign` (and not freed: it is not ours), and
//   - one of these blocks given to the C library's free is caught there:
//     the tag sits where the C library keeps a block's size, and reads as an
//     impossible size, so free () aborts ("free(): invalid pointer"; an
//     address sanitizer reports a free of memory it did not allocate);
//     the block is also missing from the `freed` count.
// A freed block's tag is overwritten, so a second free counts in `twice`.
//
// Failures on demand: ca_fail_from (k, sticky) makes the k-th allocation
// (malloc, calloc or realloc) from now on fail (return NULL), and with
// sticky every one after it too; ca_fail_off () ends it.

#ifndef COUNT_ALLOC_H
#define COUNT_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *ca_malloc (size_t size) ;
void *ca_calloc (size_t n, size_t size) ;
void *ca_realloc (void *p, size_t size) ;
void ca_free (void *p) ;

typedef struct
{
    int64_t calls ;         // allocation calls (malloc, calloc, realloc), failed ones too
    int64_t allocated ;     // blocks handed out
    int64_t freed ;         // blocks taken back by ca_free (or moved by realloc)
    int64_t failed ;        // allocation calls made to fail
    int64_t foreign ;       // blocks given to ca_free that were not ours
    int64_t twice ;         // blocks given to ca_free after they were freed
}
ca_counts ;

void ca_get (ca_counts *c) ;

// blocks handed out and not yet taken back
int64_t ca_live (void) ;

void ca_fail_from (int64_t k, bool sticky) ;
void ca_fail_off (void) ;

#endif
