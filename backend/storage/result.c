//------------------------------------------------------------------------------
// backend/storage/result.c: room for the result T
//------------------------------------------------------------------------------

// T is built in buffers from the memory functions GraphBLAS was given
// (backend/interpose/galloc.h), since GraphBLAS frees them once they are
// packed.  When the write will overwrite C anyway (plain, C held bitmap or
// full, not iso, not an input of the call), C's own arrays are unpacked and
// the product lands in them; when T is accumulated into a full C in place and
// then dropped, it lives in a per-thread scratch buffer.  Which write-back a
// call gets is decided in writeback.c; this file asks it (storage_private.h).

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
// room for T: C's own arrays when the write will overwrite C
//------------------------------------------------------------------------------

// Unpack C's arrays if C is held bitmap or full, not iso, with room for T.
static void take_c_arrays (const gg_output *out, gg_result *r, size_t xbytes)
{
    GrB_Matrix C = out->C ;
    int status = 0 ;
    bool iso = true ;
    GrB_Info info ;
    if (out->is_vector)
    {
        info = GxB_Vector_Option_get ((GrB_Vector) C, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = GxB_Vector_iso (&iso, (GrB_Vector) C) ;
    }
    else
    {
        info = GxB_Matrix_Option_get (C, GxB_SPARSITY_STATUS, &status) ;
        if (info == GrB_SUCCESS) info = GxB_Matrix_iso (&iso, C) ;
    }
    if (info != GrB_SUCCESS || iso || (status != GxB_BITMAP && status != GxB_FULL)) return ;

    void *x = NULL ;
    int8_t *b = NULL ;
    GrB_Index xsize = 0, bsize = 0, nvals = 0 ;
    bool xiso = false ;
    if (status == GxB_BITMAP)
    {
        info = grbgpu_storage_unpack_bitmap (C, out->is_vector, r->by_col, &b,
            &x, &bsize, &xsize, &xiso, &nvals) ;
    }
    else
    {
        info = grbgpu_storage_unpack_full (C, out->is_vector, r->by_col, &x,
            &xsize, &xiso) ;
    }
    if (info != GrB_SUCCESS) return ;      // C is unchanged
    // C is empty now; its old content is overwritten by this call anyway
    if (xiso || (size_t) xsize < xbytes)
    {
        grbgpu_gb_free (x) ; grbgpu_gb_free (b) ;
        return ;
    }
    r->x = x ;
    r->x_size = (size_t) xsize ;
    r->b = b ;
    r->b_size = (size_t) bsize ;
    grbgpu_count (GG_STAT_OUTPUTS_REUSED, 1) ;
}

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

static void *scratch_get (size_t bytes)
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

void grbgpu_result_prepare (const gg_output *out, gg_result *r,
    const GrB_Matrix *inputs, int ninputs)
{
    const size_t zsz = gg_type_size (r->zt) ;
    const size_t xbytes = (size_t) (r->nrows * r->ncols > 0 ? r->nrows * r->ncols : 1) * zsz ;
    r->x = NULL ; r->b = NULL ; r->x_size = 0 ; r->b_size = 0 ;
    r->x_fresh = true ; r->x_scratch = false ; r->opt_saved = false ;
    bool aliased = false ;
    for (int k = 0 ; k < ninputs ; k++) aliased = aliased || (inputs [k] == out->C) ;
    GrB_Type ctype ;
    if (GxB_Matrix_type (&ctype, out->C) != GrB_SUCCESS) ctype = NULL ;
    if (ctype != NULL && grbgpu_storage_in_place_write (out, r, ctype))
    {
        r->x = scratch_get (xbytes) ;
        if (r->x != NULL)
        {
            // absent values are never read by the in-place accumulation
            r->x_size = xbytes ; r->x_scratch = true ; r->x_fresh = false ;
            return ;
        }
    }
    bool plain = false ;
    if (!aliased && ctype != NULL
        && grbgpu_storage_plain_write (out, r, ctype, &plain) == GrB_SUCCESS && plain)
    {
        gg_c_options opt ;
        if (grbgpu_storage_options_get (out->C, out->is_vector, &opt) == GrB_SUCCESS)
        {
            r->opt_saved = true ;
            r->opt_control = opt.control ; r->opt_hyper = opt.hyper ; r->opt_bitmap = opt.bitmap ;
            take_c_arrays (out, r, xbytes) ;
        }
    }
    if (r->x != NULL) { r->x_fresh = false ; return ; }
    r->x = grbgpu_alloc_result (xbytes) ;
    r->x_size = (r->x != NULL) ? xbytes : 0 ;
}

void grbgpu_result_discard (gg_result *r)
{
    result_free_x (r) ;
    grbgpu_gb_free (r->b) ; r->b = NULL ;
}
