//------------------------------------------------------------------------------
// kernels/gg_device.cu: the kernels' device services: scratch pool, SM count
//------------------------------------------------------------------------------

// Declared in kernels/gg_semiring.cuh; used by every family's launchers.

#include <cstring>
#include <mutex>
#include "kernels/gg_semiring.cuh"
#include "kernels/gg_cuda.h"

// The kernels' scratch: stream-ordered allocations from the kernels' own
// memory pool (one per device, created on first use, keeping its memory
// between calls), so a call neither synchronises nor pays cudaMalloc.  The
// launchers free what they take in stream order.
cudaMemPool_t gg_kernel_pool (void)
{
    static std::mutex mu ;
    static cudaMemPool_t pools [64] ;
    static bool made [64] ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 64) return NULL ;
    std::lock_guard<std::mutex> lock (mu) ;
    if (!made [dev])
    {
        cudaMemPoolProps props ;
        memset (&props, 0, sizeof (props)) ;
        props.allocType = cudaMemAllocationTypePinned ;
        props.location.type = cudaMemLocationTypeDevice ;
        props.location.id = dev ;
        if (cudaMemPoolCreate (&pools [dev], &props) != cudaSuccess)
        {
            cudaGetLastError () ;
            return NULL ;
        }
        uint64_t keep = UINT64_MAX ;
        cudaMemPoolSetAttribute (pools [dev], cudaMemPoolAttrReleaseThreshold, &keep) ;
        made [dev] = true ;
    }
    return pools [dev] ;
}

int gg_kernel_scratch (void **ws, size_t bytes, cudaStream_t stream)
{
    cudaMemPool_t pool = gg_kernel_pool () ;
    if (pool == NULL) return GG_ERR_DEVICE ;
    if (cudaMallocFromPoolAsync (ws, bytes, pool, stream) != cudaSuccess)
    {
        cudaGetLastError () ;
        return GG_ERR_DEVMEM ;
    }
    return GG_OK ;
}

extern "C" void gg_cuda_pool_trim (void)
{
    cudaMemPool_t pool = gg_kernel_pool () ;
    if (pool != NULL) (void) cudaMemPoolTrimTo (pool, 0) ;
    (void) cudaGetLastError () ;
}

// The SMs of the current device (asked once per device; 0 if unknown)
int gg_device_sms (void)
{
    static int sms [64] ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 64) return 0 ;
    if (sms [dev] == 0 && cudaDeviceGetAttribute (&sms [dev],
        cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    {
        cudaGetLastError () ;
        sms [dev] = 0 ;
    }
    return sms [dev] ;
}
