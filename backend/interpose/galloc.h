//------------------------------------------------------------------------------
// backend/interpose/galloc.h: the memory functions GraphBLAS was given
//------------------------------------------------------------------------------

// A program may give SuiteSparse:GraphBLAS its own malloc / calloc / realloc
// / free through GxB_init; GraphBLAS then frees every array it owns with
// that free.  So every array grbgpu hands to GraphBLAS (packed into C, into
// a temporary T) must come from grbgpu_gb_malloc, and every array grbgpu
// takes from GraphBLAS (unpacked from C) must go back through grbgpu_gb_free.
// Arrays grbgpu keeps to itself (cached forms, scratch) use the C library.
//
// GraphBLAS 7.4 has no getter for these functions, so the exported GxB_init
// (backend/interpose/interpose.c) records them before they reach the real one.
// Until then (GrB_init, or no init yet) they are the C library's.

#ifndef GG_GALLOC_H
#define GG_GALLOC_H

#include "backend/grbgpu_internal.h"

#include <stdbool.h>
#include <stddef.h>

// Record the functions a successful GxB_init gave GraphBLAS.  calloc and
// realloc may be NULL (GraphBLAS then makes do with malloc, memset, memcpy
// and free, and so do the functions below).
GG_INTERNAL void grbgpu_gb_set (void * (*user_malloc) (size_t),
    void * (*user_calloc) (size_t, size_t), void * (*user_realloc) (void *, size_t),
    void (*user_free) (void *)) ;

// The program's functions, as GraphBLAS calls them.  grbgpu_gb_malloc (0)
// returns a block of one byte (never NULL for success).
GG_INTERNAL void *grbgpu_gb_malloc (size_t bytes) ;
GG_INTERNAL void *grbgpu_gb_calloc (size_t n, size_t size) ;
// old_bytes is used only when the program gave no realloc (copy and free)
GG_INTERNAL void *grbgpu_gb_realloc (void *p, size_t old_bytes, size_t new_bytes) ;
GG_INTERNAL void grbgpu_gb_free (void *p) ;

// True when GraphBLAS frees with the C library's free, and posix_memalign
// hands out blocks that free takes: then large results may be 2 MiB aligned
// and advised for huge pages.  (A program that replaces malloc and free
// without posix_memalign, or gives GxB_init functions of its own, gets
// plain blocks from its malloc.)
GG_INTERNAL bool grbgpu_gb_is_libc (void) ;

#endif
