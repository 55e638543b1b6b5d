//------------------------------------------------------------------------------
// backend/device.c: the CUDA backend (memory, copies, streams, cuSPARSE/cuBLAS)
//------------------------------------------------------------------------------

// gg_cuda_start () (grbgpu_cuda_backend through the module's table) returns
// the gg_backend that runs products on the GPU:
//   spmm:  Y = S (+.*) X    cusparseSpMM (cusparseSpMV when n == 1)
//   sddmm: y = M .* (A B')  cusparseSDDMM
//   gemm:  Y = A (+.*) B'   cublasSgemm / cublasDgemm
// for PLUS with TIMES / FIRST / SECOND / PAIR over FP32 and FP64 (plus-times
// arithmetic on substituted values: SECOND uses all-ones values for S, FIRST
// and PAIR reduce to row sums), and through grbgpu's own kernels
// (kernels/gg_cuda.h) for every other semiring and type.
//
// Operands arrive as host arrays (kernels/gg_kernels.h).  This file owns
// everything between them and the device:
//  - start-up: lazy, on the first call in this process (a forked child
//    starts afresh); GRBGPU_DEVICE_ID; the device budget handed to the cache.
//  - a small pool of execution contexts (stream, cuSPARSE and cuBLAS handles,
//    four 16 MiB pinned staging buffers); a calling thread borrows one per
//    call.
//  - copies through the pinned buffers in chunks, several in flight, so that
//    the multi-threaded host copy of one chunk overlaps the DMA of the others
//    (pinned speed, bounded pinned memory; downloads land with non-temporal
//    stores).
//  - device forms of operands: when an operand carries a cache entry, its
//    device copy (with its cuSPARSE plans) is attached to the entry and the
//    next call with the unchanged object uploads nothing.
//  - errors: every CUDA / cuSPARSE / cuBLAS status is checked; on a failure
//    everything taken is released, the cache gives back device memory, and
//    the call is tried once more before GG_ERR_DEVMEM / GG_ERR_DEVICE /
//    GG_ERR_FAULT is returned (the dispatcher then asks the CPU library).
//
// Exact precision only: cuBLAS runs in CUBLAS_PEDANTIC_MATH (no TF32), and
// cuSPARSE computes in the operands' own type.

// This file is part of the CUDA module, libgrbgpu-cuda.so, which libgrbgpu.so
// opens on first use (backend/cuda_module.h, backend/cuda_loader.c); it is
// built only when configure found CUDA.

#include "config.h"
#include "backend/grbgpu_internal.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cuda_runtime_api.h>
// cusparse.h marks its legacy API deprecated in its own declarations
#define DISABLE_CUSPARSE_DEPRECATED
#include <cusparse.h>
#include <cublas_v2.h>

#include "backend/cache.h"
#include "backend/cuda_module.h"
#include "backend/hostcopy.h"
#include "kernels/gg_cuda.h"

//------------------------------------------------------------------------------
// tuning constants
//------------------------------------------------------------------------------

#define GG_CTX_MAX        4                 // contexts (streams) in the pool
#define GG_STAGE_BUFS     4                 // pinned staging buffers per context
#define GG_STAGE_BYTES    ((size_t) 16 << 20)  // each one (one chunk of a copy)
// (bench/xfer_bench on the H200 host, 512 MiB: 2 x 32 MiB staged at 49.8 GB/s
// up and 46.7 down; 4 x 16 MiB at 52.4 up and, with non-temporal stores into
// the destination, 53.7 down; pinned DMA alone 54-55.  Chunks of 8 MiB or
// less lose to the per-chunk event round trip: 4 MiB in 1 MiB chunks came
// down at 6.9 GB/s.)
#define GG_PAR_COPY_MIN   ((size_t) 256 << 10) // host memcpy: bytes per thread
#define GG_BUDGET_FRACTION 0.75             // of free memory, when not set
#define GG_PLANS          4                 // cuSPARSE plans kept per form
#define GG_HOT_MIN_NNZ    ((int64_t) 12 << 20) // hot/cold SpMV from this many
                                            // entries (R-MAT 2^20, 16.1M, 1.2x
                                            // cuSPARSE; smaller not measured)
#define GG_OWN_SPMV_MAX_NNZ ((int64_t) 300000) // own row-split SpMV for
#define GG_OWN_SPMV_MIN_ROWS ((int64_t) 2000)  // small matrices, see
                                               // spmm_use_vendor
#define GG_HOT_MIN_SHARE  0.55              // ... when its hot columns hold at
                                            // least this share of the entries
#define GG_BAND_MIN_SHARE 0.60              // band SpMV (same floor of entries)
                                            // when its bands hold at least
                                            // this share (R-MAT 2^20: 99.7 %,
                                            // 2^22: 99.2 %, 2.2-2.5x cuSPARSE)
#define GG_FORM_MAGIC_CSR   0x67674353u     // "ggCS"
#define GG_FORM_MAGIC_DENSE 0x6767444eu     // "ggDN"

//------------------------------------------------------------------------------
// process-wide state
//------------------------------------------------------------------------------

// One execution context: a thread borrows it for the duration of one call.
typedef struct
{
    bool busy ;
    cudaStream_t stream ;
    cusparseHandle_t sparse ;
    cublasHandle_t blas ;
    void *stage [GG_STAGE_BUFS] ;       // pinned staging buffers (NULL: not
                                        // yet made)
    cudaEvent_t staged [GG_STAGE_BUFS] ; // last copy through stage [b] done
    cudaEvent_t t0, t1 ;        // around the product (benchmarks only)
}
gg_ctx ;

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT ;
static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER ;
static _Atomic pid_t started_pid = 0 ;     // the process that ran start-up
static const gg_backend *started_result ;  // its outcome
static _Atomic unsigned generation = 0 ;   // bumped by every start-up
static int dev_id = 0 ;
static cudaStream_t free_stream ;          // where forms are freed from
static size_t dev_budget ;
static _Atomic bool dev_broken = false ;   // a sticky CUDA error was seen

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER ;
static pthread_cond_t pool_cond = PTHREAD_COND_INITIALIZER ;
static gg_ctx pool [GG_CTX_MAX] ;
static int pool_count = 0 ;

static const gg_backend cuda_backend ;

// benchmarks: time the product itself with CUDA events (grbgpu_cuda_timing)
static _Atomic bool timing_on = false ;
static _Thread_local double last_product_ms = -1 ;

//------------------------------------------------------------------------------
// small helpers
//------------------------------------------------------------------------------

static double now_seconds (void)
{
    struct timespec t ;
    clock_gettime (CLOCK_MONOTONIC, &t) ;
    return (double) t.tv_sec + 1e-9 * (double) t.tv_nsec ;
}

// memcpy, split over OpenMP threads when large (backend/hostcopy.h): up to 16
// threads, 256 KiB or more each.
static void copy_host (void *dst, const void *src, size_t bytes, bool nt)
{
#ifdef _OPENMP
    if (bytes >= GG_PAR_COPY_MIN && !omp_in_parallel ())
    {
        int nth = omp_get_max_threads () ;
        if (nth > 16) nth = 16 ;
        if ((size_t) nth > bytes / GG_PAR_COPY_MIN) nth = (int) (bytes / GG_PAR_COPY_MIN) ;
        gg_copy_split (dst, src, bytes, nth, nt) ;
        return ;
    }
#endif
    gg_copy_part (dst, src, bytes, nt) ;
}

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
static int cuda_fail (cudaError_t e, const char *what, int line)
{
    (void) cudaGetLastError () ;    // clear a non-sticky error
    if (cuda_sticky (e)) atomic_store (&dev_broken, true) ;
    grbgpu_log (1, "cuda: %s failed (line %d): %s", what, line,
        cudaGetErrorString (e)) ;
    return (e == cudaErrorMemoryAllocation) ? GG_ERR_DEVMEM : GG_ERR_DEVICE ;
}

static int sparse_fail (cusparseStatus_t s, const char *what, int line)
{
    grbgpu_log (1, "cuda: %s failed (line %d): %s", what, line,
        cusparseGetErrorString (s)) ;
    return (s == CUSPARSE_STATUS_ALLOC_FAILED ||
            s == CUSPARSE_STATUS_INSUFFICIENT_RESOURCES) ? GG_ERR_DEVMEM
         : (s == CUSPARSE_STATUS_NOT_SUPPORTED) ? GG_ERR_UNSUPPORTED
         : GG_ERR_DEVICE ;
}

static int blas_fail (cublasStatus_t s, const char *what, int line)
{
    grbgpu_log (1, "cuda: %s failed (line %d): cublas status %d", what, line,
        (int) s) ;
    return (s == CUBLAS_STATUS_ALLOC_FAILED) ? GG_ERR_DEVMEM
         : (s == CUBLAS_STATUS_NOT_SUPPORTED) ? GG_ERR_UNSUPPORTED
         : GG_ERR_DEVICE ;
}

// Checked calls: on failure set rc and jump to the function's `done` label,
// where everything taken is released.
#define CU_TRY(expr) do { cudaError_t e_ = (expr) ; if (e_ != cudaSuccess) \
    { rc = cuda_fail (e_, #expr, __LINE__) ; goto done ; } } while (0)
#define SP_TRY(expr) do { cusparseStatus_t s_ = (expr) ; \
    if (s_ != CUSPARSE_STATUS_SUCCESS) \
    { rc = sparse_fail (s_, #expr, __LINE__) ; goto done ; } } while (0)
#define BL_TRY(expr) do { cublasStatus_t s_ = (expr) ; \
    if (s_ != CUBLAS_STATUS_SUCCESS) \
    { rc = blas_fail (s_, #expr, __LINE__) ; goto done ; } } while (0)
#define GG_TRY(expr) do { rc = (expr) ; if (rc != GG_OK) goto done ; } while (0)

// An injected fault at point `pt` (GRBGPU_FAULT) fails like the real thing.
#define FAULT_TRY(pt) do { if (grbgpu_fault (pt)) \
    { grbgpu_log (2, "cuda: injected fault at line %d", __LINE__) ; \
      rc = GG_ERR_FAULT ; goto done ; } } while (0)

static cudaDataType cuda_type (gg_type t)
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
    memset (pool, 0, sizeof (pool)) ;
    pool_count = 0 ;
    atomic_store (&started_pid, 0) ;
    atomic_store (&dev_broken, false) ;
    started_result = NULL ;
}

static void register_atfork (void)
{
    pthread_atfork (NULL, NULL, atfork_child) ;
}

// Bring CUDA up in this process: returns the backend or NULL (logged once).
static const gg_backend *device_start (void)
{
    const gg_settings *settings = grbgpu_settings_get () ;
    int count = 0 ;
    cudaError_t e = cudaGetDeviceCount (&count) ;
    if (e != cudaSuccess || count <= 0)
    {
        grbgpu_log (1, "cuda: no usable device (%s)", (e != cudaSuccess) ?
            cudaGetErrorString (e) : "device count is 0") ;
        (void) cudaGetLastError () ;
        return NULL ;
    }
    dev_id = settings->device_id ;
    if (dev_id < 0 || dev_id >= count)
    {
        grbgpu_log (1, "cuda: GRBGPU_DEVICE_ID=%d but %d device(s)", dev_id,
            count) ;
        return NULL ;
    }
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    struct cudaDeviceProp prop ;
    size_t free_b = 0, total_b = 0 ;
    if ((e = cudaSetDevice (dev_id)) != cudaSuccess ||
        (e = cudaGetDeviceProperties (&prop, dev_id)) != cudaSuccess ||
        (e = cudaMemGetInfo (&free_b, &total_b)) != cudaSuccess ||
        (e = cudaStreamCreateWithFlags (&free_stream, cudaStreamNonBlocking))
            != cudaSuccess)
    {
        grbgpu_log (1, "cuda: device %d unusable: %s", dev_id,
            cudaGetErrorString (e)) ;
        (void) cudaGetLastError () ;
        (void) cudaSetDevice (old) ;
        return NULL ;
    }

    // keep freed stream-ordered memory in the pool (re-mapping is slow); it
    // is trimmed when an allocation fails
    cudaMemPool_t mempool ;
    if (cudaDeviceGetDefaultMemPool (&mempool, dev_id) == cudaSuccess)
    {
        uint64_t keep = UINT64_MAX ;
        (void) cudaMemPoolSetAttribute (mempool,
            cudaMemPoolAttrReleaseThreshold, &keep) ;
    }
    (void) cudaGetLastError () ;

    // device budget of the cache: GRBGPU_DEVICE_MEMORY, else a fraction of
    // the memory free now (the rest is for per-call operands and libraries)
    dev_budget = (settings->device_memory > 0)
        ? (size_t) settings->device_memory
        : (size_t) (GG_BUDGET_FRACTION * (double) free_b) ;
    grbgpu_cache_set_device_budget (dev_budget) ;
    atomic_fetch_add (&generation, 1) ;
    grbgpu_log (1, "cuda: device %d: %s, %d SMs, %.1f GiB free of %.1f, "
        "cache budget %.1f GiB", dev_id, prop.name, prop.multiProcessorCount,
        free_b / 1073741824.0, total_b / 1073741824.0,
        dev_budget / 1073741824.0) ;
    (void) cudaSetDevice (old) ;
    return &cuda_backend ;
}

static void ctx_destroy (gg_ctx *c) ;

// At exit, in the process that started CUDA: free the cache's device copies
// and the context pool while the CUDA runtime is still alive (this handler is
// registered after the runtime's own, so it runs first), so that nothing is
// left for compute-sanitizer to report as leaked.
static void device_teardown (void)
{
    if (atomic_load (&started_pid) != getpid () || started_result == NULL) return ;
    grbgpu_cache_clear () ;
    pthread_mutex_lock (&pool_lock) ;
    bool idle = true ;
    for (int k = 0 ; k < pool_count ; k++) idle = idle && !pool [k].busy ;
    if (idle)
    {
        (void) cudaSetDevice (dev_id) ;
        for (int k = 0 ; k < pool_count ; k++) ctx_destroy (&pool [k]) ;
        pool_count = 0 ;
        if (free_stream != NULL)
        {
            (void) cudaStreamSynchronize (free_stream) ;
            (void) cudaStreamDestroy (free_stream) ;
            free_stream = NULL ;
        }
        (void) cudaGetLastError () ;
    }
    pthread_mutex_unlock (&pool_lock) ;
}

const gg_backend *gg_cuda_start (void)
{
    pthread_once (&atfork_once, register_atfork) ;
    pid_t me = getpid () ;
    if (atomic_load (&started_pid) == me) return started_result ;
    pthread_mutex_lock (&start_lock) ;
    if (atomic_load (&started_pid) != me)
    {
        started_result = device_start () ;
        atomic_store (&started_pid, me) ;
        if (started_result != NULL) atexit (device_teardown) ;
    }
    pthread_mutex_unlock (&start_lock) ;
    return started_result ;
}

//------------------------------------------------------------------------------
// contexts
//------------------------------------------------------------------------------

static void ctx_destroy (gg_ctx *c)
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

static int ctx_create (gg_ctx *c)
{
    int rc = GG_OK ;
    memset (c, 0, sizeof (*c)) ;
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
static int ctx_acquire (gg_ctx **out)
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
            rc = ctx_create (&pool [pool_count]) ;
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

static void ctx_release (gg_ctx *c)
{
    pthread_mutex_lock (&pool_lock) ;
    c->busy = false ;
    pthread_cond_signal (&pool_cond) ;
    pthread_mutex_unlock (&pool_lock) ;
}

//------------------------------------------------------------------------------
// one call: the context and the device temporaries it took
//------------------------------------------------------------------------------

#define GG_CALL_TMP 8

typedef struct
{
    gg_ctx *ctx ;
    bool timed ;                // t0 / t1 were recorded around the product
    void *tmp [GG_CALL_TMP] ;   // stream-ordered temporaries, freed at the end
    int ntmp ;
    size_t bytes ;              // device bytes this call allocated
}
gg_call ;

// A device allocation.  Stream-ordered (cudaMallocAsync): cheap when the pool
// has room, and freeing it does not synchronise the device.
static int dev_alloc (gg_call *c, void **p, size_t bytes)
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
static int tmp_alloc (gg_call *c, void **p, size_t bytes)
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
static void mark_start (gg_call *c)
{
    if (atomic_load_explicit (&timing_on, memory_order_relaxed))
    {
        c->timed = (cudaEventRecord (c->ctx->t0, c->ctx->stream) == cudaSuccess) ;
    }
}

static void mark_end (gg_call *c)
{
    if (c->timed && cudaEventRecord (c->ctx->t1, c->ctx->stream) != cudaSuccess)
    {
        c->timed = false ;
    }
}

static void call_free_tmp (gg_call *c)
{
    for (int k = 0 ; k < c->ntmp ; k++) cudaFreeAsync (c->tmp [k],
        c->ctx->stream) ;
    c->ntmp = 0 ;
}

//------------------------------------------------------------------------------
// copies through the pinned staging buffers
//------------------------------------------------------------------------------

// Make the pinned buffers of this context (once).  On failure copies go
// straight from pageable memory (slower, still correct).
static bool stage_ready (gg_ctx *x)
{
    if (x->stage [0] != NULL) return true ;
    if (grbgpu_fault (GG_FAULT_ALLOC)) return false ;
    for (int b = 0 ; b < GG_STAGE_BUFS ; b++)
    {
        if (cudaHostAlloc (&x->stage [b], GG_STAGE_BYTES,
            cudaHostAllocDefault) != cudaSuccess)
        {
            (void) cudaGetLastError () ;
            for (int k = 0 ; k < b ; k++) cudaFreeHost (x->stage [k]) ;
            for (int k = 0 ; k < GG_STAGE_BUFS ; k++) x->stage [k] = NULL ;
            grbgpu_log (1, "cuda: no pinned staging memory; pageable copies") ;
            return false ;
        }
    }
    return true ;
}

// Chunk j of a staged copy: its offset and length.
static size_t chunk_at (size_t j, size_t bytes, size_t *len)
{
    size_t off = j * GG_STAGE_BYTES ;
    *len = bytes - off < GG_STAGE_BYTES ? bytes - off : GG_STAGE_BYTES ;
    return off ;
}

// dst (device) = src (host), bytes.  Enqueued on the call's stream; returns
// once src may be reused.  Chunk j is memcpy'd into pinned buffer j % B once
// that buffer's previous DMA (chunk j - B) is done, while up to B - 1 earlier
// chunks are in flight.
static int upload (gg_call *c, void *dst, const void *src, size_t bytes)
{
    int rc = GG_OK ;
    if (bytes == 0) return GG_OK ;
    gg_ctx *x = c->ctx ;
    FAULT_TRY (GG_FAULT_COPY) ;
    // (the pinned buffers are made at a context's first copy: not counted as
    // copy time)
    const bool staged = stage_ready (x) ;
    double t0 = now_seconds () ;
    if (!staged)
    {
        CU_TRY (cudaMemcpyAsync (dst, src, bytes, cudaMemcpyHostToDevice,
            x->stream)) ;
    }
    else
    {
        size_t nch = (bytes + GG_STAGE_BYTES - 1) / GG_STAGE_BYTES ;
        for (size_t j = 0 ; j < nch ; j++)
        {
            int b = (int) (j % GG_STAGE_BUFS) ;
            size_t len, off = chunk_at (j, bytes, &len) ;
            CU_TRY (cudaEventSynchronize (x->staged [b])) ;
            copy_host (x->stage [b], (const char *) src + off, len, false) ;
            CU_TRY (cudaMemcpyAsync ((char *) dst + off, x->stage [b], len,
                cudaMemcpyHostToDevice, x->stream)) ;
            CU_TRY (cudaEventRecord (x->staged [b], x->stream)) ;
        }
    }
    grbgpu_count (GG_STAT_BYTES_H2D, bytes) ;
    grbgpu_count_seconds (1, now_seconds () - t0) ;
done:
    return rc ;
}

// dst (host) = src (device), bytes, after all work enqueued on the stream.
// B - 1 chunks are in flight while the oldest one is copied out of its pinned
// buffer into dst with non-temporal stores.
static int download (gg_call *c, void *dst, const void *src, size_t bytes)
{
    int rc = GG_OK ;
    if (bytes == 0) return GG_OK ;
    gg_ctx *x = c->ctx ;
    FAULT_TRY (GG_FAULT_COPY) ;
    const bool staged = stage_ready (x) ;
    double t0 = now_seconds () ;
    if (!staged)
    {
        CU_TRY (cudaMemcpyAsync (dst, src, bytes, cudaMemcpyDeviceToHost,
            x->stream)) ;
        CU_TRY (cudaStreamSynchronize (x->stream)) ;
    }
    else
    {
        const size_t ahead = GG_STAGE_BUFS - 1 ;
        size_t nch = (bytes + GG_STAGE_BYTES - 1) / GG_STAGE_BYTES ;
        for (size_t j = 0 ; j < nch + ahead ; j++)
        {
            // enqueue chunk j (its buffer was drained in iteration j - 1)
            if (j < nch)
            {
                int b = (int) (j % GG_STAGE_BUFS) ;
                size_t len, off = chunk_at (j, bytes, &len) ;
                CU_TRY (cudaMemcpyAsync (x->stage [b], (const char *) src +
                    off, len, cudaMemcpyDeviceToHost, x->stream)) ;
                CU_TRY (cudaEventRecord (x->staged [b], x->stream)) ;
            }
            // drain chunk j - ahead
            if (j >= ahead && j - ahead < nch)
            {
                size_t d = j - ahead ;
                int b = (int) (d % GG_STAGE_BUFS) ;
                size_t len, off = chunk_at (d, bytes, &len) ;
                CU_TRY (cudaEventSynchronize (x->staged [b])) ;
                copy_host ((char *) dst + off, x->stage [b], len, true) ;
            }
        }
    }
    grbgpu_count (GG_STAT_BYTES_D2H, bytes) ;
    grbgpu_count_seconds (2, now_seconds () - t0) ;
done:
    return rc ;
}

// dst [0..count) = value (elem bytes each), on the device: one small upload,
// then doubling device-to-device copies (no kernel needed).
static int fill_value (gg_call *c, void *dst, const void *value, size_t elem,
    size_t count)
{
    int rc = GG_OK ;
    enum { SEED = 256 } ;
    unsigned char seed [SEED * 8] ;
    if (count == 0) return GG_OK ;
    size_t first = count < SEED ? count : SEED ;
    for (size_t k = 0 ; k < first ; k++) memcpy (seed + k * elem, value, elem) ;
    FAULT_TRY (GG_FAULT_COPY) ;
    // pageable source: the call returns once seed has been staged
    CU_TRY (cudaMemcpyAsync (dst, seed, first * elem, cudaMemcpyHostToDevice,
        c->ctx->stream)) ;
    grbgpu_count (GG_STAT_BYTES_H2D, first * elem) ;
    for (size_t have = first ; have < count ; have *= 2)
    {
        size_t len = (count - have < have) ? count - have : have ;
        CU_TRY (cudaMemcpyAsync ((char *) dst + have * elem, dst, len * elem,
            cudaMemcpyDeviceToDevice, c->ctx->stream)) ;
    }
done:
    return rc ;
}

static int fill_one (gg_call *c, void *dst, gg_type t, size_t count)
{
    float one_f = 1 ;
    double one_d = 1 ;
    return fill_value (c, dst, (t == GG_FP32) ? (const void *) &one_f
        : (const void *) &one_d, gg_type_size (t), count) ;
}

//------------------------------------------------------------------------------
// device forms of operands
//------------------------------------------------------------------------------

// A form is reference counted: the cache entry holds one reference while it
// is attached, and each call using it holds one, so an eviction while a call
// runs frees the memory only when that call is done.

typedef enum { PLAN_SPMM, PLAN_SPMV } plan_kind ;

// A cuSPARSE plan for S (descriptor + buffer, preprocessed), reusable for
// products with the same values array, type, N and algorithm.
typedef struct
{
    bool valid ;
    plan_kind kind ;
    const void *vals ;
    gg_type type ;
    int64_t n ;
    int alg ;
    cusparseConstSpMatDescr_t A ;
    void *buf ;
    cudaEvent_t last ;          // the last product that used buf
}
gg_plan ;

// What every device form starts with: kind, references (the cache entry's
// and each call's), the CUDA start-up it belongs to, size, and an event that
// marks the end of its uploads.
typedef struct dev_form dev_form ;
struct dev_form
{
    unsigned magic ;            // GG_FORM_MAGIC_CSR or _DENSE
    _Atomic int refs ;
    unsigned generation ;       // CUDA start-up it belongs to
    size_t bytes ;
    cudaEvent_t ready ;         // uploads into this form are done
    void (*destroy) (dev_form *) ;
} ;

typedef struct
{
    dev_form h ;                // GG_FORM_MAGIC_CSR
    int64_t m, k, nnz ;
    int32_t *p, *i ;
    void *x ;                   // values (iso expanded), or NULL
    gg_type xtype ;
    _Atomic int x_special ;     // x: 0 not yet known, 1 no special values,
                                // 2 some (values_special)
    void *ones ;                // nnz ones of onestype, or NULL
    gg_type onestype ;
    void *spmv_plan ;           // the own SpMV kernels' plan of the pattern
                                // (gg_cuda_spmv_plan_build), or NULL
    // the hot/cold SpMV form (gg_cuda_spmv_hot_build), made at the first SpMV
    // that wants it, under plan_lock: hot_K hot columns (hot), the column
    // indices with hot ones replaced by their slots (ih)
    bool hot_tried ;
    int64_t hot_K ;
    int32_t *hot, *ih ;
    // the band SpMV form (gg_cuda_spmv_band_build), the same way: made with
    // the form's values when it has them (4-byte types only)
    bool band_tried ;
    gg_spmv_band_form *band ;
    pthread_mutex_t plan_lock ;
    gg_plan plan [GG_PLANS] ;
    int next_plan ;
}
dev_csr ;

typedef struct
{
    dev_form h ;                // GG_FORM_MAGIC_DENSE
    int64_t nrows, ncols ;
    size_t elem ;
    void *x ;
    _Atomic int x_special ;     // x: 0 not yet known, 1 no special values,
                                // 2 some (values_special)
}
dev_dense ;

static void plan_clear (gg_plan *pl, cudaStream_t s)
{
    if (!pl->valid) return ;
    if (pl->A != NULL) cusparseDestroySpMat (pl->A) ;
    if (pl->buf != NULL)
    {
        if (pl->last != NULL) cudaStreamWaitEvent (s, pl->last, 0) ;
        cudaFreeAsync (pl->buf, s) ;
    }
    if (pl->last != NULL) cudaEventDestroy (pl->last) ;
    memset (pl, 0, sizeof (*pl)) ;
}

// Free a form's device memory: its users have all synchronised (they dropped
// their references after the product finished), so any stream will do.  A
// form made by another start-up (a forked child's parent) owns nothing here.
static void form_free_device (dev_form *h, void *const *ptrs, int nptrs,
    dev_csr *plans)
{
    if (h->generation != atomic_load (&generation) ||
        atomic_load (&started_pid) != getpid ())
    {
        // the host part of a band form only
        if (plans != NULL) gg_cuda_spmv_band_free (plans->band, false, NULL) ;
        return ;
    }
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    (void) cudaSetDevice (dev_id) ;
    if (plans != NULL)
    {
        for (int k = 0 ; k < GG_PLANS ; k++) plan_clear (&plans->plan [k], free_stream) ;
        gg_cuda_spmv_band_free (plans->band, true, free_stream) ;
    }
    for (int k = 0 ; k < nptrs ; k++) if (ptrs [k] != NULL) cudaFreeAsync (ptrs [k], free_stream) ;
    if (h->ready != NULL) cudaEventDestroy (h->ready) ;
    (void) cudaGetLastError () ;
    (void) cudaSetDevice (old) ;
}

static void csr_destroy (dev_form *h)
{
    dev_csr *f = (dev_csr *) h ;
    void *const ptrs [7] = { f->p, f->i, f->x, f->ones, f->spmv_plan, f->hot,
        f->ih } ;
    form_free_device (h, ptrs, 7, f) ;
    pthread_mutex_destroy (&f->plan_lock) ;
    free (f) ;
}

static void dense_destroy (dev_form *h)
{
    dev_dense *f = (dev_dense *) h ;
    void *const ptrs [1] = { f->x } ;
    form_free_device (h, ptrs, 1, NULL) ;
    free (f) ;
}

static void form_unref (dev_form *h)
{
    if (h != NULL && atomic_fetch_sub (&h->refs, 1) == 1) h->destroy (h) ;
}
static void csr_unref (dev_csr *f) { if (f != NULL) form_unref (&f->h) ; }
static void dense_unref (dev_dense *f) { if (f != NULL) form_unref (&f->h) ; }

// The cache's dev_free: drop the entry's reference.
static void form_dev_free (void *dev) { form_unref ((dev_form *) dev) ; }

// A new form of this kind with one reference (the caller's), or NULL.
static dev_form *form_new (size_t size, unsigned magic, void (*destroy) (dev_form *))
{
    dev_form *h = calloc (1, size) ;
    if (h == NULL) return NULL ;
    h->magic = magic ;
    atomic_init (&h->refs, 1) ;
    h->generation = atomic_load (&generation) ;
    h->destroy = destroy ;
    return h ;
}

// The device form attached to cache entry e when fits () accepts it, else a
// new one from build () (attached to e, replacing one that does not fit).
// Returns it with a reference for the caller; the call's stream waits for
// its uploads.
typedef bool (*form_fits_fn) (const dev_form *have, const void *arg) ;
typedef int (*form_build_fn) (gg_call *c, const void *arg, dev_form **out) ;

static int form_get (gg_call *c, gg_cache_entry *e, form_fits_fn fits,
    form_build_fn build, const void *arg, dev_form **out)
{
    int rc = GG_OK ;
    dev_form *f = NULL ;
    *out = NULL ;
    if (e != NULL)
    {
        pthread_mutex_lock (&e->lock) ;
        dev_form *have = (dev_form *) e->dev ;
        if (have != NULL && fits (have, arg))
        {
            atomic_fetch_add (&have->refs, 1) ;
            f = have ;
        }
        pthread_mutex_unlock (&e->lock) ;
    }
    if (f == NULL)
    {
        GG_TRY (build (c, arg, &f)) ;
        if (e != NULL)
        {
            pthread_mutex_lock (&e->lock) ;
            dev_form *have = (dev_form *) e->dev ;
            if (have != NULL && fits (have, arg))
            {
                // another thread attached one meanwhile: use that one
                atomic_fetch_add (&have->refs, 1) ;
                pthread_mutex_unlock (&e->lock) ;
                form_unref (f) ;
                f = have ;
            }
            else
            {
                if (have != NULL && e->dev_free != NULL) e->dev_free (have) ;
                atomic_fetch_add (&f->refs, 1) ;      // the entry's reference
                e->dev = f ;
                e->dev_bytes = f->bytes ;
                e->dev_free = form_dev_free ;
                grbgpu_cache_account_device (e, f->bytes) ;
                pthread_mutex_unlock (&e->lock) ;
            }
        }
    }
    CU_TRY (cudaStreamWaitEvent (c->ctx->stream, f->ready, 0)) ;
    *out = f ;
    f = NULL ;
done:
    form_unref (f) ;
    return rc ;
}

//------------------------------------------------------------------------------
// device forms: CSR
//------------------------------------------------------------------------------

// What a product needs from S's device form.
typedef struct
{
    bool x ;            // S's values, in type t
    bool ones ;         // nnz ones of type t (cuSPARSE SECOND / PAIR)
    gg_type t ;
}
csr_needs ;

typedef struct { const gg_csr *S ; const csr_needs *nd ; } csr_arg ;

static bool csr_fits (const dev_form *h, const void *arg)
{
    const gg_csr *S = ((const csr_arg *) arg)->S ;
    const csr_needs *nd = ((const csr_arg *) arg)->nd ;
    if (h->magic != GG_FORM_MAGIC_CSR || h->generation != atomic_load (&generation)) return false ;
    const dev_csr *f = (const dev_csr *) h ;
    return f->m == S->nrows && f->k == S->ncols && f->nnz == S->nnz
        && (!nd->x || (f->x != NULL && f->xtype == nd->t))
        && (!nd->ones || (f->ones != NULL && f->onestype == nd->t)) ;
}

// Build a device form of S with what nd asks for; one reference (the caller's).
static int csr_build (gg_call *c, const void *arg, dev_form **out)
{
    const gg_csr *S = ((const csr_arg *) arg)->S ;
    const csr_needs *nd = ((const csr_arg *) arg)->nd ;
    int rc = GG_OK ;
    *out = NULL ;
    dev_csr *f = (dev_csr *) form_new (sizeof (dev_csr), GG_FORM_MAGIC_CSR, csr_destroy) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->m = S->nrows ; f->k = S->ncols ; f->nnz = S->nnz ;
    pthread_mutex_init (&f->plan_lock, NULL) ;
    size_t pb = (size_t) (S->nrows + 1) * sizeof (int32_t) ;
    size_t ib = (size_t) S->nnz * sizeof (int32_t) ;
    size_t vb = (size_t) S->nnz * gg_type_size (nd->t) ;
    CU_TRY (cudaEventCreateWithFlags (&f->h.ready, cudaEventDisableTiming)) ;
    GG_TRY (dev_alloc (c, (void **) &f->p, pb)) ;
    GG_TRY (dev_alloc (c, (void **) &f->i, ib)) ;
    GG_TRY (upload (c, f->p, S->p32, pb)) ;
    GG_TRY (upload (c, f->i, S->i32, ib)) ;
    f->h.bytes = pb + ib ;
    if (S->nnz > 0)
    {
        // the row of every 256th entry: 4 bytes per 256 entries, made once
        // for the pattern so that the own SpMV kernels need no search per call
        // (a pattern the plan cannot describe goes without: the kernels then
        // make one per call or the chooser takes another variant)
        size_t qb = gg_cuda_spmv_plan_bytes (S->nnz) ;
        GG_TRY (dev_alloc (c, &f->spmv_plan, qb)) ;
        int prc = gg_cuda_spmv_plan_build (S->nrows, S->nnz, f->p,
            f->spmv_plan, c->ctx->stream) ;
        if (prc == GG_ERR_UNSUPPORTED)
        {
            CU_TRY (cudaFreeAsync (f->spmv_plan, c->ctx->stream)) ;
            f->spmv_plan = NULL ;
        }
        else
        {
            GG_TRY (prc) ;
            f->h.bytes += qb ;
        }
    }
    if (nd->x)
    {
        GG_TRY (dev_alloc (c, &f->x, vb)) ;
        if (S->iso)
        {
            // expand the single value: every consumer then sees plain values
            GG_TRY (fill_value (c, f->x, S->x, gg_type_size (nd->t),
                (size_t) S->nnz)) ;
        }
        else
        {
            GG_TRY (upload (c, f->x, S->x, vb)) ;
        }
        f->xtype = nd->t ;
        f->h.bytes += vb ;
    }
    if (nd->ones)
    {
        GG_TRY (dev_alloc (c, &f->ones, vb)) ;
        GG_TRY (fill_one (c, f->ones, nd->t, (size_t) S->nnz)) ;
        f->onestype = nd->t ;
        f->h.bytes += vb ;
    }
    CU_TRY (cudaEventRecord (f->h.ready, c->ctx->stream)) ;
    *out = &f->h ;
    f = NULL ;
done:
    if (f != NULL)
    {
        // still in this call's stream order: free there
        if (f->p) cudaFreeAsync (f->p, c->ctx->stream) ;
        if (f->i) cudaFreeAsync (f->i, c->ctx->stream) ;
        if (f->x) cudaFreeAsync (f->x, c->ctx->stream) ;
        if (f->ones) cudaFreeAsync (f->ones, c->ctx->stream) ;
        if (f->spmv_plan) cudaFreeAsync (f->spmv_plan, c->ctx->stream) ;
        f->p = f->i = NULL ; f->x = f->ones = f->spmv_plan = NULL ;
        csr_destroy (&f->h) ;
    }
    return rc ;
}

// The device form of S (see form_get).
static int csr_get (gg_call *c, const gg_csr *S, const csr_needs *nd,
    dev_csr **out)
{
    csr_arg a = { S, nd } ;
    dev_form *h = NULL ;
    int rc = form_get (c, (gg_cache_entry *) S->cache, csr_fits, csr_build, &a, &h) ;
    *out = (dev_csr *) h ;
    return rc ;
}

//------------------------------------------------------------------------------
// device forms: dense
//------------------------------------------------------------------------------

typedef struct { const gg_dense *X ; size_t elem ; } dense_arg ;

static bool dense_fits (const dev_form *h, const void *arg)
{
    const dense_arg *a = (const dense_arg *) arg ;
    if (h->magic != GG_FORM_MAGIC_DENSE || h->generation != atomic_load (&generation)) return false ;
    const dev_dense *f = (const dev_dense *) h ;
    return f->nrows == a->X->nrows && f->ncols == a->X->ncols && f->elem == a->elem ;
}

// Build a device copy of a dense operand; one reference (the caller's).
static int dense_build (gg_call *c, const void *arg, dev_form **out)
{
    const gg_dense *X = ((const dense_arg *) arg)->X ;
    const size_t elem = ((const dense_arg *) arg)->elem ;
    int rc = GG_OK ;
    *out = NULL ;
    dev_dense *f = (dev_dense *) form_new (sizeof (dev_dense), GG_FORM_MAGIC_DENSE, dense_destroy) ;
    if (f == NULL) return GG_ERR_NOMEM ;
    f->nrows = X->nrows ; f->ncols = X->ncols ; f->elem = elem ;
    f->h.bytes = (size_t) X->nrows * (size_t) X->ncols * elem ;
    CU_TRY (cudaEventCreateWithFlags (&f->h.ready, cudaEventDisableTiming)) ;
    GG_TRY (dev_alloc (c, &f->x, f->h.bytes)) ;
    GG_TRY (upload (c, f->x, X->x, f->h.bytes)) ;
    CU_TRY (cudaEventRecord (f->h.ready, c->ctx->stream)) ;
    *out = &f->h ;
    f = NULL ;
done:
    if (f != NULL)
    {
        if (f->x != NULL) cudaFreeAsync (f->x, c->ctx->stream) ;
        f->x = NULL ;
        dense_destroy (&f->h) ;
    }
    return rc ;
}

// The device copy of a dense operand (see form_get).
static int dense_get (gg_call *c, const gg_dense *X, size_t elem,
    dev_dense **out)
{
    dense_arg a = { X, elem } ;
    dev_form *h = NULL ;
    int rc = form_get (c, (gg_cache_entry *) X->cache, dense_fits, dense_build, &a, &h) ;
    *out = (dev_dense *) h ;
    return rc ;
}

//------------------------------------------------------------------------------
// cuSPARSE plans
//------------------------------------------------------------------------------

// The SpMM algorithm for a shape (row-major X and Y).  Measured on an H200
// (bench/NOTES.md), cuSPARSE's best CSR algorithm: R-MAT 2^20 (16M entries)
// FP32 N=32 ALG3, N=64..256 ALG2; FP64 N=32 ALG3 by 5 %, but road_usa_col
// FP64 N=32 ALG2 (0.17 vs 0.32 ms); the small graphs (amazon_photo,
// musae_facebook, < 1M entries) ALG3 at N=32 and 128 in FP32 (0.028 vs
// 0.036 ms, 0.033 vs 0.055), and at N=32 in FP64.  So: ALG3 for FP32 with
// N <= 32 or fewer than 1M entries, and for FP64 with N <= 32 and fewer than
// 1M entries; else ALG2.  GRBGPU_KERNEL=cusparse:alg1|alg2|alg3 forces one.
static cusparseSpMMAlg_t spmm_alg (int64_t n, int64_t nnz, gg_type t)
{
    const char *k = grbgpu_settings_get ()->kernel ;
    if (strcmp (k, "cusparse:alg1") == 0) return CUSPARSE_SPMM_CSR_ALG1 ;
    if (strcmp (k, "cusparse:alg2") == 0) return CUSPARSE_SPMM_CSR_ALG2 ;
    if (strcmp (k, "cusparse:alg3") == 0) return CUSPARSE_SPMM_CSR_ALG3 ;
    const bool small = nnz < 1000000 ;
    const bool alg3 = (t == GG_FP32) ? (n <= 32 || small) : (n <= 32 && small) ;
    return alg3 ? CUSPARSE_SPMM_CSR_ALG3 : CUSPARSE_SPMM_CSR_ALG2 ;
}

// Y = alpha * S_vals * X (SpMM, n > 1) or y = S_vals * x (SpMV, n == 1), on
// the call's stream, with a plan kept in the form.  Plans are shared by
// threads: plan_lock covers the enqueue, and `last` orders the GPU work of
// different streams that use the same buffer.
static int sparse_product (gg_call *c, dev_csr *f, const void *vals,
    gg_type t, int64_t n, const void *X, void *Y)
{
    int rc = GG_OK ;
    cusparseHandle_t h = c->ctx->sparse ;
    cudaStream_t s = c->ctx->stream ;
    cudaDataType dt = cuda_type (t) ;
    float af = 1, bf = 0 ;
    double ad = 1, bd = 0 ;
    const void *alpha = (t == GG_FP32) ? (const void *) &af : (const void *) &ad ;
    const void *beta = (t == GG_FP32) ? (const void *) &bf : (const void *) &bd ;
    plan_kind kind = (n == 1) ? PLAN_SPMV : PLAN_SPMM ;
    int alg = (kind == PLAN_SPMV) ? (int) CUSPARSE_SPMV_CSR_ALG1
        : (int) spmm_alg (n, f->nnz, t) ;
    cusparseConstDnMatDescr_t Bd = NULL ;
    cusparseDnMatDescr_t Cd = NULL ;
    cusparseConstDnVecDescr_t xv = NULL ;
    cusparseDnVecDescr_t yv = NULL ;
    bool locked = false ;

    if (kind == PLAN_SPMM)
    {
        SP_TRY (cusparseCreateConstDnMat (&Bd, f->k, n, n, X, dt,
            CUSPARSE_ORDER_ROW)) ;
        SP_TRY (cusparseCreateDnMat (&Cd, f->m, n, n, Y, dt,
            CUSPARSE_ORDER_ROW)) ;
    }
    else
    {
        SP_TRY (cusparseCreateConstDnVec (&xv, f->k, X, dt)) ;
        SP_TRY (cusparseCreateDnVec (&yv, f->m, Y, dt)) ;
    }

    pthread_mutex_lock (&f->plan_lock) ;
    locked = true ;
    gg_plan *pl = NULL ;
    for (int k = 0 ; k < GG_PLANS && pl == NULL ; k++)
    {
        gg_plan *q = &f->plan [k] ;
        if (q->valid && q->kind == kind && q->vals == vals && q->type == t
            && q->n == n && q->alg == alg) pl = q ;
    }
    if (pl == NULL)
    {
        // a new plan in the next slot (round robin)
        pl = &f->plan [f->next_plan] ;
        f->next_plan = (f->next_plan + 1) % GG_PLANS ;
        plan_clear (pl, s) ;
        pl->valid = true ;
        pl->kind = kind ; pl->vals = vals ; pl->type = t ; pl->n = n ;
        pl->alg = alg ;
        CU_TRY (cudaEventCreateWithFlags (&pl->last, cudaEventDisableTiming)) ;
        SP_TRY (cusparseCreateConstCsr (&pl->A, f->m, f->k, f->nnz, f->p,
            f->i, vals, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
            CUSPARSE_INDEX_BASE_ZERO, dt)) ;
        size_t bsize = 0 ;
        if (kind == PLAN_SPMM)
        {
            SP_TRY (cusparseSpMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, Bd, beta, Cd,
                dt, (cusparseSpMMAlg_t) alg, &bsize)) ;
        }
        else
        {
            SP_TRY (cusparseSpMV_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
                alpha, pl->A, xv, beta, yv, dt, (cusparseSpMVAlg_t) alg,
                &bsize)) ;
        }
        GG_TRY (dev_alloc (c, &pl->buf, bsize)) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        if (kind == PLAN_SPMM)
        {
            SP_TRY (cusparseSpMM_preprocess (h,
                CUSPARSE_OPERATION_NON_TRANSPOSE,
                CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, Bd, beta, Cd,
                dt, (cusparseSpMMAlg_t) alg, pl->buf)) ;
        }
        else
        {
            SP_TRY (cusparseSpMV_preprocess (h,
                CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, xv, beta, yv,
                dt, (cusparseSpMVAlg_t) alg, pl->buf)) ;
        }
    }
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    CU_TRY (cudaStreamWaitEvent (s, pl->last, 0)) ;
    if (kind == PLAN_SPMM)
    {
        SP_TRY (cusparseSpMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, pl->A, Bd, beta, Cd, dt,
            (cusparseSpMMAlg_t) alg, pl->buf)) ;
    }
    else
    {
        SP_TRY (cusparseSpMV (h, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha,
            pl->A, xv, beta, yv, dt, (cusparseSpMVAlg_t) alg, pl->buf)) ;
    }
    CU_TRY (cudaEventRecord (pl->last, s)) ;

done:
    if (rc != GG_OK && pl != NULL && locked)
    {
        // a half-made or failed plan is not kept
        plan_clear (pl, s) ;
    }
    if (locked) pthread_mutex_unlock (&f->plan_lock) ;
    if (Bd != NULL) cusparseDestroyDnMat (Bd) ;
    if (Cd != NULL) cusparseDestroyDnMat (Cd) ;
    if (xv != NULL) cusparseDestroyDnVec (xv) ;
    if (yv != NULL) cusparseDestroyDnVec (yv) ;
    return rc ;
}

//------------------------------------------------------------------------------
// which path
//------------------------------------------------------------------------------

// PLUS with TIMES / FIRST / SECOND / PAIR over FP32 / FP64: the vendor
// libraries' arithmetic on substituted values.
static bool plus_times_family (const gg_semiring *sr)
{
    return sr->add == GG_ADD_PLUS && (sr->type == GG_FP32 ||
        sr->type == GG_FP64) && (sr->mul == GG_MUL_TIMES ||
        sr->mul == GG_MUL_FIRST || sr->mul == GG_MUL_SECOND ||
        sr->mul == GG_MUL_PAIR) ;
}

// GRBGPU_KERNEL: "" = chooser, "cusparse[:algN]" = the vendor library where it
// can, any other name = that variant of grbgpu's own kernels.
static bool kernel_is_vendor (void)
{
    return strncmp (grbgpu_settings_get ()->kernel, "cusparse", 8) == 0 ;
}

static const char *own_kernel_name (void)
{
    const char *k = grbgpu_settings_get ()->kernel ;
    return (k [0] == '\0' || kernel_is_vendor ()) ? NULL : k ;
}

static bool use_vendor (const gg_semiring *sr)
{
    return plus_times_family (sr) && own_kernel_name () == NULL ;
}

// SpMV (n == 1) through one of the kernels that stage x in shared memory,
// named form: "band" (kernels/gg_cuda.h, gg_cuda_spmv_band; taken where its
// bands hold at least GG_BAND_MIN_SHARE of the entries, band_form) or "hot"
// (gg_cuda_spmv_hot, the hot/cold form; where the band form is not made).
// Where they measured faster than cuSPARSE and our other SpMV kernels
// (bench/NOTES.md, sessions 3 and 4): 4-byte types from GG_HOT_MIN_NNZ
// entries (FP64's hot/cold, K about 20K, measured 0.94x of cuSPARSE on
// R-MAT 2^20 where FP32 gained 1.07-1.17x; the band kernel takes 4-byte
// values only).  GRBGPU_KERNEL=<form> forces it, any other forced kernel
// disables it.
static bool spmv_use_staged (const char *form, const gg_semiring *sr,
    const gg_csr *S, int64_t n)
{
    if (n != 1 || kernel_is_vendor ()) return false ;
    const char *k = own_kernel_name () ;
    if (k != NULL) return strcmp (k, form) == 0 ;
    return gg_type_size (sr->type) == 4 && S->nnz >= GG_HOT_MIN_NNZ ;
}

static bool spmv_use_hot (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    return spmv_use_staged ("hot", sr, S, n) ;
}

static bool spmv_use_band (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    return spmv_use_staged ("band", sr, S, n) ;
}

// The own SpMM variant: GRBGPU_KERNEL, else the chooser, told the longest row
// and that the form keeps the SpMV plan.
static const char *spmm_kernel_name (const gg_csr *S, int64_t n)
{
    const char *k = own_kernel_name () ;
    return (k != NULL && strcmp (k, "hot") != 0 && strcmp (k, "band") != 0) ? k
        : gg_cuda_spmm_choose_plan (S->nrows, n, S->nnz, S->max_row) ;
}

// SpMM of the plus-times family: cuSPARSE, except where our kernels
// measured faster on the H200 (bench/NOTES.md), unless GRBGPU_KERNEL=cusparse
// forces the vendor library:
//  - matrices without skewed rows at 2 <= n <= 32 (road networks 2.2x at
//    n = 32);
//  - SpMV (n = 1) where the chooser takes a row-split kernel on a small
//    matrix of enough rows (one launch of ~7 us against cuSPARSE's ~12:
//    1.13-1.83x on the 10 such real matrices of session 3; the ones left out
//    measured 0.80x with 496 rows and 0.86-1.09x from 700K entries);
//  - large power-law SpMV: the hot/cold kernel (spmv_use_hot).
static bool spmm_use_vendor (const gg_semiring *sr, const gg_csr *S, int64_t n)
{
    if (!use_vendor (sr) || spmv_use_hot (sr, S, n) || spmv_use_band (sr, S, n)) return false ;
    if (kernel_is_vendor () || S->max_row < 0 || S->nrows == 0) return true ;
    if (n == 1)
    {
        return !(S->nnz <= GG_OWN_SPMV_MAX_NNZ && S->nrows >= GG_OWN_SPMV_MIN_ROWS
            && strncmp (spmm_kernel_name (S, 1), "row_g", 5) == 0) ;
    }
    double mean = (double) S->nnz / (double) S->nrows ;
    bool skewed = S->max_row > 64 && (double) S->max_row > 4.0 * mean ;
    return skewed || n > 32 ;
}

// Write the value v (type t) into Y [k].
static inline void put_value (void *Y, size_t k, gg_type t, double v)
{
    if (t == GG_FP32) ((float *) Y) [k] = (float) v ;
    else ((double *) Y) [k] = v ;
}

static inline double get_value (const void *Y, size_t k, gg_type t)
{
    return (t == GG_FP32) ? (double) ((const float *) Y) [k]
        : ((const double *) Y) [k] ;
}

//------------------------------------------------------------------------------
// special values: the vendor libraries are handed ordinary values only
//------------------------------------------------------------------------------

// cuSPARSE and cuBLAS compute on substituted values (all-ones arrays for
// SECOND and PAIR, row sums for FIRST) and may pad what they are given with
// zeros (blocked and merge-based algorithms), and their documentation does
// not say that a padded or substituted value never meets a real one: 0 * INF
// or INF - INF there is NaN where the CPU library, which combines only the
// real terms, answers INF (a PLUS_SECOND SpMM with an iso +INF dense operand
// came back NaN everywhere).  Nor do they document keeping subnormals.  So a
// call whose values read by a vendor library hold an infinity, a NaN or a
// subnormal runs on grbgpu's own kernels, which combine exactly the terms the
// CPU library does (kernels/gg_semiring.cuh, gg_identity; built without
// flushing subnormals).  The check (gg_cuda_special_values) is one pass over
// the device copy, made once per device form, so once per version of a
// cached operand.

// Whether the count values of type t at x (device) hold a special value;
// *known remembers the answer in the form (0: not yet asked, 1: none, 2:
// some).
static int values_special (gg_call *c, gg_type t, const void *x, size_t count,
    _Atomic int *known, bool *special)
{
    int rc = GG_OK ;
    int k = atomic_load (known) ;
    if (k == 0)
    {
        int *dflag, flag = 1 ;
        GG_TRY (tmp_alloc (c, (void **) &dflag, sizeof (int))) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        int frc = gg_cuda_special_values (t, x, (int64_t) count, dflag, c->ctx->stream) ;
        if (frc == GG_OK)
        {
            CU_TRY (cudaMemcpyAsync (&flag, dflag, sizeof (int),
                cudaMemcpyDeviceToHost, c->ctx->stream)) ;
            CU_TRY (cudaStreamSynchronize (c->ctx->stream)) ;
        }
        else if (frc != GG_ERR_UNSUPPORTED) GG_TRY (frc) ;
        // (a layout the check does not take counts as special)
        k = (frc == GG_OK && flag == 0) ? 1 : 2 ;
        atomic_store (known, k) ;
    }
    *special = (k == 2) ;
done:
    return rc ;
}

// SpMM through cuSPARSE reads S's values (TIMES, FIRST) and X (TIMES,
// SECOND): *ok = false when one of them holds a special value.  The forms
// it got are handed to the caller (*fs: with S's values in the semiring's
// type, as the vendor path asks for them; *fx), to be used and released
// there.
static int spmm_vendor_ok (gg_call *c, const gg_semiring *sr,
    const gg_csr *S, const gg_dense *X, dev_csr **fs, dev_dense **fx, bool *ok)
{
    int rc = GG_OK ;
    bool special = false ;
    const gg_type t = sr->type ;
    if (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST)
    {
        csr_needs nd = { .x = true, .ones = false, .t = t } ;
        GG_TRY (csr_get (c, S, &nd, fs)) ;
        GG_TRY (values_special (c, t, (*fs)->x, (size_t) S->nnz, &(*fs)->x_special, &special)) ;
    }
    if (!special && (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_SECOND))
    {
        GG_TRY (dense_get (c, X, gg_type_size (t), fx)) ;
        GG_TRY (values_special (c, t, (*fx)->x, (size_t) X->nrows * (size_t) X->ncols,
            &(*fx)->x_special, &special)) ;
    }
done:
    *ok = !special ;
    return rc ;
}

// SDDMM and GEMM through cuBLAS / cuSPARSE read A (TIMES, FIRST) and B
// (TIMES, SECOND): *ok = false when one of them holds a special value; the
// forms it got (*fa, *fb) go to the caller.
static int dense_vendor_ok (gg_call *c, const gg_semiring *sr,
    const gg_dense *A, const gg_dense *B, dev_dense **fa, dev_dense **fb,
    bool *ok)
{
    int rc = GG_OK ;
    bool special = false ;
    const gg_type t = sr->type ;
    const size_t elem = gg_type_size (t) ;
    if (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST)
    {
        GG_TRY (dense_get (c, A, elem, fa)) ;
        GG_TRY (values_special (c, t, (*fa)->x, (size_t) A->nrows * (size_t) A->ncols,
            &(*fa)->x_special, &special)) ;
    }
    if (!special && (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_SECOND))
    {
        GG_TRY (dense_get (c, B, elem, fb)) ;
        GG_TRY (values_special (c, t, (*fb)->x, (size_t) B->nrows * (size_t) B->ncols,
            &(*fb)->x_special, &special)) ;
    }
done:
    *ok = !special ;
    return rc ;
}

//------------------------------------------------------------------------------
// SpMM: Y = S (+.*) X
//------------------------------------------------------------------------------

// Wait for the call's stream: forms may lose this call's reference only once
// the GPU is done with them.
static void stream_finish (gg_call *c, int *rc)
{
    cudaError_t e = cudaStreamSynchronize (c->ctx->stream) ;
    if (e != cudaSuccess && *rc == GG_OK) *rc = cuda_fail (e,
        "cudaStreamSynchronize", __LINE__) ;
}

// Account `more` bytes of device memory to f and its cache entry.
static void form_grow (const gg_csr *S, dev_csr *f, size_t more)
{
    gg_cache_entry *e = (gg_cache_entry *) S->cache ;
    if (e != NULL)
    {
        pthread_mutex_lock (&e->lock) ;
        f->h.bytes += more ;
        if (e->dev == (void *) f) grbgpu_cache_account_device (e, f->h.bytes) ;
        pthread_mutex_unlock (&e->lock) ;
    }
    else f->h.bytes += more ;
}

// The band SpMV form of f (once per form, like hot_form): *band = NULL when
// there is none (no band worth staging, its bands hold too few of the
// entries, a type it does not take, or it could not be made: the call then
// takes the other SpMV kernels).  Made with f's values when f has them.
static int band_form (gg_call *c, const gg_csr *S, dev_csr *f, size_t elem,
    const gg_spmv_band_form **band)
{
    int rc = GG_OK ;
    gg_spmv_band_form *bf = NULL ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->band_tried)
    {
        f->band_tried = true ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        const void *x = (f->x != NULL && gg_type_size (f->xtype) == elem) ? f->x : NULL ;
        // GRBGPU_KERNEL=band: every band that has entries (tests)
        const char *forced = own_kernel_name () ;
        const bool force = (forced != NULL && strcmp (forced, "band") == 0) ;
        int brc = gg_cuda_spmv_band_build (f->m, f->k, f->nnz, f->p, f->i, x,
            (int) elem, 0, force ? 1 : -1, &bf, c->ctx->stream) ;
        // no form for this type or shape, or no room for it (its scratch is
        // ~36 bytes per entry): the other kernels answer
        if (brc == GG_ERR_DEVMEM)
            grbgpu_log (1, "cuda: band SpMV form: no device memory for it") ;
        if (brc == GG_ERR_UNSUPPORTED || brc == GG_ERR_DEVMEM) brc = GG_OK ;
        GG_TRY (brc) ;
        gg_spmv_band_info info ;
        gg_cuda_spmv_band_info (bf, &info) ;
        // it paid on R-MAT with 92-94 % of the entries in bands (bench/NOTES.md)
        // (GRBGPU_KERNEL=band takes it whatever the share)
        bool keep = bf != NULL && (force
            || (double) info.band_nnz >= GG_BAND_MIN_SHARE * (double) f->nnz) ;
        grbgpu_log (2, "cuda: band SpMV form: %d bands of %lld columns holding "
            "%.1f%% of the entries, %.1f MB%s", info.nbands, (long long) info.width,
            f->nnz ? 100.0 * (double) info.band_nnz / (double) f->nnz : 0.0,
            (double) info.bytes / 1e6, keep ? "" : " (not used)") ;
        if (keep)
        {
            f->band = bf ;
            bf = NULL ;
            form_grow (S, f, info.bytes) ;
        }
    }
    *band = f->band ;
done:
    gg_cuda_spmv_band_free (bf, true, c->ctx->stream) ;
    pthread_mutex_unlock (&f->plan_lock) ;
    if (rc != GG_OK) *band = NULL ;
    return rc ;
}

// The hot/cold SpMV form of f (once per form; later calls read what the
// first made).  *K = 0: none (too few hot columns, or it could not be made:
// the call then takes the other SpMV kernels).  The build synchronises the
// call's stream once; its device memory is accounted to S's cache entry.
static int hot_form (gg_call *c, const gg_csr *S, dev_csr *f, size_t elem,
    int64_t *K)
{
    int rc = GG_OK ;
    int32_t *hot = NULL, *ih = NULL ;
    pthread_mutex_lock (&f->plan_lock) ;
    if (!f->hot_tried)
    {
        f->hot_tried = true ;
        // sized for this call's value type (a later call of a wider type
        // finds too many hot columns for its shared memory and goes without)
        int64_t kmax = (int64_t) gg_cuda_spmv_hot_max ((int) elem) ;
        if (kmax > f->k) kmax = f->k ;
        int64_t got = 0, hot_nnz = 0 ;
        if (kmax > 0)
        {
            GG_TRY (dev_alloc (c, (void **) &hot, (size_t) kmax * sizeof (int32_t))) ;
            GG_TRY (dev_alloc (c, (void **) &ih, (size_t) f->nnz * sizeof (int32_t))) ;
            FAULT_TRY (GG_FAULT_LAUNCH) ;
            GG_TRY (gg_cuda_spmv_hot_build (f->m, f->k, f->nnz, f->p, f->i,
                kmax, hot, ih, &got, &hot_nnz, c->ctx->stream)) ;
        }
        // it pays from ~55 % of the entries in the hot columns (bench/NOTES.md)
        // (GRBGPU_KERNEL=hot takes it whatever the share)
        const char *forced = own_kernel_name () ;
        if ((forced == NULL || strcmp (forced, "hot") != 0)
            && (double) hot_nnz < GG_HOT_MIN_SHARE * (double) f->nnz) got = 0 ;
        if (got > 0)
        {
            f->hot = hot ; f->ih = ih ; f->hot_K = got ;
            hot = ih = NULL ;
            form_grow (S, f, (size_t) kmax * sizeof (int32_t)
                + (size_t) f->nnz * sizeof (int32_t)) ;
        }
        grbgpu_log (2, "cuda: hot/cold SpMV form: %lld hot columns holding "
            "%.1f%% of the entries%s", (long long) got, f->nnz ? 100.0 *
            (double) hot_nnz / (double) f->nnz : 0.0, got ? "" : " (not used)") ;
    }
    *K = f->hot_K ;
done:
    if (hot != NULL) cudaFreeAsync (hot, c->ctx->stream) ;
    if (ih != NULL) cudaFreeAsync (ih, c->ctx->stream) ;
    pthread_mutex_unlock (&f->plan_lock) ;
    if (rc != GG_OK) *K = 0 ;
    return rc ;
}

static int spmm_attempt (gg_call *c, const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y)
{
    int rc = GG_OK ;
    gg_type t = sr->type ;
    size_t elem = gg_type_size (t) ;
    int64_t m = S->nrows, k = S->ncols, n = X->ncols ;
    dev_csr *fs = NULL ;
    dev_dense *fx = NULL ;
    void *dY = NULL ;

    // cuSPARSE on ordinary values only, else our kernels (spmm_vendor_ok)
    bool vendor = spmm_use_vendor (sr, S, n) ;
    if (vendor) GG_TRY (spmm_vendor_ok (c, sr, S, X, &fs, &fx, &vendor)) ;
    if (vendor)
    {
        // FIRST and PAIR: Y (i,:) = r (i) for every column, r = S_vals * 1
        // with S_vals = s (FIRST) or 1 (PAIR): one SpMV, and only m values
        // come back.  TIMES: S_vals = s, SECOND: S_vals = 1, times X.
        bool rowsum = (sr->mul == GG_MUL_FIRST || sr->mul == GG_MUL_PAIR) ;
        bool use_x = (sr->mul == GG_MUL_TIMES || sr->mul == GG_MUL_FIRST) ;
        csr_needs nd = { .x = use_x, .ones = !use_x, .t = t } ;
        if (fs == NULL) GG_TRY (csr_get (c, S, &nd, &fs)) ;
        const void *vals = use_x ? fs->x : fs->ones ;
        const void *dX ;
        int64_t nn = rowsum ? 1 : n ;
        if (rowsum)
        {
            void *ones ;
            GG_TRY (tmp_alloc (c, &ones, (size_t) k * elem)) ;
            GG_TRY (fill_one (c, ones, t, (size_t) k)) ;
            dX = ones ;
        }
        else
        {
            if (fx == NULL) GG_TRY (dense_get (c, X, elem, &fx)) ;
            dX = fx->x ;
        }
        GG_TRY (tmp_alloc (c, &dY, (size_t) m * (size_t) nn * elem)) ;
        mark_start (c) ;
        GG_TRY (sparse_product (c, fs, vals, t, nn, dX, dY)) ;
        mark_end (c) ;
        if (rowsum && n > 1)
        {
            // r comes down (m values) and is spread over each row of Y
            char *r = malloc ((size_t) (m > 0 ? m : 1) * elem) ;
            if (r == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            rc = download (c, r, dY, (size_t) m * elem) ;
            if (rc != GG_OK) { free (r) ; goto done ; }
            #pragma omp parallel for schedule(static) if (m * n > 1000000)
            for (int64_t i = 0 ; i < m ; i++)
            {
                char *row = (char *) Y + (size_t) (i * n) * elem ;
                for (int64_t j = 0 ; j < n ; j++) memcpy (row + (size_t) j * elem, r + (size_t) i * elem, elem) ;
            }
            free (r) ;
        }
        else
        {
            GG_TRY (download (c, Y, dY, (size_t) m * (size_t) nn * elem)) ;
        }
    }
    else
    {
        // grbgpu's own kernels: any semiring and type
        // (fs and fx may come from spmm_vendor_ok: S's values in type t)
        bool use_s = (S->x != NULL) ;
        csr_needs nd = { .x = use_s, .ones = false, .t = t } ;
        if (fs == NULL) GG_TRY (csr_get (c, S, &nd, &fs)) ;
        const void *dX = NULL ;
        if (X->x != NULL)
        {
            if (fx == NULL) GG_TRY (dense_get (c, X, elem, &fx)) ;
            dX = fx->x ;
        }
        GG_TRY (tmp_alloc (c, &dY, (size_t) m * (size_t) n * elem)) ;
        if (!S->no_empty_rows)
        {
            // the kernels leave empty rows unwritten: give them defined
            // values (they are absent from T; the host writes no zeros)
            CU_TRY (cudaMemsetAsync (dY, 0, (size_t) m * (size_t) n * elem, c->ctx->stream)) ;
        }
        // the band SpMV where it pays, else the hot/cold one, else the other
        // kernels.  Both forms serve x's gathers: a multiply that ignores x
        // makes neither.  Each kernel answers GG_ERR_UNSUPPORTED for what its
        // form cannot do (the hot/cold one: more hot columns than this value
        // type's shared memory holds).
        int64_t K = 0 ;
        const gg_spmv_band_form *bf = NULL ;
        if (dX != NULL && spmv_use_band (sr, S, n)) GG_TRY (band_form (c, S, fs, elem, &bf)) ;
        if (dX != NULL && bf == NULL && spmv_use_hot (sr, S, n)) GG_TRY (hot_form (c, S, fs, elem, &K)) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        rc = (bf != NULL) ? gg_cuda_spmv_band (sr, bf, use_s ? fs->x : NULL,
                false, dX, dY, c->ctx->stream)
            : (K > 0) ? gg_cuda_spmv_hot (sr, m, k, S->nnz, fs->p, fs->ih,
                use_s ? fs->x : NULL, false, dX, dY, fs->spmv_plan, fs->hot, K,
                c->ctx->stream)
            : GG_ERR_UNSUPPORTED ;
        if (rc == GG_ERR_UNSUPPORTED)
        {
            GG_TRY (gg_cuda_spmm_plan (sr, m, k, n, S->nnz, fs->p, fs->i,
                use_s ? fs->x : NULL, false, dX, dY, fs->spmv_plan,
                spmm_kernel_name (S, n), c->ctx->stream)) ;
        }
        else if (rc != GG_OK) goto done ;
        mark_end (c) ;
        GG_TRY (download (c, Y, dY, (size_t) m * (size_t) n * elem)) ;
    }
done:
    stream_finish (c, &rc) ;
    csr_unref (fs) ;
    dense_unref (fx) ;
    return rc ;
}

//------------------------------------------------------------------------------
// SDDMM: y [q] = (+) over t of mul (A (i,t), B (j,t)) for the entries of M
//------------------------------------------------------------------------------

// r (rows) = row sums of the row-major rows x k matrix R (device): in cuBLAS's
// column-major view R is k x rows, and r = R_cm' * 1.
static int row_sums (gg_call *c, gg_type t, const void *R, int64_t rows,
    int64_t k, void *r)
{
    int rc = GG_OK ;
    void *ones ;
    size_t elem = gg_type_size (t) ;
    if (rows == 0) return GG_OK ;
    if (k == 0)
    {
        CU_TRY (cudaMemsetAsync (r, 0, (size_t) rows * elem, c->ctx->stream)) ;
        return GG_OK ;
    }
    GG_TRY (tmp_alloc (c, &ones, (size_t) k * elem)) ;
    GG_TRY (fill_one (c, ones, t, (size_t) k)) ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    if (t == GG_FP32)
    {
        float a = 1, b = 0 ;
        BL_TRY (cublasSgemv (c->ctx->blas, CUBLAS_OP_T, (int) k, (int) rows,
            &a, R, (int) k, ones, 1, &b, r, 1)) ;
    }
    else
    {
        double a = 1, b = 0 ;
        BL_TRY (cublasDgemv (c->ctx->blas, CUBLAS_OP_T, (int) k, (int) rows,
            &a, R, (int) k, ones, 1, &b, r, 1)) ;
    }
done:
    return rc ;
}

static int sddmm_attempt (gg_call *c, const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    int rc = GG_OK ;
    gg_type t = sr->type ;
    size_t elem = gg_type_size (t) ;
    int64_t m = M->nrows, n = M->ncols, k = A->ncols, nnz = M->nnz ;
    dev_csr *fm = NULL ;
    dev_dense *fa = NULL, *fb = NULL ;
    cusparseConstDnMatDescr_t Ad = NULL, Bd = NULL ;
    cusparseSpMatDescr_t Cd = NULL ;
    double *sums = NULL ;
    void *dy, *buf ;

    // the vendor libraries (row sums for FIRST / SECOND, cusparseSDDMM when
    // asked for) on ordinary values only, else our kernel (dense_vendor_ok)
    bool vendor = use_vendor (sr) && (sr->mul != GG_MUL_TIMES || kernel_is_vendor ()) ;
    if (vendor) GG_TRY (dense_vendor_ok (c, sr, A, B, &fa, &fb, &vendor)) ;
    if (vendor && sr->mul != GG_MUL_TIMES)
    {
        // FIRST: y [q] = sum_t A (i,t), SECOND: y [q] = sum_t B (j,t),
        // PAIR: y [q] = k.  Row sums on the device, spread on the host.
        int64_t len = (sr->mul == GG_MUL_FIRST) ? m : n ;
        if (sr->mul != GG_MUL_PAIR && len > 0)
        {
            const gg_dense *R = (sr->mul == GG_MUL_FIRST) ? A : B ;
            dev_dense **fr = (sr->mul == GG_MUL_FIRST) ? &fa : &fb ;
            void *dr ;
            if (*fr == NULL) GG_TRY (dense_get (c, R, elem, fr)) ;
            GG_TRY (tmp_alloc (c, &dr, (size_t) len * elem)) ;
            GG_TRY (row_sums (c, t, (*fr)->x, len, k, dr)) ;
            sums = malloc ((size_t) len * elem) ;
            if (sums == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            GG_TRY (download (c, sums, dr, (size_t) len * elem)) ;
        }
        for (int64_t i = 0 ; i < m ; i++)
        {
            for (int64_t q = M->p32 [i] ; q < M->p32 [i+1] ; q++)
            {
                double v = (sr->mul == GG_MUL_PAIR) ? (double) k
                    : get_value (sums, (size_t) ((sr->mul == GG_MUL_FIRST) ? i
                        : M->i32 [q]), t) ;
                put_value (y, (size_t) q, t, v) ;
            }
        }
        goto done ;
    }

    csr_needs nd = { .x = false, .ones = false, .t = t } ;
    GG_TRY (csr_get (c, M, &nd, &fm)) ;
    const void *dA = NULL, *dB = NULL ;
    if (A->x != NULL) { if (fa == NULL) GG_TRY (dense_get (c, A, elem, &fa)) ; dA = fa->x ; }
    if (B->x != NULL) { if (fb == NULL) GG_TRY (dense_get (c, B, elem, &fb)) ; dB = fb->x ; }
    GG_TRY (tmp_alloc (c, &dy, (size_t) nnz * elem)) ;

    // cusparseSDDMM fuses multiply-adds (one rounding where the CPU library
    // has two), so exact mode uses our own SDDMM; GRBGPU_KERNEL=cusparse
    // asks for the vendor's
    if (vendor)
    {
        // y = (A * B') .* spy (M): A m x k row-major; B (n x k row-major) is
        // B' (k x n) column-major with leading dimension k
        cudaDataType dt = cuda_type (t) ;
        cusparseHandle_t h = c->ctx->sparse ;
        float af = 1, bf = 0 ;
        double ad = 1, bd = 0 ;
        const void *alpha = (t == GG_FP32) ? (const void *) &af : (const void *) &ad ;
        const void *beta = (t == GG_FP32) ? (const void *) &bf : (const void *) &bd ;
        size_t bsize = 0 ;
        CU_TRY (cudaMemsetAsync (dy, 0, (size_t) nnz * elem, c->ctx->stream)) ;
        SP_TRY (cusparseCreateConstDnMat (&Ad, m, k, k, dA, dt,
            CUSPARSE_ORDER_ROW)) ;
        SP_TRY (cusparseCreateConstDnMat (&Bd, k, n, k, dB, dt,
            CUSPARSE_ORDER_COL)) ;
        SP_TRY (cusparseCreateCsr (&Cd, m, n, nnz, fm->p, fm->i, dy,
            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
            dt)) ;
        SP_TRY (cusparseSDDMM_bufferSize (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, Ad, Bd, beta, Cd, dt,
            CUSPARSE_SDDMM_ALG_DEFAULT, &bsize)) ;
        GG_TRY (tmp_alloc (c, &buf, bsize)) ;
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        SP_TRY (cusparseSDDMM (h, CUSPARSE_OPERATION_NON_TRANSPOSE,
            CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, Ad, Bd, beta, Cd, dt,
            CUSPARSE_SDDMM_ALG_DEFAULT, buf)) ;
        mark_end (c) ;
    }
    else
    {
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        GG_TRY (gg_cuda_sddmm (sr, m, n, k, nnz, fm->p, fm->i, dA, dB, dy,
            own_kernel_name (), c->ctx->stream)) ;
        mark_end (c) ;
    }
    GG_TRY (download (c, y, dy, (size_t) nnz * elem)) ;

done:
    stream_finish (c, &rc) ;
    if (Ad != NULL) cusparseDestroyDnMat (Ad) ;
    if (Bd != NULL) cusparseDestroyDnMat (Bd) ;
    if (Cd != NULL) cusparseDestroySpMat (Cd) ;
    free (sums) ;
    csr_unref (fm) ;
    dense_unref (fa) ;
    dense_unref (fb) ;
    return rc ;
}

//------------------------------------------------------------------------------
// GEMM: Y = A (+.*) B'
//------------------------------------------------------------------------------

static int gemm_attempt (gg_call *c, const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, void *Y)
{
    int rc = GG_OK ;
    gg_type t = sr->type ;
    size_t elem = gg_type_size (t) ;
    int64_t m = A->nrows, n = B->nrows, k = A->ncols ;
    dev_dense *fa = NULL, *fb = NULL ;
    void *sums = NULL ;
    void *dY ;

    // cuBLAS (row sums for FIRST / SECOND, GEMM for TIMES) on ordinary
    // values only, else our kernel (dense_vendor_ok)
    bool vendor = use_vendor (sr) ;
    if (vendor) GG_TRY (dense_vendor_ok (c, sr, A, B, &fa, &fb, &vendor)) ;
    if (vendor && sr->mul != GG_MUL_TIMES)
    {
        // FIRST: Y (i,j) = sum_t A (i,t); SECOND: Y (i,j) = sum_t B (j,t);
        // PAIR: Y (i,j) = k
        int64_t len = (sr->mul == GG_MUL_FIRST) ? m : n ;
        if (sr->mul != GG_MUL_PAIR && len > 0)
        {
            const gg_dense *R = (sr->mul == GG_MUL_FIRST) ? A : B ;
            dev_dense **fr = (sr->mul == GG_MUL_FIRST) ? &fa : &fb ;
            void *dr ;
            if (*fr == NULL) GG_TRY (dense_get (c, R, elem, fr)) ;
            GG_TRY (tmp_alloc (c, &dr, (size_t) len * elem)) ;
            GG_TRY (row_sums (c, t, (*fr)->x, len, k, dr)) ;
            sums = malloc ((size_t) len * elem) ;
            if (sums == NULL) { rc = GG_ERR_NOMEM ; goto done ; }
            GG_TRY (download (c, sums, dr, (size_t) len * elem)) ;
        }
        for (int64_t i = 0 ; i < m ; i++)
        {
            for (int64_t j = 0 ; j < n ; j++)
            {
                double v = (sr->mul == GG_MUL_PAIR) ? (double) k
                    : get_value (sums, (size_t) ((sr->mul == GG_MUL_FIRST) ? i
                        : j), t) ;
                put_value (Y, (size_t) (i * n + j), t, v) ;
            }
        }
        goto done ;
    }

    const void *dA = NULL, *dB = NULL ;
    if (A->x != NULL) { if (fa == NULL) GG_TRY (dense_get (c, A, elem, &fa)) ; dA = fa->x ; }
    if (B->x != NULL) { if (fb == NULL) GG_TRY (dense_get (c, B, elem, &fb)) ; dB = fb->x ; }
    GG_TRY (tmp_alloc (c, &dY, (size_t) m * (size_t) n * elem)) ;
    if (vendor)
    {
        // row-major Y = A B' is column-major Y' = B A', with A' (k x m, ld k)
        // and B' (k x n, ld k) as cuBLAS sees the row-major arrays:
        // Y' (n x m, ld n) = op_T (B') * A'
        if (m > INT_MAX || n > INT_MAX || k > INT_MAX)
        {
            rc = GG_ERR_UNSUPPORTED ;
            goto done ;
        }
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        if (k == 0)
        {
            CU_TRY (cudaMemsetAsync (dY, 0, (size_t) m * (size_t) n * elem,
                c->ctx->stream)) ;
        }
        else if (t == GG_FP32)
        {
            float a = 1, b = 0 ;
            BL_TRY (cublasSgemm (c->ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N,
                (int) n, (int) m, (int) k, &a, dB, (int) k, dA, (int) k, &b,
                dY, (int) n)) ;
        }
        else
        {
            double a = 1, b = 0 ;
            BL_TRY (cublasDgemm (c->ctx->blas, CUBLAS_OP_T, CUBLAS_OP_N,
                (int) n, (int) m, (int) k, &a, dB, (int) k, dA, (int) k, &b,
                dY, (int) n)) ;
        }
        mark_end (c) ;
    }
    else
    {
        FAULT_TRY (GG_FAULT_LAUNCH) ;
        mark_start (c) ;
        GG_TRY (gg_cuda_gemm (sr, m, n, k, dA, dB, dY, c->ctx->stream)) ;
        mark_end (c) ;
    }
    GG_TRY (download (c, Y, dY, (size_t) m * (size_t) n * elem)) ;

done:
    stream_finish (c, &rc) ;
    free (sums) ;
    dense_unref (fa) ;
    dense_unref (fb) ;
    return rc ;
}

//------------------------------------------------------------------------------
// the entry points: borrow a context, try, on failure free + evict + retry
//------------------------------------------------------------------------------

typedef enum { OP_SPMM, OP_SDDMM, OP_GEMM } op_kind ;

typedef struct
{
    op_kind op ;
    const gg_semiring *sr ;
    const gg_csr *S ;
    const gg_dense *X, *B ;
    void *Y ;
}
op_args ;

static int attempt (gg_call *c, const op_args *a)
{
    switch (a->op)
    {
        case OP_SPMM  : return spmm_attempt (c, a->sr, a->S, a->X, a->Y) ;
        case OP_SDDMM : return sddmm_attempt (c, a->sr, a->S, a->X, a->B,
                            a->Y) ;
        default       : return gemm_attempt (c, a->sr, a->X, a->B, a->Y) ;
    }
}

static int run_op (const op_args *a)
{
    if (gg_cuda_start () == NULL) return GG_ERR_DEVICE ;
    if (atomic_load (&dev_broken)) return GG_ERR_DEVICE ;
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    if (cudaSetDevice (dev_id) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    gg_call c = { 0 } ;
    int rc = ctx_acquire (&c.ctx) ;
    last_product_ms = -1 ;
    for (int round = 0 ; rc == GG_OK && round < 2 ; round++)
    {
        c.bytes = 0 ;
        c.timed = false ;
        rc = attempt (&c, a) ;
        float ms = 0 ;
        if (rc == GG_OK && c.timed && cudaEventElapsedTime (&ms, c.ctx->t0,
            c.ctx->t1) == cudaSuccess) last_product_ms = ms ;
        (void) cudaGetLastError () ;
        call_free_tmp (&c) ;
        if (rc == GG_OK || rc == GG_ERR_UNSUPPORTED || rc == GG_ERR_NOMEM
            || atomic_load (&dev_broken) || round == 1) break ;
        // give device memory back and try once more: the cache's device
        // copies (least recently used first) and the stream-ordered pool
        size_t want = c.bytes > 0 ? 2 * c.bytes : ((size_t) 1 << 30) ;
        size_t freed = grbgpu_cache_evict_device (want) ;
        (void) cudaStreamSynchronize (free_stream) ;
        (void) cudaStreamSynchronize (c.ctx->stream) ;
        cudaMemPool_t mempool ;
        if (cudaDeviceGetDefaultMemPool (&mempool, dev_id) == cudaSuccess)
        {
            (void) cudaMemPoolTrimTo (mempool, 0) ;
        }
        (void) cudaGetLastError () ;
        grbgpu_log (1, "cuda: call failed (%d); freed %zu cached bytes, "
            "retrying", rc, freed) ;
        rc = GG_OK ;
    }
    if (c.ctx != NULL) ctx_release (c.ctx) ;
    (void) cudaSetDevice (old) ;
    return rc ;
}

static int cuda_spmm (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, void *Y)
{
    if (S->p32 == NULL || S->i32 == NULL) return GG_ERR_UNSUPPORTED ;
    if (S->nrows > INT32_MAX || S->ncols > INT32_MAX || S->nnz > INT32_MAX)
        return GG_ERR_UNSUPPORTED ;
    if (S->nrows == 0 || X->ncols == 0 || S->nnz == 0) return GG_OK ;
    op_args a = { .op = OP_SPMM, .sr = sr, .S = S, .X = X, .Y = Y } ;
    return run_op (&a) ;
}

static int cuda_sddmm (const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    if (M->p32 == NULL || M->i32 == NULL) return GG_ERR_UNSUPPORTED ;
    if (M->nrows > INT32_MAX || M->ncols > INT32_MAX || M->nnz > INT32_MAX ||
        A->ncols > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (M->nnz == 0) return GG_OK ;
    op_args a = { .op = OP_SDDMM, .sr = sr, .S = M, .X = A, .B = B, .Y = y } ;
    return run_op (&a) ;
}

static int cuda_gemm (const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, void *Y)
{
    if (A->nrows == 0 || B->nrows == 0) return GG_OK ;
    op_args a = { .op = OP_GEMM, .sr = sr, .X = A, .B = B, .Y = Y } ;
    return run_op (&a) ;
}

static const gg_backend cuda_backend =
{
    .name = "cuda",
    .spmm = cuda_spmm,
    .sddmm = cuda_sddmm,
    .gemm = cuda_gemm,
} ;

//------------------------------------------------------------------------------
// for tests and benchmarks (backend/device.h)
//------------------------------------------------------------------------------

void gg_cuda_sync (void)
{
    if (atomic_load (&started_pid) != getpid () || started_result == NULL)
        return ;
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    (void) cudaSetDevice (dev_id) ;
    (void) cudaStreamSynchronize (free_stream) ;
    (void) cudaSetDevice (old) ;
}

void gg_cuda_timing (bool on)
{
    atomic_store (&timing_on, on) ;
}

double gg_cuda_last_product_ms (void)
{
    return last_product_ms ;
}

size_t gg_cuda_budget (void)
{
    return dev_budget ;
}
