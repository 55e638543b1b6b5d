//------------------------------------------------------------------------------
// kernels/special/special_values.cu: infinities, NaNs or subnormals in an array
//------------------------------------------------------------------------------

// gg_cuda_special_values (kernels/gg_cuda.h): backend/ asks it before it
// hands values to cuSPARSE or cuBLAS.

#include "kernels/gg_cuda.h"
#include "kernels/gg_semiring.cuh"

// *flag = 1 if some value of x [0..n) is special: all exponent bits set (an
// infinity or a NaN), or none set with a nonzero fraction (subnormal).  U:
// the unsigned type of the value's bits; 16-byte loads where they fit, the
// tail one value at a time; one atomic per block that saw one.
template <typename U>
__device__ __forceinline__ bool special_bits (U b, U expo)
{
    const U e = b & expo ;
    return e == expo || (e == 0 && (U) (b << 1) != 0) ;
}

template <typename U>
__global__ void special_values_kernel (const U *x, int64_t n, U expo, int *flag)
{
    constexpr int V = 16 / (int) sizeof (U) ;
    const int64_t nv = n / V ;
    const int64_t stride = (int64_t) gridDim.x * blockDim.x ;
    const int64_t t0 = (int64_t) blockIdx.x * blockDim.x + threadIdx.x ;
    bool bad = false ;
    for (int64_t q = t0 ; q < nv ; q += stride)
    {
        union { uint4 u4 ; U u [V] ; } v ;
        v.u4 = __ldcs (((const uint4 *) x) + q) ;
        #pragma unroll
        for (int k = 0 ; k < V ; k++) bad |= special_bits (v.u [k], expo) ;
    }
    for (int64_t e = nv * V + t0 ; e < n ; e += stride) bad |= special_bits (x [e], expo) ;
    if (__syncthreads_or (bad) && threadIdx.x == 0) atomicOr (flag, 1) ;
}

extern "C" int gg_cuda_special_values (gg_type t, const void *x, int64_t n,
    int *flag, cudaStream_t stream)
{
    if (flag == NULL || n < 0 || (n > 0 && x == NULL)) return GG_ERR_UNSUPPORTED ;
    if (cudaMemsetAsync (flag, 0, sizeof (int), stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVICE ;
    }
    if (n == 0 || (t != GG_FP32 && t != GG_FP64)) return GG_OK ;
    // 16-byte loads need 16-byte alignment: device allocations have it
    if ((uintptr_t) x % 16 != 0) return GG_ERR_UNSUPPORTED ;
    const int sms = (gg_device_sms () > 0) ? gg_device_sms () : 132 ;
    const int64_t want = (n / (t == GG_FP32 ? 4 : 2) + 255) / 256 ;
    const unsigned blocks = (unsigned) ((want < 1) ? 1 : (want > (int64_t) sms * 8) ? (int64_t) sms * 8 : want) ;
    if (t == GG_FP32)
        special_values_kernel<uint32_t> <<<blocks, 256, 0, stream>>> ((const uint32_t *) x, n, 0x7f800000u, flag) ;
    else
        special_values_kernel<uint64_t> <<<blocks, 256, 0, stream>>> ((const uint64_t *) x, n, 0x7ff0000000000000ull, flag) ;
    return gg_launch_status () ;
}
