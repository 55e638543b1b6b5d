//------------------------------------------------------------------------------
// backend/cuda/slots.c: the slots of GRBGPU_DEVICES: devices and context pools
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/multi.h).  Each slot has a pool of up
// to GG_CTX_MAX contexts of its own, made on its device, so two slots on one
// device have separate streams.  A call borrows one context of each slot in
// slot order (never more than one per slot), so calls of several threads
// cannot wait on each other in a cycle; the main pool (runtime.c) is not
// touched by the split path.

#include "backend/cuda/multi.h"

typedef struct
{
    int device ;                    // the device its contexts were made on
    int busy ;                      // contexts lent now
    int count ;
    gg_ctx pool [GG_CTX_MAX] ;
}
gg_slot ;

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER ;
static pthread_cond_t slots_cond = PTHREAD_COND_INITIALIZER ;
static gg_slot slots [GG_MAX_SLOTS] ;
static pid_t slots_pid = 0 ;        // the process the pools belong to
static bool teardown_registered = false ;
static _Atomic bool refused_logged = false ;

// At exit (registered after runtime.c's handler, so it runs first): destroy
// the idle pools while the CUDA runtime is still alive.
static void slots_teardown (void)
{
    pthread_mutex_lock (&slots_lock) ;
    if (slots_pid == getpid ())
    {
        int old = 0 ;
        (void) cudaGetDevice (&old) ;
        for (int s = 0 ; s < GG_MAX_SLOTS ; s++)
        {
            gg_slot *sl = &slots [s] ;
            if (sl->busy > 0 || sl->count == 0) continue ;
            (void) cudaSetDevice (sl->device) ;
            for (int k = 0 ; k < sl->count ; k++) ctx_destroy (&sl->pool [k]) ;
            sl->count = 0 ;
        }
        (void) cudaGetLastError () ;
        (void) cudaSetDevice (old) ;
    }
    pthread_mutex_unlock (&slots_lock) ;
}

// In a forked child the lock may have been held by a thread that is gone:
// make it afresh (the pools are forgotten by slots_check_pid).
static void slots_atfork_child (void)
{
    pthread_mutex_init (&slots_lock, NULL) ;
    pthread_cond_init (&slots_cond, NULL) ;
}

static pthread_once_t slots_atfork_once = PTHREAD_ONCE_INIT ;
static void slots_register_atfork (void)
{
    pthread_atfork (NULL, NULL, slots_atfork_child) ;
}

// A forked child owns nothing of the parent's pools: forget them (their host
// structs leak, as runtime.c's do).  Called with slots_lock held.
static void slots_check_pid (void)
{
    pid_t me = getpid () ;
    if (slots_pid == me) return ;
    memset (slots, 0, sizeof (slots)) ;
    slots_pid = me ;
    teardown_registered = false ;
}

int slots_resolve (int *dev)
{
    const gg_settings *set = grbgpu_settings_get () ;
    int n = 0 ;
    if (set->devices_all)
    {
        int count = 0 ;
        if (cudaGetDeviceCount (&count) != cudaSuccess) { (void) cudaGetLastError () ; return 0 ; }
        for (int d = 0 ; d < count && n < GG_MAX_SLOTS ; d++) dev [n++] = d ;
    }
    else
    {
        for (int k = 0 ; k < set->ndevices ; k++) dev [n++] = set->device_list [k] ;
    }
    if (n < 2) return n ;
    for (int k = 0 ; k < n ; k++)
    {
        if (dev [k] != gg_cuda_dev_id)
        {
            // device forms (forms.c) free their memory on the main device:
            // a form made on another one would be freed on the wrong one
            if (!atomic_exchange (&refused_logged, true))
            {
                grbgpu_log (1, "cuda: GRBGPU_DEVICES=%s: slot on device %d, but only "
                    "the main device (%d) can hold slots until device forms record "
                    "their device; products are not split", set->devices, dev [k],
                    gg_cuda_dev_id) ;
            }
            return 0 ;
        }
    }
    return n ;
}

int slot_ctx_acquire (int s, int dev, gg_ctx **out)
{
    int rc = GG_OK ;
    *out = NULL ;
    pthread_once (&slots_atfork_once, slots_register_atfork) ;
    pthread_mutex_lock (&slots_lock) ;
    slots_check_pid () ;
    if (!teardown_registered)
    {
        // CUDA is started (the caller checked): this runs before its teardown
        atexit (slots_teardown) ;
        teardown_registered = true ;
    }
    gg_slot *sl = &slots [s] ;
    for (;;)
    {
        if (sl->count > 0 && sl->device != dev)
        {
            // made for another device: remade once idle
            if (sl->busy > 0) { pthread_cond_wait (&slots_cond, &slots_lock) ; continue ; }
            for (int k = 0 ; k < sl->count ; k++) ctx_destroy (&sl->pool [k]) ;
            sl->count = 0 ;
        }
        sl->device = dev ;
        for (int k = 0 ; k < sl->count ; k++)
        {
            if (!sl->pool [k].busy)
            {
                sl->pool [k].busy = true ;
                sl->busy++ ;
                *out = &sl->pool [k] ;
                goto done ;
            }
        }
        if (sl->count < GG_CTX_MAX)
        {
            rc = ctx_create (&sl->pool [sl->count]) ;
            if (rc != GG_OK) goto done ;
            sl->pool [sl->count].busy = true ;
            sl->busy++ ;
            *out = &sl->pool [sl->count++] ;
            goto done ;
        }
        pthread_cond_wait (&slots_cond, &slots_lock) ;
    }
done:
    pthread_mutex_unlock (&slots_lock) ;
    return rc ;
}

void slot_ctx_release (int s, gg_ctx *c)
{
    if (c == NULL) return ;
    pthread_mutex_lock (&slots_lock) ;
    c->busy = false ;
    slots [s].busy-- ;
    pthread_cond_broadcast (&slots_cond) ;
    pthread_mutex_unlock (&slots_lock) ;
}
