//------------------------------------------------------------------------------
// backend/cuda/runtime.c: start-up, contexts, a call's temporaries, the retry loop
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).

#include "backend/cuda/cuda_internal.h"

//------------------------------------------------------------------------------
// process-wide state
//------------------------------------------------------------------------------

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT ;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER ;
_Atomic pid_t gg_cuda_started_pid = 0 ;     // the process that ran start-up
static bool gg_cuda_started_ok ;          // its outcome
_Atomic unsigned gg_cuda_generation = 0 ;   // bumped by every start-up
int gg_cuda_dev_id = 0 ;
cudaStream_t gg_cuda_free_stream ;          // where forms are freed from
static int gg_cuda_phys_count = 0 ;         // devices the runtime sees
static _Atomic int gg_cuda_fake = 0 ;       // tests: devices pretended (0: off)
static pthread_mutex_t free_streams_lock = PTHREAD_MUTEX_INITIALIZER ;
static cudaStream_t free_streams [GG_MAX_DEVICES] ;  // by physical device
static size_t gg_cuda_dev_budget ;
_Atomic bool gg_cuda_broken = false ;   // a sticky CUDA error was seen

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER ;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER ;
static gg_ctx pool [GG_CTX_MAX] ;
static int pool_count = 0 ;

// benchmarks: time the product itself with CUDA events (grbgpu_cuda_timing)
static _Atomic bool gg_cuda_timing_on = false ;
_Thread_local double gg_cuda_last_ms = -1 ;

//------------------------------------------------------------------------------
// small helpers
//------------------------------------------------------------------------------

// Errors that leave the CUDA context unusable: no retry will help.
static bool cuda_sticky (cudaError_t e)
{
    switch (e)
    {
        case cudaErrorIllegalAddress :
        case cudaErrorLaunchFailure :
        case cudaErrorHardwareStackError :
        case cudaErrorIllegalInstruction :
        case cudaErrorMisalignedAddress :
        case cudaErrorInvalidAddressSpace :
        case cudaErrorInvalidPc :
        case cudaErrorECCUncorrectable :
            return true ;
        default :
            return false ;
    }
}

// Log a failed CUDA call and turn it into a GG_ERR_* code.
int cuda_fail (cudaError_t e, const char *what, int line)
{
    (void) cudaGetLastError () ;    // clear a non-sticky error
    if (cuda_sticky (e)) atomic_store (&gg_cuda_broken, true) ;
    grbgpu_log (1, "cuda: %s failed (line %d): %s", what, line,
        cudaGetErrorString (e)) ;
    return (e == cudaErrorMemoryAllocation) ? GG_ERR_DEVMEM : GG_ERR_DEVICE ;
}

int sparse_fail (cusparseStatus_t s, const char *what, int line)
{
    grbgpu_log (1, "cuda: %s failed (line %d): %s", what, line,
        cusparseGetErrorString (s)) ;
    return (s == CUSPARSE_STATUS_ALLOC_FAILED ||
            s == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES) ? GG_ERR_DEVMEM
         : (s == CUSPARSE_STATUS_NOT_SUPPORTED) ? GG_ERR_UNSUPPORTED
         : GG_ERR_DEVICE ;
}

int blas_fail (cublasStatus_t s, const char *what, int line)
{
    grbgpu_log (1, "cuda: %s failed (line %d): cublas status %d", what, line,
        (int) s) ;
    return (s == CUBLAS_STATUS_ALLOC_FAILED) ? GG_ERR_DEVMEM
         : (s == CUBLAS_STATUS_NOT_SUPPORTED) ? GG_ERR_UNSUPPORTED
         : GG_ERR_DEVICE ;
}

cudaDataType cuda_type (gg_type t)
{
    return (t == GG_FP32) ? CUDA_R_32F : CUDA_R_64F ;
}

//------------------------------------------------------------------------------
// start-up
//------------------------------------------------------------------------------

// In a forked child nothing of the parent's CUDA state is usable: forget it
// (leaking the parent's host-side structs) and start afresh on first use.
static void atfork_child (void)
{
    pthread_mutex_init (&start_lock, NULL) ;
    pthread_mutex_init (&pool_lock, NULL) ;
    pthread_cond_init (&pool_cond, NULL) ;
    pthread_mutex_init (&free_streams_lock, NULL) ;
    memset (free_streams, 0, sizeof (free_streams)) ;
    memset (pool, 0, sizeof (pool)) ;
    pool_count = 0 ;
    atomic_store (&gg_cuda_started_pid, 0) ;
    atomic_store (&gg_cuda_broken, false) ;
    gg_cuda_started_ok = false ;
}

static void register_atfork (void)
{
    pthread_atfork (NULL, NULL, atfork_child) ;
}

// Bring CUDA up in this process: true, or false when it cannot (logged once).
static bool device_start (void)
{
    const gg_settings *settings = grbgpu_settings_get () ;
    int count = 0 ;
    cudaError_t e = cudaGetDeviceCount (&count) ;
    if (e != cudaSuccess || count <= 0)
    {
        grbgpu_log (1, "cuda: no usable device (%s)", (e != cudaSuccess) ?
            cudaGetErrorString (e) : "device count is 0") ;
        (void) cudaGetLastError () ;
        return false ;
    }
    gg_cuda_dev_id = settings->device_id ;
    gg_cuda_phys_count = count ;
    if (gg_cuda_dev_id < 0 || gg_cuda_dev_id >= count || gg_cuda_dev_id >= GG_MAX_DEVICES)
    {
        grbgpu_log (1, "cuda: GRBGPU_DEVICE_ID=%d but %d device(s)", gg_cuda_dev_id,
            count) ;
        return false ;
    }
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    struct cudaDeviceProp prop ;
    size_t free_b = 0, total_b = 0 ;
    if ((e = cudaSetDevice (gg_cuda_dev_id)) != cudaSuccess ||
        (e = cudaGetDeviceProperties (&prop, gg_cuda_dev_id)) != cudaSuccess ||
        (e = cudaMemGetInfo (&free_b, &total_b)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags (&gg_cuda_free_stream, cudaStreamNonBlocking))
            != cudaSuccess)
    {
        grbgpu_log (1, "cuda: device %d unusable: %s", gg_cuda_dev_id,
            cudaGetErrorString (e)) ;
        (void) cudaGetLastError () ;
        (void) cudaSetDevice (old) ;
        return false ;
    }

    // keep freed stream-ordered memory in the pool (re-mapping is slow); it
    // is trimmed when an allocation fails
    cudaMemPool_t mempool ;
    if (cudaDeviceGetDefaultMemPool (&mempool, gg_cuda_dev_id) == cudaSuccess)
    {
        uint64_t keep = UINT64_MAX ;
        (void) cudaMemPoolSetAttribute (mempool,
            cudaMemPoolAttrReleaseThreshold, &keep) ;
    }
    (void) cudaGetLastError () ;

    // device budget of the cache: GRBGPU_DEVICE_MEMORY, else a fraction of
    // the memory free now (the rest is for per-call operands and libraries)
    free_streams [gg_cuda_dev_id] = gg_cuda_free_stream ;
    gg_cuda_dev_budget = (settings->device_memory > 0)
        ? (size_t) settings->device_memory
        : (size_t) (GG_BUDGET_FRACTION * (double) free_b) ;
    grbgpu_cache_set_device_budget (gg_cuda_dev_id, gg_cuda_dev_budget) ;
    atomic_fetch_add (&gg_cuda_generation, 1) ;
    grbgpu_log (1, "cuda: device %d: %s, %d SMs, %.1f GiB free of %.1f, "
        "cache budget %.1f GiB", gg_cuda_dev_id, prop.name, prop.multiProcessorCount,
        free_b / 1073741824.0, total_b / 1073741824.0,
        gg_cuda_dev_budget / 1073741824.0) ;
    (void) cudaSetDevice (old) ;
    return true ;
}

// At exit, in the process that started CUDA: free the cache's device copies
// and the context pool while the CUDA runtime is still alive (this handler is
// registered after the runtime's own, so it runs first), so that nothing is
// left for compute-sanitizer to report as leaked.

static void device_teardown (void)
{
    if (atomic_load (&gg_cuda_started_pid) != getpid () || !gg_cuda_started_ok) return ;
    grbgpu_cache_clear () ;
    pthread_mutex_lock (&pool_lock) ;
    bool idle = true ;
    for (int k = 0 ; k < pool_count ; k++) idle = idle && !pool [k].busy ;
    if (idle)
    {
        (void) cudaSetDevice (gg_cuda_dev_id) ;
        for (int k = 0 ; k < pool_count ; k++) ctx_destroy (&pool [k]) ;
        pool_count = 0 ;
        pthread_mutex_lock (&free_streams_lock) ;
        for (int d = 0 ; d < GG_MAX_DEVICES ; d++)
        {
            if (free_streams [d] == NULL) continue ;
            (void) cudaSetDevice (d) ;
            (void) cudaStreamSynchronize (free_streams [d]) ;
            (void) cudaStreamDestroy (free_streams [d]) ;
            free_streams [d] = NULL ;
        }
        gg_cuda_free_stream = NULL ;
        pthread_mutex_unlock (&free_streams_lock) ;
        (void) cudaGetLastError () ;
    }
    pthread_mutex_unlock (&pool_lock) ;
}

bool gg_cuda_start (void)
{
    pthread_once (&atfork_once, register_atfork) ;
    pid_t me = getpid () ;
    if (atomic_load (&gg_cuda_started_pid) == me) return gg_cuda_started_ok ;
    pthread_mutex_lock (&start_lock) ;
    if (atomic_load (&gg_cuda_started_pid) != me)
    {
        gg_cuda_started_ok = device_start () ;
        atomic_store (&gg_cuda_started_pid, me) ;
        if (gg_cuda_started_ok) atexit (device_teardown) ;
    }
    pthread_mutex_unlock (&start_lock) ;
    return gg_cuda_started_ok ;
}

//------------------------------------------------------------------------------
// contexts
//------------------------------------------------------------------------------

void ctx_destroy (gg_ctx *c)
{
    for (int b = 0 ; b < GG_STAGE_BUFS ; b++)
    {
        if (c->stage [b] != NULL) cudaFreeHost (c->stage [b]) ;
        if (c->staged [b] != NULL) cudaEventDestroy (c->staged [b]) ;
    }
    if (c->t0 != NULL) cudaEventDestroy (c->t0) ;
    if (c->t1 != NULL) cudaEventDestroy (c->t1) ;
    if (c->blas != NULL) cublasDestroy (c->blas) ;
    if (c->sparse != NULL) cusparseDestroy (c->sparse) ;
    if (c->stream != NULL) cudaStreamDestroy (c->stream) ;
    memset (c, 0, sizeof (*c)) ;
}

int ctx_create (gg_ctx *c, int dev)
{
    int rc = GG_OK ;
    memset (c, 0, sizeof (*c)) ;
    c->device = dev ;
    CU_TRY (cudaStreamCreateWithFlags (&c->stream, cudaStreamNonBlocking)) ;
    SP_TRY (cusparseCreate (&c->sparse)) ;
    SP_TRY (cusparseSetStream (c->sparse, c->stream)) ;
    BL_TRY (cublasCreate (&c->blas)) ;
    BL_TRY (cublasSetStream (c->blas, c->stream)) ;
    // exact FP32 / FP64: no TF32 or other reduced-precision shortcuts
    BL_TRY (cublasSetMathMode (c->blas, CUBLAS_PEDANTIC_MATH)) ;
    for (int b = 0 ; b < GG_STAGE_BUFS ; b++)
    {
        CU_TRY (cudaEventCreateWithFlags (&c->staged [b],
            cudaEventDisableTiming)) ;
    }
    CU_TRY (cudaEventCreate (&c->t0)) ;
    CU_TRY (cudaEventCreate (&c->t1)) ;
done:
    if (rc != GG_OK) ctx_destroy (c) ;
    return rc ;
}

// Borrow a context (waits while all GG_CTX_MAX are busy).
int ctx_acquire (gg_ctx **out)
{
    int rc = GG_OK ;
    *out = NULL ;
    pthread_mutex_lock (&pool_lock) ;
    for (;;)
    {
        for (int k = 0 ; k < pool_count ; k++)
        {
            if (!pool [k].busy)
            {
                pool [k].busy = true ;
                *out = &pool [k] ;
                goto found ;
            }
        }
        if (pool_count < GG_CTX_MAX)
        {
            rc = ctx_create (&pool [pool_count], gg_cuda_dev_id) ;
            if (rc != GG_OK) goto found ;
            pool [pool_count].busy = true ;
            *out = &pool [pool_count++] ;
            goto found ;
        }
        pthread_cond_wait (&pool_cond, &pool_lock) ;
    }
found:
    pthread_mutex_unlock (&pool_lock) ;
    return rc ;
}

void ctx_release (gg_ctx *c)
{
    pthread_mutex_lock (&pool_lock) ;
    c->busy = false ;
    pthread_cond_signal (&pool_cond) ;
    pthread_mutex_unlock (&pool_lock) ;
}

//------------------------------------------------------------------------------
// one call: the context and the device temporaries it took
//------------------------------------------------------------------------------

// A device allocation.  Stream-ordered (cudaMallocAsync): cheap when the pool
// has room, and freeing it does not synchronise the device.
int dev_alloc (gg_devcall *c, void **p, size_t bytes)
{
    int rc = GG_OK ;
    *p = NULL ;
    FAULT_TRY (GG_FAULT_ALLOC) ;
    CU_TRY (cudaMallocAsync (p, bytes > 0 ? bytes : 1, c->ctx->stream)) ;
    c->bytes += bytes ;
done:
    return rc ;
}

// A temporary for this call only.
int tmp_alloc (gg_devcall *c, void **p, size_t bytes)
{
    int rc = dev_alloc (c, p, bytes) ;
    if (rc == GG_OK)
    {
        if (c->ntmp == GG_CALL_TMP)
        {
            cudaFreeAsync (*p, c->ctx->stream) ;
            *p = NULL ;
            return GG_ERR_DEVICE ;
        }
        c->tmp [c->ntmp++] = *p ;
    }
    return rc ;
}

// Mark the start / end of the product on the stream (benchmarks only).
void mark_start (gg_devcall *c)
{
    if (atomic_load_explicit (&gg_cuda_timing_on, memory_order_relaxed))
    {
        c->timed = (cudaEventRecord (c->ctx->t0, c->ctx->stream) == cudaSuccess) ;
    }
}

void mark_end (gg_devcall *c)
{
    if (c->timed && cudaEventRecord (c->ctx->t1, c->ctx->stream) != cudaSuccess)
    {
        c->timed = false ;
    }
}

void call_free_tmp (gg_devcall *c)
{
    for (int k = 0 ; k < c->ntmp ; k++) cudaFreeAsync (c->tmp [k],
        c->ctx->stream) ;
    c->ntmp = 0 ;
}

//------------------------------------------------------------------------------
// for tests and benchmarks (backend/cuda/device.h)
//------------------------------------------------------------------------------

void gg_cuda_sync (void)
{
    if (atomic_load (&gg_cuda_started_pid) != getpid () || !gg_cuda_started_ok)
        return ;
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    pthread_mutex_lock (&free_streams_lock) ;
    for (int d = 0 ; d < GG_MAX_DEVICES ; d++)
    {
        if (free_streams [d] == NULL) continue ;
        (void) cudaSetDevice (d) ;
        (void) cudaStreamSynchronize (free_streams [d]) ;
    }
    pthread_mutex_unlock (&free_streams_lock) ;
    (void) cudaGetLastError () ;
    (void) cudaSetDevice (old) ;
}

void gg_cuda_timing (bool on)
{
    atomic_store (&gg_cuda_timing_on, on) ;
}

double gg_cuda_last_product_ms (void)
{
    return gg_cuda_last_ms ;
}

size_t gg_cuda_budget (void)
{
    return gg_cuda_dev_budget ;
}

// Wait for the call's stream: forms may lose this call's reference only once
// the GPU is done with them.
void stream_finish (gg_devcall *c, int *rc)
{
    cudaError_t e = cudaStreamSynchronize (c->ctx->stream) ;
    if (e != cudaSuccess && *rc == GG_OK) *rc = cuda_fail (e,
        "cudaStreamSynchronize", __LINE__) ;
}

//------------------------------------------------------------------------------
// devices: logical ids (GRBGPU_DEVICES, forms' records) and the real ones
//------------------------------------------------------------------------------

// A logical id is the runtime's device id, except under the test hook
// (gg_cuda_fake_devices, or the setting GRBGPU_TEST_FAKE_DEVICES): ids from
// the real count up to the pretended count then map to real device (id mod
// count), so that on a one-GPU host "0,1" puts slot 1 on a device other than
// the main one, and every path that records a form's device, sets it and
// frees there runs.
static int fake_count (void)
{
    int fake = atomic_load (&gg_cuda_fake) ;
    int set = grbgpu_settings_get ()->test_fake_devices ;
    return (set > fake) ? set : fake ;
}

int gg_cuda_phys (int dev)
{
    int n = gg_cuda_phys_count ;
    if (n > 0 && dev >= n && dev < fake_count ()) return dev % n ;
    return dev ;
}

int gg_cuda_device_count (void)
{
    int fake = fake_count () ;
    return (fake > gg_cuda_phys_count) ? fake : gg_cuda_phys_count ;
}

int gg_cuda_fake_devices (int n)
{
    if (n > GG_MAX_DEVICES) n = GG_MAX_DEVICES ;
    return atomic_exchange (&gg_cuda_fake, n) ;
}

int gg_cuda_set_device (int dev)
{
    cudaError_t e = cudaSetDevice (gg_cuda_phys (dev)) ;
    if (e != cudaSuccess) return cuda_fail (e, "cudaSetDevice", __LINE__) ;
    return GG_OK ;
}

// The stream forms of the runtime's device p are freed from (made on first
// use; the main device's is gg_cuda_free_stream); NULL when it cannot be
// made.  The caller has made p current.
cudaStream_t gg_cuda_free_stream_of (int p)
{
    if (p < 0 || p >= GG_MAX_DEVICES) return NULL ;
    pthread_mutex_lock (&free_streams_lock) ;
    if (free_streams [p] == NULL)
    {
        cudaError_t e = cudaStreamCreateWithFlags (&free_streams [p], cudaStreamNonBlocking) ;
        if (e != cudaSuccess)
        {
            (void) cuda_fail (e, "cudaStreamCreateWithFlags (free stream)", __LINE__) ;
            free_streams [p] = NULL ;
        }
    }
    cudaStream_t s = free_streams [p] ;
    pthread_mutex_unlock (&free_streams_lock) ;
    return s ;
}
