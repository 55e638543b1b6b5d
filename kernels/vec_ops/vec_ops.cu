//------------------------------------------------------------------------------
// kernels/vec_ops/vec_ops.cu: element-wise operations and reductions on
// dense device vectors
//------------------------------------------------------------------------------

// gg_cuda_vec_op, gg_cuda_vec_reduce, gg_cuda_vec_gather and
// gg_cuda_vec_select (kernels/gg_cuda.h): what
// backend/cuda/form_resident.c runs on resident buffers.  One entry per
// thread (grid-stride); the entry's semantics are kernels/vec_ops/vec_elem.h,
// shared with the host emulation.  The reduction is two launches: each block
// reduces a grid-stride slice into one partial, then one block reduces the
// partials.

#include "kernels/gg_cuda.h"
#include "kernels/vec_ops/vec_elem.h"

#define VEC_THREADS 256
#define VEC_MAX_BLOCKS 1024

template <typename T> struct vec_t ;
template <> struct vec_t <float>
{
    __device__ static float apply (gg_vop op, float x, float y) { return gg_vec_apply_fp32 (op, x, y) ; }
    __device__ static float combine (gg_add a, float x, float y) { return gg_vec_combine_fp32 (a, x, y) ; }
    __device__ static float identity (gg_add a) { return gg_vec_identity_fp32 (a) ; }
    __device__ static bool keep (gg_add a, float x, int64_t i, float y, int64_t j) { return gg_vec_keep_fp32 (a, x, i, y, j) ; }
} ;
template <> struct vec_t <double>
{
    __device__ static double apply (gg_vop op, double x, double y) { return gg_vec_apply_fp64 (op, x, y) ; }
    __device__ static double combine (gg_add a, double x, double y) { return gg_vec_combine_fp64 (a, x, y) ; }
    __device__ static double identity (gg_add a) { return gg_vec_identity_fp64 (a) ; }
    __device__ static bool keep (gg_add a, double x, int64_t i, double y, int64_t j) { return gg_vec_keep_fp64 (a, x, i, y, j) ; }
} ;

template <typename T>
__global__ void vec_op_kernel (gg_vop op, int64_t n, T *z, const T *x,
    const T *y, T xs, T ys, const int8_t *present)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ; i += stride)
    {
        if (present != NULL && !present [i]) continue ;
        T a = (x != NULL) ? x [i] : xs ;
        T b = (y != NULL) ? y [i] : ys ;
        z [i] = vec_t <T>::apply (op, a, b) ;
    }
}

// present (NULL: every i): only the x [i] with present [i] take part
template <typename T>
__global__ void vec_reduce_kernel (gg_add add, int64_t n, const T *x,
    const int8_t *present, T *out)
{
    __shared__ T part [VEC_THREADS] ;
    T acc = vec_t <T>::identity (add) ;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ; i += stride)
    {
        if (present == NULL || present [i]) acc = vec_t <T>::combine (add, acc, x [i]) ;
    }
    part [threadIdx.x] = acc ;
    __syncthreads () ;
    for (int s = VEC_THREADS / 2 ; s > 0 ; s /= 2)
    {
        if ((int) threadIdx.x < s)
        {
            part [threadIdx.x] = vec_t <T>::combine (add, part [threadIdx.x], part [threadIdx.x + s]) ;
        }
        __syncthreads () ;
    }
    if (threadIdx.x == 0) out [blockIdx.x] = part [0] ;
}

static int blocks_for (int64_t n)
{
    int64_t b = (n + VEC_THREADS - 1) / VEC_THREADS ;
    return (int) (b < 1 ? 1 : (b > VEC_MAX_BLOCKS ? VEC_MAX_BLOCKS : b)) ;
}

extern "C" int gg_cuda_vec_op (const gg_vec_args *a, const int8_t *present,
    cudaStream_t stream)
{
    if (a->n <= 0) return GG_OK ;
    const int nb = blocks_for (a->n) ;
    if (a->type == GG_FP32)
    {
        vec_op_kernel <float> <<<nb, VEC_THREADS, 0, stream>>> (a->op, a->n,
            (float *) a->z, (const float *) a->x, (const float *) a->y,
            a->xs.f, a->ys.f, present) ;
    }
    else if (a->type == GG_FP64)
    {
        vec_op_kernel <double> <<<nb, VEC_THREADS, 0, stream>>> (a->op, a->n,
            (double *) a->z, (const double *) a->x, (const double *) a->y,
            a->xs.d, a->ys.d, present) ;
    }
    else
    {
        return GG_ERR_UNSUPPORTED ;
    }
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

extern "C" size_t gg_cuda_vec_reduce_scratch (gg_type t)
{
    return (size_t) (VEC_MAX_BLOCKS + 1) * gg_type_size (t) ;
}

// *result_dev (one value) = the reduction of x [0..n); scratch: device
// memory of gg_cuda_vec_reduce_scratch (t) bytes
extern "C" int gg_cuda_vec_reduce (gg_add add, gg_type t, const void *x,
    int64_t n, const int8_t *present, void *scratch, void *result_dev, cudaStream_t stream)
{
    if (n <= 0) return GG_ERR_UNSUPPORTED ;
    const int nb = blocks_for (n) ;
    if (t == GG_FP32)
    {
        vec_reduce_kernel <float> <<<nb, VEC_THREADS, 0, stream>>> (add, n, (const float *) x, present, (float *) scratch) ;
        vec_reduce_kernel <float> <<<1, VEC_THREADS, 0, stream>>> (add, nb, (const float *) scratch, NULL, (float *) result_dev) ;
    }
    else if (t == GG_FP64)
    {
        vec_reduce_kernel <double> <<<nb, VEC_THREADS, 0, stream>>> (add, n, (const double *) x, present, (double *) scratch) ;
        vec_reduce_kernel <double> <<<1, VEC_THREADS, 0, stream>>> (add, nb, (const double *) scratch, NULL, (double *) result_dev) ;
    }
    else
    {
        return GG_ERR_UNSUPPORTED ;
    }
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

template <typename T>
__global__ void vec_gather_kernel (const T *x, const int64_t *idx, int64_t nidx, T *out)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t k = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; k < nidx ; k += stride)
    {
        out [k] = x [idx [k]] ;
    }
}

// out [k] = x [idx [k]] (all device pointers)
extern "C" int gg_cuda_vec_gather (gg_type t, const void *x, const int64_t *idx,
    int64_t nidx, void *out, cudaStream_t stream)
{
    if (nidx <= 0) return GG_OK ;
    const int nb = blocks_for (nidx) ;
    if (t == GG_FP32)
    {
        vec_gather_kernel <float> <<<nb, VEC_THREADS, 0, stream>>> ((const float *) x, idx, nidx, (float *) out) ;
    }
    else if (t == GG_FP64)
    {
        vec_gather_kernel <double> <<<nb, VEC_THREADS, 0, stream>>> ((const double *) x, idx, nidx, (double *) out) ;
    }
    else
    {
        return GG_ERR_UNSUPPORTED ;
    }
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

template <typename T>
__global__ void vec_select_kernel (int64_t n, T *z, int8_t *zb, const T *x, const int8_t *pb)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ; i += stride)
    {
        z [i] = GG_VEC_SELECT (pb, x, i) ;
        zb [i] = pb [i] ;
    }
}

// z [i] = pb [i] ? x [i] : 0, zb [i] = pb [i] (all device pointers)
extern "C" int gg_cuda_vec_select (gg_type t, int64_t n, void *z, int8_t *zb,
    const void *x, const int8_t *pb, cudaStream_t stream)
{
    if (n <= 0) return GG_OK ;
    const int nb = blocks_for (n) ;
    if (t == GG_FP32)
    {
        vec_select_kernel <float> <<<nb, VEC_THREADS, 0, stream>>> (n, (float *) z, zb, (const float *) x, pb) ;
    }
    else if (t == GG_FP64)
    {
        vec_select_kernel <double> <<<nb, VEC_THREADS, 0, stream>>> (n, (double *) z, zb, (const double *) x, pb) ;
    }
    else
    {
        return GG_ERR_UNSUPPORTED ;
    }
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

// dst (cols x rows, row-major) = src' (src: rows x cols, row-major): a plain
// copy of each value through a shared-memory tile (exact: no arithmetic)
template <typename T>
__global__ void transpose_kernel (T *dst, const T *src, int64_t rows, int64_t cols)
{
    __shared__ T tile [32][33] ;
    const int64_t c0 = (int64_t) blockIdx.x * 32, r0 = (int64_t) blockIdx.y * 32 ;
    for (int k = threadIdx.y ; k < 32 ; k += blockDim.y)
    {
        const int64_t r = r0 + k, c = c0 + threadIdx.x ;
        if (r < rows && c < cols) tile [k][threadIdx.x] = src [r * cols + c] ;
    }
    __syncthreads () ;
    for (int k = threadIdx.y ; k < 32 ; k += blockDim.y)
    {
        const int64_t c = c0 + k, r = r0 + threadIdx.x ;
        if (c < cols && r < rows) dst [c * rows + r] = tile [threadIdx.x][k] ;
    }
}

extern "C" int gg_cuda_transpose (void *dst, const void *src, int64_t rows, int64_t cols,
    size_t elem, cudaStream_t stream)
{
    if (rows <= 0 || cols <= 0) return GG_OK ;
    const int64_t bx = (cols + 31) / 32, by = (rows + 31) / 32 ;
    if (bx > 2147483647 || by > 65535) return GG_ERR_UNSUPPORTED ;
    const dim3 grid ((unsigned) bx, (unsigned) by), block (32, 8) ;
    if (elem == 4)
    {
        transpose_kernel <float> <<<grid, block, 0, stream>>> ((float *) dst, (const float *) src, rows, cols) ;
    }
    else if (elem == 8)
    {
        transpose_kernel <double> <<<grid, block, 0, stream>>> ((double *) dst, (const double *) src, rows, cols) ;
    }
    else
    {
        return GG_ERR_UNSUPPORTED ;
    }
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

//------------------------------------------------------------------------------
// row-wise operations on a resident matrix on a pattern (CSR, 32-bit)
//------------------------------------------------------------------------------

// one warp per row (grid-stride over rows): out [i] = the monoid over row i's
// values, from the identity (rows without entries: the identity); MIN / MAX
// give the entry the CPU library's in-order reduction gives (the first of
// equal values, NaNs omitted), PLUS / TIMES sum in the warp's order
template <typename T>
__global__ void csr_row_reduce_kernel (gg_add add, int64_t m, const int32_t *p,
    const T *x, T *out)
{
    const int lane = threadIdx.x & 31 ;
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) >> 5 ;
    const bool minmax = (add == GG_ADD_MIN || add == GG_ADD_MAX) ;
    for (int64_t i = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) >> 5 ; i < m ; i += nwarps)
    {
        T acc = vec_t <T>::identity (add) ;
        if (minmax)
        {
            // the entry the CPU library's in-order reduction keeps: with its
            // position, whatever the order here (vec_elem.h, keep)
            long long at = INT64_MAX ;
            for (int64_t q = p [i] + lane ; q < p [i+1] ; q += 32)
            {
                if (!vec_t <T>::keep (add, acc, at, x [q], q)) { acc = x [q] ; at = q ; }
            }
            for (int off = 16 ; off > 0 ; off /= 2)
            {
                const T y = __shfl_down_sync (0xffffffffu, acc, off) ;
                const long long j = __shfl_down_sync (0xffffffffu, at, off) ;
                if (!vec_t <T>::keep (add, acc, at, y, j)) { acc = y ; at = j ; }
            }
        }
        else
        {
            for (int64_t q = p [i] + lane ; q < p [i+1] ; q += 32) acc = vec_t <T>::combine (add, acc, x [q]) ;
            for (int off = 16 ; off > 0 ; off /= 2)
            {
                acc = vec_t <T>::combine (add, acc, __shfl_down_sync (0xffffffffu, acc, off)) ;
            }
        }
        if (lane == 0) out [i] = acc ;
    }
}

// z [q] = op (d [i], x [q]) (d_first) or op (x [q], d [i]) for the entries q
// of row i
template <typename T>
__global__ void csr_row_op_kernel (gg_vop op, int64_t m, const int32_t *p,
    T *z, const T *x, const T *d, bool d_first)
{
    const int lane = threadIdx.x & 31 ;
    const int64_t nwarps = ((int64_t) gridDim.x * blockDim.x) >> 5 ;
    for (int64_t i = ((int64_t) blockIdx.x * blockDim.x + threadIdx.x) >> 5 ; i < m ; i += nwarps)
    {
        const T di = d [i] ;
        for (int64_t q = p [i] + lane ; q < p [i+1] ; q += 32)
        {
            z [q] = d_first ? vec_t <T>::apply (op, di, x [q]) : vec_t <T>::apply (op, x [q], di) ;
        }
    }
}

static int warp_blocks_for (int64_t m)
{
    int64_t b = (m * 32 + VEC_THREADS - 1) / VEC_THREADS ;
    return (int) (b < 1 ? 1 : (b > 65535 ? 65535 : b)) ;
}

extern "C" int gg_cuda_csr_row_reduce (gg_add add, gg_type t, int64_t m, const int32_t *p,
    const void *x, void *out, cudaStream_t stream)
{
    if (m <= 0) return GG_OK ;
    const int nb = warp_blocks_for (m) ;
    if (t == GG_FP32)
        csr_row_reduce_kernel <float> <<<nb, VEC_THREADS, 0, stream>>> (add, m, p, (const float *) x, (float *) out) ;
    else if (t == GG_FP64)
        csr_row_reduce_kernel <double> <<<nb, VEC_THREADS, 0, stream>>> (add, m, p, (const double *) x, (double *) out) ;
    else return GG_ERR_UNSUPPORTED ;
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

extern "C" int gg_cuda_csr_row_op (gg_vop op, gg_type t, int64_t m, const int32_t *p,
    void *z, const void *x, const void *d, bool d_first, cudaStream_t stream)
{
    if (m <= 0) return GG_OK ;
    const int nb = warp_blocks_for (m) ;
    if (t == GG_FP32)
        csr_row_op_kernel <float> <<<nb, VEC_THREADS, 0, stream>>> (op, m, p, (float *) z,
            (const float *) x, (const float *) d, d_first) ;
    else if (t == GG_FP64)
        csr_row_op_kernel <double> <<<nb, VEC_THREADS, 0, stream>>> (op, m, p, (double *) z,
            (const double *) x, (const double *) d, d_first) ;
    else return GG_ERR_UNSUPPORTED ;
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}
