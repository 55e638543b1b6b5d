//------------------------------------------------------------------------------
// backend/interpose/interpose.c: exported GrB_mxm, GrB_mxv, GrB_vxm, GxB_init
//------------------------------------------------------------------------------

// These three functions take the place of SuiteSparse:GraphBLAS's, either by
// LD_PRELOAD=libgrbgpu.so or by linking -lgrbgpu before -lgraphblas.  Each
// asks the dispatcher to answer the call; when it does not, the call goes,
// unchanged, to the real function (dlsym RTLD_NEXT).  Either way the output's
// version is bumped afterwards (the object-version wrappers of every other
// mutating call live in backend/interpose/objver_wrappers.c).  GxB_init is
// taken too, only to learn the memory functions the program gives GraphBLAS
// (backend/interpose/galloc.h): GraphBLAS frees what grbgpu packs with them.
//
// Nothing heavy happens at load time: the constructor only checks, with one
// dlsym, that the program's GrB_mxm is ours, and warns once if link order
// defeated the interposition (with -lgraphblas -lgrbgpu the program binds to
// the CPU library's symbols and grbgpu never sees a call).

#include "config.h"
#include "backend/dispatch/classify.h"
#include "backend/interpose/galloc.h"
#include "backend/resident/resident.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

//------------------------------------------------------------------------------
// grbgpu_real: the CPU library's function of this name
//------------------------------------------------------------------------------

void *grbgpu_real (const char *name)
{
    void *f = dlsym (RTLD_NEXT, name) ;
    if (f == NULL)
    {
        // with the wrong link order libgraphblas precedes us in the search
        // list, where RTLD_NEXT does not look: ask it by name
        void *lib = dlopen ("libgraphblas.so.7", RTLD_LAZY | RTLD_NOLOAD) ;
        if (lib == NULL) lib = dlopen ("libgraphblas.so", RTLD_LAZY | RTLD_NOLOAD) ;
        if (lib != NULL)
        {
            f = dlsym (lib, name) ;
            dlclose (lib) ;
        }
    }
    if (f == NULL)
    {
        fprintf (stderr, "grbgpu: fatal: %s not found in SuiteSparse:GraphBLAS\n", name) ;
        abort () ;
    }
    return f ;
}

//------------------------------------------------------------------------------
// the exported entry points
//------------------------------------------------------------------------------

typedef GrB_Info (*mxm_fn) (GrB_Matrix, const GrB_Matrix, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Matrix, const GrB_Descriptor) ;
typedef GrB_Info (*mxv_fn) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Matrix, const GrB_Vector, const GrB_Descriptor) ;
typedef GrB_Info (*vxm_fn) (GrB_Vector, const GrB_Vector, const GrB_BinaryOp,
    const GrB_Semiring, const GrB_Vector, const GrB_Matrix, const GrB_Descriptor) ;

// The real function, looked up once (a benign race: every thread stores the
// same pointer).
#define REAL(type, name) \
    static _Atomic (type) real_fn = NULL ; \
    type real = atomic_load_explicit (&real_fn, memory_order_relaxed) ; \
    if (real == NULL) \
    { \
        real = (type) grbgpu_real (name) ; \
        atomic_store_explicit (&real_fn, real, memory_order_relaxed) ; \
    }

// The device path runs with materialisation off (it materialises what it
// reads itself, backend/dispatch/dispatch.c); a call it declines reaches the
// CPU library with every argument on the host.
static bool dispatch_quietly (const gg_call *call, GrB_Info *info)
{
    grbgpu_resident_quiet (1) ;
    bool done = grbgpu_dispatch (call, info) ;
    grbgpu_resident_quiet (-1) ;
    return done ;
}

static GrB_Info host_side (const void *a, const void *b, const void *c, const void *d)
{
    GrB_Info info = grbgpu_resident_touch (a, "GrB_mxm/mxv/vxm on the CPU library") ;
    if (info == GrB_SUCCESS) info = grbgpu_resident_touch (b, "GrB_mxm/mxv/vxm on the CPU library") ;
    if (info == GrB_SUCCESS) info = grbgpu_resident_touch (c, "GrB_mxm/mxv/vxm on the CPU library") ;
    if (info == GrB_SUCCESS) info = grbgpu_resident_touch (d, "GrB_mxm/mxv/vxm on the CPU library") ;
    return info ;
}

GG_EXPORT GrB_Info GrB_mxm (GrB_Matrix C, const GrB_Matrix M,
    const GrB_BinaryOp accum, const GrB_Semiring semiring, const GrB_Matrix A,
    const GrB_Matrix B, const GrB_Descriptor desc)
{
    REAL (mxm_fn, "GrB_mxm") ;
    gg_call call = { GG_CALL_MXM, C, M, accum, semiring, A, B, desc } ;
    GrB_Info info ;
    if (!dispatch_quietly (&call, &info))
    {
        info = host_side (C, M, A, B) ;
        if (info == GrB_SUCCESS) info = real (C, M, accum, semiring, A, B, desc) ;     // C<M> = accum (C, A*B)
    }
    if (C != NULL) grbgpu_objver_bump (C) ;
    return info ;
}

GG_EXPORT GrB_Info GrB_mxv (GrB_Vector w, const GrB_Vector mask,
    const GrB_BinaryOp accum, const GrB_Semiring semiring, const GrB_Matrix A,
    const GrB_Vector u, const GrB_Descriptor desc)
{
    REAL (mxv_fn, "GrB_mxv") ;
    gg_call call = { GG_CALL_MXV, (GrB_Matrix) w, (GrB_Matrix) mask, accum,
        semiring, A, (GrB_Matrix) u, desc } ;
    GrB_Info info ;
    if (!dispatch_quietly (&call, &info))
    {
        info = host_side (w, mask, A, u) ;
        if (info == GrB_SUCCESS) info = real (w, mask, accum, semiring, A, u, desc) ;  // w<m> = accum (w, A*u)
    }
    if (w != NULL) grbgpu_objver_bump (w) ;
    return info ;
}

GG_EXPORT GrB_Info GrB_vxm (GrB_Vector w, const GrB_Vector mask,
    const GrB_BinaryOp accum, const GrB_Semiring semiring, const GrB_Vector u,
    const GrB_Matrix A, const GrB_Descriptor desc)
{
    REAL (vxm_fn, "GrB_vxm") ;
    gg_call call = { GG_CALL_VXM, (GrB_Matrix) w, (GrB_Matrix) mask, accum,
        semiring, (GrB_Matrix) u, A, desc } ;
    GrB_Info info ;
    if (!dispatch_quietly (&call, &info))
    {
        info = host_side (w, mask, u, A) ;
        if (info == GrB_SUCCESS) info = real (w, mask, accum, semiring, u, A, desc) ;  // w'<m> = accum (w, u'*A)
    }
    if (w != NULL) grbgpu_objver_bump (w) ;
    return info ;
}

// GraphBLAS starts up with the program's memory functions; grbgpu records
// them (only when the real GxB_init accepted them: a second init fails and
// changes nothing) so that what it packs into GraphBLAS's objects is freed
// by the right free.
typedef void * (*malloc_fn) (size_t) ;
typedef void * (*calloc_fn) (size_t, size_t) ;
typedef void * (*realloc_fn) (void *, size_t) ;
typedef void (*free_fn) (void *) ;
typedef GrB_Info (*init_fn) (GrB_Mode, malloc_fn, calloc_fn, realloc_fn, free_fn) ;

GG_EXPORT GrB_Info GxB_init (GrB_Mode mode, malloc_fn user_malloc,
    calloc_fn user_calloc, realloc_fn user_realloc, free_fn user_free)
{
    REAL (init_fn, "GxB_init") ;
    GrB_Info info = real (mode, user_malloc, user_calloc, user_realloc, user_free) ;
    if (info == GrB_SUCCESS) grbgpu_gb_set (user_malloc, user_calloc, user_realloc, user_free) ;
    return info ;
}

//------------------------------------------------------------------------------
// link-order check
//------------------------------------------------------------------------------

// Our own GrB_mxm through a hidden alias: a plain reference to GrB_mxm from
// inside this library goes through the GOT and binds, like the program's,
// to whichever library comes first, so it could never tell the two apart.
extern __typeof__ (GrB_mxm) grbgpu_own_mxm
    __attribute__ ((alias ("GrB_mxm"), visibility ("hidden"))) ;

__attribute__ ((constructor))
static void check_link_order (void)
{
    void *resolved = dlsym (RTLD_DEFAULT, "GrB_mxm") ;
    if (resolved != NULL && resolved != (void *) grbgpu_own_mxm)
    {
        Dl_info where ;
        const char *lib = (dladdr (resolved, &where) && where.dli_fname) ? where.dli_fname : "?" ;
        fprintf (stderr, "grbgpu: warning: this program's GrB_mxm is the one in %s, not "
            "grbgpu's: check the link order (-lgrbgpu must come before -lgraphblas, "
            "or use LD_PRELOAD=libgrbgpu.so); products will run on the CPU library\n", lib) ;
    }
}
