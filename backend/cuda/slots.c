//------------------------------------------------------------------------------
// backend/cuda/slots.c: the slots of GRBGPU_DEVICES: devices and context pools
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/multi.h).  Each slot has a pool of up
// to GG_CTX_MAX contexts of its own, made on its device, so two slots on one
// device have separate streams.  Slot s's context is borrowed by worker s of
// the split path's team (backend/team.h) for one call and given back, so the
// pool keeps it, made once, between calls; the main pool (runtime.c) is not
// touched by the split path.  Also here: each device's first use by a slot
// (its cache budget, its stream-ordered pool), and peer access between two
// devices, set up once per pair.

#include "backend/cuda/multi.h"

typedef struct
{
    int device ;                    // the device its contexts were made on
    int phys ;                      // its runtime id then (gg_cuda_phys)
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
static bool dev_started [GG_MAX_DEVICES] ;      // by logical id (slots_lock)
// peer copies from device q into device p (runtime ids): 0 not yet asked,
// 1 direct, 2 not possible (slots_lock)
static unsigned char peer_state [GG_MAX_DEVICES][GG_MAX_DEVICES] ;

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
            if (cudaSetDevice (sl->phys) != cudaSuccess) continue ;
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
    memset (dev_started, 0, sizeof (dev_started)) ;
    memset (peer_state, 0, sizeof (peer_state)) ;
    slots_pid = me ;
    teardown_registered = false ;
}

int slots_resolve (int *dev)
{
    const gg_settings *set = grbgpu_settings_get () ;
    int n = 0 ;
    const int count = gg_cuda_device_count () ;
    if (set->devices_all)
    {
        for (int d = 0 ; d < count && n < GG_MAX_SLOTS ; d++) dev [n++] = d ;
    }
    else
    {
        for (int k = 0 ; k < set->ndevices ; k++) dev [n++] = set->device_list [k] ;
    }
    if (n < 2) return n ;
    for (int k = 0 ; k < n ; k++)
    {
        if (dev [k] < 0 || dev [k] >= count || dev [k] >= GG_MAX_DEVICES)
        {
            if (!atomic_exchange (&refused_logged, true))
            {
                grbgpu_log (1, "cuda: GRBGPU_DEVICES=%s: no device %d (%d device(s)); "
                    "products are not split", set->devices, dev [k], count) ;
            }
            return 0 ;
        }
    }
    return n ;
}

// A device's first use by a slot (slots_lock held, dev current): the cache's
// budget for it (GRBGPU_DEVICE_MEMORY, else a fraction of its free memory,
// as runtime.c does for the main device), and freed stream-ordered memory
// kept in its pool.  Nothing to do for the main device.
static void slot_device_start (int dev)
{
    dev_started [dev] = true ;
    if (dev == gg_cuda_dev_id) return ;
    const gg_settings *set = grbgpu_settings_get () ;
    size_t free_b = 0, total_b = 0 ;
    cudaError_t e = cudaMemGetInfo (&free_b, &total_b) ;
    if (e != cudaSuccess) (void) cuda_fail (e, "cudaMemGetInfo", __LINE__) ;
    size_t budget = (set->device_memory > 0) ? (size_t) set->device_memory
        : (size_t) (GG_BUDGET_FRACTION * (double) free_b) ;
    // (under the test hook two ids share a device: each gets a budget of it)
    grbgpu_cache_set_device_budget (dev, budget) ;
    cudaMemPool_t mempool ;
    uint64_t keep = UINT64_MAX ;
    e = cudaDeviceGetDefaultMemPool (&mempool, gg_cuda_phys (dev)) ;
    if (e == cudaSuccess) e = cudaMemPoolSetAttribute (mempool,
        cudaMemPoolAttrReleaseThreshold, &keep) ;
    if (e != cudaSuccess) (void) cuda_fail (e, "cudaMemPoolSetAttribute", __LINE__) ;
    grbgpu_log (1, "cuda: slot device %d (device %d of the runtime): %.1f GiB free, "
        "cache budget %.1f GiB", dev, gg_cuda_phys (dev), free_b / 1073741824.0,
        budget / 1073741824.0) ;
}

bool slots_peer (int dev, int src)
{
    const int p = gg_cuda_phys (dev), q = gg_cuda_phys (src) ;
    if (p == q) return true ;           // one device: a device-to-device copy
    if (p < 0 || q < 0 || p >= GG_MAX_DEVICES || q >= GG_MAX_DEVICES) return false ;
    pthread_mutex_lock (&slots_lock) ;
    slots_check_pid () ;
    if (peer_state [p][q] == 0)
    {
        int rc = GG_OK, can = 0, old = 0 ;
        CU_TRY (cudaGetDevice (&old)) ;
        CU_TRY (cudaDeviceCanAccessPeer (&can, p, q)) ;
        if (can)
        {
            // p reads q's memory: peer access of p's context, and access of
            // p to q's stream-ordered pool (allocations from a pool follow
            // the pool's access list, not peer access)
            CU_TRY (cudaSetDevice (p)) ;
            cudaError_t e = cudaDeviceEnablePeerAccess (q, 0) ;
            if (e == cudaErrorPeerAccessAlreadyEnabled) (void) cudaGetLastError () ;
            else CU_TRY (e) ;
            cudaMemPool_t pool ;
            CU_TRY (cudaDeviceGetDefaultMemPool (&pool, q)) ;
            struct cudaMemAccessDesc desc = { .location = { .type = cudaMemLocationTypeDevice,
                .id = p }, .flags = cudaMemAccessFlagsProtReadWrite } ;
            CU_TRY (cudaMemPoolSetAccess (pool, &desc, 1)) ;
        }
    done:
        peer_state [p][q] = (rc == GG_OK && can) ? 1 : 2 ;
        CU_LOG (cudaSetDevice (old)) ;
        grbgpu_log (1, "cuda: copies from device %d to device %d: %s", q, p,
            (peer_state [p][q] == 1) ? "peer to peer" : "through the host") ;
    }
    bool ok = (peer_state [p][q] == 1) ;
    pthread_mutex_unlock (&slots_lock) ;
    return ok ;
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
            if (cudaSetDevice (sl->phys) == cudaSuccess)
            {
                for (int k = 0 ; k < sl->count ; k++) ctx_destroy (&sl->pool [k]) ;
            }
            else (void) cudaGetLastError () ;
            sl->count = 0 ;
            rc = gg_cuda_set_device (dev) ;
            if (rc != GG_OK) goto done ;
        }
        if (sl->count == 0) { sl->device = dev ; sl->phys = gg_cuda_phys (dev) ; }
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
            if (!dev_started [dev]) slot_device_start (dev) ;
            rc = ctx_create (&sl->pool [sl->count], dev) ;
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
