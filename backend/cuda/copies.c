//------------------------------------------------------------------------------
// backend/cuda/copies.c: host <-> device copies through pinned staging buffers
//------------------------------------------------------------------------------

// Part of the CUDA module (backend/cuda/cuda_internal.h says which file holds
// what).

#include "backend/cuda/cuda_internal.h"
#include "backend/cuda/hostcopy.h"

// memcpy, split over OpenMP threads when large (backend/cuda/hostcopy.h): up to
// 16 threads, 256 KiB or more each.
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
int upload (gg_devcall *c, void *dst, const void *src, size_t bytes)
{
    int rc = GG_OK ;
    if (bytes == 0) return GG_OK ;
    gg_ctx *x = c->ctx ;
    FAULT_TRY (GG_FAULT_COPY) ;
    // (the pinned buffers are made at a context's first copy: not counted as
    // copy time)
    const bool staged = stage_ready (x) ;
    double t0 = grbgpu_now () ;
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
    grbgpu_count_seconds (1, grbgpu_now () - t0) ;
done:
    return rc ;
}

// dst (host) = src (device), bytes, after all work enqueued on the stream.
// B - 1 chunks are in flight while the oldest one is copied out of its pinned
// buffer into dst with non-temporal stores.
int download (gg_devcall *c, void *dst, const void *src, size_t bytes)
{
    int rc = GG_OK ;
    if (bytes == 0) return GG_OK ;
    gg_ctx *x = c->ctx ;
    FAULT_TRY (GG_FAULT_COPY) ;
    const bool staged = stage_ready (x) ;
    double t0 = grbgpu_now () ;
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
    grbgpu_count_seconds (2, grbgpu_now () - t0) ;
done:
    return rc ;
}

// dst [0..count) = value (elem bytes each), on the device: one small upload,
// then doubling device-to-device copies (no kernel needed).
int fill_value (gg_devcall *c, void *dst, const void *value, size_t elem,
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

int fill_one (gg_devcall *c, void *dst, gg_type t, size_t count)
{
    float one_f = 1 ;
    double one_d = 1 ;
    return fill_value (c, dst, (t == GG_FP32) ? (const void *) &one_f
        : (const void *) &one_d, gg_type_size (t), count) ;
}
