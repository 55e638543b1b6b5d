//------------------------------------------------------------------------------
// kernels/vec_ops/vec_exp.cu: expf on device vectors, bit for bit the host's
//------------------------------------------------------------------------------

// The launchers of kernels/vec_ops/vec_exp_cuda.h: the per-entry split into
// easy entries (answered here) and hard ones (listed for the host's expf) is
// kernels/vec_ops/vec_exp.h, shared with the host emulation.  One entry per
// thread, grid-stride.

#include "kernels/gg_kernels.h"
#include "kernels/vec_ops/vec_exp.h"
#include "kernels/vec_ops/vec_exp_cuda.h"

#define EXP_THREADS 256
#define EXP_MAX_BLOCKS 4096

static int exp_blocks (int64_t n)
{
    int64_t b = (n + EXP_THREADS - 1) / EXP_THREADS ;
    return (int) (b < 1 ? 1 : (b > EXP_MAX_BLOCKS ? EXP_MAX_BLOCKS : b)) ;
}

static int exp_launched (void)
{
    return (cudaGetLastError () == cudaSuccess) ? GG_OK : GG_ERR_DEVICE ;
}

// x [i] is read once, before z [i] is written (z may be x), and z [i] is
// written only for easy entries, so a hard entry's input stays where it was
__global__ void vec_exp_pass1_kernel (int64_t n, float *z, const float *x,
    unsigned long long *count, int64_t *hidx, float *hx, int64_t cap,
    uint32_t *mask)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t i = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; i < n ; i += stride)
    {
        const float xi = x [i] ;
        float r ;
        if (gg_exp_fp32_easy (xi, &r))
        {
            z [i] = r ;
        }
        else
        {
            const unsigned long long k = atomicAdd (count, 1ULL) ;
            if ((int64_t) k < cap)
            {
                hidx [k] = i ;
                hx [k] = xi ;
            }
            if (mask != NULL) atomicOr (&mask [i >> 5], 1u << (i & 31)) ;
        }
    }
}

__global__ void vec_exp_collect_kernel (int64_t nwords, const float *x,
    const uint32_t *mask, unsigned long long *count, int64_t *hidx, float *hx,
    int64_t cap)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t w = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; w < nwords ; w += stride)
    {
        uint32_t bits = mask [w] ;
        while (bits != 0)
        {
            const int64_t i = w * 32 + (__ffs ((int) bits) - 1) ;
            bits &= bits - 1 ;
            const unsigned long long k = atomicAdd (count, 1ULL) ;
            if ((int64_t) k < cap)
            {
                hidx [k] = i ;
                hx [k] = x [i] ;
            }
        }
    }
}

__global__ void vec_exp_scatter_kernel (int64_t nhard, float *z,
    const int64_t *hidx, const float *hv)
{
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    for (int64_t k = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ; k < nhard ; k += stride)
    {
        z [hidx [k]] = hv [k] ;
    }
}

extern "C" size_t gg_cuda_vec_exp_mask_words (int64_t n)
{
    return (n <= 0) ? 1 : (size_t) ((n + 31) / 32) ;
}

extern "C" int gg_cuda_vec_exp_pass1 (int64_t n, float *z, const float *x,
    unsigned long long *count, int64_t *hidx, float *hx, int64_t cap,
    uint32_t *mask, cudaStream_t stream)
{
    if (cudaMemsetAsync (count, 0, sizeof (unsigned long long), stream) != cudaSuccess
        || (mask != NULL && cudaMemsetAsync (mask, 0,
            gg_cuda_vec_exp_mask_words (n) * sizeof (uint32_t), stream) != cudaSuccess))
    {
        (void) cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    if (n <= 0) return GG_OK ;
    vec_exp_pass1_kernel <<<exp_blocks (n), EXP_THREADS, 0, stream>>> (n, z, x,
        count, hidx, hx, cap, mask) ;
    return exp_launched () ;
}

extern "C" int gg_cuda_vec_exp_collect (int64_t n, const float *x,
    const uint32_t *mask, unsigned long long *count, int64_t *hidx, float *hx,
    int64_t cap, cudaStream_t stream)
{
    if (cudaMemsetAsync (count, 0, sizeof (unsigned long long), stream) != cudaSuccess)
    {
        (void) cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    if (n <= 0) return GG_OK ;
    const int64_t nwords = (int64_t) gg_cuda_vec_exp_mask_words (n) ;
    vec_exp_collect_kernel <<<exp_blocks (nwords), EXP_THREADS, 0, stream>>> (nwords,
        x, mask, count, hidx, hx, cap) ;
    return exp_launched () ;
}

extern "C" int gg_cuda_vec_exp_scatter (int64_t nhard, float *z,
    const int64_t *hidx, const float *hv, cudaStream_t stream)
{
    if (nhard <= 0) return GG_OK ;
    vec_exp_scatter_kernel <<<exp_blocks (nhard), EXP_THREADS, 0, stream>>> (nhard,
        z, hidx, hv) ;
    return exp_launched () ;
}
