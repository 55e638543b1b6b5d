//------------------------------------------------------------------------------
// backend/cuda/form_resident.c: device buffers of resident results
//------------------------------------------------------------------------------

// The CUDA side of backend/resident/: a resident result is one device
// buffer from the stream-ordered pool (row-major values of the semiring's
// type), produced by spmm_attempt_res with y_dev and read in place by the next product
// (x_dev).  It comes down through the pinned staging buffers of a borrowed
// context (copies.c), counted like every other download.  A buffer belongs
// to the process that made it: the registry brings every unpinned result
// down before a fork (backend/resident/resident.c, before_fork); a child's
// download of one left pinned by a product in flight fails (GG_ERR_DEVICE),
// and the wrapped call answers GrB_OUT_OF_MEMORY.

#include "backend/cuda/cuda_internal.h"

#include <unistd.h>

// Make the module's device current; returns the previous one in *old.
static bool enter (int *old)
{
    if (!gg_cuda_start () || atomic_load (&gg_cuda_broken)) return false ;
    if (atomic_load (&gg_cuda_started_pid) != getpid ()) return false ;
    *old = 0 ;
    (void) cudaGetDevice (old) ;
    if (cudaSetDevice (gg_cuda_dev_id) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        return false ;
    }
    return true ;
}

// From the stream-ordered pool (as every other device buffer of this
// backend): a result per vector operation made cudaMalloc / cudaFree pairs
// cost 0.1 ms each and a device-wide synchronisation per free (PageRank,
// R-MAT 2^20: about 1.2 ms per iteration in the GPU run of 2026-11-25).  The
// buffer is ready when this returns (its stream is synchronised), so any
// stream may use it.
void *cuda_res_alloc (size_t bytes)
{
    int old ;
    if (!enter (&old)) return NULL ;
    void *buf = NULL ;
    gg_ctx *ctx = NULL ;
    if (ctx_acquire (&ctx) == GG_OK)
    {
        if (cudaMallocAsync (&buf, bytes > 0 ? bytes : 1, ctx->stream) != cudaSuccess
            || cudaStreamSynchronize (ctx->stream) != cudaSuccess)
        {
            (void) cudaGetLastError () ;
            if (buf != NULL) (void) cudaFreeAsync (buf, ctx->stream) ;
            buf = NULL ;
        }
        ctx_release (ctx) ;
    }
    (void) cudaSetDevice (old) ;
    return buf ;
}

// Every user of a resident buffer has finished its stream before it lets go
// of it (backend/resident/ frees only unpinned buffers), so the free is
// ordered on the stream the cached forms of its device are freed from,
// without waiting.  The buffer's device is the one the runtime records for
// it (the main device, where cuda_res_alloc makes every buffer).
void cuda_res_free (void *buf)
{
    int old ;
    if (buf == NULL || !enter (&old)) return ;
    struct cudaPointerAttributes pa ;
    cudaError_t e = cudaPointerGetAttributes (&pa, buf) ;
    int dev = (e == cudaSuccess && pa.type == cudaMemoryTypeDevice) ? pa.device : gg_cuda_dev_id ;
    if (e != cudaSuccess) (void) cuda_fail (e, "cudaPointerGetAttributes", __LINE__) ;
    cudaStream_t fs = NULL ;
    if (dev == gg_cuda_dev_id) fs = gg_cuda_free_stream_of (dev) ;
    else
    {
        e = cudaSetDevice (dev) ;
        if (e == cudaSuccess) fs = gg_cuda_free_stream_of (dev) ;
        else (void) cuda_fail (e, "cudaSetDevice (buffer's device)", __LINE__) ;
    }
    if (fs != NULL) CU_LOG (cudaFreeAsync (buf, fs)) ;
    else grbgpu_log (1, "cuda: a resident buffer of device %d could not be freed there", dev) ;
    CU_LOG (cudaSetDevice (old)) ;
}

// Every operation below runs the same way: the module's device made
// current, a pooled context of it borrowed (res_begin), its work queued on
// the context's stream, then the stream finished, the call's temporaries
// freed, the context given back and the caller's device restored (res_end).
// res_begin returns false when the device cannot be entered (nothing to
// undo); otherwise *rc says whether the context was borrowed, and res_end
// must follow.
bool res_begin (int *old, gg_devcall *c, int *rc)
{
    memset (c, 0, sizeof (*c)) ;
    if (!enter (old)) return false ;
    *rc = ctx_acquire (&c->ctx) ;
    return true ;
}

void res_end (gg_devcall *c, int old, int *rc)
{
    if (c->ctx != NULL)
    {
        stream_finish (c, rc) ;
        call_free_tmp (c) ;
        ctx_release (c->ctx) ;
    }
    (void) cudaSetDevice (old) ;
}

// One staged copy between host memory and a resident buffer, on a pooled
// context of the main device, finished before returning.
static int res_copy (void *dst, const void *src, size_t bytes, bool up)
{
    int old, rc ;
    gg_devcall c ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc == GG_OK) rc = up ? upload (&c, dst, src, bytes) : download (&c, dst, src, bytes) ;
    res_end (&c, old, &rc) ;
    return rc ;
}

int cuda_res_download (void *host, const void *buf, size_t bytes)
{
    return res_copy (host, buf, bytes, false) ;
}

int cuda_res_upload (void *buf, const void *host, size_t bytes)
{
    return res_copy (buf, host, bytes, true) ;
}

//------------------------------------------------------------------------------
// dense vector operations on resident buffers (kernels/vec_ops/)
//------------------------------------------------------------------------------

// a->present in host memory goes up into a temporary first; with
// a->present_dev it is a resident buffer already
int cuda_vec_op (const gg_vec_args *a)
{
    int old, rc ;
    gg_devcall c ;
    int8_t *present = NULL ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc != GG_OK) goto done ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    if (a->present != NULL && !a->present_dev)
    {
        rc = tmp_alloc (&c, (void **) &present, (size_t) a->n) ;
        if (rc == GG_OK) rc = upload (&c, present, a->present, (size_t) a->n) ;
        if (rc != GG_OK) goto done ;
    }
    rc = gg_cuda_vec_op (a, a->present_dev ? a->present : present, c.ctx->stream) ;
done:
    res_end (&c, old, &rc) ;
    return rc ;
}

int cuda_vec_reduce (gg_add add, gg_type t, const void *x, int64_t n,
    const int8_t *present, void *result)
{
    int old, rc ;
    gg_devcall c ;
    void *scratch = NULL ;
    const size_t zsz = gg_type_size (t) ;
    const size_t sbytes = gg_cuda_vec_reduce_scratch (t) ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc != GG_OK) goto done ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    rc = tmp_alloc (&c, &scratch, sbytes + zsz) ;
    if (rc != GG_OK) goto done ;
    rc = gg_cuda_vec_reduce (add, t, x, n, present, scratch, (char *) scratch + sbytes, c.ctx->stream) ;
    if (rc == GG_OK) rc = download (&c, result, (char *) scratch + sbytes, zsz) ;
done:
    res_end (&c, old, &rc) ;
    return rc ;
}

// idx and out are host memory: idx goes up, the gathered values come down
int cuda_vec_gather (gg_type t, const void *x, const int64_t *idx, int64_t nidx, void *out)
{
    int old, rc ;
    gg_devcall c ;
    void *didx = NULL, *dout = NULL ;
    const size_t zsz = gg_type_size (t) ;
    if (nidx <= 0) return GG_OK ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc != GG_OK) goto done ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    rc = tmp_alloc (&c, &didx, (size_t) nidx * sizeof (int64_t)) ;
    if (rc == GG_OK) rc = tmp_alloc (&c, &dout, (size_t) nidx * zsz) ;
    if (rc == GG_OK) rc = upload (&c, didx, idx, (size_t) nidx * sizeof (int64_t)) ;
    if (rc == GG_OK) rc = gg_cuda_vec_gather (t, x, (const int64_t *) didx, nidx, dout, c.ctx->stream) ;
    if (rc == GG_OK) rc = download (&c, out, dout, (size_t) nidx * zsz) ;
done:
    res_end (&c, old, &rc) ;
    return rc ;
}

// all device memory: the kernel's only
int cuda_vec_select (gg_type t, int64_t n, void *z, int8_t *zb, const void *x,
    const int8_t *pb)
{
    int old, rc ;
    gg_devcall c ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc != GG_OK) goto done ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    rc = gg_cuda_vec_select (t, n, z, zb, x, pb, c.ctx->stream) ;
done:
    res_end (&c, old, &rc) ;
    return rc ;
}

//------------------------------------------------------------------------------
// row-wise operations on a resident matrix on a pattern
//------------------------------------------------------------------------------

// P's device form (its pattern: row pointers and column indices), from its
// cache entry or uploaded into it
static int pattern_form (gg_devcall *c, const gg_csr *P, gg_type t, dev_csr **fs)
{
    if (P->p32 == NULL || P->i32 == NULL || P->nrows > INT32_MAX || P->nnz > INT32_MAX)
        return GG_ERR_UNSUPPORTED ;
    csr_needs nd = { .x = false, .ones = false, .t = t } ;
    return csr_get (c, P, &nd, fs) ;
}

int cuda_csr_row_reduce (gg_add add, gg_type t, const gg_csr *P, const void *x, void *out)
{
    int old, rc ;
    gg_devcall c ;
    dev_csr *fs = NULL ;
    void *dout = NULL ;
    const size_t bytes = (size_t) (P->nrows > 0 ? P->nrows : 1) * gg_type_size (t) ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc != GG_OK) goto done ;
    rc = pattern_form (&c, P, t, &fs) ;
    if (rc == GG_OK) rc = tmp_alloc (&c, &dout, bytes) ;
    if (rc != GG_OK) goto done ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    rc = gg_cuda_csr_row_reduce (add, t, P->nrows, fs->p, x, dout, c.ctx->stream) ;
    if (rc == GG_OK && P->nrows > 0) rc = download (&c, out, dout, bytes) ;
done:
    res_end (&c, old, &rc) ;
    csr_unref (fs) ;
    return rc ;
}

int cuda_csr_row_op (gg_vop op, gg_type t, const gg_csr *P, void *z, const void *x,
    const void *d, bool d_first)
{
    int old, rc ;
    gg_devcall c ;
    dev_csr *fs = NULL ;
    void *dd = NULL ;
    const size_t bytes = (size_t) (P->nrows > 0 ? P->nrows : 1) * gg_type_size (t) ;
    if (!res_begin (&old, &c, &rc)) return GG_ERR_DEVICE ;
    if (rc != GG_OK) goto done ;
    rc = pattern_form (&c, P, t, &fs) ;
    if (rc == GG_OK) rc = tmp_alloc (&c, &dd, bytes) ;
    if (rc == GG_OK && P->nrows > 0) rc = upload (&c, dd, d, bytes) ;
    if (rc != GG_OK) goto done ;
    FAULT_TRY (GG_FAULT_LAUNCH) ;
    rc = gg_cuda_csr_row_op (op, t, P->nrows, fs->p, z, x, dd, d_first, c.ctx->stream) ;
done:
    res_end (&c, old, &rc) ;
    csr_unref (fs) ;
    return rc ;
}
