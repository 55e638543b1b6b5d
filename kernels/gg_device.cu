//------------------------------------------------------------------------------
// kernels/gg_device.cu: the kernels' device services: scratch pool, SM count
//------------------------------------------------------------------------------

// Declared in kernels/gg_semiring.cuh; used by every family's launchers.

#include <cstring>
#include <mutex>
#include "kernels/gg_semiring.cuh"
#include "kernels/gg_cuda.h"

// A device's memory pool (created on first use) that keeps up to `keep`
// bytes of freed memory between calls instead of handing it back to the
// device at each synchronisation; one per (device, which).
static cudaMemPool_t gg_pool (int which, uint64_t keep)
{
    static std::mutex mu ;
    static cudaMemPool_t pools [2][64] ;
    static bool made [2][64] ;
    int dev = 0 ;
    if (cudaGetDevice (&dev) != cudaSuccess || dev < 0 || dev >= 64)
    {
        cudaGetLastError () ;
        return NULL ;
    }
    std::lock_guard<std::mutex> lock (mu) ;
    if (!made [which][dev])
    {
        cudaMemPoolProps props ;
        memset (&props, 0, sizeof (props)) ;
        props.allocType = cudaMemAllocationTypePinned ;
        props.location.type = cudaMemLocationTypeDevice ;
        props.location.id = dev ;
        if (cudaMemPoolCreate (&pools [which][dev], &props) != cudaSuccess)
        {
            cudaGetLastError () ;
            return NULL ;
        }
        cudaMemPoolSetAttribute (pools [which][dev], cudaMemPoolAttrReleaseThreshold, &keep) ;
        made [which][dev] = true ;
    }
    return pools [which][dev] ;
}

// The kernels' scratch: stream-ordered allocations from the kernels' own
// memory pool (one per device, keeping its memory between calls), so a call
// neither synchronises nor pays cudaMalloc.  The launchers free what they
// take in stream order.
cudaMemPool_t gg_kernel_pool (void)
{
    return gg_pool (0, UINT64_MAX) ;
}

// The forms' builds (formats/hybrid.cu): their scratch and the forms
// themselves.  The default pool hands freed memory back at every
// synchronisation, so each build paid for mapping it again: ~0.12 ms for
// one allocation, freed and synchronised, against ~0.01 ms a kernel launch
// (H200, bench/NOTES.md, 2026-11-29, fifth session), most of a small
// matrix's build.  This pool keeps GG_BUILD_POOL_KEEP bytes: the scratch of
// a build up to ~2.5M entries; larger builds map what they need above it.
#define GG_BUILD_POOL_KEEP ((uint64_t) 64 << 20)
cudaMemPool_t gg_build_pool (void)
{
    return gg_pool (1, GG_BUILD_POOL_KEEP) ;
}

extern "C" void gg_cuda_pools_trim (void)
{
    for (int which = 0 ; which < 2 ; which++)
    {
        cudaMemPool_t pool = (which == 0) ? gg_kernel_pool () : gg_build_pool () ;
        if (pool != NULL) (void) cudaMemPoolTrimTo (pool, 0) ;
    }
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
