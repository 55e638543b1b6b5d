//------------------------------------------------------------------------------
// backend/cuda/backend.c: the gg_backend table: one product, start to finish
//------------------------------------------------------------------------------

// gg_cuda_backend () (grbgpu_cuda_backend through the module's table)
// starts CUDA (runtime.c) and returns the gg_backend below, which runs
// products on the GPU:
//   spmm:  Y = S (+.*) X    cusparseSpMM (cusparseSpMV when n == 1)
//   sddmm: y = M .* (A B')  cusparseSDDMM
//   gemm:  Y = A (+.*) B'   cublasSgemm / cublasDgemm
// for PLUS with TIMES / FIRST / SECOND / PAIR over FP32 and FP64 (plus-times
// arithmetic on substituted values: SECOND uses all-ones values for S, FIRST
// and PAIR reduce to row sums), and through grbgpu's own kernels
// (kernels/gg_cuda.h) for every other semiring and type.
//
// Operands arrive as host arrays (kernels/gg_kernels.h).  The module owns
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
//
// The module's files, each by concern: backend/cuda/cuda_internal.h.

#include "backend/cuda/cuda_internal.h"

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
    bool x_dev, y_dev ;     // spmm, gemm: X->x / Y are resident device buffers
    bool b_dev ;            // gemm: B->x is a resident device buffer
    bool a_t, b_t ;         // gemm: X->x / B->x hold the operand transposed
}
op_args ;

static int attempt (gg_devcall *c, const op_args *a)
{
    switch (a->op)
    {
        case OP_SPMM  : return spmm_attempt_res (c, a->sr, a->S, a->X, a->x_dev,
                            a->Y, a->y_dev) ;
        case OP_SDDMM : return a->y_dev
                            ? sddmm_attempt_res (c, a->sr, a->S, a->X, a->B, a->Y)
                            : sddmm_attempt (c, a->sr, a->S, a->X, a->B, a->Y) ;
        default       : return a->y_dev
                            ? gemm_attempt_res (c, a->sr, a->X, a->x_dev, a->a_t, a->B, a->b_dev,
                                a->b_t, a->Y)
                            : gemm_attempt (c, a->sr, a->X, a->B, a->Y) ;
    }
}

static int run_op (const op_args *a)
{
    if (!gg_cuda_start ()) return GG_ERR_DEVICE ;
    if (atomic_load (&gg_cuda_broken)) return GG_ERR_DEVICE ;
    int old = 0 ;
    (void) cudaGetDevice (&old) ;
    if (cudaSetDevice (gg_cuda_dev_id) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    gg_devcall c = { 0 } ;
    int rc = ctx_acquire (&c.ctx) ;
    gg_cuda_last_ms = -1 ;
    for (int round = 0 ; rc == GG_OK && round < 2 ; round++)
    {
        c.bytes = 0 ;
        c.timed = false ;
        rc = attempt (&c, a) ;
        float ms = 0 ;
        if (rc == GG_OK && c.timed && cudaEventElapsedTime (&ms, c.ctx->t0,
            c.ctx->t1) == cudaSuccess) gg_cuda_last_ms = ms ;
        (void) cudaGetLastError () ;
        call_free_tmp (&c) ;
        if (rc == GG_OK || rc == GG_ERR_UNSUPPORTED || rc == GG_ERR_NOMEM
            || atomic_load (&gg_cuda_broken) || round == 1) break ;
        // give device memory back and try once more: the cache's device
        // copies (least recently used first), the stream-ordered pool and
        // the kernels' scratch pool (which otherwise keeps all it took)
        size_t want = c.bytes > 0 ? 2 * c.bytes : ((size_t) 1 << 30) ;
        size_t freed = grbgpu_cache_evict_device (gg_cuda_dev_id, want) ;
        (void) cudaStreamSynchronize (gg_cuda_free_stream) ;
        (void) cudaStreamSynchronize (c.ctx->stream) ;
        cudaMemPool_t mempool ;
        if (cudaDeviceGetDefaultMemPool (&mempool, gg_cuda_dev_id) == cudaSuccess)
        {
            (void) cudaMemPoolTrimTo (mempool, 0) ;
        }
        gg_cuda_pool_trim () ;
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
    int mrc ;
    if (!S->x_dev && multi_spmm (sr, S, X, Y, &mrc)) return mrc ;   // GRBGPU_DEVICES slots
    op_args a = { .op = OP_SPMM, .sr = sr, .S = S, .X = X, .Y = Y } ;
    return run_op (&a) ;
}

// spmm with Y (and X->x when x_res) a resident buffer (form_resident.c)
static int cuda_spmm_res (const gg_semiring *sr, const gg_csr *S,
    const gg_dense *X, bool x_res, void *Y)
{
    if (S->p32 == NULL || S->i32 == NULL) return GG_ERR_UNSUPPORTED ;
    if (S->nrows > INT32_MAX || S->ncols > INT32_MAX || S->nnz > INT32_MAX)
        return GG_ERR_UNSUPPORTED ;
    // every row of S has an entry when a result stays (so nnz > 0)
    if (S->nrows == 0 || X->ncols == 0 || S->nnz == 0) return GG_ERR_UNSUPPORTED ;
    op_args a = { .op = OP_SPMM, .sr = sr, .S = S, .X = X, .Y = Y,
        .x_dev = x_res, .y_dev = true } ;
    return run_op (&a) ;
}

static int cuda_sddmm (const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    if (M->p32 == NULL || M->i32 == NULL) return GG_ERR_UNSUPPORTED ;
    if (M->nrows > INT32_MAX || M->ncols > INT32_MAX || M->nnz > INT32_MAX ||
        A->ncols > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (M->nnz == 0) return GG_OK ;
    int mrc ;
    if (multi_sddmm (sr, M, A, B, y, &mrc)) return mrc ;  // GRBGPU_DEVICES slots
    op_args a = { .op = OP_SDDMM, .sr = sr, .S = M, .X = A, .B = B, .Y = y } ;
    return run_op (&a) ;
}

// sddmm with y a resident buffer (a matrix on M's pattern, backend/resident/)
static int cuda_sddmm_res (const gg_semiring *sr, const gg_csr *M,
    const gg_dense *A, const gg_dense *B, void *y)
{
    if (M->p32 == NULL || M->i32 == NULL) return GG_ERR_UNSUPPORTED ;
    if (M->nrows > INT32_MAX || M->ncols > INT32_MAX || M->nnz > INT32_MAX ||
        A->ncols > INT32_MAX) return GG_ERR_UNSUPPORTED ;
    if (M->nnz == 0) return GG_OK ;
    op_args a = { .op = OP_SDDMM, .sr = sr, .S = M, .X = A, .B = B, .Y = y, .y_dev = true } ;
    return run_op (&a) ;
}

static int cuda_gemm (const gg_semiring *sr, const gg_dense *A,
    const gg_dense *B, void *Y)
{
    if (A->nrows == 0 || B->nrows == 0) return GG_OK ;
    op_args a = { .op = OP_GEMM, .sr = sr, .X = A, .B = B, .Y = Y } ;
    return run_op (&a) ;
}

// gemm with Y (and A->x / B->x when a_res / b_res) a resident buffer
static int cuda_gemm_res (const gg_semiring *sr, const gg_dense *A, bool a_res, bool a_t,
    const gg_dense *B, bool b_res, bool b_t, void *Y)
{
    // (a result stays only when it has entries)
    if (A->nrows == 0 || B->nrows == 0) return GG_ERR_UNSUPPORTED ;
    op_args a = { .op = OP_GEMM, .sr = sr, .X = A, .B = B, .Y = Y, .x_dev = a_res,
        .b_dev = b_res, .y_dev = true, .a_t = a_res && a_t, .b_t = b_res && b_t } ;
    return run_op (&a) ;
}

static const gg_backend cuda_backend_table =
{
    .name = "cuda",
    .spmm = cuda_spmm,
    .sddmm = cuda_sddmm,
    .gemm = cuda_gemm,
    .res_alloc = cuda_res_alloc,
    .res_free = cuda_res_free,
    .res_download = cuda_res_download,
    .spmm_res = cuda_spmm_res,
    .spmm_transposed = true,
    .res_upload = cuda_res_upload,
    .vec_op = cuda_vec_op,
    .gemm_res = cuda_gemm_res,
    .vec_reduce = cuda_vec_reduce,
    .vec_gather = cuda_vec_gather,
    .vec_select = cuda_vec_select,
    .sddmm_res = cuda_sddmm_res,
    .csr_row_reduce = cuda_csr_row_reduce,
    .csr_row_op = cuda_csr_row_op,
    .vec_exp = cuda_vec_exp,
} ;

// The module's backend (backend/cuda_module.h): CUDA started in this process,
// or NULL when there is no usable device.
const gg_backend *gg_cuda_backend (void)
{
    return gg_cuda_start () ? &cuda_backend_table : NULL ;
}
